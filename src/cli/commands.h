// src/cli/commands.h — the mxcert subcommands; each returns the process exit code.
#pragma once

namespace mxcert::cli {

/// Exit codes (SPEC §8).
enum Exit { kOk = 0, kRefuted = 1, kUsage = 2, kUnknown = 3 };

int cmdEval(int argc, char **argv);
int cmdTable(int argc, char **argv);
int cmdProve(int argc, char **argv);
int cmdCex(int argc, char **argv);
int cmdBound(int argc, char **argv);
int cmdEmitSmt2(int argc, char **argv);
/// `mxcert check FILE [--solver z3|cvc5|both|other|none] [--timeout S]` (src/check).
int cmdCheck(int argc, char **argv);
/// `mxcert export FILE --as cpp|json|mlir [--name NAME] [-o OUT]`.
int cmdExport(int argc, char **argv);
/// `mxcert plot CERT [-o FILE.svg|FILE.png] [--compare CERT2]`: the agree set as a picture.
int cmdPlot(int argc, char **argv);
/// `mxcert sweep MANIFEST -o DIR [--jobs N] [--shard I/N]`: a manifest of tables (docs/sweeps.md).
int cmdSweep(int argc, char **argv);
/// `mxcert merge INDEX|DIR... [-o OUT]`: shard indexes of one sweep joined into one.
int cmdMerge(int argc, char **argv);
/// `mxcert --version`: release, git revision, solver versions, encoder identity.
int cmdVersion();

}  // namespace mxcert::cli

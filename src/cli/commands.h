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

}  // namespace mxcert::cli

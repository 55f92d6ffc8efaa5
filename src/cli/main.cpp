// src/cli/main.cpp — the `mxcert` command: dispatch and error handling.
#include "src/cli/commands.h"
#include "src/cli/errors.h"
#include "src/cli/options.h"
#include "models/domain.h"
#include "smt/budget.h"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <fmt/core.h>

namespace {

const char *kUsageText =
    "usage: mxcert <command> [options]\n"
    "commands:\n"
    "  eval    evaluate placements on concrete inputs (reference evaluator)\n"
    "  table   the certified agree set of two placements over all scale-code pairs\n"
    "  prove   prove that two placements agree on a guard (--guard \"e:-147..122\")\n"
    "  cex     a counterexample at one code pair (--xa N --xb N), or a proof of agreement\n"
    "  bound   the closed-form agree set, certified sound and tight by the solver\n"
    "  emit-smt2  a query as SMT-LIB2 text (--encoding lia|fp)\n"
    "  check   check every claim of a certificate (--solver z3|cvc5|both, --timeout S)\n"
    "  export  a certificate's guard as a C++ header, compact JSON or MLIR (--as cpp|json|mlir)\n"
    "  plot    a certificate's agree set as an SVG or PNG picture (-o FILE.svg|FILE.png, --compare)\n"
    "  sweep   every table of a manifest, certified as one job (-o DIR, --jobs N, --shard I/N)\n"
    "  merge   the shard indexes of one sweep joined into one index (-o OUT)\n"
    "common options: --a FMT --b FMT | --format mxfp4|mxfp6|mxfp8, --acc f32|bf16|f16|f64,\n"
    "  --round rne|rtz, --subnormals keep|ftz|daz, --k K, --tree seq|pairwise|fused|SEXPR,\n"
    "  --relation bitwise|value; --json (eval, table, prove, cex, bound, check),\n"
    "  -o FILE (table, eval, export, plot, merge; sweep: -o DIR)\n"
    "limits: --timeout S (the whole command's wall time), --query-timeout S (one solver call),\n"
    "  --max-terms N (one query's size); a limit reached is exit 3 (unknown), never proven\n"
    "mxcert CMD --help (or mxcert help CMD) lists a command's options; mxcert --version\n"
    "see README.md and docs/cli.md for details\n";

/// Runs command `cmd` (argv[1]).
int dispatch(const std::string &cmd, int argc, char **argv) {
  using namespace mxcert::cli;
  if (cmd == "eval") return cmdEval(argc, argv);
  if (cmd == "table") return cmdTable(argc, argv);
  if (cmd == "prove") return cmdProve(argc, argv);
  if (cmd == "cex") return cmdCex(argc, argv);
  if (cmd == "bound") return cmdBound(argc, argv);
  if (cmd == "emit-smt2") return cmdEmitSmt2(argc, argv);
  if (cmd == "check") return cmdCheck(argc, argv);
  if (cmd == "export") return cmdExport(argc, argv);
  if (cmd == "plot") return cmdPlot(argc, argv);
  if (cmd == "sweep") return cmdSweep(argc, argv);
  if (cmd == "merge") return cmdMerge(argc, argv);
  if (cmd == "--version" || cmd == "version") {
    if (argc > 2) throw UsageError(cmd + " takes no arguments");
    return cmdVersion();
  }
  throw UsageError("unknown command '" + cmd + "' (try mxcert --help)");
}

}  // namespace

/// SIGINT/SIGTERM: remember the signal; the command's budget then stops building and solving,
/// the running solver child is killed, and main reports the interrupt (exit 128 + signal). A
/// second signal is not caught (SA_RESETHAND): it ends the process at once.
extern "C" void onInterrupt(int sig) { mxcert::smt::Budget::interruptSignal() = sig; }

void installInterruptHandler() {
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = onInterrupt;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

/// The exit of an interrupted command: one line, 128 + the signal.
int interruptedExit() {
  const int sig = int(mxcert::smt::Budget::interruptSignal());
  fmt::print(stderr, "mxcert: interrupted (signal {}): stopped early; nothing undecided is reported as proven, "
             "and an -o file is written only for a complete result\n", sig);
  return 128 + sig;
}

int main(int argc, char **argv) {
  using namespace mxcert::cli;
  installInterruptHandler();
  if (argc < 2) {
    std::fputs("mxcert: error: missing command (try mxcert --help)\n", stderr);
    return kUsage;
  }
  if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") ||
      (!std::strcmp(argv[1], "help") && argc == 2)) {
    std::fputs(kUsageText, stdout);
    return kOk;
  }
  // `mxcert help CMD` is `mxcert CMD --help`.
  char helpFlag[] = "--help";
  char *helpArgv[] = {argv[0], argc > 2 ? argv[2] : argv[1], helpFlag, nullptr};
  if (!std::strcmp(argv[1], "help")) {
    if (argc > 3) {
      std::fputs("mxcert: error: help takes one command name (mxcert help CMD)\n", stderr);
      return kUsage;
    }
    argc = 3;
    argv = helpArgv;
  }
  std::string cmd = argv[1];
  try {
    auto run = [&]() -> int {
      try {
        return dispatch(cmd, argc, argv);
      } catch (const HelpRequested &h) {
        writeStdout(h.what());
        return kOk;
      }
    };
    const int rc = run();
    // Whatever a command printed must have reached standard output: a full disk or a closed
    // pipe is an error (exit 2), never a success with a truncated answer.
    writeStdout("");
    if (mxcert::smt::Budget::interrupted()) return interruptedExit();
    return rc;
  } catch (const std::bad_alloc &) {
    std::fputs("mxcert: unknown: out of memory (a resource limit)\n", stderr);  // allocates nothing
    return kUnknown;
  } catch (...) {
    // Bad input (2), a limit (3; one reached because of an interrupt is the interrupt), an
    // internal error (70): src/cli/errors.h, shared with the Python module.
    const Failure f = failureOf(std::current_exception());
    if (f.exit == kUnknown && mxcert::smt::Budget::interrupted()) return interruptedExit();
    fmt::print(stderr, "mxcert: {}: {}\n", f.kind, oneLine(f.message));
    return f.exit;
  }
}

// src/cli/options.h — command-line parsing shared by the mxcert subcommands.
#pragma once

#include "smt/budget.h"
#include "models/placement.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace mxcert::cli {

/// Bad usage or bad input: printed as one line, exit code 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A question the tool cannot decide by construction (exit 3, "unknown"): `--tree any` for a
/// configuration without an order-independent invariant ("no order-independent proof for ...").
struct NoAnyOrderProof : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// `--help` (or `-h`) among a command's arguments: what() is the help text (stdout, exit 0).
struct HelpRequested : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The help of command `cmd`, generated from the option sets its parser accepts.
std::string commandHelp(const std::string &cmd, const std::set<std::string> &flags, const std::set<std::string> &valued);
/// " (did you mean --NAME?)" for the accepted option closest to `name` (within two edits), or "".
std::string didYouMean(const std::string &name, const std::set<std::string> &flags, const std::set<std::string> &valued);

/// A parsed command line: --name value options, --flags and positional arguments.
class Args {
public:
  /// Parses argv[first..]. `flags` are options without a value; `valued` take one value
  /// (as the next argument or after '='); "o" in `valued` accepts `-o FILE`. Anything else
  /// starting with "-" is an error (naming the closest accepted option). `--help` or `-h`
  /// throws HelpRequested with the help of command argv[first - 1].
  Args(int argc, char **argv, int first, const std::set<std::string> &flags,
       const std::set<std::string> &valued);

  bool flag(const std::string &name) const { return flags_.count(name) != 0; }
  std::optional<std::string> get(const std::string &name) const;
  std::string get(const std::string &name, const std::string &dflt) const;
  /// The value of a required option; UsageError when absent.
  std::string require(const std::string &name) const;
  const std::vector<std::string> &positional() const { return pos_; }

private:
  std::set<std::string> flags_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> pos_;
};

/// The one line of prove, cex, bound and emit-smt2 asked for an NVFP4 configuration: their
/// guards and regions are e8m0 code ranges; NVFP4 proofs are regions in scale coordinates,
/// which only `table` builds so far (docs/semantics.md, "NVFP4").
constexpr const char *kNvfp4OnlyTable =
    "nvfp4: prove, cex, bound and emit-smt2 take e8m0 code regions; use `mxcert table` (solver or exhaustive engine)";

/// The option names of a configuration (for Args' `valued` set).
const std::set<std::string> &configOptions();

/// Builds the configuration from --a/--b/--format, --acc, --round, --subnormals, --k, --tree.
/// Throws UsageError naming the problem.
ModelConfig parseConfig(const Args &args);

/// A placement option (--lhs/--rhs) with a default.
Placement parsePlacementOpt(const Args &args, const std::string &name, Placement dflt);
/// --relation (default bitwise).
Relation parseRelationOpt(const Args &args);

/// --solver (default cvc5); UsageError for names other than cvc5 and z3.
std::string parseSolverOpt(const Args &args);
/// A positive number of seconds given as --NAME, or `dflt` when absent; UsageError otherwise.
double parseSecondsOpt(const Args &args, const std::string &name, double dflt);
/// --jobs N (1..999), or `dflt` when absent; UsageError naming `what` ("processes",
/// "threads") otherwise.
int parseJobsOpt(const Args &args, int dflt, const char *what);
/// One per processor this process may run on (its CPU affinity: a Slurm task's share), at
/// most 8: the default --jobs of check and table.
int defaultJobs();
/// The command's budget: a deadline of --timeout seconds (default `dfltTimeout`; <= 0 = no
/// deadline) for the whole command, and the term cap --max-terms N of one query (default
/// kDefaultMaxTerms).
smt::Budget parseBudget(const Args &args, double dfltTimeout);
/// The default term cap of one query (--max-terms): about 20 times the largest query of the
/// standard tables, far below what exhausts the memory of a small machine.
constexpr size_t kDefaultMaxTerms = 20000000;

/// "a=e2m1 b=e2m1 acc=f32 round=rne subnormals=keep k=2 tree=(0 1)".
std::string describe(const ModelConfig &cfg);

/// A progress line on stderr for long commands: "mxcert: WHAT: DONE/TOTAL UNIT (P%), R/s, about
/// T s left". Shown when stderr is a terminal (rewritten in place, at most 4 times a second), or
/// always with --progress (then one line per update, at most one a second); never with --quiet.
class Progress {
public:
  /// `what` names the command ("table"), `unit` what is counted ("code pairs").
  Progress(const Args &args, std::string what, std::string unit);
  ~Progress();
  /// Whether anything is shown.
  bool enabled() const { return enabled_; }
  /// Reports `done` of `total` (rate-limited).
  void update(long done, long total);

private:
  bool enabled_ = false, tty_ = false, shown_ = false;
  std::string what_, unit_;
  std::chrono::steady_clock::time_point start_, last_;
};

/// Writes `text` to the file named by -o (writeFileAtomic), or to stdout (writeStdout) when
/// there is no -o.
void emit(const Args &args, const std::string &text);
/// Writes `text` to `path` atomically: a temporary file in the same directory, written,
/// flushed and fsync'ed, then renamed over `path`. On any failure the temporary file is
/// removed, `path` is left as it was, and UsageError names the reason (exit 2).
void writeFileAtomic(const std::string &path, const std::string &text);
/// Writes `text` to standard output and flushes it; UsageError when that fails (a full disk,
/// a closed pipe), so that no command reports success with a truncated output.
void writeStdout(const std::string &text);
/// `s` with every byte outside printable ASCII, and the backslash, written as \xNN: safe
/// inside a one-line comment of generated code (no line break, no line continuation).
std::string commentSafe(const std::string &s);
/// `s` with control characters (line breaks included) written as \\xNN: an error message
/// stays one line whatever a user-given value contains.
std::string oneLine(const std::string &s);

}  // namespace mxcert::cli

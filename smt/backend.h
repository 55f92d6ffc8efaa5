// smt/backend.h — one small interface over the solvers (cvc5, Z3) and SMT-LIB2 text.
//
// A backend decides the satisfiability of the conjunction of a TermStore's assertions. Each
// backend object owns its own solver context: there is no global solver state, so two
// backends (even of the same solver) can be used side by side.
#pragma once

#include "smt/term.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mxcert::smt {

/// sat / unsat / unknown (timeout, resource limit, incompleteness). Unknown is never a proof.
enum class Verdict { Sat, Unsat, Unknown };

const char *toString(Verdict v);

/// The answer of one check.
struct CheckResult {
  Verdict verdict = Verdict::Unknown;
  double seconds = 0;                      ///< wall time of the solver call
  std::string reason;                      ///< for unknown: why (timeout, ...)
  std::map<std::string, Integer> model;    ///< for sat: values of the declared variables
  /// For unknown: the solver ran out of a machine resource (memory; its process died of a
  /// signal); a smaller query of the same configuration is not expected to fare better,
  /// so callers stop splitting.
  bool exhausted = false;
  /// For sat or unknown: the phase of the query (smt/term.h) that was not unsat.
  int phase = -1;
};

/// A solver behind the common interface.
class Backend {
public:
  virtual ~Backend() = default;
  /// "cvc5" or "z3".
  virtual std::string name() const = 0;
  /// The solver's version string.
  virtual std::string version() const = 0;
  /// Checks the store's assertions; `timeoutSec` <= 0 means no limit. By default every phase
  /// in order, each with checkPhase (checkEveryPhase).
  virtual CheckResult check(const TermStore &store, double timeoutSec);
  /// Checks one phase of the store's query (smt/term.h; -1: the whole query, when it has one
  /// phase) as one solver call.
  virtual CheckResult checkPhase(const TermStore &store, int phase, double timeoutSec) = 0;
  /// Checks several queries, each with `timeoutSec`, and answers in order up to and including
  /// the first that is not unsat (the rest are not needed: the caller asks whether all of
  /// them are unsat). By default one after another with check(); isolate() with `jobs` > 1
  /// checks them side by side, with the same answers.
  virtual std::vector<CheckResult> checkAll(const std::vector<const TermStore *> &stores, double timeoutSec);
};

/// Checks every phase of the store's query (smt/term.h) with `checkPhase(phase, secondsLeft)`
/// (phase -1: the whole query, when it has one phase), within `timeoutSec` in all (<= 0: no
/// limit): unsat when every phase is; otherwise the first other answer, with its phase and
/// the seconds of every call so far. The backends' shared loop.
CheckResult checkEveryPhase(const TermStore &store, double timeoutSec,
                            const std::function<CheckResult(int, double)> &checkPhase);

/// The same for the phases `phases` only, in that order (a share of the phases, checked in a
/// process of its own: isolate()'s `jobs`).
CheckResult checkPhases(const std::vector<int> &phases, double timeoutSec,
                        const std::function<CheckResult(int, double)> &checkPhase);

/// Names of the solvers this build links ("cvc5", "z3").
std::vector<std::string> availableSolvers();
/// A new backend for a solver name; nullptr when unknown or not built. Its checks run in a
/// child process with a hard time limit (smt/isolated.h), the fact phases of a query with many
/// in up to `jobs` processes side by side (isolate()).
std::unique_ptr<Backend> makeBackend(const std::string &solver, int jobs = 1);

}  // namespace mxcert::smt

// smt/isolated.h — a backend that runs each check of another backend in a child process.
//
// Why: solver time limits are advisory. cvc5 1.0.3 ignores `tlimit-per` in phases without
// resource checks (a k = 32 query ran over ten minutes under a 5 s limit), and a solver that
// runs out of memory may crash the whole process (Z3 under `ulimit -v`). The isolated backend
// forks, lets the child run the wrapped backend's check with the same limit, and reads the
// answer (verdict, model) back through a pipe. The parent waits at most the limit plus a
// grace period, then kills the child: the command's deadline holds whatever the solver does.
// A child that is killed, crashes or exits without an answer gives Unknown with the reason
// (a resource limit, never an answer), so solver resource exhaustion is exit 3, not a crash.
//
// The parent process keeps no solver state from the check (the child's context dies with it):
// backends stay independent, as backend.h requires.
#pragma once

#include "smt/backend.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mxcert::smt {

/// Wraps `inner`: every check() runs in a forked child (see the file comment), except a
/// query that is the constant false (constantFalseQuery). name() and version() are the inner
/// backend's. With `jobs` > 1, a query with at least kMinParallelFactPhases fact phases is
/// checked in two steps: the goal's phase (0) in one child, then, if it is unsat, the fact
/// phases shared among `jobs` children side by side (phase 1 + i, 1 + i + jobs, ... in the
/// i-th: allIsolated). The answer is the same as one child's, every phase in order, except
/// when several fact phases are not unsat: then the first to arrive is the answer (a fact
/// that is not proven either way, so the query is not proven either way).
std::unique_ptr<Backend> isolate(std::unique_ptr<Backend> inner, int jobs = 1);

/// The fewest fact phases (smt/term.h) checked by isolate()'s `jobs` children side by side:
/// below it, one child checks them all (a forked child costs about 25 ms on the 2-core
/// machine of docs/benchmarks.md; a fact phase takes about 1-100 ms).
constexpr int kMinParallelFactPhases = 16;

/// The most terms a constant-false query may reach to be checked in the process.
constexpr size_t kInProcessMaxTerms = 20000;

/// Whether every phase of the query asserts the constant false (`false` was asserted, or the
/// goal folded to false and no fact has a phase of its own) and its live assertions reach at
/// most kInProcessMaxTerms terms. The solver answers such a query unsat at its first step, and
/// translating a small one is quick (it can neither run long nor exhaust memory), so isolate()
/// checks it in this process: a forked child cost more than the answer (about 25 ms against
/// 1 ms on the 2-core machine of docs/benchmarks.md, "Constant-false queries in the process").
/// The solver is still called, and its answer is the verdict.
bool constantFalseQuery(const TermStore &store);

/// Runs `work` (a solver call with limit `timeoutSec`; <= 0: none) in a forked child and
/// returns its answer, or Unknown when the child is killed at the limit plus the grace period,
/// dies (then `exhausted` is set) or exits without an answer. The mechanism behind isolate().
CheckResult runIsolated(const std::function<CheckResult()> &work, double timeoutSec);

/// One contestant of raceIsolated(): a solver call, started `startAfterSec` seconds after the
/// race began unless the race was decided before.
struct Entrant {
  double startAfterSec = 0;
  std::function<CheckResult()> work;
};

/// Runs the entrants in forked children, each at its start time (and the next one at once
/// when every started one has ended without a decided answer); the first sat or unsat answer
/// wins, and the children still running are killed. Unknown when every entrant ends unknown
/// (the first one's reason) or when the limit plus the grace period passes. A solver's answer
/// is its own: the race only chooses which decided answer arrives first, so it never turns an
/// unknown into a verdict. runIsolated() is the race of one entrant.
CheckResult raceIsolated(const std::vector<Entrant> &entrants, double timeoutSec);

/// Runs every one of `works` (solver calls, each on a share of a query's phases) in a forked
/// child of its own, all at once, within `timeoutSec` in all (<= 0: none): unsat when every
/// child answers unsat; otherwise the first other answer to arrive (sat, or unknown: a child
/// killed at the limit plus the grace period, dead or without an answer), and the children
/// still running are killed. The conjunction of the shares, where raceIsolated() is their
/// disjunction.
CheckResult allIsolated(const std::vector<std::function<CheckResult()>> &works, double timeoutSec);

/// Writes all of `s` to `fd` (a pipe to the parent, from a forked child); false on failure.
bool writeAll(int fd, const std::string &s);

/// The grace period (seconds) after a check's limit before the child is killed.
constexpr double kIsolationGraceSec = 0.25;

}  // namespace mxcert::smt

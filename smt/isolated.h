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
/// i-th: eachIsolated). The answer is the same as one child's, every phase in order, except
/// when several fact phases are not unsat: then the first failing phase of the first failing
/// share is the answer (a fact that is not proven either way, so the query is not proven
/// either way). With `jobs` > 1, checkAll() checks its queries side by side where one of them
/// is large (kMinParallelQueryTerms), each as check() would in a child of its own
/// (eachIsolated): in order, up to the first that is not unsat.
std::unique_ptr<Backend> isolate(std::unique_ptr<Backend> inner, int jobs = 1);

/// The fewest fact phases (smt/term.h) checked by isolate()'s `jobs` children side by side:
/// below it, one child checks them all (a forked child costs about 25 ms on the 2-core
/// machine of docs/benchmarks.md; a fact phase takes about 1-100 ms).
constexpr int kMinParallelFactPhases = 16;

/// The fewest terms (TermStore::size) of a large query: checkAll() checks its queries side
/// by side only when one of them is large (the induction steps of e2m1 k = 2 f16 rtz
/// post2/post have 72-1,286 terms and take 40-100 ms each, about what a child of their own
/// costs; the root step of e4m3 x e2m1 k = 32 bf16 post2/post has 24,689, its other steps
/// 86-1,367, and they run beside it).
constexpr size_t kMinParallelQueryTerms = 2000;

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

/// Runs every one of `works` (solver calls: the shares of a query's fact phases, or whole
/// queries) in a forked child of its own, all at once, within `timeoutSec` (<= 0: none; each
/// child is killed at the limit plus the grace period). Returns their answers in order, up to
/// and including the first that is not unsat: all of them unsat means the conjunction holds.
/// Once work i answers sat or unknown, the works after it are no longer needed and their
/// children are killed; the works before it are still waited for, so the answer is the one
/// running them one after another in order would give (up to timeouts). An answer's seconds
/// are its wall time from the start. The conjunction of the works, where raceIsolated() is
/// their disjunction.
std::vector<CheckResult> eachIsolated(const std::vector<std::function<CheckResult()>> &works, double timeoutSec);

/// Writes all of `s` to `fd` (a pipe to the parent, from a forked child); false on failure.
bool writeAll(int fd, const std::string &s);

/// The grace period (seconds) after a check's limit before the child is killed.
constexpr double kIsolationGraceSec = 0.25;

}  // namespace mxcert::smt

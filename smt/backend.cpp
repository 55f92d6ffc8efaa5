// smt/backend.cpp — backend registry.
#include "smt/backend.h"
#include "smt/isolated.h"

#include <algorithm>
#include <chrono>

namespace mxcert::smt {

const char *toString(Verdict v) {
  switch (v) {
  case Verdict::Sat: return "sat";
  case Verdict::Unsat: return "unsat";
  case Verdict::Unknown: return "unknown";
  }
  return "?";
}

CheckResult checkPhases(const std::vector<int> &phases, double timeoutSec,
                        const std::function<CheckResult(int, double)> &checkPhase) {
  // Every phase must be unsat (smt/term.h); the first that is not decides.
  CheckResult all;
  all.verdict = Verdict::Unsat;
  const auto t0 = std::chrono::steady_clock::now();
  for (int p : phases) {
    double left = timeoutSec;
    if (timeoutSec > 0) {
      left = timeoutSec - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (left <= 0.001) left = 0.001;
    }
    CheckResult r = checkPhase(p, left);
    all.seconds += r.seconds;
    if (r.verdict != Verdict::Unsat) {
      r.seconds = all.seconds;
      r.phase = std::max(p, 0);
      return r;
    }
  }
  return all;
}

CheckResult checkEveryPhase(const TermStore &store, double timeoutSec,
                            const std::function<CheckResult(int, double)> &checkPhase) {
  std::vector<int> phases;
  if (store.phaseCount() == 1) phases.push_back(-1);
  for (int p = 0; store.phaseCount() > 1 && p < store.phaseCount(); ++p) phases.push_back(p);
  return checkPhases(phases, timeoutSec, checkPhase);
}

std::vector<CheckResult> Backend::checkAll(const std::vector<const TermStore *> &stores, double timeoutSec) {
  std::vector<CheckResult> out;
  for (const TermStore *s : stores) {
    out.push_back(check(*s, timeoutSec));
    if (out.back().verdict != Verdict::Unsat) break;
  }
  return out;
}

CheckResult Backend::check(const TermStore &store, double timeoutSec) {
  return checkEveryPhase(store, timeoutSec, [&](int phase, double left) { return checkPhase(store, phase, left); });
}

std::unique_ptr<Backend> makeCvc5Backend();
std::unique_ptr<Backend> makeZ3Backend();

std::vector<std::string> availableSolvers() { return {"cvc5", "z3"}; }

std::unique_ptr<Backend> makeBackend(const std::string &solver, int jobs) {
  // Every check runs in a child process (smt/isolated.h): the limit holds even where the
  // solver ignores it, and a solver crash (out of memory) is unknown, not a crash of mxcert.
  if (solver == "cvc5") return isolate(makeCvc5Backend(), jobs);
  if (solver == "z3") return isolate(makeZ3Backend(), jobs);
  return nullptr;
}

}  // namespace mxcert::smt

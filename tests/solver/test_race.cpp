// tests/solver/test_race.cpp — raceIsolated (smt/isolated.h): the first decided answer wins,
// an unknown never becomes a verdict, a late entrant starts early when every started one has
// given up, the limit holds, a dying entrant is unknown; and the cvc5 backend's goal phase
// (its first second in the process, then the race) still proves and refutes; isolate() checks
// a small constant-false query in the process and every other query in a child.
#include "smt/backend.h"
#include "smt/isolated.h"
#include "smt/term.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include <unistd.h>

using namespace mxcert;
using namespace mxcert::smt;

namespace {

/// A solver stand-in: sleeps `sec` seconds, then answers `v` (with one model entry for sat).
std::function<CheckResult()> answerAfter(double sec, Verdict v, const std::string &reason = "") {
  return [=] {
    std::this_thread::sleep_for(std::chrono::duration<double>(sec));
    CheckResult r;
    r.verdict = v;
    r.reason = reason;
    if (v == Verdict::Sat) r.model["x"] = Integer(7);
    return r;
  };
}

}  // namespace

TEST_CASE("raceIsolated: the first decided answer wins, the slower entrant is killed", "[race]") {
  const auto t0 = std::chrono::steady_clock::now();
  // The first entrant would answer unsat after 20 s; the second starts at 0.1 s and answers sat.
  CheckResult r = raceIsolated({Entrant{0.0, answerAfter(20, Verdict::Unsat)}, Entrant{0.1, answerAfter(0.1, Verdict::Sat)}},
                               30);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.verdict == Verdict::Sat);
  REQUIRE(r.model.count("x") == 1);
  CHECK(r.model.at("x") == Integer(7));
  CHECK(wall < 5);  // not the 20 s of the first entrant
}

TEST_CASE("raceIsolated: an entrant that is faster than the delay decides alone", "[race]") {
  CheckResult r = raceIsolated({Entrant{0.0, answerAfter(0.05, Verdict::Unsat)}, Entrant{2.0, answerAfter(0, Verdict::Sat)}}, 10);
  CHECK(r.verdict == Verdict::Unsat);  // the second entrant never started
}

TEST_CASE("raceIsolated: an unknown hands over to the next entrant at once, never decides", "[race]") {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r = raceIsolated({Entrant{0.0, answerAfter(0, Verdict::Unknown, "gave up")},
                                Entrant{20.0, answerAfter(0, Verdict::Unsat)}},
                               30);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.verdict == Verdict::Unsat);
  CHECK(wall < 5);  // started at once, not after 20 s

  CheckResult u = raceIsolated({Entrant{0.0, answerAfter(0, Verdict::Unknown, "first reason")},
                                Entrant{0.0, answerAfter(0.05, Verdict::Unknown, "second reason")}},
                               10);
  CHECK(u.verdict == Verdict::Unknown);
  CHECK(u.reason == "first reason");
}

TEST_CASE("raceIsolated: the limit holds over every entrant", "[race]") {
  const auto t0 = std::chrono::steady_clock::now();
  CheckResult r = raceIsolated({Entrant{0.0, answerAfter(30, Verdict::Unsat)}, Entrant{0.2, answerAfter(30, Verdict::Sat)}},
                               1.0);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.verdict == Verdict::Unknown);
  CHECK(r.reason.find("timeout") != std::string::npos);
  CHECK(wall < 1.0 + kIsolationGraceSec + 2);
}

TEST_CASE("raceIsolated: an entrant that dies is unknown (exhausted), the other still decides", "[race]") {
  CheckResult r = raceIsolated({Entrant{0.0, [] () -> CheckResult { std::abort(); }},
                                Entrant{5.0, answerAfter(0, Verdict::Unsat)}},
                               20);
  CHECK(r.verdict == Verdict::Unsat);
  CheckResult d = runIsolated([]() -> CheckResult { std::abort(); }, 5);
  CHECK(d.verdict == Verdict::Unknown);
  CHECK(d.exhausted);
}

TEST_CASE("the cvc5 goal phase: sat with a model that satisfies the query, unsat where it holds", "[race]") {
  auto solver = makeBackend("cvc5");
  REQUIRE(solver);
  // x in 0..1000, y in 0..100, 3x + 7y = 100: sat (x = 31, y = 1 is one model).
  {
    TermStore s;
    TermRef x = s.intVar("x", 0, 1000), y = s.intVar("y", 0, 100);
    s.assertTrue(s.eq(s.add(s.mulc(x, 3), s.mulc(y, 7)), s.intConst(100)));
    REQUIRE(s.phaseCount() == 1);  // one phase: the goal's
    CheckResult r = solver->check(s, 30);
    REQUIRE(r.verdict == Verdict::Sat);
    CHECK(r.model.at("x") * Integer(3) + r.model.at("y") * Integer(7) == Integer(100));
  }
  // 2x = 2y + 1 has no integer solution: unsat.
  {
    TermStore s;
    TermRef x = s.intVar("x", -1000, 1000), y = s.intVar("y", -1000, 1000);
    s.assertTrue(s.eq(s.mulc(x, 2), s.add(s.mulc(y, 2), s.intConst(1))));
    CheckResult r = solver->check(s, 30);
    CHECK(r.verdict == Verdict::Unsat);
  }
}

namespace {

/// A backend stand-in that answers sat with the id of the process it ran in (model "pid").
class PidBackend : public Backend {
public:
  std::string name() const override { return "pid"; }
  std::string version() const override { return "0"; }
  CheckResult checkPhase(const TermStore &, int, double) override {
    CheckResult r;
    r.verdict = Verdict::Sat;
    r.model["pid"] = Integer(int64_t(::getpid()));
    return r;
  }
};

}  // namespace

TEST_CASE("isolate: a small constant-false query is checked in this process, every other in a child", "[race]") {
  auto iso = isolate(std::make_unique<PidBackend>());
  const Integer self(int64_t(::getpid()));
  // false asserted: in this process.
  {
    TermStore s;
    TermRef x = s.intVar("x", 0, 10);
    s.assertTrue(s.le(x, s.intConst(-1)));  // folds to false: x >= 0
    REQUIRE(s.trivallyFalse());
    CHECK(constantFalseQuery(s));
    CHECK(iso->check(s, 5).model.at("pid") == self);
  }
  // the goal folded to false, no fact with a phase of its own: in this process.
  {
    TermStore s;
    s.setObligations(true);
    s.intVar("x", 0, 10);
    s.assertGoal(s.boolConst(false));
    REQUIRE(s.goalFalse());
    REQUIRE(s.phaseCount() == 1);
    CHECK(constantFalseQuery(s));
    CHECK(iso->check(s, 5).model.at("pid") == self);
  }
  // a goal that is not the constant false: in a child.
  {
    TermStore s;
    s.setObligations(true);
    TermRef x = s.intVar("x", 0, 10);
    s.assertGoal(s.le(x, s.intConst(3)));
    CHECK(!constantFalseQuery(s));
    CheckResult r = iso->check(s, 5);
    REQUIRE(r.model.count("pid") == 1);
    CHECK(r.model.at("pid") != self);
  }
  // false asserted beside more than kInProcessMaxTerms live terms: in a child (the backend
  // would translate them all in this process first).
  {
    TermStore s;
    for (int i = 0; i < 8000; ++i)
      s.assertTrue(s.le(s.intVar("v" + std::to_string(i), 0, 100), s.intConst(50)));
    s.assertTrue(s.boolConst(false));
    REQUIRE(s.trivallyFalse());
    CHECK(!constantFalseQuery(s));
    CheckResult r = iso->check(s, 30);
    REQUIRE(r.model.count("pid") == 1);
    CHECK(r.model.at("pid") != self);
  }
  // and the real solver proves the constant false unsat in this process.
  auto cvc5 = makeBackend("cvc5");
  REQUIRE(cvc5);
  TermStore s;
  s.setObligations(true);
  s.intVar("x", 0, 10);
  s.assertGoal(s.boolConst(false));
  REQUIRE(constantFalseQuery(s));
  CHECK(cvc5->check(s, 5).verdict == Verdict::Unsat);
}

TEST_CASE("eachIsolated: in order up to the first answer that is not unsat, as one after another", "[race]") {
  const auto t0 = std::chrono::steady_clock::now();
  auto since = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  auto verdicts = [](const std::vector<CheckResult> &rs) {
    std::vector<Verdict> v;
    for (const CheckResult &r : rs) v.push_back(r.verdict);
    return v;
  };
  // All unsat: every answer.
  CHECK(verdicts(eachIsolated({answerAfter(0.05, Verdict::Unsat), answerAfter(0.1, Verdict::Unsat),
                               answerAfter(0.0, Verdict::Unsat)},
                              10)) == std::vector<Verdict>{Verdict::Unsat, Verdict::Unsat, Verdict::Unsat});
  // The first that is not unsat ends the answer, and the slow work after it is killed.
  double before = since();
  std::vector<CheckResult> sat =
      eachIsolated({answerAfter(0.0, Verdict::Unsat), answerAfter(0.05, Verdict::Sat), answerAfter(30, Verdict::Unsat)}, 60);
  CHECK(verdicts(sat) == std::vector<Verdict>{Verdict::Unsat, Verdict::Sat});
  CHECK(sat[1].model.at("x") == Integer(7));
  CHECK(since() - before < 20);
  // A later work's early failure waits for the earlier ones: their answer comes first, as it
  // would one after another (here a sat after 0.3 s before an unknown after 0.0 s).
  std::vector<CheckResult> ordered =
      eachIsolated({answerAfter(0.3, Verdict::Sat), answerAfter(0.0, Verdict::Unknown, "gave up")}, 10);
  CHECK(verdicts(ordered) == std::vector<Verdict>{Verdict::Sat});
  std::vector<CheckResult> unk =
      eachIsolated({answerAfter(0.2, Verdict::Unsat), answerAfter(0.0, Verdict::Unknown, "gave up")}, 10);
  CHECK(verdicts(unk) == std::vector<Verdict>{Verdict::Unsat, Verdict::Unknown});
  CHECK(unk[1].reason == "gave up");
  // The limit holds over all of them: the unfinished first is unknown, nothing after it.
  before = since();
  std::vector<CheckResult> late = eachIsolated({answerAfter(30, Verdict::Unsat), answerAfter(0.0, Verdict::Unsat)}, 0.3);
  CHECK(verdicts(late) == std::vector<Verdict>{Verdict::Unknown});
  CHECK(late[0].reason.find("timeout") != std::string::npos);
  CHECK(since() - before < 20);
}

namespace {

/// A backend stand-in: every phase unsat except those in `failing` (sat, model "phase").
class FailingPhases : public Backend {
public:
  explicit FailingPhases(std::vector<int> failing) : failing_(std::move(failing)) {}
  std::string name() const override { return "failing"; }
  std::string version() const override { return "0"; }
  CheckResult checkPhase(const TermStore &, int phase, double) override {
    CheckResult r;
    r.verdict = std::find(failing_.begin(), failing_.end(), phase) != failing_.end() ? Verdict::Sat : Verdict::Unsat;
    if (r.verdict == Verdict::Sat) r.model["phase"] = Integer(int64_t(phase));
    return r;
  }

private:
  std::vector<int> failing_;
};

/// A query with a goal and `facts` facts of a phase each (Coverage facts, which the interval
/// analysis cannot decide: not (c1 x + c2 y = 1) with c1, c2 >= 3 on x, y >= 0). With
/// `falseFact` >= 0, that fact is replaced by one that fails (x + y = 2 at x = y = 1).
/// With `pad`, `pad` more variables and constraints, to make it a large query (more than
/// kMinParallelQueryTerms terms).
void factQuery(TermStore &s, int facts, int falseFact = -1, int pad = 0) {
  s.setObligations(true);
  for (int i = 0; i < pad; ++i) s.assertTrue(s.le(s.intVar("p" + std::to_string(i), 0, 100), s.intConst(50)));
  TermRef x = s.intVar("x", 0, 100), y = s.intVar("y", 0, 100);
  auto lin = [&](int a, int b) { return s.add(s.mulc(x, a), s.mulc(y, b)); };
  for (int i = 0; i < facts; ++i)
    s.require(i == falseFact ? s.lnot(s.eq(lin(1, 1), s.intConst(2))) : s.lnot(s.eq(lin(3 + i, 5 + i), s.intConst(1))),
              FactKind::Coverage);
  s.assertGoal(s.eq(lin(3, 7), s.intConst(1)));  // no solution with x, y >= 0
}

}  // namespace

TEST_CASE("isolate with jobs: the fact phases side by side answer as one process does", "[race]") {
  // Stand-in: every phase is checked by exactly one share (the failing one is found, with
  // its phase), and the goal's answer comes first.
  {
    TermStore s;
    factQuery(s, 20);
    REQUIRE(s.phaseCount() == 21);
    for (int jobs : {1, 2, 3})
      for (int p = 0; p <= 20; ++p) {
        CheckResult r = isolate(std::make_unique<FailingPhases>(std::vector<int>{p}), jobs)->check(s, 30);
        INFO("jobs " << jobs << " failing phase " << p);
        REQUIRE(r.verdict == Verdict::Sat);
        CHECK(r.phase == p);
        CHECK(r.model.at("phase") == Integer(int64_t(p)));
      }
    CHECK(isolate(std::make_unique<FailingPhases>(std::vector<int>{}), 3)->check(s, 30).verdict == Verdict::Unsat);
    CheckResult both = isolate(std::make_unique<FailingPhases>(std::vector<int>{0, 7}), 3)->check(s, 30);
    CHECK(both.phase == 0);
    // checkAll: three queries side by side (one of them large), the answers in order up to
    // the first failure.
    TermStore u, v;
    factQuery(u, 3, -1, 1000);
    REQUIRE(u.size() >= kMinParallelQueryTerms);
    factQuery(v, 20);
    for (int jobs : {1, 2}) {
      auto be = isolate(std::make_unique<FailingPhases>(std::vector<int>{}), jobs);
      CHECK(be->checkAll({&u, &v, &s}, 30).size() == 3);
      auto failing = isolate(std::make_unique<FailingPhases>(std::vector<int>{5}), jobs);
      std::vector<CheckResult> rs = failing->checkAll({&u, &v, &s}, 30);
      REQUIRE(rs.size() == 2);  // u has no phase 5; v fails there; s is not needed
      CHECK(rs[0].verdict == Verdict::Unsat);
      CHECK(rs[1].verdict == Verdict::Sat);
      CHECK(rs[1].phase == 5);
    }
  }
  // cvc5: unsat with every fact proven; sat in the phase of the one false fact.
  for (int jobs : {1, 2}) {
    TermStore s;
    factQuery(s, 20);
    REQUIRE(s.phaseCount() == 21);
    CHECK(makeBackend("cvc5", jobs)->check(s, 60).verdict == Verdict::Unsat);
    TermStore f;
    factQuery(f, 20, 13);
    CheckResult r = makeBackend("cvc5", jobs)->check(f, 60);
    CHECK(r.verdict == Verdict::Sat);
    CHECK(r.phase == 14);
  }
}

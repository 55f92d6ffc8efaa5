// tests/solver/test_race.cpp — raceIsolated (smt/isolated.h): the first decided answer wins,
// an unknown never becomes a verdict, a late entrant starts early when every started one has
// given up, the limit holds, a dying entrant is unknown; and the cvc5 backend's goal phase
// (its first second in the process, then the race) still proves and refutes.
#include "smt/backend.h"
#include "smt/isolated.h"
#include "smt/term.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

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

// smt/cvc5_backend.cpp — the cvc5 backend (C++ API, one Solver per backend object).
#include "smt/backend.h"
#include "smt/isolated.h"

#include <cvc5/cvc5.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <unordered_map>

namespace mxcert::smt {

namespace {

/// Seconds the goal's phase runs with cvc5's default settings before a second solver with
/// justification-based decisions joins it (Cvc5Backend::checkPhase).
constexpr double kJustificationAfterSec = 1.0;

/// Goals of at least this many terms (the nodes their assertions reach) race from the start
/// (Cvc5Backend::checkPhase). Measured on every goal of five tables with each setting alone
/// (docs/benchmarks.md, "Scan rounds; large goals race from the start; the scan on two
/// threads"): the goals below 1,500 terms all took under 0.25 s either way, and every goal
/// that took over 1 s had 1,772 to 4,136 terms (default 2.6-25 s where justification took
/// 0.7-4.2 s; one, an e4m3 x e2m1 f16 ftz post2/post root step of 3,170 terms, 0.5 s by
/// default and over 60 s by justification).
constexpr size_t kRaceFromStartTerms = 1500;

/// Whether a goal's phase with cvc5's default decisions turns off its "simple rounding"
/// heuristic for integer branching (option arith-brab, on by default): yes for NVFP4 queries
/// (the stores with wide value sets, TermStore::setWideValueSets), whose post2/post root steps
/// round T m_a 2^(j_a) and then again by m_b 2^(j_b) over hundreds of values of T. Measured
/// with cvc5's command-line tool on the goal phases of over 0.25 s of four NVFP4 k = 2 and 3
/// post2/post tables and of 21 MX tables of scripts/bench-slowest (docs/benchmarks.md, "Plain
/// branching for NVFP4 goals"): the 15 NVFP4 goals of over 1 s by default (1.3-10.6 s, 64.7 s
/// in all) took 0.17-2.6 s without it (16.7 s in all); the 65 MX goals took 22.5 s and 23.0 s
/// in all, so MX queries keep cvc5's defaults.
bool plainBranching(const TermStore &store) { return store.wideValueSets(); }

class Cvc5Backend : public Backend {
public:
  std::string name() const override { return "cvc5"; }
  std::string version() const override {
    cvc5::Solver s;
    return s.getVersion();
  }

  /// One phase. The fact phases (phase > 0) run with justification-based decisions: about a
  /// quarter faster there (docs/benchmarks.md). The goal's phase (0, or -1 for a one-phase
  /// query) runs with cvc5's default settings for kJustificationAfterSec; when they have not
  /// answered by then, it becomes a race (raceIsolated) of the default settings and
  /// justification-based decisions, each from the start in a process of its own: the first
  /// sat or unsat wins. Each setting is far faster than the other on some goals: an e4m3
  /// k = 32 bf16 rtz leaf step takes 25-39 s by default and 9 s by justification, an e4m3 x e2m1
  /// f16 ftz post2/post root step 2 s by default and over 98 s by justification. Most goals
  /// take well under a second, and for them no process is started. A goal of at least
  /// kRaceFromStartTerms terms races from the start: the second that the default settings
  /// would have alone is the whole time of most such goals with justification. For NVFP4
  /// queries "the default settings" are cvc5's defaults with plainBranching.
  CheckResult checkPhase(const TermStore &store, int phase, double timeoutSec) override {
    // The phase's assertions and the terms they reach, found once for every solver call below
    // (each walk is over the whole store).
    const TermStore::Live live = store.live(phase);
    const std::vector<uint32_t> order = store.reached(live.assertions);
    if (phase > 0) return solvePhase(store, live, order, timeoutSec, true);
    const bool limited = timeoutSec > 0;
    CheckResult r;
    r.verdict = Verdict::Unknown;
    if (order.size() < kRaceFromStartTerms) {
      const double first = limited ? std::min(timeoutSec, kJustificationAfterSec) : kJustificationAfterSec;
      r = solvePhase(store, live, order, first, false);
      if (r.verdict != Verdict::Unknown || (limited && timeoutSec - r.seconds <= 0.05)) return r;
    }
    const double left = limited ? timeoutSec - r.seconds : 0;
    CheckResult raced = raceIsolated({Entrant{0.0, [&] { return solvePhase(store, live, order, left, false); }},
                                      Entrant{0.0, [&] { return solvePhase(store, live, order, left, true); }}},
                                     left);
    raced.seconds += r.seconds;
    return raced;
  }

  /// One phase as one solver call, with justification-based decisions or cvc5's defaults:
  /// `live` is the phase's (TermStore::live), `order` the terms its assertions reach
  /// (TermStore::reached, by increasing id).
  CheckResult solvePhase(const TermStore &store, const TermStore::Live &live, const std::vector<uint32_t> &order,
                         double timeoutSec, bool justification) {
    cvc5::Solver slv;
    slv.setLogic("QF_LIA");
    // One checkSat per Solver, so not incremental. cvc5's API solver is incremental by default,
    // and its command-line tool is not unless the script asks. Incremental mode leaves out
    // some preprocessing. Example: an e2m3 x e3m2 k = 32 bf16 post2/post value root step took
    // 26 s with --incremental and 4.4 s without, on the same SMT-LIB2 text with cvc5's
    // command-line tool. In the table engine it went from 25 to 12 s. Some other goals are
    // 5-20 % slower without it (docs/benchmarks.md).
    slv.setOption("incremental", "false");
    slv.setOption("produce-models", "true");
    if (justification) slv.setOption("decision", "justification");
    else if (plainBranching(store)) slv.setOption("arith-brab", "false");
    if (timeoutSec > 0) slv.setOption("tlimit-per", std::to_string(std::max(1L, long(timeoutSec * 1000))));  // never 0 (= no limit)
    cvc5::Sort intS = slv.getIntegerSort();
    std::unordered_map<uint32_t, cvc5::Term> memo;
    std::vector<std::pair<std::string, cvc5::Term>> vars;
    for (TermRef v : live.variables) {
      cvc5::Term t = slv.mkConst(intS, store.node(v).name);
      memo[v.id] = t;
      vars.push_back({store.node(v).name, t});
    }
    // Children have smaller ids than parents: translate iteratively by id.
    for (uint32_t id : order) {
      if (memo.count(id)) continue;
      const Node &n = store.node(TermRef{id});
      auto A = [&](size_t i) { return memo.at(n.args[i]); };
      cvc5::Term t;
      switch (n.op) {
      case Op::IntConst: t = slv.mkInteger(n.c.str()); break;
      case Op::BoolConst: t = slv.mkBoolean(n.b); break;
      case Op::IntVar: t = memo.at(id); break;
      case Op::Lin: {
        std::vector<cvc5::Term> parts;
        for (size_t i = 0; i < n.args.size(); ++i) {
          if (n.coefs[i] == Integer(1))
            parts.push_back(A(i));
          else
            parts.push_back(slv.mkTerm(cvc5::Kind::MULT, {slv.mkInteger(n.coefs[i].str()), A(i)}));
        }
        if (!n.c.isZero()) parts.push_back(slv.mkInteger(n.c.str()));
        t = parts.size() == 1 ? parts[0] : slv.mkTerm(cvc5::Kind::ADD, parts);
        break;
      }
      case Op::Ite:
      case Op::IteB: t = slv.mkTerm(cvc5::Kind::ITE, {A(0), A(1), A(2)}); break;
      case Op::Le0: t = slv.mkTerm(cvc5::Kind::LEQ, {A(0), slv.mkInteger(0)}); break;
      case Op::Eq0: t = slv.mkTerm(cvc5::Kind::EQUAL, {A(0), slv.mkInteger(0)}); break;
      case Op::Not: t = slv.mkTerm(cvc5::Kind::NOT, {A(0)}); break;
      case Op::And:
      case Op::Or: {
        std::vector<cvc5::Term> cs;
        for (size_t i = 0; i < n.args.size(); ++i) cs.push_back(A(i));
        t = slv.mkTerm(n.op == Op::And ? cvc5::Kind::AND : cvc5::Kind::OR, cs);
        break;
      }
      }
      memo[id] = t;
    }
    for (TermRef a : live.assertions) slv.assertFormula(memo.at(a.id));
    if (store.trivallyFalse()) slv.assertFormula(slv.mkFalse());
    CheckResult res;
    auto t0 = std::chrono::steady_clock::now();
    cvc5::Result r = slv.checkSat();
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.isUnsat()) {
      res.verdict = Verdict::Unsat;
    } else if (r.isSat()) {
      res.verdict = Verdict::Sat;
      for (auto &[nm, t] : vars) res.model[nm] = Integer::parse(slv.getValue(t).getIntegerValue());
    } else {
      res.verdict = Verdict::Unknown;
      std::ostringstream os;
      os << r.getUnknownExplanation();
      res.reason = "cvc5 returned unknown (" + os.str() + ")";
    }
    return res;
  }
};

}  // namespace

std::unique_ptr<Backend> makeCvc5Backend() { return std::make_unique<Cvc5Backend>(); }

}  // namespace mxcert::smt

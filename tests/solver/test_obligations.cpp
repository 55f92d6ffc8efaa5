// tests/solver/test_obligations.cpp — obligations mode (smt/term.h, docs/solver.md
// "Obligations mode"): tables equal the exhaustive engine's and are accepted by the checker, and
// test-only faults in the analysis never become a certified proof.
#include "certs/certificate.h"
#include "certs/sha256.h"
#include "smt/abstract_check.h"
#include "smt/encoder.h"
#include "smt/smtlib.h"
#include "smt/term_domain.h"
#include "src/check/checker.h"
#include "src/engine/exhaustive.h"
#include "src/engine/solver_table.h"
#include "src/engine/to_certificate.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

using namespace mxcert;
using engine::PairQuery;

namespace {

PairQuery query(const std::string &fmt, int k, const std::string &tree, Placement l, Placement r, Relation rel,
                const std::string &acc = "f32") {
  PairQuery q{ModelConfig{*findElementFormat(fmt), *findElementFormat(fmt), AccSpec{*findAccFormat(acc)},
                          Tree::parse(tree, k)},
              l, r, rel, nullptr, false, {}};
  q.obligations = true;
  return q;
}

std::string name(const PairQuery &q) {
  std::ostringstream o;
  const int k = q.cfg.k();
  const std::string t = q.cfg.tree == Tree::seq(k)        ? "seq"
                        : q.cfg.tree == Tree::pairwise(k) ? "pairwise"
                                                          : q.cfg.tree.sexpr();
  o << q.cfg.a.name << " k=" << k << " " << q.cfg.acc.fmt.name << " " << t << " " << toString(q.lhs) << "/"
    << toString(q.rhs) << " " << toString(q.rel);
  return o.str();
}

engine::SolverTableResult table(const PairQuery &q) {
  engine::SolverTableOptions opt;
  opt.timeout = 300;
  return engine::runSolverTable(q, opt);
}

}  // namespace

TEST_CASE("obligations: solver tables = exhaustive tables, every proof checked", "[solver][obligations]") {
  const Placement pairs[][2] = {{Placement::Pre, Placement::Post}, {Placement::Dequant, Placement::Post}};
  for (const char *fmt : {"e2m1", "e3m2"})
    for (int k : {1, 2, 3}) {
      if (std::string(fmt) == "e3m2" && k != 2) continue;  // test time: e3m2 at k = 2 only
      for (auto &pl : pairs)
        for (Relation rel : {Relation::Bitwise, Relation::Value}) {
          PairQuery q = query(fmt, k, "seq", pl[0], pl[1], rel);
          INFO(name(q));
          engine::SolverTableResult r = table(q);
          REQUIRE(r.complete());
          REQUIRE(r.agree == engine::runExhaustive(q).agree);
          for (const engine::ProofRecord &p : r.proofs) REQUIRE(p.obligations);
          // The checker regenerates every query in obligations mode, re-checks the
          // decisions by arithmetic and re-proves every phase with the other solver.
          check::CheckOptions co;
          // Through the JSON text, as `mxcert check` reads it.
          const certs::Certificate cert =
              certs::certificateFromJson(certs::toJson(engine::certificateOf(q, r)));
          check::CheckReport rep = check::checkCertificate(cert, co);
          INFO((rep.firstFalse() ? rep.firstFalse()->detail : rep.firstUnknown() ? rep.firstUnknown()->detail : ""));
          REQUIRE(rep.holds());
        }
    }
}

TEST_CASE("the checker proves an exhaustive table's agree regions itself: every fact a phase, a region too large "
          "to encode checked by its halves",
          "[solver][obligations][check]") {
  // e2m1 k = 1 f16 ftz post2/post: the agree region of the subnormal and lower scales spans
  // more exponent values than one query's case split may (EncodingLimit), so the checker
  // proves its halves. Before, that region was reported false ("cannot be generated") and
  // the others were proven without obligations.
  PairQuery q = query("e2m1", 1, "seq", Placement::Post2, Placement::Post, Relation::Bitwise, "f16");
  q.cfg.acc.subnormals = Subnormals::FTZ;
  const engine::ExhaustiveResult ex = engine::runExhaustive(q);
  const certs::Certificate cert = certs::certificateFromJson(certs::toJson(engine::certificateOf(q, ex)));
  REQUIRE(cert.engine == "exhaustive");
  REQUIRE(cert.proofs.empty());
  check::CheckOptions co;
  co.solver = check::SolverChoice::Z3;
  const check::CheckReport rep = check::checkCertificate(cert, co);
  INFO((rep.firstFalse() ? rep.firstFalse()->detail : rep.firstUnknown() ? rep.firstUnknown()->detail : ""));
  REQUIRE(rep.holds());
  size_t parts = 0, proven = 0;
  for (const check::ClaimResult &c : rep.claims) {
    if (c.claim.rfind("agree[", 0) != 0) continue;
    ++proven;
    if (c.claim.find(" part ") != std::string::npos) ++parts;
    INFO(c.claim << ": " << c.detail);
    // Every region's query was generated with obligations: the analysis' facts proven and
    // its decisions re-checked by arithmetic.
    REQUIRE(c.detail.find("of the analysis proven") != std::string::npos);
    REQUIRE(c.detail.find("verified by arithmetic") != std::string::npos);
  }
  CHECK(parts >= 2);
  CHECK(proven == cert.agree.regions.size() - 1 + parts);
}

TEST_CASE("obligations: faults in the analysis never become a certified proof", "[solver][obligations][faults]") {
  using K = smt::FaultInjection::Kind;
  struct Config {
    PairQuery q;
    Region region;  // an agree region of the unperturbed table
    std::vector<unsigned> sites;
  };
  std::vector<Config> configs;
  for (PairQuery q : {query("e2m1", 32, "pairwise", Placement::Pre, Placement::Post, Relation::Bitwise),
                      query("e2m1", 32, "seq", Placement::Dequant, Placement::Post, Relation::Bitwise),
                      query("e2m1", 4, "seq", Placement::Dequant, Placement::Post, Relation::Value),
                      query("e3m2", 3, "pairwise", Placement::Pre, Placement::Post, Relation::Value),
                      query("e4m3", 2, "seq", Placement::Dequant, Placement::Post, Relation::Bitwise),
                      query("e4m3", 32, "seq", Placement::Pre, Placement::Post, Relation::Value),
                      // Narrow accumulators: sums with more significant bits than the format
                      // holds (sites for the precision fault, which f32 sums of e2m1 lack).
                      query("e2m1", 4, "pairwise", Placement::Pre, Placement::Post, Relation::Bitwise, "bf16"),
                      query("e2m3", 4, "seq", Placement::Pre, Placement::Post, Relation::Bitwise, "f16"),
                      query("e3m2", 3, "seq", Placement::Dequant, Placement::Post, Relation::Value, "bf16")}) {
    engine::SolverTableResult r = table(q);
    REQUIRE(r.complete());
    REQUIRE(!r.proofs.empty());
    // Test time: the e4m3 k = 32 queries take about 2 s each, so one site there (two gave
    // the same outcome at both sites for every fault).
    const std::vector<unsigned> sites =
        q.cfg.k() == 32 && q.cfg.a.name == "e4m3" ? std::vector<unsigned>{0} : std::vector<unsigned>{0, 3, 17, 100};
    configs.push_back({q, r.proofs[0].region, sites});
  }
  size_t caught = 0, harmless = 0, rejectedByCheck = 0;
  std::map<K, std::set<std::string>> effective;  // fault -> configurations where it was caught
  for (const Config &c : configs)
    for (K kind : {K::IntervalTooTight, K::GranularityTooCoarse, K::DecidedWrong, K::PrecisionTooSmall,
                   K::PrecisionShownWrong, K::RuleWithoutSideCondition})
      for (unsigned site : c.sites) {
        PairQuery q = c.q;
        q.fault = smt::FaultInjection{kind, site};
        INFO(name(q) << " region " << c.region.str() << " fault '" << smt::toString(kind) << "' at site " << site);
        smt::Query clean{q.cfg, q.lhs, q.rhs, q.rel, c.region, {}, nullptr, true, {}, {}, {}, {}};
        const std::string cleanSha = certs::sha256Hex(smt::LiaEncoding(clean).smtlib2());
        std::unique_ptr<smt::Backend> be = smt::makeBackend("cvc5");
        // A short limit: unknown is an accepted outcome (a fault can make a query hard), and
        // counts as caught. Every run that ends in a proof (harmless, or of a changed query)
        // does so in under 2.5 s (measured 2026-12-07: the slowest 2.45 s), so a limit of 4 s
        // changes no outcome; the runs that end caught after more than 4 s would run out any
        // limit (6 s and 20 s gave the same outcomes, 20 s 56 s more).
        const auto t0 = std::chrono::steady_clock::now();
        engine::RegionCheck rc = engine::checkRegion(q, c.region, *be, 4);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // Never a counterexample in an agree region (a model is replayed by the evaluator).
        REQUIRE(rc.verdict != smt::Verdict::Sat);
        const char *outcome = rc.verdict == smt::Verdict::Unknown ? "caught"
                              : rc.proof.sha256 == cleanSha          ? "harmless"
                                                                     : "proof of a changed query";
        std::printf("fault %s site %u, %s: %s (%.2f s)\n", smt::toString(kind), site, name(q).c_str(), outcome, secs);
        if (rc.verdict == smt::Verdict::Unknown) {
          ++caught;
          effective[kind].insert(name(q));
          continue;
        }
        if (rc.proof.sha256 == cleanSha) {
          ++harmless;  // the fault did not change the query (no such site, or no effect)
          continue;
        }
        // A proof of a perturbed query: a rewrite rule is not checked by the obligations; and a
        // precision bound claimed to be p where it holds (a pairwise bf16 sum of two e2m1
        // products has at most 8 significant bits, although the static bound says 9) makes
        // precision facts that the solver proves (since local facts keep their abstractions'
        // value sets). Either way the unperturbed checker rejects the certificate (the query
        // does not match the configuration).
        REQUIRE((kind == K::RuleWithoutSideCondition || kind == K::PrecisionTooSmall));
        ++rejectedByCheck;
        effective[kind].insert(name(q));
      }
  // The counts of docs/certificates.md, "Fault injection".
  std::printf("fault injection: %zu runs: caught %zu, harmless %zu, proofs of a changed query %zu\n",
              caught + harmless + rejectedByCheck, caught, harmless, rejectedByCheck);
  CHECK(caught > 0);
  // Every fault is caught (or its proof rejected) on at least five configurations.
  for (K kind : {K::IntervalTooTight, K::GranularityTooCoarse, K::DecidedWrong, K::PrecisionTooSmall,
                 K::PrecisionShownWrong, K::RuleWithoutSideCondition}) {
    INFO("fault '" << smt::toString(kind) << "'");
    CHECK(effective[kind].size() >= 5);
  }
}

TEST_CASE("a local fact's abstraction keeps the node's value set and the checker verifies it",
          "[solver][obligations]") {
  // v = ite(b = 1, -10, 5) takes the values -10 and 5 only, so xa + v = 102 with xa in
  // [103, 111] is false, and the analysis folds it from the value sets (a Decided fact). The
  // fact's local copy abstracts v (a summand of a sum). Over v's interval [-10, 5] alone,
  // v = -1, xa = 103 would satisfy the copy; restricted to {-10, 5}, nothing does. (The
  // e2m1 x e4m3 k = 32 f16 rtz post2/dequant value table was unknown for that reason: a
  // tree exponent of the values {-10, 5} in its mode-zero root step.)
  using K = smt::FaultInjection::Kind;
  for (bool fault : {false, true}) {
    INFO((fault ? "with" : "without") << " the fault '" << smt::toString(K::AbstractionValueDropped) << "'");
    smt::TermStore s;
    s.setObligations(true);
    if (fault) s.setFault(smt::FaultInjection{K::AbstractionValueDropped, 0});
    const smt::TermRef xa = s.intVar("xa", Integer(103), Integer(111)), b = s.intVar("b", Integer(0), Integer(1));
    const smt::TermRef v = s.ite(s.eq(b, s.intConst(Integer(1))), s.intConst(Integer(-10)), s.intConst(Integer(5)));
    REQUIRE(s.node(v).values == std::vector<Integer>{Integer(-10), Integer(5)});
    const smt::TermRef c = s.eq(s.add(xa, v), s.intConst(Integer(102)));
    REQUIRE(c == s.boolConst(false));
    REQUIRE(s.facts().size() == 1);
    REQUIRE(s.facts()[0].kind == smt::FactKind::Decided);
    s.assertGoal(s.boolConst(false));
    REQUIRE(s.phaseCount() == 2);
    // The decided fact's phase: the abstraction variable of v and its restriction.
    const std::string text = smt::toSmtLib2(s);
    REQUIRE(s.node(v).op == smt::Op::Ite);
    const std::string var = "v" + std::to_string(v.id);
    REQUIRE(text.find("(declare-fun " + var + " () Int)") != std::string::npos);
    const std::string restriction = fault ? "(+ " + var + " 10)" : "(or ";
    REQUIRE(text.find(restriction) != std::string::npos);
    for (const std::string solver : {"cvc5", "z3"}) {
      INFO(solver);
      std::unique_ptr<smt::Backend> be = smt::makeBackend(solver);
      REQUIRE(be);
      // Unsat both ways: the fault leaves v = -10 alone, which no xa in range satisfies either.
      REQUIRE(be->check(s, 60).verdict == smt::Verdict::Unsat);
    }
    const std::vector<std::string> errors = smt::checkAbstraction(s);
    if (!fault) {
      REQUIRE(errors.empty());
    } else {
      // The arithmetic check rejects the restriction that leaves out a value of the node.
      REQUIRE(errors.size() == 1);
      REQUIRE(errors[0].find("its abstraction's value set leaves out 5") != std::string::npos);
    }
  }
  // Without the restriction the phase would be satisfiable: the same fact over a variable of
  // the interval [-10, 5] (no value set narrower than it) is not folded at all.
  smt::TermStore s;
  s.setObligations(true);
  const smt::TermRef xa = s.intVar("xa", Integer(103), Integer(111)), w = s.intVar("w", Integer(-10), Integer(5));
  REQUIRE(s.eq(s.add(xa, w), s.intConst(Integer(102))) != s.boolConst(false));
}

TEST_CASE("wide value sets show a sum's precision where its interval cannot, and the checker re-derives it",
          "[solver][obligations]") {
  // NVFP4 at k = 2 (docs/solver.md, "Wide value sets"): the tree sum of two e2m1 products, in
  // units of their quantum, is p_0 + p_1 with each p_i a product of two magnitudes in
  // {0, 1, 2, 3, 4, 6, 8, 12}. Its interval [0, 288] allows 9 significant bits; its values
  // have at most 8 (the largest odd part of a sum is 153 = 144 + 9), so rnd(T) = T in bf16.
  std::set<int64_t> products;
  for (int64_t a : {0, 1, 2, 3, 4, 6, 8, 12})
    for (int64_t b : {0, 1, 2, 3, 4, 6, 8, 12}) products.insert(a * b);
  std::set<int64_t> sums;
  unsigned mostBits = 0;  // the most significant bits of a sum (those of its odd part)
  for (int64_t x : products)
    for (int64_t y : products) {
      sums.insert(x + y);
      int64_t odd = x + y;
      while (odd > 0 && odd % 2 == 0) odd /= 2;
      unsigned bits = 0;
      for (; odd > 0; odd /= 2) ++bits;
      mostBits = std::max(mostBits, bits);
    }
  REQUIRE(products.size() == 19);
  REQUIRE(sums.size() > smt::kMaxValues);
  REQUIRE(sums.size() <= smt::kMaxWideValues);
  REQUIRE(mostBits == 8);
  using K = smt::FaultInjection::Kind;
  for (int mode : {0, 1, 2}) {  // 0: default value sets, 1: wide, 2: wide with a wrong decision
    const bool wide = mode >= 1;
    INFO((wide ? "wide value sets" : "default value sets") << (mode == 2 ? ", a precision decision forced" : ""));
    smt::TermStore s;
    s.setObligations(true);
    s.setWideValueSets(wide);
    if (mode == 2) s.setFault(smt::FaultInjection{K::PrecisionShownWrong, 0});
    auto product = [&](const std::string &name) {
      const smt::TermRef c = s.intVar(name, Integer(0), Integer(int64_t(products.size()) - 1));
      smt::TermRef t = s.intConst(Integer(0));
      int64_t i = 0;
      for (int64_t v : products) t = s.ite(s.eq(c, s.intConst(Integer(i++))), s.intConst(Integer(v)), t);
      return t;
    };
    const smt::TermRef T = s.add(product("c0"), product("c1"));
    REQUIRE(s.node(T).range.lo == Integer(0));
    REQUIRE(s.node(T).range.hi == Integer(288));
    if (!wide) {
      // 361 pairs of values: past the default limit, so no value set and only the interval.
      REQUIRE(!s.node(T).values);
      REQUIRE(!s.showPrecision(T, mostBits));
      REQUIRE(s.showPrecision(T, 9));
    } else {
      REQUIRE(s.node(T).values);
      REQUIRE(s.node(T).values->size() == sums.size());
      if (mode == 1) {
        REQUIRE(s.showPrecision(T, mostBits));
        REQUIRE(!s.showPrecision(T, mostBits - 1));
      } else {
        // The fault claims 3 bits (as PrecisionShownWrong does for a rounding): recorded although
        // the analysis does not show it.
        REQUIRE(s.perturbPrecision(kPrecUnknown, 3) == 3);
        REQUIRE(s.showPrecision(T, 3));
      }
    }
    const std::vector<std::string> errors = smt::checkAbstraction(s);
    if (mode < 2) {
      REQUIRE(errors.empty());
    } else {
      // The checker re-derives the bound with its own rules, value sets included: 8 bits follow.
      REQUIRE(errors.size() == 1);
      REQUIRE(errors[0].find("taken to have at most 3 significant bits, but only 8 follow") != std::string::npos);
    }
  }
}

TEST_CASE("wide value sets: the least nonzero value of a scaled product is a checked decision",
          "[solver][obligations]") {
  // NVFP4's pre leaf m 2^j t with m = 121 (class 11 x 11): N = 121 t for t a product of two
  // e2m1 magnitudes in quanta, so N is 0 or at least 121, although its interval starts at 0.
  // roundAcc starts its binades and FTZ's flush test there (docs/solver.md, "Wide value sets"):
  // the f16 ftz k = 2 pre/post table went from 223 s to 5 s. The bound is a Values decision
  // (N takes no value in [1, 121)), and the arithmetic checker rejects a list that leaves out
  // one of N's values.
  for (bool wrong : {false, true}) {
    INFO((wrong ? "a decision that leaves out 121" : "the store's decision"));
    smt::TermStore s;
    s.setObligations(true);
    s.setWideValueSets(true);
    smt::TermDomain d(s);
    const smt::TermRef c = s.intVar("c", Integer(0), Integer(7));
    smt::TermRef t = s.intConst(Integer(0));
    int64_t i = 0;
    for (int64_t v : {0, 1, 2, 3, 4, 6, 8, 12})
      t = s.ite(s.eq(c, s.intConst(Integer(i++))), s.intConst(Integer(v)), t);
    const smt::SInt N{s.mulc(s.mulc(t, Integer(11)), Integer(11))};
    REQUIRE(s.node(N.t).range.lo == Integer(0));
    if (!wrong) {
      REQUIRE(d.leastAtLeast(N, Integer(1)) == Integer(121));
      REQUIRE(d.leastAtLeast(N, Integer(122)) == Integer(242));
      REQUIRE(d.leastAtLeast(N, Integer(121)) == Integer(121));  // no decision: nothing skipped
      size_t values = 0;
      for (const smt::Decision &dec : s.decisions()) values += dec.kind == smt::Decision::Kind::Values ? 1 : 0;
      REQUIRE(values == 2);
      REQUIRE(smt::checkAbstraction(s).empty());
    } else {
      d.assumeValues(N, {Integer(0), Integer(242), Integer(363), Integer(484), Integer(726), Integer(968),
                         Integer(1452)});
      const std::vector<std::string> errors = smt::checkAbstraction(s);
      REQUIRE(errors.size() == 1);
      REQUIRE(errors[0].find("a case split misses the value 121") != std::string::npos);
    }
  }
  // Without wide value sets the bound stays the one given (no MX query changes).
  smt::TermStore s;
  s.setObligations(true);
  smt::TermDomain d(s);
  const smt::TermRef c = s.intVar("c", Integer(0), Integer(1));
  const smt::SInt N{s.ite(s.eq(c, s.intConst(Integer(0))), s.intConst(Integer(0)), s.intConst(Integer(121)))};
  REQUIRE(d.leastAtLeast(N, Integer(1)) == Integer(1));
  for (const smt::Decision &dec : s.decisions()) REQUIRE(dec.kind != smt::Decision::Kind::Values);
}

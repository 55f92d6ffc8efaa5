// tests/solver/test_step_witness.cpp — inputs made from a failed induction root step's model
// (src/engine/step_witness.h): the input's tree value is the model's abstract sum, exactly;
// the documented post2 double rounding (docs/benchmarks.md) is such a witness; the cases
// with no input give none.
#include "src/engine/step_witness.h"

#include "src/engine/solver_table.h"

#include "smt/backend.h"
#include "smt/encoder.h"
#include "smt/term_domain.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

using namespace mxcert;
using engine::PairQuery;

namespace {

PairQuery post2Post(const std::string &acc, int k) {
  return PairQuery{ModelConfig{*findElementFormat("e2m1"), *findElementFormat("e2m1"), AccSpec{*findAccFormat(acc)},
                               Tree::seq(k)},
                   Placement::Post2, Placement::Post, Relation::Bitwise, nullptr, false, {}};
}

/// The invariant the engine tries for post2/post on e2m1 (base post, grid 2^-2, U = 36 / 2^-2).
Invariant scaledPost() {
  Invariant inv;
  inv.mode = InvariantMode::Scaled;
  inv.baseIsRhs = true;
  inv.grid = -2;
  inv.unit = Integer(144);
  return inv;
}

/// The e2m1 value of a code.
double e2m1(unsigned c) {
  static const double mag[8] = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
  return (c & 8 ? -1 : 1) * mag[c & 7];
}

/// The exact dot product of an e2m1 input (every partial sum here is exact in double).
double dot(const engine::Witness &w) {
  double s = 0;
  for (size_t i = 0; i < w.a.size(); ++i) s += e2m1(w.a[i]) * e2m1(w.b[i]);
  return s;
}

std::map<std::string, Integer> rootModel(int xa, int e, int64_t S, bool negZero = false) {
  return {{"xa", Integer(int64_t(xa))}, {"e", Integer(int64_t(e))}, {"S", Integer(S)},
          {"anyNaN", Integer(0)},        {"posInf", Integer(0)},      {"negInf", Integer(0)},
          {"allNegZero", Integer(negZero ? 1 : 0)}};
}

Region box(int xaLo, int xaHi, int xbLo, int xbHi) {
  Region r;
  r.xa = {xaLo, xaHi};
  r.xb = {xbLo, xbHi};
  r.e = {xaLo + xbLo - 254, xaHi + xbHi - 254};
  return r;
}

}  // namespace

TEST_CASE("step witness: the root step's sum made an input, the post2 double rounding", "[solver][step-witness]") {
  // V = 2.5 = 10 units of 2^-2 at sa = -24, sb = -2 (xa = 103, xb = 125, e = -26): post2
  // rounds 2.5 * 2^-24 to 2 * 2^-24, a tie, then to +0; post rounds 2.5 * 2^-26 to 2^-24.
  const PairQuery q = post2Post("f16", 32);
  const Region r = box(103, 104, 103, 127);
  const auto w = engine::rootStepInput(q, InductionStep::Root, scaledPost(), r, rootModel(103, -26, 10));
  REQUIRE(w);
  CHECK(w->xa == 103);
  CHECK(w->xb == 125);
  REQUIRE(w->a.size() == 32);
  REQUIRE(w->b.size() == 32);
  // Largest leaf first: 2.25 = 1.5 * 1.5, then 0.25 = 0.5 * 0.5, then +0 leaves.
  CHECK(w->a[0] == 3);
  CHECK(w->b[0] == 3);
  CHECK(w->a[1] == 1);
  CHECK(w->b[1] == 1);
  for (size_t i = 2; i < 32; ++i) CHECK((w->a[i] == 0 && w->b[i] == 0));
  CHECK(dot(*w) == 2.5);
  CHECK(engine::witnessDisagrees(q, *w, 103, 125));
  // At a pair where nothing double-rounds (both scales near 1) the same input agrees.
  CHECK_FALSE(engine::witnessDisagrees(q, *w, 127, 127));
}

TEST_CASE("step witness: signs, zeros, and the values no input makes", "[solver][step-witness]") {
  const PairQuery q = post2Post("f16", 4);
  const Region r = box(100, 110, 100, 130);
  const Invariant inv = scaledPost();
  // A negative sum: a's sign bits; its exact value.
  auto neg = engine::rootStepInput(q, InductionStep::Root, inv, r, rootModel(105, -30, -150));
  REQUIRE(neg);
  CHECK(dot(*neg) == -37.5);  // -(6 * 6 + 1.5 * 1)
  for (unsigned c : neg->a) CHECK((c == 0 || (c & 8) != 0));
  CHECK(neg->xb == -30 - 105 + 254);
  // A sum of negative zeros: every leaf -0 * +0.
  auto nz = engine::rootStepInput(q, InductionStep::Root, inv, r, rootModel(105, -30, 0, true));
  REQUIRE(nz);
  for (size_t i = 0; i < 4; ++i) CHECK((nz->a[i] == 8 && nz->b[i] == 0));
  // More than k leaves' worth: 4 leaves of at most 36 make at most 144 (576 units).
  CHECK(engine::rootStepInput(q, InductionStep::Root, inv, r, rootModel(105, -30, 576)));
  CHECK_FALSE(engine::rootStepInput(q, InductionStep::Root, inv, r, rootModel(105, -30, 577)));
  // NaN or infinite sums, other steps, a model without the sum: none.
  auto nan = rootModel(105, -30, 10);
  nan["anyNaN"] = Integer(1);
  CHECK_FALSE(engine::rootStepInput(q, InductionStep::Root, inv, r, nan));
  CHECK_FALSE(engine::rootStepInput(q, InductionStep::Node, inv, r, rootModel(105, -30, 10)));
  auto noSum = rootModel(105, -30, 10);
  noSum.erase("S");
  CHECK_FALSE(engine::rootStepInput(q, InductionStep::Root, inv, r, noSum));
  // A base side that carries the scale (pre, dequant): its tree values are not the inputs'.
  PairQuery pre = q;
  pre.lhs = Placement::Pre;
  Invariant preBase = inv;
  preBase.baseIsRhs = false;
  CHECK_FALSE(engine::rootStepInput(pre, InductionStep::Root, preBase, r, rootModel(105, -30, 10)));
  // Root1 (k = 1): the leaf (-1)^neg N 2^g; a region of one e value (no "e" in the model).
  const PairQuery q1 = post2Post("f16", 1);
  std::map<std::string, Integer> m1{{"xa", Integer(103)}, {"N", Integer(9)}, {"neg", Integer(1)},
                                    {"nan", Integer(0)},   {"inf", Integer(0)}};
  auto one = engine::rootStepInput(q1, InductionStep::Root1, inv, box(103, 103, 125, 125), m1);
  REQUIRE(one);
  CHECK(one->xb == 125);
  CHECK(dot(*one) == -2.25);
}

TEST_CASE("normalized significand: the same value, M below 2^p (solver-checked)", "[solver][post2-normalize]") {
  // A bf16-rounded value of 25 bits of range (the e4m3 k = 32 tree value has 41, in units of 2^-18)
  // written as M 2^X' (models/arith.h, normalizeSignificand): cvc5 proves, with every fact of
  // the analysis (the precision obligations included), that it is the same value, and the
  // analysis bounds M below 2^8 in every arm.
  smt::TermStore st;
  st.setObligations(true);
  smt::TermDomain d(st);
  const AccSpec acc{*findAccFormat("bf16")};
  const smt::SInt S{st.intVar("S", Integer(0), Integer::pow2(24))};
  const smt::SInt X = d.lit(Integer(-18));
  const Val<smt::TermDomain> v = roundAcc(d, finiteVal(d, d.litB(false), S, X), acc);
  const Val<smt::TermDomain> n = normalizeSignificand(d, v, unsigned(acc.fmt.p));
  CHECK(d.range(n.N).hi < Integer(256));
  CHECK(d.range(v.N).hi >= Integer::pow2(24));
  st.assertGoal(d.lnot(related(d, v, n, Relation::Bitwise)).t);
  REQUIRE(st.phaseCount() > 1);  // the precision facts are proven, not assumed
  const smt::CheckResult r = smt::makeBackend("cvc5")->check(st, 120);
  CHECK(r.verdict == smt::Verdict::Unsat);
  // The concrete domain keeps the value as it is.
  ConcreteDomain c;
  const Val<ConcreteDomain> cv = finiteVal(c, false, Integer(3 << 20), Integer(-18), 2);
  const Val<ConcreteDomain> cn = normalizeSignificand(c, cv, 8);
  CHECK(cn.N == cv.N);
  CHECK(cn.X == cv.X);
}

TEST_CASE("post2's root step over a wide tree value: each decided fact in a phase of its own",
          "[solver][post2-normalize]") {
  // smt/induction_encoder.cpp: where post2's root step normalizes a wide tree value (e4m3
  // k = 32 in bf16: N spans 41 bits of 2^-18), its decided facts get one phase each (together
  // their disjunction, 116 of them over this region, was undecided after 120 s; alone each
  // takes about 0.1 s); e2m1 (13 bits) keeps the direct form, with the decided facts in the last
  // phases, at most kDecidedPerPhase each.
  auto rootStep = [](const std::string &fmt, const Invariant &inv, const Region &r) {
    smt::Query q{ModelConfig{*findElementFormat(fmt), *findElementFormat(fmt), AccSpec{*findAccFormat("bf16")},
                             Tree::seq(32)},
                 Placement::Post2, Placement::Post, Relation::Bitwise, r, {}, nullptr, true, {},
                 InductionStep::Root, inv, {}};
    q.cfg.anyOrder = 32;  // every tree (--tree any)
    return std::make_unique<smt::LiaEncoding>(q);
  };
  auto decidedFacts = [](const smt::TermStore &st) {
    size_t n = 0;
    for (const smt::Fact &f : st.facts()) n += f.kind == smt::FactKind::Decided;
    return n;
  };
  Invariant wide = scaledPost();
  wide.grid = -18;
  wide.unit = Integer::pow2(36);
  const auto e4m3 = rootStep("e4m3", wide, box(0, 11, 0, 119));
  const smt::TermStore &s4 = e4m3->store();
  REQUIRE(decidedFacts(s4) > 0);
  CHECK(size_t(s4.phaseCount()) == 1 + s4.facts().size());
  for (int p = 1; p < s4.phaseCount(); ++p) CHECK(s4.factsOfPhase(p).size() == 1);
  const auto e2m1 = rootStep("e2m1", scaledPost(), box(0, 11, 0, 119));
  const smt::TermStore &s2 = e2m1->store();
  const size_t d2 = decidedFacts(s2);
  REQUIRE(d2 > 1);
  const size_t groups = (d2 + smt::kDecidedPerPhase - 1) / smt::kDecidedPerPhase;
  CHECK(size_t(s2.phaseCount()) == 1 + (s2.facts().size() - d2) + groups);
  size_t inGroups = 0;
  for (int p = s2.phaseCount() - int(groups); p < s2.phaseCount(); ++p) inGroups += s2.factsOfPhase(p).size();
  CHECK(inGroups == d2);
}

TEST_CASE("decided facts proven in groups of at most 64: an f16 rtz root step with over 128",
          "[solver][term]") {
  // smt/term.cpp, assertGoal: the decided facts are proven by disjunctions of at most
  // kDecidedPerPhase (64) local statements, in creation order. (The equal invariant's leaf
  // step of e2m1 k = 32 f16 rtz ftz pre/dequant over e -48..-20 had over 200 of them; as one
  // disjunction cvc5 took 41.8 s, in groups of 64 at most 1.3 s each. Since FTZ's subnormal
  // arms below 2^(emin - 1) are one zero arm, models/arith.h, that step has 5.) The scaled
  // invariant's root step of e5m2 k = 32 f16 rtz pre/post over e -150..-100 has over 128:
  // every decided fact is in exactly one of the last phases (at least three groups), in
  // order, and cvc5 proves the whole step.
  AccSpec acc{*findAccFormat("f16"), Rounding::RTZ, Subnormals::Keep};
  const PairQuery pq{ModelConfig{*findElementFormat("e5m2"), *findElementFormat("e5m2"), acc, Tree::seq(32)},
                     Placement::Pre, Placement::Post, Relation::Bitwise, nullptr, false, {}};
  PairQuery any = pq;
  any.cfg.anyOrder = 32;  // every tree (--tree any)
  const std::vector<Invariant> invs = engine::candidateInvariants(any);
  REQUIRE(!invs.empty());
  REQUIRE(invs[0].mode == InvariantMode::Scaled);
  Region r;
  r.xa = {0, 234};
  r.xb = {0, 234};
  r.e = {-150, -100};
  smt::Query q{any.cfg, Placement::Pre, Placement::Post, Relation::Bitwise, r, {}, nullptr, true, {},
               InductionStep::Root, invs[0], {}};
  const smt::LiaEncoding enc(q);
  const smt::TermStore &st = enc.store();
  std::vector<size_t> decided;
  for (size_t i = 0; i < st.facts().size(); ++i)
    if (st.facts()[i].kind == smt::FactKind::Decided) decided.push_back(i);
  REQUIRE(decided.size() > 2 * smt::kDecidedPerPhase);
  const size_t groups = (decided.size() + smt::kDecidedPerPhase - 1) / smt::kDecidedPerPhase;
  const size_t others = st.facts().size() - decided.size();
  REQUIRE(size_t(st.phaseCount()) == 1 + others + groups);
  std::vector<size_t> seen;
  for (int p = int(1 + others); p < st.phaseCount(); ++p) {
    const std::vector<size_t> fs = st.factsOfPhase(p);
    CHECK(!fs.empty());
    CHECK(fs.size() <= smt::kDecidedPerPhase);
    seen.insert(seen.end(), fs.begin(), fs.end());
  }
  CHECK(seen == decided);
  for (int p = 1; p <= int(others); ++p) CHECK(st.factsOfPhase(p).size() == 1);
  const smt::CheckResult res = smt::makeBackend("cvc5")->check(st, 300);
  CHECK(res.verdict == smt::Verdict::Unsat);
}

TEST_CASE("valuesEqual over a wide exponent difference: a case split over the window alone, exact equality",
          "[solver][term]") {
  // models/arith.h, valuesEqual: A 2^XA = B 2^XB with XA - XB in [-63, 63] but A <= 40, B <= 300:
  // nonzero values can be equal only for XA - XB in [-5, 8] (the window), so the test splits
  // over those 14 differences, not 127. It must be exact equality on every input: evaluated on
  // a grid of assignments, and proven by cvc5 equal to the aligned equality (align, the case
  // split over every difference) over the whole ranges.
  smt::TermStore st;
  st.setObligations(true);
  smt::TermDomain d(st);
  const smt::SInt A{st.intVar("A", Integer(0), Integer(40))}, B{st.intVar("B", Integer(0), Integer(300))};
  const smt::SInt XA{st.intVar("XA", Integer(-3), Integer(3))}, XB{st.intVar("XB", Integer(-60), Integer(60))};
  const size_t before = st.size();
  const smt::SBool eq = valuesEqual(d, A, XA, B, XB);
  const size_t windowTerms = st.size() - before;
  const Aligned<smt::TermDomain> al = align(d, A, XA, B, XB);
  const smt::SBool full = d.eq(al.A, al.B);
  const size_t alignTerms = st.size() - before - windowTerms;
  CHECK(windowTerms * 4 < alignTerms);
  long evaluated = 0, equal = 0;
  for (int a : {0, 1, 3, 5, 8, 40})
    for (int b : {0, 1, 2, 3, 5, 8, 12, 40, 64, 80, 300})
      for (int xa = -3; xa <= 3; ++xa)
        for (int xb = -60; xb <= 60; ++xb) {
          const std::map<std::string, Integer> m{
              {"A", Integer(a)}, {"B", Integer(b)}, {"XA", Integer(xa)}, {"XB", Integer(xb)}};
          // a 2^xa = b 2^xb, exactly: both sides times 2^63.
          const bool want = (Integer(a) << unsigned(xa + 63)) == (Integer(b) << unsigned(xb + 63));
          INFO("A=" << a << " XA=" << xa << " B=" << b << " XB=" << xb);
          REQUIRE(st.evalBool(eq.t, m) == want);
          ++evaluated;
          equal += want;
        }
  CHECK(evaluated == 6 * 11 * 7 * 121);
  CHECK(equal > 6 * 7);  // equal nonzero pairs at some differences, besides 0 = 0
  st.assertGoal(d.lxor(eq, full).t);
  const smt::CheckResult r = smt::makeBackend("cvc5")->check(st, 120);
  CHECK(r.verdict == smt::Verdict::Unsat);
}

TEST_CASE("step witness: the root step on concrete values (rootStepScan) answers as the solver's root step, "
          "pair by pair", "[solver][step-witness]") {
  // src/engine/step_witness.h, rootStepScan: every abstract sum of the root step evaluated by
  // the reference model. Cross-checked against cvc5's root step on single code pairs of the
  // region where e2m1 k = 32 f16 post2/post differs (xa 103..104: 2^sa is an f16 subnormal):
  // the scan proposes an input at a pair exactly where the solver's step is satisfiable, and
  // the reference evaluator confirms every input proposed.
  const PairQuery q = post2Post("f16", 32);
  const Invariant inv = scaledPost();
  std::vector<std::pair<int, int>> pairs;
  for (int xb : {110, 116, 117, 120, 126, 127}) pairs.emplace_back(103, xb);
  for (int xb : {118, 121, 125}) pairs.emplace_back(104, xb);
  const engine::RootStepScan scan = engine::rootStepScan(q, inv, pairs, 1L << 30);
  CHECK(scan.pairsScanned == pairs.size());
  std::set<std::pair<int, int>> proposed;
  for (const engine::Witness &w : scan.candidates) {
    INFO("xa=" << w.xa << " xb=" << w.xb);
    CHECK(engine::witnessDisagrees(q, w, w.xa, w.xb));
    CHECK(proposed.insert({w.xa, w.xb}).second);  // at most one per pair
  }
  // Threads share the pairs; the candidates are the same, in the same order.
  for (int threads : {2, 3}) {
    INFO("threads=" << threads);
    const engine::RootStepScan par = engine::rootStepScan(q, inv, pairs, 1L << 30, threads);
    CHECK(par.pairsScanned == scan.pairsScanned);
    REQUIRE(par.candidates.size() == scan.candidates.size());
    for (size_t i = 0; i < par.candidates.size(); ++i) {
      CHECK(par.candidates[i].xa == scan.candidates[i].xa);
      CHECK(par.candidates[i].xb == scan.candidates[i].xb);
      CHECK(par.candidates[i].a == scan.candidates[i].a);
      CHECK(par.candidates[i].b == scan.candidates[i].b);
    }
  }
  PairQuery any = q;
  any.cfg.anyOrder = 32;  // the steps are stated for every tree
  const auto cvc5 = smt::makeBackend("cvc5");
  size_t sat = 0;
  for (auto [xa, xb] : pairs) {
    INFO("xa=" << xa << " xb=" << xb);
    const engine::RegionCheck rc = engine::checkInductionStep(any, box(xa, xa, xb, xb), InductionStep::Root, inv, *cvc5, 120);
    REQUIRE((rc.verdict == smt::Verdict::Unsat || !rc.stepModel.empty()));  // decided: no timeout
    const bool differs = rc.verdict != smt::Verdict::Unsat;
    CHECK(differs == (proposed.count({xa, xb}) == 1));
    sat += differs;
  }
  // Both answers occur among these pairs.
  CHECK(sat > 0);
  CHECK(sat < pairs.size());
}

TEST_CASE("step witness: the concrete root step's budget and limits", "[solver][step-witness]") {
  // dequant vs post: O's sum S 2^(g + e) depends on S itself, so every S is evaluated.
  PairQuery q = post2Post("f16", 32);
  q.lhs = Placement::Dequant;
  std::vector<std::pair<int, int>> pairs{{103, 110}, {103, 111}, {103, 112}, {103, 113}};
  // k U = 32 * 144 = 4,608 units: S = 0 .. 4,608 and -0, 4,610 sums per pair (a negative S
  // fails where -S does: it is not evaluated).
  const long perPair = 4608 + 2;
  CHECK(engine::rootStepScan(q, scaledPost(), pairs, 3 * perPair).pairsScanned == 3);
  CHECK(engine::rootStepScan(q, scaledPost(), pairs, 3 * perPair - 1).pairsScanned == 2);
  CHECK(engine::rootStepScan(q, scaledPost(), pairs, 3 * perPair - 1, 2).pairsScanned == 2);
  CHECK(engine::rootStepScan(q, scaledPost(), pairs, perPair - 1, 2).pairsScanned == 0);
  // The equal invariant, a base side that carries the scale, and a k U over the limit scan nothing.
  Invariant eq = scaledPost();
  eq.mode = InvariantMode::Equal;
  CHECK(engine::rootStepScan(q, eq, pairs, 1L << 30).pairsScanned == 0);
  Invariant preBase = scaledPost();
  preBase.baseIsRhs = false;
  PairQuery pre = q;
  pre.lhs = Placement::Pre;
  CHECK(engine::rootStepScan(pre, preBase, pairs, 1L << 30).pairsScanned == 0);
  Invariant wide = scaledPost();
  wide.unit = Integer(engine::kMaxScanUnits / 32 + 1);
  CHECK(engine::rootStepScan(q, wide, pairs, 1L << 30).pairsScanned == 0);
  // post2 vs post: one sum per accumulator value, so the same wide unit is scanned.
  CHECK(engine::rootStepScan(post2Post("f16", 32), wide, pairs, 1L << 30).pairsScanned == 4);
}

TEST_CASE("step witness: one sum per accumulator value covers every rounded sum", "[solver][step-witness]") {
  // rootStepSums where O's sum is B's (post2 vs post) or a zero (mode zero): every value
  // rnd(S 2^g) with 0 <= S <= k U is rnd(S' 2^g) for a listed S'. Checked over every S for
  // e2m1 k = 32 (k U = 4,608) in each accumulator, rounding and subnormal mode, and on a
  // sample for e4m3 (k U = 2^41, grid 2^-18), whose list must stay short.
  ConcreteDomain d;
  auto normal = [&](const AccSpec &acc, int g, int64_t S) {
    // The same value in lowest terms, so that equal values print alike.
    const CVal v = roundAcc(d, finiteVal(d, false, Integer(S), Integer(int64_t(g))), acc);
    if (v.inf) return std::string("inf");
    Integer N = v.N, X = v.X;
    if (N.isZero()) return std::string("0");
    while (N.lowBits(1).isZero()) {
      N = N >> 1;
      X = X + Integer(1);
    }
    return N.str() + "p" + X.str();
  };
  for (const char *accName : {"f16", "bf16", "f32"})
    for (Rounding rd : {Rounding::RNE, Rounding::RTZ})
      for (Subnormals sub : {Subnormals::Keep, Subnormals::FTZ}) {
        const AccSpec acc{*findAccFormat(accName), rd, sub};
        INFO(accName << (rd == Rounding::RTZ ? " rtz" : " rne") << (sub == Subnormals::FTZ ? " ftz" : ""));
        for (InvariantMode mode : {InvariantMode::Scaled, InvariantMode::Zero}) {
          Invariant inv = scaledPost();
          inv.mode = mode;
          const auto sums = engine::rootStepSums(acc.fmt, inv, Placement::Post2, 4608);
          REQUIRE(sums);
          CHECK(std::is_sorted(sums->begin(), sums->end()));
          CHECK(sums->front() == 0);
          CHECK(sums->back() == 4608);
          std::set<std::string> listed, all;
          for (int64_t S : *sums) listed.insert(normal(acc, -2, S));
          for (int64_t S = 0; S <= 4608; ++S) all.insert(normal(acc, -2, S));
          CHECK(listed == all);
        }
        // e4m3 at k = 32: U = 2^36 units of 2^-18 (the invariant's rounded-up unit).
        Invariant e4 = scaledPost();
        e4.grid = -18;
        e4.unit = Integer::pow2(36);
        const int64_t kU = int64_t(1) << 41;
        const auto sums = engine::rootStepSums(acc.fmt, e4, Placement::Post, kU);
        if (std::string(accName) == "f32") {
          CHECK_FALSE(sums);  // 2^23 values per binade: too many
          continue;
        }
        REQUIRE(sums);
        CHECK(sums->size() < size_t(engine::kMaxScanSums));
        std::set<std::string> listed;
        for (int64_t S : *sums) listed.insert(normal(acc, -18, S));
        uint64_t x = 88172645463325252ull;  // xorshift64
        for (int i = 0; i < 20000; ++i) {
          x ^= x << 13;
          x ^= x >> 7;
          x ^= x << 17;
          const int64_t S = int64_t(x % uint64_t(kU + 1)) >> (x % 41);  // every magnitude
          INFO("S=" << S);
          CHECK(listed.count(normal(acc, -18, S)) == 1);
        }
      }
  // dequant vs post (O's sum S 2^(g + e)): every S, and none past kMaxScanUnits.
  const AccFormat f16 = *findAccFormat("f16");
  CHECK(engine::rootStepSums(f16, scaledPost(), Placement::Dequant, 4608)->size() == 4609);
  CHECK_FALSE(engine::rootStepSums(f16, scaledPost(), Placement::Dequant, engine::kMaxScanUnits + 1));
}

TEST_CASE("step witness: a failed leaf step's product in n leaves, and beside its negation", "[solver][step-witness]") {
  // e2m1 k = 4 dequant/post (f16): the model names a0 = 3 (1.5), b0 = 5 (3) at xa = 110,
  // e = -30 (xb = 114).
  PairQuery q = post2Post("f16", 4);
  q.lhs = Placement::Dequant;
  q.cfg.tree = Tree::fused(4);
  const Region r = box(100, 120, 100, 120);
  const std::map<std::string, Integer> m = {{"a0", Integer(3)}, {"b0", Integer(5)}, {"xa", Integer(110)},
                                            {"e", Integer(-30)}};
  const std::vector<engine::Witness> in = engine::leafStepInputs(q, InductionStep::Leaf, r, m);
  REQUIRE(in.size() == 4 + 2 + 3);  // n = 1..4, then n = 1, 2 beside -a0, then m = 1..3 maxima
  for (const engine::Witness &w : in) {
    CHECK(w.xa == 110);
    CHECK(w.xb == 114);
    CHECK(w.tree.empty());
  }
  CHECK(in[0].a == std::vector<unsigned>{3, 0, 0, 0});
  CHECK(in[0].b == std::vector<unsigned>{5, 0, 0, 0});
  CHECK(in[3].a == std::vector<unsigned>{3, 3, 3, 3});
  CHECK(in[4].a == std::vector<unsigned>{3, 11, 0, 0});  // 11 = -1.5: the sign bit of e2m1
  CHECK(in[4].b == std::vector<unsigned>{5, 5, 0, 0});
  CHECK(in[5].a == std::vector<unsigned>{3, 3, 11, 11});
  CHECK(dot(in[5]) == 0);
  CHECK(in[6].a == std::vector<unsigned>{3, 7, 0, 0});  // 7 = 6, e2m1's largest finite value
  CHECK(in[6].b == std::vector<unsigned>{5, 7, 0, 0});
  CHECK(in[8].a == std::vector<unsigned>{3, 7, 7, 7});
  CHECK(engine::largestFiniteCode(*findElementFormat("e4m3")) == 0x7e);  // 448 (0x7f is NaN)
  CHECK(engine::largestFiniteCode(*findElementFormat("e5m2")) == 0x7b);  // 57344 (0x7c is inf)
  // Only the leaf step, only fixed MX trees, only a model with the codes and the pair.
  CHECK(engine::leafStepInputs(q, InductionStep::Root, r, m).empty());
  CHECK(engine::leafStepInputs(q, InductionStep::Leaf, r, {{"a0", Integer(3)}, {"xa", Integer(110)}}).empty());
  CHECK(engine::leafStepInputs(q, InductionStep::Leaf, r, {{"a0", Integer(3)}, {"b0", Integer(5)}}).empty());
  CHECK(engine::leafStepInputs(q, InductionStep::Leaf, r,
                               {{"a0", Integer(16)}, {"b0", Integer(5)}, {"xa", Integer(110)}, {"e", Integer(-30)}})
            .empty());  // no e2m1 code 16
  PairQuery any = q;
  any.cfg.anyOrder = 4;
  CHECK(engine::leafStepInputs(any, InductionStep::Leaf, r, m).empty());
}

TEST_CASE("step witness: the failing leaves at a leaf step's code pair, the largest error first",
          "[solver][step-witness]") {
  // e3m2 x e5m2 k = 32 pairwise f32 pre/post2 value at xa = 0, xb = 103 (e = -151): pre's leaf
  // rnd(2^-151 a b) lies on f32's subnormal grid 2^-149, post2's leaf rnd(a b) = a b is exact
  // (at most 6 significant bits). A leaf step's model named the leaf (3, 1): 3 2^-20, which pre
  // rounds to zero, an error of 3 2^-171 that no sum of 32 such leaves shows.
  const ElementFormat e3m2 = *findElementFormat("e3m2"), e5m2 = *findElementFormat("e5m2");
  const PairQuery q{ModelConfig{e3m2, e5m2, AccSpec{*findAccFormat("f32")}, Tree::pairwise(32)},
                    Placement::Pre, Placement::Post2, Relation::Value, nullptr, false, {}};
  const Invariant inv = engine::candidateInvariants(q).front();
  REQUIRE(inv.mode == InvariantMode::Scaled);
  REQUIRE(inv.baseIsRhs);  // base post2, O = pre
  const int xa = 0, xb = 103, e = xa + xb - 254;
  auto value = [](const ElementFormat &f, unsigned c) {
    const ElementValue v = decodeElementCode(f, c);
    return (v.neg ? -1.0 : 1.0) * std::ldexp(double(v.n.toInt64()), f.quantumExp());
  };
  // The error of pre's leaf by native float: the exact product scaled by 2^e (exact in
  // double), rounded to f32 (round to nearest even, subnormals kept) less itself.
  auto error = [&](unsigned a, unsigned b) {
    const double exact = std::ldexp(value(e3m2, a) * value(e5m2, b), e);
    return std::fabs(double(float(exact)) - exact);
  };
  const auto leaves = engine::failingLeaves(q, inv, xa, xb, 16);
  REQUIRE(leaves.size() == 16);
  CHECK(error(leaves[0].first, leaves[0].second) == std::ldexp(1.0, -150));  // half a unit: a tie
  for (size_t i = 0; i < leaves.size(); ++i) {
    CHECK(error(leaves[i].first, leaves[i].second) > 0);
    if (i > 0) CHECK(error(leaves[i].first, leaves[i].second) <= error(leaves[i - 1].first, leaves[i - 1].second));
  }
  // Every failing leaf is there when asked for all, the model's among them, after the others.
  const auto all = engine::failingLeaves(q, inv, xa, xb, 1u << 16);
  size_t errs = 0;
  for (unsigned a = 0; a < e3m2.numCodes(); ++a)
    for (unsigned b = 0; b < e5m2.numCodes(); ++b) {
      const ElementValue va = decodeElementCode(e3m2, a), vb = decodeElementCode(e5m2, b);
      if (!va.nan && !va.inf && !vb.nan && !vb.inf && error(a, b) > 0) ++errs;
    }
  CHECK(all.size() == errs);
  const auto model = std::find(all.begin(), all.end(), std::make_pair(3u, 1u));
  REQUIRE(model != all.end());
  CHECK(model - all.begin() > 16);
  // The model's leaf in n leaves makes no witness; the largest error's does (n = 2: two ties
  // that pre rounds down, to even, and post2 adds before it rounds once).
  const Region r = box(0, 103, 0, 103);
  auto witnesses = [&](unsigned a, unsigned b) {
    size_t n = 0;
    for (const engine::Witness &w : engine::leafStepInputs(
             q, InductionStep::Leaf, r,
             {{"a0", Integer(int64_t(a))}, {"b0", Integer(int64_t(b))}, {"xa", Integer(xa)}, {"e", Integer(e)}}))
      if (engine::witnessDisagrees(q, w, w.xa, w.xb)) ++n;
    return n;
  };
  CHECK(witnesses(3, 1) == 0);
  CHECK(witnesses(leaves[0].first, leaves[0].second) > 0);
  // Only fixed MX trees.
  PairQuery any = q;
  any.cfg.anyOrder = 32;
  CHECK(engine::failingLeaves(any, inv, xa, xb, 16).empty());
}

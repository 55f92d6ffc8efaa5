// tests/unit/test_public_example.cpp — the SPEC §7 public example through the exhaustive
// engine (e2m1 x e2m1, f32 rne keep, seq, pre vs post): the bitwise agree set is exactly
// {e in [-147, 122]}, the value agree set exactly [-254, -157] u [-147, 122], and k = 1
// agrees everywhere. Also: every witness the engine returns really disagrees at every pair
// attributed to it; the engine's shortcuts (collapse = true) give the same sets as the plain
// per-pair evaluation (collapse = false) on sampled pairs for pre/post, dequant/post and
// post2/post; and a brute force over all element inputs confirms the boundary pairs. The same
// cross-checks (collapse on/off, witnesses, brute force) run on other formats, accumulators,
// rounding/subnormal options and trees.
#include "helpers.h"
#include "src/engine/exhaustive.h"

#include <catch2/catch.hpp>

#include <functional>

using namespace mxcert;
using namespace mxtest;
using engine::ExhaustiveOptions;
using engine::ExhaustiveResult;
using engine::PairQuery;

namespace {

/// The set of code pairs whose e = xa + xb - 254 lies in one of the intervals.
CodeSet eSet(std::initializer_list<std::pair<int, int>> intervals) {
  CodeSet s;
  for (int xa = 0; xa <= kMaxCode; ++xa)
    for (int xb = 0; xb <= kMaxCode; ++xb) {
      const int e = xa + xb - kMaxCode;
      for (auto [lo, hi] : intervals)
        if (lo <= e && e <= hi) s.set(xa, xb);
    }
  return s;
}

/// The public example's query (k and tree may vary).
PairQuery publicQuery(int k, Placement lhs, Placement rhs, Relation rel, const std::string &tree = "seq") {
  return PairQuery{config("e2m1", "e2m1", accSpec("f32"), tree, k), lhs, rhs, rel};
}

/// Describes the first few pairs where two sets differ (for failure messages).
std::string setDiff(const CodeSet &got, const CodeSet &want) {
  std::string s;
  int n = 0;
  for (int xa = 0; xa <= kMaxCode && n < 8; ++xa)
    for (int xb = 0; xb <= kMaxCode && n < 8; ++xb)
      if (got.get(xa, xb) != want.get(xa, xb)) {
        s += " (" + std::to_string(xa) + "," + std::to_string(xb) + " e=" +
             std::to_string(xa + xb - kMaxCode) + (got.get(xa, xb) ? " extra)" : " missing)");
        ++n;
      }
  return s;
}

/// Checks the witnesses of a result: every pair outside `agree` that was evaluated has one,
/// every pair in `agree` has none, and each witness disagrees (by the reference evaluator) at
/// its own pair and at every pair attributed to it.
void checkWitnesses(const PairQuery &q, const ExhaustiveResult &r,
                    const std::function<bool(int, int)> &evaluated = {}) {
  long bad = 0, checked = 0;
  for (const auto &w : r.witnesses) {
    CHECK(w.a.size() == size_t(q.cfg.k()));
    CHECK(w.b.size() == size_t(q.cfg.k()));
    CHECK(engine::witnessDisagrees(q, w.a, w.b, w.xa, w.xb));
  }
  REQUIRE(r.witnessOf.size() == size_t(kNumCodes) * kNumCodes);
  for (int xa = 0; xa <= kMaxCode; ++xa)
    for (int xb = 0; xb <= kMaxCode; ++xb) {
      const int w = r.witnessOf[size_t(xa) * kNumCodes + size_t(xb)];
      const bool ev = !evaluated || evaluated(xa, xb);
      if (r.agree.get(xa, xb)) {
        if (w != -1 && bad++ < 5) FAIL_CHECK("agreeing pair (" << xa << "," << xb << ") has witness " << w);
        continue;
      }
      if (!ev) continue;
      if (w < 0 || size_t(w) >= r.witnesses.size()) {
        if (bad++ < 5) FAIL_CHECK("excluded pair (" << xa << "," << xb << ") has no witness");
        continue;
      }
      const auto &wt = r.witnesses[size_t(w)];
      ++checked;
      if (!engine::witnessDisagrees(q, wt.a, wt.b, xa, xb) && bad++ < 5)
        FAIL_CHECK("witness " << w << " a=" << codes(wt.a) << " b=" << codes(wt.b)
                              << " does not refute (" << xa << "," << xb << ")");
    }
  CHECK(bad == 0);
  // Every excluded, evaluated pair was checked above.
  if (!evaluated) CHECK(checked == long(kNumCodes) * kNumCodes - r.agree.count());
}

/// Brute force: whether the query's placements are related at (xa, xb) for EVERY element
/// input (all numCodes^(2k) of them), by the reference evaluator alone.
bool bruteAgrees(const PairQuery &q, unsigned xa, unsigned xb) {
  const int k = q.cfg.k();
  const unsigned na = q.cfg.a.numCodes(), nb = q.cfg.b.numCodes();
  ConcreteInput in{std::vector<unsigned>(size_t(k), 0), std::vector<unsigned>(size_t(k), 0), xa, xb};
  for (;;) {
    std::vector<CVal> r = evaluatePlacements(q.cfg, {q.lhs, q.rhs}, in);
    if (!isRelated(r[0], r[1], q.rel)) return false;
    // Next input (odometer over a then b).
    int i = 0;
    for (; i < 2 * k; ++i) {
      unsigned &c = i < k ? in.a[size_t(i)] : in.b[size_t(i - k)];
      const unsigned lim = i < k ? na : nb;
      if (++c < lim) break;
      c = 0;
    }
    if (i == 2 * k) return true;
  }
}

}  // namespace

TEST_CASE("public example: bitwise agree set is exactly e in [-147, 122]", "[engine][public]") {
  const PairQuery q = publicQuery(2, Placement::Pre, Placement::Post, Relation::Bitwise);
  const ExhaustiveResult r = engine::runExhaustive(q);
  const CodeSet want = eSet({{-147, 122}});
  INFO("difference:" << setDiff(r.agree, want));
  CHECK(r.agree == want);
  CHECK(r.agree.count() == want.count());
  CHECK(Guard::fromSet(r.agree).toSet() == want);
  // The boundary lines are refuted: e = -148 and e = 123.
  CHECK(r.witnessOf[size_t(0) * kNumCodes + 106] >= 0);    // e = -148
  CHECK(r.witnessOf[size_t(254) * kNumCodes + 123] >= 0);  // e = 123
  checkWitnesses(q, r);
}

TEST_CASE("public example: value agree set is exactly [-254, -157] u [-147, 122]", "[engine][public]") {
  const PairQuery q = publicQuery(2, Placement::Pre, Placement::Post, Relation::Value);
  const ExhaustiveResult r = engine::runExhaustive(q);
  const CodeSet want = eSet({{-254, -157}, {-147, 122}});
  INFO("difference:" << setDiff(r.agree, want));
  CHECK(r.agree == want);
  checkWitnesses(q, r);
}

TEST_CASE("public example: k = 1 agrees everywhere", "[engine][public]") {
  for (Relation rel : {Relation::Bitwise, Relation::Value}) {
    const PairQuery q = publicQuery(1, Placement::Pre, Placement::Post, rel);
    const ExhaustiveResult r = engine::runExhaustive(q);
    CHECK(r.agree == CodeSet::all());
    CHECK(r.agree.count() == long(kNumCodes) * kNumCodes);
    CHECK(r.witnesses.empty());
  }
}

TEST_CASE("public example: brute force over all inputs at the boundary pairs", "[engine][public]") {
  // The definition of the agree set, evaluated directly (16^4 inputs per pair).
  const PairQuery qb = publicQuery(2, Placement::Pre, Placement::Post, Relation::Bitwise);
  const PairQuery qv = publicQuery(2, Placement::Pre, Placement::Post, Relation::Value);
  struct P {
    unsigned xa, xb;
    bool bitwise, value;
  };
  const P pairs[] = {
      {0, 106, false, false},  // e = -148
      {0, 107, true, true},    // e = -147
      {254, 122, true, true},  // e = 122
      {254, 123, false, false},  // e = 123
      {0, 97, false, true},    // e = -157
      {0, 98, false, false},   // e = -156
      {0, 0, false, true},     // e = -254
      {127, 127, true, true},  // e = 0
  };
  for (const P &p : pairs) {
    INFO("xa " << p.xa << " xb " << p.xb);
    CHECK(bruteAgrees(qb, p.xa, p.xb) == p.bitwise);
    CHECK(bruteAgrees(qv, p.xa, p.xb) == p.value);
  }
}

TEST_CASE("engine: collapse = false gives the same sets on sampled pairs", "[engine][collapse]") {
  // Sampled code pairs: a stride over the whole square plus the boundary neighbourhoods.
  auto sample = [](int xa, int xb) {
    const int e = xa + xb - kMaxCode;
    if ((xa * 7 + xb * 13) % 97 == 0) return true;
    if ((xa == 0 || xa == 254 || xb == 0 || xb == 254 || xa == 127 || xa == 1) && (xb % 5 == 0))
      return true;
    return (e >= -160 && e <= -144 && xa % 11 == 0) || (e >= 119 && e <= 126 && xa % 9 == 0);
  };
  const std::pair<Placement, Placement> pairs[] = {{Placement::Pre, Placement::Post},
                                                   {Placement::Dequant, Placement::Post},
                                                   {Placement::Post2, Placement::Post}};
  for (int k : {1, 2})
    for (auto [lhs, rhs] : pairs)
      for (Relation rel : {Relation::Bitwise, Relation::Value}) {
        const PairQuery q = publicQuery(k, lhs, rhs, rel);
        INFO("k " << k << " " << toString(lhs) << "/" << toString(rhs) << " " << toString(rel));
        ExhaustiveOptions full, on, off;
        on.onlyPairs = sample;
        off.onlyPairs = sample;
        off.collapse = false;
        const ExhaustiveResult rFull = engine::runExhaustive(q, full);
        const ExhaustiveResult rOn = engine::runExhaustive(q, on);
        const ExhaustiveResult rOff = engine::runExhaustive(q, off);
        // The full run restricted to the sample, and both sampled runs, are the same set.
        CodeSet restricted;
        long n = 0;
        for (int xa = 0; xa <= kMaxCode; ++xa)
          for (int xb = 0; xb <= kMaxCode; ++xb)
            if (sample(xa, xb)) {
              ++n;
              restricted.set(xa, xb, rFull.agree.get(xa, xb));
            }
        INFO(n << " sampled pairs; on vs off:" << setDiff(rOn.agree, rOff.agree)
               << "; full vs off:" << setDiff(restricted, rOff.agree));
        CHECK(rOn.agree == rOff.agree);
        CHECK(restricted == rOff.agree);
        checkWitnesses(q, rFull);
        checkWitnesses(q, rOff, sample);
      }
}

TEST_CASE("engine: agree sets match a brute force over all inputs on sampled pairs", "[engine]") {
  // k = 1: every element input is enumerated (256 per pair), for dequant/post and post2/pre,
  // whose results depend on xa and xb separately.
  for (auto [lhs, rhs] : {std::pair{Placement::Dequant, Placement::Post}, std::pair{Placement::Post2, Placement::Pre}})
    for (Relation rel : {Relation::Bitwise, Relation::Value}) {
      const PairQuery q = publicQuery(1, lhs, rhs, rel);
      const ExhaustiveResult r = engine::runExhaustive(q);
      long mismatches = 0;
      for (unsigned xa = 0; xa <= 254; xa += 1)
        for (unsigned xb = 0; xb <= 254; xb += 1) {
          if ((xa * 3 + xb * 5) % 61 != 0 && xa != 0 && xa != 254 && xb != 254) continue;
          if (r.agree.get(int(xa), int(xb)) != bruteAgrees(q, xa, xb) && mismatches++ < 5)
            FAIL_CHECK(toString(lhs) << "/" << toString(rhs) << " " << toString(rel) << " at xa " << xa
                                     << " xb " << xb << ": engine says "
                                     << (r.agree.get(int(xa), int(xb)) ? "agree" : "differ"));
        }
      CHECK(mismatches == 0);
      checkWitnesses(q, r);
    }
}

namespace {

/// One engine configuration for the sampled cross-checks below.
struct EngineCase {
  const char *a, *b, *acc;
  Rounding rnd;
  Subnormals sub;
  const char *tree;
  int k;
  Placement lhs, rhs;
  Relation rel;
  int modulus;   ///< sample density: pairs with (3 xa + 5 xb) % modulus == 0 (and edges)
  int bruteMod;  ///< brute-force the sampled pairs with (xa + xb) % bruteMod == 0 (0: none)
};

/// For one configuration: the full engine run (collapse = true), restricted to a sample of
/// code pairs, equals the plain per-pair run (collapse = false) on the sample; every witness
/// refutes every pair attributed to it; and, where the input space is small enough, a brute
/// force over all element inputs at some sampled pairs gives the same verdicts.
void crossCheck(const EngineCase &c) {
  const PairQuery q{config(c.a, c.b, accSpec(c.acc, c.rnd, c.sub), c.tree, c.k), c.lhs, c.rhs, c.rel};
  INFO(c.a << "x" << c.b << " " << c.acc << " " << toString(c.rnd) << " " << toString(c.sub) << " "
            << c.tree << " k " << c.k << " " << toString(c.lhs) << "/" << toString(c.rhs) << " "
            << toString(c.rel));
  const int mod = c.modulus;
  auto sample = [mod](int xa, int xb) {
    if ((3 * xa + 5 * xb) % mod == 0) return true;
    return (xa == 0 || xa == 254) && xb % 50 == 7;
  };
  ExhaustiveOptions off;
  off.onlyPairs = sample;
  off.collapse = false;
  const ExhaustiveResult rFull = engine::runExhaustive(q);
  const ExhaustiveResult rOff = engine::runExhaustive(q, off);
  CodeSet restricted;
  for (int xa = 0; xa <= kMaxCode; ++xa)
    for (int xb = 0; xb <= kMaxCode; ++xb)
      if (sample(xa, xb)) restricted.set(xa, xb, rFull.agree.get(xa, xb));
  INFO("full vs off:" << setDiff(restricted, rOff.agree));
  CHECK(restricted == rOff.agree);
  checkWitnesses(q, rFull);
  checkWitnesses(q, rOff, sample);
  if (c.bruteMod > 0) {
    long mismatches = 0;
    for (int xa = 0; xa <= kMaxCode; ++xa)
      for (int xb = 0; xb <= kMaxCode; ++xb)
        if (sample(xa, xb) && (xa + xb) % c.bruteMod == 0) {
          const bool brute = bruteAgrees(q, unsigned(xa), unsigned(xb));
          if (rFull.agree.get(xa, xb) != brute && mismatches++ < 5)
            FAIL_CHECK("brute force at xa " << xa << " xb " << xb << ": "
                                            << (brute ? "agree" : "differ") << ", engine "
                                            << (rFull.agree.get(xa, xb) ? "agree" : "differ"));
        }
    CHECK(mismatches == 0);
  }
}

constexpr Rounding kRNE = Rounding::RNE, kRTZ = Rounding::RTZ;
constexpr Subnormals kKeep = Subnormals::Keep, kFTZ = Subnormals::FTZ;

}  // namespace

TEST_CASE("engine: e3m2 k=1 dequant/post and post2/post, sampled pairs", "[engine][collapse]") {
  crossCheck({"e3m2", "e3m2", "f32", kRNE, kKeep, "seq", 1, Placement::Dequant, Placement::Post,
              Relation::Bitwise, 41, 3});
  crossCheck({"e3m2", "e3m2", "f32", kRNE, kKeep, "seq", 1, Placement::Post2, Placement::Post,
              Relation::Bitwise, 41, 3});
}

TEST_CASE("engine: e5m2 k=1 dequant/post (inf and NaN elements), sampled pairs", "[engine][collapse]") {
  crossCheck({"e5m2", "e5m2", "f32", kRNE, kKeep, "seq", 1, Placement::Dequant, Placement::Post,
              Relation::Bitwise, 601, 4});
}

TEST_CASE("engine: mixed formats, bf16 rtz, k=2 dequant/pre value, sampled pairs", "[engine][collapse]") {
  crossCheck({"e2m1", "e3m2", "bf16", kRTZ, kKeep, "seq", 2, Placement::Dequant, Placement::Pre,
              Relation::Value, 97, 0});
}

TEST_CASE("engine: fused k=3 pre/dequant, sampled pairs", "[engine][collapse]") {
  crossCheck({"e2m1", "e2m1", "f32", kRNE, kKeep, "fused", 3, Placement::Pre, Placement::Dequant,
              Relation::Bitwise, 97, 0});
}

TEST_CASE("engine: FTZ post2/post (f32) and post2/pre (f16), k=1, sampled pairs", "[engine][collapse][ftz]") {
  // With FTZ, rnd(T 2^sa) on the subnormal grid is flushed, so it is not exact: the engine
  // may not group such code pairs with exact ones.
  crossCheck({"e2m1", "e2m1", "f32", kRNE, kFTZ, "seq", 1, Placement::Post2, Placement::Post,
              Relation::Bitwise, 23, 2});
  crossCheck({"e2m1", "e2m1", "f16", kRNE, kFTZ, "seq", 1, Placement::Post2, Placement::Pre,
              Relation::Bitwise, 23, 2});
}

TEST_CASE("engine: FTZ dequant/post2 k=2 and pre/post k=2, sampled pairs", "[engine][collapse][ftz]") {
  crossCheck({"e2m1", "e2m1", "f32", kRTZ, kFTZ, "seq", 2, Placement::Dequant, Placement::Post2,
              Relation::Value, 97, 0});
  crossCheck({"e2m1", "e2m1", "f16", kRNE, kFTZ, "seq", 2, Placement::Pre, Placement::Post,
              Relation::Bitwise, 97, 0});
}

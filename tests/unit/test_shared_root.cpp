// tests/unit/test_shared_root.cpp — the shared-root rule (models/placement.h, someLeafDiffers)
// on the reference evaluator. The QF_LIA encoder conjoins "some leaf differs" to the goal of
// every pre/dequant query; that is sound only if
//   (1) the tree and the root step read their operands' values alone (class, sign, magnitude;
//       not the representation N * 2^X, not a NaN's sign, not what an infinity carries), and
//   (2) pre and dequant (MX and NVFP4) have the same root step,
// so that bitwise-related leaves give bitwise-related results. Both are checked here on
// concrete inputs in every accumulator mode.
#include "helpers.h"

#include "models/nvfp4.h"
#include "src/engine/pair_query.h"

#include <catch2/catch.hpp>

#include <random>

using namespace mxcert;
using namespace mxtest;

namespace {

const AccSpec kModes[] = {
    accSpec("f32"),
    accSpec("f32", Rounding::RTZ),
    accSpec("f32", Rounding::RNE, Subnormals::FTZ),
    accSpec("f32", Rounding::RNE, Subnormals::DAZ),
    accSpec("bf16"),
    accSpec("bf16", Rounding::RNE, Subnormals::FTZ),
    accSpec("bf16", Rounding::RTZ, Subnormals::FTZ),
    accSpec("f16"),
    accSpec("f16", Rounding::RTZ),
    accSpec("f16", Rounding::RNE, Subnormals::FTZ),
};

/// v written differently: a finite N * 2^X as (N * 2^t) * 2^(X - t); a NaN with the other
/// sign and another N, X; an infinity with another N, X. The value is the same.
CVal rewritten(const CVal &v, unsigned t) {
  CVal w = v;
  if (v.nan) {
    w.neg = !v.neg;
    w.N = v.N + Integer(int64_t(t) + 3);
    w.X = v.X - Integer(int64_t(t));
  } else if (v.inf) {
    w.N = v.N + Integer(int64_t(t) + 1);
    w.X = v.X + Integer(int64_t(t));
  } else {
    w.N = v.N * Integer::pow2(t);
    w.X = v.X - Integer(int64_t(t));
  }
  w.prec = kPrecUnknown;
  w.rounded = 0;
  return w;
}

}  // namespace

TEST_CASE("shared-root rule: trees read their leaves' values only", "[shared-root]") {
  ConcreteDomain d;
  std::mt19937 rng(20261203);
  const ElementFormat e2m1 = elem("e2m1"), e5m2 = elem("e5m2");
  long checked = 0;
  for (const AccSpec &acc : kModes)
    for (const char *tree : {"seq", "pairwise", "fused"})
      for (int n = 0; n < 400; ++n) {
        const ModelConfig cfg = config("e2m1", "e5m2", acc, tree, 4);
        std::vector<CVal> L, W;
        std::uniform_int_distribution<int> ca(0, 15), cb(0, 255), ce(-140, 20), ct(0, 9);
        const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(127 + ce(rng) / 2)), Integer(int64_t(127 + ce(rng) / 2)));
        for (int i = 0; i < 4; ++i) {
          // Leaves as the placements make them (rounded products, pre's scaled ones), and
          // the odd unrounded or special value.
          const CVal a = decodeElement(d, e2m1, Integer(int64_t(ca(rng))));
          const CVal b = decodeElement(d, e5m2, Integer(int64_t(cb(rng))));
          const Placement p = (n + i) % 3 == 0 ? Placement::Pre : (n + i) % 3 == 1 ? Placement::Dequant : Placement::Post;
          L.push_back(placementLeaf(d, p, cfg, a, b, s));
          W.push_back(rewritten(L.back(), unsigned(ct(rng))));
        }
        INFO(acc.fmt.name << " " << toString(acc.rounding) << " " << toString(acc.subnormals) << " " << tree);
        const CVal r1 = evalTree(d, cfg.tree, L, acc), r2 = evalTree(d, cfg.tree, W, acc);
        REQUIRE(related(d, r1, r2, Relation::Bitwise));
        for (Placement p : {Placement::Pre, Placement::Dequant})
          REQUIRE(related(d, placementRoot(d, p, cfg, r1, s), placementRoot(d, p, cfg, r2, s), Relation::Bitwise));
        ++checked;
      }
  CHECK(checked == 10 * 3 * 400);
}

TEST_CASE("shared-root rule: pre and dequant differ only where a leaf differs (MX, every mode)", "[shared-root]") {
  ConcreteDomain d;
  std::mt19937 rng(7);
  REQUIRE(sameRootStep(Placement::Pre, Placement::Dequant));
  REQUIRE(sameRootStep(Placement::Dequant, Placement::Pre));
  REQUIRE_FALSE(sameRootStep(Placement::Pre, Placement::Post));
  REQUIRE_FALSE(sameRootStep(Placement::Dequant, Placement::Post2));
  // Code pairs where dequant's elements flush, overflow or are exact, and NaN codes.
  const std::pair<int, int> pairs[] = {{0, 0},     {1, 125},  {0, 127}, {127, 127}, {126, 2},  {200, 60},
                                       {254, 254}, {255, 3},  {30, 97}, {140, 140}, {113, 14}, {250, 1}};
  long equalLeaves = 0, differ = 0;
  for (const AccSpec &acc : kModes)
    for (const char *fa : {"e2m1", "e4m3", "e5m2"})
      for (const char *tree : {"seq", "pairwise"}) {
        const ModelConfig cfg = config(fa, "e2m1", acc, tree, 3);
        if (!dazUnsupported(cfg).empty()) continue;
        const ElementFormat A = cfg.a, B = cfg.b;
        std::uniform_int_distribution<int> ca(0, int(A.numCodes()) - 1), cb(0, int(B.numCodes()) - 1);
        for (auto [xa, xb] : pairs)
          for (int n = 0; n < 150; ++n) {
            const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
            std::vector<CVal> L1, L2;
            for (int i = 0; i < 3; ++i) {
              const CVal a = decodeElement(d, A, Integer(int64_t(ca(rng))));
              const CVal b = decodeElement(d, B, Integer(int64_t(cb(rng))));
              L1.push_back(placementLeaf(d, Placement::Pre, cfg, a, b, s));
              L2.push_back(placementLeaf(d, Placement::Dequant, cfg, a, b, s));
            }
            const CVal R1 = placementRoot(d, Placement::Pre, cfg, evalTree(d, cfg.tree, L1, acc), s);
            const CVal R2 = placementRoot(d, Placement::Dequant, cfg, evalTree(d, cfg.tree, L2, acc), s);
            const bool some = someLeafDiffers(d, L1, L2);
            INFO(fa << " " << acc.fmt.name << " " << toString(acc.rounding) << " " << toString(acc.subnormals)
                    << " xa=" << xa << " xb=" << xb);
            // The rule: results not bitwise related (so also: not value related) => a leaf differs.
            if (!related(d, R1, R2, Relation::Bitwise)) REQUIRE(some);
            if (some) ++differ;
            else ++equalLeaves;
          }
      }
  // Both sides of the rule occur.
  CHECK(equalLeaves > 10000);
  CHECK(differ > 1000);
}

TEST_CASE("shared-root rule: NVFP4 pre and dequant differ only where a leaf differs", "[shared-root][nvfp4]") {
  ConcreteDomain d;
  std::mt19937 rng(11);
  long equalLeaves = 0, differ = 0;
  for (const AccSpec &acc : kModes) {
    if (acc.subnormals == Subnormals::DAZ) continue;  // not defined for NVFP4
    ModelConfig cfg = config("e2m1", "e2m1", acc, "seq", 4);
    cfg.scale = ScaleFormat::E4M3;
    std::uniform_int_distribution<int> c(0, 15), x(0, 127);
    for (int n = 0; n < 3000; ++n) {
      const Nvfp4Scales<ConcreteDomain> s = makeNvfp4Scales(d, Integer(int64_t(x(rng))), Integer(int64_t(x(rng))));
      std::vector<CVal> L1, L2;
      for (int i = 0; i < 4; ++i) {
        const CVal a = decodeElement(d, cfg.a, Integer(int64_t(c(rng))));
        const CVal b = decodeElement(d, cfg.b, Integer(int64_t(c(rng))));
        L1.push_back(nvfp4Leaf(d, Placement::Pre, cfg, a, b, s));
        L2.push_back(nvfp4Leaf(d, Placement::Dequant, cfg, a, b, s));
      }
      const CVal R1 = nvfp4Root(d, Placement::Pre, cfg, evalTree(d, cfg.tree, L1, acc), s);
      const CVal R2 = nvfp4Root(d, Placement::Dequant, cfg, evalTree(d, cfg.tree, L2, acc), s);
      const bool some = someLeafDiffers(d, L1, L2);
      if (!related(d, R1, R2, Relation::Bitwise)) REQUIRE(some);
      if (some) ++differ;
      else ++equalLeaves;
    }
  }
  // NVFP4's dequantized elements and their products are exact in every accumulator here (at
  // most 3 + 2 significant bits, within range), so pre's and dequant's leaves never differ:
  // the rule makes every NVFP4 pre/dequant query false at once (docs/solver.md).
  CHECK(equalLeaves == 9 * 3000);
  CHECK(differ == 0);
}

TEST_CASE("LeafFilter: an input it passes over never makes pre and dequant differ", "[shared-root][engine]") {
  // The table engine skips the full evaluation of a structured input at a code pair where
  // LeafFilter::mayDisagree is false (src/engine/pair_query.h): sound for finding witnesses
  // only if the placements then agree. Random inputs with few distinct leaves (the shape of
  // the structured inputs) at scale pairs across flushing, exact and saturating scalings.
  std::mt19937 rng(11);
  long skipped = 0, passed = 0;
  const std::pair<int, int> pairs[] = {{0, 0},    {1, 125},   {0, 127},  {127, 127}, {126, 2},
                                       {200, 60}, {254, 254}, {30, 97},  {140, 140}, {250, 1}};
  for (const AccSpec &acc : kModes)
    for (const char *fa : {"e2m1", "e3m2", "e4m3"}) {
      engine::PairQuery q;
      q.cfg = config(fa, "e2m1", acc, "seq", 4);
      if (!dazUnsupported(q.cfg).empty()) continue;
      q.lhs = Placement::Pre;
      q.rhs = Placement::Dequant;
      std::uniform_int_distribution<unsigned> ca(0, q.cfg.a.numCodes() - 1), cb(0, q.cfg.b.numCodes() - 1);
      std::uniform_int_distribution<int> slot(0, 3);
      for (int n = 0; n < 60; ++n) {
        // Two distinct leaf pairs, the rest +0 (or a copy of the first).
        std::vector<unsigned> a(4, 0), b(4, 0);
        a[size_t(slot(rng))] = ca(rng);
        b[0] = cb(rng);
        const size_t j = size_t(slot(rng));
        a[j] = ca(rng);
        b[j] = cb(rng);
        const engine::LeafFilter f(q, a, b);
        for (auto [xa, xb] : pairs) {
          if (f.mayDisagree(xa, xb)) {
            ++passed;
            continue;
          }
          ++skipped;
          INFO(fa << " " << acc.fmt.name << " xa=" << xa << " xb=" << xb);
          REQUIRE_FALSE(engine::witnessDisagrees(q, a, b, xa, xb));
        }
      }
    }
  CHECK(skipped > 1000);
  CHECK(passed > 100);
  // Other placement pairs: never filtered.
  engine::PairQuery q;
  q.cfg = config("e2m1", "e2m1", accSpec("bf16", Rounding::RNE, Subnormals::FTZ), "seq", 2);
  q.lhs = Placement::Dequant;
  q.rhs = Placement::Post;
  REQUIRE(engine::LeafFilter(q, {0, 0}, {0, 0}).mayDisagree(0, 0));
}

TEST_CASE("LeafDiffs: the remembered leaf comparisons are the evaluated ones, within and past its capacity",
          "[shared-root][engine]") {
  // The table engine's structured inputs share one LeafDiffs (src/engine/pair_query.h): a
  // remembered comparison, a second lookup of it, and one past kMaxLeaves (evaluated each
  // time) must all equal leafDiffers, and a filter with the memo must say what one without
  // it says.
  engine::PairQuery q;
  q.cfg = config("e4m3", "e2m1", accSpec("f16", Rounding::RTZ, Subnormals::FTZ), "seq", 4);
  q.lhs = Placement::Pre;
  q.rhs = Placement::Dequant;
  engine::LeafDiffs memo(q);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> code(0, 254);
  long differ = 0, same = 0;
  // More leaves than the memo keeps: 300 of the 256 x 16, each at a few pairs, twice.
  for (int round = 0; round < 2; ++round) {
    std::mt19937 leaves(7);
    for (unsigned n = 0; n < 300; ++n) {
      const unsigned a = leaves() % 256, b = leaves() % 16;
      for (int i = 0; i < 4; ++i) {
        const int xa = code(rng), xb = code(rng);
        const bool want = engine::leafDiffers(q, a, b, xa, xb);
        REQUIRE(memo.differs(a, b, xa, xb) == want);
        REQUIRE(memo.differs(a, b, xa, xb) == want);
        (want ? differ : same) += 1;
      }
    }
  }
  CHECK(memo.leaves() == engine::LeafDiffs::kMaxLeaves);  // full: the rest were evaluated each time
  CHECK(differ > 100);
  CHECK(same > 100);
  // A filter over a few leaves, with and without the memo, on every code pair of a few rows.
  const std::vector<unsigned> a{0x38, 0x7e, 0x01, 0}, b{0x2, 0x7, 0x1, 0};
  const engine::LeafFilter with(q, a, b, &memo), without(q, a, b);
  for (int xa : {0, 1, 100, 127, 140, 254})
    for (int xb = 0; xb < 255; ++xb) REQUIRE(with.mayDisagree(xa, xb) == without.mayDisagree(xa, xb));
}

// tests/unit/test_eval.cpp — DecodedBlock (models/eval.h), which keeps the pieces of
// evalPlacement that repeat across scale pairs (post's tree, pre's tree per xa + xb, dequant's
// dequantized elements per code), gives evalPlacement's own result, field for field, at every
// code xa against a spread of codes xb, visited in a shuffled order (so that what is kept is
// reused in any order), for all four placements, in every rounding and subnormal mode.
#include "helpers.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace mxcert;
using namespace mxtest;

namespace {

/// Field-for-field equality (not just the same value): what eval prints is made from these.
bool identical(const CVal &x, const CVal &y) {
  return x.nan == y.nan && x.inf == y.inf && x.neg == y.neg && x.N == y.N && x.X == y.X;
}

struct Case {
  const char *a, *b, *acc;
  Rounding rnd;
  Subnormals sub;
  const char *tree;
  int k;
};

}  // namespace

TEST_CASE("DecodedBlock equals evalPlacement at every code pair it is asked", "[eval]") {
  const Case cases[] = {
      {"e2m1", "e2m1", "f32", Rounding::RNE, Subnormals::Keep, "seq", 32},
      {"e4m3", "e2m1", "bf16", Rounding::RTZ, Subnormals::FTZ, "pairwise", 8},
      {"e5m2", "e5m2", "f16", Rounding::RNE, Subnormals::DAZ, "((0 1 2) (3 4))", 5},
      {"e3m2", "e2m3", "f16", Rounding::RTZ, Subnormals::Keep, "seq", 3},
      {"e2m1", "e4m3", "f32", Rounding::RNE, Subnormals::Keep, "seq", 1},
  };
  const Placement placements[] = {Placement::Pre, Placement::Post, Placement::Dequant, Placement::Post2};
  std::mt19937 rng(20261204);
  for (const Case &c : cases) {
    const ModelConfig cfg = config(c.a, c.b, accSpec(c.acc, c.rnd, c.sub), c.tree, c.k);
    INFO(c.a << " x " << c.b << " " << c.acc << " " << toString(c.rnd) << " " << toString(c.sub) << " " << c.tree
              << " k = " << c.k);
    // Random element codes, the largest and a few specials (NaN, inf, -0 where the format has them).
    std::vector<unsigned> a(size_t(c.k)), b(size_t(c.k));
    for (auto &x : a) x = unsigned(rng() % cfg.a.numCodes());
    for (auto &x : b) x = unsigned(rng() % cfg.b.numCodes());
    if (c.k >= 3) {
      a[0] = cfg.a.numCodes() / 2 - 1;  // the last positive code: the largest value, NaN for e4m3 and e5m2
      b[1] = cfg.b.numCodes() / 2;      // -0
    }
    // Every xa against boundary and random xb: the subnormal and overflow edges, 0, 127, 254, 255.
    std::vector<unsigned> xbs = {0, 1, 2, 100, 126, 127, 128, 150, 200, 253, 254, 255};
    for (int i = 0; i < 12; ++i) xbs.push_back(unsigned(rng() % 256));
    std::vector<std::pair<unsigned, unsigned>> pairs;
    for (unsigned xa = 0; xa < 256; ++xa)
      for (unsigned xb : xbs) pairs.emplace_back(xa, xb);
    std::shuffle(pairs.begin(), pairs.end(), rng);

    DecodedBlock block(cfg, a, b);
    ConcreteDomain d;
    BlockInput<ConcreteDomain> in{decodeElements(cfg.a, a), decodeElements(cfg.b, b), Integer(0), Integer(0)};
    size_t compared = 0;
    for (auto [xa, xb] : pairs) {
      in.xa = Integer(int64_t(xa));
      in.xb = Integer(int64_t(xb));
      for (Placement p : placements) {
        const CVal want = evalPlacement(d, p, cfg, in);
        const CVal got = block.evaluate(p, xa, xb);
        if (!identical(got, want)) {
          INFO("xa = " << xa << " xb = " << xb << " " << toString(p) << ": " << toDecimal(got, cfg.acc.fmt)
                       << " (N " << got.N.str() << " X " << got.X.str() << ") vs evalPlacement "
                       << toDecimal(want, cfg.acc.fmt) << " (N " << want.N.str() << " X " << want.X.str() << ")");
          REQUIRE(identical(got, want));
        }
        ++compared;
      }
    }
    CHECK(compared == pairs.size() * 4);
  }
}

TEST_CASE("DecodedBlock refuses what evalPlacement refuses", "[eval]") {
  const ModelConfig cfg = config("e2m1", "e2m1", accSpec("f32"), "seq", 2);
  DecodedBlock block(cfg, {1, 2}, {3, 4});
  REQUIRE_THROWS_AS(block.evaluate(Placement::Dequant, 256, 0), std::invalid_argument);
  REQUIRE_THROWS_AS(DecodedBlock(cfg, {1}, {3, 4}), std::invalid_argument);
  REQUIRE_THROWS_AS(DecodedBlock(cfg, {1, 16}, {3, 4}), std::invalid_argument);
}

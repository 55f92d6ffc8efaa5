// tests/unit/test_nvfp4.cpp — the NVFP4 semantics (models/nvfp4.h): hand-computed blocks with
// exact bits (scales that are no powers of two, the zero and NaN scale codes, bf16 and f16
// rounding), the e4m3 scale decoding, and a cross-check of the reference evaluator against an
// independent native binary32 executor (tests/native/native_nvfp4.h) on random blocks (fixed
// seed) for every placement and f32, f16, f64 (each model rounding is one native operation in
// the same order); and the exhaustive engine against input-by-input evaluation.
#include "helpers.h"
#include "native/native_nvfp4.h"

#include "models/nvfp4.h"
#include "src/engine/exhaustive.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <cstring>
#include <random>

using namespace mxcert;
using namespace mxtest;

namespace {

/// An NVFP4 configuration: e2m1 x e2m1, e4m3 scales, accumulator `acc`, tree over k leaves.
ModelConfig nvfp4(const AccSpec &acc, const std::string &tree, int k) {
  ModelConfig c = config("e2m1", "e2m1", acc, tree, k);
  c.scale = ScaleFormat::E4M3;
  return c;
}

/// The accumulator bits of pre, post, dequant, post2 on one NVFP4 block.
std::vector<uint64_t> placementBits(const ModelConfig &cfg, const std::vector<unsigned> &a,
                                    const std::vector<unsigned> &b, unsigned xa, unsigned xb) {
  std::vector<uint64_t> out;
  for (const CVal &v : evaluatePlacements(cfg, allPlacements(), ConcreteInput{a, b, xa, xb}))
    out.push_back(encodeBits(v, cfg.acc.fmt));
  return out;
}

}  // namespace

TEST_CASE("nvfp4: e4m3 scale codes decode to their values", "[nvfp4]") {
  ConcreteDomain d;
  const ElementFormat e4m3 = elem("e4m3");
  auto value = [&](unsigned code) { return toDouble(decodeElement(d, e4m3, Integer(int64_t(code)))); };
  CHECK(value(0) == 0.0);
  CHECK(value(1) == 0x1p-9);     // smallest subnormal
  CHECK(value(8) == 0x1p-6);     // smallest normal
  CHECK(value(56) == 1.0);
  CHECK(value(57) == 1.125);
  CHECK(value(126) == 448.0);    // largest finite
  CHECK(decodeElement(d, e4m3, Integer(127)).nan);
  const Nvfp4Scales<ConcreteDomain> s = makeNvfp4Scales(d, Integer(57), Integer(126));
  CHECK(toDouble(s.s) == 504.0);  // 1.125 * 448, exact
}

TEST_CASE("nvfp4: scale coordinates m * 2^j of every e4m3 code", "[nvfp4]") {
  ConcreteDomain d;
  const ElementFormat e4m3 = elem("e4m3");
  std::map<int, std::pair<int, int>> binades;  // odd part -> [lowest j, highest j]
  for (int x = 1; x <= 126; ++x) {
    const ScaleCoord c = e4m3Coord(x);
    INFO("code " << x);
    REQUIRE(c.m % 2 == 1);
    REQUIRE(c.m <= 15);
    CHECK(toDouble(decodeElement(d, e4m3, Integer(int64_t(x)))) == std::ldexp(double(c.m), c.j));
    CHECK(e4m3CodeAt(c.m, c.j) == x);
    auto it = binades.emplace(c.m, std::make_pair(c.j, c.j)).first;
    it->second.first = std::min(it->second.first, c.j);
    it->second.second = std::max(it->second.second, c.j);
    // The same scale in scale coordinates as decoded from the code.
    const Nvfp4Scales<ConcreteDomain> a = makeNvfp4Scales(d, Integer(int64_t(x)), Integer(57));
    const Nvfp4Scales<ConcreteDomain> b = makeNvfp4ScalesAt(d, c.m, Integer(int64_t(c.j)), 9, Integer(-3));
    CHECK(toDouble(a.s) == toDouble(b.s));
  }
  CHECK(e4m3Coord(0).m == kNvfp4ZeroClass);
  CHECK(e4m3Coord(127).m == kNvfp4NaNClass);
  CHECK(e4m3CodeAt(0, 0) == 0);
  CHECK(e4m3CodeAt(-1, 0) == 127);
  CHECK(e4m3CodeAt(15, 5) == -1);  // 480 > 448
  CHECK(e4m3CodeAt(2, 0) == -1);
  // Each odd part's binades are consecutive (docs/semantics.md, "NVFP4: scale coordinates").
  const std::map<int, std::pair<int, int>> want = {{1, {-9, 8}}, {3, {-9, 7}}, {5, {-9, 6}}, {7, {-9, 6}},
                                                   {9, {-9, 5}}, {11, {-9, 5}}, {13, {-9, 5}}, {15, {-9, 4}}};
  CHECK(binades == want);
  long codes = 0;
  for (const auto &[m, r] : want) {
    CHECK(e4m3JRange(m).lo == r.first);
    CHECK(e4m3JRange(m).hi == r.second);
    codes += r.second - r.first + 1;
  }
  CHECK(codes == 126);
  CHECK_THROWS_AS(e4m3Coord(128), std::out_of_range);
}

TEST_CASE("nvfp4: regions in scale coordinates", "[nvfp4]") {
  const Nvfp4Region r = Nvfp4Region::parse("ma:3,mb:5,ja:-9..7,jb:-9..6,j:0");
  CHECK(r.str() == "ma:3,mb:5,ja:-9..7,jb:-9..6,j:0..0");
  CHECK(Nvfp4Region::parse(r.str()) == r);
  long n = 0;
  for (int a = 0; a < 128; ++a)
    for (int b = 0; b < 128; ++b) n += r.contains(a, b);
  CHECK(r.count() == n);
  CHECK(n == 14);  // ja in -9..7 with jb = -ja in -9..6: ja in -6..7
  const Nvfp4Region t = r.tightened();
  CHECK(t.ja.lo == -6);
  CHECK(t.ja.hi == 7);
  CHECK(t.count() == 14);
  // A whole class: every pair of its codes.
  const Nvfp4Region all = Nvfp4Region{15, 1, {-64, 64}, {-64, 64}, {-64, 64}};
  CHECK(all.count() == 14 * 18);
  CHECK(Nvfp4Region{0, -1, {0, 0}, {0, 0}, {0, 0}}.contains(0, 127));
  for (const char *bad : {"ma:2,mb:1,ja:0,jb:0,j:0", "ma:1,mb:1,ja:0,jb:0", "ma:1,mb:1,ja:0,jb:0,j:0,j:1",
                          "ma:1,mb:1,ja:x,jb:0,j:0", "xa:1,mb:1,ja:0,jb:0,j:0", "ma:1,mb:1,ja:0,jb:0,j:0..99"}) {
    INFO(bad);
    CHECK_THROWS_AS(Nvfp4Region::parse(bad), GuardError);
  }
}

TEST_CASE("nvfp4: hand-computed blocks, exact bits", "[nvfp4]") {
  // 1.5 * 6 + (-3) * 0.5 = 7.5, scaled by 1 * 1.125: 8.4375 in every placement (f32).
  // e2m1 codes: 0.5 = 0x1, 1 = 0x2, 1.5 = 0x3, 2 = 0x4, 3 = 0x5, 6 = 0x7, sign 0x8.
  CHECK(placementBits(nvfp4(accSpec("f32"), "seq", 2), {0x3, 0xD}, {0x7, 0x1}, 56, 57) ==
        std::vector<uint64_t>{0x41070000, 0x41070000, 0x41070000, 0x41070000});
  // bf16, sa = sb = 1.125 (S = 81/64), a = b = (6, 0.5): pre rounds 45.5625 to 45.5 before
  // adding 0.31640625 (45.81640625 -> 45.75); post rounds 36.25 * 81/64 = 45.87890625 once
  // (-> 46); dequant's leaves are pre's; post2: 36.25 * 1.125 = 40.78125 -> 40.75, then
  // 40.75 * 1.125 = 45.84375 -> 45.75.
  CHECK(placementBits(nvfp4(accSpec("bf16"), "seq", 2), {0x7, 0x1}, {0x7, 0x1}, 57, 57) ==
        std::vector<uint64_t>{0x4237, 0x4238, 0x4237, 0x4237});
  // Zero scale: a = (1, -2), b = (1, 1), sa = +0. pre's and dequant's leaves are +0 and -0
  // (sum +0); post and post2 scale D = -1 by +0 (-0).
  CHECK(placementBits(nvfp4(accSpec("f32"), "seq", 2), {0x2, 0xC}, {0x2, 0x2}, 0, 56) ==
        std::vector<uint64_t>{0x00000000, 0x80000000, 0x00000000, 0x80000000});
  // NaN scale (code 127 = 0x7f) on either side: NaN in every placement.
  CHECK(placementBits(nvfp4(accSpec("f32"), "seq", 1), {0x2}, {0x2}, 127, 56) ==
        std::vector<uint64_t>(4, 0x7FC00000));
  CHECK(placementBits(nvfp4(accSpec("f32"), "seq", 1), {0x0}, {0x0}, 0, 127) ==
        std::vector<uint64_t>(4, 0x7FC00000));
  // f16: 448 * 448 * (-6) * 6 = -7225344 overflows in every placement; 2^-9 * 2^-9 * 0.25 =
  // 2^-20 is the f16 subnormal 16 * 2^-24.
  CHECK(placementBits(nvfp4(accSpec("f16"), "seq", 1), {0xF}, {0x7}, 126, 126) ==
        std::vector<uint64_t>(4, 0xFC00));
  CHECK(placementBits(nvfp4(accSpec("f16"), "seq", 1), {0x1}, {0x1}, 1, 1) == std::vector<uint64_t>(4, 0x0010));
}

TEST_CASE("nvfp4: evaluator rejects scale codes above 127", "[nvfp4]") {
  CHECK_THROWS_AS(evaluatePlacements(nvfp4(accSpec("f32"), "seq", 1), allPlacements(), ConcreteInput{{0}, {0}, 128, 0}),
                  std::invalid_argument);
}

namespace {

/// The bit pattern of a native accumulator value of type T.
uint64_t nativeBits(float v) { return floatBits(v); }
uint64_t nativeBits(double v) { return doubleBits(v); }
uint64_t nativeBits(_Float16 v) {
  uint16_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

/// Compares the reference evaluator with the native executor over T on `samples` random
/// NVFP4 blocks (k 1..64, seq or pairwise, scale codes uniform or at the edges); returns
/// the number of mismatches (each of the first ten reported).
template <class T> long nativeRun(const std::string &acc, uint64_t seed, int samples, long &comparisons, long &rounded) {
  std::mt19937_64 rng(seed);
  static const unsigned kEdgeScales[] = {0, 1, 7, 8, 56, 57, 119, 125, 126, 127};
  const native::Place nat[] = {native::Place::Pre, native::Place::Post, native::Place::Dequant, native::Place::Post2};
  long mismatches = 0;
  for (int sample = 0; sample < samples; ++sample) {
    const int k = 1 + int(rng() % 64);
    const char *tree = rng() % 2 ? "seq" : "pairwise";
    const ModelConfig cfg = nvfp4(accSpec(acc), tree, k);
    std::vector<unsigned> a(static_cast<size_t>(k)), b(static_cast<size_t>(k));
    for (int i = 0; i < k; ++i) {
      a[size_t(i)] = unsigned(rng() % 16);
      b[size_t(i)] = unsigned(rng() % 16);
    }
    auto scale = [&] { return rng() % 4 == 0 ? kEdgeScales[rng() % 10] : unsigned(rng() % 128); };
    const unsigned xa = scale(), xb = scale();
    const std::vector<CVal> model = evaluatePlacements(cfg, allPlacements(), ConcreteInput{a, b, xa, xb});
    // Blocks whose placements differ: evidence that the samples exercise rounding.
    rounded += !isRelated(model[0], model[1], Relation::Bitwise);
    for (size_t p = 0; p < 4; ++p) {
      const T f = native::evalNvfp4Placement<T>(nat[p], a, b, xa, xb, cfg.tree);
      const bool isNan = f != f;
      const bool same = isNan ? model[p].nan : (!model[p].nan && encodeBits(model[p], cfg.acc.fmt) == nativeBits(f));
      ++comparisons;
      if (!same && mismatches++ < 10)
        FAIL_CHECK("model/native mismatch: " << acc << " " << toString(allPlacements()[p]) << " k " << k << " tree "
                                             << tree << " xa " << xa << " xb " << xb << " model "
                                             << toDecimal(model[p], cfg.acc.fmt) << " native " << double(f));
    }
  }
  return mismatches;
}

}  // namespace

TEST_CASE("nvfp4: reference evaluator = native executor, f32, f16 and f64 (random blocks)", "[nvfp4][native]") {
  long comparisons = 0, differing = 0;
  CHECK(nativeRun<float>("f32", 0x4e5646503421ull, 10000, comparisons, differing) == 0);
  CHECK(nativeRun<_Float16>("f16", 0x4e56465031366ull, 10000, comparisons, differing) == 0);
  CHECK(nativeRun<double>("f64", 0x4e5646503634ull, 5000, comparisons, differing) == 0);
  CHECK(comparisons == 100000);
  // f16 rounds and overflows: pre and post differ on a good share of the blocks.
  CHECK(differing > 1000);
}

TEST_CASE("nvfp4: exhaustive engine = input-by-input evaluation (bf16, k = 2, sampled pairs)", "[nvfp4][engine]") {
  engine::PairQuery q{nvfp4(accSpec("bf16"), "seq", 2), Placement::Dequant, Placement::Post, Relation::Bitwise};
  // Code pairs around the zero, subnormal, normal and NaN codes and a few in between.
  const std::vector<int> codes = {0, 1, 8, 57, 99, 126, 127};
  engine::ExhaustiveOptions opt;
  opt.onlyPairs = [&](int xa, int xb) {
    return std::count(codes.begin(), codes.end(), xa) && std::count(codes.begin(), codes.end(), xb);
  };
  const engine::ExhaustiveResult r = engine::runExhaustive(q, opt);
  long agree = 0;
  for (int xa : codes)
    for (int xb : codes) {
      bool all = true;
      for (unsigned i = 0; i < 65536 && all; ++i) {
        const ConcreteInput in{{i & 15u, (i >> 8) & 15u}, {(i >> 4) & 15u, (i >> 12) & 15u}, unsigned(xa), unsigned(xb)};
        const std::vector<CVal> v = evaluatePlacements(q.cfg, {q.lhs, q.rhs}, in);
        all = isRelated(v[0], v[1], q.rel);
      }
      CHECK(r.agree.get(xa, xb) == all);
      agree += all;
    }
  CHECK(r.agree.count() == agree);
  // The NaN code agrees with everything; a zero scale with a finite one does not (sign of 0).
  CHECK(r.agree.get(127, 0));
  CHECK(!r.agree.get(0, 57));
}

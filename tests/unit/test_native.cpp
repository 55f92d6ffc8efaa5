// tests/unit/test_native.cpp — the exact model against an independent native executor
// (tests/native/native_float.h: binary32 arithmetic, RNE, subnormals on, one rounding per
// operation, ldexp for every scaling) for the f32 accumulator over binary trees, bit for bit
// (all NaNs count equal):
//  (a) large random samples: random element formats (all five, a and b independently),
//      random binary trees (seq, pairwise, random shapes incl. butterflies), k up to 64, all
//      four placements, random scale codes incl. 0, 254, 255 and the subnormal/overflow
//      boundary regions, random element codes incl. NaN, inf, ±0, max, min subnormal;
//  (b) exhaustive samples: e2m1 k = 2 seq, every element input, at a few dozen code pairs
//      spread over the whole range (incl. the subnormal and overflow boundaries).
// Every mismatch is reported with its full input.
#include "helpers.h"
#include "native/native_float.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace mxcert;
using namespace mxtest;

namespace {

/// The native placement of a model placement.
native::Place nativePlace(Placement p) {
  switch (p) {
  case Placement::Pre: return native::Place::Pre;
  case Placement::Post: return native::Place::Post;
  case Placement::Dequant: return native::Place::Dequant;
  case Placement::Post2: return native::Place::Post2;
  }
  throw std::logic_error("placement");
}

const char *const kFormats[] = {"e2m1", "e2m3", "e3m2", "e4m3", "e5m2"};

/// Counts comparisons and reports the first mismatches with their full inputs.
struct Comparer {
  long comparisons = 0;
  long mismatches = 0;

  /// Evaluates every placement of one block in the model and natively and compares bits.
  void check(const ModelConfig &cfg, const std::vector<unsigned> &a, const std::vector<unsigned> &b,
             unsigned xa, unsigned xb) {
    const std::vector<Placement> &ps = allPlacements();
    const std::vector<CVal> model = evaluatePlacements(cfg, ps, ConcreteInput{a, b, xa, xb});
    const native::Format fa = native::format(cfg.a.name), fb = native::format(cfg.b.name);
    for (size_t i = 0; i < ps.size(); ++i) {
      const float nat = native::evalPlacement(nativePlace(ps[i]), fa, fb, a, b, xa, xb, cfg.tree);
      const uint64_t mb = bitsOf(model[i], cfg.acc.fmt);
      const bool same = std::isnan(nat) ? model[i].nan : (!model[i].nan && mb == floatBits(nat));
      ++comparisons;
      if (!same && mismatches++ < 10)
        FAIL_CHECK("model/native mismatch: placement " << toString(ps[i]) << ", a " << cfg.a.name
                                                       << " b " << cfg.b.name << " k " << cfg.k()
                                                       << " tree " << cfg.tree.sexpr() << " xa " << xa
                                                       << " xb " << xb << " a-codes " << codes(a)
                                                       << " b-codes " << codes(b) << ": model "
                                                       << describe(model[i]) << " = " << hex(mb)
                                                       << ", native " << hex(floatBits(nat)));
    }
  }
};

/// A random binary tree over the given leaves (random split points), as an S-expression.
std::string randomTree(std::mt19937_64 &rng, const std::vector<int> &leaves, size_t lo, size_t n) {
  if (n == 1) return std::to_string(leaves[lo]);
  const size_t left = 1 + size_t(rng() % (n - 1));
  return "(" + randomTree(rng, leaves, lo, left) + " " + randomTree(rng, leaves, lo + left, n - left) + ")";
}

/// A random binary tree text for k leaves: seq, pairwise, the butterfly (k = 4), or a random
/// shape over a random permutation of the leaves.
std::string randomTreeText(std::mt19937_64 &rng, int k) {
  const unsigned r = unsigned(rng() % 12);
  if (r < 3) return "seq";
  if (r < 5) return "pairwise";
  if (k == 4 && r == 5) return "((0 2) (1 3))";
  std::vector<int> leaves(static_cast<size_t>(k));
  std::iota(leaves.begin(), leaves.end(), 0);
  if (r < 9) std::shuffle(leaves.begin(), leaves.end(), rng);
  return randomTree(rng, leaves, 0, size_t(k));
}

/// Element codes of one format grouped by kind, from the native decoding.
struct CodeKinds {
  std::vector<unsigned> finite, special, edge;
};

/// The finite codes, the NaN/inf codes and the edge codes (±0, ±max, ±min subnormal, ±1).
CodeKinds codeKinds(const std::string &name) {
  const native::Format f = native::format(name);
  const unsigned n = 1u << (1 + f.ebits + f.mbits);
  CodeKinds k;
  float maxv = 0, minv = INFINITY;
  for (unsigned c = 0; c < n; ++c) {
    const float v = native::decode(f, c);
    if (std::isnan(v) || std::isinf(v)) {
      k.special.push_back(c);
      continue;
    }
    k.finite.push_back(c);
    maxv = std::max(maxv, std::fabs(v));
    if (v != 0) minv = std::min(minv, std::fabs(v));
  }
  for (unsigned c : k.finite) {
    const float a = std::fabs(native::decode(f, c));
    if (a == 0 || a == maxv || a == minv || a == 1.0f) k.edge.push_back(c);
  }
  return k;
}

/// A random scale-code pair: 255 on a side, edge codes, uniform codes, or a uniform split of
/// an exponent e drawn from the boundary regions.
std::pair<unsigned, unsigned> randomScales(std::mt19937_64 &rng) {
  static const unsigned kEdges[] = {0, 1, 2, 126, 127, 128, 252, 253, 254};
  switch (rng() % 10) {
  case 0: {
    const unsigned other = unsigned(rng() % 256);
    return rng() & 1 ? std::pair{255u, other} : std::pair{other, 255u};
  }
  case 1: return {kEdges[rng() % 9], kEdges[rng() % 9]};
  case 2:
  case 3: return {unsigned(rng() % 255), unsigned(rng() % 255)};
  default: {
    int e;
    switch (rng() % 4) {
    case 0: e = -190 + int(rng() % 101); break;  // subnormal boundaries: -190..-90
    case 1: e = 60 + int(rng() % 76); break;     // overflow boundaries: 60..135
    case 2: e = -254 + int(rng() % 20); break;   // far below
    default: e = 235 + int(rng() % 20); break;   // far above
    }
    const int lo = std::max(0, e), hi = std::min(254, e + 254);
    const int xa = lo + int(rng() % unsigned(hi - lo + 1));
    return {unsigned(xa), unsigned(e + 254 - xa)};
  }
  }
}

/// Runs `samples` random blocks with k drawn from [kmin, kmax]; returns the comparer.
Comparer randomRun(uint64_t seed, int samples, int kmin, int kmax) {
  std::mt19937_64 rng(seed);
  std::vector<CodeKinds> kinds;
  for (const char *f : kFormats) kinds.push_back(codeKinds(f));
  Comparer cmp;
  for (int s = 0; s < samples; ++s) {
    const size_t ia = rng() % 5, ib = rng() % 5;
    const int k = kmin + int(rng() % unsigned(kmax - kmin + 1));
    const ModelConfig cfg = config(kFormats[ia], kFormats[ib], accSpec("f32"), randomTreeText(rng, k), k);
    // Specials at a rate that leaves most blocks finite even for large k.
    const unsigned specialPer1000 = unsigned(400 / k) + 2;
    auto pick = [&](const CodeKinds &ck) {
      const unsigned r = unsigned(rng() % 1000);
      if (r < specialPer1000 && !ck.special.empty()) return ck.special[rng() % ck.special.size()];
      if (r < 150) return ck.edge[rng() % ck.edge.size()];
      return ck.finite[rng() % ck.finite.size()];
    };
    std::vector<unsigned> a(static_cast<size_t>(k)), b(static_cast<size_t>(k));
    for (int i = 0; i < k; ++i) {
      a[size_t(i)] = pick(kinds[ia]);
      b[size_t(i)] = pick(kinds[ib]);
    }
    // Cancellation more often: sometimes make the block sum to (nearly) zero.
    if (k >= 2 && rng() % 4 == 0) {
      const unsigned signA = 1u << (cfg.a.bits() - 1);
      for (int i = 0; i + 1 < k; i += 2) {
        a[size_t(i + 1)] = a[size_t(i)] ^ signA;
        b[size_t(i + 1)] = b[size_t(i)];
      }
    }
    const auto [xa, xb] = randomScales(rng);
    cmp.check(cfg, a, b, xa, xb);
  }
  return cmp;
}

}  // namespace

TEST_CASE("native: the executor itself on hand-made blocks", "[native]") {
  const native::Format e2m1 = native::format("e2m1");
  // 6 * 1 + (-0.5) * 2 + 1 * (-0) + 0 * 1.5 = 5, pairwise, times 2^(120 + 3 - 254).
  const Tree t = Tree::pairwise(4);
  const float r = native::evalPlacement(native::Place::Post, e2m1, e2m1, {0x7, 0x9, 0x2, 0x0},
                                        {0x2, 0x4, 0x8, 0x3}, 120, 3, t);
  CHECK(floatBits(r) == 0x00140000u);
  CHECK(std::isnan(native::decode(native::format("e4m3"), 0x7F)));
  CHECK(native::decode(native::format("e4m3"), 0x7E) == 448.0f);
  CHECK(native::decode(native::format("e5m2"), 0xFC) == -INFINITY);
  CHECK(native::decode(native::format("e5m2"), 0x01) == std::ldexp(1.0f, -16));
  CHECK(native::decode(native::format("e3m2"), 0x1F) == 28.0f);
  CHECK(native::decode(native::format("e2m3"), 0x01) == 0.125f);
  // ldexp rounds once, even far below the subnormal range or far above the normal range.
  CHECK(floatBits(native::scale(3.0f, -150)) == 0x2u);
  CHECK(floatBits(native::scale(1.0f, -300)) == 0x0u);
  CHECK(floatBits(native::scale(-1.0f, 300)) == 0xFF800000u);
  CHECK(floatBits(native::scale(0x1.fffffep0f, -127)) == 0x00800000u);
}

TEST_CASE("native: random blocks, small k", "[native][random]") {
  const Comparer c = randomRun(1, 60000, 1, 4);
  CHECK(c.mismatches == 0);
  CHECK(c.comparisons == 4 * 60000);
}

TEST_CASE("native: random blocks, medium k", "[native][random]") {
  const Comparer c = randomRun(2, 20000, 5, 16);
  CHECK(c.mismatches == 0);
  CHECK(c.comparisons == 4 * 20000);
}

TEST_CASE("native: random blocks, large k", "[native][random]") {
  const Comparer c = randomRun(3, 3000, 17, 64);
  CHECK(c.mismatches == 0);
  CHECK(c.comparisons == 4 * 3000);
}

namespace {

/// Every element input of e2m1 k = 2 seq at each of the given code pairs.
void exhaustiveE2m1(const std::vector<std::pair<unsigned, unsigned>> &pairs) {
  const ModelConfig cfg = config("e2m1", "e2m1", accSpec("f32"), "seq", 2);
  Comparer cmp;
  for (auto [xa, xb] : pairs)
    for (unsigned a0 = 0; a0 < 16; ++a0)
      for (unsigned a1 = 0; a1 < 16; ++a1)
        for (unsigned b0 = 0; b0 < 16; ++b0)
          for (unsigned b1 = 0; b1 < 16; ++b1) cmp.check(cfg, {a0, a1}, {b0, b1}, xa, xb);
  CHECK(cmp.mismatches == 0);
  CHECK(cmp.comparisons == long(pairs.size()) * 65536 * 4);
}

}  // namespace

TEST_CASE("native: e2m1 k=2 seq, every input, boundary code pairs", "[native][exhaustive]") {
  // e = -157, -156 (value boundary), -150..-145 (subnormal boundary, -148/-147 the public
  // example's), 121..124 (overflow boundary), with different splits of e into xa and xb.
  exhaustiveE2m1({{0, 97},    {0, 98},    {0, 104},   {0, 105},  {0, 106},   {106, 0},
                  {53, 53},   {0, 107},   {20, 87},   {0, 108},  {0, 109},   {254, 121},
                  {254, 122}, {122, 254}, {200, 176}, {254, 123}, {123, 254}, {254, 124}});
}

TEST_CASE("native: e2m1 k=2 seq, every input, code pairs over the whole range", "[native][exhaustive]") {
  exhaustiveE2m1({{0, 0},     {254, 254}, {127, 127}, {0, 254},  {254, 0},   {255, 127},
                  {127, 255}, {255, 255}, {1, 0},     {0, 1},    {0, 30},    {30, 0},
                  {3, 250},   {250, 3},   {250, 250}, {10, 10},  {100, 100}, {127, 0},
                  {0, 127},   {1, 127},   {60, 200},  {180, 40}});
}

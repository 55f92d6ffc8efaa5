// gpu_replay/tests/replay_selftest.cpp — host tests of the replay arithmetic and its pieces,
// without a certificate and without a GPU (plain asserts; no test framework, so that the
// replay tests build on a bare machine). Each check prints one line; the program exits 1 on
// the first failure. Sections (argv[1], default all):
//   arith     the arithmetic header (the code the devices run) against the reference
//             evaluator (models/eval.h) on random inputs: all formats, all placements, keep
//             ftz and daz, seq / pairwise / random binary trees, k from 1 to 64;
//   nvfp4     the same for NVFP4 blocks (e2m1 elements, e4m3 scale codes 0..127 with the
//             zero and NaN codes; keep and ftz; every placement pair; k = 1..64);
//   classes   the exhaustive enumeration's leaf classes: counts, and that every element pair
//             feeds the same leaf value as its class representative at every scale point;
//   problem   configurations the device build refuses (fused node, bf16, rtz);
//   tc        the tensor-core accumulation models: g = 1 exact RNE is the post placement over
//             seq; the characterization recovers a planted model.
#include "gpu_replay/replay_core.h"
#include "gpu_replay/tensor_cores.h"

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace mxreplay;
using mxcert::ModelConfig;
using mxcert::Placement;

namespace {

int gChecks = 0;

void check(bool ok, const std::string &what) {
  ++gChecks;
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    std::exit(1);
  }
}

ModelConfig config(const std::string &a, const std::string &b, int k, const std::string &tree, bool ftz,
                   bool daz = false) {
  ModelConfig c{*mxcert::findElementFormat(a), *mxcert::findElementFormat(b),
                mxcert::AccSpec{*mxcert::findAccFormat("f32"), mxcert::Rounding::RNE,
                                daz ? mxcert::Subnormals::DAZ : ftz ? mxcert::Subnormals::FTZ : mxcert::Subnormals::Keep},
                mxcert::Tree::parse(tree, k)};
  return c;
}

/// A random binary tree over the leaves [lo, hi) in a random order, as an S-expression.
std::string randomTree(std::mt19937_64 &rng, std::vector<int> &leaves, size_t lo, size_t hi) {
  if (hi - lo == 1) return std::to_string(leaves[lo]);
  const size_t mid = lo + 1 + size_t(rng() % (hi - lo - 1));
  return "(" + randomTree(rng, leaves, lo, mid) + " " + randomTree(rng, leaves, mid, hi) + ")";
}

/// A scale code biased toward the edges that matter (subnormal and overflow boundaries, 0,
/// 254, 255).
unsigned randomScale(std::mt19937_64 &rng) {
  switch (rng() % 6) {
  case 0: return unsigned(rng() % 256);
  case 1: return unsigned(rng() % 12);           // tiny scales
  case 2: return 243 + unsigned(rng() % 13);     // huge scales and NaN
  default: return 100 + unsigned(rng() % 60);   // near 2^0
  }
}

void testArith() {
  std::mt19937_64 rng(12345);
  const std::vector<std::string> fmts = {"e2m1", "e2m3", "e3m2", "e4m3", "e5m2"};
  const std::vector<int> ks = {1, 2, 3, 4, 5, 8, 16, 32, 64};
  long evals = 0, nonfinite = 0, subnormal = 0;
  for (int round = 0; round < 220; ++round) {
    const std::string fa = fmts[rng() % fmts.size()];
    const std::string fb = rng() % 2 ? fa : fmts[rng() % fmts.size()];
    const int k = ks[rng() % ks.size()];
    const bool ftz = rng() % 3 == 0;
    const bool daz = ftz && round % 2 == 1;  // every other flushing round reads subnormal scales as zero
    std::string tree;
    switch (rng() % 3) {
    case 0: tree = "seq"; break;
    case 1: tree = "pairwise"; break;
    default: {
      std::vector<int> leaves(static_cast<size_t>(k));
      for (int i = 0; i < k; ++i) leaves[size_t(i)] = i;
      std::shuffle(leaves.begin(), leaves.end(), rng);
      tree = randomTree(rng, leaves, 0, leaves.size());
    }
    }
    const ModelConfig cfg = config(fa, fb, k, tree, ftz, daz);
    for (int p1 = 0; p1 < 4; ++p1) {
      const int p2 = int(rng() % 4);
      const Problem P = makeProblem(cfg, Placement(p1), Placement(p2), mxcert::Relation::Bitwise);
      for (int rep = 0; rep < 10; ++rep) {
        mxcert::ConcreteInput in;
        // Small magnitudes with a few large ones: cancellation, subnormal sums and overflow.
        for (int i = 0; i < k; ++i) {
          const bool small = rng() % 4 != 0;
          const unsigned na = cfg.a.numCodes(), nb = cfg.b.numCodes();
          unsigned ca = unsigned(rng() % na), cb = unsigned(rng() % nb);
          if (small) {
            ca = (ca & (na / 2)) | (ca % 6);  // sign kept, magnitude among the smallest codes
            cb = (cb & (nb / 2)) | (cb % 6);
          }
          in.a.push_back(ca);
          in.b.push_back(cb);
        }
        in.xa = randomScale(rng);
        in.xb = randomScale(rng);
        std::vector<uint8_t> a(in.a.begin(), in.a.end()), b(in.b.begin(), in.b.end());
        uint32_t dev[2];
        evalBlock(P, a.data(), b.data(), int(in.xa), int(in.xb), dev);
        const auto r = mxcert::evaluatePlacements(cfg, {Placement(p1), Placement(p2)}, in);
        for (int q = 0; q < 2; ++q) {
          const uint32_t m = uint32_t(mxcert::encodeBits(r[size_t(q)], cfg.acc.fmt));
          ++evals;
          if ((m & 0x7F800000u) == 0x7F800000u) ++nonfinite;
          if ((m & 0x7F800000u) == 0 && (m & 0x7FFFFFu) != 0) ++subnormal;
          if (dev[q] != m) {
            std::string codes;
            for (int i = 0; i < k; ++i) codes += " " + std::to_string(in.a[size_t(i)]) + "*" + std::to_string(in.b[size_t(i)]);
            check(false, "arith: " + fa + "x" + fb + " k=" + std::to_string(k) + " tree " + cfg.tree.sexpr() +
                             (daz ? " daz" : ftz ? " ftz" : "") + " placement " + mxcert::toString(Placement(q ? p2 : p1)) +
                             " xa=" + std::to_string(in.xa) + " xb=" + std::to_string(in.xb) + " codes" + codes +
                             ": header " + hex32(dev[q]) + ", model " + hex32(m));
          }
        }
      }
    }
  }
  check(nonfinite > 0 && subnormal > 0, "arith: the random inputs reach both subnormal and non-finite results");
  std::printf("arith: %ld placement results of the arithmetic header equal the reference evaluator's bits "
              "(%ld non-finite, %ld subnormal)\n",
              evals, nonfinite, subnormal);
}

/// An NVFP4 scale code 0..127, biased toward 0 (zero scale), 127 (NaN), the subnormal codes
/// 1..7 and the largest values.
unsigned randomNvScale(std::mt19937_64 &rng) {
  switch (rng() % 6) {
  case 0: return unsigned(rng() % 8);        // zero and subnormal scales
  case 1: return 120 + unsigned(rng() % 8);  // the largest values and NaN
  default: return unsigned(rng() % 128);
  }
}

void testNvfp4Arith() {
  std::mt19937_64 rng(2468);
  const std::vector<int> ks = {1, 2, 3, 4, 16, 32, 64};
  long evals = 0, zeros = 0, nans = 0, inexact = 0;
  for (int round = 0; round < 160; ++round) {
    const int k = ks[rng() % ks.size()];
    const bool ftz = rng() % 3 == 0;
    const std::string tree = rng() % 2 ? "seq" : "pairwise";
    ModelConfig cfg = config("e2m1", "e2m1", k, tree, ftz);
    cfg.scale = mxcert::ScaleFormat::E4M3;
    for (int p1 = 0; p1 < 4; ++p1) {
      const int p2 = int(rng() % 4);
      const Problem P = makeProblem(cfg, Placement(p1), Placement(p2), mxcert::Relation::Bitwise);
      check(P.scale == kScaleE4M3, "nvfp4: the problem carries the e4m3 scale format");
      for (int rep = 0; rep < 12; ++rep) {
        mxcert::ConcreteInput in;
        for (int i = 0; i < k; ++i) {
          in.a.push_back(unsigned(rng() % 16));
          in.b.push_back(unsigned(rng() % 16));
        }
        in.xa = randomNvScale(rng);
        in.xb = randomNvScale(rng);
        std::vector<uint8_t> a(in.a.begin(), in.a.end()), b(in.b.begin(), in.b.end());
        uint32_t dev[2];
        evalBlock(P, a.data(), b.data(), int(in.xa), int(in.xb), dev);
        const auto r = mxcert::evaluatePlacements(cfg, {Placement(p1), Placement(p2)}, in);
        const uint32_t m[2] = {uint32_t(mxcert::encodeBits(r[0], cfg.acc.fmt)),
                               uint32_t(mxcert::encodeBits(r[1], cfg.acc.fmt))};
        if (m[0] != m[1]) ++inexact;
        for (int q = 0; q < 2; ++q) {
          ++evals;
          if ((m[q] & 0x7FFFFFFFu) == 0) ++zeros;
          if (m[q] == kCanonicalNaN) ++nans;
          if (dev[q] != m[q]) {
            std::string codes;
            for (int i = 0; i < k; ++i) codes += " " + std::to_string(in.a[size_t(i)]) + "*" + std::to_string(in.b[size_t(i)]);
            check(false, "nvfp4: k=" + std::to_string(k) + " tree " + cfg.tree.sexpr() + (ftz ? " ftz" : "") +
                             " placement " + mxcert::toString(Placement(q ? p2 : p1)) + " xa=" + std::to_string(in.xa) +
                             " xb=" + std::to_string(in.xb) + " codes" + codes + ": header " + hex32(dev[q]) +
                             ", model " + hex32(m[q]));
          }
        }
      }
    }
  }
  check(zeros > 0 && nans > 0 && inexact > 0,
        "nvfp4: the random inputs reach zero and NaN results and placements that differ");
  std::printf("nvfp4: %ld placement results of the arithmetic header equal the reference evaluator's bits "
              "(%ld zero, %ld NaN; %ld inputs where the two placements differ)\n",
              evals, zeros, nans, inexact);
}

void testClasses() {
  const std::vector<std::string> fmts = {"e2m1", "e2m3", "e3m2", "e4m3", "e5m2"};
  // Class counts (distinct signed products with +0 and -0 separate and one NaN class; operand
  // pairs: |a| x |b| x sign, plus one NaN class).
  check(buildClasses(config("e2m1", "e2m1", 2, "seq", false), true).av.size() == 38, "classes: e2m1 products = 38");
  check(buildClasses(config("e2m1", "e2m1", 2, "seq", false), false).av.size() == 128,
        "classes: e2m1 operand pairs = 128");
  std::mt19937_64 rng(777);
  long pairsChecked = 0;
  for (const auto &f : fmts)
    for (bool products : {true, false}) {
      const ModelConfig cfg = config(f, f, 2, "seq", rng() % 2 == 0);
      const Classes C = buildClasses(cfg, products);
      const ElemFmt ef = elemFmtOf(cfg.a);
      // What a class stands for (restated here from the definition in replay_core.h): the same
      // signed product (NaN one class), or the same operand magnitudes and product sign.
      auto keyOf = [&](float av, float bv) -> std::pair<uint64_t, uint64_t> {
        if (products) return {canonicalBits(mulRN(av, bv, 0)), 0};
        if (isNaN(av) || isNaN(bv)) return {UINT64_MAX, UINT64_MAX};
        const uint32_t ua = floatToBits(av), ub = floatToBits(bv);
        return {(uint64_t(ua & 0x7FFFFFFFu) << 32) | (ub & 0x7FFFFFFFu), (ua ^ ub) >> 31};
      };
      std::map<std::pair<uint64_t, uint64_t>, size_t> classOf;
      for (size_t c = 0; c < C.av.size(); ++c)
        check(classOf.emplace(keyOf(C.av[c], C.bv[c]), c).second, "classes: " + f + " representatives are distinct");
      // Map every code pair to its class by the same key and compare leaf values.
      for (int rep = 0; rep < 6; ++rep) {
        const Scales s = makeScales(kScaleE8M0, int(randomScale(rng)) % 255, int(randomScale(rng)) % 255);
        const int ftz = cfg.acc.subnormals == mxcert::Subnormals::DAZ ? 2 : cfg.acc.subnormals == mxcert::Subnormals::FTZ ? 1 : 0;
        for (int p = 0; p < 4; ++p) {
          if (products && p == kDequant) continue;  // product classes serve pre, post, post2 only
          std::vector<uint32_t> classLeaf(C.av.size());
          for (size_t c = 0; c < C.av.size(); ++c) classLeaf[c] = canonicalBits(placementLeaf(p, C.av[c], C.bv[c], s, ftz));
          for (unsigned ca = 0; ca < cfg.a.numCodes(); ++ca)
            for (unsigned cb = 0; cb < cfg.b.numCodes(); ++cb) {
              const float av = decodeElement(ef, ca), bv = decodeElement(ef, cb);
              const uint32_t leaf = canonicalBits(placementLeaf(p, av, bv, s, ftz));
              const auto it = classOf.find(keyOf(av, bv));
              check(it != classOf.end(), "classes: " + f + " pair " + std::to_string(ca) + "," + std::to_string(cb) + " has a class");
              check(classLeaf[it->second] == leaf, "classes: " + f + " pair " + std::to_string(ca) + "," +
                                                      std::to_string(cb) + " has the leaf of its class (placement " +
                                                      std::to_string(p) + ")");
              ++pairsChecked;
            }
        }
      }
    }
  std::printf("classes: e2m1 has 38 signed-product and 128 operand-pair classes; %ld (pair, scale point, "
              "placement) leaves equal their class representative's\n",
              pairsChecked);
}

void testProblem() {
  auto refused = [](const ModelConfig &cfg, const std::string &what) {
    try {
      makeProblem(cfg, Placement::Pre, Placement::Post, mxcert::Relation::Bitwise);
    } catch (const UsageError &e) {
      check(std::string(e.what()).find("config not supported by the device build") == 0, what + ": message");
      return;
    }
    check(false, what + " is refused");
  };
  refused(config("e2m1", "e2m1", 3, "fused", false), "fused node");
  ModelConfig bf = config("e2m1", "e2m1", 2, "seq", false);
  bf.acc.fmt = *mxcert::findAccFormat("bf16");
  refused(bf, "bf16 accumulator");
  ModelConfig rz = config("e2m1", "e2m1", 2, "seq", false);
  rz.acc.rounding = mxcert::Rounding::RTZ;
  refused(rz, "rtz");
  // k = 64 with a butterfly-like explicit tree is accepted.
  const Problem P = makeProblem(config("e4m3", "e4m3", 64, "pairwise", false), Placement::Dequant, Placement::Post,
                                mxcert::Relation::Value);
  check(P.tree.k == 64 && P.tree.nInner == 63, "pairwise k = 64: 63 inner nodes");
  std::printf("problem: fused nodes, bf16 and rtz are refused; k = 64 is accepted\n");
}

void testTensorCoreModels() {
  std::mt19937_64 rng(4242);
  for (int k : {1, 2, 16, 32, 64}) {
    const ModelConfig cfg = config("e4m3", "e4m3", k, "seq", false);
    const TcModel seqModel{1, -1, false, false};
    for (int rep = 0; rep < 300; ++rep) {
      TcInput in;
      for (int i = 0; i < k; ++i) {
        in.a.push_back(unsigned(rng() % 256));
        in.b.push_back(unsigned(rng() % 256));
      }
      in.xa = randomScale(rng);
      in.xb = randomScale(rng);
      const uint32_t m = uint32_t(mxcert::encodeBits(
          mxcert::evaluatePlacement(cfg, Placement::Post, mxcert::ConcreteInput{in.a, in.b, in.xa, in.xb}),
          cfg.acc.fmt));
      check(tcModelDot(seqModel, cfg, in, true) == m,
            "tc: g=1 exact rne scale-after equals post over seq (k = " + std::to_string(k) + ")");
    }
  }
  // A planted hardware model: groups of 4 products plus the accumulator, aligned to the largest
  // exponent and truncated to 24 bits below it, rounded toward zero.
  const ModelConfig cfg = config("e4m3", "e4m3", 32, "seq", false);
  const TcModel planted{4, 24, true, false};
  std::vector<TcInput> inputs;
  std::vector<uint32_t> hw;
  for (int rep = 0; rep < 600; ++rep) {
    TcInput in;
    for (int i = 0; i < 32; ++i) {
      in.a.push_back(unsigned(rng() % 0x7E) | (rng() % 2 ? 0x80u : 0u));  // finite e4m3
      in.b.push_back(unsigned(rng() % 0x7E) | (rng() % 2 ? 0x80u : 0u));
    }
    inputs.push_back(in);
    hw.push_back(tcModelDot(planted, cfg, in, false));
  }
  const auto ranking = characterize(cfg, inputs, hw, false, false);
  bool plantedFound = false;
  long seqMismatches = -1;
  for (const auto &[m, bad] : ranking) {
    if (m.g == planted.g && m.F == planted.F && m.rz == planted.rz && m.scaleInside == planted.scaleInside)
      plantedFound = bad == 0;
    if (m.g == 1 && m.F < 0 && !m.rz) seqMismatches = bad;
  }
  check(plantedFound && ranking.front().second == 0, "tc: the characterization reproduces the planted model");
  check(seqMismatches > 0, "tc: the planted model is distinguishable from the IEEE seq model");
  std::printf("tc: g=1/exact/rne equals post over seq on 1500 inputs; the planted model %s is recovered "
              "(IEEE seq model: %ld of 600 mismatches)\n",
              planted.name().c_str(), seqMismatches);

  // The sign of a zero sum (an H200's FP8 MMA gives +0 where every product is -0): k = 2 with
  // products of both signs of zero and small values; the +0 model is recovered, and it differs
  // from IEEE exactly on the inputs whose products are all -0.
  const ModelConfig cfg2 = config("e4m3", "e4m3", 2, "seq", false);
  const TcModel plus{1, -1, false, false, true};
  std::vector<TcInput> in2;
  std::vector<uint32_t> hw2;
  long allNegZero = 0;
  const unsigned codes[] = {0x00, 0x80, 0x38, 0xB8, 0x30};  // +0, -0, 1, -1, 0.5
  for (unsigned a0 : codes)
    for (unsigned b0 : codes)
      for (unsigned a1 : codes)
        for (unsigned b1 : codes) {
          TcInput in;
          in.a = {a0, a1};
          in.b = {b0, b1};
          in2.push_back(in);
          hw2.push_back(tcModelDot(plus, cfg2, in, false));
          auto negZero = [](unsigned a, unsigned b) {
            const bool za = (a & 0x7F) == 0, zb = (b & 0x7F) == 0;
            return (za || zb) && (((a ^ b) & 0x80) != 0);
          };
          allNegZero += negZero(a0, b0) && negZero(a1, b1) ? 1 : 0;
        }
  long plusBad = -1, ieeeBad = -1;
  for (const auto &[m, bad] : characterize(cfg2, in2, hw2, false, false)) {
    if (m.g == 1 && m.F < 0 && !m.rz && m.zeroPlus) plusBad = bad;
    if (m.g == 1 && m.F < 0 && !m.rz && !m.zeroPlus) ieeeBad = bad;
  }
  check(plusBad == 0, "tc: the +0 model reproduces its own outputs");
  check(allNegZero > 0 && ieeeBad == allNegZero,
        "tc: the +0 model differs from IEEE exactly where every product is -0");
  std::printf("tc: zero sums: %s recovered; the IEEE model differs on the %ld of %zu inputs whose products "
              "are all -0\n",
              plus.name().c_str(), ieeeBad, in2.size());
}

}  // namespace

int main(int argc, char **argv) {
  const std::string only = argc > 1 ? argv[1] : "all";
  const std::vector<std::pair<std::string, std::function<void()>>> sections = {
      {"arith", testArith}, {"nvfp4", testNvfp4Arith}, {"classes", testClasses}, {"problem", testProblem}, {"tc", testTensorCoreModels}};
  bool ran = false;
  for (const auto &[name, fn] : sections)
    if (only == "all" || only == name) {
      fn();
      ran = true;
    }
  if (!ran) {
    std::printf("unknown section '%s'\n", only.c_str());
    return 2;
  }
  std::printf("OK: %d checks\n", gChecks);
  return 0;
}

// src/check/closed_form_check.cpp — the checker's closed-form recomputation (see the header).
#include "src/check/closed_form_check.h"

#include "models/placement.h"

#include <algorithm>

namespace mxcert::check {

namespace {

using CD = ConcreteDomain;

/// floor(log2 |v|) and ceil(log2 |v|) of a finite nonzero exact value.
long floorLog2(const CVal &v) { return long(v.X.toInt64()) + long(v.N.msb()); }
long ceilLog2(const CVal &v) { return floorLog2(v) + (v.N == Integer::pow2(v.N.msb()) ? 0 : 1); }

/// The largest finite magnitude of a format: positive codes are ordered by magnitude, so it
/// is the largest positive code that is finite.
CVal largest(const ElementFormat &f) {
  CD d;
  CVal best = finiteVal(d, false, Integer(0), Integer(0));
  for (unsigned code = 0; code < f.numCodes() / 2; ++code) {
    CVal v = decodeElement(d, f, Integer(int64_t(code)));
    if (!v.nan && !v.inf) best = v;
  }
  return best;
}

/// The unordered placement pair, as the closed forms name it.
enum class Pair { PrePost, DequantPost, DequantPre, Other };
Pair pairOf(Placement a, Placement b) {
  auto is = [&](Placement x, Placement y) { return (a == x && b == y) || (a == y && b == x); };
  if (is(Placement::Pre, Placement::Post)) return Pair::PrePost;
  if (is(Placement::Dequant, Placement::Post)) return Pair::DequantPost;
  if (is(Placement::Dequant, Placement::Pre)) return Pair::DequantPre;
  return Pair::Other;
}

}  // namespace

RecomputedBound recomputeBoundParams(const ModelConfig &c, Placement lhs, Placement rhs, Relation rel) {
  RecomputedBound out;
  if (c.nvfp4()) {
    out.whyNot = "no closed form for nvfp4 (e4m3 scales are no powers of two)";
    return out;
  }
  if (c.acc.subnormals != Subnormals::Keep) {
    out.whyNot = "closed forms are derived with subnormals kept only";
    return out;
  }
  const Pair pair = pairOf(lhs, rhs);
  if (pair == Pair::Other) {
    out.whyNot = "no closed form is derived for this placement pair";
    return out;
  }
  // Truncation (docs/bounds.md): pre/post only; V from floor(log2 Dmax).
  const bool rtz = c.acc.rounding == Rounding::RTZ;
  if (rtz && pair != Pair::PrePost) {
    out.whyNot = "closed forms for rtz are derived for pre/post only";
    return out;
  }
  CD d;
  const AccFormat &af = c.acc.fmt;
  const long q = af.quantumExp(), g = c.a.quantumExp() + c.b.quantumExp();
  const CVal amax = largest(c.a), bmax = largest(c.b);
  const CVal tmax = mulExact(d, amax, bmax);
  std::vector<CVal> node;
  if (c.anyOrder) {
    // Every tree (docs/bounds.md): where n tmax is exact for n <= k, a node over n leaves of
    // any tree is n tmax on all-maximal leaves; the largest non-root node has k - 1 leaves.
    for (long n = 1; n <= c.k(); ++n) {
      const CVal v = finiteVal(d, false, tmax.N * Integer(n), tmax.X);
      const CVal r = roundAcc(d, v, c.acc);
      if (r.nan || r.inf || r.N * Integer::pow2(unsigned(std::max<int64_t>(0, r.X.toInt64() - v.X.toInt64()))) !=
                                   v.N * Integer::pow2(unsigned(std::max<int64_t>(0, v.X.toInt64() - r.X.toInt64())))) {
        out.whyNot = "n tmax is not exact for some n <= k (no closed form for every tree)";
        return out;
      }
    }
    node = {finiteVal(d, false, tmax.N * Integer(long(std::max(1, c.k() - 1))), tmax.X),
            finiteVal(d, false, tmax.N * Integer(long(c.k())), tmax.X)};
  } else {
    node = evalTreeNodes(d, c.tree, std::vector<CVal>(size_t(c.k()), roundAcc(d, tmax, c.acc)), c.acc);
  }
  long logM = floorLog2(node.front());
  for (size_t i = 0; i + 1 < node.size(); ++i) logM = std::max(logM, floorLog2(node[i]));
  std::map<std::string, long> &p = out.params;
  p["q"] = q;
  p["g"] = g;
  p["log2_tmax"] = floorLog2(tmax);
  p["log2_M"] = logM;
  const char *dName = rtz ? "log2_Dmax" : "ceil_log2_Dmax";
  if (!node.back().inf && !node.back().nan) p[dName] = rtz ? floorLog2(node.back()) : ceilLog2(node.back());
  if (c.k() > 1) {
    p["L"] = q - g;
    p["U"] = long(af.emax) - logM;
    if (rel == Relation::Value && p.count(dName)) p["V"] = q - 1 - p[dName];
  }
  if (pair != Pair::PrePost) {
    p["XA"] = std::min(254L, 127L + long(af.emax) - floorLog2(amax));
    p["XB"] = std::min(254L, 127L + long(af.emax) - floorLog2(bmax));
  }
  return out;
}

std::optional<CodeSet> predictedSet(const std::map<std::string, long> &params, int k, Placement lhs, Placement rhs,
                                    Relation rel) {
  auto get = [&](const char *n) -> std::optional<long> {
    auto it = params.find(n);
    if (it == params.end()) return std::nullopt;
    return it->second;
  };
  const Pair pair = pairOf(lhs, rhs);
  if (pair == Pair::Other) return std::nullopt;
  // Whether a code pair's e lies in the pre/post set.
  std::vector<char> eIn(size_t(2 * kMaxCode + 1), 0);
  auto mark = [&](long lo, long hi) {
    for (long e = std::max(lo, -254L); e <= std::min(hi, 254L); ++e) eIn[size_t(e + kMaxCode)] = 1;
  };
  if (k == 1) {
    mark(-254, 254);
  } else {
    auto L = get("L"), U = get("U"), V = get("V");
    if (!L || !U) return std::nullopt;
    mark(*L, *U);
    if (rel == Relation::Value && V) mark(-254, *V);
  }
  std::optional<long> XA = get("XA"), XB = get("XB");
  if (pair != Pair::PrePost && (!XA || !XB)) return std::nullopt;
  CodeSet s;
  for (int xa = 0; xa < kNumCodes; ++xa)
    for (int xb = 0; xb < kNumCodes; ++xb) {
      const bool scalesExact = pair == Pair::PrePost || (xa <= *XA && xb <= *XB);
      const int e = xa + xb - kMaxCode;
      const bool eOk = pair == Pair::DequantPre || eIn[size_t(e + kMaxCode)];
      if (scalesExact && eOk) s.set(xa, xb);
    }
  return s;
}

}  // namespace mxcert::check

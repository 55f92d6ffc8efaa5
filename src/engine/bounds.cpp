// src/engine/bounds.cpp — closed-form agree sets (see bounds.h and docs/bounds.md).
#include "src/engine/bounds.h"

#include "models/eval.h"
#include "models/placement.h"

#include <algorithm>

namespace mxcert::engine {

namespace {
using CD = ConcreteDomain;

/// floor(log2 |v|) of a finite nonzero value.
int64_t floorLog2(const CVal &v) { return v.X.toInt64() + int64_t(v.N.msb()); }
/// ceil(log2 |v|) of a finite nonzero value.
int64_t ceilLog2(const CVal &v) {
  const bool pow2 = v.N == Integer::pow2(v.N.msb());
  return floorLog2(v) + (pow2 ? 0 : 1);
}

/// The largest finite magnitude of an element format, as an exact value.
CVal maxMagnitude(const ElementFormat &f) {
  CD d;
  CVal best = finiteVal(d, false, Integer(0), Integer(0));
  for (unsigned c = 0; c < f.numCodes() / 2; ++c) {
    CVal v = decodeElement(d, f, Integer(int64_t(c)));
    if (v.nan || v.inf) continue;
    Aligned<CD> al = align(d, v.N, v.X, best.N, best.X);
    if (al.A > al.B) best = v;
  }
  return best;
}

std::string join(const std::vector<std::pair<std::string, long>> &ps) {
  std::string s;
  for (auto &[n, v] : ps) s += (s.empty() ? "" : ", ") + n + " = " + std::to_string(v);
  return s;
}

Region eRegion(long lo, long hi) {
  Region r;
  r.e = {int(std::max(lo, -254L)), int(std::min(hi, 254L))};
  return r;
}
}  // namespace

ClosedForm closedForm(const PairQuery &q) {
  ClosedForm cf;
  const ModelConfig &c = q.cfg;
  const AccFormat &af = c.acc.fmt;
  auto no = [&](const std::string &why) {
    cf.applies = false;
    cf.whyNot = why;
    return cf;
  };
  if (c.nvfp4()) return no("no closed form for nvfp4: e4m3 scales are no powers of two (docs/semantics.md)");
  if (c.acc.subnormals != Subnormals::Keep) return no("closed forms are derived for --subnormals keep only");
  Placement p1 = std::min(q.lhs, q.rhs), p2 = std::max(q.lhs, q.rhs);
  const bool prePost = p1 == Placement::Pre && p2 == Placement::Post;
  const bool dqPost = p1 == Placement::Post && p2 == Placement::Dequant;
  const bool dqPre = p1 == Placement::Pre && p2 == Placement::Dequant;
  if (!prePost && !dqPost && !dqPre)
    return no(std::string("no closed form for ") + toString(q.lhs) + " vs " + toString(q.rhs) +
              " (derived for pre/post, dequant/post, dequant/pre)");
  // RTZ: the pre/post derivation carries over (truncation is monotone, odd and scale-invariant
  // in the normal range, and an overflow saturates exactly where RNE's p-bit values overflow);
  // dequant's scalings saturate instead of giving inf, so its derivation does not.
  const bool rtz = c.acc.rounding == Rounding::RTZ;
  if (rtz && !prePost)
    return no("closed forms for --round rtz are derived for pre/post only (dequant's scalings saturate: docs/bounds.md)");

  CD d;
  const long qAcc = af.quantumExp();
  const long g = c.a.quantumExp() + c.b.quantumExp();
  const CVal amax = maxMagnitude(c.a), bmax = maxMagnitude(c.b);
  const CVal tmax = mulExact(d, amax, bmax);
  // Products must be exact accumulator values at scale 1: on the grid, at most p bits,
  // below the overflow threshold.
  if (g < qAcc) return no("products are not on the " + af.name + " grid at scale 1");
  if (int(c.a.mbits + 1 + c.b.mbits + 1) > af.p)
    return no("products have more significant bits than " + af.name);
  if (floorLog2(tmax) > af.emax) return no("the largest product overflows " + af.name);

  // Node maxima on all-maximal leaves at scale 1 (rounding is monotone).
  std::vector<CVal> val;
  if (c.anyOrder) {
    // Every tree: when n tmax is exact for every n <= k, a node over n leaves is n tmax on
    // all-maximal leaves in every tree (by induction: its children are exact multiples of
    // tmax summing to n tmax, which rounds to itself), so M = (k - 1) tmax (the largest
    // non-root node of any tree; tmax for k = 1) and Dmax = k tmax.
    auto times = [&](int n) { return finiteVal(d, false, tmax.N * Integer(int64_t(n)), tmax.X); };
    for (int n = 1; n <= c.k(); ++n)
      if (!sameState(roundAcc(d, times(n), c.acc), times(n)))
        return no("n tmax is not exact in " + af.name + " for n = " + std::to_string(n) +
                  " (the closed form for every tree needs it for n <= k)");
    val = {times(std::max(1, c.k() - 1)), times(c.k())};
  } else {
    val = evalTreeNodes(d, c.tree, std::vector<CVal>(size_t(c.k()), roundAcc(d, tmax, c.acc)), c.acc);
  }
  const CVal &Dmax = val.back();
  if (Dmax.inf) return no("the tree overflows " + af.name + " at scale 1");
  if (rtz && !c.anyOrder) {
    // RTZ saturates instead of giving inf: the tree must not reach 2^(emax+1) at scale 1. Its
    // node values are at most RNE's (rtz(x) <= rne(x) for x >= 0, by induction over the
    // nodes), so an RNE tree that does not overflow is enough. (Every tree: the check that
    // n tmax is exact above already excludes a saturated node.)
    AccSpec nearest = c.acc;
    nearest.rounding = Rounding::RNE;
    if (evalTreeNodes(d, c.tree, std::vector<CVal>(size_t(c.k()), roundAcc(d, tmax, nearest)), nearest).back().inf)
      return no("the tree may saturate " + af.name + " at scale 1");
  }
  int64_t logM = floorLog2(val[0]);
  for (size_t i = 0; i + 1 < val.size(); ++i) logM = std::max(logM, floorLog2(val[i]));

  const long L = qAcc - g;
  const long U = af.emax - logM;
  // Both results are zeros when 2^e Dmax rounds to zero: RNE below 2^(q-1) (ties to even),
  // RTZ below 2^q.
  const long V = rtz ? qAcc - 1 - floorLog2(Dmax) : qAcc - 1 - ceilLog2(Dmax);
  cf.params = {{"q", qAcc}, {"g", g}, {"log2_tmax", long(floorLog2(tmax))}, {"log2_M", long(logM)}};
  if (rtz) cf.params.push_back({"log2_Dmax", long(floorLog2(Dmax))});
  else cf.params.push_back({"ceil_log2_Dmax", long(ceilLog2(Dmax))});
  const std::string vFormula = rtz ? "V = q - 1 - floor(log2 Dmax)" : "V = q - 1 - ceil(log2 Dmax)";

  // The pre/post set.
  std::vector<Region> ePart;
  std::string eFormula;
  if (c.k() == 1) {
    ePart.push_back(eRegion(-254, 254));
    eFormula = "k = 1: every e";
  } else {
    cf.params.push_back({"L", L});
    cf.params.push_back({"U", U});
    if (q.rel == Relation::Value) cf.params.push_back({"V", V});
    if (q.rel == Relation::Value && V >= -254) {
      if (V >= L - 1) {
        ePart.push_back(eRegion(-254, U));
      } else {
        ePart.push_back(eRegion(-254, V));
        if (L <= U) ePart.push_back(eRegion(L, U));
      }
      eFormula = "e in [-254, V] u [L, U], L = q - g, U = emax - floor(log2 M), " + vFormula;
    } else {
      if (L <= U) ePart.push_back(eRegion(L, U));
      eFormula = "e in [L, U], L = q - g, U = emax - floor(log2 M)";
    }
  }

  if (prePost) {
    cf.guard.regions = ePart;
    cf.formula = eFormula;
  } else {
    // dequant: rnd(2^sa a) is exact for every a iff 2^sa max|a| < 2^(emax+1) and the grid of
    // a (2^qa) scaled stays on the accumulator grid; the latter must hold for every sa.
    if (c.a.quantumExp() - 127 < qAcc || c.b.quantumExp() - 127 < qAcc)
      return no("small scalings of the elements are not exact in " + af.name);
    if (int(c.a.mbits + 1) > af.p || int(c.b.mbits + 1) > af.p)
      return no("element significands do not fit " + af.name);
    const long XA = std::min<long>(254, 127 + af.emax - floorLog2(amax));
    const long XB = std::min<long>(254, 127 + af.emax - floorLog2(bmax));
    cf.params.push_back({"XA", XA});
    cf.params.push_back({"XB", XB});
    if (dqPre) {
      Region r;
      r.xa = {0, int(XA)};
      r.xb = {0, int(XB)};
      cf.guard.regions.push_back(r);
      cf.formula = "xa <= XA, xb <= XB, XA = 127 + emax - floor(log2 max|a|)";
    } else {
      for (Region r : ePart) {
        r.xa = {0, int(XA)};
        r.xb = {0, int(XB)};
        r = r.tightened();
        if (r.count() > 0) cf.guard.regions.push_back(r);
      }
      cf.formula = eFormula + "; xa <= XA, xb <= XB, XA = 127 + emax - floor(log2 max|a|)";
    }
  }
  cf.applies = true;
  cf.formula += " (" + join(cf.params) + ")";
  return cf;
}

std::vector<TightnessPoint> tightnessPoints(const Guard &g) {
  std::vector<TightnessPoint> out;
  const CodeSet inGuard = g.toSet();
  for (const Region &r : g.regions) {
    struct Side {
      const char *name;
      CodeRange Region::*field;
      int lo, hi;
    } sides[3] = {{"xa", &Region::xa, 0, 254}, {"xb", &Region::xb, 0, 254}, {"e", &Region::e, -254, 254}};
    for (const Side &s : sides) {
      const CodeRange cr = r.*(s.field);
      for (int v : {cr.lo - 1, cr.hi + 1}) {
        if (v < s.lo || v > s.hi) continue;
        Region f = r;
        f.*(s.field) = {v, v};
        f = f.tightened();
        if (f.count() == 0) continue;
        // Pairs of the face that another region already covers cannot be refuted.
        bool anyOutside = false;
        for (int a = f.xa.lo; a <= f.xa.hi && !anyOutside; ++a)
          for (int b = f.xb.lo; b <= f.xb.hi; ++b)
            if (f.contains(a, b) && !inGuard.get(a, b)) {
              anyOutside = true;
              break;
            }
        if (!anyOutside) continue;
        out.push_back({std::string(s.name) + " = " + std::to_string(v), f});
      }
    }
  }
  return out;
}

}  // namespace mxcert::engine

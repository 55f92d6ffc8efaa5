// src/engine/step_witness.cpp — inputs made from a failed induction root step's model (see
// step_witness.h).
#include "src/engine/step_witness.h"

#include "src/engine/groups.h"

#include "models/eval.h"
#include "models/induction.h"

#include <algorithm>

namespace mxcert::engine {

namespace {

/// A model value, or nullopt when the model does not name it.
std::optional<Integer> value(const std::map<std::string, Integer> &m, const std::string &name) {
  const auto it = m.find(name);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

/// A 0..1 flag of the model (absent: false).
bool flag(const std::map<std::string, Integer> &m, const std::string &name) {
  const std::optional<Integer> v = value(m, name);
  return v && v->sign() != 0;
}

/// One leaf value the tree can be given: units of 2^g and the element codes that make it.
struct Term {
  Integer units;
  unsigned a = 0, b = 0;
};

/// Every distinct positive finite post leaf rnd(a b) (codes with the sign bit clear), in
/// units of 2^g, largest first. Leaves below the grid are left out (there are none: every
/// product is a multiple of 2^g, and rounding keeps it one).
std::vector<Term> positiveTerms(const ModelConfig &cfg, int grid) {
  ConcreteDomain d;
  std::vector<Term> out;
  const unsigned halfA = cfg.a.numCodes() / 2, halfB = cfg.b.numCodes() / 2;
  for (unsigned ca = 0; ca < halfA; ++ca)
    for (unsigned cb = 0; cb < halfB; ++cb) {
      const CVal A = decodeElement(d, cfg.a, Integer(int64_t(ca))), B = decodeElement(d, cfg.b, Integer(int64_t(cb)));
      const CVal L = productLeaf(d, cfg, A, B);
      if (L.nan || L.inf || L.neg || L.N.isZero()) continue;
      const int64_t shift = L.X.toInt64() - grid;
      if (shift < 0) continue;
      out.push_back(Term{L.N * Integer::pow2(unsigned(shift)), ca, cb});
    }
  std::sort(out.begin(), out.end(), [](const Term &x, const Term &y) { return y.units < x.units; });
  out.erase(std::unique(out.begin(), out.end(), [](const Term &x, const Term &y) { return x.units == y.units; }),
            out.end());
  return out;
}

/// An input at (xa, xb) whose exact leaf values sum to `units` units of 2^g (negated when
/// `negative`; a sum of -0 leaves when `negativeZero`): the largest term first (each at most
/// what is left), then +0 (or -0) leaves. nullopt when more than k leaves would be needed.
std::optional<Witness> inputWithSum(const PairQuery &q, int xa, int xb, Integer units,
                                    bool negative, bool negativeZero, const std::vector<Term> &terms) {
  Witness w;
  w.xa = xa;
  w.xb = xb;
  // A negative sum negates a: the sign bit of a's code.
  const int k = q.cfg.k();
  const unsigned signA = 1u << (q.cfg.a.bits() - 1);
  for (int i = 0; i < k && units.sign() > 0; ++i) {
    const auto it = std::find_if(terms.begin(), terms.end(), [&](const Term &t) { return !(units < t.units); });
    if (it == terms.end()) return std::nullopt;
    w.a.push_back(negative ? it->a | signA : it->a);
    w.b.push_back(it->b);
    units = units - it->units;
  }
  if (units.sign() != 0) return std::nullopt;  // more than k leaves would be needed
  while (int(w.a.size()) < k) {
    w.a.push_back(negativeZero ? signA : 0u);  // -0 * +0 = -0; +0 * +0 = +0
    w.b.push_back(0u);
  }
  return w;
}

/// Whether inputs can be made for the root step of `inv` (see step_witness.h): a fixed MX
/// tree, an invariant other than equal, and a base side post or post2 (σ(B) = 0).
bool unscaledBase(const PairQuery &q, const Invariant &inv) {
  if (q.cfg.anyOrder || q.cfg.nvfp4() || inv.mode == InvariantMode::Equal) return false;
  const Placement base = inv.baseIsRhs ? q.rhs : q.lhs;
  return base == Placement::Post || base == Placement::Post2;
}

}  // namespace

std::optional<std::pair<int, int>> modelCodePair(const Region &region, const std::map<std::string, Integer> &m) {
  const std::optional<Integer> xa = value(m, "xa");
  if (!xa) return std::nullopt;
  const std::optional<Integer> e = value(m, "e");
  const int64_t ev = e ? e->toInt64() : int64_t(std::max(region.e.lo, region.xa.lo + region.xb.lo - 254));
  const int xav = int(xa->toInt64());
  return std::make_pair(xav, int(ev - xav + 254));
}

std::optional<Witness> rootStepInput(const PairQuery &q, InductionStep step, const Invariant &inv,
                                     const Region &region, const std::map<std::string, Integer> &m) {
  if ((step != InductionStep::Root && step != InductionStep::Root1) || !unscaledBase(q, inv)) return std::nullopt;
  // The abstract value: Root's exact sum S 2^g with its flags, Root1's leaf (-1)^neg N 2^g.
  bool negative = false, negativeZero = false;
  Integer units;
  if (step == InductionStep::Root) {
    if (flag(m, "anyNaN") || flag(m, "posInf") || flag(m, "negInf")) return std::nullopt;
    const std::optional<Integer> S = value(m, "S");
    if (!S) return std::nullopt;
    negative = S->sign() < 0;
    negativeZero = S->isZero() && flag(m, "allNegZero");
    units = negative ? -*S : *S;
  } else {
    if (flag(m, "nan") || flag(m, "inf")) return std::nullopt;
    const std::optional<Integer> N = value(m, "N");
    if (!N) return std::nullopt;
    negative = flag(m, "neg") && !N->isZero();
    negativeZero = flag(m, "neg") && N->isZero();
    units = *N;
  }
  const std::optional<std::pair<int, int>> pair = modelCodePair(region, m);
  if (!pair) return std::nullopt;
  return inputWithSum(q, pair->first, pair->second, units, negative, negativeZero, positiveTerms(q.cfg, inv.grid));
}

std::vector<std::pair<unsigned, unsigned>> failingLeaves(const PairQuery &q, const Invariant &inv, int xa, int xb,
                                                         size_t maxLeaves) {
  std::vector<std::pair<unsigned, unsigned>> out;
  if (q.cfg.anyOrder || q.cfg.nvfp4() || maxLeaves == 0) return out;
  ConcreteDomain d;
  const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
  const Placement pB = inv.baseIsRhs ? q.rhs : q.lhs, pO = inv.baseIsRhs ? q.lhs : q.rhs;
  const Integer sigmaB = sideScale(d, pB, s), sigmaO = sideScale(d, pO, s);
  const Integer XB = Integer(int64_t(inv.grid)) + sigmaB, XO = Integer(int64_t(inv.grid)) + sigmaO;
  // (error class, |error| as N 2^X) per failing leaf; class 1: a NaN or infinity on one side.
  struct Failing {
    bool special;
    Integer N, X;
    unsigned a, b;
  };
  std::vector<Failing> failing;
  for (unsigned ca = 0; ca < q.cfg.a.numCodes(); ++ca)
    for (unsigned cb = 0; cb < q.cfg.b.numCodes(); ++cb) {
      const CVal A = decodeElement(d, q.cfg.a, Integer(int64_t(ca))), B = decodeElement(d, q.cfg.b, Integer(int64_t(cb)));
      const CVal LB = placementLeaf(d, pB, q.cfg, A, B, s), LO = placementLeaf(d, pO, q.cfg, A, B, s);
      if (inSubtreeInvariant(d, inv, LB, LO, Integer(1), XB, XO)) continue;
      if (LB.nan || LB.inf || LO.nan || LO.inf) {
        failing.push_back(Failing{true, Integer(0), Integer(0), ca, cb});
        continue;
      }
      // What O's leaf should be: LB 2^(σ(O) - σ(B)) (scaled), 0 (zero), LB (equal).
      CVal expected = LB;
      if (inv.mode == InvariantMode::Scaled) expected.X = LB.X + sigmaO - sigmaB;
      if (inv.mode == InvariantMode::Zero) expected.N = Integer(0);
      const Aligned<ConcreteDomain> al = align(d, signedN(d, LO), LO.X, signedN(d, expected), expected.X);
      Integer err = al.A - al.B;
      if (err.sign() < 0) err = -err;
      failing.push_back(Failing{false, err, al.X, ca, cb});
    }
  // Largest error first: every error as a whole number of units of the smallest exponent.
  std::optional<Integer> lowest;
  for (const Failing &f : failing)
    if (!f.special) lowest = lowest ? min(*lowest, f.X) : f.X;
  for (Failing &f : failing)
    if (!f.special) f.N = f.N * Integer::pow2(unsigned((f.X - *lowest).toInt64()));
  std::stable_sort(failing.begin(), failing.end(), [](const Failing &x, const Failing &y) {
    if (x.special != y.special) return x.special;
    return !x.special && y.N < x.N;
  });
  for (size_t i = 0; i < failing.size() && out.size() < maxLeaves; ++i) out.emplace_back(failing[i].a, failing[i].b);
  return out;
}

unsigned largestFiniteCode(const ElementFormat &f) {
  unsigned best = 0;
  for (unsigned code = 0; code < f.numCodes() / 2; ++code) {
    ElementValue v = decodeElementCode(f, code);
    if (!v.nan && !v.inf) best = code;  // codes are ordered by magnitude
  }
  return best;
}

std::vector<Witness> leafStepInputs(const PairQuery &q, InductionStep step, const Region &region,
                                    const std::map<std::string, Integer> &m) {
  std::vector<Witness> out;
  if (step != InductionStep::Leaf || q.cfg.anyOrder || q.cfg.nvfp4()) return out;
  const std::optional<Integer> a0 = value(m, "a0"), b0 = value(m, "b0");
  const std::optional<std::pair<int, int>> pair = modelCodePair(region, m);
  if (!a0 || !b0 || !pair) return out;
  const int64_t a = a0->toInt64(), b = b0->toInt64();
  if (a < 0 || b < 0 || a >= int64_t(q.cfg.a.numCodes()) || b >= int64_t(q.cfg.b.numCodes())) return out;
  const int k = q.cfg.k();
  const unsigned negA = unsigned(a) ^ (q.cfg.a.numCodes() / 2);  // the sign bit flipped: -a0
  // n leaves of a0 b0, then n of -a0 b0 where `cancel`, +0 (code 0) in the rest.
  auto input = [&](int n, bool cancel) {
    Witness w;
    w.xa = pair->first;
    w.xb = pair->second;
    for (int i = 0; i < k; ++i) {
      const bool first = i < n, second = cancel && i >= n && i < 2 * n;
      w.a.push_back(first ? unsigned(a) : second ? negA : 0u);
      w.b.push_back(first || second ? unsigned(b) : 0u);
    }
    return w;
  };
  for (int n = 1; n <= k; ++n) out.push_back(input(n, false));
  for (int n = 1; 2 * n <= k; ++n) out.push_back(input(n, true));
  // a0 b0 beside m leaves of the largest finite product: a leaf error that rounds away alone
  // (a flushed or subnormal leaf) may show beside a large sum on the other side.
  const unsigned amax = largestFiniteCode(q.cfg.a), bmax = largestFiniteCode(q.cfg.b);
  for (int m = 1; m < k; ++m) {
    Witness w = input(1, false);
    for (int i = 1; i <= m; ++i) {
      w.a[size_t(i)] = amax;
      w.b[size_t(i)] = bmax;
    }
    out.push_back(std::move(w));
  }
  return out;
}

std::optional<std::vector<int64_t>> rootStepSums(const AccFormat &fmt, const Invariant &inv, Placement pO, int64_t kU) {
  std::vector<int64_t> out;
  const bool byValue = inv.mode == InvariantMode::Zero || pO == Placement::Post || pO == Placement::Post2;
  if (!byValue) {
    if (kU > kMaxScanUnits) return std::nullopt;
    for (int64_t S = 0; S <= kU; ++S) out.push_back(S);
    return out;
  }
  const int g = inv.grid, minQuantum = fmt.quantumExp();
  for (int64_t S = 0; S < kU;) {
    out.push_back(S);
    if (out.size() > size_t(kMaxScanSums)) return std::nullopt;
    int e = minQuantum;  // log2 of the quantum at S 2^g
    if (S > 0) {
      int msb = 0;
      while ((S >> (msb + 1)) != 0) ++msb;
      if (msb + g > fmt.emax) break;  // S 2^g >= 2^(emax + 1): past every finite value
      e = std::max(msb + g - fmt.p + 1, minQuantum);
    }
    S += e > g ? (int64_t(1) << std::min(e - g, 62)) : 1;
  }
  out.push_back(kU);
  return out;
}

RootStepScan rootStepScan(const PairQuery &q, const Invariant &inv, const std::vector<std::pair<int, int>> &pairs,
                          long maxEvaluations, int threads) {
  RootStepScan out;
  if (!unscaledBase(q, inv) || q.cfg.k() < 2) return out;
  const Placement pB = inv.baseIsRhs ? q.rhs : q.lhs, pO = inv.baseIsRhs ? q.lhs : q.rhs;
  const Integer bound = inv.unit * Integer(int64_t(q.cfg.k()));
  if (bound.sign() <= 0 || !(bound < Integer::pow2(62))) return out;
  const std::optional<std::vector<int64_t>> sums = rootStepSums(q.cfg.acc.fmt, inv, pO, bound.toInt64());
  if (!sums) return out;
  const AccSpec &acc = q.cfg.acc;
  const std::vector<Term> terms = positiveTerms(q.cfg, inv.grid);
  // B's rounded tree values rnd(S 2^XB): XB = g (σ(B) = 0), the same at every code pair.
  // The last entry is the -0 of a sum of negative zeros (S = 0, allNegZero). Only S >= 0:
  // every rounding mode and subnormal mode rounds -x to -rnd(x), each placement's root is
  // that of its tree value's magnitude with the sign carried, and both relations compare
  // signs alike, so -S fails at a code pair exactly where S does (mode zero: against the
  // zero of the other sign, and both zeros are tried). The negative half would double the
  // cost of every pair that agrees (e5m2 x e2m1 k = 2 f16 post2/post value: 283 of the 425
  // pairs scanned).
  const Integer XB(int64_t(inv.grid));
  auto sumOf = [](int64_t S, bool allNegZero, const Integer &X) {
    const bool f = false;
    return SumAcc<ConcreteDomain>{f, f, f, allNegZero, Integer(S), X};
  };
  std::vector<CVal> TB;
  {
    ConcreteDomain d;
    TB.reserve(sums->size() + 1);
    for (int64_t S : *sums) TB.push_back(roundAcc(d, sumFinish(d, sumOf(S, false, XB)), acc));
    TB.push_back(roundAcc(d, sumFinish(d, sumOf(0, true, XB)), acc));
  }
  // The pairs within the budget: a prefix, each pair costing TB.size() evaluations.
  const size_t n = std::min(pairs.size(), size_t(std::max(maxEvaluations, 0L) / long(TB.size())));
  out.pairsScanned = n;
  // One pair's first sum whose roots are not related, as an input (nullopt: none that an
  // input makes).
  auto scanPair = [&](int xa, int xb) -> std::optional<Witness> {
    ConcreteDomain d;
    const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
    const Integer XO = XB + sideScale(d, pO, s);
    auto relatedBO = [&](const CVal &RB, const CVal &RO) {
      return inv.baseIsRhs ? related(d, RO, RB, q.rel) : related(d, RB, RO, q.rel);
    };
    // O's roots that do not depend on S, computed once per pair: mode zero's two zeros.
    std::vector<CVal> zeroRoots;
    if (inv.mode == InvariantMode::Zero)
      for (bool negZero : {false, true})
        zeroRoots.push_back(placementRoot(d, pO, q.cfg, roundAcc(d, sumFinish(d, sumOf(0, negZero, XO)), acc), s));
    for (size_t i = 0; i < TB.size(); ++i) {
      const bool negZero = i + 1 == TB.size();
      const int64_t S = negZero ? 0 : (*sums)[i];
      const CVal RB = placementRoot(d, pB, q.cfg, TB[i], s);
      // O's sums: the same units at 2^XO (mode scaled; B's own rounded sum when XO = XB), or a
      // zero of either sign (mode zero).
      bool differs = false;
      if (inv.mode == InvariantMode::Scaled) {
        const CVal TO = XO == XB ? TB[i] : roundAcc(d, sumFinish(d, sumOf(S, negZero, XO)), acc);
        differs = !relatedBO(RB, placementRoot(d, pO, q.cfg, TO, s));
      } else {
        for (const CVal &RO : zeroRoots) differs = differs || !relatedBO(RB, RO);
      }
      if (!differs) continue;
      std::optional<Witness> w = inputWithSum(q, xa, xb, Integer(S < 0 ? -S : S), S < 0, negZero, terms);
      if (w) return w;  // one candidate per pair
    }
    return std::nullopt;
  };
  // The pairs are independent: `threads` workers claim them one at a time, and the
  // candidates are collected in the pairs' order, so the result does not depend on threads.
  std::vector<std::optional<Witness>> found(n);
  forEachIndex(n, threads, [&](size_t i) { found[i] = scanPair(pairs[i].first, pairs[i].second); });
  for (std::optional<Witness> &w : found)
    if (w) out.candidates.push_back(std::move(*w));
  return out;
}

}  // namespace mxcert::engine

// models/induction.h — an invariant over subtrees that makes one proof hold for EVERY
// reduction tree over k terms (`--tree any`), generic over the domain.
//
// Both placements reduce over the same tree: R = root(Tree(leaf(a_i, b_i))) (placement.h), where
// every inner node rounds the exact sum of its children. The tree values of each side carry
// a scale σ: σ = e for pre and dequant (their leaves are scaled), σ = 0 for post and post2
// (post2's leaves are post's; its scales enter at the root). One side is the *base* B (post
// when exactly one side is post; else post2 beside pre or dequant; else lhs), the other side
// O; the leaves of B are multiples of 2^g (g = qa + qb, the product quantum) once B's scale
// is taken out. With XB = g + σ(B),
// XO = g + σ(O) and a unit bound U (at least the largest finite |leaf| of B in units of 2^XB;
// the synthesizer rounds it up where some n U is not representable, so that the node step can
// hold), the invariant on a subtree with n leaves is the set I(n) of value pairs (VB, VO):
//   * the same class: VB is NaN iff VO is, VB is an infinity iff VO is, of the same sign;
//   * when finite, VB = (-1)^s N 2^XB with 0 <= N <= n U, and
//       mode Scaled: VO = (-1)^s N 2^XO  (VO = 2^(σ(O) - σ(B)) VB exactly, signed zeros too);
//       mode Zero:   VO is a zero of either sign (everything on O's side has rounded away);
//       mode Equal:  VO = VB (only where both sides carry the same scale: the same placement,
//                    or pre and dequant; no bound or grid is needed, n plays no part).
// Exact partial sums (SumAcc) of children in I(n_1), ..., I(n_m) lie in J(n_1 + ... + n_m):
// the same special flags; B's sum S 2^XB with |S| <= n U; Scaled: O's sum S 2^XO with the
// same all-negative-zero flag; Zero: O's sum 0; Equal: the same sum (any S).
// With noInf, I(n) and J(n) also hold no infinity (on either side; a NaN may be there).
// With infAsNaN (mode Zero only), the same class is replaced by: VO is NaN iff VB is NaN or an
// infinity, and VO is never an infinity (O's rounded-away scale turns B's infinities into
// 0 * inf = NaN); J(n): O's NaN flag is B's NaN-or-infinity, O has no infinity.
//
// The steps (each proven by a solver over a region of code pairs, n a variable; docs/bounds.md,
// "Every reduction order"):
//   leaf   (leaf_B(a, b), leaf_O(a, b)) in I(1) for all element codes a, b;
//   start  (VB, VO) in I(n)                      => the sum of one child  in J(n);
//   add    (SB, SO) in J(n1), (VB, VO) in I(n2), n1 + n2 <= k => one more child in J(n1 + n2);
//   node   (SB, SO) in J(n), n <= k - 1          => (rnd SB, rnd SO) in I(n);
//   root   (SB, SO) in J(k)                      => root_B(rnd SB) ~ root_O(rnd SO) (the relation);
//   root1  (k = 1 only) (VB, VO) in I(1)         => root_B(VB) ~ root_O(VO).
// Then by induction over any tree (every inner node has >= 2 children, so a non-root node has
// at most k - 1 leaves; the fan-in never enters): every leaf pair is in I(1), every non-root
// node's pair in I(n), the root's children sum to a pair in J(k), and the placements agree.
// A class of trees whose non-root nodes have at most m leaves (placement.h, everyTreeConfig)
// takes m for k - 1 in start, add (the child) and node (2 <= n <= m); with m = 1, the fused
// tree's class (every child of the root is a leaf), there is no non-root inner node and no
// node step: leaf, start and add with one leaf at a time build J(k) exactly, and root closes
// it (inductionSteps(cfg)).
//
// The membership tests below compare VALUES (a concrete value need not use exponent XB), so
// the same code checks the invariant on concrete trees (tests) and states it for the solver.
#pragma once

#include "models/placement.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace mxcert {

/// Which invariant family (see file comment).
enum class InvariantMode { Scaled, Zero, Equal };
const char *toString(InvariantMode m);
std::optional<InvariantMode> parseInvariantMode(const std::string &s);

/// One induction step (see file comment).
enum class InductionStep { Leaf, Start, Add, Node, Root, Root1 };
const char *toString(InductionStep s);
std::optional<InductionStep> parseInductionStep(const std::string &s);
/// The steps a proof over k leaves needs, in the order the engine tries them: leaf, root1 for
/// k = 1; leaf, root, start, add for k = 2 (no non-root inner node exists); leaf, root, node,
/// start, add otherwise.
std::vector<InductionStep> inductionSteps(int k);
/// The steps of cfg's induction: an any-order cfg's own, a fixed tree's those of its class
/// (everyTreeConfig). inductionSteps(k) less the node step where no tree of the class has a
/// non-root inner node (inductionSubtreeBound < 2: k <= 2, or a fused tree's class).
std::vector<InductionStep> inductionSteps(const ModelConfig &cfg);

/// The parameters of an invariant: everything the steps' queries are built from besides the
/// configuration, placements, relation and region. Chosen by the synthesizer, recorded in the
/// certificate; the steps' proofs are what make it right.
struct Invariant {
  InvariantMode mode = InvariantMode::Scaled;
  /// The side whose values are multiples of 2^XB (see file comment): false = lhs, true = rhs.
  bool baseIsRhs = false;
  int grid = 0;       ///< g: B's finite values are multiples of 2^(g + σ(B))
  Integer unit;       ///< U: one leaf of B is at most U 2^XB in magnitude
  /// No infinities: neither side's value (or partial sum) is an infinity (NaN allowed). The
  /// leaf step proves it of the leaves and the node step of every rounded sum of at most m
  /// leaves (|S| <= n U 2^XB must round below the overflow threshold); it lets the root step
  /// rule out an infinite tree value, which no input may reach but which a scaling by +0 turns
  /// into NaN on one side only (post2's rnd(2^s) = +0 arm). Offered where no element is an
  /// infinity (candidateInvariants) and tried only after the same invariant without it failed
  /// at the root step on an infinite value (proveAnyOrder), so the regions that need no such
  /// bound keep their proofs.
  bool noInf = false;
  /// Infinities as NaN (mode Zero only): O is NaN exactly where B is NaN or an infinity, and
  /// never an infinity. Where O's scale rounds to +0 (dequant's rnd(a 2^sa) flushed, f16
  /// ftz, xa <= 112), an infinite element b makes O's leaf 0 * inf = NaN where B's (post2's
  /// unscaled) leaf is an infinity, so mode Zero's "the same class" fails at the leaf step;
  /// post2's own rnd(2^sa) = +0 then turns B's infinite tree value into NaN at the root
  /// (e3m2 x e5m2 k = 32 f16 rtz ftz pairwise post2/dequant value, xa <= 108: every pair
  /// agrees). Offered where an element format has infinities (candidateInvariants) and tried
  /// only after the plain mode Zero failed at its leaf step on an infinite element
  /// (proveAnyOrder).
  bool infAsNaN = false;
  bool operator==(const Invariant &o) const {
    return mode == o.mode && baseIsRhs == o.baseIsRhs && grid == o.grid && unit == o.unit && noInf == o.noInf &&
           infAsNaN == o.infAsNaN;
  }
  /// "scaled, base post, grid 2^-2, unit 144" (", no infinities" when noInf, ", infinities as
  /// NaN" when infAsNaN).
  std::string str(Placement lhs, Placement rhs) const;
};

/// σ(p) as a term: e for pre and dequant, 0 for post and post2 (whose leaves are post's,
/// rnd(a_i b_i): the scales enter only at the root, which the root step evaluates).
template <class D> typename D::Int sideScale(D &d, Placement p, const Scales<D> &s) {
  switch (p) {
  case Placement::Pre:
  case Placement::Dequant: return s.e;
  case Placement::Post:
  case Placement::Post2: return d.lit(0);
  }
  throw std::logic_error("unknown placement");
}

/// A value's magnitude in units of 2^base: (whether it is a whole number of units, the
/// number). The exponent difference must be known (always so for the symbolic steps, where
/// values keep their exponent terms; concrete values are exact).
template <class D>
std::pair<typename D::Bool, typename D::Int> unitsOf(D &d, const typename D::Int &N, const typename D::Int &X,
                                                     const typename D::Int &base) {
  const typename D::Int delta = d.sub(X, base);
  const std::optional<Integer> c = d.constant(delta);
  if (!c) {
    if (d.range(delta).lo.sign() < 0) throw EncodingLimit("an exponent below the invariant's grid");
    return {d.litB(true), shlVar(d, N, delta)};
  }
  if (c->sign() >= 0) return {d.litB(true), d.mulc(N, Integer::pow2(unsigned(c->toInt64())))};
  const unsigned j = unsigned((-*c).toInt64());
  DivMod<typename D::Int> qr = d.divPow2(N, j);
  return {d.eq(qr.r, d.lit(0)), qr.q};
}

/// (VB, VO) in I(n) (see file comment); n a term.
template <class D>
typename D::Bool inSubtreeInvariant(D &d, const Invariant &inv, const Val<D> &B, const Val<D> &O,
                                    const typename D::Int &n, const typename D::Int &XB,
                                    const typename D::Int &XO) {
  using Bool = typename D::Bool;
  // No infinities (noInf): neither value is an infinity that is not a NaN.
  const Bool noInf = inv.noInf ? d.land(d.lnot(d.land(B.inf, d.lnot(B.nan))), d.lnot(d.land(O.inf, d.lnot(O.nan))))
                               : d.litB(true);
  if (inv.mode == InvariantMode::Equal) return d.land(related(d, B, O, Relation::Bitwise), noInf);
  const Bool sameSign = d.lnot(d.lxor(B.neg, O.neg));
  Bool cls = d.land(d.lnot(d.lxor(B.nan, O.nan)), d.lnot(d.lxor(B.inf, O.inf)));
  cls = d.land(cls, d.lor(d.lnot(d.land(B.inf, d.lnot(B.nan))), sameSign));
  if (inv.infAsNaN)  // O is NaN iff B is NaN or an infinity; O is no infinity (a NaN may carry the flag)
    cls = d.land(d.lnot(d.lxor(d.lor(B.nan, B.inf), O.nan)), d.lnot(d.land(O.inf, d.lnot(O.nan))));
  auto [onGridB, unitsB] = unitsOf(d, B.N, B.X, XB);
  Bool shape = d.land(onGridB, d.le(unitsB, d.mulc(n, inv.unit)));
  if (inv.mode == InvariantMode::Scaled) {
    auto [onGridO, unitsO] = unitsOf(d, O.N, O.X, XO);
    shape = d.land(shape, d.land(d.land(onGridO, d.eq(unitsO, unitsB)), sameSign));
  } else {
    shape = d.land(shape, d.eq(O.N, d.lit(0)));
  }
  return d.land(d.land(cls, d.lor(d.lnot(isFinite(d, B)), shape)), noInf);
}

/// (SB, SO) in J(n) (see file comment); n a term.
template <class D>
typename D::Bool inSumInvariant(D &d, const Invariant &inv, const SumAcc<D> &B, const SumAcc<D> &O,
                                const typename D::Int &n, const typename D::Int &XB, const typename D::Int &XO) {
  using Bool = typename D::Bool;
  auto same = [&](const Bool &x, const Bool &y) { return d.lnot(d.lxor(x, y)); };
  Bool flags = d.land(same(B.anyNaN, O.anyNaN), d.land(same(B.posInf, O.posInf), same(B.negInf, O.negInf)));
  if (inv.infAsNaN)  // O's NaN flag is B's NaN-or-infinity; O sums no infinity
    flags = d.land(same(d.lor(B.anyNaN, d.lor(B.posInf, B.negInf)), O.anyNaN),
                   d.land(d.lnot(O.posInf), d.lnot(O.negInf)));
  if (inv.noInf) {
    // No infinities: a sum with an infinite term and no NaN is none (both sides).
    auto finiteOrNaN = [&](const SumAcc<D> &x) { return d.lor(x.anyNaN, d.land(d.lnot(x.posInf), d.lnot(x.negInf))); };
    flags = d.land(flags, d.land(finiteOrNaN(B), finiteOrNaN(O)));
  }
  if (inv.mode == InvariantMode::Equal) {
    Aligned<D> al = align(d, B.S, B.X, O.S, O.X);
    return d.land(flags, d.land(same(B.allNegZero, O.allNegZero), d.eq(al.A, al.B)));
  }
  auto [onGridB, unitsB] = unitsOf(d, B.S, B.X, XB);
  const typename D::Int bound = d.mulc(n, inv.unit);
  Bool shape = d.land(onGridB, d.land(d.le(unitsB, bound), d.le(d.neg(bound), unitsB)));
  if (inv.mode == InvariantMode::Scaled) {
    auto [onGridO, unitsO] = unitsOf(d, O.S, O.X, XO);
    shape = d.land(shape, d.land(d.land(onGridO, d.eq(unitsO, unitsB)), same(B.allNegZero, O.allNegZero)));
  } else {
    shape = d.land(shape, d.eq(O.S, d.lit(0)));
  }
  return d.land(flags, shape);
}

/// The free components of an abstract pair in I(n) (the step queries' inputs).
template <class D> struct SubtreeVars {
  typename D::Bool nan, inf, neg, negO;  ///< negO: O's zero sign in mode Zero
  typename D::Int N;
};

/// The pair (VB, VO) the components describe: every pair of I(n) is one of these (with N
/// at most n U, which the step asserts), and each of these with N <= n U is in I(n).
template <class D>
std::pair<Val<D>, Val<D>> subtreePair(D &d, const Invariant &inv, const SubtreeVars<D> &v, const typename D::Int &XB,
                                      const typename D::Int &XO) {
  Val<D> B{v.nan, v.inf, v.neg, v.N, XB, kPrecUnknown};
  if (inv.mode == InvariantMode::Equal) return {B, B};
  if (inv.mode == InvariantMode::Scaled) return {B, Val<D>{v.nan, v.inf, v.neg, v.N, XO, kPrecUnknown}};
  if (inv.infAsNaN) return {B, Val<D>{d.lor(v.nan, v.inf), d.litB(false), v.negO, d.lit(0), XO, 0}};
  return {B, Val<D>{v.nan, v.inf, d.iteB(v.inf, v.neg, v.negO), d.lit(0), XO, 0}};
}

/// The free components of an abstract pair in J(n).
template <class D> struct SumVars {
  typename D::Bool anyNaN, posInf, negInf, allNegZero, allNegZeroO;  ///< allNegZeroO: mode Zero
  typename D::Int S;
};

/// The pair of sum states the components describe (as subtreePair, with |S| <= n U asserted).
template <class D>
std::pair<SumAcc<D>, SumAcc<D>> sumPair(D &d, const Invariant &inv, const SumVars<D> &v, const typename D::Int &XB,
                                        const typename D::Int &XO, const typename D::Int &zero) {
  SumAcc<D> B{v.anyNaN, v.posInf, v.negInf, v.allNegZero, v.S, XB};
  if (inv.mode == InvariantMode::Equal) return {B, B};
  if (inv.mode == InvariantMode::Scaled) return {B, SumAcc<D>{v.anyNaN, v.posInf, v.negInf, v.allNegZero, v.S, XO}};
  if (inv.infAsNaN)
    return {B, SumAcc<D>{d.lor(v.anyNaN, d.lor(v.posInf, v.negInf)), d.litB(false), d.litB(false), v.allNegZeroO,
                         zero, XO}};
  return {B, SumAcc<D>{v.anyNaN, v.posInf, v.negInf, v.allNegZeroO, zero, XO}};
}

}  // namespace mxcert

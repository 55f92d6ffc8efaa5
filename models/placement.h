// models/placement.h — the four scale placements of SPEC §5, generic over the domain.
//
// With scale codes xa, xb (sa = xa - 127, sb = xb - 127, e = sa + sb), element pairs
// (a_i, b_i), exact products t_i = a_i * b_i and rnd the accumulator rounding:
//   pre     R = Tree(rnd(2^e t_i))
//   post    D = Tree(rnd(t_i)),  R = rnd(2^e D)
//   dequant A_i = rnd(2^sa a_i), B_i = rnd(2^sb b_i), R = Tree(rnd(A_i B_i))
//   post2   S_a = rnd(2^sa), S_b = rnd(2^sb), R = rnd(rnd(D S_a) S_b)
// and if xa or xb is 255 every placement gives NaN.
#pragma once

#include "models/arith.h"
#include "models/tree.h"

#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace mxcert {

/// A scale placement (SPEC §5).
enum class Placement { Pre, Post, Dequant, Post2 };

/// "pre", "post", "dequant", "post2".
const char *toString(Placement p);
/// Parses a placement name; nullopt when unknown.
std::optional<Placement> parsePlacement(const std::string &s);
/// All placements in SPEC order.
const std::vector<Placement> &allPlacements();
/// Whether the placement's result depends on the scale codes only through e = sa + sb.
bool dependsOnEOnly(Placement p);
/// Relation names.
const char *toString(Relation r);
std::optional<Relation> parseRelation(const std::string &s);

/// Everything that fixes the arithmetic of one MX block dot product: element formats, the
/// accumulator with its options, and the reduction tree (k = tree.k()).
struct ModelConfig {
  ElementFormat a;
  ElementFormat b;
  AccSpec acc;
  Tree tree;
  /// The scale format: e8m0 (MX, SPEC §5) or e4m3 (NVFP4, models/nvfp4.h).
  ScaleFormat scale = ScaleFormat::E8M0;
  /// 0: the question is about the one tree `tree`. N >= 2: about EVERY tree over the k
  /// leaves whose inner nodes have at most N children (`--tree any` / `any:N`, models/tree.h;
  /// N >= k: no limit). `tree` is then seq(k), which fixes k and nothing else: no evaluator
  /// may evaluate such a configuration as one tree (evalPlacement refuses it); a witness
  /// names its own tree (configWithTree).
  int anyOrder = 0;
  /// With anyOrder: the largest number of leaves of a non-root node of the trees in question
  /// (0: k - 1, every tree). Set only by everyTreeConfig, never read from a file.
  int maxSubtree = 0;
  int k() const { return tree.k(); }
  /// Whether the blocks are NVFP4 (e4m3 scales).
  bool nvfp4() const { return scale == ScaleFormat::E4M3; }
  /// The largest scale code of the configuration's tables: 254 (MX, e8m0; 255 is NaN and in
  /// no table) or 127 (NVFP4, e4m3 codes 0..127 with 127 = NaN inside).
  int maxTableCode() const { return nvfp4() ? E4m3ScaleCode::kMaxCode : ScaleCode::kMaxFinite; }
};

/// Why `cfg` cannot run with --subnormals daz, or "" (always "" in the other modes): DAZ is
/// defined for MX scales where every element value is normal (or zero) in the accumulator,
/// so that the only operand that can be subnormal after FTZ is a dequant scale factor
/// (docs/semantics.md). Every reader of a configuration (command line, certificate) refuses
/// such a configuration with this reason.
std::string dazUnsupported(const ModelConfig &cfg);

/// The tree as configurations name it: "any" / "any:N" for any-order, else the S-expression.
std::string treeText(const ModelConfig &cfg);
/// `cfg` with the one tree `t` (k must match): the configuration a witness of an any-order
/// table is evaluated in.
ModelConfig configWithTree(const ModelConfig &cfg, const Tree &t);
/// For a fixed-tree cfg: the question about every tree over its k leaves (`--tree any`, no
/// fan-in limit) whose non-root nodes have at most m leaves, m = the largest non-root inner
/// node of cfg's tree, or 1 where it has none (fused: every child of the root is a leaf; the
/// class is that tree alone), for k >= 3 (maxSubtree; seq: m = k - 1, every tree). cfg's tree is one
/// of them, so the induction steps (models/induction.h) of this question prove agreement for
/// it: a fixed-tree table may prove a region with them (docs/solver.md, "Fixed trees proven
/// by the induction"); the steps' queries are stated for this configuration, by the
/// synthesizer and the checker alike.
ModelConfig everyTreeConfig(const ModelConfig &cfg);
/// The largest number of leaves of a non-root subtree the induction steps of an any-order
/// cfg allow: maxSubtree, or k - 1.
inline int inductionSubtreeBound(const ModelConfig &cfg) { return cfg.maxSubtree ? cfg.maxSubtree : cfg.k() - 1; }

/// The inputs of one block: decoded elements and the two scale codes (0..255).
template <class D> struct BlockInput {
  std::vector<Val<D>> a, b;
  typename D::Int xa, xb;
};

/// Evaluates `tree` over leaf values: the value of every node, in the tree's node order
/// (children before parents, the root last); each inner node rounds the exact sum of its
/// children.
template <class D>
std::vector<Val<D>> evalTreeNodes(D &d, const Tree &tree, const std::vector<Val<D>> &leaves, const AccSpec &acc) {
  std::vector<Val<D>> val;
  val.reserve(tree.nodes().size());
  for (const Tree::Node &n : tree.nodes()) {
    if (n.leaf >= 0) {
      val.push_back(leaves[size_t(n.leaf)]);
      continue;
    }
    SumAcc<D> s = sumStart(d, val[size_t(n.children[0])]);
    for (size_t i = 1; i < n.children.size(); ++i) s = sumAdd(d, s, val[size_t(n.children[i])]);
    val.push_back(roundAcc(d, sumFinish(d, s), acc));
  }
  return val;
}

/// The value of `tree` over leaf values (its root; see evalTreeNodes).
template <class D>
Val<D> evalTree(D &d, const Tree &tree, const std::vector<Val<D>> &leaves, const AccSpec &acc) {
  return evalTreeNodes(d, tree, leaves, acc).back();
}

/// The scale quantities of one code pair: sa = xa - 127, sb = xb - 127, e = sa + sb, and
/// whether either code is 255 (NaN).
template <class D> struct Scales {
  typename D::Int sa, sb, e;
  typename D::Bool codeNaN;
};

/// The scales of the codes xa, xb.
template <class D>
Scales<D> makeScales(D &d, const typename D::Int &xa, const typename D::Int &xb) {
  typename D::Int sa = d.sub(xa, d.lit(127)), sb = d.sub(xb, d.lit(127));
  return Scales<D>{sa, sb, d.add(sa, sb), d.lor(d.eq(xa, d.lit(255)), d.eq(xb, d.lit(255)))};
}

/// One dequantized element of the dequant placement: rnd(2^s x). Under DAZ the factor 2^s,
/// an operand of that multiplication, reads as +0 when it lies below the accumulator's
/// smallest normal 2^emin: the result is then rnd(x * +0), a zero with x's sign (NaN for an
/// infinite or NaN x, as IEEE's inf * 0).
template <class D>
Val<D> dequantElement(D &d, const AccSpec &acc, const Val<D> &x, const typename D::Int &s) {
  if (acc.subnormals != Subnormals::DAZ) return roundAcc(d, scaleExact(d, x, s), acc);
  Select<D, Val<D>> sel(d);
  sel.when(d.lt(s, d.lit(Integer(int64_t(acc.fmt.emin())))), [&] {
    // The zero factor carries the exponent s, so the product keeps the exponent x.X + s.
    return roundAcc(d, mulExact(d, x, finiteVal(d, d.litB(false), d.lit(0), s)), acc);
  });
  sel.when(d.litB(true), [&] { return roundAcc(d, scaleExact(d, x, s), acc); });
  return sel.result();
}

/// Leaves that are summed (k >= 2) are expressed with the exponent they share (rebase); a
/// lone leaf keeps the product's own form, which post's final rounding then shares with pre's
/// leaf rounding.
template <class D>
Val<D> rebaseLeaf(D &d, const ModelConfig &cfg, const Val<D> &v, const typename D::Int &base) {
  return cfg.k() > 1 ? rebase(d, v, base) : v;
}

/// pre's leaf: rnd(2^e a b). It reads the scales through e alone.
template <class D>
Val<D> preLeaf(D &d, const ModelConfig &cfg, const Val<D> &a, const Val<D> &b, const typename D::Int &e) {
  const int qab = cfg.a.quantumExp() + cfg.b.quantumExp();
  return rebaseLeaf(d, cfg, roundAcc(d, scaleExact(d, mulExact(d, a, b), e), cfg.acc), d.add(e, d.lit(qab)));
}

/// post's and post2's leaf: rnd(a b). It reads no scale.
template <class D>
Val<D> productLeaf(D &d, const ModelConfig &cfg, const Val<D> &a, const Val<D> &b) {
  const int qab = cfg.a.quantumExp() + cfg.b.quantumExp();
  return rebaseLeaf(d, cfg, roundAcc(d, mulExact(d, a, b), cfg.acc), d.lit(qab));
}

/// dequant's leaf from its dequantized elements A = rnd(2^sa a) and B = rnd(2^sb b)
/// (dequantElement): rnd(A B).
template <class D>
Val<D> dequantLeaf(D &d, const ModelConfig &cfg, const Val<D> &A, const Val<D> &B, const Scales<D> &s) {
  const int qab = cfg.a.quantumExp() + cfg.b.quantumExp();
  return rebaseLeaf(d, cfg, roundAcc(d, mulExact(d, A, B), cfg.acc), d.add(s.e, d.lit(qab)));
}

/// Whether two values are the same value in the same representation: equal flags, N and X
/// (the sign is compared too).
template <class D> typename D::Bool sameVal(D &d, const Val<D> &u, const Val<D> &v) {
  auto same = [&](const typename D::Bool &x, const typename D::Bool &y) { return d.lnot(d.lxor(x, y)); };
  return d.land(d.land(same(u.nan, v.nan), same(u.inf, v.inf)),
                d.land(same(u.neg, v.neg), d.land(d.eq(u.N, v.N), d.eq(u.X, v.X))));
}

/// The value placement p feeds into its tree for the element pair (a, b):
///   pre: rnd(2^e a b); post, post2: rnd(a b); dequant: rnd(rnd(2^sa a) rnd(2^sb b)).
/// The result is expressed with the exponent the leaves share (rebase) when possible.
template <class D>
Val<D> placementLeaf(D &d, Placement p, const ModelConfig &cfg, const Val<D> &a, const Val<D> &b,
                     const Scales<D> &s) {
  switch (p) {
  case Placement::Pre:
    return preLeaf(d, cfg, a, b, s.e);
  case Placement::Post:
  case Placement::Post2:
    return productLeaf(d, cfg, a, b);
  case Placement::Dequant: {
    // A before B: a symbolic domain numbers its terms in the order they are made.
    const Val<D> A = dequantElement(d, cfg.acc, a, s.sa);
    const Val<D> B = dequantElement(d, cfg.acc, b, s.sb);
    return dequantLeaf(d, cfg, A, B, s);
  }
  }
  throw std::logic_error("placement");
}

/// dequant's leaf rnd(A B) (dequantLeaf), for A = rnd(2^sa a) and B = rnd(2^sb b), written
/// as a case split whose first arm is pre's leaf: where A = 2^sa a and B = 2^sb b (neither
/// scaling rounded or flushed: the same flags, sign, N and X), A B = 2^(sa + sb) a b =
/// 2^e a b (makeScales: e = sa + sb), so rnd(A B) = rnd(2^e a b), pre's leaf (preLeaf, the
/// same terms in a symbolic domain); elsewhere rnd(A B). Its value is dequantLeaf's on every
/// input (tests/unit/test_rounding.cpp compares the two bit for bit in every accumulator
/// mode).
template <class D>
Val<D> dequantLeafSharingPre(D &d, const ModelConfig &cfg, const Val<D> &a, const Val<D> &b, const Scales<D> &s) {
  // A before B: a symbolic domain numbers its terms in the order they are made.
  const Val<D> A = dequantElement(d, cfg.acc, a, s.sa);
  const Val<D> B = dequantElement(d, cfg.acc, b, s.sb);
  const typename D::Bool exact = d.land(sameVal(d, A, scaleExact(d, a, s.sa)), sameVal(d, B, scaleExact(d, b, s.sb)));
  Select<D, Val<D>> sel(d);
  sel.when(exact, [&] { return preLeaf(d, cfg, a, b, s.e); });
  sel.when(d.litB(true), [&] { return dequantLeaf(d, cfg, A, B, s); });
  return sel.result();
}

/// The leaf of placement p in a query that compares p with `partner`: placementLeaf's value,
/// written so that a symbolic domain can share terms with the partner's leaf. One case
/// differs from placementLeaf: dequant beside pre is dequantLeafSharingPre, whose first arm
/// is pre's leaf itself, so that where dequant's scalings are exact the two leaves are the
/// same terms and the solver need not match two roundings of two different products (the
/// leaf step of e4m3 k = 32 bf16 pre/dequant, where the scalings round only in the
/// subnormals, took about 50 s of cvc5 and takes under 1 s). Beside any other placement the
/// extra arm only adds terms (e5m2 x e2m1 k = 2 bf16 dequant/post value took 17.6-17.9 s
/// with it and 12.3-13.6 s without), so there the leaf is placementLeaf's.
template <class D>
Val<D> placementLeafBeside(D &d, Placement p, Placement partner, const ModelConfig &cfg, const Val<D> &a,
                           const Val<D> &b, const Scales<D> &s) {
  if (p == Placement::Dequant && partner == Placement::Pre) return dequantLeafSharingPre(d, cfg, a, b, s);
  return placementLeaf(d, p, cfg, a, b, s);
}

/// The exponents s for which rnd(2^s) is 2^s itself, lo..hi: lo = emin - p + 1 (the subnormal
/// quantum; emin under ftz and daz, which flush the subnormal powers), hi = emax. Below lo
/// rnd(2^s) is +0, above hi rnd(2^(emax+1)) (mulRoundedPow2; the table engine cuts its regions
/// at these lines, src/engine/solver_table.cpp, scaleArmBoxes).
inline std::pair<int, int> exactPow2Range(const AccSpec &acc) {
  return {acc.subnormals == Subnormals::Keep ? acc.fmt.quantumExp() : acc.fmt.emin(), acc.fmt.emax};
}

/// Whether s lies in exactPow2Range (rnd(2^s) = 2^s): not below lo and not above emax, the
/// same terms as mulRoundedPow2's conditions.
template <class D> typename D::Bool pow2Exact(D &d, const typename D::Int &s, const AccSpec &acc) {
  const auto [lo, hi] = exactPow2Range(acc);
  return d.land(d.lnot(d.lt(s, d.lit(lo))), d.lnot(d.lt(d.lit(hi), s)));
}

/// rnd(V rnd(2^s)): post2's scaling by one of its scales. rnd(2^s) is 2^s itself for
/// lo <= s <= emax (lo = emin - p + 1, the subnormal quantum; emin under ftz and daz, which
/// flush the subnormal ones), +0 below lo (2^(lo-1) is half the quantum: a tie, rounded to
/// the even +0, and anything smaller rounds to +0 under rne and rtz), and rnd(2^(emax+1))
/// above emax (+inf under rne, the largest finite value under rtz). This is roundAcc(2^s)
/// split by the range of s (tests/unit/test_rounding.cpp checks it for every s and every
/// accumulator mode), written so that each arm multiplies V by a value with a constant
/// significand: in the exact arm a scaling by 2^s, whose rounding a symbolic domain handles
/// like post's, instead of the product of two variable significands.
template <class D>
Val<D> mulRoundedPow2(D &d, const Val<D> &V, const typename D::Int &s, const AccSpec &acc) {
  const auto [lo, hi] = exactPow2Range(acc);
  Select<D, Val<D>> sel(d);
  const typename D::Bool below = d.lt(s, d.lit(lo)), above = d.lt(d.lit(hi), s);
  sel.when(below, [&] { return roundAcc(d, mulExact(d, V, finiteVal(d, d.litB(false), d.lit(0), d.lit(lo))), acc); });
  sel.when(above, [&] {
    const Val<D> big = roundAcc(d, pow2Val(d, d.lit(hi + 1)), acc);
    // A finite |V| >= 2 overflows whatever big is: big is +inf, or (2 - 2^(1-p)) 2^emax under
    // rtz, and then |V big| >= (2 - 2^(1-p)) 2^(emax+1) >= 2^(emax+1). So rnd(V big) is the
    // overflow value rnd(±2^(emax+1)) (±inf, or ±the largest finite value under rtz), a
    // constant: a symbolic domain need not round the product of V's significand with big's
    // through every binade to find that out.
    Select<D, Val<D>> ov(d);
    const Interval nr = d.range(V.N);
    // |V| >= 2 (for a finite V), where N can be nonzero.
    std::optional<typename D::Bool> atLeast2;
    if (nr.hi.sign() > 0) {
      atLeast2 = valueAtLeastPow2(d, V.N, nr, V.X, 1, nr.hi.msb());
      ov.when(d.land(isFinite(d, V), *atLeast2),
              [&] { return roundAcc(d, finiteVal(d, V.neg, d.lit(1), d.lit(hi + 1), 1), acc); });
    }
    ov.when(d.litB(true), [&] {
      // Here a finite V has |V| = N 2^X < 2, so N < 2^(1 - X) <= 2^(1 - xlo) for X >= xlo:
      // N is at most 2^(1 - xlo) - 1 (0 when xlo >= 1). The product is rounded from that
      // narrower N (d.within: a symbolic domain proves the bound where the arm holds), not
      // through every binade V's own range allows: after a first scaling by big, a nonzero
      // V is far above 2 and this arm leaves only V = 0.
      Val<D> small = V;
      const Interval xr = d.range(V.X);
      if (atLeast2 && xr.lo > Integer(-4096)) {
        const Integer nMax =
            xr.lo >= Integer(1) ? Integer(0) : Integer::pow2(unsigned((Integer(1) - xr.lo).toInt64())) - 1;
        const typename D::Bool below2 = d.land(isFinite(d, V), d.lnot(*atLeast2));
        if (nMax < nr.hi) small.N = d.within(V.N, below2, Integer(0), nMax);
      }
      return roundAcc(d, mulExact(d, small, big), acc);
    });
    return ov.result();
  });
  sel.when(pow2Exact(d, s, acc), [&] { return roundAcc(d, scaleExact(d, V, s), acc); });
  return sel.result();
}

/// r, or NaN where either scale code is 255 (the last part of every placement's step).
template <class D> Val<D> codeNaNOr(D &d, const Val<D> &r, const Scales<D> &s) {
  Select<D, Val<D>> sel(d);
  sel.when(s.codeNaN, [&] { return nanVal(d, r.X); });
  sel.when(d.lnot(s.codeNaN), [&] { return r; });
  return sel.result();
}

/// The step placement p applies to its tree's result T:
///   pre, dequant: T; post: rnd(2^e T); post2: rnd(rnd(T rnd(2^sa)) rnd(2^sb)).
/// Code 255 on either side gives NaN.
template <class D>
Val<D> placementRoot(D &d, Placement p, const ModelConfig &cfg, const Val<D> &T,
                     const Scales<D> &s) {
  Val<D> r = T;
  if (p == Placement::Post) {
    r = roundAcc(d, scaleExact(d, T, s.e), cfg.acc);
  } else if (p == Placement::Post2) {
    r = mulRoundedPow2(d, mulRoundedPow2(d, T, s.sa, cfg.acc), s.sb, cfg.acc);
  }
  return codeNaNOr(d, r, s);
}

/// post2's step rnd(rnd(T rnd(2^sa)) rnd(2^sb)) (placementRoot, without the code-255 select),
/// written as a split whose first arm is post's step rnd(2^e T): where sa and sb lie in
/// exactPow2Range (rnd(2^sa) = 2^sa, rnd(2^sb) = 2^sb) and the first rounding is exact
/// (F = rnd(T 2^sa) has the flags, sign, N and X of T 2^sa), post2's value is
/// rnd(F 2^sb) = rnd(T 2^(sa + sb)) = rnd(2^e T) (makeScales: e = sa + sb); elsewhere it is
/// rnd(F rnd(2^sb)) as before. Its value is post2's step on every input
/// (tests/unit/test_rounding.cpp compares the two bit for bit in every accumulator mode).
template <class D>
Val<D> post2StepSharingPost(D &d, const ModelConfig &cfg, const Val<D> &T, const Scales<D> &s) {
  const Val<D> F = mulRoundedPow2(d, T, s.sa, cfg.acc);
  const typename D::Bool exact = d.land(d.land(pow2Exact(d, s.sa, cfg.acc), pow2Exact(d, s.sb, cfg.acc)),
                                        sameVal(d, F, scaleExact(d, T, s.sa)));
  Select<D, Val<D>> sel(d);
  sel.when(exact, [&] { return roundAcc(d, scaleExact(d, T, s.e), cfg.acc); });
  sel.when(d.litB(true), [&] { return mulRoundedPow2(d, F, s.sb, cfg.acc); });
  return sel.result();
}

/// The step of placement p on its tree's result T in a query that compares p with `partner`:
/// placementRoot's value, written so that a symbolic domain can share terms with the
/// partner's step where the partner's tree value is the same term (post2's leaves are
/// post's). One case differs from placementRoot:
/// post2 beside post is post2StepSharingPost, whose first arm is post's step itself, so that
/// where post2's first rounding is exact the two results are the same terms (see
/// docs/solver.md, "post2's step beside post"). Elsewhere placementRoot's.
template <class D>
Val<D> placementRootBeside(D &d, Placement p, Placement partner, const ModelConfig &cfg, const Val<D> &T,
                           const Scales<D> &s) {
  if (p == Placement::Post2 && partner == Placement::Post) return codeNaNOr(d, post2StepSharingPost(d, cfg, T, s), s);
  return placementRoot(d, p, cfg, T, s);
}

/// Whether placements p and q apply the same step to their trees' results (placementRoot
/// and nvfp4Root): true for p = q and for {pre, dequant}, whose step is the tree's result
/// itself (then, for MX, the code-255 NaN select, which is the same for both).
inline bool sameRootStep(Placement p, Placement q) {
  auto scalesLeaves = [](Placement x) { return x == Placement::Pre || x == Placement::Dequant; };
  return p == q || (scalesLeaves(p) && scalesLeaves(q));
}

/// The shared-root rule (docs/solver.md, "The abstract analysis", the shared-root rule): for
/// two placements with the same root step over the same tree, R1 = root(Tree(L1_1..L1_k)) and
/// R2 = root(Tree(L2_1..L2_k)). Every operation of Tree and of the step is a function of its
/// operands' values in the bitwise sense (class, sign, magnitude; the sign of a NaN and the
/// significand and exponent an infinity or NaN carries are never read), so leaves that are
/// bitwise related give bitwise related results, and bitwise related results are value
/// related. Contrapositive: R1 and R2 unrelated (either relation) implies that some leaf i has
/// L1_i and L2_i not bitwise related. This returns that disjunction; the encoder conjoins it
/// to the goal "R1 and R2 unrelated", which leaves the goal's models unchanged and gives the
/// solver the leaf-local reason it must refute (no fact of the analysis is involved: the rule
/// is the semantics' own, tested on the reference evaluator).
template <class D>
typename D::Bool someLeafDiffers(D &d, const std::vector<Val<D>> &L1, const std::vector<Val<D>> &L2) {
  if (L1.size() != L2.size()) throw std::logic_error("someLeafDiffers: leaf counts differ");
  typename D::Bool any = d.litB(false);
  for (size_t i = 0; i < L1.size(); ++i) any = d.lor(any, d.lnot(related(d, L1[i], L2[i], Relation::Bitwise)));
  return any;
}

/// R for placement p on one block (SPEC §5): root(Tree(leaf(a_i, b_i))).
template <class D>
Val<D> evalPlacement(D &d, Placement p, const ModelConfig &cfg, const BlockInput<D> &in) {
  if (cfg.anyOrder)
    throw std::logic_error("an any-order configuration has no single tree to evaluate (use configWithTree)");
  Scales<D> s = makeScales(d, in.xa, in.xb);
  std::vector<Val<D>> leaves;
  leaves.reserve(size_t(cfg.k()));
  for (int i = 0; i < cfg.k(); ++i)
    leaves.push_back(placementLeaf(d, p, cfg, in.a[size_t(i)], in.b[size_t(i)], s));
  return placementRoot(d, p, cfg, evalTree(d, cfg.tree, leaves, cfg.acc), s);
}

}  // namespace mxcert

// smt/induction_encoder.cpp — the any-order induction steps as queries (see induction_encoder.h).
#include "smt/induction_encoder.h"

#include <stdexcept>

namespace mxcert::smt {

namespace {

/// The step's abstract inputs, declared in the store.
class StepInputs {
public:
  StepInputs(TermDomain &d, const Query &q, const SInt &XB, const SInt &XO)
      : d_(d), q_(q), XB_(XB), XO_(XO), k_(q.cfg.k()) {}

  /// A free Boolean (an integer variable in 0..1 equal to 1).
  SBool flag(const std::string &name) {
    SInt v{d_.store().intVar(name, 0, 1)};
    return d_.eq(v, d_.lit(1));
  }
  /// A leaf count variable in lo..hi (a constant when lo == hi).
  SInt count(const std::string &name, int lo, int hi) {
    if (lo == hi) return d_.lit(lo);
    return SInt{d_.store().intVar(name, lo, hi)};
  }
  /// A pair of I(n) for a subtree of at most nMax leaves, its membership asserted.
  std::pair<Val<TermDomain>, Val<TermDomain>> subtree(const std::string &tag, const SInt &n, int nMax) {
    SubtreeVars<TermDomain> v{flag("nan" + tag), flag("inf" + tag), flag("neg" + tag),
                              q_.inv.mode == InvariantMode::Zero ? flag("negO" + tag) : d_.litB(false),
                              SInt{d_.store().intVar("N" + tag, 0, q_.inv.unit * Integer(nMax))}};
    auto pr = subtreePair(d_, q_.inv, v, XB_, XO_);
    d_.store().assertTrue(inSubtreeInvariant(d_, q_.inv, pr.first, pr.second, n, XB_, XO_).t);
    return pr;
  }
  /// A pair of J(n) for a sum over at most nMax leaves, its membership asserted.
  std::pair<SumAcc<TermDomain>, SumAcc<TermDomain>> sum(const std::string &tag, const SInt &n, int nMax) {
    const Integer bound = q_.inv.unit * Integer(nMax);
    SumVars<TermDomain> v{flag("anyNaN" + tag), flag("posInf" + tag), flag("negInf" + tag), flag("allNegZero" + tag),
                          q_.inv.mode == InvariantMode::Zero ? flag("allNegZeroO" + tag) : d_.litB(false),
                          SInt{d_.store().intVar("S" + tag, -bound, bound)}};
    auto pr = sumPair(d_, q_.inv, v, XB_, XO_, d_.lit(0));
    d_.store().assertTrue(inSumInvariant(d_, q_.inv, pr.first, pr.second, n, XB_, XO_).t);
    return pr;
  }

private:
  TermDomain &d_;
  const Query &q_;
  SInt XB_, XO_;
  int k_;
};

}  // namespace

void encodeInductionStep(TermDomain &d, const Query &q, const Scales<TermDomain> &s) {
  if (!q.cfg.anyOrder) throw std::logic_error("an induction step needs an any-order configuration");
  if (q.cfg.nvfp4()) throw std::logic_error("no any-order induction for nvfp4");
  const int k = q.cfg.k();
  // The largest non-root subtree of the trees in question (k - 1: every tree).
  const int m = inductionSubtreeBound(q.cfg);
  if (m < 0 || m > k - 1) throw std::logic_error("the subtree bound must lie in 0 .. k - 1");
  const Invariant &inv = q.inv;
  const Placement pB = inv.baseIsRhs ? q.rhs : q.lhs, pO = inv.baseIsRhs ? q.lhs : q.rhs;
  const SInt XB = d.add(d.lit(inv.grid), sideScale(d, pB, s));
  const SInt XO = d.add(d.lit(inv.grid), sideScale(d, pO, s));
  if (inv.mode == InvariantMode::Equal && *q.step != InductionStep::Leaf) {
    // Equal values on both sides (VO = VB, or the same partial sum): every other step applies
    // the same operation to both (a rounded sum, or the identity root of pre and dequant), so
    // its conclusion is the same term on both sides; the query is the constant false (the
    // same computation by the semantics alone; docs/solver.md).
    auto rootIsIdentity = [](Placement p) { return p == Placement::Pre || p == Placement::Dequant; };
    if (!(pB == pO || (rootIsIdentity(pB) && rootIsIdentity(pO))))
      throw std::logic_error("the equal invariant needs the same root on both sides");
    d.store().assertGoal(d.litB(false).t);
    return;
  }
  StepInputs in(d, q, XB, XO);
  const AccSpec &acc = q.cfg.acc;
  TermStore &st = d.store();
  // The relation of the two placements' results, in lhs/rhs order.
  auto relatedBO = [&](const Val<TermDomain> &RB, const Val<TermDomain> &RO) {
    return inv.baseIsRhs ? related(d, RO, RB, q.rel) : related(d, RB, RO, q.rel);
  };
  SBool goal;
  switch (*q.step) {
  case InductionStep::Leaf: {
    SInt a{st.intVar("a0", 0, int(q.cfg.a.numCodes()) - 1)};
    SInt b{st.intVar("b0", 0, int(q.cfg.b.numCodes()) - 1)};
    Val<TermDomain> A = decodeElement(d, q.cfg.a, a), B = decodeElement(d, q.cfg.b, b);
    Val<TermDomain> LB = placementLeafBeside(d, pB, pO, q.cfg, A, B, s);
    Val<TermDomain> LO = placementLeafBeside(d, pO, pB, q.cfg, A, B, s);
    goal = d.lnot(inSubtreeInvariant(d, inv, LB, LO, d.lit(1), XB, XO));
    break;
  }
  case InductionStep::Start: {
    // A child of an inner node is a non-root subtree: at most m leaves (k - 1 for every tree).
    SInt n = in.count("n", 1, m);
    auto [VB, VO] = in.subtree("", n, m);
    goal = d.lnot(inSumInvariant(d, inv, sumStart(d, VB), sumStart(d, VO), n, XB, XO));
    break;
  }
  case InductionStep::Add: {
    SInt n1 = in.count("n1", 1, k - 1), n2 = in.count("n2", 1, m);
    SInt n = d.add(n1, n2);
    st.assertTrue(d.le(n, d.lit(k)).t);
    auto [SB, SO] = in.sum("", n1, k - 1);
    auto [VB, VO] = in.subtree("", n2, m);
    goal = d.lnot(inSumInvariant(d, inv, sumAdd(d, SB, VB), sumAdd(d, SO, VO), n, XB, XO));
    break;
  }
  case InductionStep::Node: {
    // A non-root inner node: 2 .. m leaves.
    if (k < 3 || m < 2) throw std::logic_error("the node step needs k >= 3 (no non-root inner node exists below)");
    SInt n = in.count("n", 2, m);
    auto [SB, SO] = in.sum("", n, m);
    Val<TermDomain> RB = roundAcc(d, sumFinish(d, SB), acc), RO = roundAcc(d, sumFinish(d, SO), acc);
    goal = d.lnot(inSubtreeInvariant(d, inv, RB, RO, n, XB, XO));
    break;
  }
  case InductionStep::Root: {
    if (k < 2) throw std::logic_error("the root step needs k >= 2 (k = 1: root1)");
    auto [SB, SO] = in.sum("", d.lit(k), k);
    Val<TermDomain> TB = roundAcc(d, sumFinish(d, SB), acc), TO = roundAcc(d, sumFinish(d, SO), acc);
    if (inv.mode == InvariantMode::Zero) {
      // Mode zero: the root's final scaling rounds the base's value to a zero. Its static
      // precision bound (at most p bits) would only add one solver fact per binade of the
      // sum; without it the final rounding is split into arms the ranges decide (e5m2 k = 32:
      // 94 phases, 5.2 s -> 4 phases, 0.09 s).
      TB.prec = kPrecUnknown;
      TO.prec = kPrecUnknown;
    }
    // post2 scales the rounded tree value twice more, at exponents that vary over the
    // region: with N (in units of the grid) spanning many binades above p bits, each of those
    // roundings splits over every binade of N times the exponents where it can round. Where N
    // spans more than kNormalizeBinades binades above p, the tree value is first written as
    // M 2^X' with M < 2^p (normalizeSignificand), so that the roundings split over the p
    // binades of M instead. (e4m3 k = 32 bf16: the root step's goal over xa:0..11, xb:0..122
    // went from 92 MB of text, undecided after 200 s, to 24 MB, decided in 18 s; e2m1 tables,
    // whose N spans few binades, keep the direct form, which is faster for them.) Not where
    // both scales are constants (a region of one code pair): there the scalings do not vary,
    // and at sa = sb = 0 post2's root is the tree value itself, the same term as pre's or
    // dequant's root, while the normalized form's precision and decided facts, a set per
    // binade of N, would all go to the solver (e5m2 x e4m3 k = 2 f16 ftz pre/post2 value at
    // xa = xb = 127: a root step of 64 phases, 2.3 s; 4 phases, 0.16 s without).
    constexpr unsigned kNormalizeBinades = 16;
    auto wide = [&](const Val<TermDomain> &T) {
      const Interval r = d.range(T.N);
      return r.hi.sign() > 0 && r.hi.msb() + 1 > unsigned(acc.fmt.p) + kNormalizeBinades;
    };
    const bool scalesVary = !d.constant(s.sa) || !d.constant(s.sb);
    if ((pB == Placement::Post2 || pO == Placement::Post2) && scalesVary && wide(TB)) {
      TB = normalizeSignificand(d, TB, unsigned(acc.fmt.p));
      TO = normalizeSignificand(d, TO, unsigned(acc.fmt.p));
      // Its decided facts each in a phase of their own: over xa:0..11, xb:0..119 in bf16,
      // cvc5 had not decided the disjunction of the 116 after 120 s, and proves them one by
      // one in 11.7 s in all.
      st.setSplitDecided(true);
    }
    goal = d.lnot(relatedBO(placementRootBeside(d, pB, pO, q.cfg, TB, s), placementRootBeside(d, pO, pB, q.cfg, TO, s)));
    break;
  }
  case InductionStep::Root1: {
    if (k != 1) throw std::logic_error("the root1 step is for k = 1");
    auto [VB, VO] = in.subtree("", d.lit(1), 1);
    goal = d.lnot(relatedBO(placementRootBeside(d, pB, pO, q.cfg, VB, s), placementRootBeside(d, pO, pB, q.cfg, VO, s)));
    break;
  }
  }
  st.assertGoal(goal.t);
}

}  // namespace mxcert::smt

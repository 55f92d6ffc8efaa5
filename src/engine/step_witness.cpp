// src/engine/step_witness.cpp — inputs made from a failed induction root step's model (see
// step_witness.h).
#include "src/engine/step_witness.h"

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

}  // namespace

std::optional<Witness> rootStepInput(const PairQuery &q, InductionStep step, const Invariant &inv,
                                     const Region &region, const std::map<std::string, Integer> &m) {
  if (step != InductionStep::Root && step != InductionStep::Root1) return std::nullopt;
  if (q.cfg.anyOrder || q.cfg.nvfp4() || inv.mode == InvariantMode::Equal) return std::nullopt;
  const Placement base = inv.baseIsRhs ? q.rhs : q.lhs;
  if (base != Placement::Post && base != Placement::Post2) return std::nullopt;
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
  // The code pair: xa, and e (a constant, the region's lowest, when the model has none).
  const std::optional<Integer> xa = value(m, "xa");
  if (!xa) return std::nullopt;
  const std::optional<Integer> e = value(m, "e");
  const int64_t ev = e ? e->toInt64() : int64_t(std::max(region.e.lo, region.xa.lo + region.xb.lo - 254));
  Witness w;
  w.xa = int(xa->toInt64());
  w.xb = int(ev - w.xa + 254);
  // The leaves: largest term first (each at most what is left), then +0 (or -0 for a sum of
  // negative zeros). A negative sum negates a: the sign bit of a's code.
  const int k = q.cfg.k();
  const unsigned signA = 1u << (q.cfg.a.bits() - 1);
  const std::vector<Term> terms = positiveTerms(q.cfg, inv.grid);
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

}  // namespace mxcert::engine

// smt/term_domain.h — the models' generic semantics instantiated on QF_LIA terms.
//
// TermDomain implements the domain concept of models/domain.h over a TermStore: every
// operation builds (hash-consed, constant-folded) terms, and range/tz/known/values expose
// the store's abstract analysis so that models/arith.h generates only the cases that can
// occur.
#pragma once

#include "smt/term.h"

namespace mxcert::smt {

/// An integer term (distinct type from SBool so that generic code can overload on them).
struct SInt {
  TermRef t;
};
/// A Boolean term.
struct SBool {
  TermRef t;
};

/// The symbolic domain (see file comment). Owns nothing: it writes into a TermStore.
class TermDomain {
public:
  using Int = SInt;
  using Bool = SBool;
  static constexpr bool kSymbolic = true;

  explicit TermDomain(TermStore &s) : s_(s) {}
  TermStore &store() { return s_; }

  Int lit(const Integer &v) { return {s_.intConst(v)}; }
  Bool litB(bool b) { return {s_.boolConst(b)}; }
  Int add(const Int &a, const Int &b) { return {s_.add(a.t, b.t)}; }
  Int sub(const Int &a, const Int &b) { return {s_.sub(a.t, b.t)}; }
  Int neg(const Int &a) { return {s_.mulc(a.t, Integer(-1))}; }
  Int mulc(const Int &a, const Integer &c) { return {s_.mulc(a.t, c)}; }
  Bool eq(const Int &a, const Int &b) { return {s_.eq(a.t, b.t)}; }
  Bool lt(const Int &a, const Int &b) { return {s_.lt(a.t, b.t)}; }
  Bool le(const Int &a, const Int &b) { return {s_.le(a.t, b.t)}; }
  Bool land(const Bool &a, const Bool &b) { return {s_.land(a.t, b.t)}; }
  Bool lor(const Bool &a, const Bool &b) { return {s_.lor(a.t, b.t)}; }
  Bool lnot(const Bool &a) { return {s_.lnot(a.t)}; }
  Bool lxor(const Bool &a, const Bool &b) { return {s_.lxor(a.t, b.t)}; }
  Int ite(const Bool &c, const Int &a, const Int &b) { return {s_.ite(c.t, a.t, b.t)}; }
  Bool iteB(const Bool &c, const Bool &a, const Bool &b) { return {s_.iteB(c.t, a.t, b.t)}; }
  DivMod<Int> divPow2(const Int &x, unsigned j) {
    auto [q, r] = s_.divPow2(x.t, j);
    return {{q}, {r}};
  }
  DivMod<Int> divPow2Within(const Int &x, unsigned j, const Bool &c, const Integer &lo, const Integer &hi) {
    auto [q, r] = s_.divPow2Within(x.t, j, c.t, lo, hi);
    return {{q}, {r}};
  }
  Int within(const Int &x, const Bool &c, const Integer &lo, const Integer &hi) {
    return {s_.within(x.t, c.t, lo, hi)};
  }
  /// A derived bound narrows the analysis interval only without obligations (with them it
  /// would be a fact nothing checks).
  Int narrow(const Int &x, const Interval &r) {
    s_.narrow(x.t, r);
    return x;
  }
  bool obligations() const { return s_.obligations(); }
  void require(const Bool &b, Obligation o) {
    s_.require(b.t, o == Obligation::Coverage ? FactKind::Coverage : FactKind::Precision);
  }
  void assumeValues(const Int &x, const std::vector<Integer> &vals) { s_.assumeValues(x.t, vals); }
  unsigned precBound(unsigned prec, unsigned p) { return s_.perturbPrecision(prec, p); }
  /// With obligations: whether the analysis shows x to have at most p significant bits (a
  /// decision the arithmetic checker re-derives; TermStore::showPrecision).
  bool showPrecision(const Int &x, unsigned p) { return s_.obligations() && s_.showPrecision(x.t, p); }
  /// With obligations and wide value sets (TermStore::setWideValueSets): the same, asked
  /// where neither the static bound nor the range shows it (roundAcc); the value sets may.
  bool valuesShowPrecision(const Int &x, unsigned p) {
    return s_.obligations() && s_.wideValueSets() && s_.showPrecision(x.t, p);
  }
  Interval range(const Int &x) const { return s_.node(x.t).range; }
  /// With obligations and wide value sets (TermStore::setWideValueSets): the least value
  /// >= lo in x's checked value set, recorded where it is above lo as a decision the
  /// arithmetic checker re-derives (Decision::Kind::Values: x takes no value in [lo, result),
  /// stated as the list of x's values outside that range). Otherwise lo.
  Integer leastAtLeast(const Int &x, const Integer &lo) {
    const Node &n = s_.node(x.t);
    if (!s_.obligations() || !s_.wideValueSets() || !n.values) return lo;
    Integer least = lo;
    for (const Integer &v : *n.values)
      if (lo <= v) {
        least = v;
        break;
      }
    if (least == lo) return lo;
    std::vector<Integer> outside;
    for (const Integer &v : *n.values)
      if (v < lo || least <= v) outside.push_back(v);
    s_.assumeValues(x.t, outside);
    return least;
  }
  unsigned tz(const Int &x) const { return s_.node(x.t).tz; }
  std::optional<bool> known(const Bool &b) const { return s_.node(b.t).known; }
  std::optional<Integer> constant(const Int &x) const {
    const Interval &r = s_.node(x.t).range;
    if (r.lo == r.hi) return r.lo;
    return std::nullopt;
  }
  std::optional<std::vector<Integer>> values(const Int &x) const { return s_.node(x.t).values; }
  bool same(const Int &a, const Int &b) const {
    if (a.t == b.t) return true;
    auto ca = constant(a), cb = constant(b);
    return ca && cb && *ca == *cb;
  }

private:
  TermStore &s_;
};

}  // namespace mxcert::smt

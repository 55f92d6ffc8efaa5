// models/domain.h — the value domains the semantics is instantiated on.
//
// mxcert writes the MX state machine ONCE (arith.h, placement.h), generically over a
// "domain" D that supplies integers and booleans. Two domains instantiate it:
//   * ConcreteDomain (this file): D::Int is an exact Integer and D::Bool is bool. This is
//     the reference evaluator.
//   * smt::TermDomain (smt/term_domain.h): D::Int and D::Bool are terms of a QF_LIA formula,
//     each with an abstract value (interval, known trailing zeros, small value sets), so the
//     same code emits the solver encoding and prunes the cases the analysis rules out.
//
// A domain D provides (all members are required; `d` is a D&):
//   using Int, Bool;                         value types
//   static constexpr bool kSymbolic;         true for solver terms
//   Int  d.lit(const Integer&)               integer constant
//   Bool d.litB(bool)                        boolean constant
//   Int  d.add(a, b), d.sub(a, b), d.neg(a)  exact integer arithmetic
//   Int  d.mulc(a, const Integer& c)         multiplication by a constant (linear)
//   Bool d.eq(a, b), d.lt(a, b), d.le(a, b)  comparisons
//   Bool d.land(a, b), d.lor(a, b), d.lnot(a), d.lxor(a, b)
//   Int  d.ite(Bool, Int, Int); Bool d.iteB(Bool, Bool, Bool)
//   DivMod<Int> d.divPow2(x, j)              q = floor(x / 2^j), r = x - q * 2^j in [0, 2^j)
//   DivMod<Int> d.divPow2Within(x, j, c, lo, hi)  the same, needed only where c holds, and
//                                            then known to satisfy lo <= q <= hi (a symbolic
//                                            domain may leave q, r unconstrained elsewhere)
//   Int d.within(x, c, lo, hi)               x, needed only where c holds, and then known to
//                                            lie in [lo, hi] (the concrete domain checks it;
//                                            a symbolic one may return a fresh term equal to
//                                            x where c holds, its range [lo, hi], and make
//                                            "c implies the range" a proof obligation)
//   Int d.narrow(x, Interval r)              x, known (by a derived fact) to lie in r: the
//                                            concrete domain checks it; a symbolic one
//                                            narrows its interval only when it trusts its
//                                            analysis (no obligations)
//   void d.require(Bool b, Obligation o)     b holds on every input: the concrete domain
//                                            checks it, a symbolic one makes it a proof
//                                            obligation of the query (smt/term.h)
//   void d.assumeValues(x, vals)             x takes no value outside vals (a case split
//                                            enumerates them): checked concretely; recorded
//                                            for the arithmetic checker symbolically
//   bool d.obligations()                     whether obligations are wanted (a symbolic
//                                            domain may trust its analysis instead: then
//                                            the model code builds no obligation terms)
//   unsigned d.precBound(prec, p)            a static precision bound as used, for a format of
//                                            p bits (prec; a symbolic domain's test-only
//                                            fault may change it)
//   bool d.showPrecision(x, p)               whether the domain's checked analysis shows that x
//                                            has at most p significant bits (then no precision
//                                            obligation is needed; the concrete domain says
//                                            false and checks the obligations themselves)
//   bool d.valuesShowPrecision(x, p)         the same where neither the static bound nor x's
//                                            range does, through x's value set (a symbolic
//                                            domain with wide value sets only, else false)
//   Interval d.range(x)                      sound bounds on x (exact for concrete values)
//   Integer d.leastAtLeast(x, lo)            a lower bound on the values of x that are at
//                                            least lo: lo, or (a symbolic domain with wide
//                                            value sets) the least value >= lo of x's
//                                            checked value set, a decision its arithmetic
//                                            checker re-derives
//   unsigned d.tz(x)                         x is a multiple of 2^tz (tz <= 4096 cap for 0)
//   std::optional<bool> d.known(Bool)        the value when the analysis knows it
//   std::optional<Integer> d.constant(Int)   the value when the analysis knows it
//   std::optional<std::vector<Integer>> d.values(Int)  all possible values when few
//   bool d.same(a, b)                        a and b are provably the same integer
// Multiplication of two non-constant integers is not linear; arith.h performs it by a case
// split over the values of the operand with fewer possible values (see mulInt).
#pragma once

#include "models/integer.h"

#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace mxcert {

/// What the model code itself claims with d.require.
enum class Obligation {
  Coverage,   ///< some arm of a case split holds
  Precision,  ///< a finite value has at most p significant bits (Val::prec)
};

/// Closed integer interval [lo, hi].
struct Interval {
  Integer lo, hi;
  bool contains(const Integer &v) const { return lo <= v && v <= hi; }
  bool isSingleton() const { return lo == hi; }
};

/// Quotient and remainder of a division by a power of two.
template <class Int> struct DivMod {
  Int q;  ///< floor(x / 2^j)
  Int r;  ///< x - q * 2^j, in [0, 2^j)
};

/// Thrown by the generic code when a symbolic case split would exceed its size cap (for
/// example a shift by an amount with thousands of possible values). The caller narrows the
/// query (smaller exponent interval) and retries; it never indicates a wrong result.
struct EncodingLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The reference domain: exact integers and booleans.
struct ConcreteDomain {
  using Int = Integer;
  using Bool = bool;
  static constexpr bool kSymbolic = false;

  Int lit(const Integer &v) const { return v; }
  Bool litB(bool b) const { return b; }
  Int add(const Int &a, const Int &b) const { return a + b; }
  Int sub(const Int &a, const Int &b) const { return a - b; }
  Int neg(const Int &a) const { return -a; }
  Int mulc(const Int &a, const Integer &c) const { return a * c; }
  Bool eq(const Int &a, const Int &b) const { return a == b; }
  Bool lt(const Int &a, const Int &b) const { return a < b; }
  Bool le(const Int &a, const Int &b) const { return a <= b; }
  Bool land(Bool a, Bool b) const { return a && b; }
  Bool lor(Bool a, Bool b) const { return a || b; }
  Bool lnot(Bool a) const { return !a; }
  Bool lxor(Bool a, Bool b) const { return a != b; }
  Int ite(Bool c, const Int &a, const Int &b) const { return c ? a : b; }
  Bool iteB(Bool c, Bool a, Bool b) const { return c ? a : b; }
  DivMod<Int> divPow2(const Int &x, unsigned j) const { return {x >> j, x.lowBits(j)}; }
  DivMod<Int> divPow2Within(const Int &x, unsigned j, Bool, const Integer &, const Integer &) const {
    return divPow2(x, j);
  }
  Int within(const Int &x, Bool c, const Integer &lo, const Integer &hi) const {
    if (c && !(lo <= x && x <= hi)) throw std::logic_error("a bound where its condition holds does not: " + x.str());
    return x;
  }
  Int narrow(const Int &x, const Interval &r) const {
    if (!r.contains(x)) throw std::logic_error("a derived bound does not hold: " + x.str());
    return x;
  }
  Interval range(const Int &x) const { return {x, x}; }
  Integer leastAtLeast(const Int &, const Integer &lo) const { return lo; }
  void require(Bool b, Obligation) const {
    if (!b) throw std::logic_error("an obligation of the model code does not hold");
  }
  void assumeValues(const Int &x, const std::vector<Integer> &vals) const {
    for (const Integer &v : vals)
      if (v == x) return;
    throw std::logic_error("a case split does not enumerate the value " + x.str());
  }
  unsigned precBound(unsigned prec, unsigned) const { return prec; }
  bool showPrecision(const Int &, unsigned) const { return false; }
  bool valuesShowPrecision(const Int &, unsigned) const { return false; }
  bool obligations() const { return true; }
  unsigned tz(const Int &x) const { return x.isZero() ? 4096u : x.trailingZeros(); }
  std::optional<bool> known(Bool b) const { return b; }
  std::optional<Integer> constant(const Int &x) const { return x; }
  std::optional<std::vector<Integer>> values(const Int &x) const {
    return std::vector<Integer>{x};
  }
  bool same(const Int &a, const Int &b) const { return a == b; }
};

}  // namespace mxcert

// models/arith.h — MX arithmetic as an exact integer state machine, generic over a domain.
//
// A value is a state (nan, inf, neg, N, X): NaN when nan; otherwise ±inf when inf; otherwise
// the finite value (-1)^neg * N * 2^X with an integer N >= 0 (N == 0 is a signed zero). X is
// an integer too, so scaling by 2^s is X + s and every value is exact: no rounding happens
// anywhere except in roundAcc, which implements SPEC §3 exactly once.
//
// For specials, N and X carry no meaning (they are "don't care"); the concrete evaluator's
// comparisons ignore them.
#pragma once

#include "models/domain.h"
#include "models/formats.h"
#include "models/select.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace mxcert {

/// The relations of SPEC §6.
enum class Relation { Bitwise, Value };

/// An exact value state (see file comment).
/// A static bound meaning "the number of significant bits of N is not known".
constexpr unsigned kPrecUnknown = 1u << 20;

template <class D> struct Val {
  using Int = typename D::Int;
  using Bool = typename D::Bool;
  Bool nan, inf, neg;
  Int N, X;
  /// A static (instantiation-independent) bound on the significant bits of N: every finite
  /// N is 0 or odd * 2^j with odd < 2^prec. roundAcc's results have prec <= p, so a value
  /// that is already rounded needs no case split when it is rounded again in a normal
  /// binade (e.g. post's D scaled by 2^e).
  unsigned prec = kPrecUnknown;
  /// A static mark: nonzero when the value is a result of roundAcc for the accumulator with
  /// this key (accKey). Rounding is idempotent (rnd(rnd(x)) = rnd(x): a rounded value is
  /// representable, or an infinity, or flushed to zero, and rounds to itself), so roundAcc
  /// returns such a value unchanged, the same terms (post's final scaling by 2^0).
  unsigned rounded = 0;

  /// Field-wise if-then-else, used by Select.
  static Val ite(D &d, const Bool &c, const Val &a, const Val &b) {
    return Val{d.iteB(c, a.nan, b.nan), d.iteB(c, a.inf, b.inf), d.iteB(c, a.neg, b.neg),
               d.ite(c, a.N, b.N), d.ite(c, a.X, b.X), std::max(a.prec, b.prec),
               a.rounded == b.rounded ? a.rounded : 0u};
  }
};

/// The key of an accumulator specification for Val::rounded (never 0): format, rounding mode
/// and subnormal mode.
inline unsigned accKey(const AccSpec &acc) {
  return 1u + ((unsigned(acc.fmt.p) * 4096u + unsigned(acc.fmt.emax)) * 4u + unsigned(acc.rounding)) * 4u +
         unsigned(acc.subnormals);
}

/// The finite value (-1)^neg * N * 2^X.
template <class D>
Val<D> finiteVal(D &d, typename D::Bool neg, typename D::Int N, typename D::Int X,
                 unsigned prec = kPrecUnknown) {
  return Val<D>{d.litB(false), d.litB(false), neg, std::move(N), std::move(X), prec};
}

/// ±inf. N and X carry no meaning for an infinity; callers pass the N and X of the value
/// that overflowed, so that symbolic states of two placements stay syntactically alike.
template <class D> Val<D> infVal(D &d, typename D::Bool neg, typename D::Int X) {
  return Val<D>{d.litB(false), d.litB(true), neg, d.lit(0), std::move(X), 0};
}
template <class D>
Val<D> infVal(D &d, typename D::Bool neg, typename D::Int N, typename D::Int X, unsigned prec) {
  return Val<D>{d.litB(false), d.litB(true), neg, std::move(N), std::move(X), prec};
}

/// NaN (payloads are not modelled: all NaNs are one value).
template <class D> Val<D> nanVal(D &d, typename D::Int X) {
  return Val<D>{d.litB(true), d.litB(false), d.litB(false), d.lit(0), std::move(X), 0};
}

/// Whether v is finite.
/// (Written as not(nan or inf), the same term as roundAcc's pass-through arm, so that a
/// symbolic domain shares it.)
template <class D> typename D::Bool isFinite(D &d, const Val<D> &v) {
  return d.lnot(d.lor(v.nan, v.inf));
}

/// Whether v is a (signed) zero.
template <class D> typename D::Bool isZero(D &d, const Val<D> &v) {
  return d.land(isFinite(d, v), d.eq(v.N, d.lit(0)));
}

/// The most values a case split over one integer may enumerate (enumValues' default cap).
constexpr size_t kMaxCaseSplitValues = 512;

/// All values x can take: the domain's value set, else its range when at most `cap` long.
/// Throws EncodingLimit when neither is small.
template <class D>
std::vector<Integer> enumValues(D &d, const typename D::Int &x, size_t cap = kMaxCaseSplitValues) {
  if (auto vs = d.values(x)) return *vs;
  Interval r = d.range(x);
  if (r.hi - r.lo >= Integer(int64_t(cap)))
    throw EncodingLimit("case split over " + (r.hi - r.lo + 1).str() + " values");
  std::vector<Integer> out;
  for (Integer v = r.lo; v <= r.hi; v += 1) out.push_back(v);
  return out;
}

/// a * b. Linear when either side is a known constant; otherwise a case split over the
/// values of the operand with fewer possible values.
template <class D>
typename D::Int mulInt(D &d, const typename D::Int &a, const typename D::Int &b) {
  if (auto c = d.constant(a)) return d.mulc(b, *c);
  if (auto c = d.constant(b)) return d.mulc(a, *c);
  auto count = [&](const typename D::Int &x) -> Integer {
    if (auto vs = d.values(x)) return Integer(int64_t(vs->size()));
    Interval r = d.range(x);
    return r.hi - r.lo + 1;
  };
  bool splitA = count(a) <= count(b);
  const auto &s = splitA ? a : b;
  const auto &o = splitA ? b : a;
  Select<D, typename D::Int> sel(d);
  const std::vector<Integer> vals = enumValues(d, s);
  d.assumeValues(s, vals);
  sel.covered();
  for (const Integer &v : vals) sel.when(d.eq(s, d.lit(v)), [&] { return d.mulc(o, v); });
  return sel.result();
}

/// N * 2^k for a non-negative integer amount k (a case split when k is not constant).
template <class D>
typename D::Int shlVar(D &d, const typename D::Int &N, const typename D::Int &k) {
  if (auto c = d.constant(k)) {
    if (c->sign() < 0) throw std::logic_error("shlVar: negative shift");
    return d.mulc(N, Integer::pow2(unsigned(c->toInt64())));
  }
  Select<D, typename D::Int> sel(d);
  const std::vector<Integer> vals = enumValues(d, k);
  d.assumeValues(k, vals);
  sel.covered();
  for (const Integer &v : vals) {
    if (v.sign() < 0) throw std::logic_error("shlVar: negative shift");
    sel.when(d.eq(k, d.lit(v)), [&] { return d.mulc(N, Integer::pow2(unsigned(v.toInt64()))); });
  }
  return sel.result();
}

/// Decodes an element code (an integer in [0, 2^bits)) of format f, generically:
/// sign bit, exponent field E and mantissa field M; significand = M (E == 0) or 2^m + M,
/// exponent X = quantum + max(E - 1, 0); specials per SPEC §2.
template <class D> Val<D> decodeElement(D &d, const ElementFormat &f, const typename D::Int &code) {
  DivMod<typename D::Int> sm = d.divPow2(code, f.bits() - 1);  // sign bit, magnitude bits
  typename D::Bool neg = d.eq(sm.q, d.lit(1));
  DivMod<typename D::Int> em = d.divPow2(sm.r, f.mbits);        // exponent, mantissa fields
  typename D::Bool nan = d.litB(false), inf = d.litB(false);
  const Integer eOnes = Integer::pow2(f.ebits) - 1, mOnes = Integer::pow2(f.mbits) - 1;
  if (f.specials == SpecialKind::NanOnlyMax) {
    nan = d.land(d.eq(em.q, d.lit(eOnes)), d.eq(em.r, d.lit(mOnes)));
  } else if (f.specials == SpecialKind::Ieee) {
    typename D::Bool top = d.eq(em.q, d.lit(eOnes));
    typename D::Bool mz = d.eq(em.r, d.lit(0));
    inf = d.land(top, mz);
    nan = d.land(top, d.lnot(mz));
  }
  // Specials get N = 0 and the smallest exponent: their magnitude is "don't care", and this
  // keeps the ranges of finite values (what the analysis sees) as tight as the format.
  typename D::Bool special = d.lor(nan, inf);
  typename D::Bool sub = d.eq(em.q, d.lit(0));
  typename D::Int sig = d.ite(d.lor(sub, special), d.ite(special, d.lit(0), em.r),
                              d.add(em.r, d.lit(Integer::pow2(f.mbits))));
  // sh = max(E - 1, 0), by cases on E so that symbolic value sets stay exact (0 for the
  // all-ones exponent of IEEE-style formats, which holds only specials).
  Select<D, typename D::Int> shSel(d);
  const std::vector<Integer> eVals = enumValues(d, em.q);
  d.assumeValues(em.q, eVals);
  shSel.covered();
  for (const Integer &v : eVals) {
    const bool onlySpecials = f.specials == SpecialKind::Ieee && v == eOnes;
    shSel.when(d.eq(em.q, d.lit(v)), [&] { return d.lit(v.sign() > 0 && !onlySpecials ? v - 1 : Integer(0)); });
  }
  typename D::Int sh = shSel.result();
  typename D::Int X = d.add(d.lit(f.quantumExp()), sh);
  return Val<D>{nan, inf, neg, sig, X, f.mbits + 1};
}

/// The exact real product a * b (SPEC §3): NaN if either is NaN or inf meets zero; inf if
/// either is inf; sign = xor of signs (also for zeros); magnitude N_a * N_b * 2^(X_a + X_b).
template <class D> Val<D> mulExact(D &d, const Val<D> &a, const Val<D> &b) {
  typename D::Bool za = isZero(d, a), zb = isZero(d, b);
  typename D::Bool nan =
      d.lor(d.lor(a.nan, b.nan), d.lor(d.land(a.inf, zb), d.land(b.inf, za)));
  typename D::Bool inf = d.land(d.lnot(nan), d.lor(a.inf, b.inf));
  const unsigned prec = std::min(kPrecUnknown, a.prec + b.prec);
  return Val<D>{nan, inf, d.lxor(a.neg, b.neg), mulInt(d, a.N, b.N), d.add(a.X, b.X), prec};
}

/// The exact value 2^s * v (no rounding; specials unchanged).
template <class D> Val<D> scaleExact(D &d, const Val<D> &v, const typename D::Int &s) {
  // Scaling by 2^0 keeps the value, and so whether it is rounded.
  const Interval sr = d.range(s);
  const unsigned rounded = sr.lo.isZero() && sr.hi.isZero() ? v.rounded : 0u;
  return Val<D>{v.nan, v.inf, v.neg, v.N, d.add(v.X, s), v.prec, rounded};
}

/// The exact value +2^s.
template <class D> Val<D> pow2Val(D &d, const typename D::Int &s) {
  return finiteVal(d, d.litB(false), d.lit(1), s, 1);
}

/// Re-expresses v with exponent `base` (N * 2^(X - base)) when X - base >= 0 provably; a
/// value-preserving change of representation that lets symbolic sums share one exponent.
/// The concrete domain needs no common exponent and skips it.
template <class D> Val<D> rebase(D &d, const Val<D> &v, const typename D::Int &base) {
  if constexpr (!D::kSymbolic) {
    return v;
  } else {
    typename D::Int delta = d.sub(v.X, base);
    if (d.range(delta).lo.sign() < 0) return v;
    return Val<D>{v.nan, v.inf, v.neg, shlVar(d, v.N, delta), base, v.prec, v.rounded};
  }
}

/// Whether N lies in binade m, 2^m <= N < 2^(m+1), for N in the range nr: the sides nr
/// already implies are left out (true when both are), so that no comparison is built that the
/// analysis would only fold to a constant (a Decided fact for the solver in obligations mode).
template <class D>
typename D::Bool inBinade(D &d, const typename D::Int &N, const Interval &nr, unsigned m) {
  const Integer lo2 = Integer::pow2(m), hi2 = Integer::pow2(m + 1);
  typename D::Bool b = d.litB(true);
  if (nr.lo < lo2) b = d.land(b, d.le(d.lit(lo2), N));
  if (nr.hi >= hi2) b = d.land(b, d.lt(N, d.lit(hi2)));
  return b;
}

/// Re-expresses a value whose finite N has at most p significant bits (a rounded value) as
/// M * 2^X' with M < 2^p: for N in binade m >= p (2^m <= N < 2^(m+1)), M = N / 2^(m-p+1) and
/// X' = X + m - p + 1; below 2^p nothing changes. The value is the same (N's low m - p + 1
/// bits are zero: a precision obligation of the query, as in roundAcc), only its
/// representation moves the binade from N into X, so that a later rounding of the value at a
/// variable exponent splits over the p binades of M (times the p exponents where each can
/// round) instead of over every binade of N. The concrete domain needs no such form and
/// returns v.
template <class D> Val<D> normalizeSignificand(D &d, const Val<D> &v, unsigned p) {
  if constexpr (!D::kSymbolic) {
    return v;
  } else {
    const Interval nr = d.range(v.N);
    if (nr.hi < Integer::pow2(p) || d.precBound(v.prec, p) > p) return v;
    using Int = typename D::Int;
    Select<D, Val<D>> sel(d);
    // N < 2^p: N itself, written as 2 q + r with q < 2^(p-1) (a division only there), so that
    // the analysis sees M < 2^p in every arm.
    const typename D::Bool small = d.lt(v.N, d.lit(Integer::pow2(p)));
    sel.when(small, [&] {
      DivMod<Int> qr = d.divPow2Within(v.N, 1, small, Integer(0), Integer::pow2(p - 1) - 1);
      return Val<D>{v.nan, v.inf, v.neg, d.add(d.mulc(qr.q, Integer(2)), qr.r), v.X, v.prec, v.rounded};
    });
    const typename D::Bool fin = isFinite(d, v);
    for (unsigned m = std::max<unsigned>(p, max(nr.lo, Integer(1)).msb()); m <= nr.hi.msb(); ++m) {
      const unsigned s = m - p + 1;
      const typename D::Bool c = inBinade(d, v.N, nr, m);
      sel.when(c, [&] {
        DivMod<Int> qr = d.divPow2Within(v.N, s, c, Integer::pow2(p - 1), Integer::pow2(p) - 1);
        d.require(d.lor(d.lnot(d.land(fin, c)), d.eq(qr.r, d.lit(0))), Obligation::Precision);
        return Val<D>{v.nan, v.inf, v.neg, qr.q, d.add(v.X, d.lit(Integer(int64_t(s)))), v.prec, v.rounded};
      });
    }
    return sel.result();
  }
}

/// Whether N * 2^X >= 2^t, for N in `nr` (nr.hi > 0) with msb N <= mMax: exists m with
/// N >= 2^m and X >= t - m (m = msb N is the witness); comparisons the range implies are
/// dropped.
template <class D>
typename D::Bool valueAtLeastPow2(D &d, const typename D::Int &N, const Interval &nr, const typename D::Int &X,
                                  int64_t t, unsigned mMax) {
  typename D::Bool any = d.litB(false);
  for (unsigned m = max(nr.lo, Integer(1)).msb(); m <= std::min(nr.hi.msb(), mMax); ++m) {
    typename D::Bool c = d.le(d.lit(Integer(t - int64_t(m))), X);
    if (nr.lo < Integer::pow2(m)) c = d.land(c, d.le(d.lit(Integer::pow2(m)), N));
    any = d.lor(any, c);
  }
  return any;
}

/// Rounds the exact value v once into the accumulator (SPEC §3):
///  * NaN, ±inf and ±0 are unchanged.
///  * For N in [2^m, 2^(m+1)) the binade exponent is X + m. If X + m >= emin (normal), the
///    result keeps p significant bits: drop s = m - p + 1 low bits of N. Otherwise
///    (subnormal) the grid is 2^(emin - p + 1): drop s = emin - p + 1 - X bits.
///  * Dropping s bits: N = q * 2^s + r; RNE rounds up when r > 2^(s-1), or r = 2^(s-1) and
///    q is odd; RTZ never rounds up. The result is (q + up) * 2^s in units of 2^X.
///  * Overflow: RNE gives ±inf when the rounded value reaches 2^(emax+1) (equivalently the
///    exact value is >= (2 - 2^-p) 2^emax); RTZ gives ±(2^p - 1) 2^(emax - p + 1).
///  * A result that rounds to zero keeps its sign. FTZ: a nonzero rounded result below
///    2^emin becomes a zero of the same sign.
/// The case split: (1) the exact case — N has at most p significant bits above its known
/// trailing zeros and N * 2^X is on the subnormal grid — needs no division at all and is the
/// same arm whatever the binade; (2) one arm per normal binade that needs rounding; (3) the
/// off-grid subnormal cases, one per exponent value whatever the binade (after one arm per
/// binade for the exponents where everything rounds to zero, or under FTZ is flushed). Arms
/// the abstract ranges of N and X exclude are not generated. Overflow is one test on the
/// merged rounded value (see `complete`), not one per arm.
template <class D> Val<D> roundAcc(D &d, const Val<D> &v, const AccSpec &acc) {
  using Int = typename D::Int;
  using Bool = typename D::Bool;
  const int p = acc.fmt.p, emin = acc.fmt.emin(), emax = acc.fmt.emax;
  const bool rne = acc.rounding == Rounding::RNE;
  const bool ftz = acc.subnormals != Subnormals::Keep;  // DAZ flushes results as FTZ does
  auto L = [&](const Integer &c) { return d.lit(c); };
  auto I = [](int64_t c) { return Integer(c); };

  // Every arm's result has at most p significant bits.
  auto rounded = [&](Val<D> r) {
    r.prec = std::min<unsigned>(r.prec, unsigned(p));
    return r;
  };
  // NaN and ±inf are unchanged. When a symbolic domain cannot tell whether v is special, the
  // arms below still compute from v's N and X (don't care for a special) and `finish` puts
  // the special's flags and sign back: so the magnitude of the result does not depend on the
  // NaN/inf flags, and the flags do not depend on the magnitude's case split.
  if (auto special = d.known(d.lor(v.nan, v.inf)); special && *special) return v;
  // Rounding is idempotent: a value this accumulator already rounded is its own rounding.
  const unsigned key = accKey(acc);
  if (v.rounded == key) return v;
  // Whether an arm that overflows to an infinity was generated (RNE only).
  bool mayOverflowToInf = false;
  const Bool neg = v.neg;
  auto finish = [&](Val<D> r) {
    r = rounded(std::move(r));
    r.rounded = key;
    r.nan = v.nan;  // rounding neither creates nor removes a NaN
    r.inf = mayOverflowToInf ? d.lor(v.inf, r.inf) : v.inf;
    r.neg = neg;    // every arm keeps the sign (a zero too)
    return r;
  };
  Select<D, Val<D>> sel(d);
  sel.when(d.eq(v.N, L(0)), [&] { return Val<D>{d.litB(false), d.litB(false), neg, v.N, v.X, v.prec}; });
  if (sel.done()) return finish(sel.result());

  const Interval nr = d.range(v.N);
  const Interval xr = d.range(v.X);
  const unsigned tz = d.tz(v.N);

  // The overflow result with the value's sign (an infinity keeps the N it would have had).
  auto overflowed = [&](const Int &wouldBe) -> Val<D> {
    if (rne) {
      mayOverflowToInf = true;
      return infVal(d, neg, wouldBe, v.X, unsigned(p));
    }
    return finiteVal(d, neg, L(Integer::pow2(p) - 1), L(I(emax - p + 1)));
  };
  // Drop s >= 1 bits of N with the rounding mode: returns (q + up) * 2^s. Needed only in
  // the arm `inArm`, where q = floor(N / 2^s) lies in [qlo, qhi] (dropBitsIn); dropBits:
  // where N lies in binade m, so q lies in [2^m >> s, (2^(m+1) - 1) >> s].
  auto dropBitsIn = [&](unsigned s, const Bool &inArm, const Integer &qlo, const Integer &qhi) -> Int {
    DivMod<Int> qr = d.divPow2Within(v.N, s, inArm, qlo, qhi);
    if (!rne) return d.mulc(qr.q, Integer::pow2(s));
    const Integer half = Integer::pow2(s - 1);
    Bool above = d.lt(L(half), qr.r);
    Bool tie = d.eq(qr.r, L(half));
    Bool qOdd = d.eq(d.divPow2(qr.q, 1).r, L(1));
    Bool up = d.lor(above, d.land(tie, qOdd));
    return d.mulc(d.add(qr.q, d.ite(up, L(1), L(0))), Integer::pow2(s));
  };
  auto dropBits = [&](unsigned s, const Bool &inArm, unsigned m) -> Int {
    return dropBitsIn(s, inArm, Integer::pow2(m) >> s, (Integer::pow2(m + 1) - 1) >> s);
  };

  if (nr.hi.sign() <= 0) return finish(sel.result());
  const Integer nlo = max(nr.lo, Integer(1));
  // The least nonzero N: nlo, or higher where the domain's checked value set says so (NVFP4:
  // a product m t at least m), a decision its arithmetic checker re-derives. Binades below it
  // get no arm (their absence is part of the coverage fact), and FTZ's flush test starts at
  // it.
  const Integer nMin = d.leastAtLeast(v.N, nlo);
  const unsigned mLo = nMin.msb(), mHi = nr.hi.msb();
  const int64_t tzc = std::min<int64_t>(tz, 100000);
  // Significant bits of N: the static bound, or what the range and known zeros allow
  // (N < 2^(mHi+1) with tz low zeros; a power-of-two top 2^j adds only the value 2^j).
  unsigned precRange = tzc >= int64_t(mHi) + 1 ? 1 : unsigned(int64_t(mHi) + 1 - tzc);
  if (tzc <= int64_t(mHi) && nr.hi == Integer::pow2(mHi) && precRange > 1) precRange -= 1;
  const unsigned vprec = d.precBound(v.prec, unsigned(p));
  bool precOK = std::min(vprec, precRange) <= unsigned(p);
  // Neither bound shows it: the domain's checked value sets may (a decision for its
  // arithmetic checker; no obligation then).
  bool shown = false;
  if (!precOK && d.valuesShowPrecision(v.N, unsigned(p))) precOK = shown = true;
  if (precRange > unsigned(p) && precOK && !shown && d.obligations() && !d.showPrecision(v.N, unsigned(p))) {
    // Only the static bound v.prec says that N has at most p significant bits (the
    // domain's checked analysis cannot show it from N's terms): an obligation, per binade
    // m that could hold more than p bits: a finite N there is a multiple of 2^(m - p + 1).
    const Bool fin = isFinite(d, v);
    for (unsigned m = std::max<unsigned>(mLo, unsigned(p)); m <= mHi; ++m) {
      const unsigned s = m - unsigned(p) + 1;
      if (int64_t(s) <= tzc) continue;
      const Bool c = d.land(fin, inBinade(d, v.N, nr, m));
      if (auto k = d.known(c); k && !*k) continue;
      DivMod<Int> qr = d.divPow2Within(v.N, s, c, Integer::pow2(m) >> s, (Integer::pow2(m + 1) - 1) >> s);
      d.require(d.lor(d.lnot(c), d.eq(qr.r, L(0))), Obligation::Precision);
    }
  }
  auto atLeastPow2 = [&](int64_t t, unsigned mMax) { return valueAtLeastPow2(d, v.N, nr, v.X, t, mMax); };
  // The same test where N >= 1 is known: every arm below lies after the N = 0 arm. The
  // range's lower end is raised to 1 (to nMin, by the checked decision above); with N >= 0
  // from the checked interval this drops only the conjunct `nMin <= N`, which the arm order
  // implies, so the formula is the same on every input. (FTZ's flush test uses it: without
  // it, the flush of every exact sum stays an open case split, and an MXFP4 k = 32 ftz
  // table took minutes instead of a second.)
  const Interval nrNonzero{nMin, nr.hi};
  auto atLeastPow2Nonzero = [&](int64_t t, unsigned mMax) {
    return valueAtLeastPow2(d, v.N, nrNonzero, v.X, t, mMax);
  };
  auto zeroRes = [&] { return finiteVal(d, neg, L(0), v.X); };
  // Rounding is monotone: a rounded N is at most max N rounded up to p significant bits (in
  // a normal binade) and at most 2^(msb+1) (on the subnormal grid). This bound (checked at
  // run time by the concrete domain) keeps symbolic ranges from doubling at every node of a
  // deep tree.
  const int64_t fitBits = int64_t(p) + tzc;
  Integer bound = nr.hi;
  if (mHi + 1 > unsigned(fitBits)) {
    const unsigned s = unsigned(int64_t(mHi) + 1 - p);
    if (!nr.hi.lowBits(s).isZero()) bound = ((nr.hi >> s) + 1) << s;
  }
  if (xr.lo < I(int64_t(emin) - int64_t(mLo))) bound = max(bound, Integer::pow2(mHi + 1));
  // The arms give r, the value rounded to p bits (or to the subnormal grid) with an
  // unbounded exponent. It overflows exactly when it reaches 2^(emax+1): for RNE that is
  // the exact value >= (2 - 2^-p) 2^emax; for RTZ, rounding down is monotone and 2^(emax+1)
  // has p bits, so r >= 2^(emax+1) iff the exact value is. One test on r, the same term
  // whichever arm produced r, so that two placements that round the same N (pre's root and
  // post's tree; post's final scaling of an already rounded value) share it.
  auto complete = [&](Val<D> r) {
    r.N = d.narrow(r.N, Interval{Integer(0), bound});
    const Interval rr = d.range(r.N);
    if (rr.hi.sign() > 0) {
      const Bool ovf = valueAtLeastPow2(d, r.N, rr, r.X, int64_t(emax) + 1, rr.hi.msb());
      Select<D, Val<D>> o(d);
      o.when(ovf, [&] { return overflowed(r.N); });
      o.when(d.litB(true), [&] { return r; });
      r = o.result();
    }
    return finish(std::move(r));
  };

  // 1. Exact: N has at most p significant bits above its known zeros (N < 2^(p + tz)) and
  //    N * 2^X lies on the grid 2^(emin - p + 1) (X >= emin - p + 1 - tz). The value is
  //    representable unless it reaches 2^(emax+1) (overflow); FTZ flushes it below 2^emin.
  //    When N is known to have at most p significant bits, every normal value is exact too.
  const int64_t gridX = int64_t(emin) - p + 1 - tzc;
  {
    Bool fits = fitBits > int64_t(mHi) ? d.litB(true) : d.lt(v.N, L(Integer::pow2(unsigned(fitBits))));
    Bool onGrid = d.le(L(I(gridX)), v.X);
    Bool exact = d.land(fits, onGrid);
    if (precOK) exact = d.lor(exact, atLeastPow2(emin, mHi));
    sel.when(exact, [&] {
      const Val<D> same{d.litB(false), d.litB(false), neg, v.N, v.X, v.prec};
      if (!ftz) return same;
      const unsigned mMax = precOK ? mHi : unsigned(std::min<int64_t>(fitBits - 1, mHi));
      Select<D, Val<D>> o(d);
      o.when(d.lnot(atLeastPow2Nonzero(emin, mMax)), zeroRes);
      o.when(d.litB(true), [&] { return same; });
      return o.result();
    });
  }
  if (sel.done()) return complete(sel.result());

  // 2. Rounding in a normal binade m (X + m >= emin) with more than p + tz bits: drop
  //    s = m - p + 1 bits.
  for (unsigned m = std::max<unsigned>(mLo, unsigned(std::max<int64_t>(fitBits, 0))); !precOK && m <= mHi; ++m) {
    const int64_t mi = int64_t(m);
    if (xr.hi < I(emin - mi)) continue;
    Bool c = d.land(inBinade(d, v.N, nr, m), d.le(L(I(emin - mi)), v.X));
    sel.when(c, [&] { return finiteVal(d, neg, dropBits(unsigned(mi - p + 1), c, m), v.X); });
  }

  // 3. Subnormal and off the grid (X < emin - p + 1 - tz, X + m < emin): drop
  //    s = emin - p + 1 - X > tz bits; when s >= m + 2 the result is zero. Under FTZ more
  //    of these arms are zero: the value is below 2^(X + m + 1), and rounding it onto the
  //    subnormal grid (multiples of the quantum 2^(emin - p + 1)) gives at most the larger
  //    of that power of two and the quantum under RNE (both are on the grid; rounding is
  //    monotone), and never more than the value under RTZ. The quantum is below 2^emin
  //    (p >= 2). So for X + m + 1 <= emin - 1 (RNE) or X + m + 1 <= emin (RTZ) the rounded
  //    value is below 2^emin and flushed: one zero arm for those exponents, instead of one
  //    rounding arm per exponent whose flush test then gives the same zero (a post2 root
  //    scaled far below 2^emin in f32 split into hundreds of such arms). RTZ leaves no
  //    rounding arm at all; RNE one per binade, X = emin - m - 1, the values in
  //    [2^(emin-1), 2^emin) that may round up to 2^emin.
  //    The zero arms come first, one per binade. The rounding arms are one per exponent X for
  //    all binades together: N < 2^(emin - X) (the value is below 2^emin) is all dropping
  //    s bits needs, with q in [0, 2^(p-1)) (floor of N / 2^s for N < 2^(emin - X)). One
  //    arm per binade and exponent would repeat the same division per binade: over a wide N
  //    (a tree value scaled by a variable exponent, binades times p + 1 arms, each with a
  //    division and its quotient fact) that made hundreds of arms where about p + binades do.
  //    A value an earlier zero arm took satisfies a later arm's condition too; the select
  //    takes the first arm that holds, and the division's range holds for every N below
  //    2^(emin - X), so nothing else changes.
  int64_t armLo = std::numeric_limits<int64_t>::max(), armHi = std::numeric_limits<int64_t>::min();
  for (unsigned m = mLo; m <= mHi; ++m) {
    const int64_t mi = int64_t(m);
    const int64_t subTop = std::min<int64_t>(int64_t(emin) - mi - 1, gridX - 1);
    if (xr.lo > I(subTop)) continue;
    const int64_t zeroHi = std::min<int64_t>(
        subTop, !ftz ? int64_t(emin) - p - 1 - mi : int64_t(emin) - mi - (rne ? 2 : 1));  // s >= m + 2, or flushed
    Bool inB = inBinade(d, v.N, nr, m);
    if (xr.lo <= I(zeroHi)) sel.when(d.land(inB, d.le(v.X, L(I(zeroHi)))), zeroRes);
    const int64_t encLo = std::max<int64_t>(zeroHi + 1, xr.lo.fitsInt64() ? xr.lo.toInt64() : zeroHi + 1);
    const int64_t encHi = std::min<int64_t>(subTop, xr.hi.fitsInt64() ? xr.hi.toInt64() : subTop);
    if (encLo <= encHi) {
      armLo = std::min(armLo, encLo);
      armHi = std::max(armHi, encHi);
    }
  }
  for (int64_t x = armLo; x <= armHi; ++x) {
    const unsigned top = unsigned(int64_t(emin) - x);  // below 2^emin: N < 2^top
    const Integer limit = Integer::pow2(top);
    Bool arm = d.eq(v.X, L(I(x)));
    if (nr.hi >= limit) arm = d.land(arm, d.lt(v.N, L(limit)));
    sel.when(arm, [&] {
      const unsigned s = unsigned(int64_t(emin) - p + 1 - x);  // >= tz + 1 (x <= gridX - 1)
      // nlo < limit: x <= emin - mLo - 1, so limit >= 2^(mLo + 1) > nlo.
      const Integer nHi = min(nr.hi, limit - 1);
      Int nr2 = dropBitsIn(s, arm, nlo >> s, nHi >> s);
      if (!ftz) return finiteVal(d, neg, nr2, v.X);
      // FTZ: below 2^emin = 2^(emin - x) units becomes zero.
      Bool tiny = d.lt(nr2, L(limit));
      return finiteVal(d, neg, d.ite(tiny, L(0), nr2), v.X);
    });
  }
  return complete(sel.result());
}

/// The running state of an exact n-ary sum (SPEC §4): specials seen, whether every child so
/// far is -0, and the exact signed sum S * 2^X of the finite children.
template <class D> struct SumAcc {
  using Int = typename D::Int;
  using Bool = typename D::Bool;
  Bool anyNaN, posInf, negInf, allNegZero;
  Int S, X;

  static SumAcc ite(D &d, const Bool &c, const SumAcc &a, const SumAcc &b) {
    return SumAcc{d.iteB(c, a.anyNaN, b.anyNaN), d.iteB(c, a.posInf, b.posInf),
                  d.iteB(c, a.negInf, b.negInf), d.iteB(c, a.allNegZero, b.allNegZero),
                  d.ite(c, a.S, b.S), d.ite(c, a.X, b.X)};
  }
};

/// The signed integer of a finite value (0 for specials).
template <class D> typename D::Int signedN(D &d, const Val<D> &v) {
  return d.ite(isFinite(d, v), d.ite(v.neg, d.neg(v.N), v.N), d.lit(0));
}

/// Brings A * 2^XA and B * 2^XB to a common exponent min(XA, XB): returns (A', B', Xmin).
template <class D> struct Aligned {
  typename D::Int A, B, X;
  static Aligned ite(D &d, const typename D::Bool &c, const Aligned &a, const Aligned &b) {
    return Aligned{d.ite(c, a.A, b.A), d.ite(c, a.B, b.B), d.ite(c, a.X, b.X)};
  }
};

/// The operands at a known exponent difference c = XA - XB: (A 2^c, B) at XB when c >= 0,
/// else (A, B 2^-c) at XA (one arm of align).
template <class D>
Aligned<D> alignedAt(D &d, const typename D::Int &A, const typename D::Int &XA, const typename D::Int &B,
                     const typename D::Int &XB, const Integer &c) {
  if (c.sign() >= 0) return Aligned<D>{d.mulc(A, Integer::pow2(unsigned(c.toInt64()))), B, XB};
  return Aligned<D>{A, d.mulc(B, Integer::pow2(unsigned((-c).toInt64()))), XA};
}

template <class D>
Aligned<D> align(D &d, const typename D::Int &A, const typename D::Int &XA,
                 const typename D::Int &B, const typename D::Int &XB) {
  if (d.same(XA, XB)) return Aligned<D>{A, B, XA};
  typename D::Int delta = d.sub(XA, XB);
  auto arm = [&](const Integer &c) { return alignedAt(d, A, XA, B, XB, c); };
  if (auto c = d.constant(delta)) return arm(*c);
  Select<D, Aligned<D>> sel(d);
  const std::vector<Integer> vals = enumValues(d, delta);
  d.assumeValues(delta, vals);
  sel.covered();
  for (const Integer &c : vals) sel.when(d.eq(delta, d.lit(c)), [&] { return arm(c); });
  return sel.result();
}

/// Whether A * 2^XA = B * 2^XB for magnitudes A, B >= 0 (a fact where their ranges do not
/// show it and the window below is used). Where both are nonzero, equality
/// needs 2^(XA - XB) = B / A, so delta = XA - XB lies in [-msb(max A), msb(max B)] (A >= 1
/// gives B / A <= max B; B >= 1 gives B / A >= 1 / max A > 2^-(msb(max A) + 1)). Outside that
/// window the two are equal exactly when both are zero. So when delta's range reaches beyond
/// the window, the test is "both zero, or delta is one of the window's values and the aligned
/// significands are equal": a case split over the window alone, not over every exponent
/// difference (post's result, at a variable exponent 2^e, against post2's, at a constant one).
/// Otherwise it is the aligned equality (align).
template <class D>
typename D::Bool valuesEqual(D &d, const typename D::Int &A, const typename D::Int &XA, const typename D::Int &B,
                             const typename D::Int &XB) {
  if (d.same(XA, XB)) return d.eq(A, B);
  const typename D::Int delta = d.sub(XA, XB);
  const Interval ar = d.range(A), br = d.range(B), dr = d.range(delta);
  if ((!D::kSymbolic || !d.constant(delta)) && ar.hi.sign() > 0 && br.hi.sign() > 0) {
    const Integer wlo = -Integer(int64_t(ar.hi.msb())), whi = Integer(int64_t(br.hi.msb()));
    if (dr.lo < wlo || whi < dr.hi) {
      // The window argument needs A, B >= 0 (magnitudes are; a symbolic domain's interval
      // may not show it through a sign's if-then-else): a fact where the range does not.
      if (ar.lo.sign() < 0) d.require(d.le(d.lit(Integer(0)), A), Obligation::Coverage);
      if (br.lo.sign() < 0) d.require(d.le(d.lit(Integer(0)), B), Obligation::Coverage);
      typename D::Bool eq = d.land(d.eq(A, d.lit(Integer(0))), d.eq(B, d.lit(Integer(0))));
      const Integer lo = max(dr.lo, wlo), hi = min(dr.hi, whi);
      // The same cap as enumValues' (align's split would have been larger still).
      if (hi - lo >= Integer(int64_t(kMaxCaseSplitValues)))
        throw EncodingLimit("case split over " + (hi - lo + 1).str() + " values");
      for (Integer c = lo; c <= hi; c = c + Integer(1)) {
        const typename D::Bool at = d.eq(delta, d.lit(c));
        if (auto k = d.known(at); k && !*k) continue;
        const Aligned<D> al = alignedAt(d, A, XA, B, XB, c);
        eq = d.lor(eq, d.land(at, d.eq(al.A, al.B)));
      }
      return eq;
    }
  }
  const Aligned<D> al = align(d, A, XA, B, XB);
  return d.eq(al.A, al.B);
}

/// Starts a sum with its first child.
template <class D> SumAcc<D> sumStart(D &d, const Val<D> &v) {
  return SumAcc<D>{v.nan, d.land(v.inf, d.lnot(v.neg)), d.land(v.inf, v.neg),
                   d.land(isZero(d, v), v.neg), signedN(d, v), v.X};
}

/// Adds one more child to a sum (exactly).
template <class D> SumAcc<D> sumAdd(D &d, const SumAcc<D> &acc, const Val<D> &v) {
  Aligned<D> al = align(d, acc.S, acc.X, signedN(d, v), v.X);
  return SumAcc<D>{d.lor(acc.anyNaN, v.nan), d.lor(acc.posInf, d.land(v.inf, d.lnot(v.neg))),
                   d.lor(acc.negInf, d.land(v.inf, v.neg)),
                   d.land(acc.allNegZero, d.land(isZero(d, v), v.neg)), d.add(al.A, al.B), al.X};
}

/// The exact value of a finished sum: NaN if any child is NaN or +inf meets -inf; else an
/// infinity if any; else S * 2^X, where an exact zero is -0 only if every child was -0.
template <class D> Val<D> sumFinish(D &d, const SumAcc<D> &acc) {
  typename D::Bool nan = d.lor(acc.anyNaN, d.land(acc.posInf, acc.negInf));
  typename D::Bool inf = d.land(d.lnot(nan), d.lor(acc.posInf, acc.negInf));
  typename D::Bool negS = d.lt(acc.S, d.lit(0));
  typename D::Bool zeroS = d.eq(acc.S, d.lit(0));
  typename D::Bool neg = d.iteB(inf, acc.negInf, d.lor(negS, d.land(zeroS, acc.allNegZero)));
  return Val<D>{nan, inf, neg, d.ite(negS, d.neg(acc.S), acc.S), acc.X, kPrecUnknown};
}

/// Whether two accumulator results are related (SPEC §6): same class; NaNs all equal;
/// infinities of the same sign; finite values equal in magnitude and sign, where the value
/// relation also equates +0 and -0.
template <class D>
typename D::Bool related(D &d, const Val<D> &r1, const Val<D> &r2, Relation rel) {
  auto bothNaN = d.land(r1.nan, r2.nan);
  auto notNaN = d.land(d.lnot(r1.nan), d.lnot(r2.nan));
  auto sameSign = d.lnot(d.lxor(r1.neg, r2.neg));
  // Infinities of the same sign, written with the signs under their inf flags (a & (a ? x :
  // y) simplifies to a & x), so that a symbolic domain drops the finite sign of a sum.
  auto bothInf = d.land(r1.inf, r2.inf);
  auto infNeg1 = d.land(r1.inf, r1.neg), infNeg2 = d.land(r2.inf, r2.neg);
  auto sameInf = d.land(notNaN, d.land(bothInf, d.lnot(d.lxor(infNeg1, infNeg2))));
  // Magnitudes matter only for finite values: mask them to 0 otherwise, so that a symbolic
  // domain sees that the magnitude an inf or NaN carries along is irrelevant (and the whole
  // computation behind it drops out of the query).
  auto fin1 = isFinite(d, r1), fin2 = isFinite(d, r2);
  auto N1 = d.ite(fin1, r1.N, d.lit(0)), N2 = d.ite(fin2, r2.N, d.lit(0));
  auto valEq = valuesEqual(d, N1, r1.X, N2, r2.X);
  auto fin = d.land(fin1, fin2);
  auto signOk = sameSign;
  if (rel == Relation::Value) signOk = d.lor(sameSign, d.eq(N1, d.lit(0)));
  auto finRel = d.land(fin, d.land(valEq, signOk));
  return d.lor(bothNaN, d.lor(sameInf, finRel));
}

}  // namespace mxcert

// tests/unit/test_rounding.cpp — SPEC §3: the single rounding function roundAcc, exact sums
// and exact products, on hand-made exact values (ConcreteDomain) in f32, bf16, f16 and f64:
//  * ties to even (normal and subnormal), the subnormal/normal boundary (rounding up into
//    2^emin, ties there), the overflow threshold (2 - 2^-p) 2^emax exactly (RNE: inf, just
//    below: max finite; RTZ: max finite), huge and tiny values, signed zeros, FTZ (rounded
//    first, then flushed keeping the sign), specials passing through;
//  * random exact values against native float/double conversions (one IEEE rounding, RNE and
//    RTZ via fesetround) and against an independent long-double reference rounding;
//  * exact sums (sumStart/sumAdd/sumFinish + roundAcc): zero signs, NaN/inf rules, fused
//    single rounding; exact products: 0 * inf = NaN, signs xor (zeros too).
#include "helpers.h"

#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <limits>
#include <random>

using namespace mxcert;
using namespace mxtest;

namespace {

constexpr Rounding RNE = Rounding::RNE;
constexpr Rounding RTZ = Rounding::RTZ;
constexpr Subnormals KEEP = Subnormals::Keep;
constexpr Subnormals FTZ = Subnormals::FTZ;

/// 2^k as an Integer.
Integer P2(unsigned k) { return Integer::pow2(k); }

/// roundAcc on the concrete domain.
CVal rnd(const CVal &v, const AccSpec &acc) {
  ConcreteDomain d;
  return roundAcc(d, v, acc);
}

float nativeToFloat(double x, bool rne);
double nativeToDouble(long double x, bool rne);

/// Checks that rounding (-1)^neg N 2^X in `acc` gives the bit pattern `expect` for neg =
/// false, and expect | signbit for neg = true (rounding is symmetric; zeros keep the sign).
/// For f32 and f64 with subnormals kept, the hand-computed expectation is also checked
/// against the native conversion double -> float or long double -> double, where the exact
/// value fits the wider type.
void checkRound(const std::string &fmt, Rounding r, Subnormals s, const Integer &N, int64_t X,
                uint64_t expect) {
  const AccSpec acc = accSpec(fmt, r, s);
  const uint64_t signBit = uint64_t(1) << (acc.fmt.bits() - 1);
  for (bool neg : {false, true}) {
    CVal out = rnd(fv(neg, N, X), acc);
    const uint64_t want = neg ? (expect | signBit) : expect;
    INFO(fmt << " " << toString(r) << " " << toString(s) << ": round " << (neg ? "-" : "+") << N.str()
             << "*2^" << X << " -> " << describe(out) << ", expected " << hex(want));
    REQUIRE_FALSE(out.nan);
    CHECK(bitsOf(out, acc.fmt) == want);
    if (s != Subnormals::Keep || N.isZero()) continue;
    const int64_t top = X + int64_t(N.msb());
    if (fmt == "f32" && N.msb() < 53 && X >= -1074 && top <= 1023) {
      const double exact = std::ldexp(neg ? -N.toDouble() : N.toDouble(), int(X));
      CHECK(floatBits(nativeToFloat(exact, r == Rounding::RNE)) == want);
    }
    if (fmt == "f64" && N.msb() < 64 && X >= -16000 && top <= 16000) {
      const long double exact = std::ldexp((long double)(neg ? -1 : 1) * (long double)N.toDouble(), int(X));
      if (N.msb() < 53) CHECK(doubleBits(nativeToDouble(exact, r == Rounding::RNE)) == want);
    }
  }
}

/// checkRound with subnormals kept and flushed (for values whose result is not a nonzero
/// subnormal, both must give the same bits).
void checkRoundBoth(const std::string &fmt, Rounding r, const Integer &N, int64_t X, uint64_t expect) {
  checkRound(fmt, r, KEEP, N, X, expect);
  checkRound(fmt, r, FTZ, N, X, expect);
}

/// The parameters of an accumulator format, restated for the reference rounding.
struct RefAcc {
  int p, emin, emax;
};

/// Independent reference rounding in long double (x87 80-bit: 64-bit significand, exponents
/// down to 2^-16445): v must be exact in long double. Rounds onto the grid of |v|'s binade
/// (or the subnormal grid) with floor/fraction arithmetic, then applies overflow and FTZ.
long double refRound(long double v, const RefAcc &f, bool rne, bool ftz) {
  if (std::isnan(v) || std::isinf(v) || v == 0) return v;
  const bool neg = std::signbit(v);
  const long double a = std::fabs(v);
  const int e = std::ilogb(a);
  const int q = std::max(e, f.emin) - f.p + 1;
  const long double sc = std::ldexp(a, -q);  // exact
  const long double fl = std::floor(sc), fr = sc - fl;
  const bool odd = std::fmod(fl, 2.0L) == 1.0L;
  const bool up = rne && (fr > 0.5L || (fr == 0.5L && odd));
  long double r = std::ldexp(fl + (up ? 1.0L : 0.0L), q);
  const long double maxf = std::ldexp(std::ldexp(1.0L, f.p) - 1.0L, f.emax - f.p + 1);
  if (r > maxf) r = rne ? HUGE_VALL : maxf;
  if (ftz && r != 0 && r < std::ldexp(1.0L, f.emin)) r = 0;
  return neg ? -r : r;
}

/// The model result as a long double (exact: results have at most 53 significant bits).
long double asLongDouble(const CVal &v) {
  if (v.nan) return std::numeric_limits<long double>::quiet_NaN();
  if (v.inf) return v.neg ? -HUGE_VALL : HUGE_VALL;
  CVal c = canonical(v);
  if (c.N.isZero()) return v.neg ? -0.0L : 0.0L;
  REQUIRE(c.N.msb() < 64);
  long double m = std::ldexp((long double)c.N.toDouble(), 0);
  long double r = std::ldexp(m, int(c.X.toInt64()));
  return v.neg ? -r : r;
}

/// An accumulator format by name with its reference parameters.
struct RefFormat {
  const char *name;
  RefAcc ref;
};
/// The accumulator formats the reference comparisons cover.
const RefFormat kRefFormats[] = {{"f32", {24, -126, 127}}, {"bf16", {8, -126, 127}}, {"f16", {11, -14, 15}},
                                 {"f64", {53, -1022, 1023}}};

/// Whether roundAcc's result `out` for the exact value `exact` is the reference rounding's,
/// sign of a zero included (FTZ and DAZ flush alike); `want` receives the reference value.
bool matchesReference(const CVal &out, long double exact, const RefAcc &ref, const AccSpec &acc, long double &want) {
  want = refRound(exact, ref, acc.rounding == Rounding::RNE, acc.subnormals != Subnormals::Keep);
  const long double got = asLongDouble(out);
  return got == want && std::signbit(got) == std::signbit(want) && !out.nan;
}

/// Converts a double to float with the given rounding mode (RTZ through fesetround).
float nativeToFloat(double x, bool rne) {
  volatile double in = x;
  if (rne) {
    volatile float f = float(in);
    return f;
  }
  std::fesetround(FE_TOWARDZERO);
  volatile float f = float(in);
  std::fesetround(FE_TONEAREST);
  return f;
}

/// Converts a long double to double with the given rounding mode.
double nativeToDouble(long double x, bool rne) {
  volatile long double in = x;
  if (rne) {
    volatile double f = double(in);
    return f;
  }
  std::fesetround(FE_TOWARDZERO);
  volatile double f = double(in);
  std::fesetround(FE_TONEAREST);
  return f;
}

/// Exact sum of the values, rounded once (SPEC §4 node semantics).
CVal sumRound(const std::vector<CVal> &vs, const AccSpec &acc) {
  ConcreteDomain d;
  SumAcc<ConcreteDomain> s = sumStart(d, vs[0]);
  for (size_t i = 1; i < vs.size(); ++i) s = sumAdd(d, s, vs[i]);
  return roundAcc(d, sumFinish(d, s), acc);
}

/// Exact product (no rounding).
CVal mul(const CVal &a, const CVal &b) {
  ConcreteDomain d;
  return mulExact(d, a, b);
}

const CVal kPZero = fv(false, 0, 0), kNZero = fv(true, 0, 0);

}  // namespace

TEST_CASE("roundAcc f32: ties to even and exact values", "[rounding][f32]") {
  for (Subnormals s : {KEEP, FTZ}) {
    checkRound("f32", RNE, s, P2(24) + 1, -24, 0x3F800000);  // 1 + 2^-24: tie, down to even
    checkRound("f32", RTZ, s, P2(24) + 1, -24, 0x3F800000);
    checkRound("f32", RNE, s, P2(24) + 3, -24, 0x3F800002);  // 1 + 3 2^-24: tie, up to even
    checkRound("f32", RTZ, s, P2(24) + 3, -24, 0x3F800001);
    checkRound("f32", RNE, s, P2(25) + 3, -25, 0x3F800001);  // 1 + 0.75 ulp: up
    checkRound("f32", RTZ, s, P2(25) + 3, -25, 0x3F800000);
    checkRound("f32", RNE, s, P2(50) + P2(26) - 1, -50, 0x3F800000);  // just below the tie
    checkRound("f32", RNE, s, P2(50) + P2(26) + 1, -50, 0x3F800001);  // just above the tie
    checkRound("f32", RNE, s, 3, -1, floatBits(1.5f));
    checkRound("f32", RNE, s, 5, -2, floatBits(1.25f));
    checkRound("f32", RNE, s, (P2(24) - 1) << 1000, -1000, floatBits(16777215.0f));  // exact, big N
    checkRound("f32", RNE, s, P2(300) + 1, -300, 0x3F800000);  // 1 + 2^-300
    checkRound("f32", RTZ, s, P2(300) + 1, -300, 0x3F800000);
    checkRound("f32", RNE, s, P2(300) - 1, -300, 0x3F800000);  // 1 - 2^-300
    checkRound("f32", RTZ, s, P2(300) - 1, -300, 0x3F7FFFFF);
    checkRound("f32", RNE, s, 0, 12345, 0);  // a zero keeps its sign whatever X
  }
}

TEST_CASE("roundAcc f32: subnormals, ties and the normal boundary", "[rounding][f32]") {
  checkRound("f32", RNE, KEEP, 1, -149, 0x00000001);  // smallest subnormal, exact
  checkRound("f32", RNE, FTZ, 1, -149, 0x00000000);   // flushed, sign kept
  checkRound("f32", RTZ, FTZ, 1, -149, 0x00000000);
  checkRoundBoth("f32", RNE, 1, -150, 0x0);           // half the smallest: tie to even zero
  checkRoundBoth("f32", RTZ, 1, -150, 0x0);
  checkRound("f32", RNE, KEEP, 3, -150, 0x2);         // 1.5 q: tie, up to even 2
  checkRound("f32", RTZ, KEEP, 3, -150, 0x1);
  checkRound("f32", RNE, FTZ, 3, -150, 0x0);          // rounded to 2 q, then flushed
  checkRound("f32", RNE, KEEP, 5, -150, 0x2);         // 2.5 q -> 2 q
  checkRound("f32", RNE, KEEP, 7, -150, 0x4);         // 3.5 q -> 4 q
  checkRound("f32", RTZ, KEEP, 7, -150, 0x3);
  checkRound("f32", RNE, KEEP, 2 * 0x123457 + 1, -150, 0x123458);  // tie, odd -> up
  checkRound("f32", RNE, KEEP, 2 * 0x123456 + 1, -150, 0x123456);  // tie, even -> down
  checkRound("f32", RTZ, KEEP, 2 * 0x123457 + 1, -150, 0x123457);
  checkRound("f32", RNE, KEEP, P2(40) + 1, -190, 0x1);   // just above 2^-150: up to 2^-149
  checkRound("f32", RTZ, KEEP, P2(40) + 1, -190, 0x0);   // RTZ: signed zero
  checkRoundBoth("f32", RNE, P2(40) - 1, -190, 0x0);     // just below 2^-150: zero
  checkRoundBoth("f32", RNE, P2(200) - 1, -350, 0x0);    // big N, just below 2^-150
  checkRound("f32", RNE, KEEP, P2(200) + 1, -350, 0x1);  // big N, just above 2^-150
  checkRoundBoth("f32", RNE, 1, -256, 0x0);              // 0.25 * 2^-254
  checkRoundBoth("f32", RTZ, 1, -256, 0x0);
  checkRoundBoth("f32", RNE, 1, -100000, 0x0);           // tiny
  // The boundary: (2^24 - 1) 2^-150 = (2^23 - 1/2) 2^-149 is a tie between the largest
  // subnormal (odd) and 2^-126 (even): RNE rounds up into 2^emin, which FTZ does NOT flush.
  checkRoundBoth("f32", RNE, P2(24) - 1, -150, 0x00800000);
  checkRound("f32", RTZ, KEEP, P2(24) - 1, -150, 0x007FFFFF);
  checkRound("f32", RTZ, FTZ, P2(24) - 1, -150, 0x00000000);
  checkRoundBoth("f32", RNE, P2(25) - 1, -151, 0x00800000);    // 2^23 - 1/4 q: up
  checkRound("f32", RNE, KEEP, P2(25) - 3, -151, 0x007FFFFF);  // 2^23 - 3/4 q: down
  checkRound("f32", RNE, FTZ, P2(25) - 3, -151, 0x00000000);
  checkRoundBoth("f32", RNE, 1, -126, 0x00800000);             // 2^emin exact
  checkRoundBoth("f32", RTZ, 1, -126, 0x00800000);
  checkRoundBoth("f32", RNE, P2(23) + 1, -149, 0x00800001);    // just above 2^emin, exact
  checkRound("f32", RNE, KEEP, P2(23) - 1, -149, 0x007FFFFF);  // largest subnormal, exact
  checkRound("f32", RNE, FTZ, P2(23) - 1, -149, 0x00000000);
  // Against the native conversions too.
  CHECK(floatBits(float(std::ldexp(double((1 << 24) - 1), -150))) == 0x00800000);
  CHECK(floatBits(float(std::ldexp(3.0, -150))) == 0x2);
}

TEST_CASE("roundAcc f32: the overflow threshold and huge values", "[rounding][f32]") {
  // (2 - 2^-24) 2^127 = (2^25 - 1) 2^103: RNE -> inf, RTZ -> max finite.
  checkRoundBoth("f32", RNE, P2(25) - 1, 103, 0x7F800000);
  checkRoundBoth("f32", RTZ, P2(25) - 1, 103, 0x7F7FFFFF);
  // The largest value below the threshold on a finer grid: max finite in both modes.
  checkRoundBoth("f32", RNE, ((P2(25) - 1) << 20) - 1, 83, 0x7F7FFFFF);
  checkRoundBoth("f32", RTZ, ((P2(25) - 1) << 20) - 1, 83, 0x7F7FFFFF);
  checkRoundBoth("f32", RNE, P2(24) - 1, 104, 0x7F7FFFFF);  // max finite, exact
  checkRoundBoth("f32", RNE, 1, 127, 0x7F000000);
  checkRoundBoth("f32", RNE, 1, 128, 0x7F800000);           // 2^128
  checkRoundBoth("f32", RTZ, 1, 128, 0x7F7FFFFF);
  checkRoundBoth("f32", RNE, 1, 1000000, 0x7F800000);       // huge exponent
  checkRoundBoth("f32", RTZ, 1, 1000000, 0x7F7FFFFF);
  checkRoundBoth("f32", RNE, P2(300) + 1, 0, 0x7F800000);   // huge significand
  checkRoundBoth("f32", RTZ, P2(300) + 1, 0, 0x7F7FFFFF);
  checkRoundBoth("f32", RNE, P2(128) - 1, 0, 0x7F800000);   // rounds up to 2^128
  CHECK(floatBits(float(std::ldexp(double((1 << 25) - 1), 103))) == 0x7F800000);
  CHECK(floatBits(float(std::ldexp(double((1ll << 45) - (1ll << 20) - 1), 83))) == 0x7F7FFFFF);
}

TEST_CASE("roundAcc bf16: ties, boundary, overflow", "[rounding][bf16]") {
  checkRoundBoth("bf16", RNE, 257, -8, 0x3F80);  // 1 + 2^-8: tie to even
  checkRoundBoth("bf16", RNE, 259, -8, 0x3F82);  // 1 + 3 2^-8: tie to even (up)
  checkRoundBoth("bf16", RTZ, 259, -8, 0x3F81);
  checkRound("bf16", RNE, KEEP, 1, -133, 0x0001);  // smallest subnormal
  checkRound("bf16", RNE, FTZ, 1, -133, 0x0000);
  checkRoundBoth("bf16", RNE, 1, -134, 0x0000);
  checkRound("bf16", RNE, KEEP, 3, -134, 0x0002);
  checkRound("bf16", RTZ, KEEP, 3, -134, 0x0001);
  checkRoundBoth("bf16", RNE, 255, -134, 0x0080);  // tie at the boundary: up into 2^-126
  checkRound("bf16", RTZ, KEEP, 255, -134, 0x007F);
  checkRound("bf16", RTZ, FTZ, 255, -134, 0x0000);
  checkRoundBoth("bf16", RNE, 1, -126, 0x0080);
  checkRoundBoth("bf16", RNE, 255, 120, 0x7F7F);          // max finite
  checkRoundBoth("bf16", RNE, 511, 119, 0x7F80);          // (2 - 2^-8) 2^127: inf
  checkRoundBoth("bf16", RTZ, 511, 119, 0x7F7F);
  checkRoundBoth("bf16", RNE, (Integer(511) << 10) - 1, 109, 0x7F7F);  // just below
  checkRoundBoth("bf16", RNE, 1, 128, 0x7F80);
  checkRoundBoth("bf16", RTZ, 1, 5000, 0x7F7F);
  checkRoundBoth("bf16", RNE, 1, -256, 0x0000);
  // bf16 results of values exact in bf16 are the top half of the f32 pattern.
  for (auto [N, X] : {std::pair{255, 120}, std::pair{1, -133}, std::pair{3, -2}, std::pair{129, -200}}) {
    const uint64_t b32 = bitsOf(rnd(fv(false, N, X), accSpec("f32")), accFmt("f32"));
    CHECK(bitsOf(rnd(fv(false, N, X), accSpec("bf16")), accFmt("bf16")) == (b32 >> 16));
  }
}

TEST_CASE("roundAcc f16: ties, boundary, overflow", "[rounding][f16]") {
  checkRoundBoth("f16", RNE, 2049, -11, 0x3C00);  // 1 + 2^-11: tie to even
  checkRoundBoth("f16", RNE, 2051, -11, 0x3C02);
  checkRoundBoth("f16", RTZ, 2051, -11, 0x3C01);
  checkRound("f16", RNE, KEEP, 1, -24, 0x0001);
  checkRound("f16", RNE, FTZ, 1, -24, 0x0000);
  checkRoundBoth("f16", RNE, 1, -25, 0x0000);
  checkRound("f16", RNE, KEEP, 3, -25, 0x0002);
  checkRound("f16", RTZ, KEEP, 3, -25, 0x0001);
  checkRoundBoth("f16", RNE, 2047, -25, 0x0400);  // tie at the boundary: up into 2^-14
  checkRound("f16", RTZ, KEEP, 2047, -25, 0x03FF);
  checkRound("f16", RTZ, FTZ, 2047, -25, 0x0000);
  checkRoundBoth("f16", RNE, 1, -14, 0x0400);
  checkRoundBoth("f16", RNE, 2047, 5, 0x7BFF);     // 65504
  checkRoundBoth("f16", RNE, 4095, 4, 0x7C00);     // 65520 = (2 - 2^-11) 2^15: inf
  checkRoundBoth("f16", RTZ, 4095, 4, 0x7BFF);
  checkRoundBoth("f16", RNE, 65519, 0, 0x7BFF);    // just below (integer grid)
  checkRoundBoth("f16", RNE, (Integer(4095) << 30) - 1, -26, 0x7BFF);  // just below (fine grid)
  checkRoundBoth("f16", RNE, 65536, 0, 0x7C00);
  checkRoundBoth("f16", RTZ, 65536, 0, 0x7BFF);
  checkRoundBoth("f16", RNE, 1, -256, 0x0000);
  checkRoundBoth("f16", RNE, 1, 300, 0x7C00);
}

TEST_CASE("roundAcc f64: ties, boundary, overflow", "[rounding][f64]") {
  checkRoundBoth("f64", RNE, P2(53) + 1, -53, 0x3FF0000000000000ull);
  checkRoundBoth("f64", RNE, P2(53) + 3, -53, 0x3FF0000000000002ull);
  checkRoundBoth("f64", RTZ, P2(53) + 3, -53, 0x3FF0000000000001ull);
  checkRoundBoth("f64", RNE, P2(3000) + 1, -3000, 0x3FF0000000000000ull);
  checkRoundBoth("f64", RTZ, P2(3000) - 1, -3000, 0x3FEFFFFFFFFFFFFFull);
  checkRoundBoth("f64", RNE, P2(3000) - 1, -3000, 0x3FF0000000000000ull);
  checkRound("f64", RNE, KEEP, 1, -1074, 0x1);
  checkRound("f64", RNE, FTZ, 1, -1074, 0x0);
  checkRoundBoth("f64", RNE, 1, -1075, 0x0);
  checkRound("f64", RNE, KEEP, 3, -1075, 0x2);
  checkRound("f64", RTZ, KEEP, 3, -1075, 0x1);
  checkRoundBoth("f64", RNE, P2(53) - 1, -1075, 0x0010000000000000ull);  // tie into 2^emin
  checkRound("f64", RTZ, KEEP, P2(53) - 1, -1075, 0x000FFFFFFFFFFFFFull);
  checkRound("f64", RTZ, FTZ, P2(53) - 1, -1075, 0x0);
  checkRoundBoth("f64", RNE, 1, -1022, 0x0010000000000000ull);
  checkRoundBoth("f64", RNE, 1, -256, doubleBits(std::ldexp(1.0, -256)));  // normal in f64
  checkRoundBoth("f64", RNE, 1, -2000, 0x0);
  checkRoundBoth("f64", RNE, P2(53) - 1, 971, 0x7FEFFFFFFFFFFFFFull);    // max finite
  checkRoundBoth("f64", RNE, P2(54) - 1, 970, 0x7FF0000000000000ull);    // (2 - 2^-53) 2^1023
  checkRoundBoth("f64", RTZ, P2(54) - 1, 970, 0x7FEFFFFFFFFFFFFFull);
  checkRoundBoth("f64", RNE, ((P2(54) - 1) << 10) - 1, 960, 0x7FEFFFFFFFFFFFFFull);
  checkRoundBoth("f64", RNE, 1, 1024, 0x7FF0000000000000ull);
  checkRoundBoth("f64", RTZ, 1, 1024, 0x7FEFFFFFFFFFFFFFull);
  checkRoundBoth("f64", RNE, 1, 100000, 0x7FF0000000000000ull);
}

TEST_CASE("roundAcc: specials and zeros pass through unchanged", "[rounding]") {
  for (const AccFormat &f : accFormats())
    for (Rounding r : {RNE, RTZ})
      for (Subnormals s : {KEEP, FTZ}) {
        const AccSpec acc{f, r, s};
        INFO(f.name << " " << toString(r) << " " << toString(s));
        CHECK(rnd(nanv(), acc).nan);
        for (bool neg : {false, true}) {
          CVal i = rnd(infv(neg), acc);
          CHECK((i.inf && !i.nan && i.neg == neg));
          CVal z = rnd(fv(neg, 0, -77), acc);
          CHECK((!z.nan && !z.inf && z.neg == neg && z.N.isZero()));
          // A nonzero value that rounds to zero keeps its sign.
          CVal t = rnd(fv(neg, 1, -5000), acc);
          CHECK((!t.nan && !t.inf && t.neg == neg && t.N.isZero()));
        }
      }
}

TEST_CASE("roundAcc: random exact values against native float/double and a reference", "[rounding]") {
  std::mt19937_64 rng(77);
  long compared = 0, bad = 0;
  for (const RefFormat &fm : kRefFormats) {
    for (Rounding r : {RNE, RTZ})
      for (Subnormals s : {KEEP, FTZ}) {
        const AccSpec acc = accSpec(fm.name, r, s);
        for (int i = 0; i < 40000; ++i) {
          // A random significand of 1..64 bits, placed so that its binade lies around the
          // subnormal range, the normal range and the overflow threshold.
          const unsigned nb = 1 + unsigned(rng() % 64);
          uint64_t n = rng();
          if (nb < 64) n &= (uint64_t(1) << nb) - 1;
          n |= uint64_t(1) << (nb - 1);
          if (rng() % 4 == 0) n |= 1;  // sticky bits more often
          int binade;
          switch (rng() % 4) {
          case 0: binade = fm.ref.emin - fm.ref.p - 3 + int(rng() % unsigned(fm.ref.p + 6)); break;
          case 1: binade = fm.ref.emax - 2 + int(rng() % 5); break;
          case 2: binade = fm.ref.emin - 2 + int(rng() % 5); break;
          default:
            binade = fm.ref.emin - fm.ref.p - 5 + int(rng() % unsigned(fm.ref.emax - fm.ref.emin + fm.ref.p + 10));
          }
          const int X = binade - int(nb - 1);
          const bool neg = rng() & 1;
          const CVal out = rnd(fv(neg, Integer::fromU64(n), X), acc);
          const long double exact = (neg ? -1 : 1) * std::ldexp((long double)n, X);
          long double want;
          bool ok = matchesReference(out, exact, fm.ref, acc, want);
          // Native conversions: one IEEE rounding (subnormals kept).
          if (s == KEEP && std::string(fm.name) == "f32" && nb <= 53) {
            const float nat = nativeToFloat(std::ldexp(double(n) * (neg ? -1 : 1), X), r == RNE);
            ok = ok && bitsOf(out, acc.fmt) == floatBits(nat);
          }
          if (s == KEEP && std::string(fm.name) == "f64") {
            const double nat = nativeToDouble(exact, r == RNE);
            ok = ok && bitsOf(out, acc.fmt) == doubleBits(nat);
          }
          ++compared;
          if (!ok && bad++ < 10)
            FAIL_CHECK(fm.name << " " << toString(r) << " " << toString(s) << ": round "
                               << (neg ? "-" : "+") << n << "*2^" << X << " -> " << describe(out)
                               << ", reference " << (double)want);
        }
      }
  }
  CHECK(bad == 0);
  CHECK(compared == 4 * 4 * 40000);
}

TEST_CASE("roundAcc near 2^emin: every value against the reference (keep, FTZ, DAZ)", "[rounding][ftz]") {
  // The subnormal arms of roundAcc (models/arith.h, section 3): per binade m a zero arm for
  // the exponents where every bit is lost, and under FTZ for those whose result is always
  // flushed (X <= emin - m - 2 for RNE, X <= emin - m - 1 for RTZ); then one rounding arm
  // per exponent X for every binade at once (N < 2^(emin - X)), each rounding onto the grid
  // (and flushing under FTZ). Every significand of up to p + 3 bits with its value between
  // 2^(emin - p - 3) and 2^(emin + 1), both signs, against the reference rounding.
  long compared = 0, bad = 0, flushed = 0, kept = 0;
  for (const RefFormat &fm : kRefFormats) {
    if (std::string(fm.name) != "bf16" && std::string(fm.name) != "f16") continue;
    for (Rounding r : {RNE, RTZ})
      for (Subnormals s : {KEEP, FTZ, Subnormals::DAZ}) {
        const AccSpec acc = accSpec(fm.name, r, s);
        const int p = fm.ref.p;
        for (uint64_t n = 1; n < (uint64_t(1) << (p + 3)); ++n) {
          const int m = int(Integer::fromU64(n).msb());
          for (int top = fm.ref.emin - p - 3; top <= fm.ref.emin; ++top) {  // value in [2^top, 2^(top+1))
            const int X = top - m;
            for (bool neg : {false, true}) {
              const CVal out = rnd(fv(neg, Integer::fromU64(n), X), acc);
              const long double exact = (neg ? -1 : 1) * std::ldexp((long double)n, X);
              long double want;
              const bool ok = matchesReference(out, exact, fm.ref, acc, want);
              ++compared;
              (want == 0 ? flushed : kept) += 1;
              if (!ok && bad++ < 10)
                FAIL_CHECK(fm.name << " " << toString(r) << " " << toString(s) << ": round " << (neg ? "-" : "+")
                                   << n << "*2^" << X << " -> " << describe(out) << ", reference " << (double)want);
            }
          }
        }
      }
  }
  CHECK(bad == 0);
  // Both outcomes occur: values that round or flush to zero, and values that do not.
  CHECK(flushed > 0);
  CHECK(kept > 0);
  CHECK(compared == 2 * 3 * ((int64_t(1) << 11) - 1) * 12 * 2 + 2 * 3 * ((int64_t(1) << 14) - 1) * 15 * 2);
}

TEST_CASE("exact sums: zero signs", "[rounding][sum]") {
  for (Rounding r : {RNE, RTZ})
    for (Subnormals s : {KEEP, FTZ}) {
      const AccSpec acc = accSpec("f32", r, s);
      INFO(toString(r) << " " << toString(s));
      const CVal x = fv(false, 3, -1), mx = fv(true, 3, -1), mx2 = fv(true, 6, -2);
      CHECK(bitsOf(sumRound({x, mx}, acc), acc.fmt) == 0x00000000);   // x + (-x) = +0
      CHECK(bitsOf(sumRound({mx, x}, acc), acc.fmt) == 0x00000000);
      CHECK(bitsOf(sumRound({x, mx2}, acc), acc.fmt) == 0x00000000);  // other representation
      CHECK(bitsOf(sumRound({kNZero, kNZero}, acc), acc.fmt) == 0x80000000);
      CHECK(bitsOf(sumRound({kPZero, kNZero}, acc), acc.fmt) == 0x00000000);
      CHECK(bitsOf(sumRound({kNZero, kPZero}, acc), acc.fmt) == 0x00000000);
      CHECK(bitsOf(sumRound({kPZero, kPZero}, acc), acc.fmt) == 0x00000000);
      CHECK(bitsOf(sumRound({kNZero, kNZero, kNZero}, acc), acc.fmt) == 0x80000000);
      CHECK(bitsOf(sumRound({kNZero, kNZero, kPZero}, acc), acc.fmt) == 0x00000000);
      CHECK(bitsOf(sumRound({kNZero, mx, x}, acc), acc.fmt) == 0x00000000);
      CHECK(bitsOf(sumRound({kNZero, mx}, acc), acc.fmt) == floatBits(-1.5f));
      CHECK(bitsOf(sumRound({kNZero, fv(true, 1, -5000)}, acc), acc.fmt) == 0x80000000);
      // Tiny sums that round to zero keep their sign.
      CHECK(bitsOf(sumRound({fv(true, 1, -200), fv(false, 1, -201)}, acc), acc.fmt) == 0x80000000);
    }
}

TEST_CASE("exact sums: NaN and infinities", "[rounding][sum]") {
  const AccSpec acc = accSpec("f32");
  const CVal one = fv(false, 1, 0), pinf = infv(false), ninf = infv(true), nan = nanv();
  CHECK(sumRound({nan, one}, acc).nan);
  CHECK(sumRound({one, nan}, acc).nan);
  CHECK(sumRound({nan, pinf}, acc).nan);
  CHECK(sumRound({ninf, nan}, acc).nan);
  CHECK(sumRound({pinf, ninf}, acc).nan);
  CHECK(sumRound({ninf, pinf}, acc).nan);
  CHECK(sumRound({pinf, one, ninf}, acc).nan);
  CHECK(bitsOf(sumRound({pinf, one}, acc), acc.fmt) == 0x7F800000);
  CHECK(bitsOf(sumRound({fv(true, 5, 100), pinf}, acc), acc.fmt) == 0x7F800000);
  CHECK(bitsOf(sumRound({ninf, fv(false, 5, 100)}, acc), acc.fmt) == 0xFF800000);
  CHECK(bitsOf(sumRound({pinf, pinf}, acc), acc.fmt) == 0x7F800000);
  CHECK(bitsOf(sumRound({ninf, ninf, ninf}, acc), acc.fmt) == 0xFF800000);
  CHECK(bitsOf(sumRound({pinf, kNZero}, acc), acc.fmt) == 0x7F800000);
  CHECK(bitsOf(sumRound({kNZero, ninf}, acc), acc.fmt) == 0xFF800000);
  // Finite overflow of an exact sum is decided by the one rounding.
  CHECK(bitsOf(sumRound({fv(false, 1, 127), fv(false, 1, 127)}, acc), acc.fmt) == 0x7F800000);
  CHECK(bitsOf(sumRound({fv(false, 1, 127), fv(false, 1, 127)}, accSpec("f32", RTZ)), acc.fmt) ==
        0x7F7FFFFF);
}

TEST_CASE("exact sums: one rounding per node (fused)", "[rounding][sum]") {
  const AccSpec acc = accSpec("f32");
  const CVal big = fv(false, 1, 30), one = fv(false, 1, 0), mbig = fv(true, 1, 30);
  // Fused: 2^30 + 1 - 2^30 = 1 exactly. Two IEEE additions: (2^30 + 1) rounds to 2^30, then 0.
  CHECK(bitsOf(sumRound({big, one, mbig}, acc), acc.fmt) == 0x3F800000);
  volatile float fb = 0x1p30f, f1 = 1.0f;
  volatile float t = fb + f1;
  volatile float u = t - fb;
  CHECK(floatBits(u) == 0x00000000);
  ConcreteDomain d;
  const std::vector<CVal> leaves = {big, one, mbig};
  CHECK(bitsOf(evalTree(d, Tree::fused(3), leaves, acc), acc.fmt) == 0x3F800000);
  CHECK(bitsOf(evalTree(d, Tree::seq(3), leaves, acc), acc.fmt) == floatBits(u));
  // 1 + 2^-24 alone is a tie to 1; with 2^-50 more it rounds up.
  CHECK(bitsOf(sumRound({one, fv(false, 1, -24)}, acc), acc.fmt) == 0x3F800000);
  CHECK(bitsOf(sumRound({one, fv(false, 1, -24), fv(false, 1, -50)}, acc), acc.fmt) == 0x3F800001);
}

TEST_CASE("exact products: specials and signs", "[rounding][product]") {
  const CVal pinf = infv(false), ninf = infv(true), nan = nanv();
  const CVal two = fv(false, 1, 1), mtwo = fv(true, 1, 1);
  CHECK(mul(kPZero, pinf).nan);
  CHECK(mul(pinf, kPZero).nan);
  CHECK(mul(kNZero, pinf).nan);
  CHECK(mul(ninf, kNZero).nan);
  CHECK(mul(nan, kPZero).nan);
  CHECK(mul(two, nan).nan);
  CVal r = mul(pinf, mtwo);
  CHECK((r.inf && !r.nan && r.neg));
  r = mul(ninf, mtwo);
  CHECK((r.inf && !r.nan && !r.neg));
  r = mul(ninf, pinf);
  CHECK((r.inf && !r.nan && r.neg));
  const AccSpec acc = accSpec("f32");
  CHECK(bitsOf(rnd(mul(kNZero, two), acc), acc.fmt) == 0x80000000);   // -0 * 2 = -0
  CHECK(bitsOf(rnd(mul(kNZero, mtwo), acc), acc.fmt) == 0x00000000);  // -0 * -2 = +0
  CHECK(bitsOf(rnd(mul(kPZero, mtwo), acc), acc.fmt) == 0x80000000);  // +0 * -2 = -0
  CHECK(bitsOf(rnd(mul(kPZero, two), acc), acc.fmt) == 0x00000000);
  CHECK(bitsOf(rnd(mul(kNZero, kNZero), acc), acc.fmt) == 0x00000000);
  CHECK(bitsOf(rnd(mul(kNZero, kPZero), acc), acc.fmt) == 0x80000000);
  // Exact magnitudes: 1.5 * -20 = -30, no rounding inside mulExact.
  CHECK(bitsOf(rnd(mul(fv(false, 3, -1), fv(true, 5, 2)), acc), acc.fmt) == floatBits(-30.0f));
  r = mul(fv(false, P2(40) + 1, 0), fv(false, P2(40) + 1, 0));
  CHECK(canonical(r).N == (P2(40) + 1) * (P2(40) + 1));
  // Element level: e5m2 inf times zero is NaN in every placement; inf times 1 is inf.
  const ModelConfig cfg = config("e5m2", "e5m2", accSpec("f32"), "seq", 1);
  for (CVal v : evaluatePlacements(cfg, allPlacements(), ConcreteInput{{0x7C}, {0x00}, 127, 127}))
    CHECK(v.nan);
  for (CVal v : evaluatePlacements(cfg, allPlacements(), ConcreteInput{{0xFC}, {0x3C}, 127, 127}))
    CHECK(bitsOf(v, cfg.acc.fmt) == 0xFF800000);
}

TEST_CASE("mulRoundedPow2 (post2's scaling) = rnd(V rnd(2^s)) for every s and accumulator", "[rounding][post2]") {
  // post2 multiplies by rnd(2^sa) and rnd(2^sb); models/placement.h writes that step as a split
  // on the range of s. Here it is compared with the definition, roundAcc of the product with
  // roundAcc(2^s), bit for bit, for every s that a scale code or an extreme takes.
  ConcreteDomain d;
  std::vector<CVal> vals;
  for (bool neg : {false, true}) {
    for (int64_t N : {0, 1, 3, 5, 127, 255, 2047, 65535, 16777215})
      for (int64_t X : {-160, -140, -130, -126, -30, -24, -14, -2, 0, 5, 15, 100, 127})
        vals.push_back(fv(neg, Integer(N), X));
    vals.push_back(CVal{false, true, neg, Integer(0), Integer(0)});  // ±inf
  }
  vals.push_back(CVal{true, false, false, Integer(0), Integer(0)});  // NaN
  size_t compared = 0;
  for (const std::string fmt : {"f32", "bf16", "f16", "f64"})
    for (Rounding r : {RNE, RTZ})
      for (Subnormals sub : {KEEP, FTZ, Subnormals::DAZ}) {
        const AccSpec acc = accSpec(fmt, r, sub);
        for (int64_t s = -300; s <= 300; ++s)
          for (const CVal &v : vals) {
            const CVal want = roundAcc(d, mulExact(d, v, roundAcc(d, pow2Val(d, Integer(s)), acc)), acc);
            const CVal got = mulRoundedPow2(d, v, Integer(s), acc);
            INFO(fmt << " " << toString(r) << " " << toString(sub) << " s = " << s << ", V = " << describe(v));
            REQUIRE(related(d, got, want, Relation::Bitwise));
            REQUIRE(bitsOf(got, acc.fmt) == bitsOf(want, acc.fmt));
            ++compared;
          }
      }
  CHECK(compared == size_t(4 * 2 * 3) * 601 * vals.size());
}

TEST_CASE("dequant's leaf, written with pre's leaf where its scalings are exact, = rnd(rnd(2^sa a) rnd(2^sb b))",
          "[rounding][dequant]") {
  // Beside pre, a query writes dequant's leaf as a split whose first arm is pre's leaf
  // rnd(2^e a b), where A = rnd(2^sa a) and B = rnd(2^sb b) are 2^sa a and 2^sb b themselves
  // (models/placement.h, placementLeafBeside and dequantLeafSharingPre). Here it is compared
  // with the definition, dequantLeaf of the two dequantized elements, bit for bit: random code
  // pairs of e2m1 x e4m3 and e5m2 x e4m3 at scales where the elements round in the
  // subnormals, flush, overflow or are exact, in every accumulator mode.
  ConcreteDomain d;
  std::mt19937 rng(20261207);
  const int scaleCodes[] = {0, 1, 2, 4, 9, 127, 200, 254, 255};
  size_t compared = 0, viaPre = 0;
  for (const std::string fmt : {"f32", "bf16", "f16", "f64"})
    for (Rounding r : {RNE, RTZ})
      for (Subnormals sub : {KEEP, FTZ, Subnormals::DAZ})
        for (auto [fa, fb] : {std::pair{"e2m1", "e4m3"}, std::pair{"e5m2", "e4m3"}}) {
          const AccSpec acc = accSpec(fmt, r, sub);
          const ModelConfig cfg = config(fa, fb, acc, "seq", 2);
          const ElementFormat A = cfg.a, B = cfg.b;
          std::vector<std::pair<int, int>> codes;
          std::uniform_int_distribution<int> ua(0, int(A.numCodes()) - 1), ub(0, int(B.numCodes()) - 1);
          for (int n = 0; n < 600; ++n) codes.emplace_back(ua(rng), ub(rng));
          for (int xa : scaleCodes)
            for (int xb : scaleCodes) {
              const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
              for (auto [ca, cb] : codes) {
                const CVal a = decodeElement(d, A, Integer(int64_t(ca)));
                const CVal b = decodeElement(d, B, Integer(int64_t(cb)));
                const CVal Ad = dequantElement(d, acc, a, s.sa), Bd = dequantElement(d, acc, b, s.sb);
                const CVal want = dequantLeaf(d, cfg, Ad, Bd, s);
                const CVal got = placementLeafBeside(d, Placement::Dequant, Placement::Pre, cfg, a, b, s);
                INFO(fmt << " " << toString(r) << " " << toString(sub) << " " << fa << " x " << fb << " xa = " << xa
                         << " xb = " << xb << " codes " << ca << ", " << cb);
                REQUIRE(related(d, got, want, Relation::Bitwise));
                REQUIRE(bitsOf(got, acc.fmt) == bitsOf(want, acc.fmt));
                if (sameVal(d, Ad, scaleExact(d, a, s.sa)) && sameVal(d, Bd, scaleExact(d, b, s.sb))) ++viaPre;
                ++compared;
              }
            }
        }
  // Both arms occur.
  CHECK(viaPre > compared / 4);
  CHECK(viaPre < compared);
}

TEST_CASE("post2's step, written with post's step where its first rounding is exact, = placementRoot's",
          "[rounding][post2]") {
  // Beside post, a query writes post2's step as a split whose first arm is post's step
  // rnd(2^e T), where both scales are exact powers of two and rnd(T 2^sa) is T 2^sa itself
  // (models/placement.h, placementRootBeside and post2StepSharingPost). Here it is compared
  // with placementRoot's post2 step, bit for bit, for tree values across the binades and
  // scale pairs below, at and above every accumulator's exact range, in every mode.
  ConcreteDomain d;
  std::vector<CVal> vals;
  for (bool neg : {false, true}) {
    for (int64_t N : {0, 1, 3, 5, 127, 255, 2047, 65535})
      for (int64_t X : {-160, -140, -130, -126, -30, -24, -14, -2, 0, 5, 15, 100})
        vals.push_back(fv(neg, Integer(N), X));
    vals.push_back(CVal{false, true, neg, Integer(0), Integer(0)});  // ±inf
  }
  vals.push_back(CVal{true, false, false, Integer(0), Integer(0)});  // NaN
  const int scaleCodes[] = {0, 1, 3, 60, 100, 103, 110, 120, 126, 127, 128, 135, 142, 143, 200, 254, 255};
  size_t compared = 0, viaPost = 0;
  for (const std::string fmt : {"f32", "bf16", "f16", "f64"})
    for (Rounding r : {RNE, RTZ})
      for (Subnormals sub : {KEEP, FTZ, Subnormals::DAZ}) {
        const AccSpec acc = accSpec(fmt, r, sub);
        const ModelConfig cfg = config("e2m1", "e2m1", acc, "seq", 2);
        const auto [lo, hi] = exactPow2Range(acc);
        for (int xa : scaleCodes)
          for (int xb : scaleCodes) {
            const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
            for (const CVal &T : vals) {
              const CVal want = placementRoot(d, Placement::Post2, cfg, T, s);
              const CVal got = placementRootBeside(d, Placement::Post2, Placement::Post, cfg, T, s);
              INFO(fmt << " " << toString(r) << " " << toString(sub) << " xa = " << xa << " xb = " << xb
                       << ", T = " << describe(T));
              REQUIRE(related(d, got, want, Relation::Bitwise));
              REQUIRE(bitsOf(got, acc.fmt) == bitsOf(want, acc.fmt));
              const int sa = xa - 127, sb = xb - 127;
              if (xa != 255 && xb != 255 && lo <= sa && sa <= hi && lo <= sb && sb <= hi &&
                  sameVal(d, roundAcc(d, scaleExact(d, T, Integer(int64_t(sa))), acc),
                          scaleExact(d, T, Integer(int64_t(sa)))))
                ++viaPost;
              ++compared;
            }
          }
      }
  // Both arms occur.
  CHECK(viaPost > compared / 10);
  CHECK(viaPost < compared * 3 / 4);
}

// tests/unit/test_formats.cpp — the number formats of SPEC §2.
//  * every code of every element format, decoded by the model (decodeElementCode and the
//    generic decodeElement<ConcreteDomain>), equals an independent decoding written here
//    (bit fields -> double with std::ldexp, exact for these formats), specials included;
//  * the SPEC §2 table (bits, bias, largest, smallest subnormal, specials);
//  * every e8m0 scale code: a k = 1 block with a = b = 1 evaluates to 2^(x - 127), and code
//    255 gives NaN in every placement;
//  * accumulator bit patterns: decodeBits/encodeBits round trips and values against native
//    float/double (f32, f64) or an independent decoding (bf16, f16).
#include "helpers.h"
#include "models/value_io.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

using namespace mxcert;
using namespace mxtest;

namespace {

/// One row of the SPEC §2 element-format table, written out independently of the models.
struct RefElement {
  const char *name;
  unsigned ebits, mbits;
  int bias;
  double largest;
  double smallestSub;
  int nanCodes;  ///< number of NaN codes (both signs)
  int infCodes;  ///< number of infinity codes (both signs)
};

const RefElement kRefElements[] = {
    {"e2m1", 2, 1, 1, 6.0, 0.5, 0, 0},
    {"e2m3", 2, 3, 1, 7.5, 0.125, 0, 0},
    {"e3m2", 3, 2, 3, 28.0, 0.0625, 0, 0},
    {"e4m3", 4, 3, 7, 448.0, 0x1p-9, 2, 0},
    {"e5m2", 5, 2, 15, 57344.0, 0x1p-16, 6, 2},
};

/// Independent decoding of an element code: sign, exponent field and mantissa field, value
/// (1 + m/2^M) * 2^(e - bias) (normal) or (m/2^M) * 2^(1 - bias) (subnormal), computed in
/// double (exact). Specials per SPEC §2: e4m3 S.1111.111 is NaN (no inf); e5m2 is IEEE-like
/// (exponent all ones: inf when m = 0, else NaN); the other formats have none.
double refDecode(const RefElement &f, unsigned code) {
  const unsigned bits = 1 + f.ebits + f.mbits;
  const bool s = (code >> (bits - 1)) & 1u;
  const unsigned e = (code >> f.mbits) & ((1u << f.ebits) - 1u);
  const unsigned m = code & ((1u << f.mbits) - 1u);
  const std::string name = f.name;
  if (name == "e4m3" && e == 15 && m == 7) return std::numeric_limits<double>::quiet_NaN();
  if (name == "e5m2" && e == 31)
    return m == 0 ? (s ? -HUGE_VAL : HUGE_VAL) : std::numeric_limits<double>::quiet_NaN();
  const double frac = double(m) / double(1u << f.mbits);
  const double mag = e == 0 ? std::ldexp(frac, 1 - f.bias) : std::ldexp(1.0 + frac, int(e) - f.bias);
  return s ? -mag : mag;
}

/// The value of an exact model state as a double (exact for element values), NaN/inf kept.
double modelDouble(bool nan, bool inf, bool neg, const Integer &N, int64_t X) {
  if (nan) return std::numeric_limits<double>::quiet_NaN();
  if (inf) return neg ? -HUGE_VAL : HUGE_VAL;
  const double mag = std::ldexp(N.toDouble(), int(X));
  return neg ? -mag : mag;
}

/// Whether two doubles are the same value including the sign of zero (NaNs all equal).
bool sameDouble(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return x == y && std::signbit(x) == std::signbit(y);
}

}  // namespace

TEST_CASE("element formats: the list and the SPEC §2 table", "[formats]") {
  const auto &fs = elementFormats();
  REQUIRE(fs.size() == 5);
  for (size_t i = 0; i < 5; ++i) {
    const RefElement &r = kRefElements[i];
    INFO("format " << r.name);
    CHECK(fs[i].name == r.name);
    CHECK(fs[i].ebits == r.ebits);
    CHECK(fs[i].mbits == r.mbits);
    CHECK(fs[i].bias == r.bias);
    CHECK(fs[i].bits() == 1 + r.ebits + r.mbits);
    CHECK(fs[i].numCodes() == (1u << (1 + r.ebits + r.mbits)));
    CHECK(std::ldexp(1.0, fs[i].quantumExp()) == r.smallestSub);
    CHECK(fs[i].hasNaN() == (r.nanCodes > 0));
    CHECK(fs[i].hasInf() == (r.infCodes > 0));
    // Largest finite, smallest positive and special counts, from the independent decoding.
    double largest = 0, smallest = HUGE_VAL;
    int nans = 0, infs = 0;
    for (unsigned c = 0; c < fs[i].numCodes(); ++c) {
      double v = refDecode(r, c);
      if (std::isnan(v)) {
        ++nans;
      } else if (std::isinf(v)) {
        ++infs;
      } else {
        largest = std::max(largest, std::fabs(v));
        if (v != 0) smallest = std::min(smallest, std::fabs(v));
      }
    }
    CHECK(largest == r.largest);
    CHECK(smallest == r.smallestSub);
    CHECK(nans == r.nanCodes);
    CHECK(infs == r.infCodes);
    REQUIRE(findElementFormat(r.name).has_value());
  }
  CHECK(fs[0].numCodes() == 16);
  CHECK(fs[1].numCodes() == 64);
  CHECK(fs[2].numCodes() == 64);
  CHECK(fs[3].numCodes() == 256);
  CHECK(fs[4].numCodes() == 256);
  CHECK_FALSE(findElementFormat("e8m0").has_value());
  CHECK_FALSE(findElementFormat("fp4").has_value());
}

TEST_CASE("element formats: every code decodes as the independent decoding", "[formats]") {
  ConcreteDomain d;
  long checked = 0;
  for (const RefElement &r : kRefElements) {
    const ElementFormat f = elem(r.name);
    for (unsigned c = 0; c < f.numCodes(); ++c) {
      INFO("format " << r.name << " code " << c);
      const double ref = refDecode(r, c);
      const bool refNeg = std::signbit(ref);
      // decodeElementCode: n in units of the quantum.
      ElementValue v = decodeElementCode(f, c);
      CHECK(v.nan == std::isnan(ref));
      CHECK(v.inf == std::isinf(ref));
      if (!std::isnan(ref)) {
        CHECK(v.neg == refNeg);
        CHECK(sameDouble(modelDouble(v.nan, v.inf, v.neg, v.n, f.quantumExp()), ref));
      }
      // The generic decoder of arith.h on the concrete domain.
      CVal g = decodeElement(d, f, Integer(int64_t(c)));
      CHECK(g.nan == std::isnan(ref));
      CHECK(g.inf == std::isinf(ref));
      if (!std::isnan(ref)) {
        CHECK(g.neg == refNeg);
        CHECK(sameDouble(modelDouble(g.nan, g.inf, g.neg, g.N, g.X.toInt64()), ref));
      }
      // The list decoder agrees too.
      CVal l = decodeElements(f, {c})[0];
      CHECK(sameState(l, g));
      ++checked;
    }
  }
  CHECK(checked == 16 + 64 + 64 + 256 + 256);
  CHECK_THROWS(decodeElementCode(elem("e2m1"), 16));
  CHECK_THROWS(decodeElements(elem("e4m3"), {256}));
}

TEST_CASE("element formats: special codes by name", "[formats]") {
  const ElementFormat e4m3 = elem("e4m3"), e5m2 = elem("e5m2");
  for (unsigned c = 0; c < 256; ++c) {
    INFO("code " << c);
    CHECK(decodeElementCode(e4m3, c).nan == (c == 0x7F || c == 0xFF));
    CHECK_FALSE(decodeElementCode(e4m3, c).inf);
    const bool e5inf = c == 0x7C || c == 0xFC;
    const bool e5nan = (c >= 0x7D && c <= 0x7F) || (c >= 0xFD && c <= 0xFF);
    CHECK(decodeElementCode(e5m2, c).inf == e5inf);
    CHECK(decodeElementCode(e5m2, c).nan == e5nan);
  }
  CHECK_FALSE(decodeElementCode(e5m2, 0x7C).neg);
  CHECK(decodeElementCode(e5m2, 0xFC).neg);
  // Largest finite codes: e4m3 0x7E = 448, e5m2 0x7B = 57344, e2m1 0x7 = 6.
  CHECK(decodeElementCode(e4m3, 0x7E).n == Integer(448) << 9);
  CHECK(decodeElementCode(e5m2, 0x7B).n == Integer(57344) << 16);
  CHECK(decodeElementCode(elem("e2m1"), 0x7).n == Integer(12));
}

TEST_CASE("element values: text round trip through parseElement/elementToString", "[formats]") {
  for (const ElementFormat &f : elementFormats())
    for (unsigned c = 0; c < f.numCodes(); ++c) {
      INFO("format " << f.name << " code " << c << " text " << elementToString(f, c));
      ElementValue v = decodeElementCode(f, c);
      unsigned back = parseElement(f, elementToString(f, c));
      if (v.nan)
        CHECK(decodeElementCode(f, back).nan);
      else
        CHECK(back == c);
      // The hex form names the code itself.
      CHECK(parseElement(f, hex(c)) == c);
    }
}

TEST_CASE("element values: decimals with leading zeros and other spellings", "[formats][values]") {
  // Every decimal spelling of a representable value is accepted, including those whose digit
  // string starts with 0 ("0.25" has the digits "025"), and names the right code.
  const ElementFormat e2m1 = elem("e2m1"), e2m3 = elem("e2m3"), e3m2 = elem("e3m2"),
                      e4m3 = elem("e4m3"), e5m2 = elem("e5m2");
  CHECK(parseElement(e2m1, "0.5") == 0x1);
  CHECK(parseElement(e2m1, "6") == 0x7);
  CHECK(parseElement(e2m1, "6.0") == 0x7);
  CHECK(parseElement(e2m1, "06") == 0x7);
  CHECK(parseElement(e2m1, "60e-1") == 0x7);
  CHECK(parseElement(e2m1, "-1.5") == 0xB);
  CHECK(parseElement(e2m1, "-0") == 0x8);
  CHECK(parseElement(e2m1, "+1") == 0x2);
  CHECK(parseElement(e2m3, "0.125") == 0x01);
  CHECK(parseElement(e2m3, "0.25") == 0x02);
  CHECK(parseElement(e2m3, "0.375") == 0x03);
  CHECK(parseElement(e2m3, "-0.875") == 0x27);
  CHECK(parseElement(e3m2, "0.0625") == 0x01);
  CHECK(parseElement(e3m2, "0.25") == 0x04);
  CHECK(parseElement(e4m3, "0.001953125") == 0x01);
  CHECK(parseElement(e4m3, "0.015625") == 0x08);
  CHECK(parseElement(e5m2, "0.0000152587890625") == 0x01);
  CHECK(parseElement(e5m2, "57344") == 0x7B);
  CHECK(parseElement(e5m2, "-inf") == 0xFC);
  CHECK(decodeElementCode(e4m3, parseElement(e4m3, "nan")).nan);
  CHECK(decodeElementCode(e5m2, parseElement(e5m2, "nan")).nan);
  CHECK_THROWS_AS(parseElement(e2m1, "0.3"), ValueError);
  CHECK_THROWS_AS(parseElement(e2m1, "0.25"), ValueError);
  CHECK_THROWS_AS(parseElement(e4m3, "inf"), ValueError);
  CHECK_THROWS_AS(parseElement(e2m1, "nan"), ValueError);
  CHECK_THROWS_AS(parseElement(e2m1, "abc"), ValueError);
  CHECK_THROWS_AS(parseElement(e2m1, "0x10"), ValueError);
}

TEST_CASE("e8m0 scale codes: a k=1 block with a = b = 1 scales by 2^(x - 127)", "[formats][scale]") {
  const ElementFormat e2m1 = elem("e2m1");
  const unsigned one = 0x2;  // e2m1 0.01.0 = 1.0
  REQUIRE(parseElement(e2m1, "1") == one);
  const ModelConfig cfg32 = config("e2m1", "e2m1", accSpec("f32"), "seq", 1);
  const std::vector<Placement> all = allPlacements();
  for (unsigned x = 0; x <= 254; ++x) {
    INFO("scale code " << x);
    // 2^(x - 127) is exact in f32 (2^-127 is a subnormal), so every placement gives it.
    const uint64_t expect = floatBits(std::ldexp(1.0f, int(x) - 127));
    for (auto [xa, xb] : {std::pair{x, 127u}, std::pair{127u, x}}) {
      std::vector<CVal> r = evaluatePlacements(cfg32, all, ConcreteInput{{one}, {one}, xa, xb});
      for (size_t i = 0; i < all.size(); ++i) {
        INFO("placement " << toString(all[i]) << " xa " << xa << " xb " << xb << " got " << describe(r[i]));
        CHECK(bitsOf(r[i], cfg32.acc.fmt) == expect);
      }
    }
  }
  // Code 255 on either side: NaN in every placement, whatever the other code and elements.
  for (unsigned other : {0u, 1u, 127u, 200u, 254u, 255u})
    for (unsigned ea : {0u, one, 0x8u, 0x7u})
      for (auto [xa, xb] : {std::pair{255u, other}, std::pair{other, 255u}}) {
        std::vector<CVal> r = evaluatePlacements(cfg32, all, ConcreteInput{{ea}, {one}, xa, xb});
        for (size_t i = 0; i < all.size(); ++i) {
          INFO("placement " << toString(all[i]) << " xa " << xa << " xb " << xb << " a " << ea);
          CHECK(r[i].nan);
          CHECK(bitsOf(r[i], cfg32.acc.fmt) == 0x7FC00000u);
        }
      }
  CHECK_THROWS_AS(evaluatePlacements(cfg32, all, ConcreteInput{{one}, {one}, 256, 127}),
                  std::invalid_argument);
}

TEST_CASE("e8m0 scale codes: every pair (xa, xb) scales by 2^(xa + xb - 254) in f64", "[formats][scale]") {
  // In f64 every 2^e (e in -254..254) and every product of two scales is exact, so every
  // placement of a k = 1 block with a = b = 1 gives exactly 2^(xa + xb - 254).
  const ModelConfig cfg = config("e2m1", "e2m1", accSpec("f64"), "seq", 1);
  const std::vector<Placement> all = allPlacements();
  long bad = 0;
  for (unsigned xa = 0; xa <= 254; ++xa)
    for (unsigned xb = 0; xb <= 254; ++xb) {
      std::vector<CVal> r = evaluatePlacements(cfg, all, ConcreteInput{{0x2}, {0x2}, xa, xb});
      const uint64_t expect = doubleBits(std::ldexp(1.0, int(xa + xb) - 254));
      for (size_t i = 0; i < all.size(); ++i)
        if (bitsOf(r[i], cfg.acc.fmt) != expect && bad++ < 10)
          FAIL_CHECK("placement " << toString(all[i]) << " xa " << xa << " xb " << xb << " got "
                                  << describe(r[i]));
    }
  CHECK(bad == 0);
}

TEST_CASE("accumulator formats: parameters", "[formats][acc]") {
  const auto &fs = accFormats();
  REQUIRE(fs.size() == 4);
  struct Row {
    const char *name;
    int p, emax;
    unsigned bits, expBits;
  };
  const Row rows[] = {{"f32", 24, 127, 32, 8}, {"bf16", 8, 127, 16, 8}, {"f16", 11, 15, 16, 5},
                      {"f64", 53, 1023, 64, 11}};
  for (const Row &r : rows) {
    INFO("format " << r.name);
    AccFormat f = accFmt(r.name);
    CHECK(f.p == r.p);
    CHECK(f.emax == r.emax);
    CHECK(f.emin() == 1 - r.emax);
    CHECK(f.bits() == r.bits);
    CHECK(f.expBits() == r.expBits);
    CHECK(f.quantumExp() == 1 - r.emax - r.p + 1);
  }
  CHECK(accFmt("f32").quantumExp() == -149);
  CHECK(accFmt("f64").quantumExp() == -1074);
  CHECK(accFmt("f16").quantumExp() == -24);
  CHECK(accFmt("bf16").quantumExp() == -133);
  CHECK_FALSE(findAccFormat("f8").has_value());
}

namespace {

/// Checks one bit pattern of format f: decodeBits gives the value `ref` (NaN/inf/signed
/// zero included) and encodeBits gives the pattern back (NaNs: the canonical NaN).
/// Returns false (and records a failure) on a mismatch.
bool checkPattern(uint64_t bits, const AccFormat &f, double ref, uint64_t canonicalNaN) {
  CVal v = decodeBits(bits, f);
  const double got = v.nan ? std::numeric_limits<double>::quiet_NaN() : toDouble(v);
  const uint64_t back = encodeBits(v, f);
  const bool ok = sameDouble(got, ref) && (std::isnan(ref) ? back == canonicalNaN : back == bits);
  if (!ok)
    FAIL_CHECK(f.name << " pattern " << hex(bits) << ": decoded " << describe(v) << " (ref " << ref
                      << "), re-encoded " << hex(back));
  return ok;
}

/// Independent decoding of an IEEE binary16 pattern.
double refF16(uint32_t u) {
  const bool s = u >> 15;
  const unsigned e = (u >> 10) & 31, m = u & 1023;
  double mag;
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : (s ? -HUGE_VAL : HUGE_VAL);
  mag = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), int(e) - 25);
  return s ? -mag : mag;
}

}  // namespace

TEST_CASE("accumulator formats: bf16 and f16, every bit pattern", "[formats][acc]") {
  const AccFormat bf16 = accFmt("bf16"), f16 = accFmt("f16");
  long bad = 0;
  for (uint32_t u = 0; u < 65536; ++u) {
    // bf16 is the top half of a binary32.
    if (!checkPattern(u, bf16, double(floatFromBits(u << 16)), 0x7FC0)) ++bad;
    if (!checkPattern(u, f16, refF16(u), 0x7E00)) ++bad;
    if (bad > 20) break;
  }
  CHECK(bad == 0);
  CHECK(hexBits(0x7FC0, bf16) == "0x7FC0");
  CHECK(hexBits(0x1, f16) == "0x0001");
}

TEST_CASE("accumulator formats: f32 and f64 bit patterns against native float/double", "[formats][acc]") {
  const AccFormat f32 = accFmt("f32"), f64 = accFmt("f64");
  std::vector<uint32_t> p32 = {0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x00800000,
                               0x3F800000, 0x3F800001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
                               0x7FC00000, 0x7F800001, 0xFFFFFFFF, 0x00400000, 0x80800000};
  std::vector<uint64_t> p64 = {0x0ull, 0x8000000000000000ull, 0x1ull, 0x000FFFFFFFFFFFFFull,
                               0x0010000000000000ull, 0x3FF0000000000000ull, 0x7FEFFFFFFFFFFFFFull,
                               0x7FF0000000000000ull, 0xFFF0000000000000ull, 0x7FF8000000000000ull,
                               0x7FF0000000000001ull, 0xFFFFFFFFFFFFFFFFull};
  std::mt19937_64 rng(20240611);
  for (int i = 0; i < 200000; ++i) {
    uint64_t r = rng();
    p32.push_back(uint32_t(r));
    p64.push_back(r);
    // Small and large exponents more often.
    p32.push_back(uint32_t(r & 0x80FFFFFFu));
    p32.push_back(uint32_t(r | 0x7F000000u));
    p64.push_back(r & 0x801FFFFFFFFFFFFFull);
  }
  long bad = 0;
  for (uint32_t u : p32)
    if (!checkPattern(u, f32, double(floatFromBits(u)), 0x7FC00000u) && ++bad > 20) break;
  for (uint64_t u : p64)
    if (!checkPattern(u, f64, doubleFromBits(u), 0x7FF8000000000000ull) && ++bad > 20) break;
  CHECK(bad == 0);
  CHECK(encodeBits(nanv(), f32) == 0x7FC00000u);
  CHECK(encodeBits(nanv(), f64) == 0x7FF8000000000000ull);
  CHECK(encodeBits(nanv(), accFmt("f16")) == 0x7E00u);
  CHECK(encodeBits(nanv(), accFmt("bf16")) == 0x7FC0u);
  CHECK(hexBits(0x7FC00000u, f32) == "0x7FC00000");
  CHECK(hexBits(0x1, f64) == "0x0000000000000001");
  // Values that are not representable are rejected, not silently rounded.
  CHECK_THROWS_AS(encodeBits(fv(false, 3, -150), f32), std::logic_error);
  CHECK_THROWS_AS(encodeBits(fv(false, 1, 128), f32), std::logic_error);
  CHECK_THROWS_AS(encodeBits(fv(false, (Integer(1) << 24) + 1, 0), f32), std::logic_error);
}

// models/formats.h — the number formats of SPEC §2: MX element formats, the e8m0 scale
// format, and IEEE-754 binary accumulator formats with their rounding options.
//
// An element format with E exponent bits, M mantissa bits and bias B encodes, for a code
// with sign s, exponent field e and mantissa field m:
//   e == 0:  (-1)^s * m * 2^(1 - B - M)                (subnormal, includes ±0)
//   e > 0 :  (-1)^s * (2^M + m) * 2^(e - B - M)         (normal)
// except the special codes of e4m3 (S.1111.111 = NaN) and e5m2 (exponent all ones: inf when
// m == 0, NaN otherwise). Every finite element value is therefore an integer multiple of the
// format's quantum 2^(1 - B - M), which is how the models represent it exactly.
#pragma once

#include "models/integer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mxcert {

/// How an element format encodes specials.
enum class SpecialKind {
  None,       ///< every code is finite (e2m1, e2m3, e3m2)
  NanOnlyMax, ///< S.1..1.1..1 is NaN, no infinities (e4m3 "FN")
  Ieee,       ///< exponent all ones: inf (mantissa 0) or NaN (e5m2)
};

/// An MX element format (SPEC §2).
struct ElementFormat {
  std::string name;   ///< "e2m1", "e2m3", "e3m2", "e4m3", "e5m2"
  unsigned ebits;     ///< exponent field width
  unsigned mbits;     ///< mantissa field width
  int bias;           ///< exponent bias
  SpecialKind specials;

  /// Total bits per code (1 + ebits + mbits).
  unsigned bits() const { return 1 + ebits + mbits; }
  /// Number of codes (2^bits).
  unsigned numCodes() const { return 1u << bits(); }
  /// log2 of the quantum: every finite value is an integer multiple of 2^quantumExp().
  int quantumExp() const { return 1 - bias - int(mbits); }
  /// Whether the format has infinities.
  bool hasInf() const { return specials == SpecialKind::Ieee; }
  /// Whether the format has NaN codes.
  bool hasNaN() const { return specials != SpecialKind::None; }
  /// The MLIR builtin type name of the format (f4E2M1FN, ...).
  std::string mlirType() const;

  bool operator==(const ElementFormat &o) const { return name == o.name; }
};

/// All element formats, in SPEC §2 order.
const std::vector<ElementFormat> &elementFormats();
/// Looks up an element format by name; nullopt when unknown.
std::optional<ElementFormat> findElementFormat(const std::string &name);
/// The same, also accepting the names users type for these formats: the MLIR element types
/// (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2) and the PyTorch dtypes (float4_e2m1fn_x2,
/// float8_e4m3fn, float8_e5m2, and float6_e2m3fn / float6_e3m2fn as torchao names them).
/// For command lines only: certificates name formats canonically.
std::optional<ElementFormat> findElementFormatAlias(const std::string &name);

/// An IEEE-754 binary accumulator format (SPEC §2): precision p (hidden bit included) and
/// emax; emin = 1 - emax. Values: ±0, ±inf, NaN, finite multiples of 2^(emin - p + 1)
/// with magnitude below 2^(emax + 1).
struct AccFormat {
  std::string name;  ///< "f32", "bf16", "f16", "f64"
  int p;             ///< precision in bits, hidden bit included
  int emax;          ///< largest exponent

  int emin() const { return 1 - emax; }
  /// log2 of the subnormal quantum (the grid every finite value lies on).
  int quantumExp() const { return emin() - p + 1; }
  /// Width of the encoding in bits.
  unsigned bits() const { return 1 + expBits() + unsigned(p - 1); }
  /// Width of the exponent field.
  unsigned expBits() const;
  bool operator==(const AccFormat &o) const { return name == o.name; }
};

/// All accumulator formats.
const std::vector<AccFormat> &accFormats();
/// Looks up an accumulator format by name; nullopt when unknown.
std::optional<AccFormat> findAccFormat(const std::string &name);

/// Rounding of every accumulator operation (SPEC §2, §3).
enum class Rounding { RNE, RTZ };
/// Subnormals (docs/semantics.md):
///  * Keep: IEEE gradual underflow.
///  * FTZ: a nonzero rounded result below 2^emin becomes a zero of the same sign (results
///    are flushed; operands are read as they are).
///  * DAZ: FTZ, and subnormal operands read as zero too (x86 MXCSR FTZ+DAZ, what fast-math
///    builds and GPU `-ftz` code run). After FTZ the only operand that can still be
///    subnormal is a dequant scale factor 2^s below 2^emin: under DAZ it reads as +0.
///    Defined where no element value is subnormal in the accumulator (dazUnsupported).
enum class Subnormals { Keep, FTZ, DAZ };

/// Name of a rounding mode ("rne"/"rtz").
const char *toString(Rounding r);
/// Name of a subnormal mode ("keep"/"ftz"/"daz").
const char *toString(Subnormals s);
std::optional<Rounding> parseRounding(const std::string &s);
std::optional<Subnormals> parseSubnormals(const std::string &s);

/// An accumulator format together with its options: everything a rounding needs.
struct AccSpec {
  AccFormat fmt;
  Rounding rounding = Rounding::RNE;
  Subnormals subnormals = Subnormals::Keep;
};

/// The e8m0 scale: code x in 0..254 means 2^(x - 127); 255 is NaN.
struct ScaleCode {
  static constexpr int kBias = 127;
  static constexpr int kNaN = 255;
  static constexpr int kMaxFinite = 254;
};

/// The format of a block's scale codes: MX's e8m0 (a power of two, codes 0..254, 255 NaN)
/// or NVFP4's e4m3 (a positive e4m3 value, codes 0..126; 0 is a zero scale, 127 = 0x7f NaN;
/// docs/semantics.md).
enum class ScaleFormat { E8M0, E4M3 };
/// "e8m0" or "e4m3".
const char *toString(ScaleFormat s);
/// Parses a scale format name; nullopt when unknown.
std::optional<ScaleFormat> parseScaleFormat(const std::string &s);

/// The NVFP4 e4m3 scale: code x in 0..126 is the positive e4m3 value of x (0 is +0), 127 NaN.
struct E4m3ScaleCode {
  static constexpr int kNaN = 127;
  static constexpr int kMaxCode = 127;  ///< the largest code a table covers (NaN included)
};

/// A decoded element code, exactly: class, sign, magnitude = n * 2^quantumExp.
struct ElementValue {
  bool nan = false;
  bool inf = false;
  bool neg = false;
  Integer n;  ///< magnitude in units of the format's quantum (0 for specials)
};

/// Decodes an element code (0 <= code < numCodes) directly from the bit fields. The models'
/// generic decoder (arith.h) is checked against this one in the tests.
ElementValue decodeElementCode(const ElementFormat &f, unsigned code);

}  // namespace mxcert

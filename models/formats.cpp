// models/formats.cpp — format tables (SPEC §2).
#include "models/formats.h"

#include <stdexcept>
#include <utility>

namespace mxcert {

const std::vector<ElementFormat> &elementFormats() {
  static const std::vector<ElementFormat> kFormats = {
      {"e2m1", 2, 1, 1, SpecialKind::None},
      {"e2m3", 2, 3, 1, SpecialKind::None},
      {"e3m2", 3, 2, 3, SpecialKind::None},
      {"e4m3", 4, 3, 7, SpecialKind::NanOnlyMax},
      {"e5m2", 5, 2, 15, SpecialKind::Ieee},
  };
  return kFormats;
}

std::optional<ElementFormat> findElementFormat(const std::string &name) {
  for (const auto &f : elementFormats())
    if (f.name == name) return f;
  return std::nullopt;
}

std::optional<ElementFormat> findElementFormatAlias(const std::string &name) {
  if (auto f = findElementFormat(name)) return f;
  static const std::pair<const char *, const char *> kPyTorch[] = {{"float4_e2m1fn_x2", "e2m1"},
                                                                  {"float6_e2m3fn", "e2m3"},
                                                                  {"float6_e3m2fn", "e3m2"},
                                                                  {"float8_e4m3fn", "e4m3"},
                                                                  {"float8_e5m2", "e5m2"}};
  for (const auto &[alias, canonical] : kPyTorch)
    if (name == alias) return findElementFormat(canonical);
  for (const auto &f : elementFormats())
    if (f.mlirType() == name) return f;
  return std::nullopt;
}

std::string ElementFormat::mlirType() const {
  if (name == "e2m1") return "f4E2M1FN";
  if (name == "e2m3") return "f6E2M3FN";
  if (name == "e3m2") return "f6E3M2FN";
  if (name == "e4m3") return "f8E4M3FN";
  if (name == "e5m2") return "f8E5M2";
  throw std::logic_error("no MLIR type for " + name);
}

const std::vector<AccFormat> &accFormats() {
  static const std::vector<AccFormat> kFormats = {
      {"f32", 24, 127},
      {"bf16", 8, 127},
      {"f16", 11, 15},
      {"f64", 53, 1023},
  };
  return kFormats;
}

std::optional<AccFormat> findAccFormat(const std::string &name) {
  for (const auto &f : accFormats())
    if (f.name == name) return f;
  return std::nullopt;
}

unsigned AccFormat::expBits() const {
  // emax = 2^(w-1) - 1.
  unsigned w = 1;
  while ((1 << (w - 1)) - 1 < emax) ++w;
  return w;
}

const char *toString(Rounding r) { return r == Rounding::RNE ? "rne" : "rtz"; }
const char *toString(Subnormals s) {
  switch (s) {
  case Subnormals::Keep: return "keep";
  case Subnormals::FTZ: return "ftz";
  case Subnormals::DAZ: return "daz";
  }
  return "keep";
}

std::optional<Rounding> parseRounding(const std::string &s) {
  if (s == "rne") return Rounding::RNE;
  if (s == "rtz") return Rounding::RTZ;
  return std::nullopt;
}

std::optional<Subnormals> parseSubnormals(const std::string &s) {
  if (s == "keep") return Subnormals::Keep;
  if (s == "ftz") return Subnormals::FTZ;
  if (s == "daz") return Subnormals::DAZ;
  return std::nullopt;
}

const char *toString(ScaleFormat s) { return s == ScaleFormat::E8M0 ? "e8m0" : "e4m3"; }

std::optional<ScaleFormat> parseScaleFormat(const std::string &s) {
  if (s == "e8m0") return ScaleFormat::E8M0;
  if (s == "e4m3") return ScaleFormat::E4M3;
  return std::nullopt;
}

ElementValue decodeElementCode(const ElementFormat &f, unsigned code) {
  if (code >= f.numCodes()) throw std::out_of_range("element code out of range");
  ElementValue v;
  v.neg = (code >> (f.bits() - 1)) & 1u;
  unsigned e = (code >> f.mbits) & ((1u << f.ebits) - 1u);
  unsigned m = code & ((1u << f.mbits) - 1u);
  unsigned eAllOnes = (1u << f.ebits) - 1u;
  unsigned mAllOnes = (1u << f.mbits) - 1u;
  if (f.specials == SpecialKind::NanOnlyMax && e == eAllOnes && m == mAllOnes) {
    v.nan = true;
    return v;
  }
  if (f.specials == SpecialKind::Ieee && e == eAllOnes) {
    if (m == 0)
      v.inf = true;
    else
      v.nan = true;
    return v;
  }
  if (e == 0)
    v.n = Integer(int64_t(m));
  else
    v.n = Integer(int64_t((1u << f.mbits) + m)) << (e - 1);
  return v;
}

}  // namespace mxcert

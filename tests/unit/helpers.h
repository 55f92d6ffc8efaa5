// tests/unit/helpers.h — small helpers shared by the unit tests: building configurations and
// exact values, and the bit patterns of native floats.
#pragma once

#include "models/eval.h"

#include <cstdint>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace mxtest {

using mxcert::AccFormat;
using mxcert::AccSpec;
using mxcert::CVal;
using mxcert::ElementFormat;
using mxcert::Integer;

/// The element format of that name (throws when unknown: a test bug).
inline ElementFormat elem(const std::string &name) {
  auto f = mxcert::findElementFormat(name);
  if (!f) throw std::logic_error("unknown element format " + name);
  return *f;
}

/// The accumulator format of that name (throws when unknown: a test bug).
inline AccFormat accFmt(const std::string &name) {
  auto f = mxcert::findAccFormat(name);
  if (!f) throw std::logic_error("unknown accumulator format " + name);
  return *f;
}

/// An accumulator with its options.
inline AccSpec accSpec(const std::string &name, mxcert::Rounding r = mxcert::Rounding::RNE,
                       mxcert::Subnormals s = mxcert::Subnormals::Keep) {
  return AccSpec{accFmt(name), r, s};
}

/// A configuration: element formats a and b, an accumulator and a tree (name or S-expression).
inline mxcert::ModelConfig config(const std::string &a, const std::string &b, const AccSpec &acc,
                                  const std::string &tree, int k) {
  return mxcert::ModelConfig{elem(a), elem(b), acc, mxcert::Tree::parse(tree, k)};
}

/// The exact finite value (-1)^neg * N * 2^X.
inline CVal fv(bool neg, const Integer &N, int64_t X) {
  mxcert::ConcreteDomain d;
  return mxcert::finiteVal(d, neg, N, Integer(X));
}

/// NaN.
inline CVal nanv() {
  mxcert::ConcreteDomain d;
  return mxcert::nanVal(d, Integer(0));
}

/// ±inf.
inline CVal infv(bool neg) {
  mxcert::ConcreteDomain d;
  return mxcert::infVal(d, neg, Integer(0));
}

/// The bit pattern of a float.
inline uint64_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

/// The bit pattern of a double.
inline uint64_t doubleBits(double f) {
  uint64_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

/// The float with bit pattern u.
inline float floatFromBits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// The double with bit pattern u.
inline double doubleFromBits(uint64_t u) {
  double f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

/// "0x..." of a bit pattern (for failure messages).
inline std::string hex(uint64_t u) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase << u;
  return s.str();
}

/// A readable description of an exact state (for failure messages).
inline std::string describe(const CVal &v) {
  if (v.nan) return "NaN";
  if (v.inf) return v.neg ? "-inf" : "+inf";
  return std::string(v.neg ? "-" : "+") + v.N.str() + "*2^" + v.X.str();
}

/// A list of codes as "[1, 2, 3]" (for failure messages).
inline std::string codes(const std::vector<unsigned> &c) {
  std::string s = "[";
  for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + std::to_string(c[i]);
  return s + "]";
}

/// The bits of an exact model result in format f; all NaNs are mapped to the format's
/// canonical NaN by encodeBits itself.
inline uint64_t bitsOf(const CVal &v, const AccFormat &f) { return mxcert::encodeBits(v, f); }

}  // namespace mxtest

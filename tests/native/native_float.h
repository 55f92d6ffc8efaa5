// tests/native/native_float.h — an INDEPENDENT executor of the SPEC §5 placements for the f32
// accumulator (rne, subnormals kept), built on native binary32 arithmetic. Used only by the
// tests, as an oracle for the exact model on binary trees.
//
// Every operation is one native float operation, so it rounds exactly once (IEEE 754,
// round-to-nearest-even, subnormals on):
//  * element codes are decoded here from their bit fields (every element value of the five
//    MX formats is exact in binary32, and so is every product of two of them);
//  * scaling by 2^s is std::ldexp(float, int) — one rounding, even for huge |s|;
//  * each inner node of a BINARY tree is one float addition, in the tree's order.
// The file must be compiled without FMA contraction or fast-math (-ffp-contract=off
// -fno-fast-math); the arithmetic helpers also go through volatile temporaries so that no
// operation is fused or kept in wider precision.
#pragma once

#include "models/tree.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace mxtest::native {

/// The placements of SPEC §5 (same names as the model's, kept separate on purpose).
enum class Place { Pre, Post, Dequant, Post2 };

/// An element format restated from SPEC §2: field widths, bias and specials.
struct Format {
  std::string name;
  unsigned ebits, mbits;
  int bias;
};

/// The five MX element formats of SPEC §2.
inline Format format(const std::string &name) {
  if (name == "e2m1") return {name, 2, 1, 1};
  if (name == "e2m3") return {name, 2, 3, 1};
  if (name == "e3m2") return {name, 3, 2, 3};
  if (name == "e4m3") return {name, 4, 3, 7};
  if (name == "e5m2") return {name, 5, 2, 15};
  throw std::invalid_argument("native: unknown element format " + name);
}

/// One float addition (rounded once, never fused).
inline float add(float x, float y) {
  volatile float r = x + y;
  return r;
}

/// One float multiplication (rounded once, never fused).
inline float mul(float x, float y) {
  volatile float r = x * y;
  return r;
}

/// x * 2^s rounded once (ldexp is exact or correctly rounded; ±0, ±inf, NaN unchanged).
inline float scale(float x, int s) {
  volatile float r = std::ldexp(x, s);
  return r;
}

/// Decodes an element code of format f into a float (exact): sign, exponent field e and
/// mantissa field m; e4m3 S.1111.111 is NaN; e5m2 exponent all ones is inf (m = 0) or NaN.
inline float decode(const Format &f, unsigned code) {
  const unsigned bits = 1 + f.ebits + f.mbits;
  const bool s = (code >> (bits - 1)) & 1u;
  const unsigned e = (code >> f.mbits) & ((1u << f.ebits) - 1u);
  const unsigned m = code & ((1u << f.mbits) - 1u);
  const unsigned eOnes = (1u << f.ebits) - 1u, mOnes = (1u << f.mbits) - 1u;
  if (f.name == "e4m3" && e == eOnes && m == mOnes) return std::numeric_limits<float>::quiet_NaN();
  if (f.name == "e5m2" && e == eOnes) {
    if (m != 0) return std::numeric_limits<float>::quiet_NaN();
    return s ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
  }
  // Significand as an integer times 2^-mbits: exact in float.
  const float sig = e == 0 ? float(m) : float((1u << f.mbits) + m);
  const float mag = std::ldexp(sig, (e == 0 ? 1 : int(e)) - f.bias - int(f.mbits));
  return s ? -mag : mag;
}

/// Evaluates a binary tree over leaf values of type T (float here; native_nvfp4.h also uses
/// _Float16 and double), one addition in T per inner node (rounded once, never fused).
template <class T> T evalTree(const mxcert::Tree &t, const std::vector<T> &leaves) {
  std::vector<T> v;
  v.reserve(t.nodes().size());
  for (const auto &n : t.nodes()) {
    if (n.leaf >= 0) {
      v.push_back(leaves.at(size_t(n.leaf)));
      continue;
    }
    if (n.children.size() != 2) throw std::invalid_argument("native: only binary trees");
    volatile T s = v[size_t(n.children[0])] + v[size_t(n.children[1])];
    v.push_back(T(s));
  }
  return v.back();
}

/// The result of placement p on one block (SPEC §5), f32 rne with subnormals kept:
///   pre     Tree(ldexp(a_i b_i, e))
///   post    ldexp(Tree(a_i b_i), e)
///   dequant Tree(ldexp(a_i, sa) * ldexp(b_i, sb))
///   post2   (Tree(a_i b_i) * ldexp(1, sa)) * ldexp(1, sb)
/// with sa = xa - 127, sb = xb - 127, e = sa + sb; scale code 255 on either side gives NaN.
/// (a_i b_i of two element values is exact in binary32, so its rounding is the identity.)
inline float evalPlacement(Place p, const Format &fa, const Format &fb, const std::vector<unsigned> &a,
                           const std::vector<unsigned> &b, unsigned xa, unsigned xb,
                           const mxcert::Tree &t) {
  if (xa == 255 || xb == 255) return std::numeric_limits<float>::quiet_NaN();
  const int sa = int(xa) - 127, sb = int(xb) - 127, e = sa + sb;
  const size_t k = size_t(t.k());
  std::vector<float> leaves(k);
  for (size_t i = 0; i < k; ++i) {
    const float av = decode(fa, a[i]), bv = decode(fb, b[i]);
    switch (p) {
    case Place::Pre: leaves[i] = scale(mul(av, bv), e); break;
    case Place::Post:
    case Place::Post2: leaves[i] = mul(av, bv); break;
    case Place::Dequant: leaves[i] = mul(scale(av, sa), scale(bv, sb)); break;
    }
  }
  const float T = evalTree(t, leaves);
  switch (p) {
  case Place::Pre:
  case Place::Dequant: return T;
  case Place::Post: return scale(T, e);
  case Place::Post2: return mul(mul(T, scale(1.0f, sa)), scale(1.0f, sb));
  }
  return T;
}

}  // namespace mxtest::native

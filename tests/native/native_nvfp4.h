// tests/native/native_nvfp4.h — an INDEPENDENT executor of the NVFP4 placements
// (docs/semantics.md, "NVFP4") on native IEEE arithmetic: T = float (f32), _Float16 (f16) or
// double (f64), rne, subnormals kept. Used only by the tests, as an oracle for models/nvfp4.h.
//
// Elements and scales are decoded from their bit fields (native_float.h's decoder). Every
// product the semantics rounds once is formed in double, where it is exact (sa * sb has at
// most 8 significant bits, a_i * b_i at most 4, a rounded T value at most 24 for float and 11
// for _Float16), and converted to T once; for T = double the one double multiplication is
// that rounding. Each tree node is one addition in T (native_float.h's evalTree; for _Float16
// GCC adds in float and rounds to half: float's 24 bits >= 2 * 11 + 2 make that double
// rounding innocuous). Binary trees only. Compile without FMA contraction or fast-math.
#pragma once

#include "native/native_float.h"

namespace mxtest::native {

/// The exact double product x * y converted to T (one rounding; see the file comment).
template <class T> T mulRound(double x, double y) {
  volatile double p = x * y;
  volatile T r = T(p);
  return r;
}

/// The result of NVFP4 placement p on one block (e2m1 elements, e4m3 scale codes xa, xb in
/// 0..127) with accumulator T, every step rounded to T once:
///   pre     Tree(rnd((sa sb) (a_i b_i)))
///   post    rnd(Tree(rnd(a_i b_i)) (sa sb))
///   dequant Tree(rnd(rnd(sa a_i) rnd(sb b_i)))
///   post2   rnd(rnd(Tree(rnd(a_i b_i)) sa) sb)
/// Code 0 is the scale +0 and 127 is NaN, which native multiplication propagates.
template <class T>
T evalNvfp4Placement(Place p, const std::vector<unsigned> &a, const std::vector<unsigned> &b, unsigned xa,
                     unsigned xb, const mxcert::Tree &t) {
  const Format e2m1 = format("e2m1"), e4m3 = format("e4m3");
  const double sa = decode(e4m3, xa), sb = decode(e4m3, xb), s = sa * sb;  // exact
  const size_t k = size_t(t.k());
  std::vector<T> leaves(k);
  for (size_t i = 0; i < k; ++i) {
    const double av = decode(e2m1, a[i]), bv = decode(e2m1, b[i]);
    switch (p) {
    case Place::Pre: leaves[i] = mulRound<T>(s, av * bv); break;
    case Place::Post:
    case Place::Post2: leaves[i] = mulRound<T>(av, bv); break;
    case Place::Dequant: leaves[i] = mulRound<T>(double(mulRound<T>(sa, av)), double(mulRound<T>(sb, bv))); break;
    }
  }
  const T tr = evalTree(t, leaves);
  switch (p) {
  case Place::Pre:
  case Place::Dequant: return tr;
  case Place::Post: return mulRound<T>(double(tr), s);
  case Place::Post2: return mulRound<T>(double(mulRound<T>(double(tr), sa)), sb);
  }
  return tr;
}

}  // namespace mxtest::native

// models/nvfp4.h — the NVFP4 block semantics (docs/semantics.md, "NVFP4"), generic over the
// domain like placement.h.
//
// An NVFP4 block has e2m1 elements and one e4m3 scale per operand. A scale code x in 0..127
// (the positive e4m3 codes) is the e4m3 value of x, decoded with decodeElement: code 0 is +0,
// codes 1..126 are 2^-9 .. 448, and 127 (0x7f) is NaN. A scale is no power of two, so every
// multiplication by a scale is an exact product (mulExact) followed by a rounding where the
// placement says. With decoded scales sa, sb, their exact product S = sa sb, element pairs
// (a_i, b_i), exact products t_i = a_i b_i and rnd the accumulator rounding:
//   pre     R = Tree(rnd(S t_i))
//   post    D = Tree(rnd(t_i)),  R = rnd(D S)           (one rounding of the exact triple product)
//   dequant A_i = rnd(sa a_i), B_i = rnd(sb b_i), R = Tree(rnd(A_i B_i))
//   post2   R = rnd(rnd(D sa) sb)                        (the scales applied one at a time)
// No special case is needed for the zero and NaN codes: they follow from mulExact (a zero
// scale gives signed zeros, as +0 times the value; the NaN scale gives NaN in every placement,
// because e2m1 elements are finite and NaN propagates through every product and sum).
#pragma once

#include "models/placement.h"

namespace mxcert {

/// The decoded scales of one NVFP4 code pair and their exact product.
template <class D> struct Nvfp4Scales {
  Val<D> sa, sb;  ///< the e4m3 values of xa and xb
  Val<D> s;       ///< sa * sb, exactly
};

/// The scales of the e4m3 codes xa, xb (each in 0..127).
template <class D>
Nvfp4Scales<D> makeNvfp4Scales(D &d, const typename D::Int &xa, const typename D::Int &xb) {
  static const ElementFormat kE4m3 = *findElementFormat("e4m3");
  Val<D> sa = decodeElement(d, kE4m3, xa), sb = decodeElement(d, kE4m3, xb);
  return Nvfp4Scales<D>{sa, sb, mulExact(d, sa, sb)};
}

/// The value NVFP4 placement p feeds into its tree for the element pair (a, b):
///   pre: rnd(S a b); post, post2: rnd(a b); dequant: rnd(rnd(sa a) rnd(sb b)).
template <class D>
Val<D> nvfp4Leaf(D &d, Placement p, const ModelConfig &cfg, const Val<D> &a, const Val<D> &b,
                 const Nvfp4Scales<D> &s) {
  switch (p) {
  case Placement::Pre: return roundAcc(d, mulExact(d, s.s, mulExact(d, a, b)), cfg.acc);
  case Placement::Post:
  case Placement::Post2: return roundAcc(d, mulExact(d, a, b), cfg.acc);
  case Placement::Dequant: {
    Val<D> A = roundAcc(d, mulExact(d, s.sa, a), cfg.acc);
    Val<D> B = roundAcc(d, mulExact(d, s.sb, b), cfg.acc);
    return roundAcc(d, mulExact(d, A, B), cfg.acc);
  }
  }
  throw std::logic_error("placement");
}

/// The step NVFP4 placement p applies to its tree's result T:
///   pre, dequant: T; post: rnd(T S); post2: rnd(rnd(T sa) sb).
template <class D>
Val<D> nvfp4Root(D &d, Placement p, const ModelConfig &cfg, const Val<D> &T, const Nvfp4Scales<D> &s) {
  if (p == Placement::Post) return roundAcc(d, mulExact(d, T, s.s), cfg.acc);
  if (p == Placement::Post2)
    return roundAcc(d, mulExact(d, roundAcc(d, mulExact(d, T, s.sa), cfg.acc), s.sb), cfg.acc);
  return T;
}

/// R for NVFP4 placement p on one block: root(Tree(leaf(a_i, b_i))); in.xa, in.xb are e4m3
/// scale codes.
template <class D>
Val<D> evalNvfp4Placement(D &d, Placement p, const ModelConfig &cfg, const BlockInput<D> &in) {
  Nvfp4Scales<D> s = makeNvfp4Scales(d, in.xa, in.xb);
  std::vector<Val<D>> leaves;
  leaves.reserve(size_t(cfg.k()));
  for (int i = 0; i < cfg.k(); ++i) leaves.push_back(nvfp4Leaf(d, p, cfg, in.a[size_t(i)], in.b[size_t(i)], s));
  return nvfp4Root(d, p, cfg, evalTree(d, cfg.tree, leaves, cfg.acc), s);
}

}  // namespace mxcert

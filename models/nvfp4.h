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

#include "models/guard.h"
#include "models/placement.h"

#include <string>

namespace mxcert {

// ---------------------------------------------------------------------------------------
// Scale coordinates (docs/semantics.md, "NVFP4: scale coordinates").
//
// Every positive finite e4m3 code x in 1..126 has one value m * 2^j with m odd in 1..15; for
// a normal code (E = x >> 3 >= 1, M = x & 7) m is the odd part of 8 + M and j = E - 10 plus
// its trailing zeros, for a subnormal one (E = 0) the odd part of M and j = -9 plus its
// trailing zeros. Each odd part's codes have consecutive j (m = 1: j in -9..8, 3: -9..7,
// 5 and 7: -9..6, 9, 11, 13: -9..5, 15: -9..4). Code 0 (+0) is the class m = 0 and code 127
// (NaN) the class m = -1, each with the single j = 0. A scale with a fixed odd part is a
// power of two times a constant, which is how the solver encoding keeps every significand
// linear (smt/encoder.cpp).

/// The class of the zero scale (code 0) and of the NaN scale (code 127).
constexpr int kNvfp4ZeroClass = 0;
constexpr int kNvfp4NaNClass = -1;

/// The coordinates (m, j) of an e4m3 scale code.
struct ScaleCoord {
  int m = 0;  ///< odd part 1..15, or kNvfp4ZeroClass / kNvfp4NaNClass
  int j = 0;  ///< binade: the value is m * 2^j
};

/// The coordinates of code x in 0..127 (std::out_of_range otherwise).
ScaleCoord e4m3Coord(int x);
/// The code with coordinates (m, j) (m a class of e4m3Classes()), or -1 when there is none.
int e4m3CodeAt(int m, int j);
/// The classes in order: 1, 3, ..., 15, then 0 (zero) and -1 (NaN).
const std::vector<int> &e4m3Classes();
/// The binades of class m: consecutive, [0, 0] for the zero and NaN classes.
CodeRange e4m3JRange(int m);

/// A set of NVFP4 code pairs in scale coordinates: the pairs whose codes have odd parts
/// (ma, mb) and binades ja, jb in the given ranges with j = ja + jb in range j. The proof
/// regions of the solver engine for NVFP4 (the agree set itself is stated over codes).
struct Nvfp4Region {
  int ma = 1, mb = 1;
  CodeRange ja{-9, 8}, jb{-9, 8}, j{-18, 16};
  bool contains(int xa, int xb) const;
  /// Number of code pairs in the region.
  long count() const;
  /// The region's code pairs (within 0..127 x 0..127).
  CodeSet codes() const;
  /// The region with its ranges intersected with the classes' binades and tightened to the
  /// pairs covered.
  Nvfp4Region tightened() const;
  /// "ma:3,mb:5,ja:-9..7,jb:-9..6,j:-18..13".
  std::string str() const;
  /// Parses str()'s syntax (every key once, in any order); throws GuardError naming the problem.
  static Nvfp4Region parse(const std::string &text);
  bool operator==(const Nvfp4Region &o) const {
    return ma == o.ma && mb == o.mb && ja == o.ja && jb == o.jb && j == o.j;
  }
};

/// The decoded scales of one NVFP4 code pair and their exact product.
template <class D> struct Nvfp4Scales {
  Val<D> sa, sb;  ///< the e4m3 values of xa and xb
  Val<D> s;       ///< sa * sb, exactly
};

/// mulExact(d, a, b) where a or b is a scale, with a tighter static precision bound where
/// one factor is a power of two (or zero): a static bound of at most 1 bit means that its odd
/// part is 1, so the product has the other's odd part and bound. (mulExact's sum of the two
/// bounds is one bit too many there: for the class m = 1, whose scales are the powers of two,
/// post2's second rounding rnd(rnd(T sa) 2^jb) would look like it could need a case split.)
template <class D> Val<D> mulScale(D &d, const Val<D> &a, const Val<D> &b) {
  Val<D> r = mulExact(d, a, b);
  if (a.prec <= 1) r.prec = b.prec;
  else if (b.prec <= 1) r.prec = a.prec;
  return r;
}

/// The scale of class m at binade j, as a value of domain D (m constant, j an Int).
template <class D> Val<D> nvfp4ScaleAt(D &d, int m, const typename D::Int &j) {
  if (m == kNvfp4NaNClass) return nanVal(d, d.lit(0));
  if (m == kNvfp4ZeroClass) return finiteVal(d, d.litB(false), d.lit(0), d.lit(0), 1);
  unsigned bits = 0;
  for (int v = m; v; v >>= 1) ++bits;
  return finiteVal(d, d.litB(false), d.lit(m), j, bits);
}

/// The scales of the classes ma, mb at binades ja, jb (the same values as makeNvfp4Scales of
/// the codes e4m3CodeAt(ma, ja), e4m3CodeAt(mb, jb), written with odd significands).
template <class D>
Nvfp4Scales<D> makeNvfp4ScalesAt(D &d, int ma, const typename D::Int &ja, int mb, const typename D::Int &jb) {
  Val<D> sa = nvfp4ScaleAt(d, ma, ja), sb = nvfp4ScaleAt(d, mb, jb);
  return Nvfp4Scales<D>{sa, sb, mulScale(d, sa, sb)};
}

/// The scales of the e4m3 codes xa, xb (each in 0..127).
template <class D>
Nvfp4Scales<D> makeNvfp4Scales(D &d, const typename D::Int &xa, const typename D::Int &xb) {
  static const ElementFormat kE4m3 = *findElementFormat("e4m3");
  Val<D> sa = decodeElement(d, kE4m3, xa), sb = decodeElement(d, kE4m3, xb);
  return Nvfp4Scales<D>{sa, sb, mulScale(d, sa, sb)};
}

/// The value NVFP4 placement p feeds into its tree for the element pair (a, b):
///   pre: rnd(S a b); post, post2: rnd(a b); dequant: rnd(rnd(sa a) rnd(sb b)).
/// As in placementLeaf, a symbolic domain re-expresses the leaf with the exponent the leaves
/// share (X of S plus the elements' quanta for pre and dequant, the quanta for post), so that
/// the tree's sums need no alignment; the concrete domain skips it.
template <class D>
Val<D> nvfp4Leaf(D &d, Placement p, const ModelConfig &cfg, const Val<D> &a, const Val<D> &b,
                 const Nvfp4Scales<D> &s) {
  const int qab = cfg.a.quantumExp() + cfg.b.quantumExp();
  auto rebase = [&](const Val<D> &v, const typename D::Int &base) {
    return cfg.k() > 1 ? mxcert::rebase(d, v, base) : v;
  };
  switch (p) {
  case Placement::Pre:
    return rebase(roundAcc(d, mulScale(d, s.s, mulExact(d, a, b)), cfg.acc), d.add(s.s.X, d.lit(qab)));
  case Placement::Post:
  case Placement::Post2: return rebase(roundAcc(d, mulExact(d, a, b), cfg.acc), d.lit(qab));
  case Placement::Dequant: {
    Val<D> A = roundAcc(d, mulScale(d, s.sa, a), cfg.acc);
    Val<D> B = roundAcc(d, mulScale(d, s.sb, b), cfg.acc);
    return rebase(roundAcc(d, mulExact(d, A, B), cfg.acc), d.add(s.s.X, d.lit(qab)));
  }
  }
  throw std::logic_error("placement");
}

/// The step NVFP4 placement p applies to its tree's result T:
///   pre, dequant: T; post: rnd(T S); post2: rnd(rnd(T sa) sb).
template <class D>
Val<D> nvfp4Root(D &d, Placement p, const ModelConfig &cfg, const Val<D> &T, const Nvfp4Scales<D> &s) {
  if (p == Placement::Post) return roundAcc(d, mulScale(d, T, s.s), cfg.acc);
  if (p == Placement::Post2)
    return roundAcc(d, mulScale(d, roundAcc(d, mulScale(d, T, s.sa), cfg.acc), s.sb), cfg.acc);
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

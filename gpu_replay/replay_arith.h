// gpu_replay/replay_arith.h — THE arithmetic of mxcert-replay, written once and compiled for
// the host (g++), CUDA (nvcc) and HIP (hipcc). Every function is `__host__ __device__` on the
// GPU compilers (MXR_HD) and a plain inline function on the host, so the CI host build runs the
// same code that the device builds run.
//
// What it computes: the four scale placements of SPEC §5 in binary32 with round-to-nearest-even,
// over a BINARY reduction tree given as a flat list of inner nodes (children before parents),
// one IEEE operation per step:
//  * element codes decode to floats exactly (every MX element value is a binary32 number);
//  * a product of two element values is one f32 multiplication (exact for every MX format, so
//    it equals rnd(a b));
//  * additions are one f32 addition each (`__fadd_rn` on CUDA and HIP, `+` on the host, which
//    is compiled with -ffp-contract=off -fno-fast-math; the device builds use -fmad=false /
//    -ffp-contract=off as well, so nothing is fused);
//  * scaling by 2^s (|s| <= 254) is ONE rounding: the float is widened to double (exact), the
//    product with 2^s (built exactly from its bit pattern, a normal double) is exact in double,
//    and the double -> float conversion rounds once, RNE, onto the subnormal grid
//    (`__double2float_rn` on the devices). ±0, ±inf and NaN are unchanged.
//  * ftz (SPEC §2): every accumulator operation is rounded first, exactly as with subnormals
//    kept, then a nonzero result below 2^-126 in magnitude becomes a zero of its sign. The
//    devices' own FTZ modes also flush subnormal INPUTS and are not used: the flush is this
//    explicit step after the IEEE operation, which is exactly SPEC §2's definition.
//  * daz (docs/semantics.md): ftz, and dequant's scale factor 2^s reads as +0 when s < -126
//    (after ftz it is the only f32 operand that can be subnormal): rnd(x * 0), the explicit
//    multiplication by a zero.
//  * scale code 255 on either side gives NaN; NaN payloads are not modelled (bits are
//    canonicalized to 0x7FC00000 before any comparison).
//  * NVFP4 (Problem::scale == kScaleE4M3; docs/semantics.md, "NVFP4"): the scale codes 0..127
//    are e4m3 values (decodeElement: 0 is +0, 127 NaN), no powers of two. Each decoded scale
//    and their product S = sa sb are exact f32 values (S has at most 8 significant bits and
//    lies in [2^-18, 200704]), so every multiplication by a scale the placement names is ONE
//    f32 multiplication (mulRN), rounded where the placement rounds; a zero or NaN scale
//    propagates through it as the model's exact multiplication does.
// Only the f32 accumulator with RNE exists here; other accumulators and RTZ are refused by the
// callers (HIP 5.2's __double2float_rz is an RNE conversion, so RTZ could not be trusted there).
#pragma once

#include <stdint.h>
#if defined(__HIPCC__)
#include <hip/hip_runtime.h>  // hipcc (HIP 5.2) does not pre-include it; nvcc pre-includes CUDA's
#elif !defined(__CUDACC__)
#include <string.h>
#endif

#if defined(__CUDACC__) || defined(__HIPCC__)
#define MXR_HD __host__ __device__
#else
#define MXR_HD
#endif

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define MXR_DEVICE_CODE 1
#endif

namespace mxreplay {

/// The placements, numbered as the models' enum (Pre, Post, Dequant, Post2).
enum : int { kPre = 0, kPost = 1, kDequant = 2, kPost2 = 3 };
/// The relations of SPEC §6.
enum : int { kBitwise = 0, kValue = 1 };
/// How an element format encodes specials (as models::SpecialKind).
enum : int { kSpecialsNone = 0, kSpecialsNanOnlyMax = 1, kSpecialsIeee = 2 };
/// The scale format of a block (as models::ScaleFormat): MX's e8m0 or NVFP4's e4m3.
enum : int { kScaleE8M0 = 0, kScaleE4M3 = 1 };

constexpr int kMaxK = 64;
constexpr int kMaxInner = kMaxK - 1;
/// Operand references in the flat tree: r < kMaxK is leaf r, r >= kMaxK is inner node r - kMaxK.
constexpr int kInnerRef = kMaxK;
constexpr uint32_t kCanonicalNaN = 0x7FC00000u;

/// An element format restated as plain data (no std::string: device code).
struct ElemFmt {
  int ebits, mbits, bias, specials;
};

/// A binary tree as a flat list of inner nodes, children before parents; the root is the last
/// inner node, or leaf `single` when there is none (k = 1).
struct FlatTree {
  int k;
  int nInner;
  int8_t c0[kMaxInner], c1[kMaxInner];
};

/// Everything one replay evaluation needs: element formats, tree, options, the two placements
/// and the relation. Plain data, copied to the device as a kernel argument.
struct Problem {
  ElemFmt fa, fb;
  FlatTree tree;
  int ftz;       ///< 0: subnormals kept; 1: ftz after each rounding; 2: daz (ftz, and a dequant
                 ///< scale factor below 2^-126 reads as +0)
  int p1, p2;    ///< the certificate's lhs and rhs placements
  int relation;  ///< kBitwise or kValue
  int scale;     ///< kScaleE8M0 (MX) or kScaleE4M3 (NVFP4: codes 0..127, e4m3 values)
};

// ---- bit casts --------------------------------------------------------------------------

MXR_HD inline float bitsToFloat(uint32_t u) {
#ifdef MXR_DEVICE_CODE
  return __uint_as_float(u);
#else
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
#endif
}

MXR_HD inline uint32_t floatToBits(float f) {
#ifdef MXR_DEVICE_CODE
  return __float_as_uint(f);
#else
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
#endif
}

MXR_HD inline double bitsToDouble(uint64_t u) {
#ifdef MXR_DEVICE_CODE
  return __longlong_as_double((long long)u);
#else
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
#endif
}

MXR_HD inline bool isNaNBits(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u; }
MXR_HD inline bool isNaN(float f) { return isNaNBits(floatToBits(f)); }
/// The bits with every NaN mapped to the canonical NaN (SPEC §3: payloads are not modelled).
MXR_HD inline uint32_t canonicalBits(float f) {
  const uint32_t u = floatToBits(f);
  return isNaNBits(u) ? kCanonicalNaN : u;
}
MXR_HD inline float nanf_() { return bitsToFloat(kCanonicalNaN); }

/// 2^x as a float, exact, for x in [-126, 127] (a normal number built from its bits).
MXR_HD inline float pow2f(int x) { return bitsToFloat(uint32_t(x + 127) << 23); }
/// 2^x as a double, exact, for x in [-1022, 1023].
MXR_HD inline double pow2d(int x) { return bitsToDouble(uint64_t(x + 1023) << 52); }

// ---- the IEEE operations ----------------------------------------------------------------

/// SPEC §2 ftz: applied to an already rounded result; nonzero and below 2^-126 -> signed zero.
MXR_HD inline float flush(float r, int ftz) {
  if (!ftz) return r;
  const uint32_t u = floatToBits(r);
  const uint32_t mag = u & 0x7FFFFFFFu;
  if (mag != 0 && mag < 0x00800000u) return bitsToFloat(u & 0x80000000u);
  return r;
}

/// One f32 addition, RNE.
MXR_HD inline float addRN(float x, float y, int ftz) {
#ifdef MXR_DEVICE_CODE
  return flush(__fadd_rn(x, y), ftz);
#else
  return flush(x + y, ftz);
#endif
}

/// One f32 multiplication, RNE.
MXR_HD inline float mulRN(float x, float y, int ftz) {
#ifdef MXR_DEVICE_CODE
  return flush(__fmul_rn(x, y), ftz);
#else
  return flush(x * y, ftz);
#endif
}

/// rnd(2^s x) for |s| <= 254: exact in double, then one RNE rounding to float.
MXR_HD inline float scaleRN(float x, int s, int ftz) {
#ifdef MXR_DEVICE_CODE
  return flush(__double2float_rn(__dmul_rn((double)x, pow2d(s))), ftz);
#else
  return flush((float)((double)x * pow2d(s)), ftz);
#endif
}

/// dequant's rnd(2^s x); under daz (ftz == 2) a factor 2^s below 2^-126 reads as +0.
MXR_HD inline float dequantRN(float x, int s, int ftz) {
  if (ftz == 2 && s < -126) return mulRN(x, 0.0f, ftz);
  return scaleRN(x, s, ftz);
}

// ---- elements ---------------------------------------------------------------------------

/// Decodes an element code exactly (SPEC §2): sign, exponent field e, mantissa field m;
/// e4m3 S.1111.111 is NaN; e5m2 exponent all ones is inf (m = 0) or NaN.
MXR_HD inline float decodeElement(const ElemFmt &f, unsigned code) {
  const int bits = 1 + f.ebits + f.mbits;
  const unsigned s = (code >> (bits - 1)) & 1u;
  const unsigned e = (code >> f.mbits) & ((1u << f.ebits) - 1u);
  const unsigned m = code & ((1u << f.mbits) - 1u);
  const unsigned eOnes = (1u << f.ebits) - 1u, mOnes = (1u << f.mbits) - 1u;
  if (f.specials == kSpecialsNanOnlyMax && e == eOnes && m == mOnes) return nanf_();
  if (f.specials == kSpecialsIeee && e == eOnes) {
    if (m != 0) return nanf_();
    return bitsToFloat((uint32_t(s) << 31) | 0x7F800000u);
  }
  const unsigned sig = e == 0 ? m : (1u << f.mbits) + m;
  const int ex = (e == 0 ? 1 : int(e)) - f.bias - f.mbits;
  const float mag = float(sig) * pow2f(ex);  // sig < 2^5 and ex >= -17: exact
  return s ? -mag : mag;
}

// ---- placements -------------------------------------------------------------------------

/// The e4m3 format of NVFP4 scale codes (the element decoder reads them).
MXR_HD inline ElemFmt e4m3ScaleFmt() { return ElemFmt{4, 3, 7, kSpecialsNanOnlyMax}; }

/// The scales of one code pair.
struct Scales {
  int sa, sb, e;  ///< MX: sa = xa - 127, sb = xb - 127, e = sa + sb
  bool nan;       ///< MX: either code is 255
  bool nv;        ///< NVFP4: the scales are the values va, vb (and vS = va vb), not powers of two
  float va, vb, vS;
};

/// The scales of codes (xa, xb) in scale format `scale` (kScaleE8M0 or kScaleE4M3).
MXR_HD inline Scales makeScales(int scale, int xa, int xb) {
  Scales s;
  s.sa = xa - 127;
  s.sb = xb - 127;
  s.e = s.sa + s.sb;
  s.nv = scale == kScaleE4M3;
  s.nan = !s.nv && (xa == 255 || xb == 255);  // NVFP4: code 127 is a NaN value, propagated
  s.va = s.vb = s.vS = 0.0f;
  if (s.nv) {
    s.va = decodeElement(e4m3ScaleFmt(), unsigned(xa));
    s.vb = decodeElement(e4m3ScaleFmt(), unsigned(xb));
    s.vS = s.va * s.vb;  // exact (see the file comment); +0 and NaN as their exact product
  }
  return s;
}

/// The scales of codes (xa, xb) for problem P.
MXR_HD inline Scales makeScales(const Problem &P, int xa, int xb) { return makeScales(P.scale, xa, xb); }

/// The leaf placement p feeds into its tree for element values (a, b):
///   pre rnd(2^e rnd(a b)) (= rnd(2^e a b): the product is exact); post, post2 rnd(a b);
///   dequant rnd(rnd(2^sa a) rnd(2^sb b)).
///   NVFP4: pre rnd(S rnd(a b)) (= rnd(S a b)); dequant rnd(rnd(sa a) rnd(sb b)).
MXR_HD inline float placementLeaf(int p, float a, float b, const Scales &s, int ftz) {
  if (s.nv) {
    switch (p) {
    case kPre: return mulRN(s.vS, mulRN(a, b, ftz), ftz);
    case kDequant: return mulRN(mulRN(s.va, a, ftz), mulRN(s.vb, b, ftz), ftz);
    default: return mulRN(a, b, ftz);
    }
  }
  switch (p) {
  case kPre: return scaleRN(mulRN(a, b, ftz), s.e, ftz);
  case kDequant: return mulRN(dequantRN(a, s.sa, ftz), dequantRN(b, s.sb, ftz), ftz);
  default: return mulRN(a, b, ftz);
  }
}

/// The step placement p applies to its tree's result T (pre, dequant: none; post:
/// rnd(2^e T); post2: rnd(rnd(T rnd(2^sa)) rnd(2^sb))); code 255 gives NaN. NVFP4: post
/// rnd(T S), post2 rnd(rnd(T sa) sb).
MXR_HD inline float placementRoot(int p, float T, const Scales &s, int ftz) {
  if (s.nv) {
    if (p == kPost) return mulRN(T, s.vS, ftz);
    if (p == kPost2) return mulRN(mulRN(T, s.va, ftz), s.vb, ftz);
    return T;
  }
  if (s.nan) return nanf_();
  if (p == kPost) return scaleRN(T, s.e, ftz);
  if (p == kPost2) {
    const float Sa = scaleRN(1.0f, s.sa, ftz), Sb = scaleRN(1.0f, s.sb, ftz);
    return mulRN(mulRN(T, Sa, ftz), Sb, ftz);
  }
  return T;
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // inner[] is written before it is read
#endif
/// Evaluates the binary tree over leaves[0..k-1], one f32 addition per inner node.
MXR_HD inline float evalTree(const FlatTree &t, const float *leaves, int ftz) {
  if (t.nInner == 0) return leaves[0];
  float inner[kMaxInner];
  for (int j = 0; j < t.nInner; ++j) {
    const int r0 = t.c0[j], r1 = t.c1[j];
    const float x = r0 >= kInnerRef ? inner[r0 - kInnerRef] : leaves[r0];
    const float y = r1 >= kInnerRef ? inner[r1 - kInnerRef] : leaves[r1];
    inner[j] = addRN(x, y, ftz);
  }
  return inner[t.nInner - 1];
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/// Placement p on one block of decoded element values.
MXR_HD inline float evalPlacementValues(const Problem &P, int p, const float *av, const float *bv,
                                        int xa, int xb) {
  const Scales s = makeScales(P, xa, xb);
  float leaves[kMaxK];
  for (int i = 0; i < P.tree.k; ++i) leaves[i] = placementLeaf(p, av[i], bv[i], s, P.ftz);
  return placementRoot(p, evalTree(P.tree, leaves, P.ftz), s, P.ftz);
}

/// Both placements of the problem on one block of element codes: out[0] = lhs bits,
/// out[1] = rhs bits (NaN canonical).
MXR_HD inline void evalBlock(const Problem &P, const uint8_t *a, const uint8_t *b, int xa, int xb,
                             uint32_t *out) {
  float av[kMaxK], bv[kMaxK];
  for (int i = 0; i < P.tree.k; ++i) {
    av[i] = decodeElement(P.fa, a[i]);
    bv[i] = decodeElement(P.fb, b[i]);
  }
  out[0] = canonicalBits(evalPlacementValues(P, P.p1, av, bv, xa, xb));
  out[1] = canonicalBits(evalPlacementValues(P, P.p2, av, bv, xa, xb));
}

/// Whether two results (canonical bits) are related (SPEC §6): bitwise = same bits (all NaNs
/// equal after canonicalization); value = as bitwise, but +0 equals -0.
MXR_HD inline bool related(uint32_t r1, uint32_t r2, int relation) {
  if (r1 == r2) return true;
  return relation == kValue && (r1 & 0x7FFFFFFFu) == 0 && (r2 & 0x7FFFFFFFu) == 0;
}

// ---- exhaustive enumeration -------------------------------------------------------------
//
// An exhaustive check enumerates tuples of leaf CLASSES rather than tuples of element codes:
// class c stands for the element pairs (a, b) whose leaf value is the same for every scale
// code pair, represented by the element values (av[c], bv[c]) of one such pair. Tuple index t
// in [0, n^k) names the classes c_i = digit i of t in base n (digit 0 least significant).

/// The classes of one exhaustive check (host-built, copied to the device).
struct ClassTable {
  int n;             ///< number of classes per position
  const float *av;   ///< n element values (a side)
  const float *bv;   ///< n element values (b side)
};

/// Leaf values of placement p for every class at one scale point.
MXR_HD inline void classLeaves(int p, const ClassTable &C, const Scales &s, int ftz, float *out) {
  for (int c = 0; c < C.n; ++c) out[c] = placementLeaf(p, C.av[c], C.bv[c], s, ftz);
}

/// Whether the two placements are NOT related on one tuple, given its leaf values for each
/// placement (l1 for lhs, l2 for rhs) at one scale point.
MXR_HD inline bool leavesDiffer(const Problem &P, const float *l1, const float *l2, const Scales &s) {
  const uint32_t r1 = canonicalBits(placementRoot(P.p1, evalTree(P.tree, l1, P.ftz), s, P.ftz));
  const uint32_t r2 = canonicalBits(placementRoot(P.p2, evalTree(P.tree, l2, P.ftz), s, P.ftz));
  return !related(r1, r2, P.relation);
}

/// Evaluates tuple t at one scale point from precomputed leaf tables L1, L2 (one per
/// placement, n entries each); returns whether the two placements are NOT related.
MXR_HD inline bool tupleDiffers(const Problem &P, int n, uint64_t t, const float *L1,
                                const float *L2, const Scales &s) {
  float l1[kMaxK], l2[kMaxK];
  for (int i = 0; i < P.tree.k; ++i) {
    const int c = int(t % uint64_t(n));
    t /= uint64_t(n);
    l1[i] = L1[c];
    l2[i] = L2[c];
  }
  return leavesDiffer(P, l1, l2, s);
}

}  // namespace mxreplay

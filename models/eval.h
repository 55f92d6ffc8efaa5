// models/eval.h — the reference evaluator: the generic semantics on exact integers, plus
// conversions between exact accumulator values and their IEEE bit patterns.
#pragma once

#include "models/placement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mxcert {

/// A concrete exact value (see Val in arith.h).
using CVal = Val<ConcreteDomain>;

/// Concrete inputs of one block: element codes and scale codes.
struct ConcreteInput {
  std::vector<unsigned> a, b;  ///< element codes, k each
  unsigned xa = 127, xb = 127; ///< scale codes, 0..255 (e8m0) or 0..127 (e4m3)
};

/// Decodes element codes into exact values (the generic decoder on concrete integers).
std::vector<CVal> decodeElements(const ElementFormat &f, const std::vector<unsigned> &codes);

/// Evaluates the given placements on one input. Preconditions (checked, std::invalid_argument):
/// k codes per operand, codes in range, scale codes in 0..255 (0..127 for NVFP4 configs, whose
/// placements are those of models/nvfp4.h).
std::vector<CVal> evaluatePlacements(const ModelConfig &cfg, const std::vector<Placement> &ps,
                                     const ConcreteInput &in);
/// Evaluates one placement.
CVal evaluatePlacement(const ModelConfig &cfg, Placement p, const ConcreteInput &in);

/// One block's elements, decoded once, for evaluating placements at many scale pairs (a
/// witness replayed on every pair it refutes, `mxcert eval --xa all --xb all`):
/// evaluate(p, xa, xb) is evaluatePlacement(cfg, p, {a, b, xa, xb}) (evaluatePlacements goes
/// through it), computed from the pieces of evalPlacement's definition (placement.h) that
/// repeat across scale pairs, each made once and kept:
///   - post's and post2's tree over productLeaf, which reads no scale: one per block;
///   - pre's tree over preLeaf, which reads the scales through e alone: one per xa + xb;
///   - dequant's dequantized elements rnd(2^sa a_i) and rnd(2^sb b_i): one list per code.
/// The root step (placementRoot) and dequant's tree are evaluated for every pair. NVFP4
/// configurations keep nothing (evalNvfp4Placement on every call). tests/unit/test_eval.cpp
/// compares every pair with evalPlacement itself. The constructor checks the codes, evaluate
/// the scale codes. `cfg` is not copied: it must outlive the block.
class DecodedBlock {
public:
  DecodedBlock(const ModelConfig &cfg, const std::vector<unsigned> &a, const std::vector<unsigned> &b);
  CVal evaluate(Placement p, unsigned xa, unsigned xb);
  /// evaluate(p, xa, xb) for each placement of ps, in order.
  std::vector<CVal> evaluate(const std::vector<Placement> &ps, unsigned xa, unsigned xb);

private:
  /// Placement p's tree result T at the codes (xa, xb), whose scales are s (MX only).
  CVal tree(Placement p, unsigned xa, unsigned xb, const Scales<ConcreteDomain> &s);
  /// dequantElement(v_i, s) (rnd(2^s v_i)) for each decoded element v_i of `vals`, made
  /// once per code x, whose scale is s = x - 127.
  const std::vector<CVal> &dequantized(std::vector<std::optional<std::vector<CVal>>> &memo,
                                       const std::vector<CVal> &vals, unsigned x, const Integer &s);

  const ModelConfig &cfg_;
  BlockInput<ConcreteDomain> in_;
  std::optional<CVal> productTree_;                            ///< post's and post2's T
  std::vector<std::optional<CVal>> preTree_;                   ///< pre's T, by xa + xb
  std::vector<std::optional<std::vector<CVal>>> dequantA_, dequantB_;  ///< by xa, by xb
};

/// Whether two concrete results are related (SPEC §6).
bool isRelated(const CVal &r1, const CVal &r2, Relation rel);

/// The value class for printing and hashing: 0 finite, 1 inf, 2 NaN.
int valueClass(const CVal &v);

/// The IEEE bit pattern of an accumulator value (which must be representable in `f`). NaN is
/// the canonical quiet NaN (0x7FC00000 for f32). Throws std::logic_error if not representable.
uint64_t encodeBits(const CVal &v, const AccFormat &f);
/// The exact value of an IEEE bit pattern of format `f`.
CVal decodeBits(uint64_t bits, const AccFormat &f);
/// "0x" followed by the bit pattern in hex, zero-padded to the format's width.
std::string hexBits(uint64_t bits, const AccFormat &f);
/// The shortest decimal string that identifies the value in format `f` ("nan", "inf",
/// "-inf", "-0", "1.5", "1e-45", ...).
std::string toDecimal(const CVal &v, const AccFormat &f);
/// The value as a double (exact for f32, bf16, f16, f64 values).
double toDouble(const CVal &v);

/// A canonical form for hashing and equality of concrete states: specials have N = X = 0
/// (and NaN has neg = false); zeros have X = 0; nonzero N is odd.
CVal canonical(const CVal &v);
/// Exact equality of canonical states (same class, sign, N, X).
bool sameState(const CVal &a, const CVal &b);
/// Hash of a state (canonicalizes first).
size_t hashState(const CVal &v);

}  // namespace mxcert

// src/plot/cell_map.h — what a plot shows in each scale-code cell: the agree set of a
// certificate and, outside it, the kind of disagreement its witness exhibits there.
//
// A certificate (docs/certificates.md) states the agree set as regions over (xa, xb, e) with
// e = xa + xb - 254, and refutes every other finite pair with a witness (element codes). The
// format records no class of disagreement, so the class of an excluded cell is computed: the
// witness that first claims the cell is evaluated there with the reference evaluator
// (models/eval.h) and the two results are compared (disagreementClass). Code 255 on either
// side is its own class (both placements give NaN: always safe). Reading uses the
// solver-free certificate reader (certs/); nothing here links a solver or proves anything —
// `mxcert check` is what confirms a certificate.
#pragma once

#include "certs/certificate.h"
#include "models/eval.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mxcert::plot {

/// The class of one cell. The first group describes one file, the second a comparison of two.
enum class Cell : uint8_t {
  Agree,         ///< in the agree set
  Nan255,        ///< xa or xb is 255: both placements give NaN
  Overflow,      ///< the witness gives +-inf on one side (or opposite infinities)
  NaN,           ///< the witness gives NaN on one side only
  SignedZero,    ///< +0 against -0 (bitwise relation)
  Underflow,     ///< finite results differ and one is zero or subnormal
  Rounding,      ///< finite normal results differ
  NoWitness,     ///< excluded, and no witness in the file claims the pair (compact tables)
  Unconfirmed,   ///< the claiming witness does not make the placements differ here
  BothAgree,     ///< comparison: in both agree sets
  BothExcluded,  ///< comparison: in neither agree set
  OnlyLeft,      ///< comparison: in the first file's agree set only
  OnlyRight,     ///< comparison: in the second file's agree set only
};
/// Number of Cell values.
constexpr int kNumCellClasses = 13;

/// A guard table as a plot reads it: the claims, and the witnesses when it is a certificate.
struct AgreeSource {
  std::string path;                         ///< the file name as given
  certs::GuardTable table;                  ///< configuration, placements, relation, agree set
  bool certificate = false;                 ///< a full certificate (else a compact guard table)
  std::string engine;                       ///< the certificate's engine ("" for a compact table)
  size_t proofs = 0;                        ///< number of proof records
  std::vector<certs::CertWitness> witnesses;
};

/// Reads a certificate or a compact guard table; throws certs::SchemaError naming the problem
/// (unreadable file, invalid JSON, schema violation).
AgreeSource readAgreeSource(const std::string &path);

/// The class of every cell (xa, xb) in 0..255 x 0..255, indexed xa * 256 + xb.
class CellMap {
public:
  CellMap() { cells_.fill(Cell::BothExcluded); }
  /// The class of cell (xa, xb).
  Cell get(int xa, int xb) const { return cells_[size_t(xa) * 256 + size_t(xb)]; }
  /// Sets the class of cell (xa, xb).
  void set(int xa, int xb, Cell c) { cells_[size_t(xa) * 256 + size_t(xb)] = c; }
  /// Number of cells of class c.
  long count(Cell c) const;

private:
  std::array<Cell, 256 * 256> cells_;
};

/// The class of a pair where placements give `lhs` and `rhs`: Unconfirmed when they are
/// related under `rel`, else NaN, Overflow, SignedZero, Underflow or Rounding (checked in
/// this order; "subnormal" is below 2^emin of `acc`).
Cell disagreementClass(const CVal &lhs, const CVal &rhs, Relation rel, const AccFormat &acc);

/// The cells of one file: Agree inside the agree set, Nan255 on code 255, and every other pair
/// classified by the first witness (in file order) that claims it, or NoWitness.
CellMap classify(const AgreeSource &s);

/// The comparison of two agree sets: BothAgree, BothExcluded, OnlyLeft, OnlyRight, and Nan255
/// on code 255.
CellMap compare(const AgreeSource &left, const AgreeSource &right);

}  // namespace mxcert::plot

// models/guard.h — sets of scale-code pairs and guards (SPEC §7).
//
// A guard is a union of disjoint regions; a region is a conjunction of inclusive integer
// ranges on xa, xb (codes 0..254) and e = xa + xb - 254. Code 255 is never part of a region
// (both placements give NaN there, so it is always safe). Two guards are equal when they
// cover the same code pairs (CodeSet equality), whatever their region lists.
//
// Text syntax (CLI): regions separated by '|', each a comma-separated list of constraints
// "xa:LO..HI", "xb:LO..HI", "e:LO..HI" (or a single value "e:5"); an absent constraint is
// the full range. Example: "xa:0..252,xb:0..252,e:-147..118|e:-254..-157".
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mxcert {

/// Largest finite scale code.
constexpr int kMaxCode = 254;
/// Number of finite scale codes.
constexpr int kNumCodes = 255;

/// An inclusive integer range.
struct CodeRange {
  int lo = 0, hi = -1;
  bool contains(int v) const { return lo <= v && v <= hi; }
  bool empty() const { return lo > hi; }
  bool operator==(const CodeRange &o) const { return lo == o.lo && hi == o.hi; }
};

/// One region of a guard.
struct Region {
  CodeRange xa{0, kMaxCode}, xb{0, kMaxCode}, e{-kMaxCode, kMaxCode};
  bool contains(int a, int b) const { return xa.contains(a) && xb.contains(b) && e.contains(a + b - kMaxCode); }
  /// Number of code pairs in the region.
  long count() const;
  /// Tightens the ranges to the pairs actually covered (empty region: count() == 0).
  Region tightened() const;
  /// The region halved along e when it spans several e, else along xa, else along xb; both
  /// halves tightened. Their union is the region and they are disjoint (a region of one pair
  /// gives it and an empty region).
  std::pair<Region, Region> halves() const;
  /// "xa:0..254,xb:0..254,e:-147..122" (full ranges are printed too).
  std::string str() const;
  bool operator==(const Region &o) const { return xa == o.xa && xb == o.xb && e == o.e; }
};

/// A set of finite code pairs (xa, xb) in 0..254 x 0..254.
class CodeSet {
public:
  CodeSet() : bits_(size_t(kNumCodes) * kNumCodes, 0) {}
  /// The set of all pairs.
  static CodeSet all();
  bool get(int xa, int xb) const { return bits_[idx(xa, xb)] != 0; }
  void set(int xa, int xb, bool v = true) { bits_[idx(xa, xb)] = v ? 1 : 0; }
  long count() const;
  bool operator==(const CodeSet &o) const { return bits_ == o.bits_; }
  bool operator!=(const CodeSet &o) const { return bits_ != o.bits_; }
  /// Whether every pair of the set has the same membership along each anti-diagonal (the set
  /// is a union of whole e-lines).
  bool dependsOnEOnly() const;
  /// The complement within 0..254 x 0..254.
  CodeSet complement() const;
  /// The pairs in both sets.
  CodeSet intersect(const CodeSet &o) const;

private:
  static size_t idx(int xa, int xb) { return size_t(xa) * kNumCodes + size_t(xb); }
  std::vector<uint8_t> bits_;
};

/// A guard parse error; the message names the problem.
struct GuardError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A union of disjoint regions.
struct Guard {
  std::vector<Region> regions;

  bool contains(int xa, int xb) const;
  /// The covered pairs.
  CodeSet toSet() const;
  /// Whether the regions are pairwise disjoint.
  bool disjoint() const;
  /// The canonical decomposition of a set (see guard.cpp): whole e-intervals when the set
  /// depends on e only, otherwise maximal clipped-diagonal boxes; regions sorted by
  /// (e.lo, xa.lo, xb.lo).
  static Guard fromSet(const CodeSet &s);
  /// Parses the text syntax; throws GuardError.
  static Guard parse(const std::string &text);
  /// The text syntax ("" for the empty guard is printed as "none").
  std::string str() const;
};

}  // namespace mxcert

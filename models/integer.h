// models/integer.h — an exact arbitrary-precision integer with a 64-bit fast path.
//
// The reference evaluator works with exact dyadic numbers N * 2^X. Most magnitudes N fit
// in 64 bits, but an f32 value 2^127 expressed in units of 2^-256 needs 384 bits, and an f64
// one needs over 2000. `Integer` keeps small values in an int64_t and promotes to
// boost::multiprecision::cpp_int on overflow, so it is always exact and usually fast.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>

#include <cstdint>
#include <limits>
#include <string>

namespace mxcert {

/// An exact signed integer. Value semantics; every operation is exact (never wraps).
class Integer {
public:
  using Big = boost::multiprecision::cpp_int;

  /// Zero.
  Integer() = default;
  /// From a machine integer.
  Integer(int64_t v) : small_(v) {}  // NOLINT: implicit by design, like a number literal
  /// From an int (avoids ambiguity for literals).
  Integer(int v) : small_(v) {}      // NOLINT
  /// From an unsigned machine integer.
  static Integer fromU64(uint64_t v);
  /// From a Boost integer (demoted to the fast path when it fits).
  explicit Integer(const Big &b);
  Integer(const Integer &o) : small_(o.small_) {
    if (__builtin_expect(o.big_ != nullptr, 0)) copyBig(o);
  }
  Integer(Integer &&o) noexcept : small_(o.small_), big_(o.big_) { o.big_ = nullptr; }
  Integer &operator=(const Integer &o) {
    small_ = o.small_;
    if (__builtin_expect(o.big_ != nullptr || big_ != nullptr, 0)) assignBig(o);
    return *this;
  }
  Integer &operator=(Integer &&o) noexcept {
    if (this != &o) {
      if (__builtin_expect(big_ != nullptr, 0)) freeBig();
      small_ = o.small_;
      big_ = o.big_;
      o.big_ = nullptr;
    }
    return *this;
  }
  ~Integer() {
    if (__builtin_expect(big_ != nullptr, 0)) freeBig();
  }

  /// 2^k for k >= 0.
  static Integer pow2(unsigned k) {
    if (k < 63) return Integer(static_cast<int64_t>(1) << k);
    return pow2Slow(k);
  }
  /// Parses an optionally signed decimal string; throws std::invalid_argument when malformed.
  static Integer parse(const std::string &s);

  /// True when the value is held in the 64-bit fast path.
  bool isSmall() const { return !big_; }
  /// The value as a Boost integer.
  Big toBig() const;
  /// The value as int64; precondition: fitsInt64().
  int64_t toInt64() const;
  /// Whether the value fits in int64.
  bool fitsInt64() const { return !big_; }
  /// The value as double (rounded; for display only).
  double toDouble() const;
  /// Decimal representation.
  std::string str() const;

  /// -1, 0 or 1.
  int sign() const {
    if (!big_) return small_ > 0 ? 1 : (small_ < 0 ? -1 : 0);
    return signSlow();
  }
  bool isZero() const { return !big_ && small_ == 0; }
  /// Whether the value is odd.
  bool isOdd() const;
  /// Index of the most significant set bit of |v|; precondition v != 0.
  unsigned msb() const {
    if (!big_ && small_ > 0) return 63u - static_cast<unsigned>(__builtin_clzll(uint64_t(small_)));
    return msbSlow();
  }
  /// Number of trailing zero bits of |v|; precondition v != 0.
  unsigned trailingZeros() const {
    if (!big_ && small_ != 0) return static_cast<unsigned>(__builtin_ctzll(static_cast<uint64_t>(small_)));
    return tzSlow();
  }
  /// |v|.
  Integer abs() const;

  Integer operator-() const;
  Integer operator+(const Integer &o) const {
    int64_t r;
    if (!big_ && !o.big_ && !__builtin_add_overflow(small_, o.small_, &r)) return Integer(r);
    return addSlow(o);
  }
  Integer operator-(const Integer &o) const {
    int64_t r;
    if (!big_ && !o.big_ && !__builtin_sub_overflow(small_, o.small_, &r)) return Integer(r);
    return subSlow(o);
  }
  Integer operator*(const Integer &o) const {
    int64_t r;
    if (!big_ && !o.big_ && !__builtin_mul_overflow(small_, o.small_, &r)) return Integer(r);
    return mulSlow(o);
  }
  Integer &operator+=(const Integer &o) { return *this = *this + o; }
  Integer &operator-=(const Integer &o) { return *this = *this - o; }
  /// v * 2^k.
  Integer operator<<(unsigned k) const {
    if (!big_ && k < 62) {
      int64_t lim = std::numeric_limits<int64_t>::max() >> k;
      if (small_ <= lim && small_ >= -lim) return Integer(small_ * (int64_t(1) << k));
    }
    return shlSlow(k);
  }
  /// floor(v / 2^k) (arithmetic shift; floor for negatives).
  Integer operator>>(unsigned k) const {
    if (!big_) return Integer(k >= 63 ? (small_ < 0 ? -1 : 0) : (small_ >> k));
    return shrSlow(k);
  }
  /// v mod 2^k in [0, 2^k) (floor semantics, so v = (v >> k) * 2^k + lowBits(k)).
  Integer lowBits(unsigned k) const;

  int compare(const Integer &o) const {
    if (!big_ && !o.big_) return small_ < o.small_ ? -1 : (small_ > o.small_ ? 1 : 0);
    return compareSlow(o);
  }
  bool operator==(const Integer &o) const { return compare(o) == 0; }
  bool operator!=(const Integer &o) const { return compare(o) != 0; }
  bool operator<(const Integer &o) const { return compare(o) < 0; }
  bool operator<=(const Integer &o) const { return compare(o) <= 0; }
  bool operator>(const Integer &o) const { return compare(o) > 0; }
  bool operator>=(const Integer &o) const { return compare(o) >= 0; }

  /// A hash of the value (equal values hash equally, whatever their representation).
  size_t hash() const {
    if (!big_) return size_t(small_) * 0x9E3779B97F4A7C15ull;
    return hashSlow();
  }

private:
  static Integer pow2Slow(unsigned k);
  unsigned msbSlow() const;
  unsigned tzSlow() const;
  Integer shlSlow(unsigned k) const;
  Integer shrSlow(unsigned k) const;
  void copyBig(const Integer &o);
  void freeBig();
  int signSlow() const;
  size_t hashSlow() const;
  void assignBig(const Integer &o);
  Integer addSlow(const Integer &o) const;
  Integer subSlow(const Integer &o) const;
  Integer mulSlow(const Integer &o) const;
  int compareSlow(const Integer &o) const;
  void normalize();
  int64_t small_ = 0;
  Big *big_ = nullptr;  // owned; non-null iff the value does not fit in int64
};

/// Smaller / larger of two integers.
inline const Integer &min(const Integer &a, const Integer &b) { return b < a ? b : a; }
inline const Integer &max(const Integer &a, const Integer &b) { return a < b ? b : a; }

}  // namespace mxcert

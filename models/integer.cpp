// models/integer.cpp — exact integer with a 64-bit fast path (see integer.h).
#include "models/integer.h"

#include <cmath>
#include <functional>
#include <stdexcept>

namespace mxcert {

namespace {
using Big = Integer::Big;
const Big kMin64 = Big(std::numeric_limits<int64_t>::min());
const Big kMax64 = Big(std::numeric_limits<int64_t>::max());
}  // namespace

Integer Integer::fromU64(uint64_t v) {
  if (v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    return Integer(static_cast<int64_t>(v));
  return Integer(Big(v));
}

Integer::Integer(const Big &b) {
  if (b >= kMin64 && b <= kMax64) {
    small_ = static_cast<int64_t>(b);
  } else {
    big_ = new Big(b);
  }
}

void Integer::copyBig(const Integer &o) { big_ = new Big(*o.big_); }

void Integer::freeBig() {
  delete big_;
  big_ = nullptr;
}

void Integer::assignBig(const Integer &o) {
  if (this == &o) return;
  if (o.big_) {
    if (big_)
      *big_ = *o.big_;
    else
      big_ = new Big(*o.big_);
  } else {
    freeBig();
  }
}

void Integer::normalize() {
  if (big_ && *big_ >= kMin64 && *big_ <= kMax64) {
    small_ = static_cast<int64_t>(*big_);
    freeBig();
  }
}

Integer Integer::pow2Slow(unsigned k) {
  Big b = 1;
  b <<= k;
  return Integer(b);
}

Integer Integer::parse(const std::string &s) {
  if (s.empty()) throw std::invalid_argument("empty integer");
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) throw std::invalid_argument("malformed integer '" + s + "'");
  for (size_t j = i; j < s.size(); ++j)
    if (s[j] < '0' || s[j] > '9') throw std::invalid_argument("malformed integer '" + s + "'");
  // Base 10 always (Boost would read a leading 0 as octal).
  Big b = 0;
  for (size_t j = i; j < s.size(); ++j) b = b * 10 + (s[j] - '0');
  if (s[0] == '-') b = -b;
  return Integer(b);
}

Big Integer::toBig() const { return big_ ? *big_ : Big(small_); }

int64_t Integer::toInt64() const {
  if (big_) throw std::overflow_error("Integer does not fit in int64");
  return small_;
}

double Integer::toDouble() const { return big_ ? big_->convert_to<double>() : double(small_); }

std::string Integer::str() const { return big_ ? big_->str() : std::to_string(small_); }

int Integer::signSlow() const { return big_->sign(); }

bool Integer::isOdd() const {
  if (big_) return bit_test(*big_, 0);
  return (small_ & 1) != 0;
}

unsigned Integer::msbSlow() const {
  if (big_) return boost::multiprecision::msb(boost::multiprecision::abs(*big_));
  if (small_ == 0) throw std::domain_error("msb of zero");
  uint64_t u = small_ < 0 ? uint64_t(0) - uint64_t(small_) : uint64_t(small_);
  return 63u - static_cast<unsigned>(__builtin_clzll(u));
}

unsigned Integer::tzSlow() const {
  if (big_) return boost::multiprecision::lsb(boost::multiprecision::abs(*big_));
  if (small_ == 0) throw std::domain_error("trailingZeros of zero");
  return static_cast<unsigned>(__builtin_ctzll(static_cast<uint64_t>(small_)));
}

Integer Integer::abs() const { return sign() < 0 ? -*this : *this; }

Integer Integer::operator-() const {
  if (!big_ && small_ != std::numeric_limits<int64_t>::min()) return Integer(-small_);
  return Integer(Big(-toBig()));
}

Integer Integer::addSlow(const Integer &o) const { return Integer(Big(toBig() + o.toBig())); }
Integer Integer::subSlow(const Integer &o) const { return Integer(Big(toBig() - o.toBig())); }
Integer Integer::mulSlow(const Integer &o) const { return Integer(Big(toBig() * o.toBig())); }

Integer Integer::shlSlow(unsigned k) const {
  if (!big_ && small_ == 0) return Integer();
  Big b = toBig();
  b <<= k;
  return Integer(b);
}

Integer Integer::shrSlow(unsigned k) const {
  // Boost's >> on negative signed-magnitude values truncates toward zero; use floor.
  Big b = *big_;
  if (b.sign() >= 0) return Integer(Big(b >> k));
  Big q = (-b) >> k;
  Big back = q << k;
  if (back != -b) q += 1;
  return Integer(Big(-q));
}

Integer Integer::lowBits(unsigned k) const { return *this - ((*this >> k) << k); }

int Integer::compareSlow(const Integer &o) const {
  Big a = toBig(), b = o.toBig();
  return a < b ? -1 : (a > b ? 1 : 0);
}

size_t Integer::hashSlow() const { return std::hash<std::string>()(big_->str()); }

}  // namespace mxcert

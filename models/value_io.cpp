// models/value_io.cpp — exact parsing of element values.
#include "models/value_io.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace mxcert {

namespace {

std::string lower(std::string s) {
  for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Integer pow10(unsigned k) {
  Integer r(1);
  for (unsigned i = 0; i < k; ++i) r = r * Integer(10);
  return r;
}

/// An exact decimal: (-1)^neg * digits * 10^exp10.
struct Decimal {
  bool neg = false;
  Integer digits;
  long exp10 = 0;
};

bool parseDecimal(const std::string &s, Decimal &out) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) out.neg = s[i++] == '-';
  std::string digits;
  bool any = false, dot = false;
  long fracDigits = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      any = true;
      if (digits.size() > 400) return false;
      digits += c;
      if (dot) ++fracDigits;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any) return false;
  long e = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) eneg = s[i++] == '-';
    bool edig = false;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i) {
      edig = true;
      if (e > 100000) return false;
      e = e * 10 + (s[i] - '0');
    }
    if (!edig) return false;
    if (eneg) e = -e;
  }
  if (i != s.size()) return false;
  out.digits = Integer::parse(digits);
  out.exp10 = e - fracDigits;
  return true;
}

}  // namespace

long parseIntIn(const std::string &text, long lo, long hi, const std::string &what) {
  if (text.empty()) throw ValueError(what + ": empty value");
  const char *s = text.c_str();
  char *end = nullptr;
  errno = 0;
  long v;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    v = std::strtol(s + 2, &end, 16);
  else
    v = std::strtol(s, &end, 10);
  if (*end != '\0' || errno == ERANGE || end == s || std::isspace(static_cast<unsigned char>(text[0])))
    throw ValueError(what + ": '" + text + "' is not an integer");
  if (v < lo || v > hi)
    throw ValueError(what + ": " + text + " is out of range " + std::to_string(lo) + ".." +
                     std::to_string(hi));
  return v;
}

unsigned parseElement(const ElementFormat &f, const std::string &text) {
  const std::string t = lower(text);
  const unsigned signBit = 1u << (f.bits() - 1);
  if (t.size() > 2 && t[0] == '0' && t[1] == 'x') {
    long v = parseIntIn(t, 0, long(f.numCodes()) - 1, f.name + " code");
    return unsigned(v);
  }
  if (t == "nan" || t == "+nan" || t == "-nan") {
    if (!f.hasNaN()) throw ValueError(f.name + " has no NaN");
    for (unsigned c = 0; c < f.numCodes(); ++c)
      if (decodeElementCode(f, c).nan) return c + (t[0] == '-' ? signBit : 0);
    throw ValueError(f.name + " has no NaN");
  }
  if (t == "inf" || t == "+inf" || t == "-inf" || t == "infinity" || t == "-infinity") {
    if (!f.hasInf()) throw ValueError(f.name + " has no infinity");
    for (unsigned c = 0; c < signBit; ++c)
      if (decodeElementCode(f, c).inf) return c + (t[0] == '-' ? signBit : 0);
  }
  Decimal dec;
  if (!parseDecimal(t, dec))
    throw ValueError("'" + text + "' is not a number (expected a decimal, 0x code, -0, inf or nan)");
  if (dec.digits.isZero()) return dec.neg ? signBit : 0;
  // Compare dec.digits * 10^exp10 with n * 2^q exactly, over all nonnegative codes.
  if (dec.exp10 > 60 || dec.exp10 < -400)
    throw ValueError("'" + text + "' is not representable in " + f.name);
  const int q = f.quantumExp();
  Integer lhs = dec.digits;
  if (dec.exp10 > 0) lhs = lhs * pow10(unsigned(dec.exp10));
  if (q < 0) lhs = lhs << unsigned(-q);
  const Integer rhsScale = dec.exp10 < 0 ? pow10(unsigned(-dec.exp10)) : Integer(1);
  for (unsigned c = 0; c < signBit; ++c) {
    ElementValue v = decodeElementCode(f, c);
    if (v.nan || v.inf) continue;
    Integer rhs = v.n * rhsScale;
    if (q > 0) rhs = rhs << unsigned(q);
    if (rhs == lhs) return c + (dec.neg ? signBit : 0);
  }
  throw ValueError("'" + text + "' is not representable in " + f.name);
}

std::vector<unsigned> parseElementList(const ElementFormat &f, const std::string &text) {
  std::vector<unsigned> out;
  std::string tok;
  auto flush = [&] {
    if (!tok.empty()) out.push_back(parseElement(f, tok));
    tok.clear();
  };
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',')
      flush();
    else
      tok += c;
  }
  flush();
  return out;
}

std::string elementToString(const ElementFormat &f, unsigned code) {
  ElementValue v = decodeElementCode(f, code);
  if (v.nan) return "nan";
  if (v.inf) return v.neg ? "-inf" : "inf";
  // n * 2^q with q < 0: exact decimal n * 5^-q / 10^-q.
  const int q = f.quantumExp();
  Integer num = v.n;
  unsigned places = 0;
  if (q < 0) {
    for (int i = 0; i < -q; ++i) num = num * Integer(5);
    places = unsigned(-q);
  } else {
    num = num << unsigned(q);
  }
  std::string digits = num.str();
  if (places) {
    if (digits.size() <= places) digits = std::string(places - digits.size() + 1, '0') + digits;
    digits.insert(digits.size() - places, ".");
    while (digits.back() == '0') digits.pop_back();
    if (digits.back() == '.') digits.pop_back();
  }
  return (v.neg ? "-" : "") + digits;
}

}  // namespace mxcert

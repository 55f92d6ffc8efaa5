// models/nvfp4.cpp — NVFP4 scale coordinates and coordinate regions (see nvfp4.h).
#include "models/nvfp4.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace mxcert {

ScaleCoord e4m3Coord(int x) {
  if (x < 0 || x > E4m3ScaleCode::kMaxCode) throw std::out_of_range("e4m3 scale code " + std::to_string(x));
  if (x == 0) return {kNvfp4ZeroClass, 0};
  if (x == E4m3ScaleCode::kNaN) return {kNvfp4NaNClass, 0};
  const int E = x >> 3, M = x & 7;
  int n = E == 0 ? M : 8 + M, j = E == 0 ? -9 : E - 10;
  while (n % 2 == 0) n /= 2, ++j;
  return {n, j};
}

namespace {
/// code of (m, j), built once from e4m3Coord.
const std::map<std::pair<int, int>, int> &codeTable() {
  static const std::map<std::pair<int, int>, int> t = [] {
    std::map<std::pair<int, int>, int> m;
    for (int x = 0; x <= E4m3ScaleCode::kMaxCode; ++x) {
      const ScaleCoord c = e4m3Coord(x);
      m[{c.m, c.j}] = x;
    }
    return m;
  }();
  return t;
}
bool isClass(int m) { return m == kNvfp4ZeroClass || m == kNvfp4NaNClass || (m >= 1 && m <= 15 && m % 2 == 1); }
}  // namespace

int e4m3CodeAt(int m, int j) {
  const auto it = codeTable().find({m, j});
  return it == codeTable().end() ? -1 : it->second;
}

const std::vector<int> &e4m3Classes() {
  static const std::vector<int> c = {1, 3, 5, 7, 9, 11, 13, 15, kNvfp4ZeroClass, kNvfp4NaNClass};
  return c;
}

CodeRange e4m3JRange(int m) {
  CodeRange r{1, 0};
  for (const auto &[mj, x] : codeTable())
    if (mj.first == m) {
      if (r.empty()) r = {mj.second, mj.second};
      r.lo = std::min(r.lo, mj.second);
      r.hi = std::max(r.hi, mj.second);
    }
  return r;
}

bool Nvfp4Region::contains(int xa, int xb) const {
  const ScaleCoord a = e4m3Coord(xa), b = e4m3Coord(xb);
  return a.m == ma && b.m == mb && ja.contains(a.j) && jb.contains(b.j) && j.contains(a.j + b.j);
}

long Nvfp4Region::count() const {
  if (!isClass(ma) || !isClass(mb)) return 0;
  const CodeRange ra = e4m3JRange(ma), rb = e4m3JRange(mb);
  long n = 0;
  for (int x = std::max(ja.lo, ra.lo); x <= std::min(ja.hi, ra.hi); ++x)
    for (int y = std::max(jb.lo, rb.lo); y <= std::min(jb.hi, rb.hi); ++y) n += j.contains(x + y);
  return n;
}

CodeSet Nvfp4Region::codes() const {
  CodeSet s;
  for (int xa = 0; xa <= E4m3ScaleCode::kMaxCode; ++xa)
    for (int xb = 0; xb <= E4m3ScaleCode::kMaxCode; ++xb)
      if (contains(xa, xb)) s.set(xa, xb);
  return s;
}

Nvfp4Region Nvfp4Region::tightened() const {
  Nvfp4Region r{ma, mb, {1, 0}, {1, 0}, {1, 0}};
  if (!isClass(ma) || !isClass(mb)) return r;
  const CodeRange ra = e4m3JRange(ma), rb = e4m3JRange(mb);
  auto widen = [](CodeRange &c, int v) {
    if (c.empty()) c = {v, v};
    c.lo = std::min(c.lo, v);
    c.hi = std::max(c.hi, v);
  };
  for (int x = std::max(ja.lo, ra.lo); x <= std::min(ja.hi, ra.hi); ++x)
    for (int y = std::max(jb.lo, rb.lo); y <= std::min(jb.hi, rb.hi); ++y)
      if (j.contains(x + y)) widen(r.ja, x), widen(r.jb, y), widen(r.j, x + y);
  return r;
}

std::string Nvfp4Region::str() const {
  auto rng = [](const char *n, CodeRange r) {
    return std::string(n) + ":" + std::to_string(r.lo) + ".." + std::to_string(r.hi);
  };
  return "ma:" + std::to_string(ma) + ",mb:" + std::to_string(mb) + "," + rng("ja", ja) + "," + rng("jb", jb) + "," +
         rng("j", j);
}

Nvfp4Region Nvfp4Region::parse(const std::string &text) {
  Nvfp4Region r;
  static const char *const keys[5] = {"ma", "mb", "ja", "jb", "j"};
  bool seen[5] = {};
  size_t pos = 0;
  auto fail = [&](const std::string &why) { throw GuardError("nvfp4 region '" + text + "': " + why); };
  auto number = [&](const std::string &s) {
    size_t used = 0;
    long v = 0;
    try {
      v = std::stol(s, &used);
    } catch (const std::exception &) {
      fail("'" + s + "' is no integer");
    }
    if (used != s.size() || v < -64 || v > 64) fail("'" + s + "' is no integer in -64..64");
    return int(v);
  };
  while (pos <= text.size()) {
    const size_t comma = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, comma - pos);
    const size_t colon = item.find(':');
    if (colon == std::string::npos) fail("'" + item + "' is not KEY:VALUE");
    const std::string key = item.substr(0, colon), val = item.substr(colon + 1);
    int k = 0;
    while (k < 5 && key != keys[k]) ++k;
    if (k == 5) fail("unknown key '" + key + "' (ma, mb, ja, jb, j)");
    if (seen[k]) fail("key '" + key + "' twice");
    seen[k] = true;
    if (k < 2) {
      const int m = number(val);
      if (!isClass(m)) fail(key + " " + val + " is no class (odd 1..15, 0 = zero scale, -1 = NaN scale)");
      (k == 0 ? r.ma : r.mb) = m;
    } else {
      const size_t dots = val.find("..");
      CodeRange c;
      if (dots == std::string::npos) c = {number(val), number(val)};
      else c = {number(val.substr(0, dots)), number(val.substr(dots + 2))};
      (k == 2 ? r.ja : k == 3 ? r.jb : r.j) = c;
    }
    pos = comma + 1;
  }
  for (int k = 0; k < 5; ++k)
    if (!seen[k]) fail(std::string("missing key '") + keys[k] + "'");
  return r;
}

}  // namespace mxcert

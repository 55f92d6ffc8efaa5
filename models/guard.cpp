// models/guard.cpp — code sets, regions and the canonical guard decomposition.
#include "models/guard.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace mxcert {

namespace {
constexpr int kEMin = -kMaxCode, kEMax = kMaxCode;

/// The xa-range of anti-diagonal e within the square.
CodeRange diagonal(int e) { return {std::max(0, e), std::min(kMaxCode, e + kMaxCode)}; }
}  // namespace

long Region::count() const {
  long n = 0;
  for (int a = xa.lo; a <= xa.hi; ++a) {
    // xb in xb ∩ [e.lo - a + 254, e.hi - a + 254]
    int lo = std::max(xb.lo, e.lo - a + kMaxCode), hi = std::min(xb.hi, e.hi - a + kMaxCode);
    if (hi >= lo) n += hi - lo + 1;
  }
  return n;
}

Region Region::tightened() const {
  Region r;
  r.xa = {kMaxCode + 1, -1};
  r.xb = {kMaxCode + 1, -1};
  r.e = {kEMax + 1, kEMin - 1};
  for (int a = xa.lo; a <= xa.hi; ++a) {
    int lo = std::max(xb.lo, e.lo - a + kMaxCode), hi = std::min(xb.hi, e.hi - a + kMaxCode);
    if (hi < lo) continue;
    r.xa.lo = std::min(r.xa.lo, a);
    r.xa.hi = std::max(r.xa.hi, a);
    r.xb.lo = std::min(r.xb.lo, lo);
    r.xb.hi = std::max(r.xb.hi, hi);
    r.e.lo = std::min(r.e.lo, a + lo - kMaxCode);
    r.e.hi = std::max(r.e.hi, a + hi - kMaxCode);
  }
  return r;
}

std::pair<Region, Region> Region::halves() const {
  Region a = *this, b = *this;
  if (e.hi > e.lo) {
    const int mid = e.lo + (e.hi - e.lo) / 2;
    a.e.hi = mid;
    b.e.lo = mid + 1;
  } else if (xa.hi > xa.lo) {
    const int mid = xa.lo + (xa.hi - xa.lo) / 2;
    a.xa.hi = mid;
    b.xa.lo = mid + 1;
  } else {
    const int mid = xb.lo + (xb.hi - xb.lo) / 2;
    a.xb.hi = mid;
    b.xb.lo = mid + 1;
  }
  return {a.tightened(), b.tightened()};
}

std::string Region::str() const {
  auto rng = [](const char *n, CodeRange r) {
    return std::string(n) + ":" + std::to_string(r.lo) + ".." + std::to_string(r.hi);
  };
  return rng("xa", xa) + "," + rng("xb", xb) + "," + rng("e", e);
}

CodeSet CodeSet::all() {
  CodeSet s;
  std::fill(s.bits_.begin(), s.bits_.end(), 1);
  return s;
}

long CodeSet::count() const { return long(std::count(bits_.begin(), bits_.end(), 1)); }

bool CodeSet::dependsOnEOnly() const {
  for (int e = kEMin; e <= kEMax; ++e) {
    CodeRange d = diagonal(e);
    bool first = get(d.lo, e + kMaxCode - d.lo);
    for (int a = d.lo + 1; a <= d.hi; ++a)
      if (get(a, e + kMaxCode - a) != first) return false;
  }
  return true;
}

CodeSet CodeSet::intersect(const CodeSet &o) const {
  CodeSet r;
  for (size_t i = 0; i < bits_.size(); ++i) r.bits_[i] = bits_[i] & o.bits_[i];
  return r;
}

CodeSet CodeSet::complement() const {
  CodeSet c;
  for (size_t i = 0; i < bits_.size(); ++i) c.bits_[i] = bits_[i] ? 0 : 1;
  return c;
}

bool Guard::contains(int xa, int xb) const {
  for (const Region &r : regions)
    if (r.contains(xa, xb)) return true;
  return false;
}

CodeSet Guard::toSet() const {
  CodeSet s;
  for (const Region &r : regions)
    for (int a = std::max(0, r.xa.lo); a <= std::min(kMaxCode, r.xa.hi); ++a)
      for (int b = std::max(0, r.xb.lo); b <= std::min(kMaxCode, r.xb.hi); ++b)
        if (r.e.contains(a + b - kMaxCode)) s.set(a, b);
  return s;
}

bool Guard::disjoint() const {
  CodeSet s;
  for (const Region &r : regions)
    for (int a = std::max(0, r.xa.lo); a <= std::min(kMaxCode, r.xa.hi); ++a)
      for (int b = std::max(0, r.xb.lo); b <= std::min(kMaxCode, r.xb.hi); ++b)
        if (r.e.contains(a + b - kMaxCode)) {
          if (s.get(a, b)) return false;
          s.set(a, b);
        }
  return true;
}

// The canonical decomposition.
//
// If the set is a union of whole anti-diagonals, the regions are its maximal e-intervals
// with full xa and xb ranges. Otherwise the set is scanned diagonal by diagonal (e from
// -254 up); on each diagonal its cells form maximal runs of consecutive xa. A region
// {xa in [a1,a2], xb in [b1,b2], e in [e1,e2]} meets diagonal e in the run
// [max(a1, e+254-b2), min(a2, e+254-b1)]: as e grows, the lower end stays flat and then rises
// by one per step, the upper end rises and then stays flat. A run extends the open region
// whose previous run it continues in that pattern; otherwise it opens a new region. Every
// region is then checked against the set (cells covered exactly), which makes the result
// correct by construction; a run that cannot be expressed this way becomes its own region.
Guard Guard::fromSet(const CodeSet &s) {
  Guard g;
  if (s.dependsOnEOnly()) {
    int start = kEMin - 1;
    for (int e = kEMin; e <= kEMax + 1; ++e) {
      bool in = e <= kEMax && s.get(diagonal(e).lo, e + kMaxCode - diagonal(e).lo);
      if (in && start < kEMin) start = e;
      if (!in && start >= kEMin) {
        Region r;
        r.e = {start, e - 1};
        g.regions.push_back(r);
        start = kEMin - 1;
      }
    }
    return g;
  }
  struct Open {
    int e1, e2;
    std::vector<CodeRange> runs;  // run per diagonal e1..e2
    bool lowRising = false, highFlat = false, closed = false;
  };
  std::vector<Open> open;
  std::vector<Open> done;
  for (int e = kEMin; e <= kEMax; ++e) {
    CodeRange d = diagonal(e);
    std::vector<CodeRange> runs;
    for (int a = d.lo; a <= d.hi; ++a) {
      if (!s.get(a, e + kMaxCode - a)) continue;
      if (!runs.empty() && runs.back().hi == a - 1)
        runs.back().hi = a;
      else
        runs.push_back({a, a});
    }
    std::vector<bool> extended(open.size(), false);
    for (const CodeRange &run : runs) {
      bool placed = false;
      for (size_t i = 0; i < open.size() && !placed; ++i) {
        Open &o = open[i];
        if (extended[i] || o.e2 != e - 1) continue;
        const CodeRange &prev = o.runs.back();
        int dl = run.lo - prev.lo, dh = run.hi - prev.hi;
        if (dl < 0 || dl > 1 || dh < 0 || dh > 1) continue;
        if (o.lowRising && dl == 0) continue;   // low end: flat, then rising
        if (o.highFlat && dh == 1) continue;    // high end: rising, then flat
        // Whether the low end may be rising from the start is decided by the region's box.
        o.lowRising = o.lowRising || dl == 1;
        o.highFlat = o.highFlat || dh == 0;
        o.runs.push_back(run);
        o.e2 = e;
        extended[i] = true;
        placed = true;
      }
      if (!placed) {
        open.push_back(Open{e, e, {run}});
        extended.push_back(true);
      }
    }
    for (size_t i = 0; i < open.size();) {
      if (!extended[i]) {
        done.push_back(open[i]);
        open.erase(open.begin() + long(i));
        extended.erase(extended.begin() + long(i));
      } else {
        ++i;
      }
    }
  }
  for (auto &o : open) done.push_back(o);
  // Each group of runs becomes the tightest box with its e-range; verify exactness, and fall
  // back to one region per run when the box covers more than the runs.
  for (const Open &o : done) {
    Region r;
    r.e = {o.e1, o.e2};
    r.xa = {kMaxCode, 0};
    r.xb = {kMaxCode, 0};
    for (int i = 0; i <= o.e2 - o.e1; ++i) {
      int e = o.e1 + i;
      const CodeRange &run = o.runs[size_t(i)];
      r.xa.lo = std::min(r.xa.lo, run.lo);
      r.xa.hi = std::max(r.xa.hi, run.hi);
      r.xb.lo = std::min(r.xb.lo, e + kMaxCode - run.hi);
      r.xb.hi = std::max(r.xb.hi, e + kMaxCode - run.lo);
    }
    long cells = 0;
    for (const CodeRange &run : o.runs) cells += run.hi - run.lo + 1;
    if (r.count() == cells) {
      g.regions.push_back(r);
      continue;
    }
    for (int i = 0; i <= o.e2 - o.e1; ++i) {
      int e = o.e1 + i;
      const CodeRange &run = o.runs[size_t(i)];
      Region q;
      q.e = {e, e};
      q.xa = run;
      q.xb = {e + kMaxCode - run.hi, e + kMaxCode - run.lo};
      g.regions.push_back(q);
    }
  }
  std::sort(g.regions.begin(), g.regions.end(), [](const Region &a, const Region &b) {
    if (a.e.lo != b.e.lo) return a.e.lo < b.e.lo;
    if (a.xa.lo != b.xa.lo) return a.xa.lo < b.xa.lo;
    return a.xb.lo < b.xb.lo;
  });
  return g;
}

namespace {
int parseBound(const std::string &t, const std::string &ctx) {
  if (t.empty()) throw GuardError("guard: empty bound in '" + ctx + "'");
  size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (i == t.size() || t.size() > 8) throw GuardError("guard: bad number '" + t + "' in '" + ctx + "'");
  for (size_t j = i; j < t.size(); ++j)
    if (!std::isdigit(static_cast<unsigned char>(t[j])))
      throw GuardError("guard: bad number '" + t + "' in '" + ctx + "'");
  return std::atoi(t.c_str());
}
}  // namespace

Guard Guard::parse(const std::string &text) {
  Guard g;
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += c;
  if (t == "none") return g;
  if (t.empty()) throw GuardError("guard: empty (use 'none' for the empty guard)");
  size_t start = 0;
  while (start <= t.size()) {
    size_t bar = t.find('|', start);
    std::string reg = t.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
    if (reg.empty()) throw GuardError("guard: empty region in '" + text + "'");
    Region r;
    bool seen[3] = {false, false, false};
    size_t cs = 0;
    while (cs <= reg.size()) {
      size_t comma = reg.find(',', cs);
      std::string con = reg.substr(cs, comma == std::string::npos ? std::string::npos : comma - cs);
      size_t colon = con.find(':');
      if (colon == std::string::npos)
        throw GuardError("guard: expected NAME:LO..HI, got '" + con + "'");
      std::string name = con.substr(0, colon), rng = con.substr(colon + 1);
      int which = name == "xa" ? 0 : name == "xb" ? 1 : name == "e" ? 2 : -1;
      if (which < 0) throw GuardError("guard: unknown variable '" + name + "' (expected xa, xb or e)");
      if (seen[which]) throw GuardError("guard: '" + name + "' constrained twice in one region");
      seen[which] = true;
      size_t dots = rng.find("..");
      CodeRange cr;
      if (dots == std::string::npos) {
        cr.lo = cr.hi = parseBound(rng, con);
      } else {
        cr.lo = parseBound(rng.substr(0, dots), con);
        cr.hi = parseBound(rng.substr(dots + 2), con);
      }
      int lo = which == 2 ? kEMin : 0, hi = which == 2 ? kEMax : kMaxCode;
      if (cr.lo > cr.hi) throw GuardError("guard: empty range in '" + con + "'");
      if (cr.lo < lo || cr.hi > hi)
        throw GuardError("guard: '" + con + "' outside " + name + " range " + std::to_string(lo) +
                         ".." + std::to_string(hi));
      (which == 0 ? r.xa : which == 1 ? r.xb : r.e) = cr;
      if (comma == std::string::npos) break;
      cs = comma + 1;
    }
    g.regions.push_back(r);
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return g;
}

std::string Guard::str() const {
  if (regions.empty()) return "none";
  std::string s;
  for (size_t i = 0; i < regions.size(); ++i) s += (i ? "|" : "") + regions[i].str();
  return s;
}

}  // namespace mxcert

// smt/abstract_check.cpp — the independent check of the abstract analysis (see abstract_check.h).
#include "smt/abstract_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace mxcert::smt {

namespace {

constexpr unsigned kZeroTz = 4096;  // the granularity the store gives the constant 0

unsigned tzOfValue(const Integer &v) { return v.isZero() ? kZeroTz : v.trailingZeros(); }

/// floor(v / 2^j).
Integer floorShift(const Integer &v, unsigned j) { return v >> j; }

/// [lo, hi] * c.
Interval times(const Interval &r, const Integer &c) {
  Integer a = r.lo * c, b = r.hi * c;
  return a <= b ? Interval{a, b} : Interval{b, a};
}

bool covers(const Interval &claimed, const Interval &sound) { return claimed.lo <= sound.lo && sound.hi <= claimed.hi; }

std::string show(const Interval &r) { return "[" + r.lo.str() + ", " + r.hi.str() + "]"; }

/// An upper bound on the significant bits of every multiple of 2^tz in r: such a value is
/// u * 2^tz with |u| <= m = floor(max(|lo|, |hi|) / 2^tz), and u has at most as many bits
/// as m, or j when m = 2^j with j >= 1 (every |u| < 2^j has at most j bits, 2^j has one).
unsigned bitsOfMultiples(const Interval &r, unsigned tz) {
  if (r.hi < r.lo || tz >= kZeroTz) return 0;
  Integer m = r.lo.abs();
  if (m < r.hi.abs()) m = r.hi.abs();
  m = floorShift(m, tz);
  if (m.isZero()) return 0;
  const unsigned top = m.msb();
  if (top >= 1 && m == Integer::pow2(top)) return top;
  return top + 1;
}

/// Conditions carry down this many levels of if-then-else (the same limit as the store's
/// analysis, smt/term.cpp: a shallower one would reject its decisions).
constexpr int kContextLevels = 6;

class Checker {
public:
  Checker(const TermStore &s, size_t limit) : s_(s), limit_(limit) {}

  std::vector<std::string> run() {
    for (const Decision &d : s_.decisions())
      if (d.kind == Decision::Kind::Refine) refined_[d.x] = d.iv;
    for (const Decision &d : s_.decisions()) {
      if (d.kind == Decision::Kind::Division || d.kind == Decision::Kind::CondDivision) {
        divOf_[d.q] = &d;
        if (s_.node(TermRef{d.r}).op == Op::IntVar) divOf_[d.r] = &d;
      } else if (d.kind == Decision::Kind::Abstraction || d.kind == Decision::Kind::LocalCopy) {
        freshOf_[d.q] = &d;
      }
    }
    for (uint32_t id = 0; id < s_.size() && out_.size() < limit_; ++id) node(id);
    for (const Decision &d : s_.decisions()) {
      if (out_.size() >= limit_) break;
      decision(d);
    }
    return out_;
  }

private:
  const Node &N(uint32_t id) const { return s_.node(TermRef{id}); }
  void fail(const std::string &m) {
    if (out_.size() < limit_) out_.push_back(m);
  }

  void node(uint32_t id) {
    const Node &n = N(id);
    const std::string at = "node t" + std::to_string(id);
    Interval sound;
    unsigned tz = 0;
    std::optional<std::vector<Integer>> vals;
    switch (n.op) {
    case Op::IntConst:
      sound = {n.c, n.c};
      tz = tzOfValue(n.c);
      vals = std::vector<Integer>{n.c};
      break;
    case Op::IntVar: {
      sound = n.declared;
      auto r = refined_.find(id);
      if (r != refined_.end()) sound = {max(sound.lo, r->second.lo), min(sound.hi, r->second.hi)};
      tz = 0;
      auto dv = divOf_.find(id);
      if (dv != divOf_.end()) {
        const Decision &d = *dv->second;
        const Node &x = N(d.x);
        if (id == d.r) tz = std::min(x.tz, d.j);
        else if (d.kind == Decision::Kind::Division && x.tz > d.j && x.tz < kZeroTz) tz = x.tz - d.j;
      }
      if (sound.hi - sound.lo < Integer(int64_t(s_.maxValues()))) {
        std::vector<Integer> v;
        for (Integer x = sound.lo; x <= sound.hi; x += 1) v.push_back(x);
        vals = std::move(v);
      }
      break;
    }
    case Op::Ite: {
      const Node &a = N(n.args[1]), &b = N(n.args[2]);
      sound = {min(a.range.lo, b.range.lo), max(a.range.hi, b.range.hi)};
      tz = std::min(a.tz, b.tz);
      if (a.values && b.values) {
        std::vector<Integer> v = *a.values;
        v.insert(v.end(), b.values->begin(), b.values->end());
        vals = std::move(v);
      }
      break;
    }
    case Op::Lin: {
      sound = {n.c, n.c};
      tz = tzOfValue(n.c);
      for (size_t i = 0; i < n.args.size(); ++i) {
        const Node &a = N(n.args[i]);
        Interval t = times(a.range, n.coefs[i]);
        sound.lo = sound.lo + t.lo;
        sound.hi = sound.hi + t.hi;
        tz = std::min(tz, std::min(kZeroTz, tzOfValue(n.coefs[i]) + a.tz));
      }
      if (n.args.size() == 1 && N(n.args[0]).values) {
        std::vector<Integer> v;
        for (const Integer &x : *N(n.args[0]).values) v.push_back(x * n.coefs[0] + n.c);
        vals = std::move(v);
      } else if (n.args.size() == 2 && N(n.args[0]).values && N(n.args[1]).values &&
                 N(n.args[0]).values->size() * N(n.args[1]).values->size() <= 4096) {
        std::vector<Integer> v;
        for (const Integer &x : *N(n.args[0]).values)
          for (const Integer &y : *N(n.args[1]).values) v.push_back(x * n.coefs[0] + y * n.coefs[1] + n.c);
        vals = std::move(v);
      }
      // Bounds through refined linear terms R (asserted): n = c R + rest.
      for (const auto &[rid, iv] : refined_) {
        (void)iv;
        const Node &R = N(rid);
        if (R.op != Op::Lin || rid == id) continue;
        auto pos = std::find(n.args.begin(), n.args.end(), R.args[0]);
        if (pos == n.args.end()) continue;
        const Integer &cn = n.coefs[size_t(pos - n.args.begin())];
        Integer c = Integer(cn.toBig() / R.coefs[0].toBig());
        if (!(c * R.coefs[0] == cn)) continue;
        std::vector<bool> used(n.args.size(), false);
        bool ok = true;
        for (size_t i = 0; i < R.args.size() && ok; ++i) {
          auto it = std::find(n.args.begin(), n.args.end(), R.args[i]);
          if (it == n.args.end() || !(n.coefs[size_t(it - n.args.begin())] == c * R.coefs[i])) ok = false;
          else used[size_t(it - n.args.begin())] = true;
        }
        if (!ok) continue;
        Interval tot = times(R.range, c);
        tot.lo = tot.lo + n.c - c * R.c;
        tot.hi = tot.hi + n.c - c * R.c;
        for (size_t i = 0; i < n.args.size(); ++i) {
          if (used[i]) continue;
          Interval t = times(N(n.args[i]).range, n.coefs[i]);
          tot.lo = tot.lo + t.lo;
          tot.hi = tot.hi + t.hi;
        }
        sound = {max(sound.lo, tot.lo), min(sound.hi, tot.hi)};
      }
      auto r = refined_.find(id);
      if (r != refined_.end()) sound = {max(sound.lo, r->second.lo), min(sound.hi, r->second.hi)};
      break;
    }
    default:
      return;  // Boolean nodes carry no claim (only constants are known)
    }
    if (vals) {
      std::sort(vals->begin(), vals->end());
      vals->erase(std::unique(vals->begin(), vals->end()), vals->end());
      // Only values inside the sound interval are possible.
      vals->erase(std::remove_if(vals->begin(), vals->end(), [&](const Integer &v) { return !sound.contains(v); }),
                  vals->end());
      if (!vals->empty()) sound = {max(sound.lo, vals->front()), min(sound.hi, vals->back())};
    }
    if (sound.lo > sound.hi) return;  // no value at all: every claim holds vacuously
    if (!covers(n.range, sound))
      fail(at + ": interval " + show(n.range) + " does not contain " + show(sound));
    if (n.tz > tz && !(sound.lo.isZero() && sound.hi.isZero()))
      fail(at + ": granularity " + std::to_string(n.tz) + " exceeds " + std::to_string(tz));
    if (n.values) {
      if (!vals) {
        fail(at + ": a value set that no step justifies");
      } else {
        for (const Integer &v : *vals)
          if (!std::binary_search(n.values->begin(), n.values->end(), v)) {
            fail(at + ": value set misses " + v.str());
            break;
          }
      }
    }
  }

  void decision(const Decision &d) {
    const Node &x = N(d.x);
    const std::string at = "decision on t" + std::to_string(d.x);
    switch (d.kind) {
    case Decision::Kind::Compare: {
      bool ok;
      if (d.op == Op::Le0)
        ok = d.value ? x.range.hi.sign() <= 0 : x.range.lo.sign() > 0;
      else
        ok = d.value ? (x.range.lo.isZero() && x.range.hi.isZero())
                     : (x.range.lo.sign() > 0 || x.range.hi.sign() < 0 ||
                        (x.values && !std::binary_search(x.values->begin(), x.values->end(), Integer(0))));
      if (!ok)
        fail(at + ": " + (d.op == Op::Le0 ? "t <= 0" : "t == 0") + " folded to " + (d.value ? "true" : "false") +
             " but t lies in " + show(x.range));
      return;
    }
    case Decision::Kind::QuotientKnown:
      if (!(floorShift(x.range.lo, d.j) == d.k && floorShift(x.range.hi, d.j) == d.k))
        fail(at + ": quotient by 2^" + std::to_string(d.j) + " taken as " + d.k.str() + " for " + show(x.range));
      return;
    case Decision::Kind::Division: {
      const Node &q = N(d.q);
      if (!covers(q.declared, {floorShift(x.range.lo, d.j), floorShift(x.range.hi, d.j)}))
        fail(at + ": quotient declared " + show(q.declared) + " for a dividend in " + show(x.range));
      const Node &r = N(d.r);
      if (r.op == Op::IntVar) {
        Integer hi = Integer::pow2(d.j) - 1;
        if (x.range.lo.sign() >= 0 && x.range.hi < hi) hi = x.range.hi;
        if (!covers(r.declared, {Integer(0), hi})) fail(at + ": remainder declared " + show(r.declared));
      } else if (!(r.op == Op::IntConst && r.c.isZero() && x.tz >= d.j)) {
        fail(at + ": remainder taken as 0 without granularity " + std::to_string(d.j));
      }
      return;
    }
    case Decision::Kind::CondDivision:
      if (N(d.q).tz != 0) fail(at + ": a conditional quotient with a granularity");
      return;
    case Decision::Kind::Values: {
      std::set<Integer> allowed(d.vals.begin(), d.vals.end());
      if (x.values) {
        for (const Integer &v : *x.values)
          if (!allowed.count(v)) {
            fail(at + ": a case split misses the value " + v.str());
            return;
          }
      } else if (x.range.hi - x.range.lo >= Integer(int64_t(d.vals.size()))) {
        fail(at + ": a case split over " + std::to_string(d.vals.size()) + " values for " + show(x.range));
      } else {
        for (Integer v = x.range.lo; v <= x.range.hi; v += 1)
          if (!allowed.count(v)) {
            fail(at + ": a case split misses the value " + v.str());
            return;
          }
      }
      return;
    }
    case Decision::Kind::Refine:
      return;  // an assertion of the query
    case Decision::Kind::Abstraction: {
      const Node &k = N(d.q);
      if (x.range.lo == x.range.hi) return;
      const Integer klo = -floorShift(-x.range.lo, d.j), khi = floorShift(x.range.hi, d.j);
      if (!covers(k.declared, {klo, khi}) || x.tz < d.j)
        fail(at + ": its abstraction 2^" + std::to_string(d.j) + " * " + show(k.declared) + " misses values of " +
             show(x.range));
      if (!d.vals.empty()) {
        // The assertion r restricts k to x's value set: it must admit every value of x on
        // the grid (the node's own checks above verify that set, its interval and its
        // granularity), and it may mention k alone.
        if (!x.values) {
          fail(at + ": its abstraction is restricted to a value set the node does not have");
          return;
        }
        const Integer unit = Integer::pow2(d.j);
        for (const Integer &v : *x.values) {
          if (!x.range.contains(v)) continue;
          const Integer c = floorShift(v, d.j);
          if (c * unit != v) continue;
          bool ok = false;
          try {
            ok = s_.evalBool(TermRef{d.r}, {{k.name, c}});
          } catch (const std::exception &) {
            ok = false;
          }
          if (!ok) {
            fail(at + ": its abstraction's value set leaves out " + v.str());
            return;
          }
        }
      }
      return;
    }
    case Decision::Kind::Precision: {
      const unsigned b = bits(d.x, {}, nullptr, 0);
      if (b > d.j)
        fail(at + ": taken to have at most " + std::to_string(d.j) + " significant bits, but only " +
             std::to_string(b) + " follow");
      return;
    }
    case Decision::Kind::LocalCopy: {
      const Node &c = N(d.q);
      if (!covers(c.declared, x.declared) || c.tz != 0)
        fail(at + ": its local copy is declared " + show(c.declared) + " for " + show(x.declared));
      return;
    }
    }
  }

  /// Node id as a linear form: coefficients by atom, and the constant.
  std::pair<std::map<uint32_t, Integer>, Integer> form(uint32_t id) const {
    const Node &n = N(id);
    std::map<uint32_t, Integer> f;
    if (n.op == Op::IntConst) return {f, n.c};
    if (n.op != Op::Lin) {
      f[id] = Integer(1);
      return {f, Integer(0)};
    }
    for (size_t i = 0; i < n.args.size(); ++i) f[n.args[i]] = f[n.args[i]] + n.coefs[i];
    return {f, n.c};
  }

  /// The significant bits that every value of node id can have where the atoms of `where`
  /// hold (an atom x <= 0 or x == 0, or its negation) and the value lies in `in` (null:
  /// anywhere): its claimed interval, cut by `in` and by the atoms whose linear form is +-id
  /// plus a constant, at its claimed granularity; for an if-then-else the larger of its
  /// branches' (each where the node's value is the branch's: in the same interval, the
  /// then-branch where the condition's conjuncts hold, the else-branch where the negations
  /// of its disjuncts hold); for c * y the bits of y (where c * y lies in the interval, for
  /// c = +-1) plus those of c's odd part (odd parts multiply). The claims it reads are the
  /// ones node() verified.
  unsigned bits(uint32_t id, const std::vector<std::pair<uint32_t, bool>> &where, const Interval *in, int level) {
    const bool plain = where.empty() && in == nullptr;
    if (plain) {
      auto m = bits_.find(id);
      if (m != bits_.end()) return m->second;
    }
    const Node &n = N(id);
    Interval r = n.range;
    if (in) {
      if (r.lo < in->lo) r.lo = in->lo;
      if (in->hi < r.hi) r.hi = in->hi;
    }
    if (!where.empty()) {
      const auto self = form(id);
      std::map<uint32_t, Integer> opposite;
      for (const auto &[a, c] : self.first) opposite[a] = -c;
      for (const auto &[atom, negated] : where) {
        const auto other = form(N(atom).args[0]);
        int sign = 0;
        if (other.first == self.first) sign = 1;
        else if (other.first == opposite) sign = -1;
        if (sign == 0) continue;
        // other = sign * id + k with k = other.c - sign * self.c.
        const Integer k = sign > 0 ? other.second - self.second : other.second + self.second;
        Integer lo = r.lo, hi = r.hi;
        if (N(atom).op == Op::Eq0) {
          if (negated) continue;
          lo = hi = sign > 0 ? -k : k;  // sign * id + k == 0
        } else if (!negated) {
          if (sign > 0) hi = -k;  // id <= -k
          else lo = k;            // id >= k
        } else {
          if (sign > 0) lo = Integer(1) - k;  // id + k >= 1
          else hi = k - Integer(1);           // -id + k >= 1
        }
        if (r.lo < lo) r.lo = lo;
        if (hi < r.hi) r.hi = hi;
      }
    }
    unsigned b = r.hi < r.lo ? 0 : bitsOfMultiples(r, n.tz);
    if (s_.wideValueSets() && n.values && b > 0) {
      // The node's value set (checked by node()) holds every value it takes.
      unsigned vb = 0;
      for (const Integer &v : *n.values)
        if (r.lo <= v && v <= r.hi) vb = std::max(vb, bitsOfMultiples(Interval{v, v}, tzOfValue(v)));
      b = std::min(b, vb);
    }
    const bool carry = level < kContextLevels;
    if (n.op == Op::Ite) {
      std::vector<std::pair<uint32_t, bool>> thenWhere, elseWhere;
      if (carry) {
        thenWhere = where;
        elseWhere = where;
        atomsOf(n.args[0], false, thenWhere);
        atomsOf(n.args[0], true, elseWhere);
      }
      auto branch = [&](uint32_t child, const std::vector<std::pair<uint32_t, bool>> &w) {
        if (carry && !(w.empty() && in == nullptr)) return bits(child, w, &r, level + 1);
        return bits(child, {}, nullptr, 0);
      };
      b = std::min(b, std::max(branch(n.args[1], thenWhere), branch(n.args[2], elseWhere)));
    } else if (n.op == Op::Lin && n.args.size() == 1 && n.c.isZero()) {
      const Integer c = n.coefs[0].abs();
      const unsigned oddBits = floorShift(c, c.trailingZeros()).msb() + 1;
      unsigned y;
      if (carry && !plain && c == Integer(1)) {
        const Interval ry = n.coefs[0].sign() > 0 ? r : Interval{-r.hi, -r.lo};
        y = bits(n.args[0], where, &ry, level + 1);
      } else {
        y = bits(n.args[0], {}, nullptr, 0);
      }
      b = std::min(b, y + oddBits);
    }
    if (plain) bits_[id] = b;
    return b;
  }

  /// Appends the atoms that Boolean node c conjoins (negated: that `not c` conjoins), each
  /// with whether it is negated.
  void atomsOf(uint32_t c, bool negated, std::vector<std::pair<uint32_t, bool>> &out) const {
    const Node &n = N(c);
    if (n.op == Op::Not) return atomsOf(n.args[0], !negated, out);
    if ((n.op == Op::And && !negated) || (n.op == Op::Or && negated)) {
      for (uint32_t a : n.args) atomsOf(a, negated, out);
      return;
    }
    if (n.op == Op::Le0 || n.op == Op::Eq0) out.push_back({c, negated});
  }

  const TermStore &s_;
  size_t limit_;
  std::unordered_map<uint32_t, unsigned> bits_;  ///< bits() without conditions
  std::vector<std::string> out_;
  std::unordered_map<uint32_t, Interval> refined_;
  std::unordered_map<uint32_t, const Decision *> divOf_, freshOf_;
};

}  // namespace

std::vector<std::string> checkAbstraction(const TermStore &store, size_t limit) {
  return Checker(store, limit).run();
}

}  // namespace mxcert::smt

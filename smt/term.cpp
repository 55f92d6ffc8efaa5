// smt/term.cpp — the hash-consed QF_LIA DAG and its abstract analysis (see term.h).
#include "smt/term.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace mxcert::smt {

namespace {
constexpr unsigned kTzZero = 4096;  // trailing zeros reported for the constant 0

unsigned tzOf(const Integer &v) { return v.isZero() ? kTzZero : v.trailingZeros(); }

Integer floorDiv2(const Integer &v, unsigned j) { return v >> j; }

/// Interval product with a constant.
Interval scaleIv(const Interval &r, const Integer &c) {
  Integer a = r.lo * c, b = r.hi * c;
  return a <= b ? Interval{a, b} : Interval{b, a};
}

/// The most significant bits of a value in r that is a multiple of 2^tz: it is u * 2^tz
/// with |u| <= m = max|r| >> tz, so at most bitlength(m) bits, or msb(m) when m = 2^j,
/// j >= 1 (below 2^j a value has at most j bits, and 2^j itself one).
unsigned bitsWithin(const Interval &r, unsigned tz) {
  if (r.lo > r.hi || tz >= kTzZero) return 0;
  const Integer m = max(r.lo.abs(), r.hi.abs()) >> tz;
  if (m.isZero()) return 0;
  const unsigned b = m.msb();
  return m == Integer::pow2(b) && b >= 1 ? b : b + 1;
}

/// How many levels of if-then-else carry their conditions down (see TermStore::sigBits).
constexpr int kSigBitsContextDepth = 6;

void normalizeValues(std::vector<Integer> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}
}  // namespace

const char *toString(FactKind k) {
  switch (k) {
  case FactKind::Coverage: return "coverage";
  case FactKind::Precision: return "precision";
  case FactKind::Quotient: return "quotient";
  case FactKind::Decided: return "decided";
  }
  return "?";
}

const char *toString(FaultInjection::Kind k) {
  switch (k) {
  case FaultInjection::Kind::None: return "none";
  case FaultInjection::Kind::IntervalTooTight: return "interval one too tight";
  case FaultInjection::Kind::GranularityTooCoarse: return "granularity one bit too coarse";
  case FaultInjection::Kind::DecidedWrong: return "comparison decided the wrong way";
  case FaultInjection::Kind::RuleWithoutSideCondition: return "rewrite rule without its side condition";
  case FaultInjection::Kind::PrecisionTooSmall: return "precision bound too small";
  case FaultInjection::Kind::PrecisionShownWrong: return "precision bound taken as shown";
  case FaultInjection::Kind::AbstractionValueDropped: return "abstraction's value set without its largest value";
  }
  return "?";
}

TermStore::TermStore() {
  false_ = boolConst(false);
  true_ = boolConst(true);
  goal_ = false_;
}

bool TermStore::faultHere(FaultInjection::Kind k) {
  if (fault_.kind != k) return false;
  return faultCount_++ == fault_.site;
}

std::string TermStore::key(const Node &n) {
  std::ostringstream k;
  k << int(n.op) << '|';
  for (uint32_t a : n.args) k << a << ',';
  k << '|';
  for (const Integer &c : n.coefs) k << c.str() << ',';
  k << '|' << n.c.str() << '|' << n.b << '|' << n.name;
  return k.str();
}

TermRef TermStore::make(Node n) {
  step();
  std::string k = key(n);
  auto it = cons_.find(k);
  if (it != cons_.end()) return TermRef{it->second};
  switch (n.op) {
  case Op::IntConst:
  case Op::Lin:
  case Op::Ite:
    analyzeInt(n);
    if (n.op != Op::IntConst && n.range.lo < n.range.hi) {
      if (faultHere(FaultInjection::Kind::IntervalTooTight)) n.range.hi = n.range.hi - 1;
      else if (fault_.kind == FaultInjection::Kind::GranularityTooCoarse &&
               faultHere(FaultInjection::Kind::GranularityTooCoarse))
        n.tz = n.tz + 1;
    }
    break;
  case Op::IntVar:
    break;  // range set by the creator
  default:
    break;  // Bool: `known` set by the creator
  }
  uint32_t id = uint32_t(nodes_.size());
  if (budget_) {
    if (budget_->maxTerms() && nodes_.size() >= budget_->maxTerms())
      throw BudgetExceeded("the query would have more than " + std::to_string(budget_->maxTerms()) +
                           " terms (--max-terms)");
  }
  nodes_.push_back(std::move(n));
  cons_.emplace(std::move(k), id);
  return TermRef{id};
}

void TermStore::analyzeInt(Node &n) const {
  switch (n.op) {
  case Op::IntConst:
    n.range = {n.c, n.c};
    n.tz = tzOf(n.c);
    n.values = std::vector<Integer>{n.c};
    return;
  case Op::Ite: {
    const Node &a = nodes_[n.args[1]], &b = nodes_[n.args[2]];
    n.range = {min(a.range.lo, b.range.lo), max(a.range.hi, b.range.hi)};
    n.tz = std::min(a.tz, b.tz);
    if (a.values && b.values && a.values->size() + b.values->size() <= 2 * maxValues()) {
      std::vector<Integer> v = *a.values;
      v.insert(v.end(), b.values->begin(), b.values->end());
      normalizeValues(v);
      if (v.size() <= maxValues()) n.values = std::move(v);
    }
    return;
  }
  case Op::Lin: {
    Interval r{n.c, n.c};
    unsigned tz = tzOf(n.c);
    for (size_t i = 0; i < n.args.size(); ++i) {
      const Node &a = nodes_[n.args[i]];
      Interval s = scaleIv(a.range, n.coefs[i]);
      r.lo = r.lo + s.lo;
      r.hi = r.hi + s.hi;
      tz = std::min(tz, std::min(kTzZero, tzOf(n.coefs[i]) + a.tz));
    }
    n.range = r;
    n.tz = tz;
    // Value sets: single atom, or the sum set of two small atoms.
    if (n.args.size() == 1 && nodes_[n.args[0]].values) {
      std::vector<Integer> v;
      for (const Integer &x : *nodes_[n.args[0]].values) v.push_back(x * n.coefs[0] + n.c);
      normalizeValues(v);
      n.values = std::move(v);
    } else if (n.args.size() == 2 && nodes_[n.args[0]].values && nodes_[n.args[1]].values &&
               nodes_[n.args[0]].values->size() * nodes_[n.args[1]].values->size() <= 4 * maxValues()) {
      std::vector<Integer> v;
      for (const Integer &x : *nodes_[n.args[0]].values)
        for (const Integer &y : *nodes_[n.args[1]].values)
          v.push_back(x * n.coefs[0] + y * n.coefs[1] + n.c);
      normalizeValues(v);
      if (v.size() <= maxValues()) n.values = std::move(v);
    }
    if (n.values) {
      // The value set is exact information: tighten the interval with it.
      n.range.lo = max(n.range.lo, n.values->front());
      n.range.hi = min(n.range.hi, n.values->back());
    }
    // Relational facts: if n = c * R + rest for a refined linear term R, bound it by
    // c * range(R) + range(rest).
    for (uint32_t rid : refined_) {
      const Node &R = nodes_[rid];
      auto pos = std::find(n.args.begin(), n.args.end(), R.args[0]);
      if (pos == n.args.end()) continue;
      const Integer &cn = n.coefs[size_t(pos - n.args.begin())];
      const Integer &cr = R.coefs[0];
      Integer c = Integer(cn.toBig() / cr.toBig());
      if (!(c * cr == cn)) continue;
      bool ok = true;
      std::vector<bool> used(n.args.size(), false);
      for (size_t i = 0; i < R.args.size() && ok; ++i) {
        auto it = std::find(n.args.begin(), n.args.end(), R.args[i]);
        if (it == n.args.end() || !(n.coefs[size_t(it - n.args.begin())] == c * R.coefs[i])) ok = false;
        else used[size_t(it - n.args.begin())] = true;
      }
      if (!ok) continue;
      Interval rr = scaleIv(R.range, c);
      Interval tot{rr.lo + n.c - c * R.c, rr.hi + n.c - c * R.c};
      for (size_t i = 0; i < n.args.size(); ++i) {
        if (used[i]) continue;
        Interval s = scaleIv(nodes_[n.args[i]].range, n.coefs[i]);
        tot.lo = tot.lo + s.lo;
        tot.hi = tot.hi + s.hi;
      }
      n.range.lo = max(n.range.lo, tot.lo);
      n.range.hi = min(n.range.hi, tot.hi);
    }
    return;
  }
  default:
    return;
  }
}

TermRef TermStore::intConst(const Integer &v) {
  Node n;
  n.op = Op::IntConst;
  n.c = v;
  return make(std::move(n));
}

TermRef TermStore::boolConst(bool b) {
  Node n;
  n.op = Op::BoolConst;
  n.b = b;
  n.known = b;
  return make(std::move(n));
}

TermRef TermStore::intVar(const std::string &name, const Integer &lo, const Integer &hi) {
  if (varNames_.count(name)) throw std::logic_error("duplicate variable " + name);
  Node n;
  n.op = Op::IntVar;
  n.name = name;
  n.range = {lo, hi};
  n.declared = {lo, hi};
  n.tz = 0;
  if (hi - lo < Integer(int64_t(maxValues()))) {
    std::vector<Integer> v;
    for (Integer x = lo; x <= hi; x += 1) v.push_back(x);
    n.values = std::move(v);
  }
  TermRef t = make(std::move(n));
  vars_.push_back(t);
  varNames_[name] = t.id;
  inputs_.insert(t.id);  // freshVar takes its own back out
  // Bounds are facts of the query: assert them without folding them away.
  Node lo0;
  lo0.op = Op::Le0;
  lo0.args = {linear({{t.id, Integer(-1)}}, lo).id};
  lo0.name = "bound";
  varBounds_[t.id].push_back(assertions_.size());
  assertions_.push_back(make(std::move(lo0)));
  Node hi0;
  hi0.op = Op::Le0;
  hi0.args = {linear({{t.id, Integer(1)}}, -hi).id};
  hi0.name = "bound";
  varBounds_[t.id].push_back(assertions_.size());
  assertions_.push_back(make(std::move(hi0)));
  return t;
}

void TermStore::linearView(TermRef t, std::vector<std::pair<uint32_t, Integer>> &out, Integer &k,
                           const Integer &scale) const {
  const Node &n = nodes_[t.id];
  if (n.op == Op::IntConst) {
    k = k + n.c * scale;
  } else if (n.op == Op::Lin) {
    for (size_t i = 0; i < n.args.size(); ++i) out.push_back({n.args[i], n.coefs[i] * scale});
    k = k + n.c * scale;
  } else {
    out.push_back({t.id, scale});
  }
}

TermRef TermStore::linear(std::vector<std::pair<uint32_t, Integer>> terms, const Integer &k) {
  std::sort(terms.begin(), terms.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  std::vector<std::pair<uint32_t, Integer>> merged;
  for (auto &t : terms) {
    if (!merged.empty() && merged.back().first == t.first)
      merged.back().second = merged.back().second + t.second;
    else
      merged.push_back(t);
  }
  merged.erase(std::remove_if(merged.begin(), merged.end(), [](const auto &t) { return t.second.isZero(); }),
               merged.end());
  if (merged.empty()) return intConst(k);
  if (merged.size() == 1 && merged[0].second == Integer(1) && k.isZero()) return TermRef{merged[0].first};
  Node n;
  n.op = Op::Lin;
  for (auto &t : merged) {
    n.args.push_back(t.first);
    n.coefs.push_back(t.second);
  }
  n.c = k;
  return make(std::move(n));
}

TermRef TermStore::add(TermRef a, TermRef b) {
  std::vector<std::pair<uint32_t, Integer>> t;
  Integer k;
  linearView(a, t, k, Integer(1));
  linearView(b, t, k, Integer(1));
  return linear(std::move(t), k);
}

TermRef TermStore::sub(TermRef a, TermRef b) {
  std::vector<std::pair<uint32_t, Integer>> t;
  Integer k;
  linearView(a, t, k, Integer(1));
  linearView(b, t, k, Integer(-1));
  return linear(std::move(t), k);
}

TermRef TermStore::mulc(TermRef a, const Integer &c) {
  std::vector<std::pair<uint32_t, Integer>> t;
  Integer k;
  linearView(a, t, k, c);
  return linear(std::move(t), k);
}

std::optional<TermStore::Factored> TermStore::commonFactor(std::initializer_list<TermRef> ts, bool withConstant) const {
  int64_t g = 0;
  std::vector<std::pair<std::vector<std::pair<uint32_t, Integer>>, Integer>> views;
  for (TermRef t : ts) {
    std::vector<std::pair<uint32_t, Integer>> v;
    Integer k;
    linearView(t, v, k, Integer(1));
    for (const auto &[atom, c] : v) {
      if (!c.fitsInt64() || c.toInt64() == INT64_MIN) return std::nullopt;
      g = std::gcd(g, c.toInt64() < 0 ? -c.toInt64() : c.toInt64());
    }
    if (withConstant) {
      if (!k.fitsInt64() || k.toInt64() == INT64_MIN) return std::nullopt;
      g = std::gcd(g, k.toInt64() < 0 ? -k.toInt64() : k.toInt64());
    }
    views.emplace_back(std::move(v), k);
  }
  if (g <= 1) return std::nullopt;
  Factored f{g, {}, {}};
  for (auto &[v, k] : views) {
    for (auto &t : v) t.second = Integer(t.second.toInt64() / g);
    f.parts.push_back(std::move(v));
    f.constants.push_back(k);
  }
  return f;
}

TermRef TermStore::ite(TermRef c, TermRef a, TermRef b) {
  const Node &cn = nodes_[c.id];
  if (cn.known) return *cn.known ? a : b;
  if (a == b) return a;
  if (cn.op == Op::Not) return ite(TermRef{cn.args[0]}, b, a);
  // ite(c, ite(c, x, y), z) = ite(c, x, z) and ite(c, x, ite(c, y, z)) = ite(c, x, z).
  if (nodes_[a.id].op == Op::Ite && nodes_[a.id].args[0] == c.id) return ite(c, TermRef{nodes_[a.id].args[1]}, b);
  if (nodes_[b.id].op == Op::Ite && nodes_[b.id].args[0] == c.id) return ite(c, a, TermRef{nodes_[b.id].args[2]});
  // ite(x == k, k, x) = x and ite(x == k, x, k) = k.
  if (cn.op == Op::Eq0) {
    const uint32_t lin = cn.args[0];  // sub() may grow nodes_: do not keep references
    if (nodes_[a.id].op == Op::IntConst && sub(b, a).id == lin) return b;
    if (nodes_[b.id].op == Op::IntConst && sub(a, b).id == lin) return b;
    if (nodes_[a.id].op == Op::IntConst && faultHere(FaultInjection::Kind::RuleWithoutSideCondition)) return b;
  }
  // Factoring constants (setFactorConstants): ite(c, g x, g y) = g ite(c, x, y).
  if (factorConstants_) {
    if (auto f = commonFactor({a, b}, true)) {
      const TermRef x = linear(std::move(f->parts[0]), Integer(f->constants[0].toInt64() / f->g));
      const TermRef y = linear(std::move(f->parts[1]), Integer(f->constants[1].toInt64() / f->g));
      return mulc(ite(c, x, y), Integer(f->g));
    }
  }
  Node n;
  n.op = Op::Ite;
  n.args = {c.id, a.id, b.id};
  return make(std::move(n));
}

TermRef TermStore::cmp0(Op op, TermRef lin) {
  // Factoring constants (setFactorConstants): g L + k <= 0 iff L + ceil(k / g) <= 0, and
  // g L + k = 0 iff L + k / g = 0 where g divides k (otherwise left as it is).
  if (factorConstants_ && nodes_[lin.id].op == Op::Lin) {
    if (auto f = commonFactor({lin}, false)) {
      const int64_t k = f->constants[0].toInt64(), g = f->g;
      if (op == Op::Le0) {
        const int64_t ceil = k >= 0 ? (k + g - 1) / g : -((-k) / g);
        return cmp0(op, linear(std::move(f->parts[0]), Integer(ceil)));
      }
      if (k % g == 0) return cmp0(op, linear(std::move(f->parts[0]), Integer(k / g)));
    }
  }
  const Node &l = nodes_[lin.id];
  std::optional<bool> known;
  if (op == Op::Le0) {
    if (l.range.hi.sign() <= 0) known = true;
    else if (l.range.lo.sign() > 0) known = false;
  } else {
    if (l.range.lo.isZero() && l.range.hi.isZero()) known = true;
    else if (l.range.lo.sign() > 0 || l.range.hi.sign() < 0) known = false;
    else if (l.values && !std::binary_search(l.values->begin(), l.values->end(), Integer(0))) known = false;
  }
  if (known) {
    if (faultHere(FaultInjection::Kind::DecidedWrong)) known = !*known;
    Decision dec;
    dec.kind = Decision::Kind::Compare;
    dec.x = lin.id;
    dec.op = op;
    dec.value = *known;
    decisions_.push_back(std::move(dec));
    // With obligations the solver proves the folded value too (as a local fact over the
    // compared term's copy; its atoms abstracted by their checked intervals).
    if (obligations_ && l.op != Op::IntConst) {
      const TermRef raw = rawCmp0(op, lin);
      require(*known ? raw : lnot(raw), FactKind::Decided);
    }
    return *known ? true_ : false_;
  }
  return rawCmp0(op, lin);
}

TermRef TermStore::rawCmp0(Op op, TermRef lin) {
  const Node &l = nodes_[lin.id];
  if (l.op == Op::IntConst) return (op == Op::Le0 ? l.c.sign() <= 0 : l.c.isZero()) ? true_ : false_;
  Node n;
  n.op = op;
  n.args = {lin.id};
  return make(std::move(n));
}

TermRef TermStore::le(TermRef a, TermRef b) { return cmp0(Op::Le0, sub(a, b)); }
TermRef TermStore::lt(TermRef a, TermRef b) { return cmp0(Op::Le0, add(sub(a, b), intConst(1))); }
TermRef TermStore::eq(TermRef a, TermRef b) { return cmp0(Op::Eq0, sub(a, b)); }

TermRef TermStore::lnot(TermRef a) {
  const Node &n = nodes_[a.id];
  if (n.known) return *n.known ? false_ : true_;
  if (n.op == Op::Not) return TermRef{n.args[0]};
  Node m;
  m.op = Op::Not;
  m.args = {a.id};
  return make(std::move(m));
}

TermRef TermStore::land(TermRef a, TermRef b) {
  const Node &x = nodes_[a.id], &y = nodes_[b.id];
  if (x.known) return *x.known ? b : false_;
  if (y.known) return *y.known ? a : false_;
  if (a == b) return a;
  if ((x.op == Op::Not && x.args[0] == b.id) || (y.op == Op::Not && y.args[0] == a.id)) return false_;
  // Absorption: a & (a | y) = a.
  if (y.op == Op::Or && (y.args[0] == a.id || y.args[1] == a.id)) return a;
  if (x.op == Op::Or && (x.args[0] == b.id || x.args[1] == b.id)) return b;
  // Context: a & (a ? u : v) = a & u, and (not a) & (a ? u : v) = (not a) & v; the same
  // under a negation: a & not(a ? u : v) = a & not u, (not a) & not(a ? u : v) = (not a) & not v.
  for (int side = 0; side < 2; ++side) {
    const TermRef c = side ? b : a, o = side ? a : b;
    const Node &cn = nodes_[c.id];
    const bool negated = nodes_[o.id].op == Op::Not;
    const Node &on = negated ? nodes_[nodes_[o.id].args[0]] : nodes_[o.id];
    if (on.op != Op::IteB) continue;
    int pick = 0;
    if (on.args[0] == c.id) pick = 1;
    else if (cn.op == Op::Not && on.args[0] == cn.args[0]) pick = 2;
    if (!pick) continue;
    const TermRef u{on.args[size_t(pick)]};
    return land(c, negated ? lnot(u) : u);
  }
  Node n;
  n.op = Op::And;
  n.args = {std::min(a.id, b.id), std::max(a.id, b.id)};
  return make(std::move(n));
}

TermRef TermStore::lor(TermRef a, TermRef b) {
  const Node &x = nodes_[a.id], &y = nodes_[b.id];
  if (x.known) return *x.known ? true_ : b;
  if (y.known) return *y.known ? true_ : a;
  if (a == b) return a;
  if ((x.op == Op::Not && x.args[0] == b.id) || (y.op == Op::Not && y.args[0] == a.id)) return true_;
  // Absorption: a | (a & y) = a.
  if (y.op == Op::And && (y.args[0] == a.id || y.args[1] == a.id)) return a;
  if (x.op == Op::And && (x.args[0] == b.id || x.args[1] == b.id)) return b;
  Node n;
  n.op = Op::Or;
  n.args = {std::min(a.id, b.id), std::max(a.id, b.id)};
  return make(std::move(n));
}

TermRef TermStore::iteB(TermRef c, TermRef a, TermRef b) {
  const Node &cn = nodes_[c.id];
  if (cn.known) return *cn.known ? a : b;
  if (a == b) return a;
  const Node &an = nodes_[a.id], &bn = nodes_[b.id];
  if (an.known && bn.known) return *an.known ? c : lnot(c);  // (c ? 1 : 0) or (c ? 0 : 1)
  if (an.known) return *an.known ? lor(c, b) : land(lnot(c), b);
  if (bn.known) return *bn.known ? lor(lnot(c), a) : land(c, a);
  if (cn.op == Op::Not) return iteB(TermRef{cn.args[0]}, b, a);
  // ite(c, c, b) = c | b and ite(c, a, c) = c & a.
  if (a == c) return lor(c, b);
  if (b == c) return land(c, a);
  // ite(c, ite(c, x, y), z) = ite(c, x, z) and ite(c, x, ite(c, y, z)) = ite(c, x, z).
  if (an.op == Op::IteB && an.args[0] == c.id) return iteB(c, TermRef{an.args[1]}, b);
  if (bn.op == Op::IteB && bn.args[0] == c.id) return iteB(c, a, TermRef{bn.args[2]});
  Node n;
  n.op = Op::IteB;
  n.args = {c.id, a.id, b.id};
  return make(std::move(n));
}

TermRef TermStore::lxor(TermRef a, TermRef b) {
  if (a == b) return false_;
  return iteB(a, lnot(b), b);
}

std::pair<TermRef, TermRef> TermStore::divPow2(TermRef x, unsigned j) {
  if (j == 0) return {x, intConst(0)};
  auto memo = divs_.find({x.id, j});
  if (memo != divs_.end()) return memo->second;
  const Node xn = nodes_[x.id];  // copy: nodes_ may grow below
  const Integer p = Integer::pow2(j);
  std::pair<TermRef, TermRef> res;
  const Integer qlo = floorDiv2(xn.range.lo, j), qhi = floorDiv2(xn.range.hi, j);
  if (qlo == qhi) {
    // The quotient is known: q = qlo, r = x - qlo * 2^j.
    Decision dec;
    dec.kind = Decision::Kind::QuotientKnown;
    dec.x = x.id;
    dec.j = j;
    dec.k = qlo;
    decisions_.push_back(std::move(dec));
    res = {intConst(qlo), sub(x, intConst(qlo * p))};
  } else {
    bool exactLin = xn.tz >= j;
    if (exactLin && (xn.op == Op::Lin || xn.op == Op::IntConst)) {
      std::vector<std::pair<uint32_t, Integer>> t;
      bool ok = tzOf(xn.c) >= j;
      for (size_t i = 0; ok && i < xn.args.size(); ++i) {
        if (tzOf(xn.coefs[i]) < j) ok = false;
        else t.push_back({xn.args[i], xn.coefs[i] >> j});
      }
      if (ok) {
        res = {linear(std::move(t), xn.c >> j), intConst(0)};
        divs_[{x.id, j}] = res;
        return res;
      }
    }
    std::string base = "d" + std::to_string(x.id) + "_" + std::to_string(j);
    TermRef q = freshVar(base + "q", qlo, qhi);
    nodes_[q.id].tz = xn.tz > j && xn.tz < kTzZero ? xn.tz - j : 0;
    TermRef r;
    if (exactLin) {
      r = intConst(0);
    } else {
      Integer rhi = p - 1;
      if (xn.range.lo.sign() >= 0 && xn.range.hi < rhi) rhi = xn.range.hi;
      r = freshVar(base + "r", Integer(0), rhi);
      nodes_[r.id].tz = std::min(xn.tz, j);
    }
    // Side constraint x = 2^j q + r, asserted without folding.
    Node e;
    e.op = Op::Eq0;
    e.args = {sub(x, add(mulc(q, p), r)).id};
    e.name = "div";
    assertions_.push_back(make(std::move(e)));
    recordDivision(Decision::Kind::Division, x, j, q, r);
    res = {q, r};
  }
  divs_[{x.id, j}] = res;
  return res;
}

std::pair<TermRef, TermRef> TermStore::divPow2Within(TermRef x, unsigned j, TermRef c, const Integer &qlo,
                                                     const Integer &qhi) {
  if (nodes_[c.id].known == std::optional<bool>(true)) return divPow2(x, j);
  if (j == 0) return {x, intConst(0)};
  return condDiv(x, j, c, qlo, qhi);
}

TermRef TermStore::within(TermRef x, TermRef c, const Integer &lo, const Integer &hi) {
  const Node &xn = nodes_[x.id];
  if (lo <= xn.range.lo && xn.range.hi <= hi) return x;  // the range says so already
  if (nodes_[c.id].known == std::optional<bool>(false)) return x;  // never needed
  return condDiv(x, 0, c, lo, hi).first;
}

std::pair<TermRef, TermRef> TermStore::condDiv(TermRef x, unsigned j, TermRef c, const Integer &qlo,
                                               const Integer &qhi) {
  auto key = std::make_tuple(x.id, j, c.id);
  auto memo = condDivs_.find(key);
  if (memo != condDivs_.end()) return memo->second;
  const Node xn = nodes_[x.id];
  const Integer p = Integer::pow2(j);
  // The declared ranges: what c implies, within what x's own range allows.
  const Integer lo = max(qlo, floorDiv2(xn.range.lo, j)), hi = min(qhi, floorDiv2(xn.range.hi, j));
  std::pair<TermRef, TermRef> res;
  if (lo > hi) {
    // c cannot hold with x in its range: any value serves. That c never holds is a fact.
    if (obligations_) require(lnot(c), FactKind::Quotient);
    res = {intConst(qlo), intConst(0)};
  } else {
    // w: x lies where floor(x / 2^j) is in [lo, hi]. The side constraint is asserted under
    // c and w, so that it is satisfiable on every input (q, r are free elsewhere); that w
    // holds wherever c does is a fact.
    // (Without obligations the analysis is trusted: g = c.)
    TermRef g = c;
    if (obligations_) {
      const TermRef w = land(le(intConst(lo * p), x), le(x, intConst(hi * p + p - 1)));
      require(lor(lnot(c), w), FactKind::Quotient);
      g = land(c, w);
    }
    std::string base = "c" + std::to_string(x.id) + "_" + std::to_string(j) + "_" + std::to_string(c.id);
    TermRef q = freshVar(base + "q", lo, hi);
    TermRef r = freshVar(base + "r", Integer(0), p - 1);
    nodes_[r.id].tz = std::min(xn.tz, j);
    // g -> x = 2^j q + r, asserted without folding.
    Node e;
    e.op = Op::Eq0;
    e.args = {sub(x, add(mulc(q, p), r)).id};
    e.name = "cdiv";
    TermRef eqn = make(std::move(e));
    Node imp;
    imp.op = Op::Or;
    imp.args = {lnot(g).id, eqn.id};
    imp.name = "cdiv";
    assertions_.push_back(make(std::move(imp)));
    recordDivision(Decision::Kind::CondDivision, x, j, q, r);
    res = {q, r};
  }
  condDivs_[key] = res;
  return res;
}

void TermStore::recordDivision(Decision::Kind kind, TermRef x, unsigned j, TermRef q, TermRef r) {
  markDefinitional(q, r);
  divConstraint_[q.id] = assertions_.back().id;
  if (nodes_[r.id].op == Op::IntVar) divConstraint_[r.id] = assertions_.back().id;
  Decision dec;
  dec.kind = kind;
  dec.x = x.id;
  dec.j = j;
  dec.q = q.id;
  dec.r = r.id;
  decisions_.push_back(std::move(dec));
}

void TermStore::markDefinitional(TermRef q, TermRef r) {
  // The last assertion is the side constraint; the bound assertions of q and r are the
  // ones intVar pushed (two each), found by their single variable.
  std::vector<uint32_t> fresh{q.id};
  if (nodes_[r.id].op == Op::IntVar) fresh.push_back(r.id);
  defines_[assertions_.size() - 1] = fresh;
  for (uint32_t v : fresh) {
    auto it = varBounds_.find(v);
    if (it == varBounds_.end()) continue;
    for (size_t i : it->second) {
      const Node &a = nodes_[assertions_[i].id];
      const Node &lin = nodes_[a.args[0]];
      if (a.name == "bound" && lin.args.size() == 1 && lin.args[0] == v) defines_[i] = {v};
    }
  }
}

void TermStore::pushPhase(TermRef t, int p) {
  phaseOf_[assertions_.size()] = p;
  assertions_.push_back(t);
}

void TermStore::boundsDefinitional(TermRef v) {
  auto it = varBounds_.find(v.id);
  if (it == varBounds_.end()) return;
  for (size_t i : it->second) defines_[i] = {v.id};
}

std::vector<uint32_t> TermStore::reached(const std::vector<TermRef> &assertions) const {
  std::vector<uint32_t> order;
  std::vector<char> seen(nodes_.size(), 0);
  std::vector<uint32_t> st;
  for (TermRef a : assertions) st.push_back(a.id);
  while (!st.empty()) {
    const uint32_t id = st.back();
    st.pop_back();
    if (seen[id]) continue;
    seen[id] = 1;
    order.push_back(id);
    for (uint32_t c : nodes_[id].args) st.push_back(c);
  }
  std::sort(order.begin(), order.end());
  return order;
}

TermStore::Live TermStore::live(int phase) const {
  // The index (built once per set of assertions): the non-definitional assertions of each
  // phase (-1: common to all), and per fresh variable the definitional assertions that
  // define it.
  if (liveIndexSize_ != assertions_.size() || liveIndexDefs_ != defines_.size()) {
    livePhase_.clear();
    liveDefs_.clear();
    for (size_t i = 0; i < assertions_.size(); ++i) {
      if (defines_.count(i)) continue;
      auto p = phaseOf_.find(i);
      livePhase_[p == phaseOf_.end() ? -1 : p->second].push_back(i);
    }
    for (const auto &[i, fresh] : defines_)
      for (uint32_t v : fresh) liveDefs_[v].push_back(i);
    liveIndexSize_ = assertions_.size();
    liveIndexDefs_ = defines_.size();
  }
  // Everything reachable (through term arguments) from the kept assertions; a variable that
  // becomes reachable brings in the definitional assertions that define it.
  std::vector<char> seen(nodes_.size(), 0), keep(assertions_.size(), 0);
  std::vector<uint32_t> stack;
  std::vector<char> varLive(nodes_.size(), 0);
  auto keepAssertion = [&](size_t i) {
    if (keep[i]) return;
    keep[i] = 1;
    stack.push_back(assertions_[i].id);
    while (!stack.empty()) {
      uint32_t id = stack.back();
      stack.pop_back();
      if (seen[id]) continue;
      seen[id] = 1;
      if (nodes_[id].op == Op::IntVar) {
        varLive[id] = 1;
        auto d = liveDefs_.find(id);
        if (d != liveDefs_.end())
          for (size_t j : d->second)
            if (!keep[j]) {
              keep[j] = 1;
              stack.push_back(assertions_[j].id);
            }
      }
      for (uint32_t a : nodes_[id].args) stack.push_back(a);
    }
  };
  for (const auto &[p, idx] : livePhase_)
    if (p == -1 || phase < 0 || p == phase)
      for (size_t i : idx) keepAssertion(i);
  Live out;
  for (size_t i = 0; i < assertions_.size(); ++i)
    if (keep[i]) out.assertions.push_back(assertions_[i]);
  for (TermRef v : vars_)
    if (varLive[v.id]) out.variables.push_back(v);
  return out;
}

void TermStore::assertTrue(TermRef b) {
  const Node &n = nodes_[b.id];
  if (n.known) {
    if (!*n.known) falseAsserted_ = true;
    if (*n.known) return;
  }
  assertions_.push_back(b);
}

void TermStore::narrow(TermRef t, const Interval &r) {
  if (obligations_) return;
  Node &n = nodes_[t.id];
  if (n.op == Op::IntConst) return;
  n.range = {max(n.range.lo, r.lo), min(n.range.hi, r.hi)};
  if (n.values) {
    auto &v = *n.values;
    v.erase(std::remove_if(v.begin(), v.end(), [&](const Integer &x) { return !n.range.contains(x); }), v.end());
  }
}

void TermStore::require(TermRef b, FactKind kind) {
  if (!obligations_) return;
  const Node &n = nodes_[b.id];
  if (n.known && *n.known) return;
  if (factIndex_.count(b.id)) return;
  factIndex_[b.id] = facts_.size();
  facts_.push_back(Fact{b, kind});
}

unsigned TermStore::sigBits(uint32_t id, const std::vector<std::pair<uint32_t, bool>> &path,
                            const Interval *within, int depth) {
  const bool free = path.empty() && within == nullptr;
  if (free) {
    auto it = sigBits_.find(id);
    if (it != sigBits_.end()) return it->second;
  }
  const Node &n = nodes_[id];
  Interval r = n.range;
  if (within) r = Interval{max(r.lo, within->lo), min(r.hi, within->hi)};
  // The path's atoms over L = s * id + k (s = 1 or -1: the same linear form up to sign and
  // constant) bound id: L <= 0, not L <= 0 (L >= 1) and L == 0.
  if (!path.empty()) {
    std::vector<std::pair<uint32_t, Integer>> self, minus;
    Integer kSelf;
    linearView(TermRef{id}, self, kSelf, Integer(1));
    for (const auto &[term, coef] : self) minus.push_back({term, -coef});
    for (const auto &[atom, negated] : path) {
      const Node &a = nodes_[atom];
      std::vector<std::pair<uint32_t, Integer>> t;
      Integer k;
      linearView(TermRef{a.args[0]}, t, k, Integer(1));
      const bool pos = t == self;
      if (!pos && t != minus) continue;
      // L = id + (k - kSelf) when pos, L = -id + (k + kSelf) otherwise.
      const Integer c = pos ? k - kSelf : k + kSelf;
      if (a.op == Op::Eq0) {
        if (negated) continue;
        const Integer v = pos ? -c : c;
        r = Interval{max(r.lo, v), min(r.hi, v)};
      } else if (!negated) {
        if (pos) r.hi = min(r.hi, -c);       // id + c <= 0
        else r.lo = max(r.lo, c);            // -id + c <= 0
      } else {
        if (pos) r.lo = max(r.lo, Integer(1) - c);  // id + c >= 1
        else r.hi = min(r.hi, c - 1);               // -id + c >= 1
      }
    }
  }
  unsigned b = bitsWithin(r, n.tz);
  if (r.lo > r.hi) b = 0;  // the path is impossible: no value
  if (wideValueSets_ && n.values && b > 0) {
    // Every value the node takes is in its (checked) value set, and here also in r.
    unsigned vb = 0;
    for (const Integer &v : *n.values)
      if (r.contains(v)) vb = std::max(vb, bitsWithin(Interval{v, v}, tzOf(v)));
    b = std::min(b, vb);
  }
  const bool deeper = depth < kSigBitsContextDepth;
  if (n.op == Op::Ite) {
    // Each branch is the node's value where it is taken: it lies in r, under the path and
    // the condition's conjuncts (then) or the negations of its disjuncts (else).
    std::vector<std::pair<uint32_t, bool>> thenPath, elsePath;
    if (deeper) {
      // The atoms that `cond` (negated: `not cond`) conjoins.
      auto collect = [&](uint32_t cond, bool negated, std::vector<std::pair<uint32_t, bool>> &out) {
        std::vector<std::pair<uint32_t, bool>> todo{{cond, negated}};
        while (!todo.empty()) {
          const auto [c, neg] = todo.back();
          todo.pop_back();
          const Node &cn = nodes_[c];
          if (cn.op == Op::Not) todo.push_back({cn.args[0], !neg});
          else if (cn.op == (neg ? Op::Or : Op::And))
            for (uint32_t x : cn.args) todo.push_back({x, neg});
          else if (cn.op == Op::Le0 || cn.op == Op::Eq0) out.push_back({c, neg});
        }
      };
      thenPath = path;
      elsePath = path;
      collect(n.args[0], false, thenPath);
      collect(n.args[0], true, elsePath);
    }
    auto branch = [&](uint32_t child, const std::vector<std::pair<uint32_t, bool>> &p) {
      if (!deeper || (p.empty() && within == nullptr)) return sigBits(child, {}, nullptr, 0);
      return sigBits(child, p, &r, depth + 1);
    };
    b = std::min(b, std::max(branch(n.args[1], thenPath), branch(n.args[2], elsePath)));
  } else if (n.op == Op::Lin && n.args.size() == 1 && n.c.isZero()) {
    // c * y: the odd part of the product is the product of the odd parts; for c = +-1 the
    // value's interval carries over to y.
    const Integer &c = n.coefs[0];
    const Integer odd = c.abs() >> c.trailingZeros();
    unsigned by;
    if (deeper && !(path.empty() && within == nullptr) && c.abs() == Integer(1)) {
      const Interval ry = c.sign() > 0 ? r : Interval{-r.hi, -r.lo};
      by = sigBits(n.args[0], path, &ry, depth + 1);
    } else {
      by = sigBits(n.args[0], {}, nullptr, 0);
    }
    b = std::min(b, by + odd.msb() + 1);
  }
  if (free) sigBits_[id] = b;
  return b;
}

bool TermStore::showPrecision(TermRef x, unsigned p) {
  const bool forced = precisionShownWrong_;
  precisionShownWrong_ = false;
  if (!forced && sigBits(x.id, {}, nullptr, 0) > p) return false;
  Decision dec;
  dec.kind = Decision::Kind::Precision;
  dec.x = x.id;
  dec.j = p;
  decisions_.push_back(std::move(dec));
  return true;
}

void TermStore::assumeValues(TermRef x, const std::vector<Integer> &vals) {
  if (nodes_[x.id].op == Op::IntConst) return;
  Decision dec;
  dec.kind = Decision::Kind::Values;
  dec.x = x.id;
  dec.vals = vals;
  decisions_.push_back(std::move(dec));
}

void TermStore::assertGoal(TermRef goal) {
  goal_ = goal;
  if (!obligations_) {
    assertTrue(goal);
    return;
  }
  // Phase 0: the goal (a model there is a counterexample candidate, which the reference
  // evaluator confirms, so a counterexample search needs no fact proven); phases 1 .. F: "fact
  // i fails", stated locally (localFact), one fact each, the Decided ones together in the
  // last phases (at most kDecidedPerPhase each) unless splitDecided_.
  const int main = 0;
  pushPhase(goal, main);
  int phase = 1;
  phaseFacts_.assign(1, {});
  std::vector<size_t> decided;
  for (size_t i = 0; i < (goalOnly_ ? 0 : facts_.size()); ++i) {
    if (facts_[i].kind == FactKind::Decided && !splitDecided_) {
      decided.push_back(i);
      continue;
    }
    phaseFacts_.push_back({i});
    pushPhase(localFact(facts_[i].holds), phase++);
  }
  // The Decided facts in phases of at most kDecidedPerPhase, in creation order: one solver
  // call refutes a disjunction of a few local statements cheaply, but a long one can be far
  // harder than its parts (e2m1 k = 32 f16 rtz ftz pre/dequant, the equal invariant's leaf
  // step over e -48..-20 had 217 decided facts, 41.8 s as one disjunction; in groups of 128,
  // 6.5 s for the first; of 64, at most 1.3 s each; of 32, at most 0.36 s each, but the
  // whole table took the same time with 32 and 64; FTZ's flushed subnormal arms, now one zero
  // arm in roundAcc, left that step 5).
  for (size_t b = 0; b < decided.size(); b += kDecidedPerPhase) {
    const size_t end = std::min(decided.size(), b + kDecidedPerPhase);
    TermRef any = false_;
    for (size_t j = b; j < end; ++j) any = lor(any, localFact(facts_[decided[j]].holds));
    phaseFacts_.emplace_back(decided.begin() + long(b), decided.begin() + long(end));
    pushPhase(any, phase++);
  }
  phases_ = phase;
  // INV: the checked intervals of the terms a solver cannot bound by propagation alone (an
  // if-then-else atom; a linear term tighter than the sum of its parts), over the goal's
  // query (its cone of influence: INV adds no term to it).
  std::vector<char> seen(nodes_.size(), 0);
  std::vector<uint32_t> stack;
  for (TermRef a : live(main).assertions) stack.push_back(a.id);
  while (!stack.empty()) {
    uint32_t id = stack.back();
    stack.pop_back();
    if (seen[id]) continue;
    seen[id] = 1;
    for (uint32_t a : nodes_[id].args) stack.push_back(a);
  }
  const size_t count = nodes_.size();
  for (uint32_t id = 0; id < count; ++id) {
    if (!seen[id]) continue;
    const Node n = nodes_[id];  // copy: nodes_ grows below
    bool tighter = n.op == Op::Ite;
    if (n.op == Op::Lin) {
      Integer lo = n.c, hi = n.c;
      for (size_t i = 0; i < n.args.size(); ++i) {
        Interval s = scaleIv(nodes_[n.args[i]].range, n.coefs[i]);
        lo = lo + s.lo;
        hi = hi + s.hi;
      }
      tighter = n.range.lo > lo || n.range.hi < hi;
    }
    if (!tighter) continue;
    pushPhase(rawCmp0(Op::Le0, sub(intConst(n.range.lo), TermRef{id})), main);
    pushPhase(rawCmp0(Op::Le0, sub(TermRef{id}, intConst(n.range.hi))), main);
    invCount_ += 2;
  }
}

TermRef TermStore::freshVar(const std::string &name, const Integer &lo, const Integer &hi) {
  TermRef t = intVar(name, lo, hi);
  inputs_.erase(t.id);
  if (obligations_) boundsDefinitional(t);
  return t;
}

TermRef TermStore::abstraction(uint32_t id) {
  auto it = abstractions_.find(id);
  if (it != abstractions_.end()) return it->second;
  const Node n = nodes_[id];  // copy: nodes_ grows below
  TermRef res;
  if (isBool(n.op)) {
    // Any truth value.
    TermRef v = freshVar("v" + std::to_string(id), Integer(0), Integer(1));
    res = rawCmp0(Op::Eq0, sub(v, intConst(1)));
  } else if (n.range.lo == n.range.hi) {
    res = intConst(n.range.lo);
  } else {
    // 2^t k with k in [ceil(lo / 2^t), floor(hi / 2^t)]: the values the node's (checked)
    // interval and granularity allow.
    const unsigned t = std::min<unsigned>(n.tz, max(n.range.lo.abs(), n.range.hi.abs()).msb() + 1);
    const Integer p = Integer::pow2(t);
    const Integer klo = -floorDiv2(-n.range.lo, t), khi = floorDiv2(n.range.hi, t);
    TermRef k = freshVar("v" + std::to_string(id), klo, khi);
    Decision dec;
    dec.kind = Decision::Kind::Abstraction;
    dec.x = id;
    dec.q = k.id;
    dec.j = t;
    // Where the node's (checked) value set leaves out values of that grid, k also takes one
    // of the set's values: "k = c_1 or ... or k = c_n", a definitional assertion of every
    // phase that uses k. Without it a decision made from the value set (x + v = c folded to
    // false because v is -10 or 5, never between) is a fact its local copy cannot prove.
    // Values off the grid or the interval are left out: the checked granularity and interval
    // say that the node never takes them.
    if (n.values) {
      std::vector<Integer> ks;
      for (const Integer &v : *n.values) {
        if (!n.range.contains(v)) continue;
        const Integer c = floorDiv2(v, t);
        if (c * p == v) ks.push_back(c);
      }
      if (!ks.empty() && Integer(int64_t(ks.size())) < khi - klo + 1) {
        if (ks.size() >= 2 && faultHere(FaultInjection::Kind::AbstractionValueDropped)) ks.pop_back();
        TermRef any = rawCmp0(Op::Eq0, sub(k, intConst(ks.front())));
        for (size_t i = 1; i < ks.size(); ++i) any = lor(any, rawCmp0(Op::Eq0, sub(k, intConst(ks[i]))));
        defines_[assertions_.size()] = {k.id};
        assertions_.push_back(any);
        dec.r = any.id;
        dec.vals = std::move(ks);
      }
    }
    decisions_.push_back(std::move(dec));
    res = mulc(k, p);
  }
  abstractions_[id] = res;
  return res;
}

TermRef TermStore::localFact(TermRef fact) {
  // Which nodes to copy (1) and which to abstract (0), breadth first from the fact:
  //  * constants and input variables stay themselves;
  //  * Boolean structure and linear terms are copied (abstracting a sum apart from its
  //    parts would lose "x < 0" versus "x + 1 <= 0");
  //  * an if-then-else is copied when it is compared by itself (a linear term with one atom)
  //    or is a branch of a copied one, while the budget lasts; one that is a summand of a
  //    larger sum is abstracted (its interval and granularity carry what the fact needs);
  //  * a division's fresh q and r are copied as new variables, with the division's side
  //    constraint (so that the copy means what the original does);
  //  * every other variable is abstracted.
  constexpr size_t kLocalNodes = 4000;  // if-then-else nodes copied per fact at most
  std::unordered_map<uint32_t, char> expand;
  std::vector<std::pair<uint32_t, bool>> queue{{fact.id, false}};  // (node, summand of a sum)
  std::vector<uint32_t> defs;  // side constraints to copy
  size_t copied = 0;
  for (size_t h = 0; h < queue.size(); ++h) {
    step();
    const auto [id, summand] = queue[h];
    auto seen = expand.find(id);
    if (seen != expand.end() && (seen->second || summand)) continue;
    const Node &n = nodes_[id];
    const bool leaf = n.op == Op::IntConst || n.op == Op::BoolConst || (n.op == Op::IntVar && isInput(id));
    if (leaf) {
      expand[id] = 1;
      continue;
    }
    if (n.op == Op::IntVar) {
      auto d = divConstraint_.find(id);
      expand[id] = d != divConstraint_.end();
      if (expand[id]) {
        defs.push_back(d->second);
        queue.push_back({d->second, false});
      }
      continue;
    }
    if (n.op == Op::Ite && (summand || copied >= kLocalNodes)) {
      expand[id] = 0;
      continue;
    }
    expand[id] = 1;
    if (n.op == Op::Ite) ++copied;
    const bool sum = n.op == Op::Lin && n.args.size() > 1;
    for (uint32_t a : n.args) queue.push_back({a, sum});
  }
  std::unordered_map<uint32_t, uint32_t> copy;
  const std::string tag = "l" + std::to_string(fact.id) + "_";
  std::function<uint32_t(uint32_t)> cp = [&](uint32_t id) -> uint32_t {
    auto it = copy.find(id);
    if (it != copy.end()) return it->second;
    const Node n = nodes_[id];
    uint32_t out;
    if (n.op == Op::IntConst || n.op == Op::BoolConst || (n.op == Op::IntVar && isInput(id))) {
      out = id;
    } else if (!expand.at(id)) {
      out = abstraction(id).id;
    } else if (n.op == Op::IntVar) {
      TermRef v = freshVar(tag + n.name, n.declared.lo, n.declared.hi);
      Decision dec;
      dec.kind = Decision::Kind::LocalCopy;
      dec.x = id;
      dec.q = v.id;
      decisions_.push_back(std::move(dec));
      out = v.id;
    } else {
      Node m = n;
      for (uint32_t &a : m.args) a = cp(a);
      m.values.reset();
      m.known.reset();
      out = make(std::move(m)).id;
    }
    copy[id] = out;
    return out;
  };
  TermRef res = lnot(TermRef{cp(fact.id)});
  for (size_t i = 0; i < defs.size(); ++i) res = land(res, TermRef{cp(defs[i])});
  return res;
}

std::vector<size_t> TermStore::factsOfPhase(int phase) const {
  if (phase < 0 || size_t(phase) >= phaseFacts_.size()) return {};
  return phaseFacts_[size_t(phase)];
}

std::vector<size_t> TermStore::failedFacts(const std::map<std::string, Integer> &m) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < facts_.size(); ++i) {
    try {
      if (!evalBool(facts_[i].holds, m)) out.push_back(i);
    } catch (const std::out_of_range &) {
      // The fact uses a variable the model does not give (not in the goal's phase).
    }
  }
  return out;
}

void TermStore::refine(TermRef t, const Interval &r) {
  Node &n = nodes_[t.id];
  Interval nr{max(n.range.lo, r.lo), min(n.range.hi, r.hi)};
  // Assert the bounds (unfolded), then narrow.
  Node lo0;
  lo0.op = Op::Le0;
  lo0.args = {sub(intConst(r.lo), t).id};
  lo0.name = "refine";
  assertions_.push_back(make(std::move(lo0)));
  Node hi0;
  hi0.op = Op::Le0;
  hi0.args = {sub(t, intConst(r.hi)).id};
  hi0.name = "refine";
  assertions_.push_back(make(std::move(hi0)));
  nodes_[t.id].range = nr;
  if (nodes_[t.id].op == Op::Lin) refined_.push_back(t.id);
  Decision dec;
  dec.kind = Decision::Kind::Refine;
  dec.x = t.id;
  dec.iv = r;
  decisions_.push_back(std::move(dec));
  if (nodes_[t.id].values) {
    auto &v = *nodes_[t.id].values;
    v.erase(std::remove_if(v.begin(), v.end(), [&](const Integer &x) { return !nr.contains(x); }), v.end());
  }
}

Integer TermStore::evalInt(TermRef t, const std::map<std::string, Integer> &m) const {
  std::unordered_map<uint32_t, Integer> ints;
  std::unordered_map<uint32_t, bool> bools;
  std::function<Integer(uint32_t)> I;
  std::function<bool(uint32_t)> B;
  I = [&](uint32_t id) -> Integer {
    auto it = ints.find(id);
    if (it != ints.end()) return it->second;
    const Node &n = nodes_[id];
    Integer v;
    switch (n.op) {
    case Op::IntConst: v = n.c; break;
    case Op::IntVar: v = m.at(n.name); break;
    case Op::Lin:
      v = n.c;
      for (size_t i = 0; i < n.args.size(); ++i) v = v + n.coefs[i] * I(n.args[i]);
      break;
    case Op::Ite: v = B(n.args[0]) ? I(n.args[1]) : I(n.args[2]); break;
    default: throw std::logic_error("evalInt on a Bool term");
    }
    ints[id] = v;
    return v;
  };
  B = [&](uint32_t id) -> bool {
    auto it = bools.find(id);
    if (it != bools.end()) return it->second;
    const Node &n = nodes_[id];
    bool v = false;
    switch (n.op) {
    case Op::BoolConst: v = n.b; break;
    case Op::Le0: v = I(n.args[0]).sign() <= 0; break;
    case Op::Eq0: v = I(n.args[0]).isZero(); break;
    case Op::Not: v = !B(n.args[0]); break;
    case Op::And:
      v = true;
      for (uint32_t a : n.args) v = v && B(a);
      break;
    case Op::Or:
      v = false;
      for (uint32_t a : n.args) v = v || B(a);
      break;
    case Op::IteB: v = B(n.args[0]) ? B(n.args[1]) : B(n.args[2]); break;
    default: throw std::logic_error("evalBool on an Int term");
    }
    bools[id] = v;
    return v;
  };
  (void)B;
  const Node &n = nodes_[t.id];
  if (n.op == Op::BoolConst || n.op == Op::Le0 || n.op == Op::Eq0 || n.op == Op::Not ||
      n.op == Op::And || n.op == Op::Or || n.op == Op::IteB)
    return Integer(B(t.id) ? 1 : 0);
  return I(t.id);
}

bool TermStore::evalBool(TermRef t, const std::map<std::string, Integer> &m) const {
  return !evalInt(t, m).isZero();
}

}  // namespace mxcert::smt

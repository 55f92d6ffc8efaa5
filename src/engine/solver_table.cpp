// src/engine/solver_table.cpp — certified agree sets (see solver_table.h).
#include "src/engine/solver_table.h"
#include "src/engine/step_witness.h"

#include "smt/abstract_check.h"

#include "certs/sha256.h"
#include "smt/encoder.h"
#include "src/engine/bounds.h"
#include "src/engine/exhaustive.h"
#include "src/engine/groups.h"
#include "src/engine/nvfp4_table.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>

namespace mxcert::engine {

namespace {

/// Element codes with useful extreme values.
struct Extremes {
  unsigned amax, amin, bmax, bmin, aSign, bSign;
};

Extremes extremes(const ModelConfig &c) {
  return {largestFiniteCode(c.a), 1, largestFiniteCode(c.b), 1, c.a.numCodes() / 2, c.b.numCodes() / 2};
}

/// Leaves under each node.
std::vector<std::vector<int>> leavesUnder(const Tree &t) {
  std::vector<std::vector<int>> out(t.nodes().size());
  for (size_t i = 0; i < t.nodes().size(); ++i) {
    const Tree::Node &n = t.nodes()[i];
    if (n.leaf >= 0)
      out[i] = {n.leaf};
    else
      for (int c : n.children) out[i].insert(out[i].end(), out[size_t(c)].begin(), out[size_t(c)].end());
  }
  return out;
}

/// The largest non-root inner node (by leaf count), or -1.
int largestNonRoot(const Tree &t) {
  auto lu = leavesUnder(t);
  int best = -1;
  for (size_t i = 0; i + 1 < t.nodes().size(); ++i)
    if (t.nodes()[i].leaf < 0 && (best < 0 || lu[i].size() > lu[size_t(best)].size())) best = int(i);
  return best;
}

/// One (a, b) code pair per distinct positive finite product a * b (canonical, the first pair
/// in code order), stopping once more than `cap` are found.
std::vector<std::pair<CVal, std::pair<unsigned, unsigned>>> distinctProducts(const ModelConfig &c, size_t cap) {
  ConcreteDomain d;
  std::vector<std::pair<CVal, std::pair<unsigned, unsigned>>> prods;
  std::set<std::pair<std::string, int64_t>> seen;  // canonical (N, X)
  for (unsigned ca = 1; ca < c.a.numCodes() / 2 && prods.size() <= cap; ++ca)
    for (unsigned cb = 1; cb < c.b.numCodes() / 2; ++cb) {
      CVal a = decodeElement(d, c.a, Integer(int64_t(ca))), b = decodeElement(d, c.b, Integer(int64_t(cb)));
      if (a.nan || a.inf || b.nan || b.inf) continue;
      CVal t = canonical(mulExact(d, a, b));
      if (seen.insert({t.N.str(), t.X.toInt64()}).second) prods.push_back({t, {ca, cb}});
      if (prods.size() > cap) break;
    }
  return prods;
}

/// Structured candidate inputs (docs/solver.md): extreme products in a few leaves, the
/// largest non-root subtree filled with maxima against negated maxima, n maximal products for
/// every n, products of every binade, the zero block, and an infinite element beside the
/// smallest and the largest element of the other side.
std::vector<std::pair<std::vector<unsigned>, std::vector<unsigned>>> patterns(const ModelConfig &c) {
  const int k = c.k();
  const Extremes x = extremes(c);
  std::vector<std::pair<std::vector<unsigned>, std::vector<unsigned>>> out;
  auto blank = [&] { return std::make_pair(std::vector<unsigned>(size_t(k), 0), std::vector<unsigned>(size_t(k), 0)); };
  {  // a single negative minimal product (signs of zeros)
    auto p = blank();
    p.first[0] = x.amin | x.aSign;
    p.second[0] = x.bmin;
    out.push_back(p);
  }
  if (k >= 2) {  // two minimal products (subnormal rounding)
    auto p = blank();
    p.first[0] = p.first[1] = x.amin;
    p.second[0] = p.second[1] = x.bmin;
    out.push_back(p);
  }
  {  // maximal a times zero (overflowing scalings give NaN)
    auto p = blank();
    p.first[0] = x.amax;
    out.push_back(p);
    auto q = blank();
    q.second[0] = x.bmax;
    out.push_back(q);
  }
  if (k >= 2) {  // max and -max
    auto p = blank();
    p.first[0] = x.amax;
    p.first[1] = x.amax | x.aSign;
    p.second[0] = p.second[1] = x.bmax;
    out.push_back(p);
  }
  {  // every non-root subtree at maximal products, every other leaf at the negated maximum:
     // the subtree overflows in `pre` while the whole sum stays finite in `post`
    auto lu = leavesUnder(c.tree);
    for (size_t n = 0; n + 1 < c.tree.nodes().size(); ++n) {
      if (c.tree.nodes()[n].leaf >= 0) continue;
      auto p = blank();
      for (int i = 0; i < k; ++i) {
        const bool in = std::find(lu[n].begin(), lu[n].end(), i) != lu[n].end();
        p.first[size_t(i)] = in ? x.amax : (x.amax | x.aSign);
        p.second[size_t(i)] = x.bmax;
      }
      out.push_back(p);
    }
  }
  int big = largestNonRoot(c.tree);
  if (big >= 0) {
    auto lu = leavesUnder(c.tree);
    std::vector<bool> in(size_t(k), false);
    for (int l : lu[size_t(big)]) in[size_t(l)] = true;
    auto all = blank(), one = blank();
    bool first = true;
    for (int i = 0; i < k; ++i) {
      all.second[size_t(i)] = one.second[size_t(i)] = x.bmax;
      all.first[size_t(i)] = in[size_t(i)] ? x.amax : (x.amax | x.aSign);
      one.first[size_t(i)] = in[size_t(i)] ? x.amax : 0;
      if (!in[size_t(i)]) {
        one.second[size_t(i)] = 0;
        if (first) {
          one.first[size_t(i)] = x.amax | x.aSign;
          one.second[size_t(i)] = x.bmax;
          first = false;
        }
      }
    }
    out.push_back(all);
    out.push_back(one);
  }
  for (int n = 1; n <= k; ++n) {  // n maximal products
    auto p = blank();
    for (int i = 0; i < n; ++i) {
      p.first[size_t(i)] = x.amax;
      p.second[size_t(i)] = x.bmax;
    }
    out.push_back(p);
  }
  // Products of every magnitude: for each binade of the exact products, its largest and its
  // smallest product P, (1) alone, (2) as P and -P (post's sum cancels to 0 while pre's scaled
  // P overflows: NaN), and (3) P in every leaf of the largest non-root subtree against -P in
  // the others (the subtree's scaled sum overflows in pre while post's cancels), and under rtz
  // (4) P beside the smallest product of the other sign (see there). Where the
  // largest product overflows the accumulator (f16: e4m3 and e5m2 products), the thresholds
  // in e lie at the products that still fit, which the maximal patterns above do not reach;
  // without a closed form these patterns refute most lines before any solver query.
  {
    std::map<int64_t, std::pair<std::pair<Integer, std::pair<unsigned, unsigned>>,
                                std::pair<Integer, std::pair<unsigned, unsigned>>>> binades;  // lo, hi
    for (const auto &[t, codes] : distinctProducts(c, std::numeric_limits<size_t>::max())) {
      if (t.N.isZero()) continue;
      // Magnitudes compared in units of the smallest product quantum 2^qab.
      const int64_t shift = t.X.toInt64() - int64_t(c.a.quantumExp() + c.b.quantumExp());
      if (shift < 0) continue;
      const Integer mag = t.N << unsigned(shift);
      const int64_t bin = int64_t(t.N.msb()) + t.X.toInt64();
      auto it = binades.find(bin);
      if (it == binades.end()) {
        binades[bin] = {{mag, codes}, {mag, codes}};
        continue;
      }
      if (mag < it->second.first.first) it->second.first = {mag, codes};
      if (it->second.second.first < mag) it->second.second = {mag, codes};
    }
    std::vector<bool> inBig(size_t(k), false);
    if (big >= 0) {
      const auto lu = leavesUnder(c.tree);
      for (int l : lu[size_t(big)]) inBig[size_t(l)] = true;
    }
    // The smallest nonzero product (its codes), for (4) below.
    const std::pair<unsigned, unsigned> smallest =
        binades.empty() ? std::make_pair(0u, 0u) : binades.begin()->second.first.second;
    for (const auto &[bin, lohi] : binades)
      for (const auto &[mag, codes] : {lohi.first, lohi.second}) {
        (void)mag;
        const auto [ca, cb] = codes;
        auto one = blank();
        one.first[0] = ca;
        one.second[0] = cb;
        out.push_back(one);
        if (k >= 2) {
          auto pm = one;
          pm.first[1] = ca | x.aSign;
          pm.second[1] = cb;
          out.push_back(pm);
        }
        if (k >= 2 && c.acc.rounding == Rounding::RTZ) {
          // (4) P against the smallest product of the other sign: rtz saturates an
          // overflowing scaled P at the largest finite value, from which pre then takes the
          // small product off, while post's sum P - Q overflows after its scaling and
          // saturates: the values differ (e2m1 k = 32 fused f32 pre/post value: 0.25 against
          // -36 at e >= 123, which the unrolled query took 5-30 s or more to find).
          auto pq = one;
          pq.first[1] = smallest.first | x.aSign;
          pq.second[1] = smallest.second;
          out.push_back(pq);
        }
        if (big >= 0) {
          auto sub = blank();
          for (int i = 0; i < k; ++i) {
            sub.first[size_t(i)] = inBig[size_t(i)] ? ca : (ca | x.aSign);
            sub.second[size_t(i)] = cb;
          }
          out.push_back(sub);
        }
      }
  }
  // The zero block (+0 in every leaf): post2's scale factor rnd(2^sb) is an infinity where sb
  // lies above the accumulator's emax (f16: sb >= 16), and post2's zero tree value times it
  // is NaN, while pre, post and dequant give +0 (dequant's rnd(2^sb 0) is +0). Every other
  // input above has a nonzero product, whose infinities on the other sides hide this (e4m3 x
  // e3m2 k = 32 fused f16 ftz post2/dequant: 13,873 pairs at xa >= 135, xb >= 139 were left
  // to unrolled 32-leaf queries, one of which ran out of 52 s).
  out.push_back(blank());
  // An infinite element (e5m2's) beside the other side's smallest and largest positive
  // element, +0 elsewhere. post2's tree value is then an infinity, which its scaling by a +0
  // factor (rnd(2^s) = +0: s below the accumulator's range, or flushed under ftz) makes NaN,
  // while dequant's leaf rnd(2^sa inf) rnd(2^sb b) stays infinite where the other factor does
  // not round to zero (the largest b), and is NaN where it does (the smallest b) while post2's
  // factors may both be nonzero; pre's and post's results stay infinite. Every input above
  // is finite, so these pairs were left to unrolled k-leaf queries (e5m2 x e2m3 k = 32 fused
  // bf16 rtz ftz post2/dequant value: the pair xa = xb = 0 and the edges xa = 0, xb = 0).
  {
    ConcreteDomain d;
    auto infCode = [&](const ElementFormat &f) -> std::optional<unsigned> {
      if (!f.hasInf()) return std::nullopt;
      for (unsigned code = 1; code < f.numCodes() / 2; ++code) {
        const CVal v = decodeElement(d, f, Integer(int64_t(code)));
        if (v.inf && !v.nan) return code;
      }
      return std::nullopt;
    };
    if (const std::optional<unsigned> ia = infCode(c.a))
      for (unsigned cb : {x.bmin, x.bmax}) {
        auto p = blank();
        p.first[0] = *ia;
        p.second[0] = cb;
        out.push_back(p);
      }
    if (const std::optional<unsigned> ib = infCode(c.b))
      for (unsigned ca : {x.amin, x.amax}) {
        auto p = blank();
        p.first[0] = ca;
        p.second[0] = *ib;
        out.push_back(p);
      }
  }
  return out;
}

/// Single products for pre/dequant (docs/solver.md, "The table engine", step 2): a block with
/// one leaf (a, b) and +0 elsewhere. By the shared-root rule the placements differ only where
/// some leaf differs, and a lone differing leaf beside +0 leaves shows at the root, so where
/// any element pair's leaves differ, one of these inputs refutes the pair. dequant's leaf
/// rnd(rnd(2^sa a) rnd(2^sb b)) equals pre's rnd(2^e a b) whenever both scalings are exact, so
/// only pairs with an inexact scaling of a at sa (or of b at sb) are candidates: the codes
/// whose dequantized element is rounded, flushed, saturated or read as zero (DAZ), computed
/// once per scale code. Every positive finite code is tried (no sample).
class SingleProducts {
public:
  explicit SingleProducts(const PairQuery &q) : q_(q) {
    ConcreteDomain d;
    auto positives = [&](const ElementFormat &f, std::vector<unsigned> &codes, std::vector<CVal> &vals) {
      for (unsigned code = 1; code < f.numCodes() / 2; ++code) {
        CVal v = decodeElement(d, f, Integer(int64_t(code)));
        if (v.nan || v.inf) continue;
        codes.push_back(code);
        vals.push_back(std::move(v));
      }
    };
    positives(q.cfg.a, codesA_, valsA_);
    positives(q.cfg.b, codesB_, valsB_);
    inexactA_.resize(size_t(kNumCodes));
    inexactB_.resize(size_t(kNumCodes));
    const bool daz = q.cfg.acc.subnormals == Subnormals::DAZ;
    keysA_ = LeafKeys(valsA_, daz, q.cfg.acc.fmt.emin());
    keysB_ = LeafKeys(valsB_, daz, q.cfg.acc.fmt.emin());
    const size_t cells = size_t(keysA_.count()) * size_t(keysB_.count());
    known_.assign((cells + 63) / 64, 0);
    differs_.assign((cells + 63) / 64, 0);
    firstB_.assign(size_t(keysA_.count()) * size_t(kNumCodes), kUnknown);
    firstA_.assign(size_t(keysB_.count()) * size_t(kNumCodes), kUnknown);
  }

  /// A confirmed single-product witness at (xa, xb), if one exists: the first leaf (a, b) in
  /// the order below whose two values differ and whose input differs at the root.
  std::optional<Witness> witness(int xa, int xb) {
    ConcreteDomain d;
    const Scales<ConcreteDomain> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
    const int sa = xa - ScaleCode::kBias, sb = xb - ScaleCode::kBias;
    const std::vector<size_t> &ia = inexact(inexactA_[size_t(xa)], valsA_, s.sa);
    const std::vector<size_t> &ib = inexact(inexactB_[size_t(xb)], valsB_, s.sb);
    auto leafDiffers = [&](size_t i, size_t j) { return differs(i, j, sa, sb, s); };
    auto confirmed = [&](size_t i, size_t j) -> std::optional<Witness> {
      Witness w{std::vector<unsigned>(size_t(q_.cfg.k()), 0), std::vector<unsigned>(size_t(q_.cfg.k()), 0), xa, xb, {}};
      w.a[0] = codesA_[i];
      w.b[0] = codesB_[j];
      if (!witnessDisagrees(q_, w.a, w.b, xa, xb)) return std::nullopt;
      return w;
    };
    // Every a whose scaling at sa is inexact, with every b (in code order); then every b whose
    // scaling at sb is inexact, with every a. The first b (a) whose leaf differs depends only on
    // a's (b's) key and the other side's scale code, so it is remembered (firstB_, firstA_).
    // `outer` indexes side A's values when aOuter, else side B's; m the other side's.
    auto search = [&](const std::vector<size_t> &outer, bool aOuter) -> std::optional<Witness> {
      const LeafKeys &keys = aOuter ? keysA_ : keysB_;
      std::vector<int16_t> &firsts = aOuter ? firstB_ : firstA_;
      const int sc = aOuter ? sa : sb, otherCode = aOuter ? xb : xa;
      const size_t n = aOuter ? valsB_.size() : valsA_.size();
      auto differ = [&](size_t o, size_t m) { return aOuter ? leafDiffers(o, m) : leafDiffers(m, o); };
      for (size_t o : outer) {
        int16_t &first = firsts[size_t(keys.key(o, sc)) * size_t(kNumCodes) + size_t(otherCode)];
        if (first == kUnknown) first = firstOf(n, [&](size_t m) { return differ(o, m); });
        if (first == kNone) continue;
        for (size_t m = size_t(first); m < n; ++m)
          if (differ(o, m))
            if (auto w = aOuter ? confirmed(o, m) : confirmed(m, o)) return w;
      }
      return std::nullopt;
    };
    if (auto w = search(ia, true)) return w;
    return search(ib, false);
  }

private:
  static constexpr int16_t kUnknown = -2, kNone = -1;

  /// What a leaf's two placement values depend on, for one side: the element's value times
  /// 2^s, i.e. (N, X + s) for the element N 2^X at scale exponent s (pre's leaf rnd(2^e a b)
  /// and dequant's rnd(2^s a) read nothing else), and under DAZ whether s < emin (dequant
  /// then reads the factor as zero). key(i, s) numbers these classes densely.
  struct LeafKeys {
    LeafKeys() = default;
    LeafKeys(const std::vector<CVal> &vals, bool daz, int emin) : daz_(daz), emin_(emin) {
      std::vector<Integer> sigs;
      for (const CVal &v : vals) {
        auto it = std::find(sigs.begin(), sigs.end(), v.N);
        sig_.push_back(int(it - sigs.begin()));
        if (it == sigs.end()) sigs.push_back(v.N);
        x_.push_back(int(v.X.toInt64()));
      }
      nSig_ = int(sigs.size());
      minX_ = x_.empty() ? 0 : *std::min_element(x_.begin(), x_.end());
      const int maxX = x_.empty() ? 0 : *std::max_element(x_.begin(), x_.end());
      // X + s - minX + kBias lies in [0, maxX - minX + 2 kBias] for s in [-kBias, kBias].
      range_ = maxX - minX_ + 2 * ScaleCode::kBias + 1;
    }
    int key(size_t i, int s) const {
      const int k = sig_[i] * range_ + (x_[i] + s - minX_ + ScaleCode::kBias);
      return daz_ ? 2 * k + (s < emin_ ? 1 : 0) : k;
    }
    int count() const { return nSig_ * range_ * (daz_ ? 2 : 1); }

  private:
    bool daz_ = false;
    int emin_ = 0;
    std::vector<int> sig_, x_;
    int nSig_ = 0, minX_ = 0, range_ = 1;
  };

  /// Whether the leaf (valsA_[i], valsB_[j])'s two placement values differ at (sa, sb),
  /// remembered per pair of keys.
  bool differs(size_t i, size_t j, int sa, int sb, const Scales<ConcreteDomain> &s) {
    const size_t cell = size_t(keysA_.key(i, sa)) * size_t(keysB_.count()) + size_t(keysB_.key(j, sb));
    const uint64_t bit = uint64_t(1) << (cell % 64);
    if (known_[cell / 64] & bit) return (differs_[cell / 64] & bit) != 0;
    const bool differ = leafValuesDiffer(q_, valsA_[i], valsB_[j], s);
    known_[cell / 64] |= bit;
    if (differ) differs_[cell / 64] |= bit;
    return differ;
  }

  /// The first index in [0, n) where f holds, or kNone.
  template <class F> static int16_t firstOf(size_t n, F f) {
    for (size_t i = 0; i < n; ++i)
      if (f(i)) return int16_t(i);
    return kNone;
  }

  /// The indices of `vals` whose dequantized element at scale sc is not 2^sc v exactly
  /// (cached in `slot`).
  const std::vector<size_t> &inexact(std::optional<std::vector<size_t>> &slot, const std::vector<CVal> &vals,
                                     const Integer &sc) {
    if (!slot) {
      ConcreteDomain d;
      slot.emplace();
      for (size_t i = 0; i < vals.size(); ++i) {
        const CVal exact = scaleExact(d, vals[i], sc);
        if (!related(d, dequantElement(d, q_.cfg.acc, vals[i], sc), exact, Relation::Bitwise)) slot->push_back(i);
      }
    }
    return *slot;
  }

  const PairQuery &q_;
  std::vector<unsigned> codesA_, codesB_;
  std::vector<CVal> valsA_, valsB_;
  std::vector<std::optional<std::vector<size_t>>> inexactA_, inexactB_;  ///< per scale code
  LeafKeys keysA_, keysB_;
  /// Per pair of keys (a's key * keysB_.count() + b's): whether the comparison is known, and
  /// its result (bit sets).
  std::vector<uint64_t> known_, differs_;
  /// The first b index whose leaf with a's key differs at code xb (a's key * 255 + xb), and
  /// the first a index for b's key at code xa: kUnknown until computed, kNone if none.
  std::vector<int16_t> firstB_, firstA_;
};

/// Restrictions for small counterexample queries, smallest first; the last is "all free".
/// (1) two free leaves, the rest +0; (2) the largest non-root subtree held at maximal
/// products except its last two leaves, which stay free with two leaves outside it (the
/// shape of overflow-then-cancel counterexamples), the rest +0; (3) everything free.
std::vector<LeafFix> restrictions(const ModelConfig &c) {
  const Tree &t = c.tree;
  const int k = t.k();
  const Extremes x = extremes(c);
  const auto zero = std::make_pair(0u, 0u), mx = std::make_pair(x.amax, x.bmax);
  std::vector<LeafFix> out;
  if (k >= 4) {
    LeafFix s(size_t(k), zero);
    s[0] = s[1] = std::nullopt;
    out.push_back(s);
    int big = largestNonRoot(t);
    if (big >= 0) {
      auto lu = leavesUnder(t);
      const auto &in = lu[size_t(big)];
      LeafFix b(size_t(k), zero);
      for (size_t i = 0; i < in.size(); ++i)
        b[size_t(in[i])] = i + 2 < in.size() ? std::optional(mx) : std::nullopt;
      int outside = 0;
      for (int i = 0; i < k && outside < 2; ++i)
        if (std::find(in.begin(), in.end(), i) == in.end()) {
          b[size_t(i)] = std::nullopt;
          ++outside;
        }
      out.push_back(b);
    }
  }
  out.push_back({});  // all leaves free
  return out;
}

/// Inputs made of n copies of one product P (n = 2..k, the rest +0), for every distinct
/// product magnitude, screened cheaply at the region's first pair (each copy rounded alone
/// versus the n-fold sum rounded once) and confirmed by the full evaluator. This finds the
/// counterexamples where individually rounded small products lose what their exact sum
/// keeps (the gap between the value relation's intervals). The screen models pre vs post; for
/// other placements it is only a heuristic, and every candidate is confirmed anyway.
std::optional<Witness> copiesSearch(const PairQuery &q, const Region &r) {
  ConcreteDomain d;
  const int k = q.cfg.k();
  int xa = -1, xb = -1;
  for (int a = r.xa.lo; a <= r.xa.hi && xa < 0; ++a)
    for (int b = r.xb.lo; b <= r.xb.hi; ++b)
      if (r.contains(a, b)) {
        xa = a;
        xb = b;
        break;
      }
  if (xa < 0) return std::nullopt;
  const Integer e(int64_t(xa + xb - 254));
  const auto prods = distinctProducts(q.cfg, 4096);
  for (auto &[t, codes] : prods)
    for (int n = 2; n <= k; ++n) {
      // Screen: n * rnd(2^e t) versus rnd(2^e n t).
      CVal one = roundAcc(d, scaleExact(d, t, e), q.cfg.acc);
      CVal sumOfRounded = roundAcc(d, finiteVal(d, false, one.N * Integer(n), one.X), q.cfg.acc);
      CVal roundedSum = roundAcc(d, scaleExact(d, finiteVal(d, false, t.N * Integer(n), t.X), e), q.cfg.acc);
      if (one.inf || isRelated(sumOfRounded, roundedSum, q.rel)) continue;
      Witness w;
      w.a.assign(size_t(k), 0);
      w.b.assign(size_t(k), 0);
      for (int i = 0; i < n; ++i) {
        w.a[size_t(i)] = codes.first;
        w.b[size_t(i)] = codes.second;
      }
      w.xa = xa;
      w.xb = xb;
      if (witnessDisagrees(q, w.a, w.b, xa, xb)) return w;
    }
  return std::nullopt;
}

bool singlePair(const Region &r) { return r.count() == 1; }

/// The boxes (xa range x xb range, as code sets) inside which every scaling of the two placements keeps one
/// form, so that a region inside a box folds each such scaling to one arm. post2 multiplies by
/// rnd(2^s) for s = x - 127 (models/placement.h, mulRoundedPow2): +0 below the accumulator's
/// quantum 2^lo (lo = emin under ftz and daz), 2^s up to emax, rnd(2^(emax+1)) above. Its
/// first scaling, by 2^sa, of a tree value V on the grid 2^g of the products (g = the sum of
/// the element quanta) moreover never rounds below the accumulator's quantum once
/// sa + g >= lo (it may still overflow), and may below that: a cut at xa = lo - g + 127 too,
/// which keeps the few codes where post2's double rounding in the subnormals can differ
/// (e2m1 f16: xa = 103, 104) out of the regions where it cannot. A region across these lines
/// makes the solver reason through every arm's rounding at once; e2m1 k = 2 f16 rtz
/// post2/post: one root step over both "above" arms and the exact ones took 62 s, its pieces
/// well under half of that. One box (everything) when neither placement is post2. The boxes partition 0..254 x 0..254, so taking regions
/// box by box covers the same pairs.
std::vector<CodeSet> scaleArmBoxes(const PairQuery &q) {
  auto ranges = [](std::vector<int> cuts) {
    std::sort(cuts.begin(), cuts.end());
    std::vector<CodeRange> out;
    int from = 0;
    for (int cut : cuts)
      if (cut > from && cut <= kMaxCode) {
        out.push_back({from, cut - 1});
        from = cut;
      }
    out.push_back({from, kMaxCode});
    return out;
  };
  std::vector<CodeRange> ra{{0, kMaxCode}}, rb{{0, kMaxCode}};
  if (q.lhs == Placement::Post2 || q.rhs == Placement::Post2) {
    const auto [sLo, sHi] = exactPow2Range(q.cfg.acc);
    const int lo = sLo + 127, hi = sHi + 127;  // in codes: s = x - 127
    const int g = q.cfg.a.quantumExp() + q.cfg.b.quantumExp();
    ra = ranges({lo, lo - g, hi + 1});
    rb = ranges({lo, hi + 1});
  }
  std::vector<CodeSet> boxes;
  for (const CodeRange &a : ra)
    for (const CodeRange &b : rb) {
      Region r;
      r.xa = a;
      r.xb = b;
      boxes.push_back(Guard{{r}}.toSet());
    }
  return boxes;
}

/// The first region of `s` inside the first box of `boxes` that meets it (s nonempty; the
/// boxes partition the code pairs).
Region firstRegionByBox(const CodeSet &s, const std::vector<CodeSet> &boxes) {
  for (const CodeSet &box : boxes) {
    const CodeSet inBox = s.intersect(box);
    if (inBox.count() > 0) return Guard::fromSet(inBox).regions.front();
  }
  return Guard::fromSet(s).regions.front();
}

/// The largest block whose fixed non-binary tree (other than a root over leaves alone, such as
/// fused: kFusedUnrolledFirstMaxK) goes to the unrolled query before the induction when a
/// closed form predicts the table (runSolverTable; measured, see there).
constexpr int kUnrolledFirstMaxK = 8;
/// The same for a tree whose root has only leaves as children (fused): its induction has a
/// class of its own (everyTreeConfig), and the unrolled query first pays only while it is small.
constexpr int kFusedUnrolledFirstMaxK = 4;

/// A first try of the exhaustive prediction (SolverTableOptions::exhaustiveSeedFirstSeconds)
/// that by the share of groups it reached ends within this many times its budget runs on.
constexpr double kSeedFirstStretch = 5;

/// The e-band prediction (runSolverTable, bandPredict): the lines e0 - 4 m .. e0 + 4 m around
/// a satisfiable query's witness at e0, else e0 - m .. e0 + m, else e0 alone, the widest that
/// fits its time. Pairs that differ cluster within a few tens of lines (e4m3 x e2m1 k = 1 f16
/// dequant/post value: e = -36..-18), and a band costs about its pairs' share of an exhaustive
/// run (there, with a first version that widened the satisfiable region's e range instead:
/// 14.8 s with a margin of 4 alone, two bands; 9.6 s with 16 first, one band).
constexpr int kBandMargin = 4;

/// How often a region whose induction hit an encoding limit is halved before the unrolled
/// query decides it (at most 2^6 pieces of one region).
constexpr int kInductionSplitDepth = 6;

/// The most concrete root-step evaluations (code pairs times abstract sums) one scan near a
/// root-step witness may spend (rootStepScan): about 1.6 s on this project's 2-core machine
/// (e2m1 at k = 32 in f16: 3,202 sums per pair, so 1,249 pairs; e4m3 in bf16: 4,482, so 892).
constexpr long kRootScanEvaluations = 4'000'000;

/// The most rounds of kRootScanEvaluations one scan near a root-step witness may take, each
/// after one that found witnesses (runSolverTable, scanRootStep). e5m2 x e2m1 k = 32 f16 rne
/// seq post2/post value: the region xa:103..119,xb:103..127 differs at 117 of its 425 pairs,
/// about the half with the larger xb; one round found 47 of them, and the rest of the
/// region, taken apart around the others, cost 13 further inductions of about 5 s each
/// (78 s in all); four rounds found 117 in 4.4 s, and the table took 24 s.
constexpr int kRootScanRounds = 4;

/// The largest region (in code pairs) scanned on concrete values before its induction with
/// the whole kRootScanEvaluations.
constexpr long kRootScanFirstPairs = 64;

/// The largest region (in code pairs) scanned before its induction at all, and that scan's
/// budget above kRootScanFirstPairs: about 0.4 s here. e2m3 x e3m2 k = 32 bf16 post2/post
/// value: the line xa = 0, xb = 0..127 (128 pairs) gives 6 witnesses in 0.18 s, where its
/// root step took 12-22 s to find the first; a region that agrees (e4m3 x e2m1 f16 ftz
/// post2/post: 150 pairs) loses at most the budget.
constexpr long kRootScanFirstWidePairs = 256;
constexpr long kRootScanFirstWideEvaluations = 1'000'000;

/// A region larger than kRootScanFirstWidePairs is first sampled: the root step on concrete
/// values at up to kRootScanSamplePairs of its pairs spread over it (a multiplicative hash
/// orders them), within kRootScanSampleEvaluations; where that finds a witness, the whole scan
/// runs nearest it, and the induction, whose root step would fail there, is not tried until
/// the region changes. e5m2 x e2m1 k = 2 f16 post2/post value: the box xa:103..119,
/// xb:103..127 (425 pairs, 142 of them differing, at the larger xb) failed its root step
/// after 4.7-6 s, where the sample takes a few hundredths of a second; a region that agrees
/// loses at most the sample's budget.
constexpr size_t kRootScanSamplePairs = 16;
constexpr long kRootScanSampleEvaluations = 250'000;

/// The most failing leaves (failingLeaves, the largest errors) tried in leafStepInputs's
/// inputs at a failed leaf step's code pair when the model's own leaf gave no witness: at
/// most 16 (k + k / 2 + k - 1) reference evaluations (1,264 at k = 32).
constexpr size_t kLeafScanLeaves = 16;

/// Orders code pairs by their distance |xa - cxa| + |xb - cxb| to (cxa, cxb), nearest first
/// (stable: pairs at the same distance keep their order).
void sortNearest(std::vector<std::pair<int, int>> &pairs, int cxa, int cxb) {
  std::stable_sort(pairs.begin(), pairs.end(), [&](const auto &x, const auto &y) {
    return std::abs(x.first - cxa) + std::abs(x.second - cxb) < std::abs(y.first - cxa) + std::abs(y.second - cxb);
  });
}

/// After a leaf step's model became a witness, the failing leaves (kLeafScanLeaves of them)
/// are tried at one pair of each of at most kLeafLineScanGroups other undecided code groups of
/// the region, nearest the witness first, within kLeafLineScanSeconds (runSolverTable).
constexpr size_t kLeafLineScanGroups = 64;
constexpr double kLeafLineScanSeconds = 0.5;

/// Structured inputs past a sample: over at least kStructuredSampleMin undecided code groups,
/// an input is evaluated first on the groups of a pseudo-random sample, about one in
/// kStructuredSampleStride (inStructuredSample), and on the rest only where it refutes one of
/// those. Most inputs refute nothing (e2m1 x e4m3 k = 32 f16 rtz post2/dequant value: 8 of
/// 246 over 64,739 groups), and each cost a whole pass over the groups. The inputs the
/// sample leaves are evaluated on the frontier of the refuted pairs after all (runSolverTable);
/// one whose disagreements miss both is not used, and a solver query finds those pairs
/// instead (its counterexample refutes every undecided group it disagrees on, as always).
constexpr size_t kStructuredSampleMin = 4096;
constexpr uint64_t kStructuredSampleStride = 16;

/// Whether group gi is in the structured inputs' sample: a multiplicative hash, so that the
/// sample is spread over every order of the groups (a stride in index order would keep whole
/// diagonals of (xa, xb) out).
bool inStructuredSample(size_t gi) {
  return ((uint64_t(gi) * 0x9E3779B97F4A7C15ull) >> 40) % kStructuredSampleStride == 0;
}

}  // namespace

std::vector<std::pair<std::vector<unsigned>, std::vector<unsigned>>> structuredInputs(const ModelConfig &c) {
  return patterns(c);
}

namespace {
/// One query (a whole block, or an induction step when sq.step is set) on `region`.
/// The encoding of sq, or none with rc saying why (the deadline, an encoding limit).
std::unique_ptr<smt::LiaEncoding> encodeQuery(const PairQuery &q, const smt::Query &sq, RegionCheck &rc) {
  if (q.budget && q.budget->passed()) {
    rc.verdict = smt::Verdict::Unknown;
    rc.reason = q.budget->stopReason();
    rc.final = true;
    return nullptr;
  }
  try {
    return std::make_unique<smt::LiaEncoding>(sq);
  } catch (const EncodingLimit &e) {
    rc.verdict = smt::Verdict::Unknown;
    rc.reason = std::string("encoding too large: ") + e.what();
    rc.tooLarge = true;
  } catch (const smt::BudgetExceeded &e) {
    rc.verdict = smt::Verdict::Unknown;
    rc.reason = e.what();
    // The deadline, or the term cap: a query's size depends on k and the tree far more than
    // on the region, so a smaller region would not fit either.
    rc.final = true;
  }
  return nullptr;
}

/// What the solver's answer r on the encoding `enc` of sq means: a proof record (unsat, the
/// analysis' claims checked), a confirmed counterexample (sat), a failed induction step with
/// its model, or unknown with the reason.
RegionCheck interpretAnswer(const PairQuery &q, const smt::Query &sq, const Region &region, smt::Backend &backend,
                            const smt::LiaEncoding *enc, smt::CheckResult r, bool keepText) {
  RegionCheck rc;
  rc.seconds = r.seconds;
  rc.verdict = r.verdict;
  rc.reason = r.reason;
  rc.final = r.verdict == smt::Verdict::Unknown && (r.exhausted || (q.budget && q.budget->passed()));
  if (r.verdict == smt::Verdict::Sat && q.obligations && r.phase > 0) {
    // A fact of the analysis is not proven (its local statement has a model): no proof.
    rc.verdict = smt::Verdict::Unknown;
    rc.reason = "a fact of the analysis is not proven: " + enc->phaseDescription(r.phase);
    return rc;
  }
  if (r.verdict == smt::Verdict::Sat && sq.step) {
    // Abstract subtree values on which the step fails: the invariant does not carry over
    // here (which is no counterexample: such values need not come from any input).
    rc.verdict = smt::Verdict::Unknown;
    rc.reason = std::string("the ") + toString(*sq.step) + " step of the invariant (" + sq.inv.str(q.lhs, q.rhs) +
                ") does not hold";
    rc.stepModel = std::move(r.model);
    return rc;
  }
  if (r.verdict == smt::Verdict::Sat) {
    ConcreteInput in = enc->inputFromModel(r.model);
    const bool inRegion =
        sq.nv ? sq.nv->contains(int(in.xa), int(in.xb)) : region.contains(int(in.xa), int(in.xb));
    if (!inRegion ||
        !witnessDisagrees(q, in.a, in.b, int(in.xa), int(in.xb))) {
      if (q.obligations) {
        // The encoding differs from the semantics on this model: some decision or fact of
        // the analysis is wrong (the facts are proven only after the goal's phase).
        rc.verdict = smt::Verdict::Unknown;
        std::vector<std::string> bad = smt::checkAbstraction(enc->store(), 1);
        std::vector<std::string> failed;
        if (bad.empty()) failed = enc->failedFacts(r.model);
        rc.reason = "the solver's model does not replay: " +
                    (!bad.empty() ? "the analysis' claims do not check (" + bad[0] + ")"
                     : !failed.empty() ? "a fact of the analysis fails on it (" + failed[0] + ")"
                                       : std::string("no fact fails on it"));
        return rc;
      }
      throw std::logic_error("solver model does not replay in the reference evaluator (region " +
                             (sq.nv ? sq.nv->str() : region.str()) + ", " + backend.name() + ")");
    }
    rc.cex = in;
  } else if (r.verdict == smt::Verdict::Unsat) {
    if (q.obligations) {
      const std::vector<std::string> bad = smt::checkAbstraction(enc->store(), 1);
      if (!bad.empty()) {
        rc.verdict = smt::Verdict::Unknown;
        rc.reason = "the analysis' claims do not check: " + bad[0];
        return rc;
      }
    }
    const std::string text = enc->smtlib2();
    rc.proof.region = region;
    rc.proof.nv = sq.nv;
    rc.proof.solver = backend.name();
    rc.proof.solverVersion = backend.version();
    rc.proof.seconds = r.seconds;
    rc.proof.sha256 = certs::sha256Hex(text);
    rc.proof.bytes = text.size();
    rc.proof.constantFalse = enc->constantFalse();
    rc.proof.obligations = q.obligations;
    rc.proof.phases = enc->store().phaseCount();
    rc.proof.facts = enc->facts();
    rc.proof.decisions = enc->decisions();
    rc.proof.step = sq.step;
    rc.proof.inv = sq.inv;
    if (keepText) rc.proof.smt2 = text;
  }
  return rc;
}

RegionCheck checkQuery(const PairQuery &q, const smt::Query &sq, const Region &region, smt::Backend &backend,
                       double timeoutSec, bool keepText) {
  RegionCheck rc;
  const std::unique_ptr<smt::LiaEncoding> enc = encodeQuery(q, sq, rc);
  if (!enc) return rc;
  smt::CheckResult r = backend.check(enc->store(), smt::Budget::limitFor(q.budget, timeoutSec));
  return interpretAnswer(q, sq, region, backend, enc.get(), std::move(r), keepText);
}
}  // namespace

RegionCheck checkRegion(const PairQuery &q, const Region &region, smt::Backend &backend,
                        double timeoutSec, const LeafFix &fixed, bool keepText) {
  smt::Query sq{q.cfg, q.lhs, q.rhs, q.rel, region, fixed, q.budget, q.obligations, q.fault, {}, {}, {}};
  return checkQuery(q, sq, region, backend, timeoutSec, keepText);
}

RegionCheck checkInductionStep(const PairQuery &q, const Region &region, InductionStep step, const Invariant &inv,
                               smt::Backend &backend, double timeoutSec, bool keepText) {
  smt::Query sq{q.cfg, q.lhs, q.rhs, q.rel, region, {}, q.budget, q.obligations, q.fault, step, inv, {}};
  return checkQuery(q, sq, region, backend, timeoutSec, keepText);
}

std::vector<RegionCheck> checkInductionSteps(const PairQuery &q, const Region &region,
                                             const std::vector<InductionStep> &steps, const Invariant &inv,
                                             smt::Backend &backend, double timeoutSec, bool keepText) {
  std::vector<RegionCheck> out;
  if (steps.empty()) return out;
  // The first step (the leaf step) alone, as before: where it fails, the others, the root
  // step's large query among them, are not even encoded.
  out.push_back(checkInductionStep(q, region, steps[0], inv, backend, timeoutSec, keepText));
  if (out.back().verdict != smt::Verdict::Unsat) return out;
  // The others encoded (up to one that cannot be), then checked together.
  std::vector<smt::Query> sqs;
  std::vector<std::unique_ptr<smt::LiaEncoding>> encs;
  std::optional<RegionCheck> notEncoded;
  for (size_t i = 1; i < steps.size(); ++i) {
    sqs.push_back(smt::Query{q.cfg, q.lhs, q.rhs, q.rel, region, {}, q.budget, q.obligations, q.fault, steps[i], inv, {}});
    RegionCheck rc;
    encs.push_back(encodeQuery(q, sqs.back(), rc));
    if (!encs.back()) {
      encs.pop_back();
      notEncoded = std::move(rc);
      break;
    }
  }
  std::vector<const smt::TermStore *> stores;
  for (const auto &e : encs) stores.push_back(&e->store());
  std::vector<smt::CheckResult> answers = backend.checkAll(stores, smt::Budget::limitFor(q.budget, timeoutSec));
  for (size_t i = 0; i < answers.size(); ++i) {
    out.push_back(interpretAnswer(q, sqs[i], region, backend, encs[i].get(), std::move(answers[i]), keepText));
    if (out.back().verdict != smt::Verdict::Unsat) return out;
  }
  if (notEncoded) out.push_back(std::move(*notEncoded));
  return out;
}

RegionCheck checkNvfp4Region(const PairQuery &q, const Nvfp4Region &region, smt::Backend &backend,
                             double timeoutSec, const LeafFix &fixed, bool keepText) {
  smt::Query sq{q.cfg, q.lhs, q.rhs, q.rel, Region{}, fixed, q.budget, q.obligations, q.fault, {}, {}, region};
  return checkQuery(q, sq, Region{}, backend, timeoutSec, keepText);
}

std::string anyOrderUnsupported(const PairQuery &q) {
  if (q.cfg.nvfp4()) return "nvfp4 (e4m3 scales are no powers of two; the invariant scales by 2^e)";
  return "";
}

std::vector<Invariant> candidateInvariants(const PairQuery &q) {
  ConcreteDomain d;
  Invariant inv;
  auto scaled = [](Placement p) { return p == Placement::Pre || p == Placement::Dequant; };
  // The base: post where exactly one side is post; post2 beside pre or dequant (whichever side
  // it is on, so that pre/post2 gets the invariants of post2/pre, mode zero included); else lhs.
  inv.baseIsRhs = (q.lhs != Placement::Post && q.rhs == Placement::Post) ||
                  (scaled(q.lhs) && q.rhs == Placement::Post2);
  const Placement base = inv.baseIsRhs ? q.rhs : q.lhs, other = inv.baseIsRhs ? q.lhs : q.rhs;
  inv.grid = q.cfg.a.quantumExp() + q.cfg.b.quantumExp();
  // U: the largest finite |rnd(a b)| in units of 2^g (the leaf step proves that it bounds the
  // base's leaves; for a scaled base this is their bound at e = 0).
  inv.unit = Integer(0);
  for (unsigned ca = 0; ca < q.cfg.a.numCodes(); ++ca)
    for (unsigned cb = 0; cb < q.cfg.b.numCodes(); ++cb) {
      CVal a = decodeElement(d, q.cfg.a, Integer(int64_t(ca))), b = decodeElement(d, q.cfg.b, Integer(int64_t(cb)));
      CVal r = roundAcc(d, mulExact(d, a, b), q.cfg.acc);
      if (r.nan || r.inf || r.N.isZero()) continue;
      const int64_t shift = r.X.toInt64() - inv.grid;
      if (shift < 0) continue;  // below the grid: the leaf step fails, as it must
      inv.unit = max(inv.unit, r.N * Integer::pow2(unsigned(shift)));
    }
  // The node step needs rnd(S) <= n U for every exact sum |S| <= n U (n <= k): true when n U
  // itself is representable (rounding is monotone), false in general otherwise (bf16, e2m1:
  // U = 144, 31 U = 4464 has 9 significant bits and rounds up to 4480). Where some n U is not
  // representable, U is rounded up to the smallest value with a short odd part for which every
  // n U is: U rounded up to b significant bits, for each b from p down to p - L (L = the bits
  // of k; at p - L bits every n U has at most p bits), the least one that passes. A larger U
  // only weakens the invariant (the steps decide whether it still proves the region), and a
  // tighter one keeps k U below the lines the root step needs (e5m2 bf16: U = 3.0625 2^30;
  // p - L bits give 2^32, over which 32 U reaches bf16's smallest subnormal at e = -170,
  // where the closed form has every product round to zero; 3 bits give 3.5 2^30, and the
  // root step holds). No-op in f32.
  {
    auto representable = [&](const Integer &units) {
      CVal v = finiteVal(d, false, units, Integer(int64_t(inv.grid)));
      CVal r = roundAcc(d, v, q.cfg.acc);
      return !r.inf && !r.nan && related(d, r, v, Relation::Bitwise);
    };
    auto allRepresentable = [&](const Integer &u) {
      for (int n = 1; n <= q.cfg.k(); ++n)
        if (!representable(u * Integer(n))) return false;
      return true;
    };
    if (inv.unit.sign() > 0 && !allRepresentable(inv.unit)) {
      int L = 0;
      while ((1 << L) <= q.cfg.k()) ++L;
      const int keep = q.cfg.acc.fmt.p - L;
      const int width = int(inv.unit.msb()) + 1;  // U < 2^width
      std::optional<Integer> best;
      for (int bits = std::min(q.cfg.acc.fmt.p, width - 1); bits >= std::max(keep, 1); --bits) {
        const unsigned sh = unsigned(width - bits);
        // U rounded up to a multiple of 2^sh: an odd part of at most `bits` bits (or 2^width).
        const Integer up = ((inv.unit + Integer::pow2(sh) - Integer(1)) >> sh) << sh;
        if ((!best || up < *best) && allRepresentable(up)) best = up;
      }
      if (best) inv.unit = *best;
    }
  }
  std::vector<Invariant> out;
  if (base == other || (scaled(base) && scaled(other))) {
    // The same scale on both sides: equal values where the leaves are equal.
    Invariant eq = inv;
    eq.mode = InvariantMode::Equal;
    out.push_back(eq);
  }
  out.push_back(inv);
  // Mode zero: everything on O's side rounds away, so O carries the scale (pre or dequant) and
  // the base does not (post, or post2, whose leaves are post's; e2m1 k = 2 f32 rtz pre/post2
  // value: where pre's leaves all truncate to zero, e <= -156, the scaled invariant's leaf
  // step fails and the unrolled query took 7.7 s).
  const bool zeroApplies = (base == Placement::Post || base == Placement::Post2) && scaled(other);
  if (zeroApplies) {
    Invariant zero = inv;
    zero.mode = InvariantMode::Zero;
    out.push_back(zero);
    // And where an element is an infinity, mode zero with infinities as NaN
    // (Invariant::infAsNaN): where O's scale rounds to +0, 0 * inf = NaN on O's side where
    // B's leaf is the infinity, and post2's own +0 scale makes B's NaN at the root.
    // proveAnyOrder tries it only after mode zero failed at its leaf step on an infinity.
    if (q.cfg.a.hasInf() || q.cfg.b.hasInf()) {
      Invariant infNaN = zero;
      infNaN.infAsNaN = true;
      out.push_back(infNaN);
    }
  }
  // Last, the scaled invariant without infinities (Invariant::noInf), where no element is an
  // infinity (its leaf step proves the products finite, its node step the rounded sums): a
  // region the others prove keeps their proofs; one where the scaled invariant's root step
  // failed on an infinite tree value (post2's +0 scaling makes it NaN, post keeps it) may now
  // be proven. proveAnyOrder tries it only after such a failure.
  if (!q.cfg.a.hasInf() && !q.cfg.b.hasInf()) {
    Invariant finite = inv;
    finite.noInf = true;
    out.push_back(finite);
    // And mode zero without infinities, for the same reason: where rnd(2^sa) is +0 (the base
    // post2 with sa below the accumulator's range), the zero invariant's root step fails on an
    // infinite tree value (post2's NaN against dequant's infinity) that no input reaches
    // (e2m3 x e2m1 k = 32 fused f16 ftz post2/dequant value, xa <= 112: the scaled invariant's
    // leaf step fails there, and the unrolled 32-leaf queries took 2-30 s per region).
    if (zeroApplies) {
      Invariant zeroFinite = finite;
      zeroFinite.mode = InvariantMode::Zero;
      out.push_back(zeroFinite);
    }
  }
  return out;
}

InductionCheck proveAnyOrder(const PairQuery &q, const Region &region, smt::Backend &backend, double timeoutSec,
                             bool keepText) {
  InductionCheck out;
  // Whether the invariant `inv` less noInf failed at the root step on an infinite tree value
  // (the model's sum or leaf is an infinity, not a NaN): only then is inv (noInf) tried.
  auto failedOnInfinity = [&](const Invariant &inv) {
    Invariant plain = inv;
    plain.noInf = false;
    for (const InductionCheck::FailedStep &f : out.failedSteps) {
      if (!(f.inv == plain)) continue;
      auto flag = [&](const char *n) {
        const auto it = f.model.find(n);
        return it != f.model.end() && it->second.sign() != 0;
      };
      if (f.step == InductionStep::Root && !flag("anyNaN") && (flag("posInf") || flag("negInf"))) return true;
      if (f.step == InductionStep::Root1 && !flag("nan") && flag("inf")) return true;
    }
    return false;
  };
  // Whether the invariant `inv` less infAsNaN failed at its leaf step on an infinite element
  // (the model's code a0 or b0 decodes to an infinity): only then is inv (infAsNaN) tried.
  // Elsewhere it would fail where the plain invariant did (the two differ only in the classes
  // of an infinite B), and trying it cost e5m2 x e2m1 k = 2 bf16 dequant/post value one more
  // failing leaf step per region (8.7 s -> 11-12 s).
  auto failedAtLeafOnInfinity = [&](const Invariant &inv) {
    Invariant plain = inv;
    plain.infAsNaN = false;
    ConcreteDomain cd;
    auto infinite = [&](const std::map<std::string, Integer> &m, const char *name, const ElementFormat &f) {
      const auto it = m.find(name);
      if (it == m.end() || it->second.sign() < 0 || it->second >= Integer(int64_t(f.numCodes()))) return false;
      const CVal v = decodeElement(cd, f, it->second);
      return v.inf && !v.nan;
    };
    for (const InductionCheck::FailedStep &f : out.failedSteps)
      if (f.inv == plain && f.step == InductionStep::Leaf &&
          (infinite(f.model, "a0", q.cfg.a) || infinite(f.model, "b0", q.cfg.b)))
        return true;
    return false;
  };
  for (const Invariant &inv : candidateInvariants(q)) {
    if (inv.noInf && !failedOnInfinity(inv)) continue;
    if (inv.infAsNaN && !failedAtLeafOnInfinity(inv)) continue;
    std::vector<ProofRecord> steps;
    bool ok = true;
    const std::vector<InductionStep> stepList = inductionSteps(q.cfg);
    std::vector<RegionCheck> checks = checkInductionSteps(q, region, stepList, inv, backend, timeoutSec, keepText);
    for (size_t i = 0; i < checks.size(); ++i) {
      const InductionStep st = stepList[i];
      RegionCheck &rc = checks[i];
      ++out.queries;
      out.solverSeconds += rc.seconds;
      if (rc.verdict != smt::Verdict::Unsat) {
        out.reason += (out.reason.empty() ? "" : "; ") + std::string(toString(inv.mode)) + ": " +
                      (rc.reason.empty() ? std::string(toString(st)) + " step " + smt::toString(rc.verdict) : rc.reason);
        out.final = out.final || rc.final;
        out.tooLarge = out.tooLarge || rc.tooLarge;
        if (!rc.stepModel.empty()) out.failedSteps.push_back({st, inv, std::move(rc.stepModel)});
        ok = false;
        break;
      }
      steps.push_back(rc.proof);
    }
    if (ok && steps.size() != stepList.size())
      throw std::logic_error("the induction's steps were not all checked");
    if (ok) {
      out.verdict = smt::Verdict::Unsat;
      out.steps = std::move(steps);
      out.reason.clear();
      return out;
    }
    if (out.final) break;
  }
  out.verdict = smt::Verdict::Unknown;
  return out;
}

CexSearch searchAnyOrderCounterexample(const PairQuery &q, const Region &region, smt::Backend &backend,
                                       double timeoutSec, double witnessTimeoutSec, bool tryPatterns, bool &allUnsat,
                                       const std::function<void(const std::string &)> &log) {
  CexSearch cs;
  allUnsat = true;
  const std::vector<Tree> trees = witnessTrees(q.cfg);
  for (const Tree &t : trees) {
    CexSearch ct = searchCounterexample(withTree(q, t), region, backend, timeoutSec, witnessTimeoutSec, tryPatterns, log);
    cs.queries += ct.queries;
    cs.solverSeconds += ct.solverSeconds;
    if (ct.verdict == smt::Verdict::Sat) {
      cs.verdict = smt::Verdict::Sat;
      cs.witness = ct.witness;
      cs.witness->tree = t.sexpr();
      return cs;
    }
    if (ct.verdict != smt::Verdict::Unsat) {
      allUnsat = false;
      cs.reason += (cs.reason.empty() ? "" : "; ") + ct.reason;
    }
  }
  cs.verdict = smt::Verdict::Unknown;
  if (allUnsat)
    cs.reason = "each of the " + std::to_string(trees.size()) +
                " trees tried agrees (no proof for the other trees)";
  return cs;
}

std::vector<Tree> witnessTrees(const ModelConfig &cfg) {
  const int k = cfg.k();
  std::vector<Tree> out{Tree::seq(k), Tree::pairwise(k)};
  if (!cfg.anyOrder || cfg.anyOrder >= k) out.push_back(Tree::fused(k));
  if (k >= 4 && (!cfg.anyOrder || cfg.anyOrder >= k - 1)) {
    // The first k - 1 leaves fused, then the last: the largest non-root node in one rounding.
    std::string s = "((";
    for (int i = 0; i + 1 < k; ++i) s += (i ? " " : "") + std::to_string(i);
    out.push_back(Tree::parse(s + ") " + std::to_string(k - 1) + ")", k));
  }
  std::vector<Tree> uniq;
  for (const Tree &t : out)
    if (std::find(uniq.begin(), uniq.end(), t) == uniq.end()) uniq.push_back(t);
  return uniq;
}

CexSearch searchCounterexample(const PairQuery &q, const Region &region, smt::Backend &backend,
                               double timeoutSec, double witnessTimeoutSec, bool tryPatterns,
                               const std::function<void(const std::string &)> &log) {
  CexSearch out;
  const Region r = region.tightened();
  if (q.budget && q.budget->passed()) {
    out.verdict = smt::Verdict::Unknown;
    out.reason = q.budget->stopReason();
    return out;
  }
  if (r.count() == 0) {
    RegionCheck rc = checkRegion(q, region, backend, timeoutSec);
    out.verdict = rc.verdict;
    out.proof = rc.proof;
    out.queries = 1;
    return out;
  }
  if (tryPatterns) {
    std::vector<std::pair<int, int>> pairs;
    for (int a = r.xa.lo; a <= r.xa.hi; ++a)
      for (int b = r.xb.lo; b <= r.xb.hi; ++b)
        if (r.contains(a, b)) pairs.push_back({a, b});
    const size_t stride = std::max<size_t>(1, pairs.size() / 256);
    for (const auto &pt : patterns(q.cfg))
      for (size_t i = 0; i < pairs.size(); i += stride)
        if (witnessDisagrees(q, pt.first, pt.second, pairs[i].first, pairs[i].second)) {
          out.verdict = smt::Verdict::Sat;
          out.witness = Witness{pt.first, pt.second, pairs[i].first, pairs[i].second, {}};
          return out;
        }
  }
  if (auto w = copiesSearch(q, r)) {
    out.verdict = smt::Verdict::Sat;
    out.witness = *w;
    return out;
  }
  auto sets = restrictions(q.cfg);
  for (size_t si = 0; si < sets.size(); ++si) {
    const bool full = sets[si].empty();
    RegionCheck rc = checkRegion(q, r, backend, full ? timeoutSec : witnessTimeoutSec, sets[si]);
    ++out.queries;
    out.solverSeconds += rc.seconds;
    if (log)
      log(std::string("counterexample search ") + r.str() + " restriction " + std::to_string(si) + ": " +
          smt::toString(rc.verdict) + " (" + std::to_string(rc.seconds) + " s)");
    if (rc.verdict == smt::Verdict::Sat) {
      out.verdict = smt::Verdict::Sat;
      out.witness = Witness{rc.cex->a, rc.cex->b, int(rc.cex->xa), int(rc.cex->xb), {}};
      return out;
    }
    if (full) {
      out.verdict = rc.verdict;
      out.proof = rc.proof;
      out.reason = rc.reason;
    }
  }
  return out;
}

SolverTableResult runSolverTable(const PairQuery &q, const SolverTableOptions &opt) {
  if (q.cfg.nvfp4()) return runNvfp4SolverTable(q, opt);
  const auto t0 = std::chrono::steady_clock::now();
  SolverTableResult res;
  res.witnessOf.assign(size_t(kNumCodes) * kNumCodes, -1);
  std::unique_ptr<smt::Backend> backend = smt::makeBackend(opt.solver, opt.threads);
  if (!backend) throw std::invalid_argument("unknown solver '" + opt.solver + "'");
  auto log = [&](const std::string &s) {
    if (opt.log) opt.log(s);
  };

  // Any order (q.cfg.anyOrder): regions are proven by induction (proveAnyOrder), witnesses
  // are searched with the trees of witnessTrees and name their tree. Code pairs are grouped
  // as for one tree: pre, post and dequant depend on the codes through e and the exact
  // classes in the same way for every tree (groups.h).
  const bool anyOrder = q.cfg.anyOrder != 0;
  if (anyOrder)
    if (const std::string why = anyOrderUnsupported(q); !why.empty())
      throw std::invalid_argument("no order-independent proof for " + why);
  const std::vector<Tree> trees = anyOrder ? witnessTrees(q.cfg) : std::vector<Tree>{};
  // A fixed tree: the same question for every tree whose non-root subtrees are no larger than
  // its own (everyTreeConfig), whose induction proves a region at the cost of one rounding
  // per step instead of the tree's k - 1 unrolled roundings.
  PairQuery everyTree = q;
  everyTree.cfg = everyTreeConfig(q.cfg);
  // Whether a fixed tree's regions are first tried by the every-tree induction (--proof auto);
  // cleared below for non-binary trees up to kUnrolledFirstMaxK leaves with a closed form.
  bool inductionFirst = !anyOrder && opt.inductionFirst && anyOrderUnsupported(q).empty();
  // Regions are taken box by box (scaleArmBoxes): each stays inside one form of every scaling.
  const std::vector<CodeSet> armBoxes = scaleArmBoxes(q);
  // Where the induction may still be tried: every pair, less the regions where it failed.
  CodeSet inductionScope = CodeSet::all();
  // Halves of regions whose induction hit an encoding limit, with their split depth: tried
  // before the rest of the scope (every one lies inside it).
  std::vector<std::pair<Region, int>> inductionHalves;
  // Queues the two halves of region r (split: e first) for the induction, one level deeper,
  // counted and logged with `why`; the first half is tried first.
  auto pushHalves = [&](const Region &r, int depth, const std::string &why) {
    ++res.stats.splits;
    log(why);
    auto [ra, rb] = r.halves();
    inductionHalves.push_back({rb, depth + 1});
    inductionHalves.push_back({ra, depth + 1});
  };
  const CodeGroups cg = groupCodePairs(anyOrder ? withTree(q, trees.front()) : q, true);
  // Pairs where the induction failed on the pair alone: without a witness they are unknown.
  CodeSet inductionFailed;
  // Pairs of regions where a failed root step's model gave a witness (step_witness.h).
  CodeSet rootWitnessed;
  // State: candidate agree set C, proven set P, per-group witness.
  CodeSet C = CodeSet::all(), P;
  if (opt.useClosedForm) {
    ClosedForm cf = closedForm(q);
    if (cf.applies) {
      C = cf.guard.toSet();
      res.stats.usedClosedForm = true;
      log("closed form: " + cf.formula);
      // A small fixed tree with a non-root node of more than two children and a closed form:
      // the unrolled query proves the closed form's regions at once, where the induction,
      // whose class of trees is wider than this one, fails on the regions other trees
      // disagree on and halves them step by step (measured on fused trees when their class
      // held the binary trees: e2m1 k = 3 fused f32 rtz pre/post value: 1.8 s, most of it
      // failed halvings, against 0.16 s unrolled; docs/benchmarks.md). Not beyond
      // kUnrolledFirstMaxK, where the unrolled query grows (e4m3 fused f32 rtz pre/post value:
      // 8.3 -> 11.6 s at k = 16, 5 -> 45 s at k = 32), nor without a closed form (the unrolled
      // query alone ran out of 60 s on e2m1 fused f16 post2/post at k = 3 and f16 rtz
      // pre/dequant at k = 4). A tree whose root has only leaves as children (fused) has a
      // class of its own (everyTreeConfig), which proves what the tree agrees on: it goes
      // unrolled first only up to kFusedUnrolledFirstMaxK, where the unrolled query is still
      // small (e2m1 k = 3 fused f32 rtz pre/post value: 0.16 s unrolled first, 0.31 s by the
      // induction), and to the induction first above (e5m2 k = 5: 3.4 s -> 1.1 s; k = 8:
      // 7-16 s -> 1.3-1.5 s).
      const bool flat = everyTree.cfg.maxSubtree == 1;  // the fused class
      if (inductionFirst && !q.cfg.tree.isBinary() &&
          q.cfg.k() <= (flat ? kFusedUnrolledFirstMaxK : kUnrolledFirstMaxK)) {
        inductionFirst = false;
        log("a small tree with a node of more than two children and a closed form: the unrolled query first");
      }
    } else {
      log("no closed form: " + cf.whyNot);
    }
  }
  // One product (k = 1): the tree is its leaf, and the unrolled query states the leaf and the
  // root roundings at once, where the induction's steps state them apart over a wider class of
  // sums and fail on most regions (e5m2 x e2m1 bf16 rtz dequant/post value: 136 failed
  // regions, 26 s of 34 s, against 1 s of unrolled queries; docs/benchmarks.md).
  if (inductionFirst && q.cfg.k() == 1 && opt.unrolledAtOneProduct) {
    inductionFirst = false;
    log("one product (k = 1): the unrolled query first");
  }
  const CodeSet predicted = C;
  std::vector<int> groupWitness(cg.groups.size(), -1);
  std::vector<bool> groupUnknown(cg.groups.size(), false);

  auto pairIdx = [](int xa, int xb) { return size_t(xa) * kNumCodes + size_t(xb); };
  // The command's deadline (or a signal) while witnesses are tried on the code groups (the
  // structured inputs evaluate whole blocks on every group, tens of thousands in f16): polled
  // by disagreeingGroups every 32 groups, so that --timeout holds there too; the pairs not
  // reached stay undecided (unknown). Thread-safe (Budget::passed is const).
  const std::function<bool()> outOfTime = [&q]() { return q.budget && q.budget->passed(); };
  // Records witness w for the groups `refuted` (ascending; each confirmed by the reference
  // evaluator, disagreeingGroups) and attributes it to them. False when there are none.
  auto attribute = [&](const Witness &w, bool fromPattern, const std::vector<size_t> &refuted) {
    if (refuted.empty()) return false;
    for (size_t gi : refuted)
      for (auto [xa, xb] : cg.groups[gi].pairs)
        if (P.get(xa, xb))
          throw std::logic_error("a witness refutes a proven pair (" + std::to_string(xa) + ", " +
                                 std::to_string(xb) + "): the encoding and the evaluator disagree");
    const int idx = int(res.witnesses.size());
    res.witnesses.push_back(w);
    if (fromPattern) ++res.stats.patternWitnesses;
    for (size_t gi : refuted) {
      groupWitness[gi] = idx;
      for (auto [xa, xb] : cg.groups[gi].pairs) {
        C.set(xa, xb, false);
        res.witnessOf[pairIdx(xa, xb)] = idx;
      }
    }
    return true;
  };
  // The groups no witness refutes yet that pass `quick` (when set: a cheap pre-test, a filter
  // only; at worst a witness is missed here and found later, never a wrong one recorded), and
  // `keep` (when set), ascending.
  auto undecidedGroups = [&](const std::function<bool(int, int)> &quick,
                             const std::function<bool(size_t)> &keep = {}) {
    std::vector<size_t> out;
    for (size_t gi = 0; gi < cg.groups.size(); ++gi) {
      if (groupWitness[gi] >= 0) continue;
      auto [rxa, rxb] = cg.groups[gi].pairs.front();
      if ((keep && !keep(gi)) || (quick && !quick(rxa, rxb))) continue;
      out.push_back(gi);
    }
    return out;
  };
  // Records witness w and attributes it to every undecided group it refutes (evaluated on
  // opt.threads threads).
  auto addWitness = [&](const Witness &w, bool fromPattern, const std::function<bool(int, int)> &quick = {}) {
    return attribute(w, fromPattern, disagreeingGroups(q, w, cg, undecidedGroups(quick), opt.threads, outOfTime));
  };
  // A solver's counterexample, confirmed by the reference evaluator: it refutes at least its
  // own group, unless the command's deadline stopped the attribution first (addWitness checks
  // it every 32 groups), and then its pairs stay undecided, for the next query is unknown.
  auto addCounterexample = [&](const Witness &w) {
    if (addWitness(w, false) || (q.budget && q.budget->passed())) return;
    throw std::logic_error("a confirmed counterexample refutes no undecided group");
  };
  // Progress: pairs proven plus pairs refuted by a witness so far.
  auto progress = [&]() {
    if (!opt.progress) return;
    long done = P.count();
    for (int w : res.witnessOf) done += w >= 0 ? 1 : 0;
    opt.progress(done, long(kNumCodes) * kNumCodes);
  };
  auto query = [&](const Region &r, double timeout, const LeafFix &fixed) {
    progress();  // the state before this query
    RegionCheck rc = checkRegion(q, r, *backend, timeout, fixed, opt.keepQueries);
    ++res.stats.queries;
    res.stats.solverSeconds += rc.seconds;
    if (rc.verdict == smt::Verdict::Unsat) ++res.stats.unsat;
    if (rc.verdict == smt::Verdict::Sat) ++res.stats.sat;
    if (rc.verdict == smt::Verdict::Unknown) ++res.stats.unknown;
    return rc;
  };

  // The induction (proveAnyOrder) on one region of question iq, counted in the stats.
  auto induce = [&](const PairQuery &iq, const Region &r, double timeout) {
    progress();  // the state before these queries
    InductionCheck ic = proveAnyOrder(iq, r, *backend, timeout, opt.keepQueries);
    res.stats.queries += ic.queries;
    res.stats.solverSeconds += ic.solverSeconds;
    return ic;
  };

  // Phase 0: structured witnesses, tried on every group the prediction excludes (or on all
  // groups when there is no prediction).
  std::vector<Witness> structured;
  for (const Tree &t : anyOrder ? trees : std::vector<Tree>{q.cfg.tree})
    for (const auto &pt : patterns(anyOrder ? configWithTree(q.cfg, t) : q.cfg))
      structured.push_back(Witness{pt.first, pt.second, 0, 0, anyOrder ? t.sexpr() : std::string()});
  // The shared-root rule's leaf filter (a necessary condition for pre/dequant) before the
  // full evaluation, its leaf comparisons remembered across the inputs.
  LeafDiffs leafDiffs(q);
  // Input w, evaluated once per undecided group (opt.threads threads; only the groups `only`
  // admits, when given), first on the groups outside C, then, if it refutes one of those and
  // there is a closed form, on the groups in C too (where the closed form is then wrong: the
  // witness still holds); attributed to every group it refutes. With `sample`, over
  // kStructuredSampleMin or more groups, it is tried on the sample first, and false is
  // returned, nothing refuted, where it refutes none there.
  auto tryStructured = [&](Witness w, bool sample, const std::function<bool(size_t)> &only) {
    const LeafFilter leafFilter(q, w.a, w.b, &leafDiffs);
    const std::function<bool(int, int)> quick = [&leafFilter](int xa, int xb) { return leafFilter.mayDisagree(xa, xb); };
    auto inC = [&](size_t gi) {
      auto [rxa, rxb] = cg.groups[gi].pairs.front();
      return res.stats.usedClosedForm && C.get(rxa, rxb);
    };
    const std::vector<size_t> candidates =
        undecidedGroups(quick, [&](size_t gi) { return !inC(gi) && (!only || only(gi)); });
    std::vector<size_t> refuted;
    if (sample && candidates.size() >= kStructuredSampleMin) {
      std::vector<size_t> part, rest;
      for (size_t gi : candidates) (inStructuredSample(gi) ? part : rest).push_back(gi);
      refuted = disagreeingGroups(q, w, cg, part, opt.threads, outOfTime);
      if (refuted.empty()) return false;
      const std::vector<size_t> more = disagreeingGroups(q, w, cg, rest, opt.threads, outOfTime);
      std::vector<size_t> all;  // both in increasing group order, as candidates
      std::merge(refuted.begin(), refuted.end(), more.begin(), more.end(), std::back_inserter(all));
      refuted = std::move(all);
    } else {
      refuted = disagreeingGroups(q, w, cg, candidates, opt.threads, outOfTime);
    }
    if (refuted.empty()) return true;
    std::tie(w.xa, w.xb) = cg.groups[refuted.front()].pairs.front();
    if (res.stats.usedClosedForm) {
      const std::vector<size_t> more = disagreeingGroups(q, w, cg, undecidedGroups(quick, inC), opt.threads, outOfTime);
      std::vector<size_t> all;
      std::merge(refuted.begin(), refuted.end(), more.begin(), more.end(), std::back_inserter(all));
      refuted = std::move(all);
    }
    attribute(w, true, refuted);
    return true;
  };
  std::vector<Witness> sampledOut;  // inputs that refuted no group of the sample
  for (const Witness &w : structured) {
    if (outOfTime()) break;
    if (!tryStructured(w, true, {})) sampledOut.push_back(w);
  }
  // The inputs the sample left, on the frontier: the undecided groups with a code pair next to
  // a refuted one (xa and xb each within 1). Disagreements the sample misses are thin sets,
  // and they lie along the edges of the refuted ones (e3m2 x e5m2 k = 32 bf16 ftz fused
  // post2/post value: 18 of 46 inputs, found by the induction's root-step scans instead, 5 s ->
  // 18.6 s). The frontier is a few thousand groups where the agreeing interior is tens of
  // thousands; it is recomputed after each input that refutes something.
  size_t frontierUsed = 0;
  if (!sampledOut.empty()) {
    std::vector<char> frontier;
    auto computeFrontier = [&]() {
      frontier.assign(cg.groups.size(), 0);
      auto refutedAt = [&](int xa, int xb) {
        return xa >= 0 && xb >= 0 && xa < kNumCodes && xb < kNumCodes && res.witnessOf[pairIdx(xa, xb)] >= 0;
      };
      for (size_t gi = 0; gi < cg.groups.size(); ++gi) {
        if (groupWitness[gi] >= 0) continue;
        for (auto [xa, xb] : cg.groups[gi].pairs) {
          bool near = false;
          for (int da = -1; da <= 1 && !near; ++da)
            for (int db = -1; db <= 1 && !near; ++db) near = (da || db) && refutedAt(xa + da, xb + db);
          if (near) {
            frontier[gi] = 1;
            break;
          }
        }
      }
    };
    computeFrontier();
    for (const Witness &w : sampledOut) {
      if (outOfTime()) break;
      const size_t before = res.witnesses.size();
      tryStructured(w, false, [&](size_t gi) { return frontier[gi] != 0; });
      if (res.witnesses.size() > before) {
        ++frontierUsed;
        computeFrontier();
      }
    }
  }
  // Single products (pre/dequant, a fixed tree): for every group still unrefuted, a leaf
  // (a, b) whose pre and dequant values differ, the other leaves +0 (SingleProducts).
  size_t singles = 0;
  if (!anyOrder && q.lhs != q.rhs && sameRootStep(q.lhs, q.rhs) && !q.cfg.nvfp4()) {
    SingleProducts sp(q);
    for (size_t gi = 0; gi < cg.groups.size(); ++gi) {
      if (outOfTime()) break;
      const auto &g = cg.groups[gi];
      auto [rxa, rxb] = g.pairs.front();
      if (groupWitness[gi] >= 0 || (res.stats.usedClosedForm && C.get(rxa, rxb))) continue;
      if (std::optional<Witness> w = sp.witness(rxa, rxb)) {
        const LeafFilter leafFilter(q, w->a, w->b, &leafDiffs);
        if (addWitness(*w, true, [&leafFilter](int xa, int xb) { return leafFilter.mayDisagree(xa, xb); })) ++singles;
      }
    }
  }
  log("structured witnesses: " + std::to_string(res.witnesses.size()) + " (" + std::to_string(singles) +
      " of them single products; " + std::to_string(structured.size()) + " inputs over " +
      std::to_string(cg.groups.size()) + " code groups, " + std::to_string(sampledOut.size()) +
      " of them left after refuting nothing in a sample of the groups, " + std::to_string(frontierUsed) +
      " of those refuting next to a refuted pair)");
  // No closed form and a small block: the exhaustive engine (no solver) is the fastest way to
  // find the agree set there, and its witnesses. It runs once, on the pairs no witness refutes
  // yet, when the first region needs an unrolled query (the structured inputs and the
  // induction were not enough). Its set is only a prediction and each of its witnesses is
  // confirmed by the reference evaluator like any other: every region is still proven by the
  // solver. Given up (no prediction) when it would take longer than exhaustiveSeedSeconds or
  // exceed its state budget. Its first try has exhaustiveSeedFirstSeconds: one that runs
  // longer is dropped where it would not finish in time, else it waits (seedDeferred) until
  // an unrolled query is not unsat, and then runs with its whole budget.
  bool seedTried = false;
  bool seedDeferred = false;
  // Seconds per evaluation group of the prediction's last try (-1: no group timed), from
  // which bandPredict estimates a band.
  double seedGroupSeconds = -1;
  // Seconds of satisfiable unrolled queries while the prediction waits.
  double waitingSatSeconds = 0;
  auto seed = [&](double budget) {
    seedTried = true;
    budget = std::min(budget, opt.exhaustiveSeedSeconds);
    if (anyOrder || opt.exhaustiveSeedSeconds <= 0 || q.cfg.k() > opt.exhaustiveSeedMaxK ||
        q.cfg.k() < opt.exhaustiveSeedMinK)
      return false;
    // A priori size: the layered states grow about like P^(k-1) for P distinct positive
    // products over a binary tree, and like P^k where a node adds more than two children
    // exactly (fused); beyond a few hundred thousand the engine would spend its whole budget
    // (e4m3 at k = 3, e2m3 fused at k = 3) on what the solver decides in seconds, so it is not
    // started.
    {
      const size_t prods = distinctProducts(q.cfg, 4096).size();
      const int expo = q.cfg.tree.isBinary() ? q.cfg.k() - 1 : q.cfg.k();
      if (std::pow(double(prods), double(expo)) > 2e5) {
        log("no exhaustive prediction: about " + std::to_string(prods) + "^" + std::to_string(expo) +
            " states");
        return false;
      }
    }
    struct OutOfTime {};
    const auto s0 = std::chrono::steady_clock::now();
    ExhaustiveOptions xo;
    xo.maxStates = 2'000'000;
    xo.onlyPairs = [&](int xa, int xb) { return res.witnessOf[pairIdx(xa, xb)] < 0 && !P.get(xa, xb); };
    // Groups done of all, when the budget ran out: the whole run is estimated from them. A
    // first try that by that estimate ends within kSeedFirstStretch times its budget runs on
    // (with the whole budget): near the first budget, a noisy machine would otherwise turn a
    // prediction of 1.2 s into queries without one (e5m2 x e2m1 k = 2 bf16 dequant/post value:
    // 4 s with the prediction, 11 s without).
    // The estimate leaves out the grouping before the first group (firstGroupAt).
    double estimate = 0;
    double limit = budget;
    double firstGroupAt = -1;
    xo.progress = [&](long done, long total) {
      const double t = smt::secondsSince(s0);
      if (firstGroupAt < 0) firstGroupAt = t;
      if (done > 0) seedGroupSeconds = (t - firstGroupAt) / double(done);
      if (t <= limit) return;
      // No group done yet (the grouping itself took the first budget): nothing to estimate
      // from, so the first try goes on to its first group.
      if (done == 0 && limit < opt.exhaustiveSeedSeconds && t <= opt.exhaustiveSeedSeconds) return;
      const double share = total > 0 ? double(done) / double(total) : 0;
      estimate = share > 0 ? firstGroupAt + (t - firstGroupAt) / share : 0;
      if (limit < opt.exhaustiveSeedSeconds && share > 0 && estimate <= kSeedFirstStretch * budget) {
        limit = opt.exhaustiveSeedSeconds;
        return;
      }
      throw OutOfTime{};
    };
    try {
      ExhaustiveResult x = runExhaustive(q, xo);
      // Pairs refuted or proven before were not evaluated: proven ones stay in C.
      C = x.agree;
      for (int a = 0; a < kNumCodes; ++a)
        for (int b = 0; b < kNumCodes; ++b)
          if (P.get(a, b)) C.set(a, b);
      for (const Witness &w : x.witnesses) addWitness(w, true);
      res.stats.usedExhaustiveSeed = true;
      log("exhaustive prediction: " + std::to_string(x.agree.count()) + " agreeing pairs, " +
          std::to_string(x.witnesses.size()) + " witnesses (" + std::to_string(smt::secondsSince(s0)) + " s)");
      return true;
    } catch (const OutOfTime &) {
      // A first try that reached less than its share of the whole budget would not finish
      // within it (its groups cost about alike): no prediction.
      if (limit < opt.exhaustiveSeedSeconds && estimate > opt.exhaustiveSeedSeconds) {
        log("no exhaustive prediction: about " + std::to_string(int(estimate)) + " s by its first " +
            std::to_string(limit) + " s");
      } else if (limit < opt.exhaustiveSeedSeconds) {
        seedTried = false;
        seedDeferred = true;
        log("the exhaustive prediction waits: over " + std::to_string(budget) + " s (about " +
            std::to_string(estimate) + " s in all; it runs when an unrolled query is not unsat)");
      } else {
        log("no exhaustive prediction: over " + std::to_string(limit) + " s");
      }
    } catch (const ResourceLimit &) {
      log("no exhaustive prediction: over its state budget or past the deadline");
    }
    return false;
  };

  // Where the whole prediction was given up for time (seed: its groups cost
  // seedGroupSeconds each) or does not run (off, or k < exhaustiveSeedMinK), a satisfiable
  // unrolled query has found a pair the structured inputs missed, and more of them usually
  // lie on nearby lines of e = xa + xb - 254 (the accumulator's subnormal or overflow range;
  // e4m3 x e2m1 k = 1 f16 dequant/post value: e = -36..-18, each line refuted by a few
  // satisfiable queries of 0.5-2 s). The
  // exhaustive engine evaluates the undecided pairs of the lines e0 - m .. e0 + m around the
  // witness's e0, m = 4 kBandMargin, else kBandMargin, else 0, the widest that fits
  // bandSeconds by the cost per group of the whole prediction's try, else of the bands so far
  // (with neither, the widest; a band given up past twice bandSeconds, or as soon as its own
  // groups say it would be, leaves the narrower ones to that estimate): like the whole
  // prediction, its agree set is only a prediction and its witnesses are confirmed by the
  // reference evaluator; the solver still proves every region. At most bandTotalSeconds in
  // all. Returns whether a band was evaluated.
  CodeSet bandEvaluated;  // pairs a band has evaluated (not evaluated again)
  double bandSeconds = 0;
  double bandGroupSeconds = -1;  // seconds per group of the bands so far (-1: none timed)
  auto bandPredict = [&](int e0) {
    if (anyOrder || res.stats.usedExhaustiveSeed || q.cfg.k() > opt.exhaustiveSeedMaxK || opt.bandSeconds <= 0 ||
        bandSeconds >= opt.bandTotalSeconds ||
        (seedGroupSeconds <= 0 && opt.exhaustiveSeedSeconds > 0 && q.cfg.k() >= opt.exhaustiveSeedMinK))
      return false;
    auto undecided = [&](int a, int b) {
      return C.get(a, b) && !P.get(a, b) && res.witnessOf[pairIdx(a, b)] < 0 && !bandEvaluated.get(a, b);
    };
    const double budget = std::min(opt.bandSeconds, opt.bandTotalSeconds - bandSeconds);
    for (const int margin : {4 * kBandMargin, kBandMargin, 0}) {
      const int eLo = e0 - margin, eHi = e0 + margin;
      auto inBand = [&](int a, int b) {
        const int e = a + b - 254;
        return e >= eLo && e <= eHi && undecided(a, b);
      };
      // The band's pairs, and its code groups (cg: the exhaustive engine groups alike), by
      // which its time is estimated.
      long pairs = 0;
      std::vector<char> groupSeen(cg.groups.size(), 0);
      long groups = 0;
      for (int a = 0; a < kNumCodes; ++a)
        for (int b = 0; b < kNumCodes; ++b)
          if (inBand(a, b)) {
            ++pairs;
            const int gi = cg.groupOf[pairIdx(a, b)];
            if (gi >= 0 && !groupSeen[size_t(gi)]) {
              groupSeen[size_t(gi)] = 1;
              ++groups;
            }
          }
      if (pairs == 0) return false;
      const double perGroup = seedGroupSeconds > 0 ? seedGroupSeconds : bandGroupSeconds;
      if (perGroup > 0 && double(groups) * perGroup > budget) continue;
      struct OutOfTime {};
      const auto s0 = std::chrono::steady_clock::now();
      ExhaustiveOptions xo;
      xo.maxStates = 2'000'000;
      xo.onlyPairs = inBand;
      // A band whose groups cost more than the estimate is given up at twice its budget, or
      // earlier where its own groups so far say it would take that long (their cost then
      // estimates the narrower bands).
      xo.progress = [&](long done, long total) {
        const double t = smt::secondsSince(s0);
        if (done > 0) bandGroupSeconds = t / double(done);
        if (t > 2 * budget || (done > 0 && t > budget / 4 && bandGroupSeconds * double(total) > 2 * budget))
          throw OutOfTime{};
      };
      try {
        const ExhaustiveResult x = runExhaustive(q, xo);
        if (x.stats.groups > 0) bandGroupSeconds = smt::secondsSince(s0) / double(x.stats.groups);
        bandSeconds += smt::secondsSince(s0);
        ++res.stats.bandPredictions;
        long agreeing = 0;
        for (int a = 0; a < kNumCodes; ++a)
          for (int b = 0; b < kNumCodes; ++b)
            if (x.witnessOf[pairIdx(a, b)] >= 0 || x.agree.get(a, b)) {
              bandEvaluated.set(a, b);
              if (x.agree.get(a, b)) ++agreeing;
            }
        for (const Witness &w : x.witnesses) addWitness(w, true);
        log("the exhaustive prediction on e:" + std::to_string(eLo) + ".." + std::to_string(eHi) + ": " +
            std::to_string(pairs) + " undecided pairs, " + std::to_string(agreeing) + " agreeing, " +
            std::to_string(x.witnesses.size()) + " witnesses (" + std::to_string(smt::secondsSince(s0)) + " s)");
        return true;
      } catch (const OutOfTime &) {
        bandSeconds += smt::secondsSince(s0);
        log("no exhaustive prediction on e:" + std::to_string(eLo) + ".." + std::to_string(eHi) + ": about " +
            std::to_string(bandGroupSeconds * double(groups)) + " s");
        if (bandGroupSeconds <= 0 || bandSeconds >= opt.bandTotalSeconds) return false;
        continue;  // a narrower band, by its groups' cost
      } catch (const ResourceLimit &) {
        bandSeconds += smt::secondsSince(s0);
        return false;
      }
    }
    return false;
  };

  // The invariant a region is scanned with before its induction: the first that is neither
  // equal nor without infinities (the scan enumerates no infinity).
  std::optional<Invariant> scanInvariant;
  if (inductionFirst)
    for (const Invariant &inv : candidateInvariants(q))
      if (inv.mode != InvariantMode::Equal && !inv.noInf) {
        scanInvariant = inv;
        break;
      }
  // Marks region r as near real counterexamples (rootWitnessed; see its use below).
  auto markRootWitnessed = [&](const Region &r) {
    for (int a = r.xa.lo; a <= r.xa.hi; ++a)
      for (int b = r.xb.lo; b <= r.xb.hi; ++b)
        if (r.contains(a, b)) rootWitnessed.set(a, b);
  };
  // Pairs already scanned, per invariant mode (scaled, zero): a second scan would find nothing new.
  CodeSet rootScanned[2];
  // The undecided pairs of region r that the root step of `inv` has not been scanned at.
  auto undecidedPairs = [&](const Region &r) {
    std::vector<std::pair<int, int>> out;
    for (int a = r.xa.lo; a <= r.xa.hi; ++a)
      for (int b = r.xb.lo; b <= r.xb.hi; ++b)
        if (r.contains(a, b) && C.get(a, b) && !P.get(a, b) && res.witnessOf[pairIdx(a, b)] < 0)
          out.emplace_back(a, b);
    return out;
  };
  auto unscannedPairs = [&](const Region &r, const Invariant &inv) {
    const CodeSet &scanned = rootScanned[inv.mode == InvariantMode::Zero ? 1 : 0];
    std::vector<std::pair<int, int>> out = undecidedPairs(r);
    out.erase(std::remove_if(out.begin(), out.end(), [&](const auto &ab) { return scanned.get(ab.first, ab.second); }),
              out.end());
    return out;
  };
  // The root step of `inv` on concrete values at `pairs` (in order, within `budget`
  // evaluations; rootStepScan, step_witness.h): the pairs scanned are marked, and each
  // candidate refutes its groups once the reference evaluator confirms it. Returns the pairs
  // of the witnesses added, and whether every pair was scanned.
  auto scanPairs = [&](const std::vector<std::pair<int, int>> &pairs, const Invariant &inv, long budget) {
    CodeSet &scanned = rootScanned[inv.mode == InvariantMode::Zero ? 1 : 0];
    const RootStepScan found = rootStepScan(q, inv, pairs, budget, opt.threads);
    for (size_t i = 0; i < found.pairsScanned; ++i) scanned.set(pairs[i].first, pairs[i].second);
    std::vector<std::pair<int, int>> added;
    for (const Witness &c : found.candidates) {
      if (res.witnessOf[pairIdx(c.xa, c.xb)] >= 0 || !witnessDisagrees(q, c, c.xa, c.xb)) continue;
      addWitness(c, false);
      if (res.witnessOf[pairIdx(c.xa, c.xb)] < 0) continue;
      ++res.stats.rootStepWitnesses;
      added.emplace_back(c.xa, c.xb);
    }
    return std::make_pair(added, found.pairsScanned >= pairs.size());
  };
  // The root step of `inv` evaluated on concrete values at the undecided pairs of region r,
  // nearest (cxa, cxb) first, within `budget` evaluations (scanPairs): each candidate is
  // confirmed by the reference evaluator before it refutes anything, and the pairs left keep
  // going to the induction. A round that found witnesses and stopped at its budget is
  // followed by another, up to `rounds` in all: the pairs that differ lie together, and a scan
  // that finds them costs far less than the inductions that would otherwise take the region
  // apart around them (kRootScanRounds). Returns the number of witnesses added.
  auto scanRootStep = [&](const Region &r, const Invariant &inv, int cxa, int cxb,
                          long budget = kRootScanEvaluations, int rounds = kRootScanRounds) {
    if (inv.mode == InvariantMode::Equal) return size_t(0);
    size_t added = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int round = 0; round < rounds; ++round) {
      // The pairs still undecided and not scanned (witnesses of a round refute whole groups).
      std::vector<std::pair<int, int>> near = unscannedPairs(r, inv);
      if (near.empty()) break;
      sortNearest(near, cxa, cxb);
      const auto [addedNow, all] = scanPairs(near, inv, budget);
      added += addedNow.size();
      if (addedNow.empty() || all) break;
    }
    if (added)
      log("the root step on concrete values in " + r.str() + ": " + std::to_string(added) + " witnesses (" +
          std::to_string(smt::secondsSince(t0)) + " s)");
    return added;
  };
  // A sparse sample of region r's undecided, unscanned pairs scanned first
  // (kRootScanSamplePairs, in the order of a multiplicative hash of the pair's index, which
  // spreads them over the region); where it finds a witness, scanRootStep runs nearest it.
  // Returns the number of witnesses added.
  auto sampleRootStep = [&](const Region &r, const Invariant &inv) {
    if (inv.mode == InvariantMode::Equal) return size_t(0);
    std::vector<std::pair<int, int>> sample = unscannedPairs(r, inv);
    auto key = [&](const std::pair<int, int> &x) {
      return (uint64_t(pairIdx(x.first, x.second)) * 0x9E3779B97F4A7C15ull) >> 16;
    };
    if (sample.size() > kRootScanSamplePairs) {
      std::partial_sort(sample.begin(), sample.begin() + long(kRootScanSamplePairs), sample.end(),
                        [&](const auto &x, const auto &y) { return key(x) < key(y); });
      sample.resize(kRootScanSamplePairs);
    }
    const std::vector<std::pair<int, int>> added = scanPairs(sample, inv, kRootScanSampleEvaluations).first;
    if (added.empty()) return size_t(0);
    log("the root step on concrete values at a sample of " + std::to_string(sample.size()) + " pairs of " + r.str() +
        ": " + std::to_string(added.size()) + " witnesses, the first at xa=" + std::to_string(added[0].first) +
        " xb=" + std::to_string(added[0].second));
    markRootWitnessed(r);
    return added.size() + scanRootStep(r, inv, added[0].first, added[0].second);
  };

  // The failing leaves of a failed leaf step f at the code pair (a, b) of region r (at most
  // kLeafScanLeaves, the largest errors first: failingLeaves), each in leafStepInputs's inputs
  // with `model` naming that pair: the first input at (a, b) that the reference evaluator
  // confirms is added as a witness. Returns its leaf's element codes, or nullopt.
  auto failingLeafWitness = [&](const InductionCheck::FailedStep &f, const Region &r, int a, int b,
                                std::map<std::string, Integer> model) -> std::optional<std::pair<unsigned, unsigned>> {
    for (const auto &[ca, cb] : failingLeaves(q, f.inv, a, b, kLeafScanLeaves)) {
      model["a0"] = Integer(int64_t(ca));
      model["b0"] = Integer(int64_t(cb));
      for (const Witness &w : leafStepInputs(q, f.step, r, model)) {
        if (w.xa != a || w.xb != b || !witnessDisagrees(q, w, w.xa, w.xb) || !addWitness(w, false)) continue;
        ++res.stats.leafStepWitnesses;
        return std::make_pair(ca, cb);
      }
    }
    return std::nullopt;
  };

  // Phase B's known witnesses, decoded once each (by index into res.witnesses; made lazily).
  std::vector<std::unique_ptr<DecodedBlock>> witnessBlocks;
  // Phase A proves the candidate set region by region; phase B finds a witness for every
  // excluded group, or shows that the group agrees after all (it then rejoins the candidate
  // set and phase A runs again).
  for (bool again = true; again;) {
    again = false;
    // Phase A.
    for (;;) {
      CodeSet todo;
      bool any = false;
      for (int xa = 0; xa < kNumCodes; ++xa)
        for (int xb = 0; xb < kNumCodes; ++xb)
          if (C.get(xa, xb) && !P.get(xa, xb)) {
            todo.set(xa, xb);
            any = true;
          }
      if (!any) break;
      if (inductionFirst) {
        // A fixed tree: the first region of what is left inside the induction's scope is
        // tried for every tree (its five steps prove it for this tree too); where no
        // invariant carries over, the region leaves the scope and the unrolled query below
        // decides it.
        const CodeSet scoped = todo.intersect(inductionScope);
        if (scoped.count() > 0) {
          Region r = firstRegionByBox(scoped, armBoxes);
          int depth = 0;
          // Whether r is a half taken from inductionHalves that is not back on it (a half
          // narrowed to its first box stays there for the rest).
          bool halfTaken = false;
          if (!inductionHalves.empty()) {
            halfTaken = true;
            std::tie(r, depth) = inductionHalves.back();
            inductionHalves.pop_back();
            if (r.count() == 0) continue;
            // Pairs of the half refuted or decided since it was made (witnesses found meanwhile)
            // are left out: its first box of what is still to prove, the rest of it later.
            CodeSet left;
            for (int a = r.xa.lo; a <= r.xa.hi; ++a)
              for (int b = r.xb.lo; b <= r.xb.hi; ++b)
                if (r.contains(a, b) && scoped.get(a, b)) left.set(a, b);
            if (left.count() == 0) continue;
            if (left.count() < r.count()) {
              inductionHalves.push_back({r, depth});
              r = firstRegionByBox(left, armBoxes);
              halfTaken = false;
            }
          }
          // Inside a region where a root step's model was an input's (below), the rest is
          // near real counterexamples, which the solver may take long to rule in or out:
          // the short limit of a first attempt, and on a timeout the unrolled query decides.
          bool nearWitness = true;
          for (int a = r.xa.lo; a <= r.xa.hi && nearWitness; ++a)
            for (int b = r.xb.lo; b <= r.xb.hi && nearWitness; ++b)
              if (r.contains(a, b)) nearWitness = rootWitnessed.get(a, b);
          // A small region is first searched on concrete values (scanRootStep): where the
          // root step has models the solver may take long to find one (e2m1 k = 32 f16
          // post2/post: 20 s for the first in xa:103..104,xb:103..127), where the scan takes
          // a few milliseconds per pair. Witnesses found change the region: it is taken again.
          if (scanInvariant && r.count() <= kRootScanFirstWidePairs &&
              scanRootStep(r, *scanInvariant, r.xa.lo, r.xb.lo,
                           r.count() <= kRootScanFirstPairs ? kRootScanEvaluations : kRootScanFirstWideEvaluations,
                           1) > 0) {
            if (halfTaken) inductionHalves.push_back({r, depth});
            continue;
          }
          if (scanInvariant && r.count() > kRootScanFirstWidePairs && sampleRootStep(r, *scanInvariant) > 0) {
            if (halfTaken) inductionHalves.push_back({r, depth});
            continue;
          }
          InductionCheck ic = induce(everyTree, r, nearWitness ? std::min(opt.timeout, opt.quickTimeout) : opt.timeout);
          if (ic.verdict == smt::Verdict::Unsat) {
            ++res.stats.unsat;
            ++res.stats.inductionRegions;
            log("proven by the induction (for every tree" +
                (everyTree.cfg.maxSubtree == 1 ? " whose children of the root are all leaves"
                 : everyTree.cfg.maxSubtree ? " whose non-root nodes have at most " + std::to_string(everyTree.cfg.maxSubtree) + " leaves"
                                            : "") +
                ", so for this one) " + r.str() + " (" + std::to_string(ic.steps.size()) +
                " steps, " + std::to_string(ic.solverSeconds) + " s)");
            for (ProofRecord &st : ic.steps) res.proofs.push_back(std::move(st));
          } else if (ic.tooLarge && !ic.final && !singlePair(r) && depth < kInductionSplitDepth) {
            // An invariant's step did not fit the encoding's case-split limit, which the
            // region's ranges set: its halves are tried with the induction again.
            pushHalves(r, depth, "no invariant fits at " + r.str() + " (" + ic.reason + "): its halves are tried");
            continue;
          } else {
            // A failed root step's model (abstract tree values at a code pair) that an input
            // makes real (step_witness.h): the region does disagree there. The witness,
            // confirmed by the reference evaluator, refutes its groups, and the induction is
            // tried again on the rest (each such round refutes at least the model's pair).
            bool refuted = false;
            for (const InductionCheck::FailedStep &f : ic.failedSteps) {
              const std::optional<Witness> w = rootStepInput(q, f.step, f.inv, r, f.model);
              if (!w || !r.contains(w->xa, w->xb) || !C.get(w->xa, w->xb) || P.get(w->xa, w->xb) ||
                  !witnessDisagrees(q, *w, w->xa, w->xb))
                continue;
              addWitness(*w, false);
              if (res.witnessOf[pairIdx(w->xa, w->xb)] < 0) continue;  // (its group's first pair agrees)
              ++res.stats.rootStepWitnesses;
              markRootWitnessed(r);
              log("the " + std::string(toString(f.step)) + " step's model at xa=" + std::to_string(w->xa) +
                  " xb=" + std::to_string(w->xb) + " is an input's: a witness; the induction again on the rest of " +
                  r.str());
              refuted = true;
              // The rest of the region lies near that witness: its other differing pairs, found
              // at once where each would cost a solver round.
              scanRootStep(r, f.inv, w->xa, w->xb);
              break;
            }
            std::optional<std::pair<int, int>> leafWitnessAt;  // where a leaf step's witness was found
            // A failed leaf step's model: element codes whose two leaves are not related at a
            // code pair of the region. Its product in n leaves (n = 1 .. k, +0 elsewhere;
            // leafStepInputs) often makes the roots differ too; each input that does at the
            // model's pair, confirmed by the reference evaluator, refutes every undecided group
            // it makes differ, and the induction is tried again on the rest.
            for (const InductionCheck::FailedStep &f : ic.failedSteps) {
              if (refuted || f.step != InductionStep::Leaf) continue;
              const auto t0 = std::chrono::steady_clock::now();
              for (const Witness &w : leafStepInputs(q, f.step, r, f.model)) {
                if (!r.contains(w.xa, w.xb) || !C.get(w.xa, w.xb) || P.get(w.xa, w.xb) ||
                    res.witnessOf[pairIdx(w.xa, w.xb)] >= 0 || !witnessDisagrees(q, w, w.xa, w.xb) ||
                    !addWitness(w, false))
                  continue;
                // One witness per round: the next round asks the solver again.
                ++res.stats.leafStepWitnesses;
                refuted = true;
                leafWitnessAt = {w.xa, w.xb};
                log("the leaf step's model at xa=" + std::to_string(w.xa) + " xb=" + std::to_string(w.xb) +
                    " in n leaves: a witness (" + std::to_string(smt::secondsSince(t0)) +
                    " s); the induction again on the rest of " + r.str());
                break;
              }
            }
            // The model's leaf may err too little to show at any root (e3m2 x e5m2 k = 32 f32
            // pairwise pre/post2 value, e = -151: a product of 3 2^-20 that pre rounds to zero
            // beside post2's exact one). The other failing leaves at the model's code pair, the
            // largest errors first (failingLeaves: half a unit in the last place that n equal
            // leaves add up), in the same inputs, each confirmed by the reference evaluator.
            for (const InductionCheck::FailedStep &f : ic.failedSteps) {
              if (refuted || f.step != InductionStep::Leaf) continue;
              const auto pair = modelCodePair(r, f.model);
              if (!pair || !r.contains(pair->first, pair->second) || !C.get(pair->first, pair->second) ||
                  P.get(pair->first, pair->second) || res.witnessOf[pairIdx(pair->first, pair->second)] >= 0)
                continue;
              const auto t0 = std::chrono::steady_clock::now();
              if (const auto leaf = failingLeafWitness(f, r, pair->first, pair->second, f.model)) {
                refuted = true;
                leafWitnessAt = *pair;
                log("a failing leaf (codes " + std::to_string(leaf->first) + ", " + std::to_string(leaf->second) +
                    ") at xa=" + std::to_string(pair->first) + " xb=" + std::to_string(pair->second) +
                    " in n leaves: a witness (" + std::to_string(smt::secondsSince(t0)) +
                    " s); the induction again on the rest of " + r.str());
              }
            }
            // After a leaf step's witness, the region's other undecided groups, nearest it first:
            // the failing leaves at one pair of each (failingLeaves, leafStepInputs; a few
            // milliseconds each), each input confirmed by the reference evaluator, at most
            // kLeafLineScanGroups groups and kLeafLineScanSeconds. e2m1 x e4m3 k = 2 bf16 ftz
            // fused pre/post value: 20 lines of e (xa = 0) each found by a solver round of
            // about 80 ms, one witness per round.
            for (const InductionCheck::FailedStep &f : ic.failedSteps) {
              if (!leafWitnessAt || f.step != InductionStep::Leaf) continue;
              const auto [wxa, wxb] = *leafWitnessAt;
              std::vector<std::pair<int, int>> near = undecidedPairs(r);
              sortNearest(near, wxa, wxb);
              const auto t0 = std::chrono::steady_clock::now();
              std::vector<char> groupSeen(cg.groups.size(), 0);
              size_t groups = 0, added = 0;
              for (const auto &[a, b] : near) {
                if (groups >= kLeafLineScanGroups || smt::secondsSince(t0) > kLeafLineScanSeconds) break;
                const int gi = cg.groupOf[pairIdx(a, b)];
                if (res.witnessOf[pairIdx(a, b)] >= 0 || (gi >= 0 && groupSeen[size_t(gi)])) continue;
                if (gi >= 0) groupSeen[size_t(gi)] = 1;
                ++groups;
                std::map<std::string, Integer> m = f.model;
                m["xa"] = Integer(int64_t(a));
                m["e"] = Integer(int64_t(a + b - 254));
                if (failingLeafWitness(f, r, a, b, m)) ++added;
              }
              if (added)
                log("the failing leaves at " + std::to_string(groups) + " other groups of " + r.str() + ": " +
                    std::to_string(added) + " witnesses (" + std::to_string(smt::secondsSince(t0)) + " s)");
              break;
            }
            // A satisfiable root step whose model no input makes may still fail at pairs that
            // do differ: the scan looks for them, nearest the model's pair (a root step that
            // fails only on sums no input reaches gives no confirmed input, and the region goes
            // on as before). A step that ran out of time has no model and is not scanned here.
            for (const InductionCheck::FailedStep &f : ic.failedSteps) {
              if (refuted || f.step != InductionStep::Root) continue;
              // Nearest the model's code pair first (the region's corner when it names none).
              const auto c = modelCodePair(r, f.model).value_or(std::make_pair(r.xa.lo, r.xb.lo));
              if (scanRootStep(r, f.inv, c.first, c.second) == 0) continue;
              markRootWitnessed(r);
              refuted = true;
            }
            if (refuted) continue;
            if (nearWitness && ic.failedSteps.empty() && !ic.final && !singlePair(r) && depth < kInductionSplitDepth) {
              // Near root-step witnesses and no model that an input makes (the step ran out of
              // its short limit): its halves are tried with the induction again, so that the
              // pairs that do differ end up in small regions, where the root step is quick.
              pushHalves(r, depth, "no invariant carries over at " + r.str() + " (" + ic.reason +
                                       "), near witnesses: its halves are tried");
              continue;
            }
            ++res.stats.inductionFailures;
            log("no invariant carries over at " + r.str() + " (" + ic.reason + "): the unrolled tree's query decides it");
          }
          for (int a = r.xa.lo; a <= r.xa.hi; ++a)
            for (int b = r.xb.lo; b <= r.xb.hi; ++b)
              if (r.contains(a, b)) {
                inductionScope.set(a, b, false);
                if (ic.verdict == smt::Verdict::Unsat) P.set(a, b);
              }
          continue;
        }
      }
      // With a closed form the prediction is already there: the unrolled query proves it.
      if (!seedTried && !seedDeferred && !res.stats.usedClosedForm && seed(opt.exhaustiveSeedFirstSeconds)) continue;
      std::vector<Region> stack{firstRegionByBox(todo, armBoxes)};
      bool changed = false;
      while (!stack.empty() && !changed) {
        Region r = stack.back();
        stack.pop_back();
        if (r.count() == 0) continue;
        // A region spanning several e values gets a short budget: when it times out it is
        // halved, so that the hard lines (usually at a boundary) end up alone with the full
        // budget while the easy bulk is proven in large pieces.
        // Not with obligations: their fact phases cost about the same on any region (they
        // are stated over local copies of the DAG, which the region hardly changes), so
        // halving would multiply the work.
        const bool wide = r.e.hi > r.e.lo && !q.obligations;
        // Whether the prediction waits (seed): a short limit, and a region that is not quickly
        // unsat sends for it.
        const bool waiting = seedDeferred && !seedTried;
        RegionCheck rc;
        if (anyOrder) {
          InductionCheck ic = induce(q, r, opt.timeout);
          if (ic.verdict == smt::Verdict::Unsat) {
            ++res.stats.unsat;
            log("proven for every tree " + r.str() + " (" + std::to_string(ic.steps.size()) + " steps)");
            for (size_t i = 0; i + 1 < ic.steps.size(); ++i) res.proofs.push_back(ic.steps[i]);
            rc.proof = ic.steps.back();
          } else {
            ++res.stats.unknown;
          }
          rc.verdict = ic.verdict;
          rc.reason = ic.reason;
          rc.final = ic.final;
          // Pairs of one code group agree or differ together for every tree (groups.h): a
          // region inside one group is not split further.
          bool oneGroup = true;
          int group = -1;
          for (int a = r.xa.lo; a <= r.xa.hi && oneGroup; ++a)
            for (int b = r.xb.lo; b <= r.xb.hi && oneGroup; ++b)
              if (r.contains(a, b)) {
                const int gi = cg.groupOf[size_t(a) * kNumCodes + size_t(b)];
                oneGroup = group < 0 || gi == group;
                group = gi;
              }
          if (!rc.final && rc.verdict == smt::Verdict::Unknown && (singlePair(r) || oneGroup)) {
            // The induction fails on this pair (group) alone: phase B looks for a witness
            // tree; the pairs are unknown if none is found.
            log("no invariant carries over at " + r.str() + ": " + rc.reason);
            for (int a = r.xa.lo; a <= r.xa.hi; ++a)
              for (int b = r.xb.lo; b <= r.xb.hi; ++b)
                if (r.contains(a, b)) {
                  inductionFailed.set(a, b);
                  C.set(a, b, false);
                }
            changed = true;
            continue;
          }
        } else {
          double limit = wide ? std::min(opt.timeout, opt.quickTimeout) : opt.timeout;
          if (waiting) limit = std::min(limit, opt.deferredQueryTimeout);
          rc = query(r, limit, {});
          if (waiting && rc.verdict == smt::Verdict::Unknown && !rc.final && !rc.tooLarge) {
            log("unknown " + r.str() + " (" + rc.reason + "): the exhaustive prediction runs");
            if (!seed(opt.exhaustiveSeedSeconds)) stack.push_back(r);  // taken again, its usual limit
            changed = res.stats.usedExhaustiveSeed;
            continue;
          }
        }
        if (rc.verdict == smt::Verdict::Unsat) {
          if (!anyOrder) log("unsat " + r.str() + " (" + std::to_string(rc.seconds) + " s)");
          res.proofs.push_back(rc.proof);
          for (int a = r.xa.lo; a <= r.xa.hi; ++a)
            for (int b = r.xb.lo; b <= r.xb.hi; ++b)
              if (r.contains(a, b)) P.set(a, b);
        } else if (rc.verdict == smt::Verdict::Sat) {
          Witness w{rc.cex->a, rc.cex->b, int(rc.cex->xa), int(rc.cex->xb), {}};
          log("sat " + r.str() + " at xa=" + std::to_string(w.xa) + " xb=" + std::to_string(w.xb));
          addCounterexample(w);
          changed = true;
          if (!waiting) bandPredict(w.xa + w.xb - 254);
          // While the prediction waits, such witnesses (the structured inputs missed them) are
          // the solver's until they have cost half its budget.
          if (waiting && (waitingSatSeconds += rc.seconds) > opt.exhaustiveSeedSeconds / 2) {
            log("witnesses by the solver have taken " + std::to_string(waitingSatSeconds) +
                " s: the exhaustive prediction runs");
            seed(opt.exhaustiveSeedSeconds);
          }
        } else {
          log("unknown " + r.str() + ": " + rc.reason);
          if (singlePair(r) || rc.final) {
            // A single pair, or splitting cannot help (the command's deadline has passed,
            // or the solver ran out of memory): the whole region stays unknown.
            res.unknown.push_back(r);
            for (int a = r.xa.lo; a <= r.xa.hi; ++a)
              for (int b = r.xb.lo; b <= r.xb.hi; ++b)
                if (r.contains(a, b)) C.set(a, b, false);
            changed = true;
          } else {
            ++res.stats.splits;
            auto [a, b] = r.halves();
            stack.push_back(b);
            stack.push_back(a);
          }
        }
      }
    }
    // Phase B. At small k the exhaustive engine finds the witnesses of every excluded group
    // at once, where each would otherwise cost counterexample queries (if it has not run yet:
    // a closed form, or no unrolled query so far).
    if (!seedTried) {
      bool pending = false;
      for (size_t gi = 0; gi < cg.groups.size() && !pending; ++gi) {
        auto [rxa, rxb] = cg.groups[gi].pairs.front();
        pending = groupWitness[gi] < 0 && !C.get(rxa, rxb) && !groupUnknown[gi];
      }
      if (pending && seed(opt.exhaustiveSeedSeconds)) {
        again = true;
        continue;
      }
    }
    for (size_t gi = 0; gi < cg.groups.size(); ++gi) {
      const auto &g = cg.groups[gi];
      auto [rxa, rxb] = g.pairs.front();
      if (groupWitness[gi] >= 0 || C.get(rxa, rxb) || groupUnknown[gi]) continue;
      bool inUnknown = false;
      for (const Region &u : res.unknown) inUnknown = inUnknown || u.contains(rxa, rxb);
      if (inUnknown) continue;
      // Known witnesses first (most recent first), each decoded once (q's own tree).
      bool done = false;
      if (witnessBlocks.size() < res.witnesses.size()) witnessBlocks.resize(res.witnesses.size());
      auto knownDisagrees = [&](size_t w) {
        const Witness &kw = res.witnesses[w];
        if (!kw.tree.empty()) return witnessDisagrees(q, kw, rxa, rxb);
        if (!witnessBlocks[w]) witnessBlocks[w] = std::make_unique<DecodedBlock>(q.cfg, kw.a, kw.b);
        return witnessDisagrees(q, *witnessBlocks[w], rxa, rxb);
      };
      for (int w = int(res.witnesses.size()) - 1; w >= 0 && !done; --w)
        if (knownDisagrees(size_t(w))) {
          Witness cw = res.witnesses[size_t(w)];
          cw.xa = rxa;
          cw.xb = rxb;
          done = addWitness(cw, false);
        }
      if (done) continue;
      // Counterexample queries at the representative pair: few free leaves first.
      Region r;
      r.xa = {rxa, rxa};
      r.xb = {rxb, rxb};
      r.e = {rxa + rxb - 254, rxa + rxb - 254};
      CexSearch cs;
      if (anyOrder) {
        // One tree that disagrees excludes the pair. Unsat for every tree tried is no proof
        // for the others: the pair rejoins the candidates and the induction decides.
        bool allUnsat = true;
        cs = searchAnyOrderCounterexample(q, r, *backend, opt.timeout, opt.witnessTimeout, false, allUnsat, opt.log);
        bool failed = false;  // the induction failed on some pair of the group alone
        for (auto [xa, xb] : g.pairs) failed = failed || inductionFailed.get(xa, xb);
        if (cs.verdict != smt::Verdict::Sat) {
          if (allUnsat && !failed) {
            cs.verdict = smt::Verdict::Unsat;
          } else {
            cs.verdict = smt::Verdict::Unknown;
            if (failed)
              cs.reason = "no order-independent proof (no invariant carries over) and no tree of " +
                          std::to_string(trees.size()) + " tried disagrees" + (cs.reason.empty() ? "" : ": " + cs.reason);
          }
        }
      } else {
        cs = searchCounterexample(q, r, *backend, opt.timeout, opt.witnessTimeout, false, opt.log);
      }
      progress();
      res.stats.queries += cs.queries;
      res.stats.solverSeconds += cs.solverSeconds;
      if (cs.verdict == smt::Verdict::Sat) {
        ++res.stats.sat;
        addWitness(*cs.witness, false);
      } else if (cs.verdict == smt::Verdict::Unsat) {
        if (!anyOrder) ++res.stats.unsat;
        // The prediction was wrong: the group agrees. It rejoins the candidate set and
        // phase A proves it with the rest.
        log("agrees after all: group at xa=" + std::to_string(rxa) + " xb=" + std::to_string(rxb));
        for (auto [xa, xb] : g.pairs) C.set(xa, xb);
        again = true;
      } else {
        ++res.stats.unknown;
        log("unknown (witness search) " + r.str() + ": " + cs.reason);
        groupUnknown[gi] = true;
        for (auto [xa, xb] : g.pairs) {
          Region u;
          u.xa = {xa, xa};
          u.xb = {xb, xb};
          u.e = {xa + xb - 254, xa + xb - 254};
          res.unknown.push_back(u);
        }
      }
    }
  }
  // Pairs where the closed form's prediction was wrong (either way).
  if (res.stats.usedClosedForm)
    for (int xa = 0; xa < kNumCodes; ++xa)
      for (int xb = 0; xb < kNumCodes; ++xb)
        if (predicted.get(xa, xb) != C.get(xa, xb)) ++res.stats.predictionMismatches;

  res.agree = C;
  for (int xa = 0; xa < kNumCodes; ++xa)
    for (int xb = 0; xb < kNumCodes; ++xb)
      if (C.get(xa, xb) && !P.get(xa, xb))
        throw std::logic_error("internal: an unproven pair in the agree set");
  res.guard = Guard::fromSet(C);
  for (const Region &gr : res.guard.regions) {
    std::vector<int> ids;
    for (size_t i = 0; i < res.proofs.size(); ++i) {
      Region x = res.proofs[i].region;
      Region inter;
      inter.xa = {std::max(x.xa.lo, gr.xa.lo), std::min(x.xa.hi, gr.xa.hi)};
      inter.xb = {std::max(x.xb.lo, gr.xb.lo), std::min(x.xb.hi, gr.xb.hi)};
      inter.e = {std::max(x.e.lo, gr.e.lo), std::min(x.e.hi, gr.e.hi)};
      if (!inter.xa.empty() && !inter.xb.empty() && !inter.e.empty() && inter.count() > 0)
        ids.push_back(int(i));
    }
    res.regionProofs.push_back(ids);
  }
  res.stats.seconds = smt::secondsSince(t0);
  return res;
}

}  // namespace mxcert::engine

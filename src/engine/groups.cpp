// src/engine/groups.cpp — grouping scale-code pairs (see groups.h).
#include "src/engine/groups.h"

#include "models/guard.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <cstdlib>
#include <map>

namespace mxcert::engine {

namespace {
using CD = ConcreteDomain;

/// Exact class when rnd(2^s v) = 2^s v for every finite element value v of the format.
int dequantClass(const std::vector<CVal> &dec, int s, const AccSpec &acc) {
  // DAZ reads a factor below 2^emin as zero (dequantElement): never the exact class.
  if (acc.subnormals == Subnormals::DAZ && s < acc.fmt.emin()) return s;
  CD d;
  for (const CVal &v : dec) {
    if (v.nan || v.inf) continue;
    CVal x = scaleExact(d, v, Integer(int64_t(s)));
    if (!sameState(roundAcc(d, x, acc), x)) return s;
  }
  return kExactClass;
}

bool pow2Exact(int s, const AccSpec &acc) {
  CD d;
  CVal x = pow2Val(d, Integer(int64_t(s)));
  return sameState(roundAcc(d, x, acc), x);
}
}  // namespace

bool witnessDisagrees(const PairQuery &q, const std::vector<unsigned> &a,
                      const std::vector<unsigned> &b, int xa, int xb) {
  ConcreteInput in{a, b, unsigned(xa), unsigned(xb)};
  std::vector<CVal> r = evaluatePlacements(q.cfg, {q.lhs, q.rhs}, in);
  return !isRelated(r[0], r[1], q.rel);
}

bool witnessDisagrees(const PairQuery &q, DecodedBlock &block, int xa, int xb) {
  std::vector<CVal> r = block.evaluate({q.lhs, q.rhs}, unsigned(xa), unsigned(xb));
  return !isRelated(r[0], r[1], q.rel);
}

bool witnessDisagrees(const PairQuery &q, const Witness &w, int xa, int xb) {
  if (w.tree.empty()) return witnessDisagrees(q, w.a, w.b, xa, xb);
  return witnessDisagrees(withTree(q, Tree::parse(w.tree, q.cfg.k())), w.a, w.b, xa, xb);
}

void runWorkers(size_t n, const std::function<void()> &work, const std::function<void()> &onError) {
  n = std::max<size_t>(n, 1);
  // n - 1 more threads beside this one (fewer when a thread cannot be made: a small address
  // space, ulimit -v), each joined before any exception of a worker is rethrown here.
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(n);
  auto guarded = [&](size_t t) {
    try {
      work();
    } catch (...) {
      errors[t] = std::current_exception();
      if (onError) onError();
    }
  };
  for (size_t t = 1; t < n; ++t) {
    try {
      pool.emplace_back(guarded, t);
    } catch (const std::system_error &) {
      break;
    }
  }
  guarded(0);
  for (std::thread &th : pool) th.join();
  for (const std::exception_ptr &e : errors)
    if (e) std::rethrow_exception(e);
}

void forEachIndex(size_t n, int threads, const std::function<void(size_t)> &fn) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  runWorkers(std::min(size_t(std::max(threads, 1)), std::max<size_t>(n, 1)),
             [&] {
               for (;;) {
                 if (failed.load(std::memory_order_relaxed)) return;
                 const size_t i = next.fetch_add(1);
                 if (i >= n) return;
                 fn(i);
               }
             },
             [&] { failed = true; });
}

std::vector<size_t> disagreeingGroups(const PairQuery &q, const Witness &w, const CodeGroups &cg,
                                      const std::vector<size_t> &candidates, int threads,
                                      const std::function<bool()> &stop) {
  constexpr size_t kChunk = 32;
  std::vector<char> refutes(candidates.size(), 0);
  std::atomic<size_t> next{0};
  std::atomic<bool> stopped{false};
  // One worker: claims chunks of candidates until none is left (or `stop`).
  auto work = [&]() {
    const PairQuery tq = w.tree.empty() ? q : withTree(q, Tree::parse(w.tree, q.cfg.k()));
    DecodedBlock block(tq.cfg, w.a, w.b);  // refers to tq.cfg, which outlives it
    for (;;) {
      if (stopped.load(std::memory_order_relaxed)) return;
      if (stop && stop()) {
        stopped = true;
        return;
      }
      const size_t begin = next.fetch_add(kChunk);
      if (begin >= candidates.size()) return;
      const size_t end = std::min(begin + kChunk, candidates.size());
      for (size_t i = begin; i < end; ++i) {
        auto [xa, xb] = cg.groups[candidates[i]].pairs.front();
        refutes[i] = witnessDisagrees(tq, block, xa, xb) ? 1 : 0;
      }
    }
  };
  const size_t chunks = (candidates.size() + kChunk - 1) / kChunk;
  runWorkers(std::min(size_t(std::max(threads, 1)), std::max<size_t>(chunks, 1)), work, [&] { stopped = true; });
  std::vector<size_t> out;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (refutes[i]) out.push_back(candidates[i]);
  return out;
}

LeafFilter::LeafFilter(const PairQuery &q, const std::vector<unsigned> &a, const std::vector<unsigned> &b,
                       LeafDiffs *memo)
    : q_(&q), memo_(memo) {
  active_ = q.lhs != q.rhs && sameRootStep(q.lhs, q.rhs) && !q.cfg.nvfp4() && !q.cfg.anyOrder;
  if (!active_) return;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    if (std::find(leaves_.begin(), leaves_.end(), std::make_pair(a[i], b[i])) == leaves_.end())
      leaves_.push_back({a[i], b[i]});
}

bool LeafFilter::mayDisagree(int xa, int xb) const {
  if (!active_) return true;
  for (const auto &[ca, cb] : leaves_)
    if (memo_ ? memo_->differs(ca, cb, xa, xb) : leafDiffers(*q_, ca, cb, xa, xb)) return true;
  return false;
}

bool leafDiffers(const PairQuery &q, unsigned a, unsigned b, int xa, int xb) {
  CD d;
  const Scales<CD> s = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
  return leafValuesDiffer(q, decodeElement(d, q.cfg.a, Integer(int64_t(a))), decodeElement(d, q.cfg.b, Integer(int64_t(b))),
                          s);
}

bool leafValuesDiffer(const PairQuery &q, const CVal &a, const CVal &b, const Scales<CD> &s) {
  CD d;
  return !related(d, placementLeaf(d, q.lhs, q.cfg, a, b, s), placementLeaf(d, q.rhs, q.cfg, a, b, s), Relation::Bitwise);
}

bool LeafDiffs::differs(unsigned a, unsigned b, int xa, int xb) {
  const uint32_t key = uint32_t(a) << 16 | uint32_t(b);
  auto it = memo_.find(key);
  if (it == memo_.end()) {
    if (memo_.size() >= kMaxLeaves) return leafDiffers(*q_, a, b, xa, xb);
    it = memo_.emplace(key, std::vector<int8_t>(size_t(kNumCodes) * size_t(kNumCodes), -1)).first;
  }
  int8_t &m = it->second[size_t(xa) * size_t(kNumCodes) + size_t(xb)];
  if (m < 0) m = leafDiffers(*q_, a, b, xa, xb) ? 1 : 0;
  return m == 1;
}

PairQuery withTree(const PairQuery &q, const Tree &t) {
  PairQuery r = q;
  r.cfg = configWithTree(q.cfg, t);
  return r;
}

CodeGroups groupCodePairs(const PairQuery &q, bool collapse, const std::function<bool(int, int)> &only) {
  CD d;
  std::vector<unsigned> codesA(q.cfg.a.numCodes()), codesB(q.cfg.b.numCodes());
  for (unsigned i = 0; i < codesA.size(); ++i) codesA[i] = i;
  for (unsigned i = 0; i < codesB.size(); ++i) codesB[i] = i;
  const std::vector<CVal> decA = decodeElements(q.cfg.a, codesA);
  const std::vector<CVal> decB = decodeElements(q.cfg.b, codesB);

  const Placement ps[2] = {q.lhs, q.rhs};
  auto uses = [&](Placement p) { return ps[0] == p || ps[1] == p; };
  const bool useDq = uses(Placement::Dequant), useP2 = uses(Placement::Post2);
  const bool eLeaf = treeDependsOnE(ps[0]) || treeDependsOnE(ps[1]);
  const bool eRoot = rootDependsOnE(ps[0]) || rootDependsOnE(ps[1]);

  std::vector<int> dqA(kNumCodes, 0), dqB(kNumCodes, 0), p2A(kNumCodes, 0), p2B(kNumCodes, 0);
  if (useP2) {
    // |T| <= the tree on all leaves equal to the largest finite |rnd(t)| (rounding is
    // monotone); every finite T is a multiple of 2^(qa + qb).
    CVal M = finiteVal(d, false, Integer(0), Integer(0));
    for (const CVal &a : decA)
      for (const CVal &b : decB) {
        CVal r = roundAcc(d, mulExact(d, a, b), q.cfg.acc);
        if (r.nan || r.inf) continue;
        r.neg = false;
        Aligned<CD> al = align(d, r.N, r.X, M.N, M.X);
        if (al.A > al.B) M = r;
      }
    std::vector<CVal> leaves(size_t(q.cfg.k()), M);
    CVal Tmax = evalTree(d, q.cfg.tree, leaves, q.cfg.acc);
    const int grid = q.cfg.a.quantumExp() + q.cfg.b.quantumExp();
    for (int x = 0; x < kNumCodes; ++x) {
      const int s = x - 127;
      // On the grid (and, with FTZ, not subnormal, which would be flushed).
      const int lowest = q.cfg.acc.subnormals != Subnormals::Keep ? q.cfg.acc.fmt.emin() : q.cfg.acc.fmt.quantumExp();
      bool exactA = pow2Exact(s, q.cfg.acc) && grid + s >= lowest && !Tmax.inf &&
                    !Tmax.nan &&
                    (Tmax.N.isZero() ||
                     Tmax.X.toInt64() + int64_t(Tmax.N.msb()) + s + 1 <= q.cfg.acc.fmt.emax);
      p2A[size_t(x)] = collapse && exactA ? kExactClass : s;
      p2B[size_t(x)] = collapse && pow2Exact(s, q.cfg.acc) ? kExactClass : s;
    }
  }
  if (useDq)
    for (int x = 0; x < kNumCodes; ++x) {
      const int s = x - 127;
      dqA[size_t(x)] = collapse ? dequantClass(decA, s, q.cfg.acc) : s;
      dqB[size_t(x)] = collapse ? dequantClass(decB, s, q.cfg.acc) : s;
    }

  using Key = std::array<int, 6>;
  std::map<Key, std::vector<std::pair<int, int>>> byKey;
  for (int xa = 0; xa < kNumCodes; ++xa)
    for (int xb = 0; xb < kNumCodes; ++xb) {
      if (only && !only(xa, xb)) continue;
      const int e = xa + xb - 254;
      Key k{useDq ? dqA[size_t(xa)] : 0, useDq ? dqB[size_t(xb)] : 0,
            useP2 ? p2A[size_t(xa)] : 0, useP2 ? p2B[size_t(xb)] : 0, eLeaf ? e : kNoKey,
            eRoot ? e : kNoKey};
      if (!collapse && (useDq || useP2)) {
        k[0] = xa;  // every pair its own group
        k[1] = xb;
      }
      byKey[k].push_back({xa, xb});
    }
  auto isFamily = [&](const Key &k) {
    return collapse && (!useDq || (k[0] == kExactClass && k[1] == kExactClass)) &&
           (!useP2 || (k[2] == kExactClass && k[3] == kExactClass));
  };
  CodeGroups out;
  for (auto &[k, pairs] : byKey) {
    CodeGroups::Group g;
    g.key = k;
    g.pairs = std::move(pairs);
    g.family = isFamily(k);
    g.e = g.pairs.front().first + g.pairs.front().second - 254;
    out.groups.push_back(std::move(g));
  }
  std::stable_sort(out.groups.begin(), out.groups.end(), [](const auto &a, const auto &b) {
    if (a.family != b.family) return a.family;
    if (a.family && std::abs(a.e) != std::abs(b.e)) return std::abs(a.e) < std::abs(b.e);
    return a.key < b.key;
  });
  out.groupOf.assign(size_t(kNumCodes) * kNumCodes, -1);
  for (size_t i = 0; i < out.groups.size(); ++i)
    for (auto [xa, xb] : out.groups[i].pairs) out.groupOf[size_t(xa) * kNumCodes + size_t(xb)] = int(i);
  return out;
}

}  // namespace mxcert::engine

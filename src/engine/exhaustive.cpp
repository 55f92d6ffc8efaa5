// src/engine/exhaustive.cpp — layered exhaustive execution (see exhaustive.h).
#include "src/engine/exhaustive.h"

#include "models/nvfp4.h"
#include "src/engine/groups.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <map>
#include <memory>
#include <unordered_map>

namespace mxcert::engine {

namespace {

using CD = ConcreteDomain;
using CAcc = SumAcc<CD>;


// ---------------------------------------------------------------------------------------
// Canonical joint states and hashing.

CAcc canonAcc(const CAcc &a) {
  CAcc c = a;
  if (c.anyNaN || (c.posInf && c.negInf))
    return CAcc{true, false, false, false, Integer(0), Integer(0)};
  if (c.posInf || c.negInf) return CAcc{false, c.posInf, c.negInf, false, Integer(0), Integer(0)};
  if (c.S.isZero()) {
    c.X = Integer(0);
    return c;
  }
  c.allNegZero = false;
  unsigned tz = c.S.trailingZeros();
  if (tz) {
    c.S = c.S >> tz;
    c.X = c.X + Integer(int64_t(tz));
  }
  return c;
}

bool eqVal(const CVal &a, const CVal &b) {  // both canonical
  return a.nan == b.nan && a.inf == b.inf && a.neg == b.neg && a.N == b.N && a.X == b.X;
}
size_t hashVal(const CVal &c) {  // canonical
  return c.N.hash() ^ (c.X.hash() * 0x100000001B3ull) ^ (size_t(c.nan) << 61) ^
         (size_t(c.inf) << 62) ^ (size_t(c.neg) << 63);
}
bool eqAcc(const CAcc &a, const CAcc &b) {
  return a.anyNaN == b.anyNaN && a.posInf == b.posInf && a.negInf == b.negInf &&
         a.allNegZero == b.allNegZero && a.S == b.S && a.X == b.X;
}
size_t hashAcc(const CAcc &c) {
  return c.S.hash() ^ (c.X.hash() * 0x100000001B3ull) ^ (size_t(c.anyNaN) << 60) ^
         (size_t(c.posInf) << 61) ^ (size_t(c.negInf) << 62) ^ (size_t(c.allNegZero) << 63);
}

struct Joint {
  CVal v[2];
};
struct JointAcc {
  CAcc s[2];
};
struct JointHash {
  size_t operator()(const Joint &j) const { return hashVal(j.v[0]) * 1000003u ^ hashVal(j.v[1]); }
};
struct JointEq {
  bool operator()(const Joint &a, const Joint &b) const {
    return eqVal(a.v[0], b.v[0]) && eqVal(a.v[1], b.v[1]);
  }
};
struct JointAccHash {
  size_t operator()(const JointAcc &j) const { return hashAcc(j.s[0]) * 1000003u ^ hashAcc(j.s[1]); }
};
struct JointAccEq {
  bool operator()(const JointAcc &a, const JointAcc &b) const {
    return eqAcc(a.s[0], b.s[0]) && eqAcc(a.s[1], b.s[1]);
  }
};

/// A deduplicating list of items with one provenance record each.
template <class T, class P, class H, class E> struct Table {
  std::unordered_map<T, int32_t, H, E> index;
  std::vector<T> items;
  std::vector<P> prov;
  size_t limit = 0;
  void insert(T &&t, P p) {
    auto it = index.find(t);
    if (it != index.end()) return;
    if (limit && items.size() >= limit)
      throw ResourceLimit("exhaustive engine: more than " + std::to_string(limit) +
                          " distinct states in one layer");
    index.emplace(t, int32_t(items.size()));
    items.push_back(std::move(t));
    prov.push_back(p);
  }
  /// Frees the index (items and provenance stay).
  void seal() { std::unordered_map<T, int32_t, H, E>().swap(index); }
};

/// Range of binade exponents (X + msb N) of nonzero finite values.
struct Track {
  bool any = false;
  int64_t minE = INT64_MAX, maxE = INT64_MIN;
  void add(const CVal &v) {
    if (v.nan || v.inf || v.N.isZero()) return;
    int64_t E = v.X.toInt64() + int64_t(v.N.msb());
    any = true;
    minE = std::min(minE, E);
    maxE = std::max(maxE, E);
  }
  void merge(const Track &o) {
    if (!o.any) return;
    any = true;
    minE = std::min(minE, o.minE);
    maxE = std::max(maxE, o.maxE);
  }
};

using Key = std::array<int, 6>;  // see CodeGroups::Group::key

// ---------------------------------------------------------------------------------------
// One layered evaluation of the tree for one leaf key.

using LeafTable = Table<Joint, int32_t, JointHash, JointEq>;
using LayerTable = Table<JointAcc, std::pair<int32_t, int32_t>, JointAccHash, JointAccEq>;

class TreeEval {
public:
  TreeEval(const PairQuery &q, const std::vector<CVal> &decA, const std::vector<CVal> &decB,
           int xa, int xb, size_t limit)
      : q_(q), decA_(decA), decB_(decB), limit_(limit) {
    CD d;
    sc_ = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
    if (q.cfg.nvfp4()) nv_ = makeNvfp4Scales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
    const Placement ps[2] = {q.lhs, q.rhs};
    leaves_.limit = limit;
    const int nB = int(decB.size());
    for (int ca = 0; ca < int(decA.size()); ++ca)
      for (int cb = 0; cb < nB; ++cb) {
        Joint j;
        for (int s = 0; s < 2; ++s) {
          j.v[s] = canonical(q.cfg.nvfp4() ? nvfp4Leaf(d, ps[s], q.cfg, decA[size_t(ca)], decB[size_t(cb)], nv_)
                                           : placementLeaf(d, ps[s], q.cfg, decA[size_t(ca)], decB[size_t(cb)], sc_));
          if (treeDependsOnE(ps[s]) && !q.cfg.nvfp4())
            track_.add(scaleExact(d, mulExact(d, decA[size_t(ca)], decB[size_t(cb)]), sc_.e));
        }
        leaves_.insert(std::move(j), ca * nB + cb);
      }
    leaves_.seal();
    const Tree &t = q.cfg.tree;
    nodes_.resize(t.nodes().size());
    for (size_t n = 0; n + 1 < t.nodes().size(); ++n)
      if (t.nodes()[n].leaf < 0) evalInner(int(n));
    const Tree::Node &root = t.nodes().back();
    if (root.leaf < 0) rootLayers_ = foldLayers(t.root(), int(root.children.size()) - 1);
  }

  /// Checks the root for the code pair (xa, xb): returns a witness when some input makes the
  /// placements unrelated; otherwise fills `rootTrack` with the e-dependent root values.
  std::optional<Witness> checkRoot(int xa, int xb, Track &rootTrack, size_t &maxLayer) {
    CD d;
    Scales<CD> sc = makeScales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
    Nvfp4Scales<CD> nv;
    if (q_.cfg.nvfp4()) nv = makeNvfp4Scales(d, Integer(int64_t(xa)), Integer(int64_t(xb)));
    const Placement ps[2] = {q_.lhs, q_.rhs};
    const Tree &t = q_.cfg.tree;
    const Tree::Node &root = t.nodes().back();
    auto check = [&](const CVal T[2]) -> bool {
      CVal R[2];
      for (int s = 0; s < 2; ++s) {
        R[s] = q_.cfg.nvfp4() ? nvfp4Root(d, ps[s], q_.cfg, T[s], nv) : placementRoot(d, ps[s], q_.cfg, T[s], sc);
        if (rootDependsOnE(ps[s])) rootTrack.add(scaleExact(d, T[s], sc.e));
      }
      return related(d, R[0], R[1], q_.rel);
    };
    if (root.leaf >= 0) {
      for (size_t i = 0; i < leaves_.items.size(); ++i)
        if (!check(leaves_.items[i].v)) return witnessFromLeafState(int32_t(i), xa, xb);
      return std::nullopt;
    }
    const int rootIdx = t.root();
    const std::vector<LayerTable> &layers = rootLayers_;
    maxLayer = std::max(maxLayer, layers.back().items.size());
    const LayerTable &last = layers.back();
    const int lastChild = root.children.back();
    const std::vector<Joint> &cs = statesOf(lastChild);
    if (codeFreeTrees()) {
      // The trees' results do not depend on the codes: their distinct joint values, computed
      // once, are all the root step needs (it reads values only).
      const RootTable &rt = rootStates();
      maxLayer = std::max(maxLayer, rt.items.size());
      for (size_t i = 0; i < rt.items.size(); ++i) {
        tick();
        if (!check(rt.items[i].v)) {
          Witness w = emptyWitness(xa, xb);
          fillNode(lastChild, rt.prov[i].second, w);
          fillLayer(rootIdx, layers, int(layers.size()) - 1, rt.prov[i].first, w);
          return w;
        }
      }
      return std::nullopt;
    }
    for (size_t i = 0; i < last.items.size(); ++i) {
      for (size_t c = 0; c < cs.size(); ++c) {
        tick();
        CVal T[2];
        for (int s = 0; s < 2; ++s) {
          CVal sum = sumFinish(d, sumAdd(d, last.items[i].s[s], cs[c].v[s]));
          if (treeDependsOnE(ps[s])) rootTrack.add(sum);
          T[s] = roundAcc(d, sum, q_.cfg.acc);
        }
        if (!check(T)) {
          Witness w = emptyWitness(xa, xb);
          fillNode(lastChild, int32_t(c), w);
          fillLayer(rootIdx, layers, int(layers.size()) - 1, int32_t(i), w);
          return w;
        }
      }
    }
    return std::nullopt;
  }

  const Track &track() const { return track_; }
  size_t maxLayer() const { return maxLayer_; }
  /// Whether neither placement's tree depends on the codes (post and post2: their leaves are
  /// rnd(a b)), so that one TreeEval serves every code pair.
  bool codeFreeTrees() const { return !treeDependsOnE(q_.lhs) && !treeDependsOnE(q_.rhs); }

private:
  /// The distinct joint root values (T1, T2) of a tree with an inner root, each with its
  /// provenance (item of the root's last fold layer, state of its last child).
  using RootTable = Table<Joint, std::pair<int32_t, int32_t>, JointHash, JointEq>;

  /// The root table, built on first use (codeFreeTrees() only: otherwise it would depend on
  /// the code pair).
  const RootTable &rootStates() {
    if (rootStatesBuilt_) return rootStates_;
    CD d;
    const Tree::Node &root = q_.cfg.tree.nodes().back();
    const LayerTable &last = rootLayers_.back();
    const std::vector<Joint> &cs = statesOf(root.children.back());
    rootStates_.limit = limit_;
    for (size_t i = 0; i < last.items.size(); ++i)
      for (size_t c = 0; c < cs.size(); ++c) {
        tick();
        Joint j;
        for (int s = 0; s < 2; ++s)
          j.v[s] = canonical(roundAcc(d, sumFinish(d, sumAdd(d, last.items[i].s[s], cs[c].v[s])), q_.cfg.acc));
        rootStates_.insert(std::move(j), {int32_t(i), int32_t(c)});
      }
    rootStates_.seal();
    maxLayer_ = std::max(maxLayer_, rootStates_.items.size());
    rootStatesBuilt_ = true;
    return rootStates_;
  }

  /// Throws ResourceLimit once the command's deadline has passed (the whole exhaustive
  /// result is then discarded: it is all or nothing). Returns true otherwise.
  bool checkDeadline() const {
    if (q_.budget && q_.budget->passed())
      throw ResourceLimit(q_.budget->stopReason() + " during an exhaustive evaluation (the "
                          "exhaustive table is all or nothing)");
    return true;
  }
  /// One evaluation done: checks the deadline every kEvaluationsPerCheck of them. Every loop
  /// over states calls it once per evaluation, so that --timeout holds however the work is
  /// split between the outer and inner loops (a check every 256 outer items let e2m3 x e5m2
  /// k = 4 pairwise run 180 s past a --timeout of 10 s: 256 times millions of inner states).
  void tick() const {
    if ((++ticks_ & (kEvaluationsPerCheck - 1)) == 0) checkDeadline();
  }
  static constexpr size_t kEvaluationsPerCheck = 4096;  // a power of two
  mutable size_t ticks_ = 0;  ///< evaluations so far (tick)

  struct NodeData {
    std::vector<Joint> states;
    std::vector<int32_t> prov;        // index into the last layer
    std::vector<LayerTable> layers;   // fold layers (kept for witness reconstruction)
  };

  const std::vector<Joint> &statesOf(int node) const {
    return q_.cfg.tree.nodes()[size_t(node)].leaf >= 0 ? leaves_.items : nodes_[size_t(node)].states;
  }

  /// Layers 0..upto-1 of the fold of `node`'s children (layer j sums children 0..j).
  std::vector<LayerTable> foldLayers(int node, int upto) {
    CD d;
    const Tree::Node &n = q_.cfg.tree.nodes()[size_t(node)];
    std::vector<LayerTable> layers;
    layers.resize(size_t(upto));
    const std::vector<Joint> &c0 = statesOf(n.children[0]);
    layers[0].limit = limit_;
    for (size_t c = 0; c < c0.size(); ++c)
      layers[0].insert(JointAcc{{canonAcc(sumStart(d, c0[c].v[0])), canonAcc(sumStart(d, c0[c].v[1]))}},
                       {-1, int32_t(c)});
    for (int j = 1; j < upto; ++j) {
      const std::vector<Joint> &cj = statesOf(n.children[size_t(j)]);
      LayerTable &L = layers[size_t(j)];
      L.limit = limit_;
      const LayerTable &P = layers[size_t(j - 1)];
      for (size_t i = 0; i < P.items.size(); ++i)
        for (size_t c = 0; c < cj.size(); ++c) {
          tick();
          L.insert(JointAcc{{canonAcc(sumAdd(d, P.items[i].s[0], cj[c].v[0])),
                             canonAcc(sumAdd(d, P.items[i].s[1], cj[c].v[1]))}},
                   {int32_t(i), int32_t(c)});
        }
      maxLayer_ = std::max(maxLayer_, L.items.size());
      layers[size_t(j - 1)].seal();
    }
    layers.back().seal();
    return layers;
  }

  void evalInner(int node) {
    CD d;
    const Placement ps[2] = {q_.lhs, q_.rhs};
    const Tree::Node &n = q_.cfg.tree.nodes()[size_t(node)];
    NodeData &nd = nodes_[size_t(node)];
    nd.layers = foldLayers(node, int(n.children.size()));
    Table<Joint, int32_t, JointHash, JointEq> out;
    out.limit = limit_;
    const LayerTable &last = nd.layers.back();
    for (size_t i = 0; i < last.items.size(); ++i) {
      tick();
      Joint j;
      for (int s = 0; s < 2; ++s) {
        CVal sum = sumFinish(d, last.items[i].s[s]);
        if (treeDependsOnE(ps[s])) track_.add(sum);
        j.v[s] = canonical(roundAcc(d, sum, q_.cfg.acc));
      }
      out.insert(std::move(j), int32_t(i));
    }
    nd.states = std::move(out.items);
    nd.prov = std::move(out.prov);
    maxLayer_ = std::max(maxLayer_, nd.states.size());
  }

  Witness emptyWitness(int xa, int xb) const {
    Witness w;
    w.a.assign(size_t(q_.cfg.k()), 0);
    w.b.assign(size_t(q_.cfg.k()), 0);
    w.xa = xa;
    w.xb = xb;
    return w;
  }
  Witness witnessFromLeafState(int32_t i, int xa, int xb) const {
    Witness w = emptyWitness(xa, xb);
    fillNode(q_.cfg.tree.root(), i, w);
    return w;
  }
  void fillNode(int node, int32_t state, Witness &w) const {
    const Tree::Node &n = q_.cfg.tree.nodes()[size_t(node)];
    if (n.leaf >= 0) {
      int32_t pr = leaves_.prov[size_t(state)];
      const int nB = int(decB_.size());
      w.a[size_t(n.leaf)] = unsigned(pr / nB);
      w.b[size_t(n.leaf)] = unsigned(pr % nB);
      return;
    }
    const NodeData &nd = nodes_[size_t(node)];
    fillLayer(node, nd.layers, int(nd.layers.size()) - 1, nd.prov[size_t(state)], w);
  }
  void fillLayer(int node, const std::vector<LayerTable> &layers, int j, int32_t entry,
                 Witness &w) const {
    const Tree::Node &n = q_.cfg.tree.nodes()[size_t(node)];
    for (; j >= 0; --j) {
      auto [prev, c] = layers[size_t(j)].prov[size_t(entry)];
      fillNode(n.children[size_t(j)], c, w);
      entry = prev;
    }
  }

  const PairQuery &q_;
  const std::vector<CVal> &decA_, &decB_;
  size_t limit_;
  Scales<CD> sc_;
  Nvfp4Scales<CD> nv_;  ///< the e4m3 scales (NVFP4 configurations only)
  LeafTable leaves_;
  std::vector<NodeData> nodes_;
  std::vector<LayerTable> rootLayers_;  // the root's fold layers, all but the last child
  Track track_;
  size_t maxLayer_ = 0;
  RootTable rootStates_;
  bool rootStatesBuilt_ = false;
};

/// The index of one of the 16 most recent witnesses that refutes (xa, xb) (the newest first),
/// or -1; a hit is counted in the stats.
int recentWitness(const PairQuery &q, ExhaustiveResult &res, int xa, int xb) {
  for (int w = int(res.witnesses.size()) - 1; w >= 0 && w >= int(res.witnesses.size()) - 16; --w)
    if (witnessDisagrees(q, res.witnesses[size_t(w)].a, res.witnesses[size_t(w)].b, xa, xb)) {
      ++res.stats.witnessHits;
      return w;
    }
  return -1;
}

/// The NVFP4 table: every e4m3 code pair 0..127 x 0..127 on its own (no grouping: the scales
/// are no powers of two, so no scaling argument applies), a recent witness tried first.
void runExhaustiveNvfp4(const PairQuery &q, const ExhaustiveOptions &opt, const std::vector<CVal> &decA,
                        const std::vector<CVal> &decB, ExhaustiveResult &res) {
  const int n = E4m3ScaleCode::kMaxCode + 1;
  res.stats.groups = size_t(n) * size_t(n);
  long done = 0;
  std::unique_ptr<TreeEval> shared;
  for (int xa = 0; xa < n; ++xa)
    for (int xb = 0; xb < n; ++xb, ++done) {
      if (q.budget && q.budget->passed())
        throw ResourceLimit(q.budget->stopReason() + " after " + std::to_string(done) +
                            " code pairs (the exhaustive table is all or nothing)");
      if (opt.progress) opt.progress(done, long(n) * n);
      if (opt.onlyPairs && !opt.onlyPairs(xa, xb)) continue;
      int verdict = recentWitness(q, res, xa, xb);
      if (verdict < 0) {
        // post and post2 build the same trees for every pair: one evaluation serves them all.
        if (!shared || !shared->codeFreeTrees()) shared = std::make_unique<TreeEval>(q, decA, decB, xa, xb, opt.maxStates);
        TreeEval &te = *shared;
        ++res.stats.treeEvaluations;
        Track rootTrack;
        size_t maxLayer = te.maxLayer();
        std::optional<Witness> w = te.checkRoot(xa, xb, rootTrack, maxLayer);
        res.stats.maxLayerStates = std::max(res.stats.maxLayerStates, maxLayer);
        if (w) {
          res.witnesses.push_back(*w);
          verdict = int(res.witnesses.size()) - 1;
        }
      }
      if (verdict < 0)
        res.agree.set(xa, xb);
      else
        res.witnessOf[size_t(xa) * kNumCodes + size_t(xb)] = verdict;
    }
}

}  // namespace

namespace {
ExhaustiveResult runExhaustiveOneTree(const PairQuery &q, const ExhaustiveOptions &opt);

/// Any order: the intersection of the agree sets of every tree shape (Tree::shapes: every
/// relabeling of a shape has the same agree set), each excluded pair refuted by a witness of
/// the first shape that refutes it (the witness names its tree).
ExhaustiveResult runExhaustiveAnyOrder(const PairQuery &q, const ExhaustiveOptions &opt) {
  if (q.cfg.k() > kMaxAllTreesK)
    throw ResourceLimit("the exhaustive engine enumerates every tree only for k <= " + std::to_string(kMaxAllTreesK) +
                        " (k = " + std::to_string(q.cfg.k()) + "; use --engine solver)");
  const std::vector<Tree> trees = Tree::shapes(q.cfg.k(), q.cfg.anyOrder);
  ExhaustiveResult out;
  out.witnessOf.assign(size_t(kNumCodes) * kNumCodes, -1);
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t ti = 0; ti < trees.size(); ++ti) {
    ExhaustiveOptions o = opt;
    if (opt.progress) o.progress = [&](long done, long total) { opt.progress(long(ti) * total + done, long(trees.size()) * total); };
    ExhaustiveResult r = runExhaustiveOneTree(withTree(q, trees[ti]), o);
    std::vector<int> map(r.witnesses.size(), -1);
    for (size_t i = 0; i < out.witnessOf.size(); ++i) {
      const int w = r.witnessOf[i];
      if (w < 0 || out.witnessOf[i] >= 0) continue;
      if (map[size_t(w)] < 0) {
        map[size_t(w)] = int(out.witnesses.size());
        Witness wt = r.witnesses[size_t(w)];
        wt.tree = trees[ti].sexpr();
        out.witnesses.push_back(wt);
      }
      out.witnessOf[i] = map[size_t(w)];
    }
    out.agree = ti == 0 ? r.agree : out.agree.intersect(r.agree);
    out.stats.groups = std::max(out.stats.groups, r.stats.groups);
    out.stats.treeEvaluations += r.stats.treeEvaluations;
    out.stats.witnessHits += r.stats.witnessHits;
    out.stats.collapsed += r.stats.collapsed;
    out.stats.maxLayerStates = std::max(out.stats.maxLayerStates, r.stats.maxLayerStates);
  }
  out.stats.trees = trees.size();
  out.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}
}  // namespace

ExhaustiveResult runExhaustive(const PairQuery &q, const ExhaustiveOptions &opt) {
  if (q.cfg.anyOrder) return runExhaustiveAnyOrder(q, opt);
  return runExhaustiveOneTree(q, opt);
}

namespace {
ExhaustiveResult runExhaustiveOneTree(const PairQuery &q, const ExhaustiveOptions &opt) {
  auto t0 = std::chrono::steady_clock::now();
  ExhaustiveResult res;
  res.witnessOf.assign(size_t(kNumCodes) * kNumCodes, -1);

  std::vector<unsigned> codesA(q.cfg.a.numCodes()), codesB(q.cfg.b.numCodes());
  for (unsigned i = 0; i < codesA.size(); ++i) codesA[i] = i;
  for (unsigned i = 0; i < codesB.size(); ++i) codesB[i] = i;
  const std::vector<CVal> decA = decodeElements(q.cfg.a, codesA);
  const std::vector<CVal> decB = decodeElements(q.cfg.b, codesB);
  if (q.cfg.nvfp4()) {
    runExhaustiveNvfp4(q, opt, decA, decB, res);
    res.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
  }

  CodeGroups cg = groupCodePairs(q, opt.collapse, opt.onlyPairs);
  res.stats.groups = cg.groups.size();

  std::vector<std::pair<int, int>> agreedIntervals;  // e-intervals proven by scaling
  std::unique_ptr<TreeEval> cached;
  std::array<int, 3> cachedLeafKey{kNoKey, kNoKey, kNoKey};
  const AccFormat &af = q.cfg.acc.fmt;

  size_t groupsDone = 0;
  for (const CodeGroups::Group &grp : cg.groups) {
    if (q.budget && q.budget->passed())
      throw ResourceLimit(q.budget->stopReason() + " after " + std::to_string(groupsDone) + " of " +
                          std::to_string(cg.groups.size()) + " evaluation groups (the exhaustive table is all or "
                          "nothing)");
    if (opt.progress) opt.progress(long(groupsDone), long(cg.groups.size()));
    ++groupsDone;
    const Key &key = grp.key;
    const auto &pairs = grp.pairs;
    const auto [rxa, rxb] = pairs.front();
    const int e = rxa + rxb - 254;
    // 1. Re-use a recent witness.
    int verdict = recentWitness(q, res, rxa, rxb);  // -1 agree, >= 0 witness index
    if (verdict < 0) verdict = -2;                  // -2: not decided yet
    // 2. The scaling argument.
    if (verdict == -2 && grp.family)
      for (auto [lo, hi] : agreedIntervals)
        if (lo <= e && e <= hi) {
          verdict = -1;
          ++res.stats.collapsed;
          break;
        }
    // 3. Full evaluation.
    if (verdict == -2) {
      std::array<int, 3> lk{key[0], key[1], key[4]};  // what the leaves depend on
      if (!cached || lk != cachedLeafKey) {
        cached.reset();
        cached = std::make_unique<TreeEval>(q, decA, decB, rxa, rxb, opt.maxStates);
        cachedLeafKey = lk;
      }
      ++res.stats.treeEvaluations;
      Track rootTrack;
      size_t maxLayer = cached->maxLayer();
      std::optional<Witness> w = cached->checkRoot(rxa, rxb, rootTrack, maxLayer);
      res.stats.maxLayerStates = std::max(res.stats.maxLayerStates, maxLayer);
      if (w) {
        res.witnesses.push_back(*w);
        verdict = int(res.witnesses.size()) - 1;
      } else {
        verdict = -1;
        if (grp.family) {
          Track all = cached->track();
          all.merge(rootTrack);
          if (!all.any) {
            agreedIntervals.push_back({-254, 254});
          } else {
            // Normal regime: every value stays in [2^emin, 2^emax) after a shift by d binades.
            const int64_t dlo = int64_t(af.emin()) - all.minE;
            const int64_t dhi = int64_t(af.emax) - 1 - all.maxE;
            if (dlo <= 0 && dhi >= 0) agreedIntervals.push_back({int(e + dlo), int(e + dhi)});
            // Flushed regime: every value is below half the smallest subnormal (RNE) or below
            // it (RTZ), so it rounds to a zero of its own sign, and so does every smaller one.
            const int64_t flushTop = int64_t(af.quantumExp()) - (q.cfg.acc.rounding == Rounding::RNE ? 2 : 1);
            if (all.maxE <= flushTop) agreedIntervals.push_back({-254, e});
          }
        }
      }
    }
    for (auto [xa, xb] : pairs) {
      if (verdict == -1)
        res.agree.set(xa, xb);
      else
        res.witnessOf[size_t(xa) * kNumCodes + size_t(xb)] = verdict;
    }
  }
  res.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace

}  // namespace mxcert::engine

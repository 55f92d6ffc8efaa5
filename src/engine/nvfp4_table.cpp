// src/engine/nvfp4_table.cpp — the NVFP4 solver table (see nvfp4_table.h).
#include "src/engine/nvfp4_table.h"

#include "src/engine/exhaustive.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <set>
#include <stdexcept>

namespace mxcert::engine {

namespace {
size_t pairIdx(int xa, int xb) { return size_t(xa) * kNumCodes + size_t(xb); }
constexpr int kSide = E4m3ScaleCode::kMaxCode + 1;  // codes 0..127

/// The binades ja of the line j of a class whose binade ranges are ra, rb: those whose partner
/// jb = j - ja lies in rb (possibly empty).
CodeRange lineJa(const CodeRange &ra, const CodeRange &rb, int j) {
  return {std::max(ra.lo, j - rb.hi), std::min(ra.hi, j - rb.lo)};
}

/// The boxes of class (ma, mb) that cover exactly the cells (ja, jb) of `cells` (a set of code
/// pairs of that class): runs of consecutive j whose whole line is in the set become one box
/// over the class's binades; every other line gives one box per run of consecutive ja.
std::vector<Nvfp4Region> boxesOf(int ma, int mb, const CodeSet &cells) {
  const CodeRange ra = e4m3JRange(ma), rb = e4m3JRange(mb);
  std::vector<Nvfp4Region> out;
  int fullLo = 0, fullHi = -1;  // the current run of whole lines
  auto flush = [&]() {
    if (fullLo <= fullHi) out.push_back(Nvfp4Region{ma, mb, ra, rb, {fullLo, fullHi}}.tightened());
    fullHi = fullLo - 1;
  };
  for (int j = ra.lo + rb.lo; j <= ra.hi + rb.hi; ++j) {
    bool any = false, all = true;
    for (int ja = ra.lo; ja <= ra.hi; ++ja) {
      const int jb = j - ja;
      if (!rb.contains(jb)) continue;
      const bool in = cells.get(e4m3CodeAt(ma, ja), e4m3CodeAt(mb, jb));
      any = any || in;
      all = all && in;
    }
    if (!any) {
      flush();
      continue;
    }
    if (all) {
      if (fullLo > fullHi) fullLo = fullHi = j;
      else fullHi = j;
      continue;
    }
    flush();
    int run = ra.hi + 1;  // start of the current run of ja
    for (int ja = ra.lo; ja <= ra.hi + 1; ++ja) {
      const int jb = j - ja;
      const bool in = ja <= ra.hi && rb.contains(jb) && cells.get(e4m3CodeAt(ma, ja), e4m3CodeAt(mb, jb));
      if (in && run > ra.hi) run = ja;
      if (!in && run <= ra.hi) {
        out.push_back(Nvfp4Region{ma, mb, {run, ja - 1}, rb, {j, j}}.tightened());
        run = ra.hi + 1;
      }
    }
  }
  flush();
  return out;
}

/// Halves a box: its j range when it has several j, else its ja range.
std::pair<Nvfp4Region, Nvfp4Region> split(const Nvfp4Region &r) {
  Nvfp4Region a = r, b = r;
  if (r.j.lo < r.j.hi) {
    const int mid = r.j.lo + (r.j.hi - r.j.lo) / 2;
    a.j.hi = mid;
    b.j.lo = mid + 1;
  } else {
    const int mid = r.ja.lo + (r.ja.hi - r.ja.lo) / 2;
    a.ja.hi = mid;
    b.ja.lo = mid + 1;
  }
  return {a.tightened(), b.tightened()};
}
}  // namespace

SolverTableResult runNvfp4SolverTable(const PairQuery &q, const SolverTableOptions &opt) {
  if (!q.cfg.nvfp4() || q.cfg.anyOrder) throw std::logic_error("runNvfp4SolverTable: an nvfp4 question of one tree");
  const auto t0 = std::chrono::steady_clock::now();
  auto log = [&](const std::string &s) {
    if (opt.log) opt.log(s);
  };
  SolverTableResult res;
  res.witnessOf.assign(size_t(kNumCodes) * kNumCodes, -1);
  std::unique_ptr<smt::Backend> backend = smt::makeBackend(opt.solver, opt.threads);
  if (!backend) throw std::invalid_argument("solver '" + opt.solver + "' is not available");
  CodeSet decided;  // proven or refuted
  long decidedCount = 0;
  const long total = long(kSide) * kSide;
  auto progress = [&]() {
    if (opt.progress) opt.progress(decidedCount, total);
  };
  auto addWitness = [&](const Witness &w) {
    res.witnesses.push_back(w);
    return int(res.witnesses.size()) - 1;
  };
  auto refute = [&](int xa, int xb, int w) {
    if (decided.get(xa, xb)) return;
    decided.set(xa, xb);
    res.witnessOf[pairIdx(xa, xb)] = w;
    ++decidedCount;
  };
  auto prove = [&](const ProofRecord &p) {
    for (int xa = 0; xa < kSide; ++xa)
      for (int xb = 0; xb < kSide; ++xb)
        if (p.nv->contains(xa, xb) && !decided.get(xa, xb)) {
          decided.set(xa, xb);
          res.agree.set(xa, xb);
          ++decidedCount;
        }
    res.proofs.push_back(p);
  };
  // The pairs of s that are not decided yet.
  auto undecided = [&](const CodeSet &s) { return s.intersect(decided.complement()); };
  // Tries witness w (confirmed by the reference evaluator at its own pair) on the undecided
  // pairs of `cells`.
  auto spread = [&](int w, const CodeSet &cells) {
    for (int xa = 0; xa < kSide; ++xa)
      for (int xb = 0; xb < kSide; ++xb)
        if (cells.get(xa, xb) && !decided.get(xa, xb) && witnessDisagrees(q, res.witnesses[size_t(w)], xa, xb))
          refute(xa, xb, w);
  };

  const int k = q.cfg.k();
  // Takes the witnesses of an exhaustive run `x` (of q, or of q at a smaller k): each, padded
  // with +0 leaves (code 0) to k, refutes its pair where the reference evaluator confirms it
  // at k. A witness of q itself must replay (`mustReplay`: else a logic error); a padded one
  // may not. Returns the pairs refuted.
  auto takeWitnesses = [&](const ExhaustiveResult &x, bool mustReplay) -> long {
    const long before = decidedCount;
    std::vector<int> mine(x.witnesses.size(), -1);  // x's witness index -> ours
    for (int xa = 0; xa < kSide; ++xa)
      for (int xb = 0; xb < kSide; ++xb) {
        const int w = x.witnessOf[pairIdx(xa, xb)];
        if (w < 0) continue;
        Witness wi = x.witnesses[size_t(w)];
        wi.a.resize(size_t(k), 0u);
        wi.b.resize(size_t(k), 0u);
        if (!witnessDisagrees(q, wi, xa, xb)) {
          if (mustReplay)
            throw std::logic_error("an exhaustive witness does not replay at " + std::to_string(xa) + "," +
                                   std::to_string(xb));
          continue;
        }
        if (mine[size_t(w)] < 0) {
          wi.xa = xa;
          wi.xb = xb;
          mine[size_t(w)] = addWitness(wi);
        }
        refute(xa, xb, mine[size_t(w)]);
      }
    return decidedCount - before;
  };

  // The exhaustive engine on the question qx (q itself, or q with fewer leaves) over the
  // undecided pairs of `pairs`; its witnesses go through takeWitnesses (mustReplay as there).
  // All its runs together have exhaustiveSeedSeconds (concreteSeconds counts them) and its
  // state budget. Returns "" when it finished, else why it stopped.
  double concreteSeconds = 0;
  auto exhaustiveRun = [&](const PairQuery &qx, const CodeSet &pairs, bool mustReplay) -> std::string {
    struct OutOfTime {};
    const auto s0 = std::chrono::steady_clock::now();
    ExhaustiveOptions xo;
    xo.maxStates = 2'000'000;
    xo.onlyPairs = [&](int xa, int xb) { return pairs.get(xa, xb) && !decided.get(xa, xb); };
    xo.progress = [&](long, long) {
      if (concreteSeconds + smt::secondsSince(s0) > opt.exhaustiveSeedSeconds) throw OutOfTime{};
    };
    std::string stopped;
    try {
      takeWitnesses(runExhaustive(qx, xo), mustReplay);
    } catch (const OutOfTime &) {
      stopped = "over " + std::to_string(opt.exhaustiveSeedSeconds) + " s in all";
    } catch (const ResourceLimit &e) {
      stopped = e.what();
    }
    concreteSeconds += smt::secondsSince(s0);
    return stopped;
  };

  // Small k: the exhaustive engine, on some pairs only, for its witnesses (each confirmed
  // again by the reference evaluator). Its agree sets are not used: every region is proven
  // below. Past its time or state budget, the queries alone decide the rest.
  bool concrete = k <= opt.exhaustiveSeedMaxK && opt.exhaustiveSeedSeconds > 0;
  // Runs the exhaustive engine on the undecided pairs of `pairs`; returns the pairs refuted.
  auto exhaustiveOn = [&](const CodeSet &pairs, const std::string &what) -> long {
    if (!concrete) return 0;
    const auto s0 = std::chrono::steady_clock::now();
    const long before = decidedCount;
    const std::string stopped = exhaustiveRun(q, pairs, true);
    if (stopped.empty()) {
      res.stats.usedExhaustiveSeed = true;
    } else {
      concrete = false;
      log("exhaustive engine: " + stopped + "; queries only from here");
    }
    log("exhaustive engine on " + what + ": " + std::to_string(decidedCount - before) + " refuted pairs (" +
        std::to_string(smt::secondsSince(s0)) + " s)");
    return decidedCount - before;
  };
  // The probes: one pair for each class and binade sum j (the middle ja of its line). With
  // `scouts`, only those of each class's lowest, middle and highest j.
  auto probePairs = [&](bool scouts) {
    CodeSet probes;
    for (int ma : e4m3Classes())
      for (int mb : e4m3Classes()) {
        const CodeRange ra = e4m3JRange(ma), rb = e4m3JRange(mb);
        const int lo = ra.lo + rb.lo, hi = ra.hi + rb.hi;
        for (int j = lo; j <= hi; ++j) {
          const CodeRange line = lineJa(ra, rb, j);
          if (line.empty() || (scouts && j != lo && j != hi && j != lo + (hi - lo) / 2)) continue;
          const int ja = line.lo + (line.hi - line.lo) / 2;
          probes.set(e4m3CodeAt(ma, ja), e4m3CodeAt(mb, j - ja));
        }
      }
    return probes;
  };
  // Large k: witnesses lifted from fewer leaves. The exhaustive engine runs on the probes of
  // the same question with the first n = 2, 3, ... leaves (the tree restricted to them,
  // Tree::restricted), n up to liftMaxLeaves; each of its witnesses, with the other k - n
  // leaves +0 (code 0), is replayed at k by the reference evaluator and kept where it still
  // disagrees there. (With +0 leaves the tree sums the same n leaves as the restricted one.)
  // n = 2 runs on every probe. A larger n costs more per pair (in f32, where nothing but the
  // zero scale disagrees, n = 3 on every probe took 11 s, n = 4 on 243 pairwise probes 5.8 s),
  // so the ladder goes on only where n = 2 refuted a probe whose two scales are nonzero and
  // finite (a zero scale's signed zeros show with one leaf; in f32 nothing else disagrees).
  // Each larger n first runs on the undecided scouts (three probes per class), then on the
  // other undecided probes of the classes where it refuted a scout. Two n in a row that
  // refute no scout stop the ladder (one does not: f16 pre/post's class (1, 3) disagrees
  // with 7 leaves, not with 6). All the runs share exhaustiveSeedSeconds. The class
  // queries' own two-free-leaves fallback asks the solver the same question per box, at k,
  // and can take its whole time limit where this takes a second.
  auto liftedWitnesses = [&](const CodeSet &probes) {
    const CodeSet scouts = probePairs(true);
    // Runs the exhaustive engine with n leaves on `pairs`; false when it stopped early.
    auto lift = [&](int n, const CodeSet &pairs, const char *what) {
      const auto s1 = std::chrono::steady_clock::now();
      const long before = decidedCount;
      PairQuery qn = q;
      qn.cfg.tree = q.cfg.tree.restricted(n);
      const std::string stopped = exhaustiveRun(qn, pairs, false);
      if (!stopped.empty()) log("witnesses lifted from k = " + std::to_string(n) + ": " + stopped);
      log("witnesses lifted from k = " + std::to_string(n) + " on " + std::to_string(pairs.count()) + " " + what +
          ": " + std::to_string(decidedCount - before) + " refuted pairs (" + std::to_string(smt::secondsSince(s1)) +
          " s)");
      return stopped.empty();
    };
    if (!lift(2, probes, "probes")) return;
    bool scaled = false;  // whether two leaves refuted a probe with two nonzero finite scales
    for (int xa = 0; xa < kSide && !scaled; ++xa)
      for (int xb = 0; xb < kSide && !scaled; ++xb)
        scaled = probes.get(xa, xb) && decided.get(xa, xb) && e4m3Coord(xa).m > 0 && e4m3Coord(xb).m > 0;
    if (!scaled) return;
    int idle = 0;  // consecutive n that refuted no scout
    for (int n = 3; n < k && n <= opt.liftMaxLeaves; ++n) {
      const CodeSet open = undecided(scouts);
      if (open.count() == 0) return;
      const long before = decidedCount;
      if (!lift(n, open, "scouts")) return;
      if (decidedCount == before) {  // no scout refuted
        if (++idle == 2) return;
        continue;
      }
      idle = 0;
      std::set<std::pair<int, int>> hit;  // the classes (ma, mb) where n refuted a scout
      for (int xa = 0; xa < kSide; ++xa)
        for (int xb = 0; xb < kSide; ++xb)
          if (open.get(xa, xb) && decided.get(xa, xb)) hit.insert({e4m3Coord(xa).m, e4m3Coord(xb).m});
      CodeSet rest;
      for (int xa = 0; xa < kSide; ++xa)
        for (int xb = 0; xb < kSide; ++xb)
          if (probes.get(xa, xb) && !decided.get(xa, xb) && hit.count({e4m3Coord(xa).m, e4m3Coord(xb).m}))
            rest.set(xa, xb);
      if (rest.count() > 0 && !lift(n, rest, "probes of those classes")) return;
    }
  };
  // Large k: overflow ramps. Where an accumulator overflows (f16: 65504), pre's partial sums
  // can pass the limit and come back while post's single scaling of the whole sum stays
  // finite, or the other way round; the lifted witnesses above have at most liftMaxLeaves
  // leaves and miss the overflows that need more (f16 pre/post at j = 7: fifteen leaves of
  // 6 x 6 = 36, then one of -36). The ramps are those blocks: p leaves of 6 x 6, then q of
  // (-6) x 6, the rest +0 (1 <= p, 1 <= q, p + q <= k). Each is tried on the undecided
  // probes and, where it disagrees, kept as a witness (step 5 spreads it through its class).
  // Only where k such leaves can reach the accumulator's overflow: k 36 S <= k 36 448^2 stays
  // below 2^emax in f32 and bf16 (emax 127), so there no sum overflows and nothing is tried.
  // The ramps stop at exhaustiveSeedSeconds (k (k - 1) / 2 of them: 120 at k = 16, each on
  // up to 2,460 probes).
  auto overflowRamps = [&](const CodeSet &probes) {
    if (k * 36.0 * 448.0 * 448.0 < std::ldexp(1.0, q.cfg.acc.fmt.emax)) return;
    if (q.cfg.a.name != "e2m1" || q.cfg.b.name != "e2m1") return;  // NVFP4's elements
    const auto s0 = std::chrono::steady_clock::now();
    const CodeSet open = undecided(probes);
    if (open.count() == 0) return;
    constexpr unsigned kSix = 0x7, kMinusSix = 0xF;  // the e2m1 codes of 6 and -6
    long found = 0;
    bool outOfTime = false;
    for (int p = 1; p < k && !outOfTime; ++p)
      for (int qn = 1; p + qn <= k && !outOfTime; ++qn) {
        if ((outOfTime = smt::secondsSince(s0) > opt.exhaustiveSeedSeconds)) {
          log("overflow ramps: over the time of the exhaustive engine");
          break;
        }
        std::vector<unsigned> a(size_t(k), 0u), b(size_t(k), 0u);
        for (int i = 0; i < p + qn; ++i) {
          a[size_t(i)] = i < p ? kSix : kMinusSix;
          b[size_t(i)] = kSix;
        }
        DecodedBlock block(q.cfg, a, b);
        int w = -1;
        for (int xa = 0; xa < kSide; ++xa)
          for (int xb = 0; xb < kSide; ++xb)
            if (open.get(xa, xb) && !decided.get(xa, xb) && witnessDisagrees(q, block, xa, xb)) {
              if (w < 0) {
                w = addWitness(Witness{a, b, xa, xb, ""});
                ++res.stats.patternWitnesses;  // `structured_witnesses` in the certificate
              }
              refute(xa, xb, w);
              ++found;
            }
      }
    log("overflow ramps on " + std::to_string(open.count()) + " probes: " + std::to_string(found) +
        " refuted pairs (" + std::to_string(smt::secondsSince(s0)) + " s)");
  };
  const CodeSet probes = probePairs(false);
  if (concrete) {
    exhaustiveOn(probes, std::to_string(probes.count()) + " probes (a pair per class and j)");
    progress();
  } else if (k > 2 && opt.exhaustiveSeedSeconds > 0) {
    liftedWitnesses(probes);
    overflowRamps(probes);
    progress();
  }

  std::vector<Nvfp4Region> unknownBoxes;
  for (int ma : e4m3Classes())
    for (int mb : e4m3Classes()) {
      const Nvfp4Region whole = Nvfp4Region{ma, mb, {-64, 64}, {-64, 64}, {-64, 64}}.tightened();
      const CodeSet classCells = whole.codes();
      // The witnesses of this class's probes and the last few witnesses, tried on it first.
      std::vector<int> tried;
      for (int xa = 0; xa < kSide; ++xa)
        for (int xb = 0; xb < kSide; ++xb)
          if (classCells.get(xa, xb) && res.witnessOf[pairIdx(xa, xb)] >= 0)
            tried.push_back(res.witnessOf[pairIdx(xa, xb)]);
      std::sort(tried.begin(), tried.end());
      tried.erase(std::unique(tried.begin(), tried.end()), tried.end());
      for (size_t w = res.witnesses.size() > 8 ? res.witnesses.size() - 8 : 0; w < res.witnesses.size(); ++w)
        if (!std::binary_search(tried.begin(), tried.end(), int(w))) tried.push_back(int(w));
      for (int w : tried) spread(w, classCells);
      // A line (one j) of the class with both refuted and undecided pairs: the exhaustive
      // engine's witnesses for the rest of it before any query. (Lines whose pairs are all
      // undecided are left to the queries: in pre/post every pair of a line has the same
      // S = m 2^j, so a refuted probe's witness refutes its whole line and the rest of the
      // class agrees.)
      {
        const CodeRange ra = e4m3JRange(ma), rb = e4m3JRange(mb);
        CodeSet partial;
        long count = 0;
        for (int j = ra.lo + rb.lo; j <= ra.hi + rb.hi; ++j) {
          bool refuted = false;
          std::vector<std::pair<int, int>> open;
          const CodeRange line = lineJa(ra, rb, j);
          for (int ja = line.lo; ja <= line.hi; ++ja) {
            const int xa = e4m3CodeAt(ma, ja), xb = e4m3CodeAt(mb, j - ja);
            if (decided.get(xa, xb)) refuted = true;
            else open.push_back({xa, xb});
          }
          if (!refuted) continue;
          for (auto [xa, xb] : open) partial.set(xa, xb);
          count += long(open.size());
        }
        if (count > 0)
          exhaustiveOn(partial, std::to_string(count) + " pairs of partly refuted lines of " + whole.str());
      }
      std::deque<Nvfp4Region> work;
      for (const Nvfp4Region &b : boxesOf(ma, mb, undecided(classCells))) work.push_back(b);
      while (!work.empty()) {
        Nvfp4Region box = work.front();
        work.pop_front();
        // Drop the pairs decided meanwhile (a witness found in another box).
        {
          const CodeSet left = undecided(box.codes());
          const long n = left.count();
          if (n == 0) continue;
          if (n != box.count()) {
            for (const Nvfp4Region &b : boxesOf(ma, mb, left)) work.push_front(b);
            continue;
          }
        }
        const bool several = box.count() > 1;
        RegionCheck rc = checkNvfp4Region(q, box, *backend, several ? std::min(opt.quickTimeout, opt.timeout) : opt.timeout,
                                          {}, opt.keepQueries);
        ++res.stats.queries;
        res.stats.solverSeconds += rc.seconds;
        log("region " + box.str() + ": " + smt::toString(rc.verdict) + " (" + std::to_string(rc.seconds) + " s)" +
            (rc.reason.empty() ? "" : ": " + rc.reason));
        if (rc.verdict == smt::Verdict::Unsat) {
          ++res.stats.unsat;
          prove(rc.proof);
          progress();
          continue;
        }
        std::optional<ConcreteInput> cex = rc.cex;
        if (rc.verdict == smt::Verdict::Sat) ++res.stats.sat;
        if (!cex && !rc.final && k > 2) {
          // Two free leaves, the others +0 (code 0): small queries that find most witnesses.
          ++res.stats.unknown;
          LeafFix fix(static_cast<size_t>(k));
          for (int i = 2; i < k; ++i) fix[size_t(i)] = std::make_pair(0u, 0u);
          RegionCheck small = checkNvfp4Region(q, box, *backend, opt.witnessTimeout, fix);
          ++res.stats.queries;
          res.stats.solverSeconds += small.seconds;
          log("  two free leaves: " + std::string(smt::toString(small.verdict)));
          if (small.cex) cex = small.cex;
        } else if (!cex) {
          ++res.stats.unknown;
        }
        if (cex) {
          const Witness w{cex->a, cex->b, int(cex->xa), int(cex->xb), ""};
          const int wi = addWitness(w);
          refute(w.xa, w.xb, wi);
          spread(wi, classCells);
          // The box holds pairs that disagree where no probe did: the exhaustive engine's
          // witnesses for the rest of it (its sub-boxes are then about agreeing pairs).
          exhaustiveOn(box.codes(), "box " + box.str());
          for (const Nvfp4Region &b : boxesOf(ma, mb, undecided(box.codes()))) work.push_front(b);
          progress();
          continue;
        }
        if (rc.final || !several) {
          unknownBoxes.push_back(box);
          continue;
        }
        ++res.stats.splits;
        auto [a, b] = split(box);
        work.push_front(b);
        work.push_front(a);
      }
    }
  // Witnesses that refute no pair any more (all re-found by a later one) are kept: each
  // refutes at least its own pair, which no other witness claimed first.
  res.guard = Guard::fromSet(res.agree);
  CodeSet unknownSet;
  for (const Nvfp4Region &b : unknownBoxes)
    for (int xa = 0; xa < kSide; ++xa)
      for (int xb = 0; xb < kSide; ++xb)
        if (b.contains(xa, xb) && !decided.get(xa, xb)) unknownSet.set(xa, xb);
  res.unknown = Guard::fromSet(unknownSet).regions;
  // Per agree region, the proofs that meet it.
  std::vector<CodeSet> proofSets;
  for (const ProofRecord &p : res.proofs) proofSets.push_back(p.nv->codes());
  for (const Region &r : res.guard.regions) {
    std::vector<int> ps;
    for (size_t i = 0; i < proofSets.size(); ++i) {
      bool meets = false;
      for (int xa = std::max(0, r.xa.lo); xa <= std::min(kSide - 1, r.xa.hi) && !meets; ++xa)
        for (int xb = std::max(0, r.xb.lo); xb <= std::min(kSide - 1, r.xb.hi) && !meets; ++xb)
          meets = r.contains(xa, xb) && proofSets[i].get(xa, xb);
      if (meets) ps.push_back(int(i));
    }
    res.regionProofs.push_back(ps);
  }
  res.stats.seconds = smt::secondsSince(t0);
  return res;
}

}  // namespace mxcert::engine

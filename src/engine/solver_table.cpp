// src/engine/solver_table.cpp — certified agree sets (see solver_table.h).
#include "src/engine/solver_table.h"

#include "certs/sha256.h"
#include "smt/encoder.h"
#include "src/engine/bounds.h"
#include "src/engine/groups.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace mxcert::engine {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Element codes with useful extreme values.
struct Extremes {
  unsigned amax, amin, bmax, bmin, aSign, bSign;
};

Extremes extremes(const ModelConfig &c) {
  auto maxCode = [](const ElementFormat &f) {
    unsigned best = 0;
    for (unsigned code = 0; code < f.numCodes() / 2; ++code) {
      ElementValue v = decodeElementCode(f, code);
      if (!v.nan && !v.inf) best = code;  // codes are ordered by magnitude
    }
    return best;
  };
  return {maxCode(c.a), 1, maxCode(c.b), 1, c.a.numCodes() / 2, c.b.numCodes() / 2};
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

/// Structured candidate inputs (docs/solver.md): extreme products in a few leaves, the
/// largest non-root subtree filled with maxima against negated maxima, and n maximal
/// products for every n.
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
  return out;
}

/// Leaf subsets for small counterexample queries, smallest first; the last is "all".
std::vector<std::vector<bool>> activeSets(const Tree &t) {
  const int k = t.k();
  std::vector<std::vector<bool>> out;
  if (k >= 4) {
    std::vector<bool> s(size_t(k), false);
    s[0] = s[1] = true;
    out.push_back(s);
    int big = largestNonRoot(t);
    if (big >= 0) {
      auto lu = leavesUnder(t);
      std::vector<bool> b(size_t(k), false);
      for (int l : lu[size_t(big)]) b[size_t(l)] = true;
      for (int i = 0; i < k; ++i)
        if (!b[size_t(i)]) {
          b[size_t(i)] = true;
          break;
        }
      if (std::count(b.begin(), b.end(), true) < k) out.push_back(b);
    }
  }
  out.push_back({});  // all leaves free
  return out;
}

/// Halves a region along e, else xa, else xb.
std::pair<Region, Region> split(const Region &r) {
  Region a = r, b = r;
  if (r.e.hi > r.e.lo) {
    int mid = r.e.lo + (r.e.hi - r.e.lo) / 2;
    a.e.hi = mid;
    b.e.lo = mid + 1;
  } else if (r.xa.hi > r.xa.lo) {
    int mid = r.xa.lo + (r.xa.hi - r.xa.lo) / 2;
    a.xa.hi = mid;
    b.xa.lo = mid + 1;
  } else {
    int mid = r.xb.lo + (r.xb.hi - r.xb.lo) / 2;
    a.xb.hi = mid;
    b.xb.lo = mid + 1;
  }
  return {a.tightened(), b.tightened()};
}

bool singlePair(const Region &r) { return r.count() == 1; }

}  // namespace

RegionCheck checkRegion(const PairQuery &q, const Region &region, smt::Backend &backend,
                        double timeoutSec, const std::vector<bool> &active, bool keepText) {
  RegionCheck rc;
  smt::Query sq{q.cfg, q.lhs, q.rhs, q.rel, region, active};
  std::optional<smt::LiaEncoding> enc;
  try {
    enc.emplace(sq);
  } catch (const EncodingLimit &e) {
    rc.verdict = smt::Verdict::Unknown;
    rc.reason = std::string("encoding too large: ") + e.what();
    return rc;
  }
  smt::CheckResult r = backend.check(enc->store(), timeoutSec);
  rc.seconds = r.seconds;
  rc.verdict = r.verdict;
  rc.reason = r.reason;
  if (r.verdict == smt::Verdict::Sat) {
    ConcreteInput in = enc->inputFromModel(r.model);
    if (!region.contains(int(in.xa), int(in.xb)) ||
        !witnessDisagrees(q, in.a, in.b, int(in.xa), int(in.xb)))
      throw std::logic_error("solver model does not replay in the reference evaluator (region " +
                             region.str() + ", " + backend.name() + ")");
    rc.cex = in;
  } else if (r.verdict == smt::Verdict::Unsat) {
    const std::string text = enc->smtlib2();
    rc.proof.region = region;
    rc.proof.solver = backend.name();
    rc.proof.solverVersion = backend.version();
    rc.proof.seconds = r.seconds;
    rc.proof.sha256 = certs::sha256Hex(text);
    rc.proof.bytes = text.size();
    if (keepText) rc.proof.smt2 = text;
  }
  return rc;
}

SolverTableResult runSolverTable(const PairQuery &q, const SolverTableOptions &opt) {
  const auto t0 = std::chrono::steady_clock::now();
  SolverTableResult res;
  res.witnessOf.assign(size_t(kNumCodes) * kNumCodes, -1);
  std::unique_ptr<smt::Backend> backend = smt::makeBackend(opt.solver);
  if (!backend) throw std::invalid_argument("unknown solver '" + opt.solver + "'");
  auto log = [&](const std::string &s) {
    if (opt.log) opt.log(s);
  };

  const CodeGroups cg = groupCodePairs(q, true);
  // State: candidate agree set C, proven set P, per-group witness.
  CodeSet C = CodeSet::all(), P;
  if (opt.useClosedForm) {
    ClosedForm cf = closedForm(q);
    if (cf.applies) {
      C = cf.guard.toSet();
      res.stats.usedClosedForm = true;
      log("closed form: " + cf.formula);
    } else {
      log("no closed form: " + cf.whyNot);
    }
  }
  const CodeSet predicted = C;
  std::vector<int> groupWitness(cg.groups.size(), -1);
  std::vector<bool> groupUnknown(cg.groups.size(), false);

  auto pairIdx = [](int xa, int xb) { return size_t(xa) * kNumCodes + size_t(xb); };
  // Records witness w and attributes it to every undecided group it refutes.
  auto addWitness = [&](const Witness &w, bool fromPattern) {
    int idx = -1;
    for (size_t gi = 0; gi < cg.groups.size(); ++gi) {
      const auto &g = cg.groups[gi];
      if (groupWitness[gi] >= 0) continue;
      auto [rxa, rxb] = g.pairs.front();
      if (!witnessDisagrees(q, w.a, w.b, rxa, rxb)) continue;
      for (auto [xa, xb] : g.pairs)
        if (P.get(xa, xb))
          throw std::logic_error("a witness refutes a proven pair (" + std::to_string(xa) + ", " +
                                 std::to_string(xb) + "): the encoding and the evaluator disagree");
      if (idx < 0) {
        idx = int(res.witnesses.size());
        res.witnesses.push_back(w);
        if (fromPattern) ++res.stats.patternWitnesses;
      }
      groupWitness[gi] = idx;
      for (auto [xa, xb] : g.pairs) {
        C.set(xa, xb, false);
        res.witnessOf[pairIdx(xa, xb)] = idx;
      }
    }
    return idx >= 0;
  };
  auto query = [&](const Region &r, double timeout, const std::vector<bool> &active) {
    RegionCheck rc = checkRegion(q, r, *backend, timeout, active, opt.keepQueries);
    ++res.stats.queries;
    res.stats.solverSeconds += rc.seconds;
    if (rc.verdict == smt::Verdict::Unsat) ++res.stats.unsat;
    if (rc.verdict == smt::Verdict::Sat) ++res.stats.sat;
    if (rc.verdict == smt::Verdict::Unknown) ++res.stats.unknown;
    return rc;
  };

  // Phase 0: structured witnesses, tried on every group the prediction excludes (or on all
  // groups when there is no prediction).
  for (const auto &pt : patterns(q.cfg)) {
    Witness w;
    w.a = pt.first;
    w.b = pt.second;
    int before = int(res.witnesses.size());
    // Attribute only to groups outside C unless there is no prediction.
    for (size_t gi = 0; gi < cg.groups.size() && int(res.witnesses.size()) == before; ++gi) {
      const auto &g = cg.groups[gi];
      auto [rxa, rxb] = g.pairs.front();
      if (groupWitness[gi] >= 0 || (res.stats.usedClosedForm && C.get(rxa, rxb))) continue;
      if (witnessDisagrees(q, w.a, w.b, rxa, rxb)) {
        w.xa = rxa;
        w.xb = rxb;
        addWitness(w, true);
      }
    }
  }
  log("structured witnesses: " + std::to_string(res.witnesses.size()));

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
      Guard g = Guard::fromSet(todo);
      std::vector<Region> stack{g.regions.front()};
      bool changed = false;
      while (!stack.empty() && !changed) {
        Region r = stack.back();
        stack.pop_back();
        if (r.count() == 0) continue;
        RegionCheck rc = query(r, opt.timeout, {});
        if (rc.verdict == smt::Verdict::Unsat) {
          log("unsat " + r.str() + " (" + std::to_string(rc.seconds) + " s)");
          res.proofs.push_back(rc.proof);
          for (int a = r.xa.lo; a <= r.xa.hi; ++a)
            for (int b = r.xb.lo; b <= r.xb.hi; ++b)
              if (r.contains(a, b)) P.set(a, b);
        } else if (rc.verdict == smt::Verdict::Sat) {
          Witness w{rc.cex->a, rc.cex->b, int(rc.cex->xa), int(rc.cex->xb)};
          log("sat " + r.str() + " at xa=" + std::to_string(w.xa) + " xb=" + std::to_string(w.xb));
          if (!addWitness(w, false))
            throw std::logic_error("a confirmed counterexample refutes no undecided group");
          changed = true;
        } else {
          log("unknown " + r.str() + ": " + rc.reason);
          if (singlePair(r)) {
            res.unknown.push_back(r);
            C.set(r.xa.lo, r.xb.lo, false);
            changed = true;
          } else {
            ++res.stats.splits;
            auto [a, b] = split(r);
            stack.push_back(b);
            stack.push_back(a);
          }
        }
      }
    }
    // Phase B.
    for (size_t gi = 0; gi < cg.groups.size(); ++gi) {
      const auto &g = cg.groups[gi];
      auto [rxa, rxb] = g.pairs.front();
      if (groupWitness[gi] >= 0 || C.get(rxa, rxb) || groupUnknown[gi]) continue;
      bool inUnknown = false;
      for (const Region &u : res.unknown) inUnknown = inUnknown || u.contains(rxa, rxb);
      if (inUnknown) continue;
      // Known witnesses first (most recent first).
      bool done = false;
      for (int w = int(res.witnesses.size()) - 1; w >= 0 && !done; --w)
        if (witnessDisagrees(q, res.witnesses[size_t(w)].a, res.witnesses[size_t(w)].b, rxa, rxb))
          done = addWitness(Witness{res.witnesses[size_t(w)].a, res.witnesses[size_t(w)].b, rxa, rxb}, false);
      if (done) continue;
      // Counterexample queries at the representative pair: few free leaves first.
      Region r;
      r.xa = {rxa, rxa};
      r.xb = {rxb, rxb};
      r.e = {rxa + rxb - 254, rxa + rxb - 254};
      auto sets = activeSets(q.cfg.tree);
      for (size_t si = 0; si < sets.size() && !done; ++si) {
        const bool full = sets[si].empty();
        RegionCheck rc = query(r, full ? opt.timeout : opt.witnessTimeout, sets[si]);
        if (rc.verdict == smt::Verdict::Sat) {
          addWitness(Witness{rc.cex->a, rc.cex->b, int(rc.cex->xa), int(rc.cex->xb)}, false);
          done = true;
        } else if (full && rc.verdict == smt::Verdict::Unsat) {
          // The prediction was wrong: the group agrees. It rejoins the candidate set and
          // phase A proves it with the rest.
          log("agrees after all: group at xa=" + std::to_string(rxa) + " xb=" + std::to_string(rxb));
          for (auto [xa, xb] : g.pairs) C.set(xa, xb);
          again = true;
          done = true;
        } else if (full) {
          log("unknown (witness search) " + r.str() + ": " + rc.reason);
          groupUnknown[gi] = true;
          for (auto [xa, xb] : g.pairs) {
            Region u;
            u.xa = {xa, xa};
            u.xb = {xb, xb};
            u.e = {xa + xb - 254, xa + xb - 254};
            res.unknown.push_back(u);
          }
          done = true;
        }
      }
    }
  }
  // Pairs the prediction included but that turned out to differ.
  for (int xa = 0; xa < kNumCodes; ++xa)
    for (int xb = 0; xb < kNumCodes; ++xb)
      if (predicted.get(xa, xb) && !C.get(xa, xb) && res.witnessOf[pairIdx(xa, xb)] >= 0)
        ++res.stats.predictionMismatches;

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
  res.stats.seconds = since(t0);
  return res;
}

}  // namespace mxcert::engine

// src/check/checker.cpp — the independent checker of certificates (see checker.h).
#include "src/check/checker.h"

#include "certs/sha256.h"
#include "models/domain.h"
#include "models/eval.h"
#include "models/nvfp4.h"
#include "models/value_io.h"
#include "smt/abstract_check.h"
#include "smt/backend.h"
#include "smt/encoder.h"
#include "smt/fp_encoder.h"
#include "smt/isolated.h"
#include "smt/text_solver.h"
#include "src/check/closed_form_check.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mxcert::check {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string pairStr(int xa, int xb) {
  return "(xa=" + std::to_string(xa) + ", xb=" + std::to_string(xb) + ", e=" + std::to_string(xa + xb - kMaxCode) +
         ")";
}

std::string codesStr(const std::vector<unsigned> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + std::to_string(v[i]);
  return s + "]";
}

/// Collects up to `max` failure messages of one claim and counts the rest.
class Failures {
public:
  explicit Failures(size_t max) : max_(max) {}
  void add(const std::string &msg) {
    if (msgs_.size() < max_) msgs_.push_back(msg);
    ++count_;
  }
  bool any() const { return count_ > 0; }
  /// "msg1; msg2 (and N more)".
  std::string str() const {
    std::string s;
    for (size_t i = 0; i < msgs_.size(); ++i) s += (i ? "; " : "") + msgs_[i];
    if (count_ > msgs_.size()) s += " (and " + std::to_string(count_ - msgs_.size()) + " more)";
    return s;
  }

private:
  size_t max_;
  size_t count_ = 0;
  std::vector<std::string> msgs_;
};

/// The pairs of a region as a set (regions of the reader are within range).
CodeSet regionSet(const Region &r) {
  Guard g;
  g.regions.push_back(r);
  return g.toSet();
}

/// The pairs of a stored proof's region: its code region, or for NVFP4 its region in scale
/// coordinates (models/nvfp4.h) over the codes 0..127.
CodeSet proofSet(const certs::Proof &p) { return p.nv ? p.nv->codes() : regionSet(p.region); }
/// A stored proof's region as text.
std::string proofRegionText(const certs::Proof &p) { return p.nv ? p.nv->str() : p.region.str(); }

/// The shared state of one check.
struct Ctx {
  const certs::Certificate &c;
  const CheckOptions &opt;
  CheckReport &rep;
  CodeSet agree;                 ///< the agree set, recomputed from the regions
  std::vector<CodeSet> refuted;  ///< per witness, the pairs it claims to refute

  void log(const std::string &s) const {
    if (opt.log) opt.log(s);
  }
  ClaimResult &add(const std::string &claim, Status st, const std::string &detail, Clock::time_point t0) {
    rep.claims.push_back(ClaimResult{claim, st, detail, since(t0)});
    log(std::string(toString(st)) + "  " + claim + ": " + detail);
    return rep.claims.back();
  }
};

/// The agree set: regions pairwise disjoint, agree_pairs consistent (the reader checked the
/// count too; repeated here so that the checker stands alone).
void checkAgree(Ctx &x) {
  const auto t0 = Clock::now();
  Failures f(x.opt.maxReported);
  CodeSet seen;
  std::vector<int> owner(size_t(kNumCodes) * kNumCodes, -1);
  for (size_t i = 0; i < x.c.agree.regions.size(); ++i) {
    const Region &r = x.c.agree.regions[i];
    bool reported = false;
    for (int a = r.xa.lo; a <= r.xa.hi; ++a)
      for (int b = r.xb.lo; b <= r.xb.hi; ++b) {
        if (!r.contains(a, b)) continue;
        int &o = owner[size_t(a) * kNumCodes + size_t(b)];
        if (o >= 0 && !reported) {
          f.add("agree regions " + std::to_string(o) + " and " + std::to_string(i) + " overlap at " + pairStr(a, b));
          reported = true;
        }
        if (o < 0) o = int(i);
      }
  }
  x.agree = x.c.agree.toSet();
  const long n = x.agree.count();
  if (n != x.c.agreePairs)
    f.add("agree_pairs says " + std::to_string(x.c.agreePairs) + " but the regions cover " + std::to_string(n));
  if (f.any())
    x.add("agree", Status::False, f.str(), t0);
  else
    x.add("agree", Status::Holds,
          std::to_string(x.c.agree.regions.size()) + " disjoint region(s), " + std::to_string(n) + " code pairs", t0);
}

/// The number of scale codes per side of the certificate's code space: 255 (e8m0, codes
/// 0..254) or 128 (NVFP4's e4m3, codes 0..127).
int codeSpace(const ModelConfig &cfg) { return cfg.maxTableCode() + 1; }

/// Coverage: the agree set and the refuted pairs partition the code space (0..254 x 0..254,
/// or 0..127 x 0..127 for NVFP4, outside which no pair may be claimed).
void checkCoverage(Ctx &x) {
  const auto t0 = Clock::now();
  Failures overlap(x.opt.maxReported);
  CodeSet anyRefuted;
  x.refuted.clear();
  for (size_t w = 0; w < x.c.witnesses.size(); ++w) {
    x.refuted.push_back(x.c.witnesses[w].refutes.toSet());
    CodeSet &s = x.refuted.back();
    long inAgree = 0, dup = 0;
    int fa = -1, fb = -1, da = -1, db = -1;
    size_t firstOwner = 0;
    for (int a = 0; a < kNumCodes; ++a)
      for (int b = 0; b < kNumCodes; ++b)
        if (s.get(a, b)) {
          if (anyRefuted.get(a, b)) {
            // The refuted sets partition the excluded pairs: a pair has one witness. It is
            // replayed once (for the witness that claimed it first), so that checking time
            // grows with the pairs a certificate covers, not with its claims.
            if (dup++ == 0) {
              da = a, db = b;
              for (size_t v = 0; v < w; ++v)
                if (x.refuted[v].get(a, b)) {
                  firstOwner = v;
                  break;
                }
            }
            s.set(a, b, false);
            continue;
          }
          anyRefuted.set(a, b);
          if (x.agree.get(a, b)) {
            if (inAgree++ == 0) fa = a, fb = b;
          }
        }
    if (dup > 0)
      overlap.add("witnesses[" + std::to_string(w) + "] claims " + std::to_string(dup) +
                  " pair(s) that an earlier witness already claims, e.g. " + pairStr(da, db) + " (witnesses[" +
                  std::to_string(firstOwner) + "]); each excluded pair has exactly one witness");
    if (inAgree > 0) {
      int region = -1;
      for (size_t i = 0; i < x.c.agree.regions.size() && region < 0; ++i)
        if (x.c.agree.regions[i].contains(fa, fb)) region = int(i);
      overlap.add("witnesses[" + std::to_string(w) + "] claims to refute " + std::to_string(inAgree) +
                  " pair(s) inside the agree set, e.g. " + pairStr(fa, fb) + " in agree region " +
                  std::to_string(region) + " (" + x.c.agree.regions[size_t(region)].str() + ")");
    }
  }
  long gap = 0, refutedCount = 0, outside = 0;
  int ga = -1, gb = -1, oa = -1, ob = -1;
  const int n = codeSpace(x.c.config);
  for (int a = 0; a < kNumCodes; ++a)
    for (int b = 0; b < kNumCodes; ++b) {
      if (a >= n || b >= n) {
        if ((x.agree.get(a, b) || anyRefuted.get(a, b)) && outside++ == 0) oa = a, ob = b;
        continue;
      }
      if (anyRefuted.get(a, b) && !x.agree.get(a, b)) ++refutedCount;
      if (!x.agree.get(a, b) && !anyRefuted.get(a, b) && gap++ == 0) ga = a, gb = b;
    }
  Failures f(x.opt.maxReported + 2);
  if (overlap.any()) f.add("overlap: " + overlap.str());
  if (outside > 0)
    f.add("outside: " + std::to_string(outside) + " claimed code pair(s) lie outside the e4m3 codes 0..127, e.g. " +
          pairStr(oa, ob));
  if (gap > 0)
    f.add("gap: " + std::to_string(gap) + " code pair(s) are neither in the agree set nor refuted by a witness, e.g. " +
          pairStr(ga, gb));
  if (f.any())
    x.add("coverage", Status::False, f.str(), t0);
  else
    x.add("coverage", Status::Holds,
          std::to_string(x.agree.count()) + " agree + " + std::to_string(refutedCount) +
              " refuted = " + std::to_string(long(n) * n) + " code pairs, no overlap, no gap",
          t0);
}

/// Witness replay: every pair a witness claims to refute really differs in the evaluator.
void checkWitnesses(Ctx &x) {
  const auto t0 = Clock::now();
  const ModelConfig &cfg = x.c.config;
  // NVFP4's pre and post depend on the scale product, not on e: no memo by e there.
  const bool eOnly = !cfg.nvfp4() && dependsOnEOnly(x.c.lhs) && dependsOnEOnly(x.c.rhs);
  Failures f(x.opt.maxReported);
  for (size_t w = 0; w < x.c.witnesses.size(); ++w) {
    const certs::CertWitness &cw = x.c.witnesses[w];
    const std::string name = "witnesses[" + std::to_string(w) + "]";
    // The printed values must be those of the codes (they are what a reader looks at).
    for (int side = 0; side < 2; ++side) {
      const auto &vals = side ? cw.bValues : cw.aValues;
      const auto &codes = side ? cw.b : cw.a;
      const ElementFormat &fmt = side ? cfg.b : cfg.a;
      for (size_t i = 0; i < vals.size() && i < codes.size(); ++i)
        if (vals[i] != elementToString(fmt, codes[i])) {
          f.add(name + "." + (side ? "b" : "a") + "_values[" + std::to_string(i) + "] is '" + vals[i] +
                "' but code " + std::to_string(codes[i]) + " is " + elementToString(fmt, codes[i]));
          break;
        }
    }
    // Per e, the verdict when both placements depend on e alone (same computation).
    std::vector<int8_t> byE(size_t(2 * kMaxCode + 1), -1);
    // Otherwise, per e, the result of a side that depends on e alone (post beside dequant:
    // its value is evaluated once per e, the other side's per pair).
    const int eSide = eOnly || cfg.nvfp4() ? -1 : dependsOnEOnly(x.c.lhs) ? 0 : dependsOnEOnly(x.c.rhs) ? 1 : -1;
    std::vector<std::optional<CVal>> sideByE(eSide >= 0 ? size_t(2 * kMaxCode + 1) : 0);
    // An any-order certificate's witness is evaluated on its own tree (the reader checked
    // that it has k leaves and respects the fan-in limit).
    const ModelConfig wcfg = cfg.anyOrder ? configWithTree(cfg, Tree::parse(cw.tree, cfg.k())) : cfg;
    std::optional<DecodedBlock> block;
    const CodeSet &s = x.refuted[w];
    const int n = codeSpace(cfg);  // pairs outside it are coverage's failure, not replayed
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (!s.get(a, b)) continue;
        if ((x.rep.pairsReplayed & 1023) == 0 && x.opt.budget && x.opt.budget->passed()) {
          if (f.any())  // a false claim found so far stays the verdict
            x.add("witnesses", Status::False, f.str(), t0);
          else
            x.add("witnesses", Status::Unknown,
                  "not finished: " + x.opt.budget->stopReason() + " after " +
                      std::to_string(x.rep.pairsReplayed) + " replayed pair(s)",
                  t0);
          return;
        }
        ++x.rep.pairsReplayed;
        const int e = a + b - kMaxCode;
        int8_t &memo = byE[size_t(e + kMaxCode)];
        if (eOnly && memo >= 0) {
          if (memo == 0) f.add(name + " does not refute " + pairStr(a, b) + " (same e as a pair it does not refute)");
          continue;
        }
        if (!block) block.emplace(wcfg, cw.a, cw.b);  // the witness's elements, decoded once
        const unsigned xa = unsigned(a), xb = unsigned(b);
        std::vector<CVal> r;
        if (eSide >= 0) {
          std::optional<CVal> &same = sideByE[size_t(e + kMaxCode)];
          if (!same) same = block->evaluate(eSide == 0 ? x.c.lhs : x.c.rhs, xa, xb);
          const CVal other = block->evaluate(eSide == 0 ? x.c.rhs : x.c.lhs, xa, xb);
          r = eSide == 0 ? std::vector<CVal>{*same, other} : std::vector<CVal>{other, *same};
        } else {
          r = {block->evaluate(x.c.lhs, xa, xb), block->evaluate(x.c.rhs, xa, xb)};
        }
        ++x.rep.evaluations;
        const bool differs = !isRelated(r[0], r[1], x.c.relation);
        memo = differs ? 1 : 0;
        if (!differs)
          f.add(name + " a=" + codesStr(cw.a) + " b=" + codesStr(cw.b) + (cw.tree.empty() ? "" : " tree " + cw.tree) +
              " does not refute " + pairStr(a, b) + ": " +
                toString(x.c.lhs) + " gives " + toDecimal(r[0], cfg.acc.fmt) + ", " + toString(x.c.rhs) + " gives " +
                toDecimal(r[1], cfg.acc.fmt) + ", related under " + toString(x.c.relation));
      }
  }
  if (f.any())
    x.add("witnesses", Status::False, f.str(), t0);
  else
    x.add("witnesses", Status::Holds,
          std::to_string(x.c.witnesses.size()) + " witness(es), " + std::to_string(x.rep.pairsReplayed) +
              " refuted pair(s) replayed in the reference evaluator (" + std::to_string(x.rep.evaluations) +
              " evaluations)",
          t0);
}

/// The proofs' regions cover the agree set exactly, and region_proofs names covering proofs.
void checkProofCoverage(Ctx &x) {
  const auto t0 = Clock::now();
  if (x.c.proofs.empty() && x.c.engine == "exhaustive") {
    x.add("proof coverage", Status::Holds,
          "no stored proofs (engine exhaustive): the checker proves the agree regions itself", t0);
    return;
  }
  Failures f(x.opt.maxReported);
  CodeSet proven;
  std::vector<CodeSet> proofSets;
  // Induction steps (every proof of an any-order certificate; some proofs of a fixed-tree one,
  // which the every-tree question proves for its tree too): a pair is proven when, for one
  // invariant, every step of inductionSteps(config) has a proof whose region holds the pair
  // (models/induction.h); each such proof then stands for the pairs of its region where its
  // invariant's steps are all proven. Any other proof stands for its region.
  const bool anyOrder = x.c.config.anyOrder != 0;
  size_t steps = 0;  // proofs that are induction steps
  for (const certs::Proof &p : x.c.proofs) steps += p.step ? 1 : 0;
  std::vector<CodeSet> byProof;  // per proof, the pairs it proves within its region
  {
    std::vector<Invariant> invs;
    for (const certs::Proof &p : x.c.proofs)
      if (p.step && std::find(invs.begin(), invs.end(), *p.invariant) == invs.end()) invs.push_back(*p.invariant);
    std::vector<CodeSet> provenBy(invs.size(), CodeSet::all());
    const std::vector<InductionStep> need = inductionSteps(x.c.config);
    for (size_t v = 0; v < invs.size(); ++v)
      for (InductionStep st : need) {
        CodeSet stepSet;
        for (const certs::Proof &p : x.c.proofs)
          if (p.step && *p.invariant == invs[v] && *p.step == st) {
            const CodeSet r = regionSet(p.region);
            for (int a = 0; a < kNumCodes; ++a)
              for (int b = 0; b < kNumCodes; ++b)
                if (r.get(a, b)) stepSet.set(a, b);
          }
        provenBy[v] = provenBy[v].intersect(stepSet);
      }
    for (const certs::Proof &p : x.c.proofs) {
      if (!p.step) {
        byProof.push_back(proofSet(p));
        continue;
      }
      const size_t v = size_t(std::find(invs.begin(), invs.end(), *p.invariant) - invs.begin());
      byProof.push_back(regionSet(p.region).intersect(provenBy[v]));
    }
    for (const certs::Proof &p : x.c.proofs)
      if (p.step && std::find(need.begin(), need.end(), *p.step) == need.end())
        f.add("a proof of step " + std::string(toString(*p.step)) + ", which the induction over k = " +
              std::to_string(x.c.config.k()) + " leaves" +
              // k >= 3 without a node step: the fused class (inductionSteps(cfg)).
              (x.c.config.k() >= 3 && std::find(need.begin(), need.end(), InductionStep::Node) == need.end()
                   ? " with every child of the root a leaf"
                   : "") +
              " does not have");
  }
  for (size_t i = 0; i < x.c.proofs.size(); ++i) {
    proofSets.push_back(byProof[i]);
    long outside = 0;
    int oa = -1, ob = -1;
    for (int a = 0; a < kNumCodes; ++a)
      for (int b = 0; b < kNumCodes; ++b)
        if (proofSets.back().get(a, b)) {
          proven.set(a, b);
          if (!x.agree.get(a, b) && outside++ == 0) oa = a, ob = b;
        }
    if (outside > 0)
      f.add("proofs[" + std::to_string(i) + "] (" + proofRegionText(x.c.proofs[i]) + ") covers " + std::to_string(outside) +
            " pair(s) outside the agree set, e.g. " + pairStr(oa, ob));
    if (x.c.proofs[i].step && x.c.proofs[i].region.count() > 0 && proofSets.back().count() == 0)
      f.add("proofs[" + std::to_string(i) + "] (step " + toString(*x.c.proofs[i].step) + ", " +
            x.c.proofs[i].region.str() + ") proves nothing: no pair of its region has every step of its invariant");
  }
  for (size_t j = 0; j < x.c.agree.regions.size(); ++j) {
    const Region &r = x.c.agree.regions[j];
    const std::vector<int> &ids = j < x.c.regionProofs.size() ? x.c.regionProofs[j] : std::vector<int>{};
    long unproven = 0, unlisted = 0;
    int ua = -1, ub = -1, la = -1, lb = -1;
    for (int a = r.xa.lo; a <= r.xa.hi; ++a)
      for (int b = r.xb.lo; b <= r.xb.hi; ++b) {
        if (!r.contains(a, b)) continue;
        if (!proven.get(a, b)) {
          if (unproven++ == 0) ua = a, ub = b;
          continue;
        }
        bool listed = false;
        for (int p : ids) listed = listed || proofSets[size_t(p)].get(a, b);
        if (!listed && unlisted++ == 0) la = a, lb = b;
      }
    if (unproven > 0)
      f.add("agree region " + std::to_string(j) + " (" + r.str() + ") has " + std::to_string(unproven) +
            " pair(s) without a proof, e.g. " + pairStr(ua, ub));
    else if (unlisted > 0)
      f.add("region_proofs[" + std::to_string(j) + "] does not list proofs covering agree region " + std::to_string(j) +
            " (" + r.str() + "), e.g. " + pairStr(la, lb));
  }
  if (f.any())
    x.add("proof coverage", Status::False, f.str(), t0);
  else if (anyOrder)
    x.add("proof coverage", Status::Holds,
          std::to_string(x.c.proofs.size()) + " induction step proof(s): every pair of the agree set has all " +
              std::to_string(inductionSteps(x.c.config).size()) +
              " steps of one invariant (so it agrees for every tree), and no proof reaches outside it",
          t0);
  else if (steps > 0) {
    x.add("proof coverage", Status::Holds,
          std::to_string(x.c.proofs.size()) + " proof(s) cover exactly the agree set: " + std::to_string(steps) +
              " induction step proof(s) (a pair counts where all " + std::to_string(inductionSteps(x.c.config).size()) +
              " steps of one invariant hold: it agrees for every tree of the induction's class, which holds this one) and " +
              std::to_string(x.c.proofs.size() - steps) + " proof(s) of the tree's unrolled query",
          t0);
  } else
    x.add("proof coverage", Status::Holds,
          std::to_string(x.c.proofs.size()) + " proof region(s) cover exactly the agree set", t0);
}

/// The solvers that re-prove a proof made by `producer`.
std::vector<std::string> reprovers(SolverChoice ch, const std::string &producer) {
  switch (ch) {
  case SolverChoice::Other: return {producer == "z3" ? "cvc5" : "z3"};
  case SolverChoice::Cvc5: return {"cvc5"};
  case SolverChoice::Z3: return {"z3"};
  case SolverChoice::Both: return {"cvc5", "z3"};
  case SolverChoice::None: return {};
  }
  return {};
}

/// Reads a query file named by a proof (relative to the certificate's directory): a regular
/// file of at most `bytes` bytes (the length the proof states), or nullopt.
std::optional<std::string> readQueryFile(const std::string &base, const std::string &name, long bytes) {
  try {
    return certs::readRegularFile(base + "/" + name, size_t(std::max(0L, bytes)));
  } catch (const certs::SchemaError &) {
    return std::nullopt;
  }
}

/// One proof (or, for tables without stored proofs, one agree region): the query is
/// regenerated from the configuration and compared with the record, then re-proven.
/// Without a stored proof (`stored` null) and with `tooLarge` set, a region whose query hits
/// the encoding's size limit is not reported: *tooLarge is set instead, so that the caller can
/// check its halves. (With a stored proof the producer generated that query, so failing to
/// regenerate it is a mismatch, a false claim.)
void checkOneProof(Ctx &x, const std::string &name, const Region &region, const certs::Proof *stored,
                   std::map<std::string, std::unique_ptr<smt::Backend>> &backends, bool *tooLarge = nullptr) {
  const auto t0 = Clock::now();
  // A region without a stored proof is proven with obligations too: every fact of the
  // analysis is a phase the solver proves, and its decisions are re-checked by arithmetic.
  const bool obligations = !stored || stored->obligations.has_value();
  smt::Query q{x.c.config, x.c.lhs, x.c.rhs, x.c.relation, region, {}, x.opt.budget, obligations, {}, {}, {}, {}};
  if (stored && stored->nv) q.nv = stored->nv;
  const std::string regionText = stored ? proofRegionText(*stored) : region.str();
  if (stored && stored->step) {
    // An induction step: stated for every tree (for a fixed-tree certificate: for every tree
    // whose non-root nodes are no larger than its tree's, which holds its tree;
    // models/placement.h, everyTreeConfig).
    if (!q.cfg.anyOrder) q.cfg = everyTreeConfig(q.cfg);
    q.step = stored->step;
    q.inv = *stored->invariant;
  }
  const std::string stepName =
      q.step ? std::string(" (") + toString(*q.step) + " step, invariant " + q.inv.str(x.c.lhs, x.c.rhs) + ")" : "";
  const bool fp = stored && stored->encoding == "fp";
  if (x.opt.budget && x.opt.budget->passed()) {
    x.add(name, Status::Unknown, "region " + regionText + ": not checked: " + x.opt.budget->stopReason(),
          t0);
    return;
  }
  std::optional<smt::LiaEncoding> enc;
  std::string text;
  try {
    if (fp) {
      std::string why = smt::fpUnsupported(q);
      if (!why.empty()) {
        x.add(name, Status::False, "region " + regionText + ": the fp encoding cannot express this query: " + why, t0);
        return;
      }
      text = smt::fpQuery(q);
    } else {
      enc.emplace(q);
      text = enc->smtlib2();
    }
  } catch (const smt::BudgetExceeded &e) {
    // A limit of this run, not a property of the certificate.
    x.add(name, Status::Unknown, "region " + regionText + ": not checked: " + e.what(), t0);
    return;
  } catch (const std::bad_alloc &) {
    // Out of memory (ulimit -v) is a limit too: never a false claim.
    x.add(name, Status::Unknown,
          "region " + regionText + ": not checked: out of memory while regenerating the query (a resource limit)", t0);
    return;
  } catch (const EncodingLimit &e) {
    if (!stored && tooLarge) {
      *tooLarge = true;
      return;
    }
    if (!stored) {
      // Nothing was claimed about this query: a size limit of the checker, not a false claim.
      x.add(name, Status::Unknown, "region " + regionText + ": not checked: the query is too large (" + e.what() + ")",
            t0);
      return;
    }
    x.add(name, Status::False,
          "region " + regionText + ": query does not match the configuration (it cannot be generated: " + e.what() +
              ")",
          t0);
    return;
  } catch (const std::exception &e) {
    x.add(name, Status::False,
          "region " + regionText + ": query does not match the configuration (it cannot be generated: " + e.what() +
              ")",
          t0);
    return;
  }
  std::string matched;
  if (stored) {
    const std::string sha = certs::sha256Hex(text);
    Failures f(x.opt.maxReported);
    if (sha != stored->querySha256)
      f.add("SHA-256 of the regenerated query is " + sha + ", the certificate says " + stored->querySha256);
    if (long(text.size()) != stored->queryBytes)
      f.add("the regenerated query has " + std::to_string(text.size()) + " bytes, the certificate says " +
            std::to_string(stored->queryBytes));
    if (!stored->query.empty() && stored->query != text) f.add("the embedded query text differs from the regenerated one");
    if (!fp && stored->constantFalse && *stored->constantFalse != enc->constantFalse())
      f.add(std::string("constant_false says ") + (*stored->constantFalse ? "true" : "false") +
            " but the regenerated query is " + (enc->constantFalse() ? "" : "not ") + "the constant false");
    if (stored->obligations && !fp) {
      const certs::Proof::Obligations &o = *stored->obligations;
      if (o.phases != enc->store().phaseCount() || o.facts != long(enc->facts()) ||
          o.decisions != long(enc->decisions()))
        f.add("obligations say " + std::to_string(o.phases) + " phases, " + std::to_string(o.facts) + " facts, " +
              std::to_string(o.decisions) + " decisions; the regenerated query has " +
              std::to_string(enc->store().phaseCount()) + ", " + std::to_string(enc->facts()) + ", " +
              std::to_string(enc->decisions()));
    }
    if (!stored->queryFile.empty()) {
      auto ft = readQueryFile(x.opt.baseDir, stored->queryFile, stored->queryBytes);
      if (!ft)
        f.add("query_file '" + stored->queryFile + "' cannot be read (missing, not a regular file, or longer than query_bytes)");
      else if (*ft != text)
        f.add("query_file '" + stored->queryFile + "' differs from the regenerated query");
    }
    if (f.any()) {
      x.add(name, Status::False, "region " + regionText + ": query does not match the configuration: " + f.str(), t0);
      return;
    }
    matched = "query matches the configuration (SHA-256 " + sha.substr(0, 12) + "..., " + std::to_string(text.size()) +
              " bytes" + (stored->query.empty() ? "" : ", embedded text equal") + ")";
  }
  std::string arithmetic;
  if (obligations && !fp) {
    // The claims and decisions of the analysis, by the independent arithmetic checker.
    const std::vector<std::string> bad = smt::checkAbstraction(enc->store(), 3);
    if (!bad.empty()) {
      std::string all;
      for (const std::string &b : bad) all += (all.empty() ? "" : "; ") + b;
      x.add(name, Status::False, "region " + regionText + ": the analysis' claims do not check: " + all, t0);
      return;
    }
    arithmetic = "; " + std::to_string(enc->decisions()) + " decisions of the analysis verified by arithmetic";
  }
  const std::vector<std::string> solvers = reprovers(x.opt.solver, stored ? stored->solver : "");
  if (solvers.empty()) {
    x.add(name, Status::Unknown, "region " + regionText + ": " + (matched.empty() ? "" : matched + "; ") +
                                     "not re-proven (--solver none)",
          t0);
    return;
  }
  std::string proven;
  for (const std::string &s : solvers) {
    smt::CheckResult r;
    std::string version;
    if (fp) {
      r = smt::solveText(s, text, smt::Budget::limitFor(x.opt.budget, x.opt.timeout));
      if (!backends.count(s)) backends[s] = smt::makeBackend(s);
      version = backends[s] ? backends[s]->version() : "?";
    } else {
      auto &be = backends[s];
      if (!be) be = smt::makeBackend(s);
      if (!be) {
        x.add(name, Status::Unknown, "solver " + s + " is not available in this build", t0);
        return;
      }
      version = be->version();
      r = be->check(enc->store(), smt::Budget::limitFor(x.opt.budget, x.opt.timeout));
    }
    ++x.rep.reproofs;
    const std::string who = s + " " + version;
    if (r.verdict == smt::Verdict::Unknown) {
      x.add(name, Status::Unknown,
            "region " + regionText + ": re-proof with " + who + " is unknown (" +
                (r.reason.empty() ? std::string("no reason given") : r.reason) + ", " + std::to_string(r.seconds) + " s)",
            t0);
      return;
    }
    if (r.verdict == smt::Verdict::Sat && obligations && r.phase > 0) {
      // A stored proof relied on that fact: the proof is false. Without a stored proof the
      // query is the checker's own attempt, and a fact it cannot prove refutes nothing the
      // certificate claims: unknown.
      x.add(name, stored ? Status::False : Status::Unknown,
            "region " + regionText + ": " + who + " answers sat for phase " + std::to_string(r.phase) + " (" +
                enc->phaseDescription(r.phase) + "): a fact of the analysis is not proven",
            t0);
      return;
    }
    if (r.verdict == smt::Verdict::Sat && q.step) {
      x.add(name, Status::False,
            "region " + regionText + stepName + ": " + who +
                " answers sat: the step does not hold (abstract subtree values on which the invariant fails)",
            t0);
      return;
    }
    if (r.verdict == smt::Verdict::Sat) {
      std::string cex = "no model";
      if (enc) {
        ConcreteInput in = enc->inputFromModel(r.model);
        bool replays = false;
        std::string vals;
        try {
          if (region.contains(int(in.xa), int(in.xb))) {
            std::vector<CVal> v = evaluatePlacements(x.c.config, {x.c.lhs, x.c.rhs}, in);
            replays = !isRelated(v[0], v[1], x.c.relation);
            vals = std::string(": ") + toString(x.c.lhs) + " gives " + toDecimal(v[0], x.c.config.acc.fmt) + ", " +
                   toString(x.c.rhs) + " gives " + toDecimal(v[1], x.c.config.acc.fmt);
          }
        } catch (const std::exception &) {
        }
        cex = "counterexample a=" + codesStr(in.a) + " b=" + codesStr(in.b) + " at " +
              pairStr(int(in.xa), int(in.xb)) + vals +
              (replays ? " (confirmed by the reference evaluator)"
                       : " (NOT confirmed by the reference evaluator: the encoder and the evaluator disagree)");
      }
      x.add(name, Status::False, "region " + regionText + ": " + who + " answers sat, the agreement is false: " + cex,
            t0);
      return;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, " %.3f s", r.seconds);
    proven += (proven.empty() ? "" : ", ") + who + buf;
  }
  const std::string how =
      obligations && enc
          ? "; " + std::string(enc->constantFalse() ? "the goal is the constant false and no fact needed the solver" :
                                                       "the agreement and " + enc->factSummary() + " of the analysis proven") +
                arithmetic
      : enc && enc->constantFalse()
          ? "; the query is the constant false: the encoder's analysis decided this region, the solver re-checked no "
            "reasoning"
          : "";
  x.add(name, Status::Holds,
        "region " + regionText + stepName + ": " + (matched.empty() ? "" : matched + "; ") + "unsat with " + proven +
            how,
        t0);
}

/// The largest number of block evaluations the checker spends on proving an NVFP4 agree set.
constexpr long kMaxNvfp4Evaluations = 1L << 25;

/// How often a region without a stored proof may be halved when its query is too large for
/// the encoding (at most 2^12 parts per agree region; a part still too large is unknown).
constexpr int kMaxCheckerSplitDepth = 12;

/// The element pairs (a, b) of an NVFP4 code pair that give distinct joint leaf states
/// (lhs leaf, rhs leaf): one representative per state, with both leaves.
struct LeafClasses {
  std::vector<std::pair<unsigned, unsigned>> codes;  ///< a representative (a code, b code)
  std::vector<CVal> leaf[2];                         ///< its lhs and rhs leaf values
};

/// The leaf classes of code pair (xa, xb): every placement is root(Tree(leaf(a_i, b_i))), so
/// a block's two results depend on each element pair only through its joint leaf state.
LeafClasses nvfp4LeafClasses(const ModelConfig &cfg, Placement lhs, Placement rhs, int xa, int xb,
                             const std::vector<CVal> &dec) {
  ConcreteDomain d;
  const Nvfp4Scales<ConcreteDomain> sc = makeNvfp4Scales(d, Integer(xa), Integer(xb));
  LeafClasses out;
  std::unordered_multimap<size_t, size_t> seen;
  for (unsigned ca = 0; ca < dec.size(); ++ca)
    for (unsigned cb = 0; cb < dec.size(); ++cb) {
      const CVal l = canonical(nvfp4Leaf(d, lhs, cfg, dec[ca], dec[cb], sc));
      const CVal r = canonical(nvfp4Leaf(d, rhs, cfg, dec[ca], dec[cb], sc));
      const size_t h = hashState(l) * 1000003u ^ hashState(r);
      bool dup = false;
      for (auto [it, end] = seen.equal_range(h); it != end && !dup; ++it)
        dup = sameState(out.leaf[0][it->second], l) && sameState(out.leaf[1][it->second], r);
      if (dup) continue;
      seen.emplace(h, out.codes.size());
      out.codes.push_back({ca, cb});
      out.leaf[0].push_back(l);
      out.leaf[1].push_back(r);
    }
  return out;
}

/// The agree set of an NVFP4 exhaustive table, proven by the checker itself (no solver
/// encoding of e4m3 scales exists yet): for every agree pair, every k-tuple of leaf classes
/// (all inputs, up to element pairs with the same joint leaf state) is evaluated with the
/// generic semantics (evalTree, nvfp4Root) and the two results compared. Beyond
/// kMaxNvfp4Evaluations evaluations the claim is unknown.
void checkNvfp4Agree(Ctx &x) {
  const auto t0 = Clock::now();
  const ModelConfig &cfg = x.c.config;
  const int k = cfg.k();
  const std::string claim = "agree (nvfp4, proven by enumeration)";
  std::vector<unsigned> codes(cfg.a.numCodes());
  for (unsigned i = 0; i < codes.size(); ++i) codes[i] = i;
  const std::vector<CVal> dec = decodeElements(cfg.a, codes);
  ConcreteDomain d;
  Failures f(x.opt.maxReported);
  long evaluations = 0;
  const Placement ps[2] = {x.c.lhs, x.c.rhs};
  for (int a = 0; a <= E4m3ScaleCode::kMaxCode; ++a)
    for (int b = 0; b <= E4m3ScaleCode::kMaxCode; ++b) {
      if (!x.agree.get(a, b)) continue;
      if (x.opt.budget && x.opt.budget->passed()) {
        x.add(claim, f.any() ? Status::False : Status::Unknown,
              f.any() ? f.str() : "not finished: " + x.opt.budget->stopReason(), t0);
        return;
      }
      const LeafClasses lc = nvfp4LeafClasses(cfg, ps[0], ps[1], a, b, dec);
      const long n = long(lc.codes.size());
      long tuples = 1;
      for (int i = 0; i < k && tuples <= kMaxNvfp4Evaluations; ++i) tuples *= n;
      if (evaluations + tuples > kMaxNvfp4Evaluations) {
        x.add(claim, f.any() ? Status::False : Status::Unknown,
              f.any() ? f.str()
                      : "not re-proven: " + pairStr(a, b) + " alone needs " + std::to_string(n) + "^" +
                            std::to_string(k) + " evaluations, beyond the checker's cap of " +
                            std::to_string(kMaxNvfp4Evaluations) + " for the whole table",
              t0);
        return;
      }
      const Nvfp4Scales<ConcreteDomain> sc = makeNvfp4Scales(d, Integer(a), Integer(b));
      std::vector<size_t> pick(size_t(k), 0);
      std::vector<CVal> leaves(static_cast<size_t>(k));
      for (long t = 0; t < tuples; ++t) {
        // The next k-tuple of class indices (an odometer, lowest position first).
        for (size_t i = 0; t > 0 && i < pick.size() && ++pick[i] == size_t(n); ++i) pick[i] = 0;
        CVal r[2];
        for (int s = 0; s < 2; ++s) {
          for (int i = 0; i < k; ++i) leaves[size_t(i)] = lc.leaf[s][pick[size_t(i)]];
          r[s] = nvfp4Root(d, ps[s], cfg, evalTree(d, cfg.tree, leaves, cfg.acc), sc);
        }
        ++evaluations;
        if (!isRelated(r[0], r[1], x.c.relation)) {
          std::vector<unsigned> ca, cb;
          for (int i = 0; i < k; ++i) {
            ca.push_back(lc.codes[pick[size_t(i)]].first);
            cb.push_back(lc.codes[pick[size_t(i)]].second);
          }
          f.add(pairStr(a, b) + " is in the agree set but a=" + codesStr(ca) + " b=" + codesStr(cb) + " gives " +
                toString(ps[0]) + " " + toDecimal(r[0], cfg.acc.fmt) + ", " + toString(ps[1]) + " " +
                toDecimal(r[1], cfg.acc.fmt));
          break;
        }
      }
    }
  x.rep.evaluations += size_t(evaluations);
  if (f.any())
    x.add(claim, Status::False, f.str(), t0);
  else
    x.add(claim, Status::Holds,
          std::to_string(x.agree.count()) + " agree pair(s): every input evaluated, up to element pairs with equal "
              "leaves (" + std::to_string(evaluations) + " evaluations)",
          t0);
}

/// The proofs claim of a certificate without stored proofs (the agree regions themselves, or
/// why there is nothing to re-prove) and of NVFP4 certificates.
void checkProofs(Ctx &x) {
  if (x.c.config.nvfp4() && x.c.engine == "exhaustive") {
    if (!x.c.proofs.empty())
      x.add("proofs", Status::False, "an nvfp4 exhaustive certificate has no solver proofs", Clock::now());
    else
      checkNvfp4Agree(x);
    return;
  }
  std::map<std::string, std::unique_ptr<smt::Backend>> backends;
  if (x.c.proofs.empty() && x.c.engine == "exhaustive" && x.c.config.anyOrder) {
    x.add("proofs", Status::Unknown,
          "an exhaustive any-order table has no induction proofs to re-check (the checker does not choose invariants): "
          "certify it with `mxcert table ... --tree " + treeText(x.c.config) + "` (the solver engine)",
          Clock::now());
    return;
  }
  if (x.c.proofs.empty() && x.c.engine == "exhaustive") {
    // An uncertified (exhaustive-engine) table: the checker proves the agree regions itself.
    // A region whose query exceeds the encoding's size limit (a case split over too many
    // exponent values) is checked as its two halves (Region::halves: e first), down to
    // kMaxCheckerSplitDepth levels; each part is a claim of its own.
    std::function<void(size_t, const Region &, int)> prove = [&](size_t j, const Region &r, int depth) {
      const std::string name = "agree[" + std::to_string(j) + "]" + (depth > 0 ? " part " + r.str() : "") +
                               " (no stored proof; proven by the checker)";
      bool tooLarge = false;
      checkOneProof(x, name, r, nullptr, backends,
                    depth < kMaxCheckerSplitDepth && r.count() > 1 ? &tooLarge : nullptr);
      if (!tooLarge) return;
      const auto [h0, h1] = r.halves();
      for (const Region &h : {h0, h1})
        if (h.count() > 0) prove(j, h, depth + 1);
    };
    for (size_t j = 0; j < x.c.agree.regions.size(); ++j) {
      if (x.opt.progress) x.opt.progress(long(j), long(x.c.agree.regions.size()));
      prove(j, x.c.agree.regions[j], 0);
    }
    return;
  }
  // Stored proofs: checkCertificate runs each as a part of its own (runParts).
}

/// The recorded closed form: its parameters are those the checker recomputes from the
/// configuration (src/check/closed_form_check.h, its own code: nothing of the synthesizer's
/// bound code is used), and its predicted set is the one those parameters give. Whether the
/// prediction equals the certified agree set is reported (the agree set itself is what the
/// proofs and witnesses certify).
void checkBound(Ctx &x) {
  if (!x.c.bound) return;
  const auto t0 = Clock::now();
  const certs::BoundRecord &b = *x.c.bound;
  const RecomputedBound rb = recomputeBoundParams(x.c.config, x.c.lhs, x.c.rhs, x.c.relation);
  if (!rb.whyNot.empty()) {
    x.add("bound", Status::False, "no closed form covers this configuration (" + rb.whyNot + ")", t0);
    return;
  }
  Failures f(x.opt.maxReported);
  std::map<std::string, long> got(b.params.begin(), b.params.end());
  for (auto &[n, v] : rb.params)
    if (!got.count(n))
      f.add("parameter " + n + " is missing (recomputed " + std::to_string(v) + ")");
    else if (got[n] != v)
      f.add("parameter " + n + " = " + std::to_string(got[n]) + ", recomputed " + std::to_string(v));
  for (auto &[n, v] : got)
    if (!rb.params.count(n)) f.add("parameter " + n + " is not part of the closed form");
  const std::optional<CodeSet> want = predictedSet(rb.params, x.c.config.k(), x.c.lhs, x.c.rhs, x.c.relation);
  const CodeSet recorded = b.agree.toSet();
  if (!want)
    f.add("the recomputed parameters do not define a predicted set");
  else if (recorded != *want)
    f.add("predicted agree set {" + b.agree.str() + "} differs from the one the parameters give {" +
          Guard::fromSet(*want).str() + "}");
  if (f.any()) {
    x.add("bound", Status::False, "the recorded closed form does not match the configuration: " + f.str(), t0);
    return;
  }
  const long off = [&] {
    long n = 0;
    for (int a = 0; a < kNumCodes; ++a)
      for (int c = 0; c < kNumCodes; ++c) n += recorded.get(a, c) != x.agree.get(a, c);
    return n;
  }();
  x.add("bound", Status::Holds,
        "recomputed by the checker from the configuration: {" + b.agree.str() + "}" +
            (off == 0 ? ", exactly the certified agree set"
                      : ", which differs from the certified agree set at " + std::to_string(off) + " code pair(s)"),
        t0);
}

}  // namespace

bool parseSolverChoice(const std::string &s, SolverChoice &out) {
  static const std::map<std::string, SolverChoice> kNames = {{"other", SolverChoice::Other},
                                                            {"cvc5", SolverChoice::Cvc5},
                                                            {"z3", SolverChoice::Z3},
                                                            {"both", SolverChoice::Both},
                                                            {"none", SolverChoice::None}};
  auto it = kNames.find(s);
  if (it == kNames.end()) return false;
  out = it->second;
  return true;
}

const char *toString(Status s) {
  switch (s) {
  case Status::Holds: return "holds";
  case Status::False: return "FALSE";
  case Status::Unknown: return "unknown";
  }
  return "?";
}

bool CheckReport::holds() const {
  return std::all_of(claims.begin(), claims.end(), [](const ClaimResult &c) { return c.status == Status::Holds; });
}

const ClaimResult *CheckReport::firstFalse() const {
  for (const ClaimResult &c : claims)
    if (c.status == Status::False) return &c;
  return nullptr;
}

const ClaimResult *CheckReport::firstUnknown() const {
  for (const ClaimResult &c : claims)
    if (c.status == Status::Unknown) return &c;
  return nullptr;
}

namespace {

/// A part of a check: adds its claims to the context's report.
struct Part {
  std::string name;                ///< the claim reported when its worker gives no answer
  std::function<void(Ctx &)> run;
  bool proof = false;              ///< one proof's re-check (counted by opt.progress)
  double cost = 0;                 ///< a rough estimate: the costliest parts start first
};

/// The claims of `r` and its counters as text for a pipe: the counters, then per claim its
/// status, seconds and the byte lengths of its name and detail, followed by those bytes.
std::string packReport(const CheckReport &r) {
  std::string out = std::to_string(r.pairsReplayed) + " " + std::to_string(r.evaluations) + " " +
                    std::to_string(r.reproofs) + " " + std::to_string(r.claims.size()) + "\n";
  for (const ClaimResult &c : r.claims) {
    char secs[64];
    std::snprintf(secs, sizeof secs, "%.9g", c.seconds);
    out += std::to_string(int(c.status)) + " " + secs + " " + std::to_string(c.claim.size()) + " " +
           std::to_string(c.detail.size()) + "\n" + c.claim + c.detail;
  }
  return out;
}

/// Reads packReport's text into `into` (appending claims, adding counters); false when it
/// is cut short or malformed (a child that died while writing).
bool unpackReport(const std::string &s, CheckReport &into) {
  size_t pos = 0;
  auto line = [&](std::string &l) {
    const size_t nl = s.find('\n', pos);
    if (nl == std::string::npos) return false;
    l = s.substr(pos, nl - pos);
    pos = nl + 1;
    return true;
  };
  std::string l;
  long pairs = 0, evals = 0, n = 0;
  int proofs = 0;
  if (!line(l) || std::sscanf(l.c_str(), "%ld %ld %d %ld", &pairs, &evals, &proofs, &n) != 4 || n < 0) return false;
  std::vector<ClaimResult> claims;
  for (long i = 0; i < n; ++i) {
    int st = 0;
    double secs = 0;
    size_t nameLen = 0, detailLen = 0;
    if (!line(l) || std::sscanf(l.c_str(), "%d %lf %zu %zu", &st, &secs, &nameLen, &detailLen) != 4 || st < 0 ||
        st > 2 || pos + nameLen + detailLen > s.size())
      return false;
    claims.push_back(ClaimResult{s.substr(pos, nameLen), Status(st), s.substr(pos + nameLen, detailLen), secs});
    pos += nameLen + detailLen;
  }
  into.pairsReplayed += pairs;
  into.evaluations += evals;
  into.reproofs += proofs;
  into.claims.insert(into.claims.end(), claims.begin(), claims.end());
  return true;
}

/// Runs the parts with up to `jobs` of them at a time, each in a forked child that checks on
/// its own copy of the context (the parent's state, the agree set and refuted pairs included,
/// is inherited) and sends back its claims and counters; the parent adds them to the report
/// in part order, so the report does not depend on `jobs`. jobs <= 1 (or a single part): in
/// this process, one after another. A child that dies without an answer gives the unknown
/// claim `name` (a resource limit, never a verdict on the certificate).
void runParts(Ctx &x, const std::vector<Part> &parts, int jobs) {
  long proofs = 0, proofsDone = 0;
  for (const Part &p : parts) proofs += p.proof ? 1 : 0;
  if (jobs <= 1 || parts.size() <= 1) {
    for (const Part &p : parts) {
      if (p.proof && x.opt.progress) x.opt.progress(proofsDone++, proofs);
      p.run(x);
    }
    return;
  }
  struct Slot {
    pid_t pid = -1;
    int fd = -1;
    std::string text;
    bool done = false;
    Clock::time_point t0;
  };
  std::vector<Slot> slots(parts.size());
  size_t next = 0, flushed = 0;
  int running = 0;
  auto start = [&](size_t i) {
    Slot &sl = slots[i];
    sl.t0 = Clock::now();
    int fds[2];
    if (::pipe(fds) != 0) {
      sl.done = true;  // no answer: reported as unknown below
      return;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      sl.done = true;
      return;
    }
    if (pid == 0) {
      // The worker: whatever happens (an allocation that fails included), it leaves here
      // with _exit, never through the parent's code.
      ::close(fds[0]);
      int rc = 1;
      try {
        CheckOptions opt = x.opt;
        opt.log = nullptr;  // the parent logs the claims in order
        opt.progress = nullptr;
        CheckReport rep;
        Ctx cx{x.c, opt, rep, x.agree, x.refuted};
        parts[i].run(cx);
        rc = smt::writeAll(fds[1], packReport(rep)) ? 0 : 1;
      } catch (...) {
        rc = 1;
      }
      ::_exit(rc);
    }
    ::close(fds[1]);
    sl.pid = pid;
    sl.fd = fds[0];
    ++running;
  };
  auto flush = [&] {
    while (flushed < slots.size() && slots[flushed].done) {
      Slot &sl = slots[flushed];
      const size_t before = x.rep.claims.size();
      if (!unpackReport(sl.text, x.rep))
        x.rep.claims.push_back(ClaimResult{parts[flushed].name, Status::Unknown,
                                           "not checked: its worker process ended without an answer (a resource "
                                           "limit such as memory?)",
                                           since(sl.t0)});
      for (size_t k = before; k < x.rep.claims.size(); ++k) {
        const ClaimResult &c = x.rep.claims[k];
        x.log(std::string(toString(c.status)) + "  " + c.claim + ": " + c.detail);
      }
      if (parts[flushed].proof && x.opt.progress) x.opt.progress(++proofsDone, proofs);
      ++flushed;
    }
  };
  // Start order: the costliest first (so that one long part does not start last); the
  // claims are still reported in part order.
  std::vector<size_t> order(parts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return parts[a].cost > parts[b].cost; });
  while (flushed < slots.size()) {
    while (running < jobs && next < slots.size()) start(order[next++]);
    flush();
    if (running == 0) continue;
    std::vector<pollfd> fds;
    std::vector<size_t> idx;
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i].fd >= 0) {
        fds.push_back(pollfd{slots[i].fd, POLLIN, 0});
        idx.push_back(i);
      }
    const int pr = ::poll(fds.data(), fds.size(), 200);
    if (smt::Budget::interrupted()) {  // Ctrl-C or SIGTERM: stop the workers now
      for (Slot &sl : slots)
        if (sl.fd >= 0) ::kill(sl.pid, SIGKILL);
    }
    if (pr < 0 && errno != EINTR) {
      // poll itself failed: stop the workers; their parts are unknown (no answer).
      for (Slot &sl : slots)
        if (sl.fd >= 0) {
          ::kill(sl.pid, SIGKILL);
          ::close(sl.fd);
          sl.fd = -1;
          int status = 0;
          while (::waitpid(sl.pid, &status, 0) < 0 && errno == EINTR) {
          }
          sl.text.clear();
          sl.done = true;
          --running;
        }
      for (size_t i = next; i < slots.size(); ++i) slots[order[i]].done = true;
      next = slots.size();
      continue;
    }
    for (size_t j = 0; j < fds.size(); ++j) {
      if (!(fds[j].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Slot &sl = slots[idx[j]];
      char buf[65536];
      const ssize_t n = ::read(sl.fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        sl.text.append(buf, size_t(n));
        continue;
      }
      ::close(sl.fd);
      sl.fd = -1;
      int status = 0;
      while (::waitpid(sl.pid, &status, 0) < 0 && errno == EINTR) {
      }
      if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) sl.text.clear();
      sl.done = true;
      --running;
    }
  }
  flush();
}

}  // namespace

CheckReport checkCertificate(const certs::Certificate &c, const CheckOptions &opt) {
  const auto t0 = Clock::now();
  CheckReport rep;
  Ctx x{c, opt, rep, {}, {}};
  checkAgree(x);
  checkCoverage(x);
  // The witness replay and the proofs are independent and take the time: they run side by
  // side with opt.jobs > 1 (the claims keep this order).
  // Estimated costs (seconds, roughly, on this project's machine): a replayed pair about
  // 15 us, a query about 2.5 us per byte of its text.
  long refutedPairs = 0;
  for (const CodeSet &r : x.refuted) refutedPairs += long(r.count());
  std::vector<Part> parts;
  parts.push_back({"witnesses", checkWitnesses, false, 15e-6 * double(refutedPairs)});
  parts.push_back({"proof coverage", checkProofCoverage});
  parts.push_back({"bound", checkBound});
  const bool oneByOne = !c.proofs.empty() && !(c.config.nvfp4() && c.engine == "exhaustive");
  // The backends are made here, before any fork: a Z3 context is built once and inherited.
  auto backends = std::make_shared<std::map<std::string, std::unique_ptr<smt::Backend>>>();
  if (oneByOne && opt.jobs > 1)
    for (const certs::Proof &p : c.proofs)
      if (p.encoding != "fp")
        for (const std::string &s : reprovers(opt.solver, p.solver))
          if (!backends->count(s)) (*backends)[s] = smt::makeBackend(s);
  if (oneByOne) {
    for (size_t i = 0; i < c.proofs.size(); ++i) {
      const std::string name = "proofs[" + std::to_string(i) + "]";
      parts.push_back({name,
                       [i, name, backends](Ctx &cx) {
                         checkOneProof(cx, name, cx.c.proofs[i].region, &cx.c.proofs[i], *backends);
                       },
                       true, 2.5e-6 * double(c.proofs[i].queryBytes)});
    }
  } else {
    parts.push_back({"proofs", checkProofs});  // reports its own progress
  }
  runParts(x, parts, opt.jobs);
  rep.seconds = since(t0);
  return rep;
}

}  // namespace mxcert::check

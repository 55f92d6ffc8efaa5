// src/engine/to_certificate.cpp — engine results as certificates.
#include "src/engine/to_certificate.h"

#include "src/engine/bounds.h"
#include "src/engine/solver_table.h"

namespace mxcert::engine {

namespace {
std::vector<certs::CertWitness> witnessesOf(const std::vector<Witness> &ws, const std::vector<int> &of) {
  std::vector<CodeSet> sets(ws.size());
  for (int xa = 0; xa < kNumCodes; ++xa)
    for (int xb = 0; xb < kNumCodes; ++xb) {
      int w = of[size_t(xa) * kNumCodes + size_t(xb)];
      if (w >= 0) sets[size_t(w)].set(xa, xb);
    }
  std::vector<certs::CertWitness> out;
  for (size_t i = 0; i < ws.size(); ++i) out.push_back({ws[i].a, ws[i].b, Guard::fromSet(sets[i]), {}, {}, ws[i].tree});
  return out;
}

certs::Certificate base(const PairQuery &q) {
  certs::Certificate c;
  c.toolVersion = MXCERT_VERSION;
  c.config = q.cfg;
  c.lhs = q.lhs;
  c.rhs = q.rhs;
  c.relation = q.rel;
  ClosedForm cf = closedForm(q);
  if (cf.applies) c.bound = certs::BoundRecord{cf.formula, cf.params, cf.guard};
  return c;
}
}  // namespace

certs::Certificate certificateOf(const PairQuery &q, const SolverTableResult &r) {
  certs::Certificate c = base(q);
  c.engine = "solver";
  c.agree = r.guard;
  for (const ProofRecord &p : r.proofs) {
    certs::Proof cp;
    cp.region = p.region;
    cp.nv = p.nv;
    cp.solver = p.solver;
    cp.solverVersion = p.solverVersion;
    cp.seconds = p.seconds;
    cp.querySha256 = p.sha256;
    cp.queryBytes = long(p.bytes);
    cp.constantFalse = p.constantFalse;
    if (p.obligations)
      cp.obligations = certs::Proof::Obligations{long(p.phases), long(p.facts), long(p.decisions)};
    cp.query = p.smt2;
    cp.step = p.step;
    if (p.step) cp.invariant = p.inv;
    c.proofs.push_back(cp);
  }
  c.regionProofs = r.regionProofs;
  c.witnesses = witnessesOf(r.witnesses, r.witnessOf);
  c.stats = {{"seconds", r.stats.seconds},
             {"solver_seconds", r.stats.solverSeconds},
             {"queries", r.stats.queries},
             {"unsat", r.stats.unsat},
             {"sat", r.stats.sat},
             {"unknown", r.stats.unknown},
             {"splits", r.stats.splits},
             {"structured_witnesses", r.stats.patternWitnesses},
             {"closed_form_used", r.stats.usedClosedForm},
             {"closed_form_mismatches", r.stats.predictionMismatches}};
  if (r.stats.usedExhaustiveSeed) c.stats["exhaustive_prediction_used"] = true;
  // e-band predictions (solver_table.cpp, bandPredict), only where there are some.
  if (r.stats.bandPredictions) c.stats["band_predictions"] = r.stats.bandPredictions;
  if (!q.cfg.anyOrder) {
    // Fixed tree: regions proven by the every-tree induction, and those where it failed.
    c.stats["induction_regions"] = r.stats.inductionRegions;
    c.stats["induction_failures"] = r.stats.inductionFailures;
    // Witnesses made from a failed root step's model (only where there are some).
    if (r.stats.rootStepWitnesses) c.stats["root_step_witnesses"] = r.stats.rootStepWitnesses;
    if (r.stats.leafStepWitnesses) c.stats["leaf_step_witnesses"] = r.stats.leafStepWitnesses;
  }
  return c;
}

certs::Certificate certificateOf(const PairQuery &q, const ExhaustiveResult &r) {
  certs::Certificate c = base(q);
  c.engine = "exhaustive";
  c.agree = Guard::fromSet(r.agree);
  c.regionProofs.assign(c.agree.regions.size(), {});
  c.witnesses = witnessesOf(r.witnesses, r.witnessOf);
  c.stats = {{"seconds", r.stats.seconds},
             {"groups", r.stats.groups},
             {"tree_evaluations", r.stats.treeEvaluations},
             {"witness_reuses", r.stats.witnessHits},
             {"decided_by_scaling", r.stats.collapsed},
             {"max_layer_states", r.stats.maxLayerStates}};
  if (q.cfg.anyOrder) c.stats["trees"] = r.stats.trees;  // tree shapes intersected
  return c;
}

}  // namespace mxcert::engine

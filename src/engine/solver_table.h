// src/engine/solver_table.h — certified agree sets with the QF_LIA encoding and a solver.
//
// The exact agree set over all code pairs 0..254 x 0..254, with
//  * for every region of the answer, unsat proofs of sub-regions covering it, and
//  * for every excluded pair, a witness the reference evaluator confirms.
// Strategy: start from the closed-form prediction when one applies (else from "all pairs"),
// carve out pairs refuted by cheap structured witnesses, then prove the remaining candidate
// regions; a sat answer yields a witness (checked by evaluation) that removes every pair it
// refutes; a timeout splits the region. Excluded pairs without a witness get one from small
// counterexample queries (few free leaves, the rest +0) and then full ones; an unsat answer
// there means the pair agrees after all, and it joins the answer with its proof.
#pragma once

#include "models/guard.h"
#include "models/induction.h"
#include "models/nvfp4.h"
#include "smt/backend.h"
#include "src/engine/pair_query.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mxcert::engine {

/// A proof that no input and no code pair of `region` makes the placements differ.
struct ProofRecord {
  Region region;
  /// NVFP4: the region in scale coordinates (models/nvfp4.h) that the query covers; `region`
  /// is then unused.
  std::optional<Nvfp4Region> nv;
  std::string solver;         ///< "cvc5" or "z3"
  std::string solverVersion;
  double seconds = 0;
  std::string sha256;         ///< of the SMT-LIB2 query text
  size_t bytes = 0;           ///< size of the query text
  std::string smt2;           ///< the query text (only when requested)
  /// The query is the constant false (the encoder's analysis decided the region; the
  /// solver's "unsat" involved no reasoning). docs/solver.md.
  bool constantFalse = false;
  /// Obligations mode: the query's phases (goal first, then one per fact), the facts the
  /// solver proved and the decisions the arithmetic checker verified.
  bool obligations = false;
  int phases = 1;
  size_t facts = 0, decisions = 0;
  /// Any-order tables: the induction step this query proves, with the invariant (a region is
  /// proven by one record per step of inductionSteps(cfg), all with the same invariant).
  std::optional<InductionStep> step;
  Invariant inv;
};

/// The answer of one solver query on one region.
struct RegionCheck {
  smt::Verdict verdict = smt::Verdict::Unknown;
  double seconds = 0;
  std::string reason;                 ///< for unknown
  /// For unknown: a smaller region would not help (the command's deadline has passed, the
  /// query exceeds the term cap, or the solver ran out of memory), so callers do not split.
  bool final = false;
  /// For unknown: the encoding hit a size limit (a case split over too many values), which
  /// depends on the region's ranges: a smaller region may fit.
  bool tooLarge = false;
  std::optional<ConcreteInput> cex;   ///< for sat: confirmed by the reference evaluator
  ProofRecord proof;                  ///< for unsat
  /// For an induction step the solver found satisfiable (reported as unknown: the invariant
  /// does not carry over): the model's values of the step's variables (step_witness.h).
  std::map<std::string, Integer> stepModel;
};

/// Per-leaf fixed element codes for restricted counterexample queries (see smt::Query).
using LeafFix = std::vector<std::optional<std::pair<unsigned, unsigned>>>;

/// Asks `backend` whether F1 and F2 can differ in `region` (leaves in `fixed` held fixed).
/// A sat model is replayed in the reference evaluator; one that does not replay is an
/// internal error (std::logic_error), never a silent answer.
RegionCheck checkRegion(const PairQuery &q, const Region &region, smt::Backend &backend,
                        double timeoutSec, const LeafFix &fixed = {}, bool keepText = false);

/// The same for an NVFP4 question (q.cfg.nvfp4()) on a region in scale coordinates: a sat
/// model is replayed at its code pair, an unsat answer's record carries the region in `nv`.
RegionCheck checkNvfp4Region(const PairQuery &q, const Nvfp4Region &region, smt::Backend &backend,
                             double timeoutSec, const LeafFix &fixed = {}, bool keepText = false);

/// One induction step of an any-order question (q.cfg.anyOrder) on `region` with invariant
/// `inv`: unsat proves the step (the record says which); sat is no counterexample, only
/// "this invariant does not carry over here", and is reported as unknown with that reason.
RegionCheck checkInductionStep(const PairQuery &q, const Region &region, InductionStep step, const Invariant &inv,
                               smt::Backend &backend, double timeoutSec, bool keepText = false);
/// checkInductionStep for each of `steps`, in order up to and including the first that is not
/// unsat (the invariant carries over only if every step holds). The first step (the leaf
/// step) is checked alone; if it holds, every other step is encoded, then their queries are
/// checked with backend.checkAll: side by side with a backend of several jobs
/// (smt::isolate), with the answers one after another would give.
std::vector<RegionCheck> checkInductionSteps(const PairQuery &q, const Region &region,
                                             const std::vector<InductionStep> &steps, const Invariant &inv,
                                             smt::Backend &backend, double timeoutSec, bool keepText = false);

/// The outcome of a counterexample search in a region.
struct CexSearch {
  smt::Verdict verdict = smt::Verdict::Unknown;  ///< sat: witness; unsat: proof
  std::optional<Witness> witness;                ///< confirmed by the reference evaluator
  ProofRecord proof;
  std::string reason;                            ///< for unknown
  size_t queries = 0;
  double solverSeconds = 0;
};

/// Searches a counterexample in `region`: structured candidate inputs evaluated at pairs of
/// the region (when `tryPatterns`), then small queries with most leaves fixed, then the full
/// query (which proves the region when unsat).
CexSearch searchCounterexample(const PairQuery &q, const Region &region, smt::Backend &backend,
                               double timeoutSec, double witnessTimeoutSec, bool tryPatterns = true,
                               const std::function<void(const std::string &)> &log = {});

/// Why no order-independent proof is attempted for q ("" when one is): the scales must be
/// e8m0 (NVFP4's e4m3 scales are no powers of two). Every placement pair has an invariant to
/// try (post2's tree values are post's: models/induction.h, sideScale).
std::string anyOrderUnsupported(const PairQuery &q);
/// The structured candidate inputs of the table engine's step 2 (docs/solver.md, "The table
/// engine"), as (a codes, b codes) of c's k leaves: extreme products in a few leaves, maxima
/// against negated maxima, n maximal products, products of every binade, the zero block, and
/// an infinite element beside the other side's smallest and largest element. Candidates only:
/// each refutes a pair only once the reference evaluator confirms it (witnessDisagrees).
std::vector<std::pair<std::vector<unsigned>, std::vector<unsigned>>> structuredInputs(const ModelConfig &c);
/// The invariants tried on a region of an any-order question, in order (models/induction.h):
/// mode Equal (when both sides carry the same scale), mode Scaled, then (when the base is
/// post or post2 and the other side pre or dequant) mode Zero, and after it, where an element
/// is an infinity, mode Zero with infinities as NaN (Invariant::infAsNaN; proveAnyOrder tries
/// it only after mode Zero failed at its leaf step on an infinite element); where no element
/// is an infinity, last Scaled and then Zero without infinities (Invariant::noInf;
/// proveAnyOrder tries each only after the same mode's root step failed on an infinite
/// value). The unit U
/// is rounded up where some n U (n <= k) is not representable in the accumulator
/// (docs/bounds.md).
std::vector<Invariant> candidateInvariants(const PairQuery &q);
/// The outcome of proving a region for every tree.
struct InductionCheck {
  smt::Verdict verdict = smt::Verdict::Unknown;  ///< unsat: proven; never sat
  std::vector<ProofRecord> steps;                ///< for unsat: one per step
  std::string reason;                            ///< for unknown: each invariant's failure
  bool final = false;                            ///< a smaller region would not help
  bool tooLarge = false;                         ///< some invariant's step hit an encoding limit
  /// For unknown: the steps the solver found satisfiable, one per invariant at most, with
  /// their models (abstract values and a code pair; step_witness.h makes inputs from them).
  struct FailedStep {
    InductionStep step = InductionStep::Leaf;
    Invariant inv;
    std::map<std::string, Integer> model;
  };
  std::vector<FailedStep> failedSteps;
  size_t queries = 0;
  double solverSeconds = 0;
};
/// Proves that F1 and F2 agree in `region` for every tree: every step of one candidate
/// invariant unsat.
InductionCheck proveAnyOrder(const PairQuery &q, const Region &region, smt::Backend &backend, double timeoutSec,
                             bool keepText = false);
/// A counterexample search for an any-order question: searchCounterexample with each tree of
/// witnessTrees; the first witness found names its tree. `allUnsat` tells whether every tree
/// tried agrees on the whole region (no proof for the other trees: the verdict stays unknown).
CexSearch searchAnyOrderCounterexample(const PairQuery &q, const Region &region, smt::Backend &backend,
                                       double timeoutSec, double witnessTimeoutSec, bool tryPatterns, bool &allUnsat,
                                       const std::function<void(const std::string &)> &log = {});
/// The trees an any-order table searches witnesses with: seq, pairwise, and (fan-in allowing)
/// fused and seq over k - 1 leaves fused with the last one.
std::vector<Tree> witnessTrees(const ModelConfig &cfg);

struct SolverTableOptions {
  std::string solver = "cvc5";
  double timeout = 120;         ///< per region query, seconds
  double quickTimeout = 30;     ///< first attempt on a region spanning several e values
  double witnessTimeout = 5;    ///< per restricted counterexample query
  bool useClosedForm = true;
  bool keepQueries = false;     ///< keep the SMT-LIB2 text in the proof records
  /// Fixed-tree questions: try each region first with the induction (proveAnyOrder on
  /// everyTreeConfig, where anyOrderUnsupported allows it), which proves agreement for a
  /// class of trees holding q's; the unrolled tree's query where no invariant carries over
  /// (docs/solver.md, "Fixed trees proven by the induction"). False: the unrolled query only
  /// (`mxcert table --proof unrolled`).
  bool inductionFirst = true;
  /// With inductionFirst, k = 1 still goes to the unrolled query first (one product: the
  /// query is the leaf and root steps at once; docs/solver.md). False keeps the induction
  /// first at k = 1 too (tests of the invariant's k = 1 steps).
  bool unrolledAtOneProduct = true;
  /// At k <= exhaustiveSeedMaxK: the exhaustive engine's agree set as the prediction and its
  /// witnesses (each confirmed by the reference evaluator), when it finishes within
  /// exhaustiveSeedSeconds (0: never) and its a priori size (about P^(k-1) states for P
  /// distinct products, P^k for a tree with a node of more than two children) is at most 2e5.
  /// With a closed form it runs only before the witness search, if some excluded group has no
  /// witness yet. The solver still proves every region.
  double exhaustiveSeedSeconds = 20;
  int exhaustiveSeedMaxK = 4;
  /// NVFP4 beyond exhaustiveSeedMaxK: witnesses are lifted from the exhaustive engine on the
  /// probes with the first n leaves, n = 2 .. liftMaxLeaves (and n < k), within
  /// exhaustiveSeedSeconds (docs/solver.md, "NVFP4", step 1).
  int liftMaxLeaves = 8;
  /// Below this k (one product) the whole prediction does not run: it would be the exhaustive
  /// engine's whole work, so the table could only be slower than that engine's; the e-band
  /// predictions (bandSeconds) take its place.
  int exhaustiveSeedMinK = 2;
  /// The prediction's first try, in seconds: one that finishes within it, or by the share of
  /// groups it reached within 5 times it, runs before the first unrolled query. A longer one
  /// is dropped where that share says it would not finish within exhaustiveSeedSeconds; else
  /// it waits: the unrolled queries go first (at most deferredQueryTimeout each), a sat
  /// answer's witness refutes its groups and the regions are taken again, and the prediction
  /// runs when a query comes back unknown (not for an encoding limit) or once sat answers have
  /// taken exhaustiveSeedSeconds / 2. With every query unsat it never runs (docs/solver.md,
  /// "The table engine", step 3).
  double exhaustiveSeedFirstSeconds = 2;
  /// While the prediction waits: the most seconds an unrolled query may take before it runs.
  double deferredQueryTimeout = 5;
  /// Where the whole prediction was given up for time or does not run (exhaustiveSeedSeconds
  /// = 0, or k < exhaustiveSeedMinK), a satisfiable unrolled query's witness at e0 sends the
  /// undecided pairs of the lines of e = xa + xb - 254 around e0 (e0 +- 16, else +- 4, else
  /// e0) to the exhaustive engine: at most bandSeconds by the time per code group of the
  /// prediction's try or of the bands so far (a band past twice that, or that its own groups
  /// say would be, is given up), bandTotalSeconds in all (bandSeconds = 0: never;
  /// docs/solver.md, "The table engine", step 4).
  double bandSeconds = 2;
  double bandTotalSeconds = 20;
  /// Processors to use: threads that evaluate a candidate witness on the code groups (the
  /// structured inputs, and each witness found: disagreeingGroups), and solver processes for
  /// the fact phases of one query and for induction steps side by side (smt::isolate's
  /// `jobs`). The table does not depend on it.
  int threads = 1;
  std::function<void(const std::string &)> log;
  /// Called after each query and each witness search with (code pairs decided, 65025): for a
  /// progress display (may be empty).
  std::function<void(long, long)> progress;
};

struct SolverTableStats {
  size_t queries = 0, unsat = 0, sat = 0, unknown = 0, splits = 0;
  size_t patternWitnesses = 0;      ///< witnesses found without a solver
  size_t predictionMismatches = 0;  ///< pairs where the closed form was wrong
  size_t inductionRegions = 0;      ///< fixed tree: regions proven for every tree (inductionFirst)
  size_t inductionFailures = 0;     ///< fixed tree: regions where no invariant carried over
  /// Fixed tree: witnesses made from a failed root step's model (step_witness.h), each
  /// confirmed by the reference evaluator; the induction is then tried again on the rest.
  size_t rootStepWitnesses = 0;
  /// Fixed tree: witnesses made from a failed leaf step's model (leafStepInputs), each
  /// confirmed by the reference evaluator; the induction is then tried again on the rest.
  size_t leafStepWitnesses = 0;
  /// Bands of e = xa + xb - 254 around a satisfiable unrolled query's witness that the
  /// exhaustive engine evaluated (SolverTableOptions::bandSeconds).
  size_t bandPredictions = 0;
  bool usedClosedForm = false;
  bool usedExhaustiveSeed = false;  ///< the exhaustive engine's set was the prediction
  double seconds = 0, solverSeconds = 0;
};

struct SolverTableResult {
  CodeSet agree;
  Guard guard;                                  ///< canonical decomposition of `agree`
  std::vector<ProofRecord> proofs;              ///< proven regions; their union is `agree`
  std::vector<std::vector<int>> regionProofs;   ///< per guard region: proofs that meet it
  std::vector<Witness> witnesses;
  std::vector<int> witnessOf;                   ///< per pair (xa * 255 + xb), -1 if none
  std::vector<Region> unknown;                  ///< undecided regions (table incomplete)
  SolverTableStats stats;
  bool complete() const { return unknown.empty(); }
};

/// Computes the certified agree set of q.
SolverTableResult runSolverTable(const PairQuery &q, const SolverTableOptions &opt);

}  // namespace mxcert::engine

// smt/encoder.h — "can F1 and F2 differ?" as one QF_LIA query over a region of code pairs.
//
// Variables: the element codes a_i, b_i (0 .. 2^bits - 1), the scale code xa and the
// exponent e, with xb = e - xa + 254 constrained to the region's xb range. Everything else
// is the models' generic semantics (models/placement.h) instantiated on terms, so the query
// is exactly "exists an input and a code pair in the region on which lhs and rhs are not
// related, or on which a fact the encoding's analysis relied on fails" (smt/term.h). unsat
// proves the region and every such fact, provided that the arithmetic checker accepts the
// encoding's abstract values (smt/abstract_check.h); a model is a counterexample (to be
// confirmed by the reference evaluator) or shows a failed fact (failedFacts tells which).
#pragma once

#include "models/eval.h"
#include "models/guard.h"
#include "models/induction.h"
#include "models/nvfp4.h"
#include "smt/term.h"
#include "smt/term_domain.h"

#include <map>
#include <optional>
#include <string>

namespace mxcert::smt {

/// One query: configuration, placements, relation and the region of code pairs.
struct Query {
  ModelConfig cfg;
  Placement lhs = Placement::Pre;
  Placement rhs = Placement::Post;
  Relation rel = Relation::Bitwise;
  Region region;
  /// Optional per-leaf fixed element codes (a, b); a leaf without one is free. Empty: all
  /// leaves free. Fixing most leaves makes much smaller queries for counterexample search.
  std::vector<std::optional<std::pair<unsigned, unsigned>>> fixed;
  /// The command's budget (not owned; null = unlimited): building the encoding throws
  /// BudgetExceeded when its deadline passes or the query exceeds its term cap.
  const Budget *budget = nullptr;
  /// Obligations mode (smt/term.h): every fact of the analysis is proven with the query.
  bool obligations = false;
  /// Tests only (tests/solver/test_faults.cpp): a perturbation of the analysis.
  FaultInjection fault;
  /// Any-order tables (cfg.anyOrder, models/induction.h): the query is one step of the
  /// induction with invariant `inv` ("the step fails for some abstract pair in the region"),
  /// not "the placements differ"; its unsat proves that step. Unset: the whole block.
  std::optional<InductionStep> step;
  Invariant inv;
  /// NVFP4 (cfg.nvfp4()): the region in scale coordinates (models/nvfp4.h), which replaces
  /// `region`: variables ja and j = ja + jb, the odd parts ma, mb constants.
  std::optional<Nvfp4Region> nv;
};

/// The QF_LIA encoding of a Query.
class LiaEncoding {
public:
  /// Builds the encoding. Throws EncodingLimit when a case split would be too large (the
  /// caller narrows the region and retries).
  explicit LiaEncoding(const Query &q);
  /// Frees the store, on a detached thread (releaseStore) where the query's budget has
  /// passed its deadline, or where the store holds at least a million terms and the deadline
  /// is less than 30 s away: a query of millions of terms took 4-19 s to free (e3m2 x e5m2
  /// k = 32 f16 rtz ftz pairwise post2/dequant value ended 19 s past its --timeout of 120 s).
  ~LiaEncoding();
  LiaEncoding(const LiaEncoding &) = delete;
  LiaEncoding &operator=(const LiaEncoding &) = delete;

  const TermStore &store() const { return store_; }
  /// Whether the region contains no code pair at all (then the query is trivially unsat).
  bool emptyRegion() const { return empty_; }
  /// Whether the query is the constant false although the region has code pairs: the
  /// analysis folded "the placements differ" to false and needed no solver fact for it, so
  /// the proof is the arithmetic checker's verification of the decisions alone.
  bool constantFalse() const {
    return !empty_ && (store_.trivallyFalse() || (store_.goalFalse() && store_.facts().empty()));
  }
  /// The solver-checked facts of the analysis in the query.
  size_t facts() const { return store_.facts().size(); }
  /// The decisions of the analysis the arithmetic checker verifies.
  size_t decisions() const { return store_.decisions().size(); }
  /// What phase p of the query proves ("the goal", "coverage fact 3").
  std::string phaseDescription(int p) const;
  /// "N facts (a coverage, b precision, c quotient)".
  std::string factSummary() const;
  /// Whether a model of the query makes the placements differ (its goal holds).
  bool modelDiffers(const std::map<std::string, Integer> &model) const;
  /// The facts a model violates, described ("coverage fact 3", ...); empty when all hold.
  std::vector<std::string> failedFacts(const std::map<std::string, Integer> &model) const;
  /// The concrete input a solver model describes (not for induction steps, whose models
  /// are abstract subtree values).
  ConcreteInput inputFromModel(const std::map<std::string, Integer> &model) const;
  /// The query as SMT-LIB2 text (deterministic).
  std::string smtlib2() const;

private:
  /// The body of the constructor. Where it stops because the command's deadline has passed,
  /// the constructor hands the partly built store to a thread that frees it (releaseStore):
  /// freeing a store of millions of terms took 4-15 s, after the deadline.
  void build(const Query &q);
  /// The decoded element inputs a_i, b_i: variables a<i>, b<i> over the codes, or the fixed
  /// codes of q_.fixed.
  void decodeInputs(TermDomain &d, std::vector<Val<TermDomain>> &A, std::vector<Val<TermDomain>> &B);
  /// The NVFP4 query (cfg.nvfp4()) over q_.nv.
  void encodeNvfp4(TermDomain &d);
  /// Asserts the goal: results R1 (lhs) and R2 (rhs) are not related by the query's relation,
  /// with, for placements of the same root step, the shared-root rule's "some leaf differs"
  /// over their leaves L1, L2 (models/placement.h, someLeafDiffers).
  void assertDiffer(TermDomain &d, const Val<TermDomain> &R1, const Val<TermDomain> &R2,
                    const std::vector<Val<TermDomain>> &L1, const std::vector<Val<TermDomain>> &L2);
  Query q_;
  TermStore store_;
  bool empty_ = false;
};

/// A short human-readable description of a query (used as the SMT-LIB2 header comment).
std::string describeQuery(const Query &q);

}  // namespace mxcert::smt

// src/engine/pair_query.h — the question every engine answers, and its counterexamples.
#pragma once

#include "models/eval.h"
#include "smt/term.h"
#include "smt/budget.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace mxcert::engine {

/// "Where do F1 and F2 agree?" for one configuration and relation.
struct PairQuery {
  ModelConfig cfg;
  Placement lhs = Placement::Pre;
  Placement rhs = Placement::Post;
  Relation rel = Relation::Bitwise;
  /// The command's budget (deadline and term cap; not owned, null = unlimited). Every query
  /// built for this question draws from it; once its deadline has passed no further query is
  /// built and the undecided rest is unknown.
  const smt::Budget *budget = nullptr;
  /// Obligations mode (smt/term.h, docs/solver.md "Obligations"): the solver proves every
  /// fact the encoding's analysis relied on, the arithmetic checker (smt/abstract_check.h)
  /// every claim and decision.
  bool obligations = false;
  /// Tests only: a perturbation of the analysis (smt::FaultInjection).
  smt::FaultInjection fault{};
};

/// Concrete element inputs on which the two placements are not related at (xa, xb).
struct Witness {
  std::vector<unsigned> a, b;  ///< element codes
  int xa = 0, xb = 0;          ///< a code pair where they differ
  /// The tree it is evaluated with (an S-expression over k leaves), for an any-order question
  /// (cfg.anyOrder): one tree that disagrees excludes the pair. Empty: q's own tree.
  std::string tree;
};

/// Whether F1 and F2 differ on the inputs (a, b) at (xa, xb), by the reference evaluator
/// (with q's tree; an any-order q has none: use the overload with a witness).
bool witnessDisagrees(const PairQuery &q, const std::vector<unsigned> &a,
                      const std::vector<unsigned> &b, int xa, int xb);
/// The same for witness w's inputs and tree (its own code pair ignored).
bool witnessDisagrees(const PairQuery &q, const Witness &w, int xa, int xb);
/// The same for an input decoded once with q's configuration (its tree values kept across
/// code pairs: models/eval.h), for callers that try one input on many pairs.
bool witnessDisagrees(const PairQuery &q, DecodedBlock &block, int xa, int xb);
/// q asked about the one tree t (any-order off).
PairQuery withTree(const PairQuery &q, const Tree &t);

/// A cheap necessary condition for witnessDisagrees on one input (a, b), by the shared-root
/// rule (models/placement.h, someLeafDiffers): for two placements with the same root step
/// (pre and dequant, MX), results that differ at (xa, xb) have some leaf whose two values
/// differ bitwise. `mayDisagree` evaluates only the input's distinct leaves (a pattern has a
/// few), not the tree: false means the full evaluation would find no difference. For other
/// placement pairs it is always true. A filter only: a witness is still confirmed by
/// witnessDisagrees.
class LeafDiffs;
class LeafFilter {
public:
  /// `memo` (optional, not owned, outliving the filter): the leaf comparisons, shared by the
  /// filters of many inputs, so that a leaf is compared once per code pair.
  LeafFilter(const PairQuery &q, const std::vector<unsigned> &a, const std::vector<unsigned> &b,
             LeafDiffs *memo = nullptr);
  /// Whether the placements may differ on the input at (xa, xb).
  bool mayDisagree(int xa, int xb) const;

private:
  const PairQuery *q_;
  LeafDiffs *memo_ = nullptr;
  bool active_ = false;
  std::vector<std::pair<unsigned, unsigned>> leaves_;  ///< the distinct (a_i, b_i)
};

/// The shared-root rule's leaf comparison, remembered: whether q's two placements give one
/// leaf (a, b) bitwise different values at (xa, xb). The structured inputs of a table share
/// most of their leaves (the largest, the smallest, zeros), and each is filtered on every
/// code group: remembered, a leaf is evaluated at most once per code pair instead of once per
/// input and pair. At most kMaxLeaves leaves are remembered (64 KiB each); others are
/// evaluated each time, with the same result. Not thread-safe (one per table).
class LeafDiffs {
public:
  explicit LeafDiffs(const PairQuery &q) : q_(&q) {}
  /// Whether the leaf (a, b)'s two placement values differ bitwise at (xa, xb).
  bool differs(unsigned a, unsigned b, int xa, int xb);
  /// How many leaves it remembers.
  size_t leaves() const { return memo_.size(); }
  /// Most leaves remembered.
  static constexpr size_t kMaxLeaves = 256;

private:
  const PairQuery *q_;
  /// (a << 16 | b) -> per code pair xa * 255 + xb: -1 not yet evaluated, else 0 or 1.
  std::unordered_map<uint32_t, std::vector<int8_t>> memo_;
};

/// The comparison itself (evaluated, nothing remembered).
bool leafDiffers(const PairQuery &q, unsigned a, unsigned b, int xa, int xb);
/// The same for decoded element values at the scales s.
bool leafValuesDiffer(const PairQuery &q, const CVal &a, const CVal &b, const Scales<ConcreteDomain> &s);

}  // namespace mxcert::engine

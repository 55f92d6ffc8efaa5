// src/engine/pair_query.h — the question every engine answers, and its counterexamples.
#pragma once

#include "models/eval.h"
#include "smt/budget.h"

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
};

/// Concrete element inputs on which the two placements are not related at (xa, xb).
struct Witness {
  std::vector<unsigned> a, b;  ///< element codes
  int xa = 0, xb = 0;          ///< a code pair where they differ
};

/// Whether F1 and F2 differ on the inputs (a, b) at (xa, xb), by the reference evaluator.
bool witnessDisagrees(const PairQuery &q, const std::vector<unsigned> &a,
                      const std::vector<unsigned> &b, int xa, int xb);

}  // namespace mxcert::engine

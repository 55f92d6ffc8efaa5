// src/engine/step_witness.h — inputs made from a failed induction root step's model.
//
// The induction (models/induction.h) proves a region of code pairs for every tree; its root
// step asks for abstract values: a sum (SB, SO) in J(k) of the invariant and a code pair
// (xa, xb) where the two roots are not related. When that step is satisfiable the region is
// not proven, and the solver's model is no counterexample: its sum need not come from any
// input. But where the base side B is post or post2 (σ(B) = 0, its tree values are the
// unscaled tree's: SB = S 2^g with g the product quantum), an input whose tree value is that
// sum is often easy to make: S units of 2^g written as a sum of at most k exact leaf values
// rnd(a_i b_i), largest first, the other leaves +0. When the sum's partial sums are exact in
// the accumulator, the tree's value is S 2^g on every tree, and post and post2 compute from
// that value alone (post2's leaves and tree are post's; the scales enter at the root), so
// the two placements then differ at (xa, xb) exactly as the model says: a real witness,
// which the induction could not have proven around.
//
// The input made here is only a candidate: the caller confirms it with the reference
// evaluator (witnessDisagrees) like any other witness, and nothing here decides a proof.
#pragma once

#include "models/guard.h"
#include "models/induction.h"
#include "src/engine/pair_query.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mxcert::engine {

/// A candidate witness for q (a fixed tree, q.cfg.tree) from the model of a failed `step`
/// (Root or Root1) of invariant `inv` on `region`: the model's code pair and an input whose
/// base-side tree value is the model's abstract value. nullopt when the step is another one,
/// the base side is pre or dequant (its tree values carry the scale), the model's value is a
/// NaN or an infinity, or no sum of at most k leaf values makes it. Not yet confirmed.
std::optional<Witness> rootStepInput(const PairQuery &q, InductionStep step, const Invariant &inv,
                                     const Region &region, const std::map<std::string, Integer> &model);

/// The largest k U (the bound on the root step's abstract sum, in units of 2^g) that
/// rootStepScan enumerates: 2^16 (e2m1 at k = 32 has k U = 4,608).
constexpr long kMaxScanUnits = 1L << 16;

/// What rootStepScan found: at most one candidate witness per code pair, and how many of the
/// given pairs it evaluated (a prefix: it stops at the evaluation budget).
struct RootStepScan {
  std::vector<Witness> candidates;
  size_t pairsScanned = 0;
};

/// Candidate witnesses from the root step of `inv` evaluated on concrete values: for each
/// code pair of `pairs` in order, every abstract sum the step allows (SB = S 2^g with
/// |S| <= k U, its -0, O's sum as the invariant says; no NaN or infinity, which no input made
/// here has) is rounded and given to both roots by the reference model (the same functions the
/// solver's root step is built from), and the first S whose roots are not related becomes an
/// input (as rootStepInput makes one). The same limits as rootStepInput (a fixed tree, base
/// side post or post2, not Equal, k >= 2), and nothing when k U > kMaxScanUnits; it stops
/// before the pair whose sums would take the evaluations past maxEvaluations. Every candidate
/// still needs the reference evaluator's confirmation (witnessDisagrees): the scan only
/// proposes, as the solver's model does, and a pair without a candidate is no proof of
/// anything.
RootStepScan rootStepScan(const PairQuery &q, const Invariant &inv, const std::vector<std::pair<int, int>> &pairs,
                          long maxEvaluations);

}  // namespace mxcert::engine

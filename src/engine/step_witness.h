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

/// The code pair a root step's model names: its xa, and xb from its e (the region's lowest
/// e, or its lowest xa + xb - 254, when the model has no e: a one-e region). nullopt when the
/// model has no xa.
std::optional<std::pair<int, int>> modelCodePair(const Region &region, const std::map<std::string, Integer> &model);

/// The largest k U (the bound on the root step's abstract sum, in units of 2^g) for which
/// rootStepScan evaluates every sum: 2^16 (e2m1 at k = 32 has k U = 4,608).
constexpr long kMaxScanUnits = 1L << 16;
/// The most sums rootStepScan evaluates per code pair where one per accumulator value is
/// enough (see rootStepScan): 2^17 (bf16 from 2^-18 to its largest value: about 5,300).
constexpr long kMaxScanSums = 1L << 17;

/// The nonnegative sums S (units of 2^g, at most kU = k U) rootStepScan evaluates, in
/// increasing order, or nullopt when there are too many. Where O's rounded sum is a function
/// of B's (mode zero: O's sum is a zero whatever S; mode scaled with σ(O) = 0, pO post or
/// post2: O's sum is B's), the roots depend on S only through rnd(S 2^g), so one S per value
/// that rounding can give is enough: S stepped from 0 by the accumulator's quantum at S 2^g
/// (at least one unit), which visits every accumulator value on the grid up to kU 2^g
/// (rnd(S 2^g) is one of them, or rnd(kU 2^g)), until S 2^g passes every finite value (every
/// larger S then rounds alike: to the infinity, or under rtz to the largest finite value),
/// and kU itself; nullopt past kMaxScanSums. Otherwise (O's sum S 2^(g + e)) every S in
/// 0..kU, nullopt for kU past kMaxScanUnits.
std::optional<std::vector<int64_t>> rootStepSums(const AccFormat &fmt, const Invariant &inv, Placement pO,
                                                 int64_t kU);

/// What rootStepScan found: at most one candidate witness per code pair, and how many of the
/// given pairs it evaluated (a prefix: it stops at the evaluation budget).
struct RootStepScan {
  std::vector<Witness> candidates;
  size_t pairsScanned = 0;
};

/// Candidate witnesses from the root step of `inv` evaluated on concrete values: for each
/// code pair of `pairs` in order, the abstract sums the step allows (SB = S 2^g with
/// 0 <= S <= k U, and -0, O's sum as the invariant says; no NaN or infinity, which no input
/// made here has) are rounded and given to both roots by the reference model (the same
/// functions the solver's root step is built from), and the first S whose roots are not
/// related becomes an input (as rootStepInput makes one). A negative S is not evaluated: every
/// rounding and subnormal mode is odd (rnd(-x) = -rnd(x)), and so is every placement's root, so
/// -S fails exactly where S does. Which sums: where O's rounded sum is a function of
/// B's (mode zero, or σ(O) = 0: post2 vs post), the roots see S only through rnd(S 2^g), and
/// one S per accumulator value up to k U 2^g (at most kMaxScanSums) covers every value the
/// step allows; otherwise every S in 0..k U (k U at most kMaxScanUnits). The same limits as
/// rootStepInput (a fixed tree, base side post or post2, not Equal, k >= 2), and nothing
/// past those two caps; it stops before the pair whose sums would take the evaluations past
/// maxEvaluations. Every candidate still needs the reference evaluator's confirmation
/// (witnessDisagrees): the scan only proposes, as the solver's model does, and a pair without
/// a candidate is no proof of anything. Up to `threads` threads share the pairs (forEachIndex);
/// the result does not depend on their number.
RootStepScan rootStepScan(const PairQuery &q, const Invariant &inv, const std::vector<std::pair<int, int>> &pairs,
                          long maxEvaluations, int threads = 1);

/// Candidate witnesses for q (a fixed MX tree) from the model of a failed leaf step on
/// `region`: the step found element codes (a0, b0) at a code pair where the two placements'
/// leaves are not in I(1), so one side's leaf is not the other's (scaled) value. The inputs
/// put that product in n leaves, n = 1 .. k, and +0 in the others: n = 1 shows the leaf alone
/// (the other leaves add exact zeros), and n > 1 adds up n equal leaf errors, which one
/// rounding at the root may hide and n of them may not (a fused tree's root sums them exactly).
/// Then n leaves of a0 b0 beside n of -a0 b0 (2n <= k): the exact products cancel, the leaves
/// of the other side need not (an infinity on one side only: inf - inf is NaN there, 0 here).
/// Then a0 b0 beside m leaves of the largest finite product (m = 1 .. k - 1): a leaf error
/// that rounds away alone (a flushed leaf) may show beside a large sum.
/// Empty for another step, an any-order or NVFP4 q, or a model without the codes or the code
/// pair. Each names the model's code pair and still needs the reference evaluator's
/// confirmation (witnessDisagrees): a leaf that differs need not make the roots differ.
std::vector<Witness> leafStepInputs(const PairQuery &q, InductionStep step, const Region &region,
                                    const std::map<std::string, Integer> &model);

/// The element code pairs (a, b) whose two leaves at the code pair (xa, xb) are not in I(1)
/// of `inv` (the leaf step's goal, evaluated by the reference model), at most `maxLeaves` of
/// them, the largest leaf error first: a NaN or infinity on one side only, then by the
/// magnitude of O's leaf less what the invariant says it is (B's leaf times 2^(σ(O) - σ(B))
/// in mode scaled, zero in mode zero, B's leaf in mode equal). A leaf step's model names one
/// such pair, often one whose error is too small to show in any sum (a leaf far below the
/// accumulator's smallest subnormal that rounds to zero on one side); the largest errors
/// (half a unit in the last place, a leaf that overflows) are the ones that n equal leaves
/// or a large neighbour make visible at the root (leafStepInputs). Empty for an any-order or
/// NVFP4 q. Only proposals: nothing here decides a proof.
std::vector<std::pair<unsigned, unsigned>> failingLeaves(const PairQuery &q, const Invariant &inv, int xa, int xb,
                                                         size_t maxLeaves);

/// The code of f's largest finite positive value (codes are ordered by magnitude).
unsigned largestFiniteCode(const ElementFormat &f);

}  // namespace mxcert::engine

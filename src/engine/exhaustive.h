// src/engine/exhaustive.h — the agree set by layered exhaustive execution, with no solver.
//
// For a placement pair (F1, F2) the engine evaluates, for every input, both placements with
// the reference evaluator — but never input by input: each subtree's reachable joint states
// (F1 value, F2 value) are computed once and deduplicated, children are combined layer by
// layer (an n-ary node folds its children one at a time into exact partial sums, also
// deduplicated), and the placements are compared at the root. It is the ground truth the
// solver engines are checked against.
//
// Code pairs are grouped by what their computation depends on (docs/exhaustive.md):
//  * pre and post depend on the codes only through e; dequant's leaves depend on (sa, sb)
//    only through e when both scalings rnd(2^sa a), rnd(2^sb b) are exact for every
//    element ("exact class"), and post2's root likewise when rnd(2^sa), rnd(2^sb) and
//    rnd(T 2^sa) are exact for every reachable tree result T;
//  * a witness found for one group is tried on every later group first (one evaluation);
//  * when a group agrees and every e-dependent rounding input of its evaluation lies in the
//    normal range with margin [dlo, dhi] binades, every group of the same shape whose e is
//    within [e + dlo, e + dhi] computes the exact scaling of the same values and agrees too.
// NVFP4 configurations (e4m3 scales) are evaluated code pair by code pair over 0..127 x 0..127
// (witness re-use only; pairs outside that square are neither agreeing nor refuted).
// `collapse = false` turns the grouping by exact classes and the scaling argument off
// (every code pair is evaluated on its own), for cross-checking.
#pragma once

#include "models/guard.h"
#include "src/engine/pair_query.h"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mxcert::engine {

/// Thrown when an evaluation would exceed the engine's state budget (reported as unknown).
struct ResourceLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ExhaustiveOptions {
  bool collapse = true;                 ///< group code pairs (see file comment)
  size_t maxStates = 20'000'000;        ///< per layer; beyond it ResourceLimit
  /// When set, only pairs for which it returns true are evaluated (others: excluded from
  /// `agree` and marked unevaluated). For tests that sample the code space.
  std::function<bool(int xa, int xb)> onlyPairs;
  /// Called before each evaluation group with (groups done, groups): for a progress display.
  std::function<void(long, long)> progress;
};

struct ExhaustiveStats {
  size_t groups = 0;            ///< distinct evaluation groups
  size_t treeEvaluations = 0;   ///< full layered evaluations
  size_t witnessHits = 0;       ///< groups decided by re-using a witness
  size_t collapsed = 0;         ///< groups decided by the scaling argument
  size_t maxLayerStates = 0;    ///< largest deduplicated layer
  size_t trees = 1;             ///< trees evaluated (any order: every tree shape over k leaves)
  double seconds = 0;
};

struct ExhaustiveResult {
  CodeSet agree;                   ///< pairs where F1 and F2 are related for every input
  std::vector<Witness> witnesses;  ///< distinct witnesses found
  /// Per code pair (xa * 255 + xb): index of a witness that refutes it, -1 if it agrees
  /// (or was not evaluated).
  std::vector<int> witnessOf;
  ExhaustiveStats stats;
};

/// Computes the agree set of `q` over all finite code pairs. For an any-order q
/// (cfg.anyOrder), every tree shape over the k leaves (Tree::shapes, k <= kMaxAllTreesK, else
/// ResourceLimit; relabeled leaves only permute the inputs) is evaluated and the agree sets
/// intersected; each witness names its tree.
ExhaustiveResult runExhaustive(const PairQuery &q, const ExhaustiveOptions &opt = {});

}  // namespace mxcert::engine

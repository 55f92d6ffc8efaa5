// src/check/closed_form_check.h — the checker's own recomputation of a closed-form bound.
//
// A certificate may record the closed-form prediction of its agree set (docs/bounds.md):
// named parameters (q, g, log2_tmax, log2_M, ceil_log2_Dmax or log2_Dmax, L, U, V, XA, XB) and the set
// they predict. The checker must not trust the synthesizer's bound code (src/engine), so it
// recomputes everything here, from the format parameters and the reference evaluator
// (models/) alone:
//   q = emin - p + 1, g = qa + qb, tmax = max|a| max|b|;
//   the tree's node values on all-maximal leaves at scale 1 (rnd(tmax) at every leaf):
//   M = the largest non-root node (or leaf), Dmax = the root;
//   L = q - g, U = emax - floor(log2 M), V = q - 1 - ceil(log2 Dmax) (rtz, pre/post only:
//   V = q - 1 - log2_Dmax with log2_Dmax = floor(log2 Dmax)),
//   XA = min(254, 127 + emax - floor(log2 max|a|)), XB likewise;
// and the predicted set from the parameters: pre/post: k = 1 every e, else e in [L, U]
// (bitwise) or [-254, V] u [L, U] (value, when V >= -254); dequant/post: that set with
// xa <= XA, xb <= XB; dequant/pre: xa <= XA, xb <= XB.
#pragma once

#include "models/eval.h"
#include "models/guard.h"

#include <map>
#include <optional>
#include <string>

namespace mxcert::check {

/// The parameters recomputed for a configuration, or why there are none (a rounding,
/// subnormal mode or placement pair the closed form is not derived for).
struct RecomputedBound {
  std::map<std::string, long> params;
  std::string whyNot;  ///< non-empty when no closed form is derived for the configuration
};
RecomputedBound recomputeBoundParams(const ModelConfig &cfg, Placement lhs, Placement rhs, Relation rel);

/// The set that `params` predict for the placement pair (see the file comment); nullopt
/// when a parameter the formula needs is missing.
std::optional<CodeSet> predictedSet(const std::map<std::string, long> &params, int k, Placement lhs, Placement rhs,
                                    Relation rel);

}  // namespace mxcert::check

// src/engine/bounds.h — closed-form predictions of agree sets (derivations: docs/bounds.md).
//
// For RNE with subnormals kept, and placement pairs {pre, post}, {dequant, post} and
// {dequant, pre} (RTZ: {pre, post} only, with V = q - 1 - floor(log2 Dmax)), the agree set
// is predicted from format parameters and the tree's shape:
//   q = emin - p + 1 (accumulator quantum), g = qa + qb (product quantum),
//   tmax = max|a| * max|b|, M = the largest value of any non-root node (or leaf) on
//   all-maximal inputs, Dmax = the tree's value on all-maximal inputs,
//   L = q - g,  U = emax - floor(log2 M),  V = q - 1 - ceil(log2 Dmax),
//   XA = 127 + emax - floor(log2 max|a|)  (largest xa with rnd(2^sa a) exact for all a),
// pre/post, k >= 2:  bitwise e in [L, U];  value e in [-254, V] u [L, U];  k = 1: all e.
// dequant/post: the pre/post set intersected with xa <= XA, xb <= XB.
// dequant/pre: xa <= XA, xb <= XB (all e).
// These are predictions: `mxcert bound` certifies them (every region unsat; one step past
// each end refuted by a counterexample).
#pragma once

#include "models/guard.h"
#include "src/engine/pair_query.h"

#include <string>
#include <utility>
#include <vector>

namespace mxcert::engine {

/// A closed-form prediction.
struct ClosedForm {
  bool applies = false;
  std::string whyNot;                ///< when !applies: which condition fails
  Guard guard;                       ///< predicted agree set
  std::vector<std::pair<std::string, long>> params;  ///< named parameters (L, U, V, XA, ...)
  std::string formula;               ///< the formula with its parameters, one line
};

/// The closed form for q, if one covers it.
ClosedForm closedForm(const PairQuery &q);

/// The code pairs "one step past each end" of each range of each region of `g`: for every
/// region and each of its ranges (xa, xb, e) and each end (lo - 1, hi + 1) that is a code or
/// an e value, the pairs with that coordinate whose other coordinates lie within the region.
/// Each entry names the step ("e = 123") and lists the pairs (possibly empty if infeasible).
struct TightnessPoint {
  std::string name;
  Region face;  ///< the pairs to refute: a region one step outside
};
std::vector<TightnessPoint> tightnessPoints(const Guard &g);

}  // namespace mxcert::engine

// smt/induction_encoder.h — one step of the any-order induction (models/induction.h) as a
// QF_LIA query.
//
// The step's inputs are abstract: a subtree pair of I(n) is free Booleans (NaN, inf, sign, O's
// zero sign) and a free significand N (0 <= N <= n U), a sum pair of J(n) free flags and a
// free signed sum S (|S| <= n U), with the leaf counts n, n1, n2 as integer variables. The
// membership in I or J is asserted (the step's precondition), the step's computation is the
// models' generic semantics (placementLeaf, sumStart, sumAdd, roundAcc, placementRoot), and
// the goal is "the conclusion fails". So unsat proves the step for every tree shape, every
// leaf count and every code pair of the region. Obligations apply as in every query
// (smt/term.h): no fact of the analysis is trusted.
#pragma once

#include "smt/encoder.h"
#include "smt/term_domain.h"

namespace mxcert::smt {

/// Builds step *q.step of q's induction (invariant q.inv) into d's store and asserts its goal
/// (LiaEncoding calls this after declaring the region's variables xa and e).
void encodeInductionStep(TermDomain &d, const Query &q, const Scales<TermDomain> &s);

}  // namespace mxcert::smt

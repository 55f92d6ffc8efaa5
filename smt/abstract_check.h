// smt/abstract_check.h — an independent check of a TermStore's abstract analysis.
//
// The term store (smt/term.cpp) gives every integer node an interval, a granularity (known
// trailing zero bits) and sometimes a value set, and folds comparisons, quotients and case
// splits with them. In obligations mode none of that is trusted: this checker recomputes, with
// its own small arithmetic and without calling the store's analysis, that
//   * every node's claimed abstract value contains what one step of interval, granularity and
//     value-set arithmetic gives from its children's claimed values (plus the bounds asserted
//     for variables and refined terms), so by induction over the DAG (children first) every
//     claim holds on every input;
//   * every precision decision (a rounded value taken to have at most p significant bits, so
//     that rounding it again in a normal binade is exact) follows from those claims by its
//     own significant-bits rules (see Checker::bits);
//   * every recorded decision (Decision in smt/term.h) follows from those claims: a folded
//     comparison, a fixed quotient, a division's declared ranges and granularities, an
//     enumeration that covers its values, a local fact's abstraction and copies, a precision
//     bound.
// What it does not cover is what the solver proves: the facts of the query's phases.
#pragma once

#include "smt/term.h"

#include <string>
#include <vector>

namespace mxcert::smt {

/// The claims of `store` that do not follow (at most `limit`, each one line naming the node or
/// decision); empty when every claim and decision is verified.
std::vector<std::string> checkAbstraction(const TermStore &store, size_t limit = 8);

}  // namespace mxcert::smt

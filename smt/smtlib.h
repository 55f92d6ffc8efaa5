// smt/smtlib.h — a TermStore's query as SMT-LIB2 text (QF_LIA), accepted by the cvc5 and z3
// binaries. The text is deterministic for a given store: certificates record it (or its
// SHA-256) and the checker regenerates it to compare.
#pragma once

#include "smt/term.h"

#include <string>

namespace mxcert::smt {

/// The full script: set-logic, declarations, one define-fun per shared subterm, the
/// assertions, check-sat. `comment` lines (may be empty) are prefixed with ';'.
std::string toSmtLib2(const TermStore &store, const std::string &comment = "");

}  // namespace mxcert::smt

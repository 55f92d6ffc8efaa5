// smt/text_solver.h — deciding SMT-LIB2 text: Z3 through its API (Z3_eval of the script),
// cvc5 through its `cvc5` binary (cvc5 1.0.3's C++ API has no public parser). Used for the
// QF_FP baseline and to check that the emitted LIA text answers as the library does.
#pragma once

#include "smt/backend.h"

#include <string>

namespace mxcert::smt {

/// Decides an SMT-LIB2 script with "cvc5" or "z3"; timeoutSec <= 0: no limit. No model.
CheckResult solveText(const std::string &solver, const std::string &script, double timeoutSec);

}  // namespace mxcert::smt

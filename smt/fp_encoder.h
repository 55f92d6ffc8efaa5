// smt/fp_encoder.h — the same placement query in the SMT-LIB FloatingPoint theory (QF_BVFP).
//
// An encoding independent of the integer state machine: element values are FP literals
// selected by their codes, every operation is the theory's own IEEE operation in the
// accumulator's format, and scaling by 2^s is an exact multiplication in binary64 (element
// products have at most 8 significant bits and |s| <= 254, so it is exact there) followed by
// one conversion (one rounding). It is the baseline of the benchmarks and a
// cross-check of the QF_LIA encoding. Supported: binary trees, --subnormals keep (the
// theory has no flush-to-zero); other queries throw std::invalid_argument.
#pragma once

#include "smt/encoder.h"

#include <string>

namespace mxcert::smt {

/// The query as SMT-LIB2 text (logic QF_BVFP).
std::string fpQuery(const Query &q);

/// Why fpQuery cannot encode q ("" when it can).
std::string fpUnsupported(const Query &q);

}  // namespace mxcert::smt

// src/engine/to_certificate.h — engine results as certificates.
#pragma once

#include "certs/certificate.h"
#include "src/engine/exhaustive.h"
#include "src/engine/pair_query.h"

namespace mxcert::engine {

struct SolverTableResult;

/// The certificate of a solver table (proofs, witnesses with the pairs they refute, the
/// closed form when one applies).
certs::Certificate certificateOf(const PairQuery &q, const SolverTableResult &r);
/// The (uncertified) table of the exhaustive engine in certificate form: witnesses only.
certs::Certificate certificateOf(const PairQuery &q, const ExhaustiveResult &r);

}  // namespace mxcert::engine

// src/engine/nvfp4_table.h — certified NVFP4 agree sets with the QF_LIA encoding and a solver.
//
// The exact agree set over the NVFP4 code pairs 0..127 x 0..127 (docs/solver.md, "NVFP4"),
// proven region by region in scale coordinates (models/nvfp4.h): the code pairs are grouped by
// the odd parts (ma, mb) of their two scales (8 odd parts, the zero scale and the NaN scale on
// each side: 100 classes), and within a class a region is a box of binades (ja, jb, j = ja + jb).
// In such a region every scale is a constant odd part times a symbolic power of two, so the
// query is MX-like: scaling keeps the significands, and the encoding factors the constant odd
// parts out of its terms (smt/term.h, setFactorConstants).
//
// Strategy per class: the candidate pairs (those no witness refutes yet) as boxes, whole
// j-lines merged; each box is queried: unsat proves it; a sat model is replayed by the
// reference evaluator and tried on the class's other undecided pairs; an unknown answer tries
// small counterexample queries (two free leaves, the others +0) and then splits the box. At
// small k the exhaustive engine finds witnesses first, on a few pairs only: one probe per
// class and j, then the rest of each line with a refuted pair, and the rest of a box whose
// query is satisfiable (only its witnesses are used: the solver proves every region). At larger
// k it runs on the same probes with the first 2 .. liftMaxLeaves leaves, and each of its
// witnesses, padded with +0 leaves, is replayed at k ("lifted witnesses"); where sums can
// overflow the accumulator (f16), "overflow ramps" of k leaves are tried on them too.
#pragma once

#include "models/nvfp4.h"
#include "src/engine/solver_table.h"

namespace mxcert::engine {

/// Computes the certified agree set of an NVFP4 question (q.cfg.nvfp4(), one tree). The
/// result's proofs carry their regions in `ProofRecord::nv`; `unknown` lists the undecided
/// pairs as code regions (Guard::fromSet).
SolverTableResult runNvfp4SolverTable(const PairQuery &q, const SolverTableOptions &opt);

}  // namespace mxcert::engine

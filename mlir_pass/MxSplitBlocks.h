// mlir_pass/MxSplitBlocks.h — splitting a wide-K MX reduction whose order the op leaves open
// into its MX blocks (docs/mlir.md, "Wide K").
//
// A 1-D `vector.contract` (or `vector.multi_reduction <add> [0]` of an `arith.mulf`) of two
// `arith.scaling_extf` vectors of K = NB * BS elements, whose scales carry one code per block
// of BS elements but not one code for all K, computes
//   R = acc + sum_{i < K} rnd(2^s_a(i) a_i) * rnd(2^s_b(i) b_i)
// in an order the op does not fix: its lowering may add the K products and acc in any tree.
// One such tree is
//   R = ((acc + T_0) + T_1) + ... + T_{NB-1},   T_j = ((p_{j BS} + p_{j BS + 1}) + ...)
// (each block summed in order, then the blocks added to acc in order), so rewriting the op
// into exactly that computation gives a result the op allows, for every input and every
// accumulator. Each T_j is then SPEC §8's form over one block (a `vector.reduction` of the
// block's slices), which `--mx-scale-placement` rewrites with the block's own table. Nothing
// is claimed about bits another lowering would produce: the pass fixes the order, and the
// results are those of that order. The same holds for a reduction over an explicit block
// dimension kb and k (docs/mlir.md, "Wide K"): R = acc + sum_kb (-0.0 + sum_k p).
#pragma once

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mxcert::mlir_pass {

/// Adds the patterns that split a 1-D `vector.contract` and a 1-D `vector.multi_reduction`
/// (both leave the order open) over several MX blocks into per-block ordered reductions
/// added to the accumulator in order. The block size is the largest proper divisor BS of K
/// for which every block's elements carry one scale code on both sides (isOneBlockScale);
/// an op whose scales are one code over all K is not split (it is one MX block). And the
/// patterns that split a `vector.contract` or `vector.multi_reduction` over two reduction
/// dimensions kb and k, both scales one code along k (isScaleConstantAlong), into the
/// reduction over k from a splat -0.0 (-0.0 + x = x: one MX block per output and kb) and a
/// `vector.multi_reduction` over kb from the accumulator (an order the op allows too); and a
/// contraction or multi-reduction tile over one wide K holding several blocks in a row (a
/// per-block scale that is a `vector.shape_cast` from K split into (NB, BS)) the same way,
/// after reshaping K into (kb, k) in both operands.
void populateMxSplitBlocksPatterns(mlir::RewritePatternSet &patterns, bool emitRemarks);

/// Creates `--mx-split-blocks` (option `remarks`, default true: report every split and every
/// wide reduction left whole as a remark).
std::unique_ptr<mlir::Pass> createMxSplitBlocksPass();
/// Registers `--mx-split-blocks` with the global pass registry.
void registerMxSplitBlocksPass();

}  // namespace mxcert::mlir_pass

// mlir_pass/MxToLLVM.h — lowering MX dot products (rewritten or not) to the LLVM dialect with
// the bits SPEC §3 prescribes.
//
// Upstream MLIR 22 does not lower everything these modules contain, and where it does, it
// differs from SPEC §3 at two edges (docs/mlir.md has the evidence):
//  * `arith.extf` of f8E8M0FNU (arith-expand, include-f8e8m0) maps code 0x00 to +0.0 instead
//    of 2^-127 (an f32 subnormal), so `arith.scaling_extf` with scale code 0 gives ±0;
//  * `vector.reduction <add>` without an accumulator lowers to `llvm.vector.reduce.fadd`
//    starting from +0.0, so a sum of negative zeros gives +0 instead of -0;
//  * `arith.extf` from f6E2M3FN, f6E3M2FN, f8E4M3FN and f8E5M2 has no LLVM lowering at all
//    (convert-arith-to-llvm leaves it; only the APFloat runtime-call emulation handles it).
// The patterns below replace those lowerings before the upstream conversions run:
//  * extf from an MX element type or f8E8M0FNU to f32/f64 decodes the code with integer ops
//    (exact: every such value is an f32);
//  * scaling_extf with f8E8M0FNU scales becomes extf(x) * extf(scale) in f32 — the factors are
//    exact, so the product is ONE rounding of 2^s * x, as SPEC §5's dequant requires;
//  * a float `vector.reduction <add>` without an accumulator gets the accumulator -0.0, the
//    exact identity of IEEE addition (-0 + x = x for every x, including +0 and -0), so the
//    ordered reduction computes ((x_0 + x_1) + x_2) + ... bit for bit.
#pragma once

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <memory>

namespace mxcert::mlir_pass {

/// Adds the three patterns described above.
void populateMxNarrowFloatLoweringPatterns(mlir::RewritePatternSet &patterns);

/// Creates `--mx-lower-narrow-floats`, which applies those patterns and upstream's
/// vector.contract "dot" lowering (so that its reductions start from -0.0 too; upstream's
/// own lowering starts them from +0.0 and folds a -0.0 accumulator away), greedily, without
/// folding (upstream folds `arith.extf` of the f8E8M0FNU NaN constant to +inf).
std::unique_ptr<mlir::Pass> createMxLowerNarrowFloatsPass();

/// Builds the `--mx-to-llvm` pipeline: mx-lower-narrow-floats, upstream's
/// lower-vector-multi-reduction (inner reductions: a 1-D vector.multi_reduction becomes the
/// ordered vector.reduction from its accumulator), then the upstream conversions of arith,
/// vector (vector.contract of 1-D operands: the ordered reduction from its accumulator), scf,
/// memref, index, func and cf to the LLVM dialect.
void buildMxToLLVMPipeline(mlir::OpPassManager &pm);

/// Registers `--mx-lower-narrow-floats` and the `--mx-to-llvm` pipeline.
void registerMxToLLVM();

}  // namespace mxcert::mlir_pass

// mlir_pass/MxToLLVM.cpp — exact lowerings of narrow-float extensions, scaling_extf and ordered
// float reductions, and the `--mx-to-llvm` pipeline (see MxToLLVM.h for why each exists).
#include "mlir_pass/MxToLLVM.h"
#include "mlir_pass/MxScalePlacement.h"

#include "models/formats.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;

namespace mxcert::mlir_pass {

namespace {

/// `elem` with the shape of `like` (a vector or tensor type), or `elem` itself for scalars.
Type withShape(Type like, Type elem) {
  if (auto st = dyn_cast<ShapedType>(like)) return st.clone(elem);
  return elem;
}

/// A constant of type `t` (a scalar or a shaped type) with every element equal to `attr`.
Value splat(OpBuilder &b, Location loc, Type t, TypedAttr attr) {
  if (auto st = dyn_cast<ShapedType>(t)) return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(st, attr));
  return arith::ConstantOp::create(b, loc, attr);
}

/// An i32 constant shaped like `t`.
Value i32c(OpBuilder &b, Location loc, Type t, int64_t v) {
  return splat(b, loc, withShape(t, b.getI32Type()), b.getI32IntegerAttr(int32_t(uint32_t(v))));
}

/// f32 bit pattern of the canonical quiet NaN (SPEC §3 prints NaN as 0x7FC00000).
constexpr int64_t kF32NaN = 0x7FC00000;

/// The f32 bits (i32, shaped like `in`) of an MX element code. With E exponent bits, M
/// mantissa bits and bias B, a code s.e.m means
///   e = 0: (-1)^s m 2^(1-B-M)  (computed as uitofp(m) * 2^(1-B-M): exact, both factors exact
///          and the product has at most M significant bits);
///   e > 0: (-1)^s (1.m) 2^(e-B)  (f32 bits: exponent e - B + 127, mantissa m << (23 - M));
/// e4m3 S.1111.111 is NaN; e5m2 exponent 11111 is inf (m = 0) or NaN.
Value decodeElementBits(OpBuilder &b, Location loc, Value in, const ElementFormat &f) {
  Type t = in.getType();
  const int E = int(f.ebits), M = int(f.mbits), B = f.bias;
  Value code = arith::BitcastOp::create(b, loc, withShape(t, b.getIntegerType(f.bits())), in);
  Value c = arith::ExtUIOp::create(b, loc, withShape(t, b.getI32Type()), code);
  auto C = [&](int64_t v) { return i32c(b, loc, t, v); };
  Value sign = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, c, C(E + M)), C(1));
  Value ex = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, c, C(M)), C((1 << E) - 1));
  Value m = arith::AndIOp::create(b, loc, c, C((1 << M) - 1));
  // Normal: exponent field e - B + 127, mantissa m left-aligned in the 23 bits.
  Value normal = arith::OrIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, arith::AddIOp::create(b, loc, ex, C(127 - B)), C(23)),
      arith::ShLIOp::create(b, loc, m, C(23 - M)));
  // Subnormal (and zero): m * 2^(1 - B - M), exact in f32.
  Type f32t = withShape(t, b.getF32Type());
  Value mf = arith::UIToFPOp::create(b, loc, f32t, m);
  Value q = splat(b, loc, f32t, b.getF32FloatAttr(float(std::ldexp(1.0, 1 - B - M))));
  Value sub = arith::BitcastOp::create(b, loc, withShape(t, b.getI32Type()), arith::MulFOp::create(b, loc, mf, q));
  Value isSub = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ex, C(0));
  Value mag = arith::SelectOp::create(b, loc, isSub, sub, normal);
  Value bits = arith::OrIOp::create(b, loc, mag, arith::ShLIOp::create(b, loc, sign, C(31)));
  if (f.specials == SpecialKind::NanOnlyMax) {
    Value low = arith::AndIOp::create(b, loc, c, C((1 << (E + M)) - 1));
    Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, low, C((1 << (E + M)) - 1));
    bits = arith::SelectOp::create(b, loc, isNaN, C(kF32NaN), bits);
  } else if (f.specials == SpecialKind::Ieee) {
    Value top = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, ex, C((1 << E) - 1));
    Value mZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, m, C(0));
    Value inf = arith::OrIOp::create(b, loc, C(0x7F800000), arith::ShLIOp::create(b, loc, sign, C(31)));
    Value special = arith::SelectOp::create(b, loc, mZero, inf, C(kF32NaN));
    bits = arith::SelectOp::create(b, loc, top, special, bits);
  }
  return bits;
}

/// The f32 bits of an f8E8M0FNU code x: 2^(x - 127) for x in 0..254 (x = 0 is the subnormal
/// 2^-127, bits 0x00400000), NaN for x = 255.
Value decodeScaleBits(OpBuilder &b, Location loc, Value in) {
  Type t = in.getType();
  Value code = arith::BitcastOp::create(b, loc, withShape(t, b.getI8Type()), in);
  Value c = arith::ExtUIOp::create(b, loc, withShape(t, b.getI32Type()), code);
  auto C = [&](int64_t v) { return i32c(b, loc, t, v); };
  Value bits = arith::ShLIOp::create(b, loc, c, C(23));
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c, C(0));
  bits = arith::SelectOp::create(b, loc, isZero, C(0x00400000), bits);
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, c, C(255));
  return arith::SelectOp::create(b, loc, isNaN, C(kF32NaN), bits);
}

/// arith.extf from an MX element type or f8E8M0FNU to f32 (or f64, through f32: exact).
struct LowerNarrowExtF : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op, PatternRewriter &rewriter) const override {
    Type inE = getElementTypeOrSelf(op.getIn().getType());
    Type outE = getElementTypeOrSelf(op.getType());
    if (!outE.isF32() && !outE.isF64()) return rewriter.notifyMatchFailure(op, "result is not f32 or f64");
    Location loc = op.getLoc();
    Value bits;
    if (isa<Float8E8M0FNUType>(inE)) {
      bits = decodeScaleBits(rewriter, loc, op.getIn());
    } else if (std::optional<ElementFormat> f = elementFormatOf(inE)) {
      bits = decodeElementBits(rewriter, loc, op.getIn(), *f);
    } else {
      return rewriter.notifyMatchFailure(op, "source is not an MX element type or f8E8M0FNU");
    }
    Value r = arith::BitcastOp::create(rewriter, loc, withShape(op.getType(), rewriter.getF32Type()), bits);
    if (outE.isF64()) r = arith::ExtFOp::create(rewriter, loc, op.getType(), r, arith::FastMathFlagsAttr());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// arith.scaling_extf %x, %s (f8E8M0FNU or f8E4M3FN scales, f32 or f64 result) ->
/// extf(x) * extf(s): both factors are exact, so the product is one rounding of 2^(s - 127) * x
/// (e8m0) or of the e4m3 value of s times x (NVFP4: code 0 is +0, 0x7f NaN; with f4E2M1FN
/// elements the product has at most 6 significant bits and is exact).
struct LowerScalingExtF : OpRewritePattern<arith::ScalingExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ScalingExtFOp op, PatternRewriter &rewriter) const override {
    Type scaleE = getElementTypeOrSelf(op.getScale().getType());
    const bool e4m3 = isa<Float8E4M3FNType>(scaleE);
    if (!isa<Float8E8M0FNUType>(scaleE) && !e4m3)
      return rewriter.notifyMatchFailure(op, "scale is not f8E8M0FNU or f8E4M3FN");
    Type outE = getElementTypeOrSelf(op.getType());
    if (!outE.isF32() && !outE.isF64()) return rewriter.notifyMatchFailure(op, "result is not f32 or f64");
    Location loc = op.getLoc();
    Value x = arith::ExtFOp::create(rewriter, loc, op.getType(), op.getIn(), arith::FastMathFlagsAttr());
    // The scale's f32 value from its bits, never through an arith.extf: upstream folds
    // `arith.extf` of a constant f8E8M0FNU 0xFF (NaN) to +inf (docs/mlir.md, "Upstream
    // findings"), and a constant scale reaches this pattern as such a constant once the
    // broadcast of a constant code has been folded.
    Type sF32 = withShape(op.getScale().getType(), rewriter.getF32Type());
    Value bits = e4m3 ? decodeElementBits(rewriter, loc, op.getScale(), *findElementFormat("e4m3"))
                      : decodeScaleBits(rewriter, loc, op.getScale());
    Value s = arith::BitcastOp::create(rewriter, loc, sF32, bits);
    if (outE.isF64())
      s = arith::ExtFOp::create(rewriter, loc, withShape(op.getScale().getType(), outE), s, arith::FastMathFlagsAttr());
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, x, s, op.getFastmathAttr());
    return success();
  }
};

/// vector.reduction <add> over floats without an accumulator -> the same reduction with the
/// accumulator -0.0 (the exact additive identity; upstream starts from +0.0, which turns a
/// sum of negative zeros into +0).
struct ReductionNegZeroStart : OpRewritePattern<vector::ReductionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::ReductionOp op, PatternRewriter &rewriter) const override {
    if (op.getKind() != vector::CombiningKind::ADD || op.getAcc() || !isa<FloatType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a float add reduction without accumulator");
    if (isa<vector::MaskOp>(op->getParentOp())) return rewriter.notifyMatchFailure(op, "masked");
    auto ft = cast<FloatType>(op.getType());
    Value negZero = arith::ConstantOp::create(rewriter, op.getLoc(),
                                              rewriter.getFloatAttr(ft, APFloat::getZero(ft.getFloatSemantics(), true)));
    rewriter.replaceOpWithNewOp<vector::ReductionOp>(op, op.getType(), vector::CombiningKind::ADD, op.getVector(),
                                                     negZero, op.getFastmath());
    return success();
  }
};

/// Applies the patterns above until none applies.
struct MxLowerNarrowFloatsPass : PassWrapper<MxLowerNarrowFloatsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MxLowerNarrowFloatsPass)
  StringRef getArgument() const override { return "mx-lower-narrow-floats"; }
  StringRef getDescription() const override {
    return "Lower extf from MX element types and f8E8M0FNU, scaling_extf, float add reductions and "
           "vector.contract exactly (SPEC §3 bits, including scale code 0 and signed zeros)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMxNarrowFloatLoweringPatterns(patterns);
    // vector.contract to products and reductions here (upstream's "dot" lowering), so that
    // the reductions it makes without an accumulator start from -0.0 (ReductionNegZeroStart)
    // and its accumulator is then added as it is: convert-vector-to-llvm would lower them
    // from +0.0, and fold the accumulator -0.0 away (docs/mlir.md, finding 7).
    vector::populateVectorContractLoweringPatterns(patterns, vector::VectorContractLowering::Dot);
    // No folding: upstream folds `arith.extf` of a constant f8E8M0FNU 0xFF (NaN) to +inf
    // (docs/mlir.md, "Upstream findings"); the patterns lower such constants by their bits.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns), GreedyRewriteConfig().enableFolding(false))))
      signalPassFailure();
  }
};

}  // namespace

void populateMxNarrowFloatLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerNarrowExtF, LowerScalingExtF, ReductionNegZeroStart>(patterns.getContext());
}

std::unique_ptr<Pass> createMxLowerNarrowFloatsPass() { return std::make_unique<MxLowerNarrowFloatsPass>(); }

void buildMxToLLVMPipeline(OpPassManager &pm) {
  // First, before any upstream pass folds constants (see MxLowerNarrowFloatsPass).
  pm.addPass(createMxLowerNarrowFloatsPass());
  // vector.multi_reduction (which convert-vector-to-llvm leaves alone) to vector.reduction
  // with its accumulator: a 1-D one becomes the ordered sum, accumulator first.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass(
      vector::VectorMultiReductionLowering::InnerReduction));
  pm.addPass(arith::createArithExpandOpsPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void registerMxToLLVM() {
  PassRegistration<MxLowerNarrowFloatsPass>();
  PassPipelineRegistration<>("mx-to-llvm",
                             "Lower MX dot products (and any remaining arith.scaling_extf) to the LLVM "
                             "dialect with SPEC §3 bits, ready for mlir-runner",
                             buildMxToLLVMPipeline);
}

}  // namespace mxcert::mlir_pass

// mlir_pass/MxSplitBlocks.cpp — `--mx-split-blocks`: a 1-D wide-K contraction whose order the
// op leaves open, rewritten into its MX blocks summed in one fixed order (MxSplitBlocks.h).
#include "mlir_pass/MxSplitBlocks.h"

#include "mlir_pass/MxScalePlacement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <array>
#include <string>

using namespace mlir;

namespace mxcert::mlir_pass {
namespace {

/// The wide reduction a pattern found: acc + sum_i A_i * B_i over one 1-D vector, A and B
/// `arith.scaling_extf` results, summed in an order the op leaves open.
struct WideReduction {
  arith::ScalingExtFOp extA, extB; ///< the scaled operands
  arith::MulFOp mul;               ///< the products (null for vector.contract, which multiplies)
  Value acc;                       ///< the accumulator (a scalar f32)
  int64_t k = 0;                   ///< the vector length
};

/// The largest proper divisor BS of k for which every block [j BS, (j + 1) BS) of both
/// scales carries one code (isOneBlockScale), or 0 (with `why` naming a block that does not)
/// when there is none. Returns -1 when all k elements carry one code on both sides (one MX
/// block: nothing to split).
int64_t blockSize(WideReduction w, std::string &why) {
  std::string whole;
  if (isOneBlockScale(w.extA.getScale(), 0, w.k, whole) && isOneBlockScale(w.extB.getScale(), 0, w.k, whole))
    return -1;
  for (int64_t bs = w.k / 2; bs >= 1; --bs) {
    if (w.k % bs != 0) continue;
    bool all = true;
    for (int64_t lo = 0; all && lo < w.k; lo += bs)
      for (Value s : {w.extA.getScale(), w.extB.getScale()}) {
        std::string blockWhy;
        if (all && !isOneBlockScale(s, lo, lo + bs, blockWhy)) all = false;
      }
    if (all) return bs;
  }
  why = "no block size divides K = " + std::to_string(w.k) + " into blocks that each carry one scale code (over all " +
        std::to_string(w.k) + " elements, a scale is not one code: " + whole + ")";
  return 0;
}

/// Rewrites `op` (the root of `w`) into its blocks of `bs` elements: block j's slices of the
/// elements and scales, scaled (`arith.scaling_extf`), multiplied (`arith.mulf`) and reduced in
/// order (`vector.reduction <add>` without accumulator: SPEC §8's form), then
/// R = ((acc + T_0) + T_1) + ... with one `arith.addf` per block.
void splitIntoBlocks(PatternRewriter &rewriter, Operation *op, WideReduction w, int64_t bs) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto slice = [&](Value v, int64_t lo) -> Value {
    return vector::ExtractStridedSliceOp::create(rewriter, loc, v, ArrayRef<int64_t>{lo}, ArrayRef<int64_t>{bs},
                                                 ArrayRef<int64_t>{1});
  };
  auto scaled = [&](arith::ScalingExtFOp ext, int64_t lo) -> Value {
    Value in = slice(ext.getIn(), lo), sc = slice(ext.getScale(), lo);
    return arith::ScalingExtFOp::create(rewriter, loc, VectorType::get({bs}, rewriter.getF32Type()), in, sc,
                                        ext.getFastmathAttr());
  };
  Value r = w.acc;
  for (int64_t lo = 0; lo < w.k; lo += bs) {
    Value a = scaled(w.extA, lo);
    Value b = (w.extB == w.extA) ? a : scaled(w.extB, lo);
    Value p = arith::MulFOp::create(rewriter, loc, a, b,
                                    w.mul ? w.mul.getFastmathAttr() : arith::FastMathFlagsAttr());
    Value t = vector::ReductionOp::create(rewriter, loc, vector::CombiningKind::ADD, p);
    r = arith::AddFOp::create(rewriter, loc, r, t);
  }
  rewriter.replaceOp(op, r);
}

/// The shared part of both patterns: decides and rewrites a matched wide reduction.
LogicalResult splitOrLeave(PatternRewriter &rewriter, Operation *op, WideReduction w, bool emitRemarks) {
  if (isa<vector::MaskOp>(op->getParentOp())) return rewriter.notifyMatchFailure(op, "masked");
  std::string why;
  const int64_t bs = blockSize(w, why);
  if (bs < 0) return rewriter.notifyMatchFailure(op, "one MX block: nothing to split");
  const std::string what = op->getName().getStringRef().str();
  if (bs == 0) {
    if (emitRemarks) mlir::emitRemark(op->getLoc(), "mx-split-blocks: left whole: ") << why;
    return rewriter.notifyMatchFailure(op, why);
  }
  if (emitRemarks)
    mlir::emitRemark(op->getLoc(), "mx-split-blocks: split the K = ")
        << w.k << " " << what << " (its lowering chooses the order) into " << w.k / bs << " blocks of " << bs
        << ", each reduced in order (vector.reduction), added to the accumulator in order: one of the orders the op "
           "allows";
  splitIntoBlocks(rewriter, op, w, bs);
  return success();
}

/// A reduction over two iteration dimensions of the products of two scaled operands (their
/// dimension i indexed by iteration dimension dimsA[i], dimsB[i]; sizes `sizes`): the block
/// dimension, the one of `red` (two dimensions) along which both scales carry one code (the
/// later one where both do), or -1 with `why` set where neither does.
int64_t blockDimOf(Value scaleA, ArrayRef<int64_t> dimsA, Value scaleB, ArrayRef<int64_t> dimsB,
                   ArrayRef<int64_t> sizes, std::array<int64_t, 2> red, std::string &why) {
  for (int64_t k : {std::max(red[0], red[1]), std::min(red[0], red[1])}) {
    std::string wa, wb;
    if (isScaleConstantAlong(scaleA, dimsA, sizes, k, "a", wa) && isScaleConstantAlong(scaleB, dimsB, sizes, k, "b", wb))
      return k;
    why = "along neither reduced dimension does each scale carry one code (" + (wa.empty() ? wb : wa) + ")";
  }
  return -1;
}

/// The splat -0.0 of f32 vector type `t` (the exact identity of IEEE addition).
Value negZero(PatternRewriter &rewriter, Location loc, VectorType t) {
  return arith::ConstantOp::create(rewriter, loc, t,
                                   DenseElementsAttr::get(t, rewriter.getFloatAttr(rewriter.getF32Type(), -0.0)));
}

/// The remark of a split over a block dimension.
void remarkBlockDim(Operation *op, bool emitRemarks, int64_t nb, int64_t bs) {
  if (emitRemarks)
    mlir::emitRemark(op->getLoc(), "mx-split-blocks: split the ")
        << op->getName().getStringRef() << " over a block dimension of " << nb << " and a block of " << bs
        << " (its lowering chooses the order) into the blocks' sums from -0.0, then their sum from the accumulator: "
           "one of the orders the op allows";
}

/// A 1-D `vector.contract` of two `arith.scaling_extf` vectors into a scalar f32: indexing
/// maps (d0) -> (d0), (d0) -> (d0), (d0) -> (), one reduction iterator, kind add.
struct SplitContract : OpRewritePattern<vector::ContractionOp> {
  SplitContract(MLIRContext *ctx, bool emitRemarks) : OpRewritePattern(ctx), emitRemarks(emitRemarks) {}
  LogicalResult matchAndRewrite(vector::ContractionOp op, PatternRewriter &rewriter) const override {
    WideReduction w;
    w.extA = op.getLhs().getDefiningOp<arith::ScalingExtFOp>();
    w.extB = op.getRhs().getDefiningOp<arith::ScalingExtFOp>();
    auto lt = dyn_cast<VectorType>(op.getLhs().getType());
    MLIRContext *ctx = op.getContext();
    AffineMap id = AffineMap::get(1, 0, {getAffineDimExpr(0, ctx)}, ctx);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (w.extA && w.extB && op.getKind() == vector::CombiningKind::ADD && !isa<vector::MaskOp>(op->getParentOp()))
      if (succeeded(splitBlockDim(op, rewriter))) return success();
    if (!w.extA || !w.extB || op.getKind() != vector::CombiningKind::ADD || !lt || lt.getRank() != 1 ||
        lt.isScalable() || op.getRhs().getType() != lt || !lt.getElementType().isF32() ||
        !op.getResultType().isF32() || maps.size() != 3 || maps[0] != id || maps[1] != id ||
        maps[2] != AffineMap::get(1, 0, {}, ctx))
      return rewriter.notifyMatchFailure(op, "not a 1-D contraction of two scaling_extf vectors into an f32");
    w.acc = op.getAcc();
    w.k = lt.getShape()[0];
    return splitOrLeave(rewriter, op, w, emitRemarks);
  }

  /// A contraction over two reduction dimensions kb and k (an explicit block dimension), every
  /// map a projected permutation, f32 operands and result, both scales one code along k:
  /// rewritten into the contraction over k alone (kb made parallel and appended to the result,
  /// from a -0.0 splat: one MX block of k per output element and kb) and a
  /// `vector.multi_reduction <add>` over kb from the original accumulator.
  LogicalResult splitBlockDim(vector::ContractionOp op, PatternRewriter &rewriter) const {
    SmallVector<vector::IteratorType> iters = op.getIteratorTypesArray();
    SmallVector<int64_t> red;
    for (auto [d, it] : llvm::enumerate(iters))
      if (it == vector::IteratorType::reduction) red.push_back(int64_t(d));
    auto lt = dyn_cast<VectorType>(op.getLhs().getType());
    auto rt = dyn_cast<VectorType>(op.getRhs().getType());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (red.size() != 2 || !lt || !rt || lt.isScalable() || rt.isScalable() || !lt.getElementType().isF32() ||
        !rt.getElementType().isF32() || !getElementTypeOrSelf(op.getResultType()).isF32() ||
        !llvm::all_of(maps, [](AffineMap m) { return m.isProjectedPermutation(); }))
      return failure();
    SmallVector<int64_t> sizes(iters.size(), 0), dimsA, dimsB;
    for (auto [map, t, dims] : {std::tuple{maps[0], lt, &dimsA}, std::tuple{maps[1], rt, &dimsB}})
      for (unsigned r = 0; r < map.getNumResults(); ++r) {
        dims->push_back(map.getDimPosition(r));
        sizes[map.getDimPosition(r)] = t.getDimSize(r);
      }
    std::string why;
    auto extA = op.getLhs().getDefiningOp<arith::ScalingExtFOp>();
    auto extB = op.getRhs().getDefiningOp<arith::ScalingExtFOp>();
    const int64_t k = blockDimOf(extA.getScale(), dimsA, extB.getScale(), dimsB, sizes, {red[0], red[1]}, why);
    if (k < 0) {
      if (emitRemarks) mlir::emitRemark(op->getLoc(), "mx-split-blocks: left whole: ") << why;
      return failure();
    }
    const int64_t kb = red[0] == k ? red[1] : red[0];
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    // The partial contraction: kb parallel, the result indexed by the old result dims, then kb.
    SmallVector<AffineExpr> out(maps[2].getResults().begin(), maps[2].getResults().end());
    out.push_back(getAffineDimExpr(unsigned(kb), ctx));
    SmallVector<int64_t> shape;
    if (auto ot = dyn_cast<VectorType>(op.getResultType())) shape.assign(ot.getShape().begin(), ot.getShape().end());
    shape.push_back(sizes[kb]);
    auto partialType = VectorType::get(shape, rewriter.getF32Type());
    SmallVector<Attribute> iterAttrs;
    for (auto [d, it] : llvm::enumerate(iters))
      iterAttrs.push_back(vector::IteratorTypeAttr::get(
          ctx, int64_t(d) == kb ? vector::IteratorType::parallel : it));
    ArrayAttr mapAttr = rewriter.getAffineMapArrayAttr(
        {maps[0], maps[1], AffineMap::get(maps[2].getNumDims(), 0, out, ctx)});
    rewriter.setInsertionPoint(op);
    Value partial = vector::ContractionOp::create(rewriter, loc, op.getLhs(), op.getRhs(),
                                                  negZero(rewriter, loc, partialType), mapAttr,
                                                  rewriter.getArrayAttr(iterAttrs), vector::CombiningKind::ADD);
    SmallVector<bool> mask(shape.size(), false);
    mask.back() = true;
    remarkBlockDim(op, emitRemarks, sizes[kb], sizes[k]);
    rewriter.replaceOpWithNewOp<vector::MultiDimReductionOp>(op, partial, op.getAcc(), mask,
                                                             vector::CombiningKind::ADD);
    return success();
  }
  bool emitRemarks; ///< report decisions as remarks
};

/// A `vector.multi_reduction <add>, P, acc [0]` of a 1-D f32 P = arith.mulf(A, B) into a
/// scalar, A and B `arith.scaling_extf` vectors.
struct SplitMultiReduction : OpRewritePattern<vector::MultiDimReductionOp> {
  SplitMultiReduction(MLIRContext *ctx, bool emitRemarks) : OpRewritePattern(ctx), emitRemarks(emitRemarks) {}
  LogicalResult matchAndRewrite(vector::MultiDimReductionOp op, PatternRewriter &rewriter) const override {
    WideReduction w;
    auto vt = dyn_cast<VectorType>(op.getSource().getType());
    w.mul = op.getSource().getDefiningOp<arith::MulFOp>();
    if (w.mul) {
      w.extA = w.mul.getLhs().getDefiningOp<arith::ScalingExtFOp>();
      w.extB = w.mul.getRhs().getDefiningOp<arith::ScalingExtFOp>();
    }
    if (w.mul && w.extA && w.extB && op.getKind() == vector::CombiningKind::ADD && vt && !vt.isScalable() &&
        vt.getElementType().isF32() && op.getReductionDims().size() == 2 && !isa<vector::MaskOp>(op->getParentOp()))
      return splitBlockDim(op, w, vt, rewriter);
    if (!w.mul || !w.extA || !w.extB || op.getKind() != vector::CombiningKind::ADD || !vt || vt.getRank() != 1 ||
        vt.isScalable() || !vt.getElementType().isF32() || !op.getDestType().isF32() ||
        op.getReductionDims() != ArrayRef<int64_t>{0})
      return rewriter.notifyMatchFailure(op, "not a 1-D multi-reduction of scaled products into an f32");
    w.acc = op.getAcc();
    w.k = vt.getShape()[0];
    return splitOrLeave(rewriter, op, w, emitRemarks);
  }

  /// A multi-reduction over two dimensions kb and k (an explicit block dimension) of the
  /// product of two scaled vectors of the same shape, both scales one code along k: rewritten
  /// into the multi-reduction over k alone from a -0.0 splat (one MX block of k per output
  /// element and kb) and one over kb from the original accumulator.
  LogicalResult splitBlockDim(vector::MultiDimReductionOp op, WideReduction w, VectorType vt,
                              PatternRewriter &rewriter) const {
    SmallVector<int64_t> dims, sizes(vt.getShape().begin(), vt.getShape().end());
    for (int64_t d = 0; d < vt.getRank(); ++d) dims.push_back(d);
    ArrayRef<int64_t> red = op.getReductionDims();
    std::string why;
    const int64_t k = blockDimOf(w.extA.getScale(), dims, w.extB.getScale(), dims, sizes, {red[0], red[1]}, why);
    if (k < 0) {
      if (emitRemarks) mlir::emitRemark(op->getLoc(), "mx-split-blocks: left whole: ") << why;
      return rewriter.notifyMatchFailure(op, why);
    }
    const int64_t kb = red[0] == k ? red[1] : red[0];
    SmallVector<int64_t> shape;
    for (int64_t d = 0; d < vt.getRank(); ++d)
      if (d != k) shape.push_back(sizes[d]);
    auto partialType = VectorType::get(shape, rewriter.getF32Type());
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<bool> inner(size_t(vt.getRank()), false), outer(shape.size(), false);
    inner[size_t(k)] = true;
    outer[size_t(kb < k ? kb : kb - 1)] = true;
    Value partial = vector::MultiDimReductionOp::create(rewriter, loc, op.getSource(), negZero(rewriter, loc, partialType),
                                                        inner, vector::CombiningKind::ADD);
    remarkBlockDim(op, emitRemarks, sizes[kb], sizes[k]);
    rewriter.replaceOpWithNewOp<vector::MultiDimReductionOp>(op, partial, op.getAcc(), outer,
                                                             vector::CombiningKind::ADD);
    return success();
  }
  bool emitRemarks; ///< report decisions as remarks
};

/// The pass: the patterns above, applied once per op.
struct MxSplitBlocksPass : PassWrapper<MxSplitBlocksPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MxSplitBlocksPass)

  MxSplitBlocksPass() = default;
  MxSplitBlocksPass(const MxSplitBlocksPass &other) : PassWrapper(other) {}

  StringRef getArgument() const override { return "mx-split-blocks"; }
  StringRef getDescription() const override {
    return "Split a 1-D wide-K vector.contract or vector.multi_reduction over several MX blocks (an op that "
           "leaves the order open) into per-block ordered reductions added to the accumulator in order, so that "
           "--mx-scale-placement can rewrite each block";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, vector::VectorDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateMxSplitBlocksPatterns(patterns, remarks);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }

  Option<bool> remarks{*this, "remarks", llvm::cl::desc("Report every split and every wide reduction left whole"),
                       llvm::cl::init(true)};
};

}  // namespace

void populateMxSplitBlocksPatterns(RewritePatternSet &patterns, bool emitRemarks) {
  patterns.add<SplitContract, SplitMultiReduction>(patterns.getContext(), emitRemarks);
}

std::unique_ptr<Pass> createMxSplitBlocksPass() { return std::make_unique<MxSplitBlocksPass>(); }

void registerMxSplitBlocksPass() { PassRegistration<MxSplitBlocksPass>(); }

}  // namespace mxcert::mlir_pass

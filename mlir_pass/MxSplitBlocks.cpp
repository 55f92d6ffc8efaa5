// mlir_pass/MxSplitBlocks.cpp — `--mx-split-blocks`: a wide-K contraction whose order the op
// leaves open (1-D with per-block scales, over an explicit block dimension, or a tile over one
// wide K) rewritten into its MX blocks summed in one fixed order (MxSplitBlocks.h).
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

/// A `vector.multi_reduction <add>` of `source` over the dimensions set in `mask` from `acc`.
Value sumOver(PatternRewriter &rewriter, Location loc, Value source, Value acc, ArrayRef<bool> mask) {
  return vector::MultiDimReductionOp::create(rewriter, loc, source, acc, mask, vector::CombiningKind::ADD);
}

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
  replaceAndEraseDead(rewriter, op, r);
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

/// One operand's scale along the reduced dimension px of the operand (of size nb * bs) when
/// that dimension holds several MX blocks in a row (docs/mlir.md, "Wide K"): `Blocked` when
/// the scale is a `vector.shape_cast` (under an optional 8-bit `arith.bitcast`) of a value of
/// the operand's shape with px split into (nb, bs) — a per-block scale whose blocks are the
/// rows of that split; `Broadcast` when it is a `vector.broadcast` (under the same optional
/// bitcast) of a value that is one along px (a unit dimension there, or none).
struct SplitScale {
  enum Kind { None, Blocked, Broadcast } kind = None;
  Value src;                      ///< the shape_cast's or the broadcast's source
  Type bitcastTo;                 ///< the bitcast's element type (null: no bitcast)
  int64_t nb = 0, bs = 0;         ///< Blocked: the split of px
};

/// The SplitScale of `scale` (of the operand's shape `shape`) along dimension px.
SplitScale splitScaleOf(Value scale, ArrayRef<int64_t> shape, int64_t px) {
  SplitScale r;
  Value v = scale;
  if (auto cast = v.getDefiningOp<arith::BitcastOp>();
      cast && getElementTypeOrSelf(cast.getIn().getType()).getIntOrFloatBitWidth() == 8) {
    r.bitcastTo = getElementTypeOrSelf(cast.getType());
    v = cast.getIn();
  }
  const int64_t rank = int64_t(shape.size());
  if (auto sc = v.getDefiningOp<vector::ShapeCastOp>()) {
    ArrayRef<int64_t> from = cast<VectorType>(sc.getSource().getType()).getShape();
    if (int64_t(from.size()) == rank + 1 && from.take_front(size_t(px)) == shape.take_front(size_t(px)) &&
        from.drop_front(size_t(px + 2)) == shape.drop_front(size_t(px + 1)) && from[size_t(px)] > 1 &&
        from[size_t(px)] * from[size_t(px + 1)] == shape[size_t(px)]) {
      r.kind = SplitScale::Blocked;
      r.src = sc.getSource();
      r.nb = from[size_t(px)];
      r.bs = from[size_t(px + 1)];
      return r;
    }
  }
  if (auto bc = v.getDefiningOp<vector::BroadcastOp>()) {
    auto from = dyn_cast<VectorType>(bc.getSource().getType());
    const int64_t off = rank - (from ? from.getRank() : 0);
    if (!from || px < off || from.getDimSize(px - off) == 1) {
      r.kind = SplitScale::Broadcast;
      r.src = bc.getSource();
    }
  }
  return r;
}

/// `ext` (an `arith.scaling_extf` of an operand of shape `shape`) with its dimension px split
/// into (nb, bs): the elements reshaped (`vector.shape_cast`: row-major, so element i of px is
/// (i / bs, i % bs)), the scale rebuilt from `sc` in the split shape (a Blocked scale's source;
/// a Broadcast source given a second unit dimension there and broadcast again), and a new
/// `arith.scaling_extf` of the two.
Value splitOperand(PatternRewriter &rewriter, Location loc, arith::ScalingExtFOp ext, ArrayRef<int64_t> shape,
                   int64_t px, int64_t nb, int64_t bs, const SplitScale &sc) {
  SmallVector<int64_t> split(shape.begin(), shape.end());
  split[size_t(px)] = bs;
  split.insert(split.begin() + px, nb);
  Value in = vector::ShapeCastOp::create(
      rewriter, loc, VectorType::get(split, getElementTypeOrSelf(ext.getIn().getType())), ext.getIn());
  Value scale = sc.src;
  if (sc.kind == SplitScale::Broadcast) {
    if (auto from = dyn_cast<VectorType>(scale.getType())) {
      const int64_t off = int64_t(shape.size()) - from.getRank();
      if (px >= off) {  // a second unit dimension next to the one at px
        SmallVector<int64_t> s(from.getShape().begin(), from.getShape().end());
        s.insert(s.begin() + (px - off), 1);
        scale = vector::ShapeCastOp::create(rewriter, loc, VectorType::get(s, from.getElementType()), scale);
      }
    }
    scale = vector::BroadcastOp::create(rewriter, loc, VectorType::get(split, getElementTypeOrSelf(scale.getType())),
                                        scale);
  }
  if (sc.bitcastTo) scale = arith::BitcastOp::create(rewriter, loc, VectorType::get(split, sc.bitcastTo), scale);
  return arith::ScalingExtFOp::create(rewriter, loc, VectorType::get(split, rewriter.getF32Type()), in, scale,
                                      ext.getFastmathAttr());
}

/// One operand of a reduction over one dimension k that holds several MX blocks in a row.
struct SplitSide {
  arith::ScalingExtFOp ext;     ///< the operand
  SmallVector<int64_t> shape;   ///< its shape
  int64_t px = 0;               ///< the position of k in it
  SmallVector<int64_t> dims;    ///< the iteration dimension of each of its dimensions
  SplitScale scale;             ///< its scale along px (splitScaleOf)
};

/// The block split of k for both operands (`sides`, their `scale` filled in here): the common
/// (nb, bs) when at least one scale is Blocked, every Blocked one has that split and is one code
/// along k in the split iteration space (`sizes` with k of size bs and a new dimension
/// kb = sizes.size() of size nb), and every other is Broadcast. Returns false with `why` set
/// otherwise.
bool commonSplit(SplitSide (&sides)[2], ArrayRef<int64_t> sizes, int64_t k, int64_t &nb, int64_t &bs,
                 std::string &why) {
  nb = bs = 0;
  for (SplitSide &s : sides) {
    s.scale = splitScaleOf(s.ext.getScale(), s.shape, s.px);
    if (s.scale.kind == SplitScale::None) {
      why = "a scale is neither one code along K (a broadcast) nor a per-block scale split from K (a vector.shape_cast "
            "of the blocks' rows)";
      return false;
    }
    if (s.scale.kind != SplitScale::Blocked) continue;
    if (nb && (s.scale.nb != nb || s.scale.bs != bs)) {
      why = "the two scales split K into different blocks";
      return false;
    }
    nb = s.scale.nb;
    bs = s.scale.bs;
  }
  if (!nb) {
    why = "no scale is a per-block scale split from K";
    return false;
  }
  SmallVector<int64_t> split(sizes.begin(), sizes.end());
  split[size_t(k)] = bs;
  split.push_back(nb);
  for (SplitSide &s : sides) {
    if (s.scale.kind != SplitScale::Blocked) continue;
    SmallVector<int64_t> d(s.dims.begin(), s.dims.end());
    d.insert(d.begin() + s.px, int64_t(sizes.size()));  // kb, then k
    std::string w;
    if (!isScaleConstantAlong(s.scale.src, d, split, k, s.ext == sides[0].ext ? "a" : "b", w)) {
      why = "a per-block scale is not one code per block: " + w;
      return false;
    }
  }
  return true;
}

/// The remark of a split of one reduced dimension holding several blocks in a row.
void remarkMergedK(Operation *op, bool emitRemarks, int64_t k, int64_t nb, int64_t bs) {
  if (emitRemarks)
    mlir::emitRemark(op->getLoc(), "mx-split-blocks: split the K = ")
        << k << " " << op->getName().getStringRef() << " (its lowering chooses the order) into " << nb
        << " blocks of " << bs << " (its dimension K reshaped to (" << nb << ", " << bs
        << ")): the blocks' sums from -0.0, then their sum from the accumulator: one of the orders the op allows";
}

/// What the contraction splits read of a `vector.contract`: its iterator types and maps, each
/// iteration dimension's size and the iteration dimension of each lhs / rhs dimension. Only
/// for f32 fixed-size operands and result and projected-permutation maps.
struct ContractShape {
  SmallVector<vector::IteratorType> iters; ///< the iterator types
  SmallVector<AffineMap> maps;             ///< lhs, rhs and result maps
  SmallVector<int64_t> sizes;              ///< the size of each iteration dimension
  SmallVector<int64_t> dimsA, dimsB;       ///< the iteration dimension of each lhs / rhs dimension
  VectorType lt, rt;                       ///< the operand types
};

/// The ContractShape of `op`, or failure where an operand or the result is not f32 of fixed
/// size or a map is not a projected permutation.
FailureOr<ContractShape> contractShape(vector::ContractionOp op) {
  ContractShape c;
  c.iters = op.getIteratorTypesArray();
  c.maps = op.getIndexingMapsArray();
  c.lt = dyn_cast<VectorType>(op.getLhs().getType());
  c.rt = dyn_cast<VectorType>(op.getRhs().getType());
  if (!c.lt || !c.rt || c.lt.isScalable() || c.rt.isScalable() || !c.lt.getElementType().isF32() ||
      !c.rt.getElementType().isF32() || !getElementTypeOrSelf(op.getResultType()).isF32() ||
      !llvm::all_of(c.maps, [](AffineMap m) { return m.isProjectedPermutation(); }))
    return failure();
  c.sizes.assign(c.iters.size(), 0);
  for (auto [map, t, dims] : {std::tuple{c.maps[0], c.lt, &c.dimsA}, std::tuple{c.maps[1], c.rt, &c.dimsB}})
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      dims->push_back(map.getDimPosition(r));
      c.sizes[map.getDimPosition(r)] = t.getDimSize(r);
    }
  return c;
}

/// Replaces the contraction `op` by the contraction of `a` and `b` (maps `lhsMap` and
/// `rhsMap`, iterator types `iters`, in which dimension kb is parallel) into op's result
/// dimensions followed by kb (of size `nb`), from a splat -0.0: one block sum per output element
/// and kb; then their `vector.multi_reduction <add>` over kb from op's accumulator.
void replaceByBlockSums(PatternRewriter &rewriter, vector::ContractionOp op, Value a, Value b, AffineMap lhsMap,
                        AffineMap rhsMap, ArrayRef<vector::IteratorType> iters, unsigned kb, int64_t nb) {
  MLIRContext *ctx = op.getContext();
  Location loc = op.getLoc();
  AffineMap resultMap = op.getIndexingMapsArray()[2];
  SmallVector<AffineExpr> out(resultMap.getResults().begin(), resultMap.getResults().end());
  out.push_back(getAffineDimExpr(kb, ctx));
  SmallVector<int64_t> shape;
  if (auto ot = dyn_cast<VectorType>(op.getResultType())) shape.assign(ot.getShape().begin(), ot.getShape().end());
  shape.push_back(nb);
  SmallVector<Attribute> iterAttrs;
  for (vector::IteratorType it : iters) iterAttrs.push_back(vector::IteratorTypeAttr::get(ctx, it));
  ArrayAttr mapAttr =
      rewriter.getAffineMapArrayAttr({lhsMap, rhsMap, AffineMap::get(unsigned(iters.size()), 0, out, ctx)});
  rewriter.setInsertionPoint(op);
  Value partial = vector::ContractionOp::create(rewriter, loc, a, b,
                                                negZero(rewriter, loc, VectorType::get(shape, rewriter.getF32Type())),
                                                mapAttr, rewriter.getArrayAttr(iterAttrs), vector::CombiningKind::ADD);
  SmallVector<bool> mask(shape.size(), false);
  mask.back() = true;
  replaceAndEraseDead(rewriter, op, sumOver(rewriter, loc, partial, op.getAcc(), mask));
}

/// A `vector.contract` of two `arith.scaling_extf` vectors, kind add: over two reduction
/// dimensions (splitBlockDim), over one that holds several blocks in a row (splitMergedK), or
/// the 1-D dot product into a scalar f32 (maps (d0) -> (d0), (d0) -> (d0), (d0) -> ()) with
/// per-block scales (splitOrLeave: slices).
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
    const bool dot1d = lt && lt.getRank() == 1 && !lt.isScalable() && op.getRhs().getType() == lt &&
                       maps.size() == 3 && maps[0] == id && maps[1] == id && maps[2] == AffineMap::get(1, 0, {}, ctx);
    if (w.extA && w.extB && op.getKind() == vector::CombiningKind::ADD && !dot1d &&
        !isa<vector::MaskOp>(op->getParentOp()))
      return splitMergedK(op, rewriter);
    if (!w.extA || !w.extB || op.getKind() != vector::CombiningKind::ADD || !dot1d || !lt.getElementType().isF32() ||
        !op.getResultType().isF32())
      return rewriter.notifyMatchFailure(op, "not a 1-D contraction of two scaling_extf vectors into an f32");
    w.acc = op.getAcc();
    w.k = lt.getShape()[0];
    return splitOrLeave(rewriter, op, w, emitRemarks);
  }

  /// A contraction (other than the 1-D dot product) over one reduction dimension k that holds
  /// several MX blocks in a row (commonSplit): k is reshaped to (kb, k) in both operands
  /// (splitOperand), and the contraction over k alone with kb parallel and appended to the
  /// result, from a -0.0 splat, is followed by a `vector.multi_reduction <add>` over kb from the
  /// original accumulator (the same computation as splitBlockDim's).
  LogicalResult splitMergedK(vector::ContractionOp op, PatternRewriter &rewriter) const {
    FailureOr<ContractShape> c = contractShape(op);
    if (failed(c) || llvm::count(c->iters, vector::IteratorType::reduction) != 1) return failure();
    const int64_t k = int64_t(llvm::find(c->iters, vector::IteratorType::reduction) - c->iters.begin());
    SplitSide sides[2];
    sides[0].ext = op.getLhs().getDefiningOp<arith::ScalingExtFOp>();
    sides[1].ext = op.getRhs().getDefiningOp<arith::ScalingExtFOp>();
    for (auto [side, t, dims] : {std::tuple{&sides[0], c->lt, &c->dimsA}, std::tuple{&sides[1], c->rt, &c->dimsB}}) {
      side->shape.assign(t.getShape().begin(), t.getShape().end());
      side->dims = *dims;
      auto at = llvm::find(*dims, k);
      if (at == dims->end()) return failure();
      side->px = int64_t(at - dims->begin());
    }
    std::string why, wa, wb;
    if (isScaleConstantAlong(sides[0].ext.getScale(), sides[0].dims, c->sizes, k, "a", wa) &&
        isScaleConstantAlong(sides[1].ext.getScale(), sides[1].dims, c->sizes, k, "b", wb))
      return failure();  // one MX block per output element: nothing to split
    int64_t nb = 0, bs = 0;
    if (!commonSplit(sides, c->sizes, k, nb, bs, why)) {
      if (emitRemarks) mlir::emitRemark(op->getLoc(), "mx-split-blocks: left whole: ") << why;
      return failure();
    }
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    const unsigned n = unsigned(c->iters.size());  // the new dimension kb
    rewriter.setInsertionPoint(op);
    Value a = splitOperand(rewriter, loc, sides[0].ext, sides[0].shape, sides[0].px, nb, bs, sides[0].scale);
    Value b = sides[1].ext == sides[0].ext && c->lt == c->rt && sides[0].px == sides[1].px
                  ? a
                  : splitOperand(rewriter, loc, sides[1].ext, sides[1].shape, sides[1].px, nb, bs, sides[1].scale);
    auto splitMap = [&](AffineMap m) {  // k at its position becomes (kb, k)
      SmallVector<AffineExpr> e;
      for (AffineExpr x : m.getResults()) {
        if (cast<AffineDimExpr>(x).getPosition() == unsigned(k)) e.push_back(getAffineDimExpr(n, ctx));
        e.push_back(x);
      }
      return AffineMap::get(n + 1, 0, e, ctx);
    };
    SmallVector<vector::IteratorType> iters = c->iters;
    iters.push_back(vector::IteratorType::parallel);
    remarkMergedK(op, emitRemarks, c->sizes[k], nb, bs);
    replaceByBlockSums(rewriter, op, a, b, splitMap(c->maps[0]), splitMap(c->maps[1]), iters, n, nb);
    return success();
  }

  /// A contraction over two reduction dimensions kb and k (an explicit block dimension), every
  /// map a projected permutation, f32 operands and result, both scales one code along k:
  /// rewritten into the contraction over k alone (kb made parallel and appended to the result,
  /// from a -0.0 splat: one MX block of k per output element and kb) and a
  /// `vector.multi_reduction <add>` over kb from the original accumulator.
  LogicalResult splitBlockDim(vector::ContractionOp op, PatternRewriter &rewriter) const {
    FailureOr<ContractShape> c = contractShape(op);
    if (failed(c)) return failure();
    SmallVector<int64_t> red;
    for (auto [d, it] : llvm::enumerate(c->iters))
      if (it == vector::IteratorType::reduction) red.push_back(int64_t(d));
    if (red.size() != 2) return failure();
    std::string why;
    auto extA = op.getLhs().getDefiningOp<arith::ScalingExtFOp>();
    auto extB = op.getRhs().getDefiningOp<arith::ScalingExtFOp>();
    const int64_t k =
        blockDimOf(extA.getScale(), c->dimsA, extB.getScale(), c->dimsB, c->sizes, {red[0], red[1]}, why);
    if (k < 0) {
      if (emitRemarks) mlir::emitRemark(op->getLoc(), "mx-split-blocks: left whole: ") << why;
      return failure();
    }
    const int64_t kb = red[0] == k ? red[1] : red[0];
    SmallVector<vector::IteratorType> iters = c->iters;
    iters[size_t(kb)] = vector::IteratorType::parallel;
    remarkBlockDim(op, emitRemarks, c->sizes[kb], c->sizes[k]);
    replaceByBlockSums(rewriter, op, op.getLhs(), op.getRhs(), c->maps[0], c->maps[1], iters, unsigned(kb),
                       c->sizes[kb]);
    return success();
  }
  bool emitRemarks; ///< report decisions as remarks
};

/// A `vector.multi_reduction <add>` of an f32 P = arith.mulf(A, B), A and B
/// `arith.scaling_extf` vectors: over two dimensions (splitBlockDim), over one of a rank >= 2 P
/// that holds several blocks in a row (splitMergedK), or a 1-D P into a scalar with per-block
/// scales (splitOrLeave: slices).
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
    if (w.mul && w.extA && w.extB && op.getKind() == vector::CombiningKind::ADD && vt && !vt.isScalable() &&
        vt.getRank() >= 2 && vt.getElementType().isF32() && op.getReductionDims().size() == 1 &&
        !isa<vector::MaskOp>(op->getParentOp()))
      return splitMergedK(op, w, vt, rewriter);
    if (!w.mul || !w.extA || !w.extB || op.getKind() != vector::CombiningKind::ADD || !vt || vt.getRank() != 1 ||
        vt.isScalable() || !vt.getElementType().isF32() || !op.getDestType().isF32() ||
        op.getReductionDims() != ArrayRef<int64_t>{0})
      return rewriter.notifyMatchFailure(op, "not a 1-D multi-reduction of scaled products into an f32");
    w.acc = op.getAcc();
    w.k = vt.getShape()[0];
    return splitOrLeave(rewriter, op, w, emitRemarks);
  }

  /// A multi-reduction of rank >= 2 over one dimension k that holds several MX blocks in a
  /// row (commonSplit): k is reshaped to (kb, k) in both factors (splitOperand), their product
  /// reduced over k alone from a -0.0 splat, then over kb from the original accumulator.
  LogicalResult splitMergedK(vector::MultiDimReductionOp op, WideReduction w, VectorType vt,
                             PatternRewriter &rewriter) const {
    const int64_t k = op.getReductionDims()[0];
    SmallVector<int64_t> sizes(vt.getShape().begin(), vt.getShape().end()), dims;
    for (int64_t d = 0; d < vt.getRank(); ++d) dims.push_back(d);
    SplitSide sides[2];
    for (auto [side, ext] : {std::pair{&sides[0], w.extA}, std::pair{&sides[1], w.extB}}) {
      side->ext = ext;
      side->shape = sizes;
      side->px = k;
      side->dims = dims;
    }
    std::string why, wa, wb;
    if (isScaleConstantAlong(w.extA.getScale(), dims, sizes, k, "a", wa) &&
        isScaleConstantAlong(w.extB.getScale(), dims, sizes, k, "b", wb))
      return rewriter.notifyMatchFailure(op, "one MX block per output element: nothing to split");
    int64_t nb = 0, bs = 0;
    if (!commonSplit(sides, sizes, k, nb, bs, why)) {
      if (emitRemarks) mlir::emitRemark(op->getLoc(), "mx-split-blocks: left whole: ") << why;
      return rewriter.notifyMatchFailure(op, why);
    }
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value a = splitOperand(rewriter, loc, w.extA, sizes, k, nb, bs, sides[0].scale);
    Value b = w.extB == w.extA ? a : splitOperand(rewriter, loc, w.extB, sizes, k, nb, bs, sides[1].scale);
    Value p = arith::MulFOp::create(rewriter, loc, a, b, w.mul.getFastmathAttr());
    SmallVector<int64_t> shape(sizes.begin(), sizes.end());
    shape[size_t(k)] = nb;  // the partial sums: (..., kb, ...)
    SmallVector<bool> inner(sizes.size() + 1, false), outer(sizes.size(), false);
    inner[size_t(k + 1)] = true;
    outer[size_t(k)] = true;
    Value partial = vector::MultiDimReductionOp::create(
        rewriter, loc, p, negZero(rewriter, loc, VectorType::get(shape, rewriter.getF32Type())), inner,
        vector::CombiningKind::ADD);
    remarkMergedK(op, emitRemarks, sizes[size_t(k)], nb, bs);
    replaceAndEraseDead(rewriter, op, sumOver(rewriter, op.getLoc(), partial, op.getAcc(), outer));
    return success();
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
    replaceAndEraseDead(rewriter, op, sumOver(rewriter, op.getLoc(), partial, op.getAcc(), outer));
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

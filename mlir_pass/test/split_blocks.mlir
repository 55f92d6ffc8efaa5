// --mx-split-blocks (docs/mlir.md, "Wide K"): a 1-D vector.contract or vector.multi_reduction
// over several MX blocks leaves the order of its sum to the lowering, so it may be rewritten
// into one allowed order: each block reduced in order (SPEC §8's form over the block's slices),
// the block sums added to the accumulator in order. --mx-scale-placement then guards each block
// with its own table. The block size is the largest proper divisor of K whose blocks each carry
// one scale code on both sides.
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-split-blocks -verify-diagnostics -split-input-file | FileCheck %s
// RUN: mxcert-opt %s --mx-split-blocks --mx-scale-placement -split-input-file 2>&1 | FileCheck %s --check-prefix=BOTH

// K = 128 in 4 per-block scales (a vector<4x1> broadcast and reshaped), any accumulator (here a
// function argument: one leaf of the sum, added first).
// CHECK-LABEL: func.func @contract_k128(
// CHECK-SAME: %[[ACC:[a-z0-9]+]]: f32
// CHECK: %[[A0:.+]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
// CHECK-NEXT: %[[S0:.+]] = vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
// CHECK-NEXT: arith.scaling_extf %[[A0]], %[[S0]] : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
// CHECK: %[[P0:.+]] = arith.mulf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-NEXT: %[[T0:.+]] = vector.reduction <add>, %[[P0]] : vector<32xf32> into f32
// CHECK-NEXT: %[[R0:.+]] = arith.addf %[[ACC]], %[[T0]] : f32
// CHECK: {offsets = [96], sizes = [32], strides = [1]}
// CHECK: %[[T3:.+]] = vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
// CHECK-NEXT: %[[R3:.+]] = arith.addf %{{.*}}, %[[T3]] : f32
// CHECK-NEXT: return %[[R3]] : f32
// BOTH: remark: mx-split-blocks: split the K = 128 vector.contract
// BOTH-COUNT-4: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json
// BOTH-LABEL: func.func @contract_k128(
// BOTH-COUNT-4: mxcert.guard
func.func @contract_k128(%a: vector<128xf4E2M1FN>, %b: vector<128xf4E2M1FN>, %sa4: vector<4x1xf8E8M0FNU>, %sb4: vector<4x1xf8E8M0FNU>, %acc: f32) -> f32 {
  %sab = vector.broadcast %sa4 : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<4x32xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %sbb = vector.broadcast %sb4 : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sb = vector.shape_cast %sbb : vector<4x32xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %B = arith.scaling_extf %b, %sb : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  // expected-remark @below {{mx-split-blocks: split the K = 128 vector.contract (its lowering chooses the order) into 4 blocks of 32, each reduced in order (vector.reduction), added to the accumulator in order: one of the orders the op allows}}
  %R = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %acc : vector<128xf32>, vector<128xf32> into f32
  return %R : f32
}

// -----

// A multi-reduction of K = 64 whose a scales are blocks of 32 (a vector.shuffle of two codes)
// and b's one code (a broadcast): blocks of 32 carry one code on both sides.
// CHECK-LABEL: func.func @multi_reduction_k64(
// CHECK-COUNT-2: vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
// BOTH-LABEL: func.func @multi_reduction_k64(
// BOTH-COUNT-2: mxcert.guard
func.func @multi_reduction_k64(%a: vector<64xf4E2M1FN>, %b: vector<64xf4E2M1FN>, %s2: vector<2xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sa = vector.shuffle %s2, %s2 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xf8E8M0FNU>, vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<64xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<64xf4E2M1FN>, vector<64xf8E8M0FNU> to vector<64xf32>
  %B = arith.scaling_extf %b, %sbv : vector<64xf4E2M1FN>, vector<64xf8E8M0FNU> to vector<64xf32>
  %P = arith.mulf %A, %B : vector<64xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{split the K = 64 vector.multi_reduction (its lowering chooses the order) into 2 blocks of 32}}
  %R = vector.multi_reduction <add>, %P, %z [0] : vector<64xf32> to f32
  return %R : f32
}

// -----

// a in blocks of 32, b in blocks of 64: blocks of 32 (each inside one block of b).
// CHECK-LABEL: func.func @mixed_block_sizes(
// CHECK-COUNT-4: vector.reduction <add>, %{{.*}} : vector<32xf32> into f32
func.func @mixed_block_sizes(%a: vector<128xf4E2M1FN>, %sa4: vector<4x1xf8E8M0FNU>, %sb2: vector<2x1xf8E8M0FNU>, %acc: f32) -> f32 {
  %sab = vector.broadcast %sa4 : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<4x32xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %sbb = vector.broadcast %sb2 : vector<2x1xf8E8M0FNU> to vector<2x64xf8E8M0FNU>
  %sb = vector.shape_cast %sbb : vector<2x64xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %B = arith.scaling_extf %a, %sb : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  // expected-remark @below {{into 4 blocks of 32}}
  %R = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %acc : vector<128xf32>, vector<128xf32> into f32
  return %R : f32
}

// -----

// One code for all K: one MX block, not split (no remark; --mx-scale-placement decides it).
// CHECK-LABEL: func.func @one_block(
// CHECK-NOT: vector.extract_strided_slice
// CHECK: vector.contract
func.func @one_block(%a: vector<64xf4E2M1FN>, %s: f8E8M0FNU, %acc: f32) -> f32 {
  %sv = vector.broadcast %s : f8E8M0FNU to vector<64xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sv : vector<64xf4E2M1FN>, vector<64xf8E8M0FNU> to vector<64xf32>
  %R = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %A, %acc : vector<64xf32>, vector<64xf32> into f32
  return %R : f32
}

// -----

// A scale per element (a vector argument): no block size, left whole with a remark.
// CHECK-LABEL: func.func @per_element(
// CHECK-NOT: vector.extract_strided_slice
func.func @per_element(%a: vector<64xf4E2M1FN>, %s: vector<64xf8E8M0FNU>, %acc: f32) -> f32 {
  %A = arith.scaling_extf %a, %s : vector<64xf4E2M1FN>, vector<64xf8E8M0FNU> to vector<64xf32>
  // expected-remark @below {{mx-split-blocks: left whole: no block size divides K = 64 into blocks that each carry one scale code}}
  %R = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %A, %acc : vector<64xf32>, vector<64xf32> into f32
  return %R : f32
}

// -----

// A contraction over two reduction dimensions (kb, k): both scales are one code along k, so it
// becomes the contraction over k with kb parallel (from a -0.0 splat, one MX block per output
// and kb) and a multi-reduction over kb from the accumulator; the pass then guards the blocks.
// CHECK-LABEL: func.func @contract_kb_k(
// CHECK-SAME: %[[ACC:[a-z0-9]+]]: vector<2xf32>
// CHECK: %[[NZ:.+]] = arith.constant dense<-0.000000e+00> : vector<2x4xf32>
// CHECK: %[[T:.+]] = vector.contract {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %{{.*}}, %{{.*}}, %[[NZ]] : vector<2x4x32xf32>, vector<4x32xf32> into vector<2x4xf32>
// CHECK-NEXT: vector.multi_reduction <add>, %[[T]], %[[ACC]] [1] : vector<2x4xf32> to vector<2xf32>
// BOTH: remark: mx-split-blocks: split the vector.contract over a block dimension of 4 and a block of 32
// BOTH: inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json
// BOTH-LABEL: func.func @contract_kb_k(
// BOTH: scf.if %{{.*}} -> (vector<2x4xf32>) {
func.func @contract_kb_k(%a: vector<2x4x32xf4E2M1FN>, %b: vector<4x32xf4E2M1FN>, %sa: vector<2x4x1xf8E8M0FNU>, %sb: vector<4x1xf8E8M0FNU>, %acc: vector<2xf32>) -> vector<2xf32> {
  %sav = vector.broadcast %sa : vector<2x4x1xf8E8M0FNU> to vector<2x4x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x4x32xf4E2M1FN>, vector<2x4x32xf8E8M0FNU> to vector<2x4x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  // expected-remark @below {{mx-split-blocks: split the vector.contract over a block dimension of 4 and a block of 32 (its lowering chooses the order) into the blocks' sums from -0.0, then their sum from the accumulator: one of the orders the op allows}}
  %R = vector.contract {indexing_maps = [affine_map<(i, kb, k) -> (i, kb, k)>, affine_map<(i, kb, k) -> (kb, k)>, affine_map<(i, kb, k) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"], kind = #vector.kind<add>} %A, %B, %acc : vector<2x4x32xf32>, vector<4x32xf32> into vector<2xf32>
  return %R : vector<2xf32>
}

// -----

// A multi-reduction over (kb, k) of a scalar result: a per-(kb) scale on a, one code on b.
// CHECK-LABEL: func.func @multi_reduction_kb_k(
// CHECK: %[[T:.+]] = vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<4x32xf32> to vector<4xf32>
// CHECK-NEXT: vector.multi_reduction <add>, %[[T]], %{{.*}} [0] : vector<4xf32> to f32
// BOTH-LABEL: func.func @multi_reduction_kb_k(
// BOTH: scf.if %{{.*}} -> (vector<4xf32>) {
func.func @multi_reduction_kb_k(%a: vector<4x32xf4E2M1FN>, %sa: vector<4x1xf8E8M0FNU>, %sb: f8E8M0FNU, %acc: f32) -> f32 {
  %sav = vector.broadcast %sa : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %a, %sbv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %B : vector<4x32xf32>
  // expected-remark @below {{split the vector.multi_reduction over a block dimension of 4 and a block of 32}}
  %R = vector.multi_reduction <add>, %P, %acc [0, 1] : vector<4x32xf32> to f32
  return %R : f32
}

// -----

// Scales that vary along both reduced dimensions: left whole with a remark.
// CHECK-LABEL: func.func @kb_k_per_element(
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [0, 1] : vector<4x32xf32> to f32
func.func @kb_k_per_element(%a: vector<4x32xf4E2M1FN>, %s: vector<4x32xf8E8M0FNU>, %acc: f32) -> f32 {
  %A = arith.scaling_extf %a, %s : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %A : vector<4x32xf32>
  // expected-remark @below {{mx-split-blocks: left whole: along neither reduced dimension does each scale carry one code (the scale of operand a varies along the reduction dimension}}
  %R = vector.multi_reduction <add>, %P, %acc [0, 1] : vector<4x32xf32> to f32
  return %R : f32
}

// -----

// A tile over one K = 128 dimension holding 4 blocks in a row: a's per-(row, block) scale is a
// vector<2x4x1> broadcast to vector<2x4x32> and reshaped to vector<2x128>; b's one code. K is
// reshaped to (4, 32) in both operands (b's scale broadcast in the new shape), the contraction
// over the 32 from -0.0 gives one MX block per row and block, then the blocks are summed from
// the accumulator; the pass guards the partial contraction.
// CHECK-LABEL: func.func @tile_merged_k(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2x128xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<128xf4E2M1FN>
// CHECK: %[[SAB:.+]] = vector.broadcast %{{.*}} : vector<2x4x1xf8E8M0FNU> to vector<2x4x32xf8E8M0FNU>
// CHECK: %[[A4:.+]] = vector.shape_cast %[[A]] : vector<2x128xf4E2M1FN> to vector<2x4x32xf4E2M1FN>
// CHECK-NEXT: %[[XA:.+]] = arith.scaling_extf %[[A4]], %[[SAB]] : vector<2x4x32xf4E2M1FN>, vector<2x4x32xf8E8M0FNU> to vector<2x4x32xf32>
// CHECK-NEXT: %[[B4:.+]] = vector.shape_cast %[[B]] : vector<128xf4E2M1FN> to vector<4x32xf4E2M1FN>
// CHECK-NEXT: %[[SB4:.+]] = vector.broadcast %{{.*}} : f8E8M0FNU to vector<4x32xf8E8M0FNU>
// CHECK-NEXT: %[[XB:.+]] = arith.scaling_extf %[[B4]], %[[SB4]]
// CHECK: %[[T:.+]] = vector.contract {{.*}} iterator_types = ["parallel", "reduction", "parallel"]{{.*}} %[[XA]], %[[XB]], %{{.*}} : vector<2x4x32xf32>, vector<4x32xf32> into vector<2x4xf32>
// CHECK-NEXT: vector.multi_reduction <add>, %[[T]], %{{.*}} [1] : vector<2x4xf32> to vector<2xf32>
// CHECK-NOT: vector<2x128xf32>
// BOTH-LABEL: func.func @tile_merged_k(
// BOTH: scf.if %{{.*}} -> (vector<2x4xf32>) {
func.func @tile_merged_k(%a: vector<2x128xf4E2M1FN>, %b: vector<128xf4E2M1FN>, %sa4: vector<2x4x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> vector<2xf32> {
  %sab = vector.broadcast %sa4 : vector<2x4x1xf8E8M0FNU> to vector<2x4x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<2x4x32xf8E8M0FNU> to vector<2x128xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<128xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<2x128xf4E2M1FN>, vector<2x128xf8E8M0FNU> to vector<2x128xf32>
  %B = arith.scaling_extf %b, %sbv : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %z = arith.constant dense<0.0> : vector<2xf32>
  // expected-remark @below {{mx-split-blocks: split the K = 128 vector.contract (its lowering chooses the order) into 4 blocks of 32 (its dimension K reshaped to (4, 32)): the blocks' sums from -0.0, then their sum from the accumulator: one of the orders the op allows}}
  %R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x128xf32>, vector<128xf32> into vector<2xf32>
  return %R : vector<2xf32>
}

// -----

// The same as a multi-reduction tile, a's per-block codes as i8 bits (bitcast after the
// reshape) and b's one code per row (a vector<2x1> broadcast along K, given a second unit
// dimension in the split shape).
// CHECK-LABEL: func.func @multi_reduction_merged_k(
// CHECK: %[[SAB:.+]] = vector.broadcast %{{.*}} : vector<2x2x1xi8> to vector<2x2x32xi8>
// CHECK: arith.bitcast %[[SAB]] : vector<2x2x32xi8> to vector<2x2x32xf8E8M0FNU>
// CHECK: %[[SB3:.+]] = vector.shape_cast %{{.*}} : vector<2x1xf8E8M0FNU> to vector<2x1x1xf8E8M0FNU>
// CHECK-NEXT: vector.broadcast %[[SB3]] : vector<2x1x1xf8E8M0FNU> to vector<2x2x32xf8E8M0FNU>
// CHECK: %[[T:.+]] = vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<2x2x32xf32> to vector<2x2xf32>
// CHECK-NEXT: vector.multi_reduction <add>, %[[T]], %{{.*}} [1] : vector<2x2xf32> to vector<2xf32>
// BOTH-LABEL: func.func @multi_reduction_merged_k(
// BOTH: scf.if %{{.*}} -> (vector<2x2xf32>) {
func.func @multi_reduction_merged_k(%a: vector<2x64xf4E2M1FN>, %sa2: vector<2x2x1xi8>, %sb: vector<2x1xf8E8M0FNU>) -> vector<2xf32> {
  %sab = vector.broadcast %sa2 : vector<2x2x1xi8> to vector<2x2x32xi8>
  %sai = vector.shape_cast %sab : vector<2x2x32xi8> to vector<2x64xi8>
  %sa = arith.bitcast %sai : vector<2x64xi8> to vector<2x64xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<2x1xf8E8M0FNU> to vector<2x64xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<2x64xf4E2M1FN>, vector<2x64xf8E8M0FNU> to vector<2x64xf32>
  %B = arith.scaling_extf %a, %sbv : vector<2x64xf4E2M1FN>, vector<2x64xf8E8M0FNU> to vector<2x64xf32>
  %P = arith.mulf %A, %B : vector<2x64xf32>
  %z = arith.constant dense<-0.0> : vector<2xf32>
  // expected-remark @below {{split the K = 64 vector.multi_reduction (its lowering chooses the order) into 2 blocks of 32 (its dimension K reshaped to (2, 32))}}
  %R = vector.multi_reduction <add>, %P, %z [1] : vector<2x64xf32> to vector<2xf32>
  return %R : vector<2xf32>
}

// -----

// A tile whose scale varies along K in another form (a vector<2x64> argument): left whole.
// CHECK-LABEL: func.func @tile_merged_k_per_element(
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<2x64xf32> to vector<2xf32>
func.func @tile_merged_k_per_element(%a: vector<2x64xf4E2M1FN>, %s: vector<2x64xf8E8M0FNU>) -> vector<2xf32> {
  %A = arith.scaling_extf %a, %s : vector<2x64xf4E2M1FN>, vector<2x64xf8E8M0FNU> to vector<2x64xf32>
  %P = arith.mulf %A, %A : vector<2x64xf32>
  %z = arith.constant dense<0.0> : vector<2xf32>
  // expected-remark @below {{mx-split-blocks: left whole: a scale is neither one code along K (a broadcast) nor a per-block scale split from K (a vector.shape_cast of the blocks' rows)}}
  %R = vector.multi_reduction <add>, %P, %z [1] : vector<2x64xf32> to vector<2xf32>
  return %R : vector<2xf32>
}

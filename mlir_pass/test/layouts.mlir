// Any contraction layout: a vector.contract whose indexing maps are projected permutations,
// with one reduction dimension k indexing both operands and a result indexed by every
// parallel dimension, is one MX dot product per output element (docs/mlir.md, "Any
// contraction layout"): batch dimensions, a transposed result. Each operand's scale is traced
// through broadcasts, transposes and unit-dimension reshapes to the value holding its codes;
// the guard's xa and xb are vectors of the result's shape (shape_cast, broadcast, transpose),
// and constant codes are decided per output element. Codes that vary along k are not one per
// block: left unchanged with a remark.
// (mlir_exec_e2m1_contract-tile runs a transposed-result and a batch matmul over all 65,536
// code pairs.)
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// A batch matmul (b, i, j, k): one code per (b, i) of a (a vector<2x2x1> broadcast along K)
// and per (b, j) of b (a vector<2x1x3> broadcast along K). a's codes vector<2x2xi32> (b, i)
// are broadcast over j and transposed to (b, i, j); b's over i and transposed.
// CHECK-LABEL: func.func @batch_matmul(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: vector<2x2x1xf8E8M0FNU>, %[[SB:[a-z0-9]+]]: vector<2x1x3xf8E8M0FNU>
// CHECK: %[[RA:.+]] = vector.shape_cast %[[SA]] : vector<2x2x1xf8E8M0FNU> to vector<2x2xf8E8M0FNU>
// CHECK-NEXT: %[[RA8:.+]] = arith.bitcast %[[RA]] : vector<2x2xf8E8M0FNU> to vector<2x2xi8>
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[RA8]] : vector<2x2xi8> to vector<2x2xi32>
// CHECK-NEXT: %[[TA:.+]] = vector.broadcast %[[XA]] : vector<2x2xi32> to vector<3x2x2xi32>
// CHECK-NEXT: vector.transpose %[[TA]], [1, 2, 0] : vector<3x2x2xi32> to vector<2x2x3xi32>
// CHECK-NEXT: %[[RB:.+]] = vector.shape_cast %[[SB]] : vector<2x1x3xf8E8M0FNU> to vector<2x3xf8E8M0FNU>
// CHECK-NEXT: %[[RB8:.+]] = arith.bitcast %[[RB]] : vector<2x3xf8E8M0FNU> to vector<2x3xi8>
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[RB8]] : vector<2x3xi8> to vector<2x3xi32>
// CHECK-NEXT: %[[TB:.+]] = vector.broadcast %[[XB]] : vector<2x3xi32> to vector<2x2x3xi32>
// CHECK-NEXT: vector.transpose %[[TB]], [1, 0, 2] : vector<2x2x3xi32> to vector<2x2x3xi32>
// CHECK: vector.shape_cast %{{.*}} : vector<2x2x3xi1> to vector<12xi1>
// CHECK-NEXT: vector.reduction <and>, %{{.*}} : vector<12xi1> into i1
// CHECK: scf.if %{{.*}} -> (vector<2x2x3xf32>) {
// CHECK: vector.contract {{.*}} : vector<2x2x32xf32>, vector<2x32x3xf32> into vector<2x2x3xf32>
// CHECK: arith.bitcast %{{.*}} : vector<2x2x3xi32> to vector<2x2x3xf32>
// CHECK: } else {
// CHECK: arith.scaling_extf
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @batch_matmul(%a: vector<2x2x32xf4E2M1FN>, %b: vector<2x32x3xf4E2M1FN>, %sa: vector<2x2x1xf8E8M0FNU>, %sb: vector<2x1x3xf8E8M0FNU>) -> vector<2x2x3xf32> {
  %sav = vector.broadcast %sa : vector<2x2x1xf8E8M0FNU> to vector<2x2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<2x1x3xf8E8M0FNU> to vector<2x32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x2x32xf4E2M1FN>, vector<2x2x32xf8E8M0FNU> to vector<2x2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2x32x3xf4E2M1FN>, vector<2x32x3xf8E8M0FNU> to vector<2x32x3xf32>
  %z = arith.constant dense<0.0> : vector<2x2x3xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.contract {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x2x32xf32>, vector<2x32x3xf32> into vector<2x2x3xf32>
  return %R : vector<2x2x3xf32>
}

// -----

// A transposed result ((i, j, k) -> (j, i)), one code per row of a (as i8 bits) and one code
// for b: xa is broadcast over j (no transpose needed: the result is (j, i)), xb everywhere.
// CHECK-LABEL: func.func @transposed_result(
// CHECK: %[[XA:.+]] = arith.extui %{{.*}} : vector<2xi8> to vector<2xi32>
// CHECK-NEXT: vector.broadcast %[[XA]] : vector<2xi32> to vector<3x2xi32>
// CHECK: %[[XB:.+]] = arith.extui %{{.*}} : i8 to i32
// CHECK-NEXT: vector.broadcast %[[XB]] : i32 to vector<3x2xi32>
// CHECK: scf.if %{{.*}} -> (vector<3x2xf32>) {
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @transposed_result(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>, %sa: vector<2x1xi8>, %sb: f8E8M0FNU) -> vector<3x2xf32> {
  %sai = vector.broadcast %sa : vector<2x1xi8> to vector<2x32xi8>
  %sav = arith.bitcast %sai : vector<2x32xi8> to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<-0.0> : vector<3x2xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<3x2xf32>
  return %R : vector<3x2xf32>
}

// -----

// Constant codes in a transposed result: decided at compile time per output element, listed
// in the result's row-major order ((j, i)), 2^e a constant vector<3x2xf32>.
// CHECK-LABEL: func.func @transposed_result_constant(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[D:.+]] = vector.contract
// CHECK: %[[P:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [4.000000e+00, 8.000000e+00], [3.05175781E-5, 6.10351563E-5]]> : vector<3x2xf32>
// CHECK: arith.mulf %[[D]], %[[P]] : vector<3x2xf32>
func.func @transposed_result_constant(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>) -> vector<3x2xf32> {
  %sa = arith.constant dense<[[0x7F], [0x80]]> : vector<2x1xf8E8M0FNU>
  %sb = arith.constant dense<[0x7F, 0x81, 0x70]> : vector<3xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<3xf8E8M0FNU> to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<3x2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes (per element, row-major) xa = [127, 128, 127, 128, 127, 128], xb = [127, 127, 129, 129, 112, 112] (e = [0, 1, 2, 3, -15, -14])}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<3x2xf32>
  return %R : vector<3x2xf32>
}

// -----

// Constant codes with one output element outside the agree set: left unchanged, the remark
// names the element by its position in the result.
// CHECK-LABEL: func.func @batch_outside(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @batch_outside(%a: vector<2x1x32xf4E2M1FN>, %b: vector<2x32x2xf4E2M1FN>) -> vector<2x1x2xf32> {
  %sa = arith.constant dense<[[[0x7F]], [[0x80]]]> : vector<2x1x1xf8E8M0FNU>
  %sb = arith.constant dense<[[[0x7F, 0x7F]], [[0x7F, 0xFD]]]> : vector<2x1x2xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<2x1x1xf8E8M0FNU> to vector<2x1x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<2x1x2xf8E8M0FNU> to vector<2x32x2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x1x32xf4E2M1FN>, vector<2x1x32xf8E8M0FNU> to vector<2x1x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2x32x2xf4E2M1FN>, vector<2x32x2xf8E8M0FNU> to vector<2x32x2xf32>
  %z = arith.constant dense<0.0> : vector<2x1x2xf32>
  // expected-remark @below {{left unchanged: scale codes (per element, row-major) xa = [127, 127, 128, 128], xb = [127, 127, 127, 253] (e = [0, 0, 1, 127]): element (1, 0, 1)'s codes lie outside the certified agree set {xa:0..252,xb:0..252,e:-147..117}}}
  %R = vector.contract {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x1x32xf32>, vector<2x32x2xf32>, vector<2x1x2xf32> into vector<2x1x2xf32>
  return %R : vector<2x1x2xf32>
}

// -----

// A scale that varies along k (one per element) is not an MX block's.
// CHECK-LABEL: func.func @per_element_scale(
// CHECK-NOT: scf.if
func.func @per_element_scale(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>, %sa: vector<2x32xf8E8M0FNU>, %sb: f8E8M0FNU) -> vector<3x2xf32> {
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<3x2xf32>
  // expected-remark @below {{left unchanged: the scale of operand a varies along the reduction dimension (a scale per element, not one per MX block)}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<3x2xf32>
  return %R : vector<3x2xf32>
}

// -----

// A constant scale that varies along k is refused the same way; one equal along k is a block's.
// CHECK-LABEL: func.func @constant_along_k(
// CHECK-NOT: arith.scaling_extf
func.func @constant_along_k(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>) -> vector<3x2xf32> {
  %sa = arith.constant dense<0x80> : vector<2x32xf8E8M0FNU>
  %sb = arith.constant dense<0x7F> : vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sb : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<3x2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes (per element, row-major) xa = [128, 128, 128, 128, 128, 128], xb = [127, 127, 127, 127, 127, 127] (e = [1, 1, 1, 1, 1, 1])}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (j, i)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<3x2xf32>
  return %R : vector<3x2xf32>
}

// -----

// Two reduction dimensions: not one MX block per output element.
// CHECK-LABEL: func.func @two_reductions(
// CHECK-NOT: scf.if
func.func @two_reductions(%a: vector<2x2x16xf4E2M1FN>, %b: vector<2x16xf4E2M1FN>, %s: f8E8M0FNU) -> vector<2xf32> {
  %sav = vector.broadcast %s : f8E8M0FNU to vector<2x2x16xf8E8M0FNU>
  %sbv = vector.broadcast %s : f8E8M0FNU to vector<2x16xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x2x16xf4E2M1FN>, vector<2x2x16xf8E8M0FNU> to vector<2x2x16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2x16xf4E2M1FN>, vector<2x16xf8E8M0FNU> to vector<2x16xf32>
  %z = arith.constant dense<0.0> : vector<2xf32>
  // expected-remark @below {{left unchanged: the vector.contract reduces over more than one dimension (an MX block is a dot product over one; over a block dimension and k, --mx-split-blocks splits it into its blocks)}}
  %R = vector.contract {indexing_maps = [affine_map<(i, r, k) -> (i, r, k)>, affine_map<(i, r, k) -> (r, k)>, affine_map<(i, r, k) -> (i)>], iterator_types = ["parallel", "reduction", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x2x16xf32>, vector<2x16xf32> into vector<2xf32>
  return %R : vector<2xf32>
}

// -----

// A matmul tile (a fixed form) whose b codes come in a form the fixed tiles do not read (one
// code per column as a vector<3x1> broadcast along K and transposed): the general reading
// serves it.
// CHECK-LABEL: func.func @matmul_transposed_codes(
// CHECK-SAME: %[[SB:[a-z0-9]+]]: vector<3x1xf8E8M0FNU>
// CHECK: %[[RB:.+]] = vector.shape_cast %[[SB]] : vector<3x1xf8E8M0FNU> to vector<3xf8E8M0FNU>
// CHECK: %[[XB:.+]] = arith.extui %{{.*}} : vector<3xi8> to vector<3xi32>
// CHECK-NEXT: vector.broadcast %[[XB]] : vector<3xi32> to vector<2x3xi32>
// CHECK: scf.if %{{.*}} -> (vector<2x3xf32>) {
func.func @matmul_transposed_codes(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>, %sa: f8E8M0FNU, %sb: vector<3x1xf8E8M0FNU>) -> vector<2x3xf32> {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2x32xf8E8M0FNU>
  %sbt = vector.broadcast %sb : vector<3x1xf8E8M0FNU> to vector<3x32xf8E8M0FNU>
  %sbv = vector.transpose %sbt, [1, 0] : vector<3x32xf8E8M0FNU> to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<2x3xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// -----

// A vector.multi_reduction of any rank over one dimension (here the middle one of a 2x32x3
// product, the iteration space of a matmul as linalg vectorization writes it): output (i, j)
// sums the line P[i, :, j]. a's codes per row (vector<2x1x1> broadcast), b's one code.
// CHECK-LABEL: func.func @multi_reduction_middle(
// CHECK: %[[RA:.+]] = vector.shape_cast %{{.*}} : vector<2x1x1xf8E8M0FNU> to vector<2xf8E8M0FNU>
// CHECK: %[[XA:.+]] = arith.extui %{{.*}} : vector<2xi8> to vector<2xi32>
// CHECK-NEXT: %[[TA:.+]] = vector.broadcast %[[XA]] : vector<2xi32> to vector<3x2xi32>
// CHECK-NEXT: vector.transpose %[[TA]], [1, 0] : vector<3x2xi32> to vector<2x3xi32>
// CHECK: scf.if %{{.*}} -> (vector<2x3xf32>) {
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<2x32x3xf32> to vector<2x3xf32>
func.func @multi_reduction_middle(%a: vector<2x32x3xf4E2M1FN>, %b: vector<2x32x3xf4E2M1FN>, %sa: vector<2x1x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> vector<2x3xf32> {
  %sav = vector.broadcast %sa : vector<2x1x1xf8E8M0FNU> to vector<2x32x3xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2x32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32x3xf4E2M1FN>, vector<2x32x3xf8E8M0FNU> to vector<2x32x3xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2x32x3xf4E2M1FN>, vector<2x32x3xf8E8M0FNU> to vector<2x32x3xf32>
  %P = arith.mulf %A, %B : vector<2x32x3xf32>
  %z = arith.constant dense<-0.0> : vector<2x3xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.multi_reduction <add>, %P, %z [1] : vector<2x32x3xf32> to vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// -----

// Two reduced dimensions: not one MX block per output element.
// CHECK-LABEL: func.func @multi_reduction_two(
// CHECK-NOT: scf.if
func.func @multi_reduction_two(%a: vector<2x2x16xf4E2M1FN>, %s: f8E8M0FNU) -> vector<2xf32> {
  %sv = vector.broadcast %s : f8E8M0FNU to vector<2x2x16xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sv : vector<2x2x16xf4E2M1FN>, vector<2x2x16xf8E8M0FNU> to vector<2x2x16xf32>
  %P = arith.mulf %A, %A : vector<2x2x16xf32>
  %z = arith.constant dense<0.0> : vector<2xf32>
  // expected-remark @below {{left unchanged: the vector.multi_reduction reduces dimensions [1, 2] of a rank-3 vector (an MX block is a dot product over one dimension; over a block dimension and k, --mx-split-blocks splits it into its blocks)}}
  %R = vector.multi_reduction <add>, %P, %z [1, 2] : vector<2x2x16xf32> to vector<2xf32>
  return %R : vector<2xf32>
}

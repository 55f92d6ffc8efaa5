// Reductions of one row of a 2-D product (what upstream's vector.contract lowering leaves): a
// vector.reduction of vector.extract %P[i] of P = arith.mulf on 2-D scaled operands, or of
// arith.mulf(vector.extract %A[i], B). Row i is an MX block: its elements are row i of the 2-D
// element vector, its scale row i's code (per-row scales: vector.extract %s[i, 0]). The post
// branch extracts the element rows; the else branch recomputes the row's dequant from the
// rows of the elements and scales (scaling_extf is elementwise), so the 2-D tile is not kept.
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @rows_of_product(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2x32xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<2x32xf4E2M1FN>, %[[SA:[a-z0-9]+]]: vector<2x1xf8E8M0FNU>
// CHECK: vector.extract %[[SA]][0, 0] : f8E8M0FNU from vector<2x1xf8E8M0FNU>
// CHECK: scf.if
// CHECK: vector.extract %[[A]][0] : vector<32xf4E2M1FN> from vector<2x32xf4E2M1FN>
// CHECK: } else {
// CHECK: %[[SROW:.+]] = vector.extract %{{.*}}[0] : vector<32xf8E8M0FNU> from vector<2x32xf8E8M0FNU>
// CHECK: arith.scaling_extf %{{.*}}, %[[SROW]] : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
// CHECK: mxcert.guard
// CHECK: vector.extract %[[SA]][1, 0] : f8E8M0FNU from vector<2x1xf8E8M0FNU>
// CHECK: mxcert.guard
// CHECK-NOT: arith.mulf %{{.*}} : vector<2x32xf32>
func.func @rows_of_product(%a: vector<2x32xf4E2M1FN>, %b: vector<2x32xf4E2M1FN>, %sa: vector<2x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> (f32, f32) {
  %sav = vector.broadcast %sa : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %P = arith.mulf %A, %B : vector<2x32xf32>
  %p0 = vector.extract %P[0] : vector<32xf32> from vector<2x32xf32>
  %p1 = vector.extract %P[1] : vector<32xf32> from vector<2x32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %r0 = vector.reduction <add>, %p0 : vector<32xf32> into f32
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %r1 = vector.reduction <add>, %p1 : vector<32xf32> into f32
  return %r0, %r1 : f32, f32
}

// -----

// CHECK-LABEL: func.func @rows_of_factor(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2x32xf8E4M3FN>
// CHECK: scf.if
// CHECK: vector.extract %[[A]][1] : vector<32xf8E4M3FN> from vector<2x32xf8E4M3FN>
// CHECK: } {mxcert.guard = "xa:0..246,xb:0..246,e:-131..105", mxcert.post = "f32"}
func.func @rows_of_factor(%a: vector<2x32xf8E4M3FN>, %b: vector<32xf8E4M3FN>, %sa: vector<2x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf8E4M3FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %a1 = vector.extract %A[1] : vector<32xf32> from vector<2x32xf32>
  %m = arith.mulf %a1, %B : vector<32xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{of e4m3xe4m3_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %r = vector.reduction <add>, %m, %z : vector<32xf32> into f32
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @rows_constant(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[C:.+]] = arith.constant 4.000000e+00 : f32
// CHECK: arith.mulf %{{.*}}, %[[C]] : f32
func.func @rows_constant(%a: vector<2x32xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> f32 {
  %sa = arith.constant dense<[[0x7F], [0x81]]> : vector<2x1xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sbv = arith.constant dense<0x7F> : vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %a1 = vector.extract %A[1] : vector<32xf32> from vector<2x32xf32>
  %m = arith.mulf %a1, %B : vector<32xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 129, xb = 127 (e = 2)}}
  %r = vector.reduction <add>, %m : vector<32xf32> into f32
  return %r : f32
}

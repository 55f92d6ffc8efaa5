// The ops besides SPEC §8's vector.reduction that sum an MX block's products, and the constant
// zero accumulator (docs/mlir.md, "What the pass matches"): a vector.reduction with a +0.0 or
// -0.0 accumulator (the ordered sum, accumulator first), a vector.multi_reduction of a 1-D
// product vector into a scalar, and a 1-D vector.contract. The accumulator is one more leaf of
// the table's dot product (k = K + 1), and the two ops that leave the reduction order to their
// lowering need an any-order table (every tree): the committed k = 33 `any` tables. The post
// branch sums with a clone of the same op (the same order as the original). Every other
// MX-looking contraction is left unchanged with a remark.
// (mlir_exec_<fmt>_<form> run these forms over all 65,536 scale-code pairs.)
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @contract_negzero(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<32xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<32xf4E2M1FN>
// CHECK: %[[Z:.+]] = arith.constant -0.000000e+00 : f32
// CHECK: scf.if
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK-NEXT: %[[D:.+]] = vector.contract {{.*}} %[[EA]], %[[EB]], %[[Z]] : vector<32xf32>, vector<32xf32> into f32
// CHECK: arith.mulf %[[D]], %{{.*}} : f32
// CHECK: } else {
// CHECK: arith.scaling_extf
// CHECK: vector.contract {{.*}}, %[[Z]] : vector<32xf32>, vector<32xf32> into f32
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @contract_negzero(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<32xf32>, vector<32xf32> into f32
  return %R : f32
}

// -----

// Constant codes inside the agree set: decided at compile time (2^0 = 1.0).
// CHECK-LABEL: func.func @contract_constant(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[D:.+]] = vector.contract {{.*}}, %[[Z]] : vector<32xf32>, vector<32xf32> into f32
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: arith.mulf %[[D]], %[[ONE]] : f32
// CHECK-NOT: arith.scaling_extf
func.func @contract_constant(%a: vector<32xf6E2M3FN>, %b: vector<32xf6E2M3FN>) -> f32 {
  %s = arith.constant dense<0x7F> : vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %s : vector<32xf6E2M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %s : vector<32xf6E2M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant 0.0 : f32
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the certified agree set {xa:0..252,xb:0..252,e:-143..117} of e2m3xe2m3_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<32xf32>, vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @multi_reduction(
// CHECK: scf.if
// CHECK: %[[P:.+]] = arith.mulf %{{.*}}, %{{.*}} : vector<32xf32>
// CHECK-NEXT: vector.multi_reduction <add>, %[[P]], %{{.*}} [0] : vector<32xf32> to f32
// CHECK: } else {
// CHECK: } {mxcert.guard = "xa:0..246,xb:0..246,e:-131..105", mxcert.post = "f32"}
func.func @multi_reduction(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %z = arith.constant 0.0 : f32
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..246,xb:0..246,e:-131..105} of e4m3xe4m3_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.multi_reduction <add>, %P, %z [0] : vector<32xf32> to f32
  return %R : f32
}

// -----

// The ordered sum from -0.0: seq over 33 leaves; no seq k = 33 table is committed, so the
// any-order one (which covers seq) serves.
// CHECK-LABEL: func.func @reduction_acc(
// CHECK: scf.if
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<32xf32> into f32
// CHECK: } {mxcert.guard = "xa:0..250,xb:0..250,e:-141..113", mxcert.post = "f32"}
func.func @reduction_acc(%a: vector<32xf6E3M2FN>, %b: vector<32xf6E3M2FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf6E3M2FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf6E3M2FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{of e3m2xe3m2_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P, %z : vector<32xf32> into f32
  return %R : f32
}

// -----

// A seq block is served by an any-order table where no seq table of its k exists.
// CHECK-LABEL: func.func @seq_k16(
// CHECK-NOT: arith.scaling_extf
// CHECK: vector.reduction <add>
func.func @seq_k16(%a: vector<16xf8E5M2>, %b: vector<16xf8E5M2>) -> f32 {
  %s = arith.constant dense<0x7F> : vector<16xf8E8M0FNU>
  %A = arith.scaling_extf %a, %s : vector<16xf8E5M2>, vector<16xf8E8M0FNU> to vector<16xf32>
  %B = arith.scaling_extf %b, %s : vector<16xf8E5M2>, vector<16xf8E8M0FNU> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the certified agree set {xa:0..239,xb:0..239,e:-117..92} of e5m2xe5m2_f32_rne_keep_k16_any_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @contract_k16(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @contract_k16(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<16xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<16xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E8M0FNU> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E8M0FNU> to vector<16xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark-re @below {{left unchanged: no certified table for e2m1 x e2m1, k = 17 (any, f32 rne keep, dequant/post bitwise) in '{{.*}}'; make one with `mxcert table --a e2m1 --b e2m1 --acc f32 --k 17 --tree any --lhs dequant --rhs post --relation bitwise -o e2m1xe2m1_f32_rne_keep_k17_any_dequant-post_bitwise.json`}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<16xf32>, vector<16xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @contract_acc_one(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @contract_acc_one(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %one = arith.constant 1.0 : f32
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %one : vector<32xf32>, vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @contract_acc_var(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @contract_acc_var(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %acc: f32) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %acc : vector<32xf32>, vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @contract_mixed(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @contract_mixed(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.extf %b : vector<32xf4E2M1FN> to vector<32xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{left unchanged: operand b of the `vector.contract` is not an `arith.scaling_extf`}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<32xf32>, vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @contract_masked(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @contract_masked(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %m: vector<32xi1>) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{left unchanged: the vector.contract is masked (`vector.mask`)}}
  %R = vector.mask %m { vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<32xf32>, vector<32xf32> into f32 } : vector<32xi1> -> f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @contract_max(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @contract_max(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant -0.0 : f32
  // expected-remark @below {{left unchanged: the vector.contract combines with <maximumf>, not <add>}}
  %R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maximumf>} %A, %B, %z : vector<32xf32>, vector<32xf32> into f32
  return %R : f32
}

// Blocks with no matching certified table are left unchanged; the remark names the `mxcert`
// command that would make the table.
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @k4(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @k4(%a: vector<4xf4E2M1FN>, %b: vector<4xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<4xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %P = arith.mulf %A, %B : vector<4xf32>
  // expected-remark-re @below {{left unchanged: no certified table for e2m1 x e2m1, k = 4 (seq or any, f32 rne keep, dequant/post bitwise) in '{{.*}}'; make one with `mxcert table --a e2m1 --b e2m1 --acc f32 --k 4 --tree seq --lhs dequant --rhs post --relation bitwise -o e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json` and pass guards=e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<4xf32> into f32
  return %R : f32
}

// -----

// Constant codes do not help without a table.
// CHECK-LABEL: func.func @k8_constant(
// CHECK: arith.scaling_extf
func.func @k8_constant(%a: vector<8xf8E4M3FN>, %b: vector<8xf8E4M3FN>) -> f32 {
  %sav = arith.constant dense<0x7F> : vector<8xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<8xf8E4M3FN>, vector<8xf8E8M0FNU> to vector<8xf32>
  %B = arith.scaling_extf %b, %sav : vector<8xf8E4M3FN>, vector<8xf8E8M0FNU> to vector<8xf32>
  %P = arith.mulf %A, %B : vector<8xf32>
  // expected-remark @below {{left unchanged: no certified table for e4m3 x e4m3, k = 8}}
  %R = vector.reduction <add>, %P : vector<8xf32> into f32
  return %R : f32
}

// -----

// Mixed element types: a table must match both.
// CHECK-LABEL: func.func @mixed_types(
// CHECK: arith.scaling_extf
func.func @mixed_types(%a: vector<2xf4E2M1FN>, %b: vector<2xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: no certified table for e2m1 x e4m3, k = 2}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Longer than any block mxcert certifies.
// CHECK-LABEL: func.func @k128(
// CHECK: arith.scaling_extf
func.func @k128(%a: vector<128xf4E2M1FN>, %b: vector<128xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<128xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<128xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %B = arith.scaling_extf %b, %sbv : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %P = arith.mulf %A, %B : vector<128xf32>
  // expected-remark @below {{left unchanged: no certified table for e2m1 x e2m1, k = 128: mxcert handles blocks of at most 64 elements}}
  %R = vector.reduction <add>, %P : vector<128xf32> into f32
  return %R : f32
}

// -----

// An empty tables-dir: even the committed configurations have no table; a missing one is an error.
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: mxcert-opt %s --mx-scale-placement=tables-dir=%t.empty -split-input-file 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: remark: mx-scale-placement: left unchanged: no certified table for e2m1 x e2m1, k = 2 (seq or any, f32 rne keep, dequant/post bitwise) in '{{.*}}.empty'
// RUN: not mxcert-opt %s --mx-scale-placement=tables-dir=%t.missing -split-input-file 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: mx-scale-placement: tables-dir '{{.*}}.missing' is not a directory
func.func @k2_no_dir(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{mx-scale-placement:}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

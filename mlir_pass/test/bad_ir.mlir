// Bad or unusual IR: the verifier's diagnostics for invalid ops (never a crash), and remarks,
// never a rewrite, for valid IR outside the pattern (scalable vectors, f16 products; scale
// vectors that are not one value per block are in scale_forms.mlir).
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s
// RUN: not mxcert-opt %s --mx-scale-placement -split-input-file 2>/dev/null | FileCheck %s --check-prefix=NOREWRITE
// NOREWRITE-NOT: scf.if
// NOREWRITE-NOT: arith.truncf

func.func @shape_mismatch(%a: vector<2xf4E2M1FN>, %s: vector<4xf8E8M0FNU>) -> vector<2xf32> {
  // expected-error @below {{'arith.scaling_extf' op all non-scalar operands/results must have the same shape and base type}}
  %A = arith.scaling_extf %a, %s : vector<2xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<2xf32>
  return %A : vector<2xf32>
}
// -----

func.func @narrowing(%a: vector<2xf32>, %s: vector<2xf8E8M0FNU>) -> vector<2xf16> {
  // expected-error @below {{'arith.scaling_extf' op operand types 'vector<2xf32>', 'vector<2xf8E8M0FNU>' and result type 'vector<2xf16>' are cast incompatible}}
  %A = arith.scaling_extf %a, %s : vector<2xf32>, vector<2xf8E8M0FNU> to vector<2xf16>
  return %A : vector<2xf16>
}
// -----

func.func @red_type(%p: vector<2xf32>) -> f16 {
  // expected-error @below {{'vector.reduction' op failed to verify that source operand and result have same element type}}
  %R = vector.reduction <add>, %p : vector<2xf32> into f16
  return %R : f16
}
// -----


// CHECK-LABEL: func.func @scalable(
// CHECK: arith.scaling_extf
func.func @scalable(%a: vector<[2]xf4E2M1FN>, %b: vector<[2]xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<[2]xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<[2]xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<[2]xf4E2M1FN>, vector<[2]xf8E8M0FNU> to vector<[2]xf32>
  %B = arith.scaling_extf %b, %sbv : vector<[2]xf4E2M1FN>, vector<[2]xf8E8M0FNU> to vector<[2]xf32>
  %P = arith.mulf %A, %B : vector<[2]xf32>
  // expected-remark @below {{left unchanged: the reduction is not over a fixed-length 1-D vector}}
  %R = vector.reduction <add>, %P : vector<[2]xf32> into f32
  return %R : f32
}
// -----

// CHECK-LABEL: func.func @f16_products(
// CHECK: arith.scaling_extf
func.func @f16_products(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f16 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf16>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf16>
  %P = arith.mulf %A, %B : vector<2xf16>
  // expected-remark @below {{left unchanged: the products and the reduction are f16, not f32}}
  %R = vector.reduction <add>, %P : vector<2xf16> into f16
  return %R : f16
}

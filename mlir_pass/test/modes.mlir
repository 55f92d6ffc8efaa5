// The `mode` option: runtime (a guard even for constant codes) and static (only constant codes);
// modes_off.mlir has off and the default (auto).
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement=mode=runtime -verify-diagnostics -split-input-file | FileCheck %s --check-prefix=RUNTIME
// RUN: mxcert-opt %s --mx-scale-placement=mode=static -verify-diagnostics=only-expected -split-input-file | FileCheck %s --check-prefix=STATIC

// RUNTIME-LABEL: func.func @constant_codes(
// RUNTIME: %[[XA:.+]] = arith.constant 127 : i32
// RUNTIME: %[[XB:.+]] = arith.constant 128 : i32
// RUNTIME: scf.if
// RUNTIME: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..122", mxcert.post = "f32"}
// STATIC-LABEL: func.func @constant_codes(
// STATIC-NOT: scf.if
// STATIC: %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// STATIC-NEXT: arith.mulf %{{.*}}, %[[TWO]] : f32
func.func @constant_codes(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x7F : f8E8M0FNU
  %sb = arith.constant 0x80 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{mx-scale-placement:}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// RUNTIME-LABEL: func.func @variable_codes(
// RUNTIME: scf.if
// STATIC-LABEL: func.func @variable_codes(
// STATIC-NOT: scf.if
// STATIC: arith.scaling_extf
func.func @variable_codes(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{mx-scale-placement:}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// A splat constant scale vector (no broadcast) counts as a constant code; one scale may serve
// both operands.
// RUNTIME-LABEL: func.func @splat_shared_scale(
// RUNTIME: arith.constant 130 : i32
// RUNTIME: arith.constant 130 : i32
// RUNTIME: scf.if
func.func @splat_shared_scale(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %s = arith.constant dense<0x82> : vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %s : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %s : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{mx-scale-placement:}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

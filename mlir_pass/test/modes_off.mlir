// mode=off leaves everything unchanged and says nothing; the default mode (auto) decides constant
// codes at compile time and guards variable ones.
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement=mode=off -split-input-file 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: mxcert-opt %s --mx-scale-placement=mode=off -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=SILENT --allow-empty
// RUN: mxcert-opt %s --mx-scale-placement -split-input-file 2>&1 | FileCheck %s --check-prefix=AUTO

// SILENT-NOT: {{.}}

// OFF-NOT: remark
// OFF-LABEL: func.func @constant_codes(
// OFF: arith.scaling_extf
// AUTO: remark: mx-scale-placement: rewrote dequant to post: scale codes xa = 127, xb = 128 (e = 1)
func.func @constant_codes(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x7F : f8E8M0FNU
  %sb = arith.constant 0x80 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// OFF-LABEL: func.func @variable_codes(
// OFF-NOT: scf.if
// AUTO: remark: mx-scale-placement: inserted a runtime guard
func.func @variable_codes(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// A splat constant scale vector (no broadcast) counts as a constant code; one scale may serve
// both operands.
// AUTO: remark: mx-scale-placement: rewrote dequant to post: scale codes xa = 130, xb = 130 (e = 6)
func.func @splat_shared_scale(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %s = arith.constant dense<0x82> : vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %s : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %s : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

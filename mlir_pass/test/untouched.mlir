// IR that --mx-scale-placement must leave unchanged, each with a remark naming the reason:
// fast-math flags (on the reduction, the multiply or an extension), an accumulator operand,
// mismatched or per-element scales, non-MX element types, a non-f32 accumulation, a masked
// reduction. Ordinary reductions that are not MX dot products get no remark at all.
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @reassoc_reduction(
// CHECK: arith.scaling_extf
// CHECK: vector.reduction <add>, %{{.*}} fastmath<reassoc>
// CHECK-NOT: scf.if
func.func @reassoc_reduction(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: `vector.reduction` carries fast-math flags <reassoc>, which allow results other than the dequant semantics the guard tables describe}}
  %R = vector.reduction <add>, %P fastmath<reassoc> : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @fast_mulf(
// CHECK: arith.mulf %{{.*}}, %{{.*}} fastmath<nnan,ninf,nsz> : vector<2xf32>
func.func @fast_mulf(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B fastmath<nnan,ninf,nsz> : vector<2xf32>
  // expected-remark @below {{left unchanged: `arith.mulf` carries fast-math flags <nnan,ninf,nsz>}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @fast_extension(
// CHECK: arith.scaling_extf {{.*}} fastmath<contract>
func.func @fast_extension(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav fastmath<contract> : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: `arith.scaling_extf` carries fast-math flags <contract>}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @accumulator(
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<2xf32> into f32
func.func @accumulator(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %acc: f32) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one (a certified table covers a zero accumulator as one more leaf; any other start value is not an MX block dot product)}}
  %R = vector.reduction <add>, %P, %acc : vector<2xf32> into f32
  return %R : f32
}

// -----

// Per-element scales (not one code broadcast over the block).
// CHECK-LABEL: func.func @per_element_scales(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @per_element_scales(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sav: vector<2xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one f8E8M0FNU value broadcast over the block (mismatched or per-element scales are not an MX block)}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// A non-splat constant scale vector: two different codes in one block.
// CHECK-LABEL: func.func @mismatched_constant_scales(
// CHECK: arith.scaling_extf
func.func @mismatched_constant_scales(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sb: f8E8M0FNU) -> f32 {
  %sav = arith.constant dense<[0x7F, 0x80]> : vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one f8E8M0FNU value broadcast over the block}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Scales of two types: an f8E4M3FN (NVFP4) scale on one side, f8E8M0FNU (MX) on the other.
// CHECK-LABEL: func.func @f8_scale(
// CHECK: arith.scaling_extf
func.func @f8_scale(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: vector<2xf8E4M3FN>, %sb: f8E8M0FNU) -> f32 {
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<2xf4E2M1FN>, vector<2xf8E4M3FN> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the scales of operands a and b have different types (f8E4M3FN and f8E8M0FNU): not one MX or NVFP4 block}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Scales of neither scale type (scaling_extf accepts other scale types).
// CHECK-LABEL: func.func @e5m2_scale(
// CHECK: arith.scaling_extf
func.func @e5m2_scale(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E5M2, %sb: f8E5M2) -> f32 {
  %sav = vector.broadcast %sa : f8E5M2 to vector<2xf8E5M2>
  %sbv = vector.broadcast %sb : f8E5M2 to vector<2xf8E5M2>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E5M2> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E5M2> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the scale of operand a has type f8E5M2, not f8E8M0FNU (MX) or f8E4M3FN (NVFP4)}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Non-MX element types.
// CHECK-LABEL: func.func @bf16_elements(
// CHECK: arith.scaling_extf
func.func @bf16_elements(%a: vector<2xbf16>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xbf16>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: operand a has element type bf16, not an MX element type (f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2)}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @f8E4M3FNUZ_elements(
// CHECK: arith.scaling_extf
func.func @f8E4M3FNUZ_elements(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FNUZ>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FNUZ>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: operand b has element type f8E4M3FNUZ, not an MX element type}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Only one operand is scaled.
// CHECK-LABEL: func.func @one_side_scaled(
// CHECK: arith.scaling_extf
func.func @one_side_scaled(%a: vector<2xf4E2M1FN>, %B: vector<2xf32>, %sa: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: operand b of the `arith.mulf` is not an `arith.scaling_extf`}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// An f64 accumulation is not covered by the f32 tables.
// CHECK-LABEL: func.func @f64_accumulation(
// CHECK: arith.scaling_extf
func.func @f64_accumulation(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f64 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf64>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf64>
  %P = arith.mulf %A, %B : vector<2xf64>
  // expected-remark @below {{left unchanged: the products and the reduction are f64, not f32 (the guard tables cover the f32 accumulator)}}
  %R = vector.reduction <add>, %P : vector<2xf64> into f64
  return %R : f64
}

// -----

// A masked reduction.
// CHECK-LABEL: func.func @masked(
// CHECK: vector.mask
func.func @masked(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU, %m: vector<2xi1>) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the vector.reduction is masked (`vector.mask`)}}
  %R = vector.mask %m { vector.reduction <add>, %P : vector<2xf32> into f32 } : vector<2xi1> -> f32
  return %R : f32
}

// -----

// Not MX dot products at all: no remark (expected-* lines would fail on one).
// CHECK-LABEL: func.func @ordinary(
// CHECK: vector.reduction <add>
// CHECK: vector.reduction <mul>
func.func @ordinary(%x: vector<4xf32>, %y: vector<4xf32>) -> (f32, f32) {
  %p = arith.mulf %x, %y : vector<4xf32>
  %r = vector.reduction <add>, %p : vector<4xf32> into f32
  %q = vector.reduction <mul>, %x : vector<4xf32> into f32
  return %r, %q : f32, f32
}

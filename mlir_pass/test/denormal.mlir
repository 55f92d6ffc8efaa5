// The floating-point environment (docs/mlir.md, "Denormal mode"): code that runs with f32
// subnormals flushed (FTZ) or read as zero (DAZ) is served only by tables certified for that
// mode (--subnormals ftz / daz), never by an ieee (keep) table. The mode comes from the pass
// option denormal=ieee|ftz|daz, else from the function's LLVM attributes
// (denormal_fp_math_f32, else denormal_fp_math, or their passthrough entries), else ieee.
// Every remark says which mode it assumed and where that came from.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mxcert table --format mxfp4 --k 2 --lhs dequant --rhs post --subnormals ftz -o %t/ftz.json
// RUN: %mxcert table --format mxfp4 --k 2 --lhs dequant --rhs post --subnormals daz -o %t/daz.json
// RUN: %mxcert table --format mxfp4 --k 2 --lhs dequant --rhs post -o %t/keep.json
//
// The option: an ftz table serves denormal=ftz; a function whose attribute says otherwise,
// or names a mode mxcert does not model, or whose two attributes disagree, is left alone.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t/ftz.json denormal=ftz" 2>&1 | FileCheck %s --check-prefix=FTZ
// FTZ: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:2..252,xb:2..252,e:-124..122} of ftz.json, dequant elsewhere [denormal mode ftz: the pass option]
// FTZ: remark: mx-scale-placement: left unchanged: the pass option denormal=ftz contradicts the function's denormal_fp_math_f32 = "preserve-sign,preserve-sign" (denormal mode daz)
// FTZ: remark: mx-scale-placement: left unchanged: the function's denormal-fp-math "positive-zero,positive-zero" is not a mode mxcert models (ieee; ftz = "preserve-sign,ieee"; daz = "preserve-sign,preserve-sign")
// FTZ: remark: mx-scale-placement: inserted a runtime guard: {{.*}} of ftz.json, dequant elsewhere [denormal mode ftz: the pass option, as the function's passthrough "denormal-fp-math" = "preserve-sign,ieee"]
// FTZ: remark: mx-scale-placement: left unchanged: the function's denormal_fp_math = "preserve-sign,ieee" and passthrough "denormal-fp-math" = "ieee" disagree
// FTZ: remark: mx-scale-placement: left unchanged: the function's denormal-fp-math "dynamic" is not a mode mxcert models
//
// Without the option the ieee default needs a keep table: the ftz table does not fit @dot,
// nor @dot_daz (daz); the passthrough entry makes @dot_passthrough ftz.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t/ftz.json" 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: mx-scale-placement: left unchanged: guard table '{{.*}}ftz.json' does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, f32 rne ftz, dequant/post bitwise; the IR needs e2m1 x e2m1, k = 2, tree seq, f32 rne keep, dequant/post bitwise [denormal mode ieee: the default, no option or function attribute]
// DEFAULT: left unchanged: guard table '{{.*}}ftz.json' does not fit this block: {{.*}} the IR needs {{.*}} f32 rne daz, {{.*}} [denormal mode daz: the function's denormal_fp_math_f32 = "preserve-sign,preserve-sign"]
// DEFAULT: remark: mx-scale-placement: inserted a runtime guard: {{.*}} of ftz.json, dequant elsewhere [denormal mode ftz: the function's passthrough "denormal-fp-math" = "preserve-sign,ieee"]
//
// denormal=daz with the keep table: never an ieee table under flushed subnormals.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t/keep.json denormal=daz" 2>&1 | FileCheck %s --check-prefix=KEEPDAZ
// KEEPDAZ: left unchanged: guard table '{{.*}}keep.json' does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, f32 rne keep, dequant/post bitwise; the IR needs e2m1 x e2m1, k = 2, tree seq, f32 rne daz, dequant/post bitwise [denormal mode daz: the pass option]
//
// The function attribute decides without the option: @dot_daz gets the daz table.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t/daz.json" 2>&1 | FileCheck %s --check-prefix=ATTR
// ATTR: left unchanged: guard table '{{.*}}daz.json' does not fit this block: {{.*}} the IR needs {{.*}} f32 rne keep, {{.*}} [denormal mode ieee: the default, no option or function attribute]
// ATTR: remark: mx-scale-placement: inserted a runtime guard: {{.*}} of daz.json, dequant elsewhere [denormal mode daz: the function's denormal_fp_math_f32 = "preserve-sign,preserve-sign"]
//
// The committed tables: denormal=daz looks up the k = 32 daz table by name.
// RUN: mxcert-opt %S/Inputs/dot_k32.mlir --mx-scale-placement="tables-dir=%tables denormal=daz" 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: remark: mx-scale-placement: inserted a runtime guard: {{.*}} of e2m1xe2m1_f32_rne_daz_k32_seq_dequant-post_bitwise.json, dequant elsewhere [denormal mode daz: the pass option]
//
// Under ftz/daz a table whose agree set reaches values below 2^-126 (here xa = 0, 1: the
// dequantized elements 2^-127 a_i, 2^-126 a_i with a_i = 0.5) is not used: x86 flushes results
// that round up to 2^-126, which the model's ftz keeps (docs/mlir.md, "Tininess").
// RUN: mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_ftz_tiny.json allow-uncertified=true denormal=ftz" 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: remark: mx-scale-placement: left unchanged: the agree region {xa:0..252,xb:2..252,e:-124..121} reaches values below 2^-126, where hardware that detects tininess before rounding (x86) flushes results that the model's ftz keeps (e2m1_k2_ftz_tiny.json) [denormal mode ftz: the pass option]
// TINY-NOT: scf.if
//
// A bad option value is an error (exit 1, nothing printed).
// RUN: not mxcert-opt %s --mx-scale-placement="denormal=fast" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: mx-scale-placement: denormal='fast' is not a denormal mode (expected ieee, ftz or daz)
// RUN: not test -s %t/out.mlir

func.func @dot(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @dot_daz(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32
    attributes {denormal_fp_math_f32 = "preserve-sign,preserve-sign"} {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @dot_positive_zero(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32
    attributes {denormal_fp_math = "positive-zero,positive-zero"} {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @dot_passthrough(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32
    attributes {passthrough = [["denormal-fp-math", "preserve-sign,ieee"]]} {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @dot_disagree(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32
    attributes {denormal_fp_math = "preserve-sign,ieee", passthrough = [["denormal-fp-math", "ieee"]]} {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @dot_dynamic(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32
    attributes {denormal_fp_math_f32 = "dynamic"} {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

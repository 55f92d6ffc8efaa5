// NVFP4 blocks (docs/mlir.md, "NVFP4"): f4E2M1FN elements with f8E4M3FN scales. With the
// default search the pass finds the committed certs/nvfp4 set (k = 16). Runtime guard: the
// codes are the scales' 8 bits (128..255, the negative e4m3 values, lie in no region: the
// original computation); post is D * S with S = sa * sb from the codes as f8E4M3FN values
// (exact in f32), one f32 multiplication. Constant codes decide at compile time: S folds to a
// constant, code 127 (NaN) and codes outside the agree set keep the original ops.
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s
// RUN: mxcert-opt %s --mx-split-blocks --mx-scale-placement -split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK-LABEL: func.func @runtime(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<16xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<16xf4E2M1FN>, %[[SA:[a-z0-9]+]]: f8E4M3FN, %[[SB:[a-z0-9]+]]: f8E4M3FN
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E4M3FN to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E4M3FN to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK: %[[K127:.+]] = arith.constant 127 : i32
// CHECK-NEXT: arith.cmpi sle, %[[XA]], %[[K127]] : i32
// CHECK: %[[R:.+]] = scf.if %{{.+}} -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<16xf4E2M1FN> to vector<16xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<16xf4E2M1FN> to vector<16xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<16xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<16xf32> into f32
// CHECK-NEXT:   %[[TA:.+]] = arith.trunci %[[XA]] : i32 to i8
// CHECK-NEXT:   %[[FA:.+]] = arith.bitcast %[[TA]] : i8 to f8E4M3FN
// CHECK-NEXT:   %[[VA:.+]] = arith.extf %[[FA]] : f8E4M3FN to f32
// CHECK-NEXT:   %[[TB:.+]] = arith.trunci %[[XB]] : i32 to i8
// CHECK-NEXT:   %[[FB:.+]] = arith.bitcast %[[TB]] : i8 to f8E4M3FN
// CHECK-NEXT:   %[[VB:.+]] = arith.extf %[[FB]] : f8E4M3FN to f32
// CHECK-NEXT:   %[[S:.+]] = arith.mulf %[[VA]], %[[VB]] : f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   arith.scaling_extf %[[A]], %{{.+}} : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
// CHECK:      } {mxcert.guard = "xa:1..125,xb:1..125,e:-252..-128|xa:0..127,xb:0..127,e:-127..0", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @runtime(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %sa: f8E4M3FN, %sb: f8E4M3FN) -> f32 {
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:1..125,xb:1..125,e:-252..-128|xa:0..127,xb:0..127,e:-127..0} of e2m1xe2m1-e4m3_f32_rne_keep_k16_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// 1.5 (code 0x3C = 60) times 0.375 (0x2C = 44): S = 0.5625, exact.
// CHECK-LABEL: func.func @constant(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[D:.+]] = vector.reduction <add>, %{{.+}} : vector<16xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 5.625000e-01 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @constant(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>) -> f32 {
  %sa = arith.constant 1.5 : f8E4M3FN
  %sb = arith.constant 0.375 : f8E4M3FN
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 60, xb = 44 lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @nan_code(
// CHECK: arith.scaling_extf
func.func @nan_code(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x7F : f8E4M3FN
  %sb = arith.constant 0x38 : f8E4M3FN
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 127, xb = 56: code 127 is NaN (both placements give NaN; dequant already does)}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// A negative e4m3 scale (0x80, -0.0): in no table.
// CHECK-LABEL: func.func @negative_scale(
// CHECK: arith.scaling_extf
func.func @negative_scale(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x80 : f8E4M3FN
  %sb = arith.constant 0x38 : f8E4M3FN
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 128, xb = 56 lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @fp8_elements(
// CHECK: arith.scaling_extf
func.func @fp8_elements(%a: vector<16xf8E4M3FN>, %b: vector<16xf8E4M3FN>, %sa: f8E4M3FN, %sb: f8E4M3FN) -> f32 {
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf8E4M3FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf8E4M3FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{left unchanged: f8E4M3FN scales (NVFP4) with f8E4M3FN x f8E4M3FN elements: mxcert's NVFP4 blocks have f4E2M1FN elements on both sides}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @mixed_scale_types(
// CHECK: arith.scaling_extf
func.func @mixed_scale_types(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E4M3FN) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<16xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E8M0FNU> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{left unchanged: the scales of operands a and b have different types (f8E8M0FNU and f8E4M3FN): not one MX or NVFP4 block}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @k8(
// CHECK: arith.scaling_extf
func.func @k8(%a: vector<8xf4E2M1FN>, %b: vector<8xf4E2M1FN>, %sa: f8E4M3FN, %sb: f8E4M3FN) -> f32 {
  %sav = vector.broadcast %sa : f8E4M3FN to vector<8xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<8xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<8xf4E2M1FN>, vector<8xf8E4M3FN> to vector<8xf32>
  %B = arith.scaling_extf %b, %sbv : vector<8xf4E2M1FN>, vector<8xf8E4M3FN> to vector<8xf32>
  %P = arith.mulf %A, %B : vector<8xf32>
  // expected-remark-re @below {{left unchanged: no certified table for e2m1 x e2m1 (nvfp4), k = 8 {{.*}}make one with `mxcert table --format nvfp4 --acc f32 --k 8 --tree seq --lhs dequant --rhs post --relation bitwise -o e2m1xe2m1-e4m3_f32_rne_keep_k8_seq_dequant-post_bitwise.json`}}
  %R = vector.reduction <add>, %P : vector<8xf32> into f32
  return %R : f32
}

// -----

// ftz (the function's attribute): the committed ftz table; daz: no NVFP4 semantics, no table.
// CHECK-LABEL: func.func @ftz(
// CHECK: scf.if
func.func @ftz(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %sa: f8E4M3FN, %sb: f8E4M3FN) -> f32 attributes {denormal_fp_math_f32 = "preserve-sign,ieee"} {
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:1..125,xb:1..125,e:-252..-128|xa:0..127,xb:0..127,e:-127..0} of e2m1xe2m1-e4m3_f32_rne_ftz_k16_seq_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// CHECK-LABEL: func.func @daz(
// CHECK-NOT: scf.if
func.func @daz(%a: vector<16xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %sa: f8E4M3FN, %sb: f8E4M3FN) -> f32 attributes {denormal_fp_math_f32 = "preserve-sign"} {
  %sav = vector.broadcast %sa : f8E4M3FN to vector<16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %P = arith.mulf %A, %B : vector<16xf32>
  // expected-remark @below {{left unchanged: an NVFP4 block (f8E4M3FN scales) under denormal mode daz}}
  %R = vector.reduction <add>, %P : vector<16xf32> into f32
  return %R : f32
}

// -----

// A tile summed by vector.contract (order left to the lowering): no any-order NVFP4 tables.
// CHECK-LABEL: func.func @tile(
// CHECK: vector.contract
func.func @tile(%a: vector<4x16xf4E2M1FN>, %b: vector<16xf4E2M1FN>, %sa: f8E4M3FN, %sb: f8E4M3FN) -> vector<4xf32> {
  %sav = vector.broadcast %sa : f8E4M3FN to vector<4x16xf8E4M3FN>
  %sbv = vector.broadcast %sb : f8E4M3FN to vector<16xf8E4M3FN>
  %A = arith.scaling_extf %a, %sav : vector<4x16xf4E2M1FN>, vector<4x16xf8E4M3FN> to vector<4x16xf32>
  %B = arith.scaling_extf %b, %sbv : vector<16xf4E2M1FN>, vector<16xf8E4M3FN> to vector<16xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  // expected-remark @below {{left unchanged: an NVFP4 block (f8E4M3FN scales) summed by vector.contract, whose lowering chooses the order: mxcert has no any-order NVFP4 tables}}
  %R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<4x16xf32>, vector<16xf32> into vector<4xf32>
  return %R : vector<4xf32>
}

// -----

// A wide K = 64 in 4 NVFP4 blocks of 16 (per-block e4m3 scales, a vector<4x1> broadcast and
// reshaped): --mx-split-blocks splits the contract into blocks, each guarded with the k = 16 table.
// SPLIT: remark: mx-split-blocks: split the K = 64 vector.contract (its lowering chooses the order) into 4 blocks of 16
// SPLIT-COUNT-4: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:1..125,xb:1..125,e:-252..-128|xa:0..127,xb:0..127,e:-127..0} of e2m1xe2m1-e4m3_f32_rne_keep_k16_seq_dequant-post_bitwise.json
// SPLIT-LABEL: func.func @contract_k64(
// SPLIT-COUNT-4: mxcert.guard
// CHECK-LABEL: func.func @contract_k64(
// CHECK: vector.contract
func.func @contract_k64(%a: vector<64xf4E2M1FN>, %b: vector<64xf4E2M1FN>, %sa4: vector<4x1xf8E4M3FN>, %sb4: vector<4x1xf8E4M3FN>, %acc: f32) -> f32 {
  %sab = vector.broadcast %sa4 : vector<4x1xf8E4M3FN> to vector<4x16xf8E4M3FN>
  %sa = vector.shape_cast %sab : vector<4x16xf8E4M3FN> to vector<64xf8E4M3FN>
  %sbb = vector.broadcast %sb4 : vector<4x1xf8E4M3FN> to vector<4x16xf8E4M3FN>
  %sb = vector.shape_cast %sbb : vector<4x16xf8E4M3FN> to vector<64xf8E4M3FN>
  %A = arith.scaling_extf %a, %sa : vector<64xf4E2M1FN>, vector<64xf8E4M3FN> to vector<64xf32>
  %B = arith.scaling_extf %b, %sb : vector<64xf4E2M1FN>, vector<64xf8E4M3FN> to vector<64xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0}}
  %R = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %A, %B, %acc : vector<64xf32>, vector<64xf32> into f32
  return %R : f32
}

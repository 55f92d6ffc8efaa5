// Compile-time decisions of --mx-scale-placement (constant scale codes): every element type at
// k = 2 on both sides of each bound of the certified agree set, k = 1 and 32, and the NaN code.
// A rewrite emits the post placement, R = rnd(2^e * Seq_i rnd(a_i b_i)): with 2^e an exact f32
// constant (normal or subnormal: e in [-149, 127]) ONE f32 multiply, otherwise (k = 1's e up to
// 250) 2^e an exact f64 constant and ONE rounding (truncf) at the end.
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @e2m1_k2_yes_ehi(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<2xf4E2M1FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf4E2M1FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf4E2M1FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 5.31691198E{{[+]}}36 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k2_yes_ehi(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xF9 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 249, xb = 127 (e = 122) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k2_no_ehi(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m1_k2_no_ehi(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xFA : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 250, xb = 127 (e = 123) lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k2_yes_elo(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<2xf4E2M1FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf4E2M1FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf4E2M1FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 5.605190e-45 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k2_yes_elo(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x6B : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 0, xb = 107 (e = -147) lie in}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k2_no_elo(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m1_k2_no_elo(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x6A : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 0, xb = 106 (e = -148) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k2_no_xa(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m1_k2_no_xa(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xFD : f8E8M0FNU
  %sb = arith.constant 0x00 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 253, xb = 0 (e = -1) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m3_k2_yes_ehi(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf6E2M3FN>, %[[B:[a-z0-9]+]]: vector<2xf6E2M3FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf6E2M3FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf6E2M3FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 5.31691198E{{[+]}}36 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m3_k2_yes_ehi(%a: vector<2xf6E2M3FN>, %b: vector<2xf6E2M3FN>) -> f32 {
  %sa = arith.constant 0xF9 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 249, xb = 127 (e = 122) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m3_k2_no_ehi(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m3_k2_no_ehi(%a: vector<2xf6E2M3FN>, %b: vector<2xf6E2M3FN>) -> f32 {
  %sa = arith.constant 0xFA : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 250, xb = 127 (e = 123) lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m3_k2_yes_elo(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf6E2M3FN>, %[[B:[a-z0-9]+]]: vector<2xf6E2M3FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf6E2M3FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf6E2M3FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 8.968310e-44 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m3_k2_yes_elo(%a: vector<2xf6E2M3FN>, %b: vector<2xf6E2M3FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x6F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 0, xb = 111 (e = -143) lie in}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m3_k2_no_elo(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m3_k2_no_elo(%a: vector<2xf6E2M3FN>, %b: vector<2xf6E2M3FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x6E : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 0, xb = 110 (e = -144) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m3_k2_no_xa(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m3_k2_no_xa(%a: vector<2xf6E2M3FN>, %b: vector<2xf6E2M3FN>) -> f32 {
  %sa = arith.constant 0xFD : f8E8M0FNU
  %sb = arith.constant 0x00 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 253, xb = 0 (e = -1) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e3m2_k2_yes_ehi(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf6E3M2FN>, %[[B:[a-z0-9]+]]: vector<2xf6E3M2FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf6E3M2FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf6E3M2FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 3.323070e{{[+]}}35 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e3m2_k2_yes_ehi(%a: vector<2xf6E3M2FN>, %b: vector<2xf6E3M2FN>) -> f32 {
  %sa = arith.constant 0xF5 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 245, xb = 127 (e = 118) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e3m2_k2_no_ehi(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e3m2_k2_no_ehi(%a: vector<2xf6E3M2FN>, %b: vector<2xf6E3M2FN>) -> f32 {
  %sa = arith.constant 0xF6 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 246, xb = 127 (e = 119) lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e3m2_k2_yes_elo(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf6E3M2FN>, %[[B:[a-z0-9]+]]: vector<2xf6E3M2FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf6E3M2FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf6E3M2FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 3.587320e-43 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e3m2_k2_yes_elo(%a: vector<2xf6E3M2FN>, %b: vector<2xf6E3M2FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x71 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 0, xb = 113 (e = -141) lie in}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e3m2_k2_no_elo(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e3m2_k2_no_elo(%a: vector<2xf6E3M2FN>, %b: vector<2xf6E3M2FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x70 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 0, xb = 112 (e = -142) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e3m2_k2_no_xa(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e3m2_k2_no_xa(%a: vector<2xf6E3M2FN>, %b: vector<2xf6E3M2FN>) -> f32 {
  %sa = arith.constant 0xFB : f8E8M0FNU
  %sb = arith.constant 0x00 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 251, xb = 0 (e = -3) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k2_yes_ehi(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf8E4M3FN>, %[[B:[a-z0-9]+]]: vector<2xf8E4M3FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf8E4M3FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf8E4M3FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 1.29807421E{{[+]}}33 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e4m3_k2_yes_ehi(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xED : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 237, xb = 127 (e = 110) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k2_no_ehi(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e4m3_k2_no_ehi(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xEE : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 238, xb = 127 (e = 111) lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k2_yes_elo(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf8E4M3FN>, %[[B:[a-z0-9]+]]: vector<2xf8E4M3FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf8E4M3FN> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf8E4M3FN> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 3.673420e-40 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e4m3_k2_yes_elo(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x7B : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 0, xb = 123 (e = -131) lie in}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k2_no_elo(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e4m3_k2_no_elo(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x7A : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 0, xb = 122 (e = -132) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k2_no_xa(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e4m3_k2_no_xa(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xF7 : f8E8M0FNU
  %sb = arith.constant 0x00 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 247, xb = 0 (e = -7) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k2_yes_ehi(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf8E5M2>, %[[B:[a-z0-9]+]]: vector<2xf8E5M2>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf8E5M2> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf8E5M2> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 7.92281625E{{[+]}}28 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e5m2_k2_yes_ehi(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>) -> f32 {
  %sa = arith.constant 0xDF : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 223, xb = 127 (e = 96) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k2_no_ehi(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e5m2_k2_no_ehi(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>) -> f32 {
  %sa = arith.constant 0xE0 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 224, xb = 127 (e = 97) lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k2_yes_elo(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf8E5M2>, %[[B:[a-z0-9]+]]: vector<2xf8E5M2>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<2xf8E5M2> to vector<2xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<2xf8E5M2> to vector<2xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 6.01853108E-36 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e5m2_k2_yes_elo(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x89 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 0, xb = 137 (e = -117) lie in}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k2_no_elo(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e5m2_k2_no_elo(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>) -> f32 {
  %sa = arith.constant 0x00 : f8E8M0FNU
  %sb = arith.constant 0x88 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 0, xb = 136 (e = -118) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k2_no_xa(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e5m2_k2_no_xa(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>) -> f32 {
  %sa = arith.constant 0xF0 : f8E8M0FNU
  %sb = arith.constant 0x00 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 240, xb = 0 (e = -14) lie outside}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k1_yes(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<1xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<1xf4E2M1FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<1xf4E2M1FN> to vector<1xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<1xf4E2M1FN> to vector<1xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<1xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<1xf32> into f32
// CHECK-NEXT: %[[D64:.+]] = arith.extf %[[D]] : f32 to f64
// CHECK-NEXT: %[[S:.+]] = arith.constant 1.8092513943330656E{{[+]}}75 : f64
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[D64]], %[[S]] : f64
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[M]] : f64 to f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k1_yes(%a: vector<1xf4E2M1FN>, %b: vector<1xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xFC : f8E8M0FNU
  %sb = arith.constant 0xFC : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<1xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<1xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %B = arith.scaling_extf %b, %sbv : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %P = arith.mulf %A, %B : vector<1xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 252, xb = 252 (e = 250) lie in the certified agree set {xa:0..252,xb:0..252,e:-254..250} of e2m1xe2m1_f32_rne_keep_k1_seq_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<1xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k1_no(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m1_k1_no(%a: vector<1xf4E2M1FN>, %b: vector<1xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xFC : f8E8M0FNU
  %sb = arith.constant 0xFD : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<1xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<1xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %B = arith.scaling_extf %b, %sbv : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %P = arith.mulf %A, %B : vector<1xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 252, xb = 253 (e = 251) lie outside}}
  %R = vector.reduction <add>, %P : vector<1xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k1_yes(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<1xf8E4M3FN>, %[[B:[a-z0-9]+]]: vector<1xf8E4M3FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<1xf8E4M3FN> to vector<1xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<1xf8E4M3FN> to vector<1xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<1xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<1xf32> into f32
// CHECK-NEXT: %[[D64:.+]] = arith.extf %[[D]] : f32 to f64
// CHECK-NEXT: %[[S:.+]] = arith.constant 4.4171176619459608E{{[+]}}71 : f64
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[D64]], %[[S]] : f64
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[M]] : f64 to f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e4m3_k1_yes(%a: vector<1xf8E4M3FN>, %b: vector<1xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xF6 : f8E8M0FNU
  %sb = arith.constant 0xF6 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<1xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<1xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<1xf8E4M3FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %B = arith.scaling_extf %b, %sbv : vector<1xf8E4M3FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %P = arith.mulf %A, %B : vector<1xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 246, xb = 246 (e = 238) lie in the certified agree set {xa:0..246,xb:0..246,e:-254..238} of e4m3xe4m3_f32_rne_keep_k1_seq_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<1xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k1_no(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e4m3_k1_no(%a: vector<1xf8E4M3FN>, %b: vector<1xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xF6 : f8E8M0FNU
  %sb = arith.constant 0xF7 : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<1xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<1xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<1xf8E4M3FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %B = arith.scaling_extf %b, %sbv : vector<1xf8E4M3FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %P = arith.mulf %A, %B : vector<1xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 246, xb = 247 (e = 239) lie outside}}
  %R = vector.reduction <add>, %P : vector<1xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k32_yes(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<32xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<32xf4E2M1FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<32xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<32xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 1.66153499E{{[+]}}35 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k32_yes(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xF4 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 244, xb = 127 (e = 117) lie in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k32_no(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e2m1_k32_no(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xF5 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 245, xb = 127 (e = 118) lie outside}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k32_yes(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<32xf8E4M3FN>, %[[B:[a-z0-9]+]]: vector<32xf8E4M3FN>
// CHECK-NOT: scaling_extf
// CHECK: %[[EA:.+]] = arith.extf %[[A]] : vector<32xf8E4M3FN> to vector<32xf32>
// CHECK-NEXT: %[[EB:.+]] = arith.extf %[[B]] : vector<32xf8E4M3FN> to vector<32xf32>
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<32xf32>
// CHECK-NEXT: %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<32xf32> into f32
// CHECK-NEXT: %[[S:.+]] = arith.constant 4.05648192E{{[+]}}31 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[D]], %[[S]] : f32
// CHECK-NEXT: return %[[R]] : f32
func.func @e4m3_k32_yes(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xE8 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 232, xb = 127 (e = 105) lie in the certified agree set {xa:0..246,xb:0..246,e:-131..105} of e4m3xe4m3_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k32_no(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @e4m3_k32_no(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>) -> f32 {
  %sa = arith.constant 0xE9 : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 233, xb = 127 (e = 106) lie outside}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @nan_scale(
// CHECK: arith.scaling_extf
// CHECK-NEXT: arith.scaling_extf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: vector.reduction <add>
// CHECK-NEXT: return
func.func @nan_scale(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0xFF : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 255, xb = 127: code 255 is NaN (both placements give NaN; dequant already does)}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

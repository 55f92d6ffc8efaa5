// The forms of a block scale that --mx-scale-placement accepts besides SPEC §8's broadcast
// f8E8M0FNU scalar: a broadcast `vector<1xf8E8M0FNU>` (the example of arith.scaling_extf's own
// documentation), the code's bits as i8 (scalar or vector<1xi8>) broadcast and bitcast to
// f8E8M0FNU, and constants seen through those casts. The guard reads the same 8-bit code in
// every form. A scale vector that is not one value per block is left unchanged with a remark.
// (mlir_exec_e2m1 and mlir_exec_e4m3 run the vector<1x...> and i8 forms over all 65,536
// scale-code pairs.)
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @vector1(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: vector<1xf8E8M0FNU>, %[[SB:[a-z0-9]+]]: vector<1xf8E8M0FNU>
// CHECK: %[[EA:.+]] = vector.extract %[[SA]][0] : f8E8M0FNU from vector<1xf8E8M0FNU>
// CHECK-NEXT: %[[XA8:.+]] = arith.bitcast %[[EA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[EB:.+]] = vector.extract %[[SB]][0] : f8E8M0FNU from vector<1xf8E8M0FNU>
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[EB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK: scf.if
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..122", mxcert.post = "f32"}
func.func @vector1(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: vector<1xf8E8M0FNU>, %sb: vector<1xf8E8M0FNU>) -> f32 {
  %sav = vector.broadcast %sa : vector<1xf8E8M0FNU> to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<1xf8E8M0FNU> to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @i8_bits(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: i8, %[[SB:[a-z0-9]+]]: vector<1xi8>
// CHECK: %[[XA:.+]] = arith.extui %[[SA]] : i8 to i32
// CHECK-NEXT: %[[EB:.+]] = vector.extract %[[SB]][0] : i8 from vector<1xi8>
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[EB]] : i8 to i32
// CHECK: scf.if
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..122", mxcert.post = "f32"}
func.func @i8_bits(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: i8, %sb: vector<1xi8>) -> f32 {
  %sai = vector.broadcast %sa : i8 to vector<2xi8>
  %sbi = vector.broadcast %sb : vector<1xi8> to vector<2xi8>
  %sav = arith.bitcast %sai : vector<2xi8> to vector<2xf8E8M0FNU>
  %sbv = arith.bitcast %sbi : vector<2xi8> to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Constants through the casts: codes 127 and 127 (e = 0) are decided at compile time.
// CHECK-LABEL: func.func @constant_forms(
// CHECK-NOT: scaling_extf
// CHECK-NOT: scf.if
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.mulf %{{.*}}, %[[ONE]] : f32
func.func @constant_forms(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %ca = arith.constant dense<0x7F> : vector<1xf8E8M0FNU>
  %sav = vector.broadcast %ca : vector<1xf8E8M0FNU> to vector<2xf8E8M0FNU>
  %cb = arith.constant 127 : i8
  %sbi = vector.broadcast %cb : i8 to vector<2xi8>
  %sbv = arith.bitcast %sbi : vector<2xi8> to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Constant codes outside the certified set: left as dequant (e = 250 > 122).
// CHECK-LABEL: func.func @constant_outside(
// CHECK: arith.scaling_extf
func.func @constant_outside(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %ca = arith.constant dense<250> : vector<2xi8>
  %sav = arith.bitcast %ca : vector<2xi8> to vector<2xf8E8M0FNU>
  %cb = arith.constant dense<0xFE> : vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %cb : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: scale codes xa = 250, xb = 254 (e = 250) lie outside the certified agree set}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Per-element bits, a broadcast of a longer vector: not one scale per block.
// CHECK-LABEL: func.func @per_element_bits(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @per_element_bits(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: vector<2xi8>, %sb: f8E8M0FNU) -> f32 {
  %sav = arith.bitcast %sa : vector<2xi8> to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one f8E8M0FNU value broadcast over the block}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @broadcast_of_two(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @broadcast_of_two(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: vector<2xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : vector<2xf8E8M0FNU> to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is broadcast from vector<2xf8E8M0FNU>, not from one f8E8M0FNU value}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// A vector.shuffle whose block takes two lanes (two scales in one block).
// CHECK-LABEL: func.func @shuffle_two_lanes(
// CHECK-NOT: scf.if
func.func @shuffle_two_lanes(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa2: vector<2xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sa = vector.shuffle %sa2, %sa2 [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1] : vector<2xf8E8M0FNU>, vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one scale code for the block: it is a vector.shuffle whose mask takes the block's elements 0..31 from more than one lane (two scales in one block)}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// One lane of a constant vector: the code is known at compile time (lane 1 is 0x80: xa = 128).
// CHECK-LABEL: func.func @shuffle_constant(
// CHECK-NOT: scf.if
// CHECK-NOT: arith.scaling_extf
func.func @shuffle_constant(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> f32 {
  %c = arith.constant dense<[0x7F, 0x80]> : vector<2xf8E8M0FNU>
  %sa = vector.shuffle %c, %c [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1] : vector<2xf8E8M0FNU>, vector<2xf8E8M0FNU>
  %sb0 = arith.constant 0x7F : f8E8M0FNU
  %sbv = vector.broadcast %sb0 : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 128, xb = 127 (e = 1) lie in the certified agree set}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// A lane of the second operand (3 = lane 1 of %s2), itself a broadcast: the guard reads %s.
// CHECK-LABEL: func.func @shuffle_of_broadcast(
// CHECK-SAME: %{{[a-z0-9]+}}: vector<32xf4E2M1FN>, %{{[a-z0-9]+}}: vector<32xf4E2M1FN>, %[[S:[a-z0-9]+]]: f8E8M0FNU
// CHECK: arith.bitcast %[[S]] : f8E8M0FNU to i8
// CHECK: scf.if
func.func @shuffle_of_broadcast(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %s: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %s2 = vector.broadcast %s : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sa = vector.shuffle %s2, %s2 [3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3] : vector<2xf8E8M0FNU>, vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

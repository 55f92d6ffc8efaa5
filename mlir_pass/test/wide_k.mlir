// A K wider than one MX block: each 32-element block reduced on its own (its dot product is an
// MX block, rewritten like any other), the blocks' sums added afterwards (docs/mlir.md, "Wide
// K"). The blocks' elements and scales may come from one K = 128 vector through
// vector.extract_strided_slice, the scales from a per-block vector<4x1xf8E8M0FNU> broadcast and
// reshaped (shape_cast) to one code per element, or from a loop over the blocks (scf.for).
// One reduction over several blocks, or a slice that straddles two, is not an MX block; an
// ordered reduction from a loop-carried accumulator does not split into per-block sums.
// (mlir_exec_e2m1_wide-k runs the slice and loop kernels over all 65,536 code pairs.)
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @wide_k128(
// CHECK-SAME: %[[SA4:[a-z0-9]+]]: vector<4x1xf8E8M0FNU>, %[[SB4:[a-z0-9]+]]: vector<4x1xf8E8M0FNU>
// CHECK: vector.extract %[[SA4]][0, 0] : f8E8M0FNU from vector<4x1xf8E8M0FNU>
// CHECK: vector.extract %[[SB4]][0, 0] : f8E8M0FNU from vector<4x1xf8E8M0FNU>
// CHECK: mxcert.guard
// CHECK: vector.extract %[[SA4]][1, 0]
// CHECK: mxcert.guard
// CHECK: vector.extract %[[SA4]][2, 0]
// CHECK: mxcert.guard
// CHECK: vector.extract %[[SA4]][3, 0]
// CHECK: mxcert.guard
func.func @wide_k128(%a: vector<128xf4E2M1FN>, %b: vector<128xf4E2M1FN>, %sa4: vector<4x1xf8E8M0FNU>, %sb4: vector<4x1xf8E8M0FNU>) -> f32 {
  %sab = vector.broadcast %sa4 : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<4x32xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %sbb = vector.broadcast %sb4 : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sb = vector.shape_cast %sbb : vector<4x32xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %a0 = vector.extract_strided_slice %a {offsets = [0], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa0 = vector.extract_strided_slice %sa {offsets = [0], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %A0x = arith.scaling_extf %a0, %sa0 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %b0 = vector.extract_strided_slice %b {offsets = [0], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sb0 = vector.extract_strided_slice %sb {offsets = [0], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %B0x = arith.scaling_extf %b0, %sb0 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P0 = arith.mulf %A0x, %B0x : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R0 = vector.reduction <add>, %P0 : vector<32xf32> into f32
  %a1 = vector.extract_strided_slice %a {offsets = [32], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa1 = vector.extract_strided_slice %sa {offsets = [32], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %A1x = arith.scaling_extf %a1, %sa1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %b1 = vector.extract_strided_slice %b {offsets = [32], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sb1 = vector.extract_strided_slice %sb {offsets = [32], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %B1x = arith.scaling_extf %b1, %sb1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P1 = arith.mulf %A1x, %B1x : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R1 = vector.reduction <add>, %P1 : vector<32xf32> into f32
  %a2 = vector.extract_strided_slice %a {offsets = [64], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa2 = vector.extract_strided_slice %sa {offsets = [64], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %A2x = arith.scaling_extf %a2, %sa2 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %b2 = vector.extract_strided_slice %b {offsets = [64], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sb2 = vector.extract_strided_slice %sb {offsets = [64], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %B2x = arith.scaling_extf %b2, %sb2 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P2 = arith.mulf %A2x, %B2x : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R2 = vector.reduction <add>, %P2 : vector<32xf32> into f32
  %a3 = vector.extract_strided_slice %a {offsets = [96], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa3 = vector.extract_strided_slice %sa {offsets = [96], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %A3x = arith.scaling_extf %a3, %sa3 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %b3 = vector.extract_strided_slice %b {offsets = [96], sizes = [32], strides = [1]} : vector<128xf4E2M1FN> to vector<32xf4E2M1FN>
  %sb3 = vector.extract_strided_slice %sb {offsets = [96], sizes = [32], strides = [1]} : vector<128xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %B3x = arith.scaling_extf %b3, %sb3 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P3 = arith.mulf %A3x, %B3x : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R3 = vector.reduction <add>, %P3 : vector<32xf32> into f32
  %S1 = arith.addf %R0, %R1 : f32
  %S2 = arith.addf %S1, %R2 : f32
  %S3 = arith.addf %S2, %R3 : f32
  return %S3 : f32
}

// -----

// CHECK-LABEL: func.func @one_reduction_k128(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @one_reduction_k128(%a: vector<128xf4E2M1FN>, %b: vector<128xf4E2M1FN>, %sa4: vector<4x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sab = vector.broadcast %sa4 : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<4x32xf8E8M0FNU> to vector<128xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<128xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %B = arith.scaling_extf %b, %sbv : vector<128xf4E2M1FN>, vector<128xf8E8M0FNU> to vector<128xf32>
  %P = arith.mulf %A, %B : vector<128xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one scale code for the block: the block's 128 elements span 4 of the 4 scale blocks of 32 elements, so they are not one MX block}}
  %R = vector.reduction <add>, %P : vector<128xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @const_blocks(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[C:.+]] = arith.constant 4.000000e+00 : f32
// CHECK: arith.mulf %{{.*}}, %[[C]] : f32
func.func @const_blocks(%a: vector<64xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> f32 {
  %s2 = arith.constant dense<[[0x7F], [0x81]]> : vector<2x1xf8E8M0FNU>
  %sab = vector.broadcast %s2 : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<2x32xf8E8M0FNU> to vector<64xf8E8M0FNU>
  %a1 = vector.extract_strided_slice %a {offsets = [32], sizes = [32], strides = [1]} : vector<64xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa1 = vector.extract_strided_slice %sa {offsets = [32], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %sb = arith.constant dense<0x7F> : vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a1, %sa1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sb : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 129, xb = 127 (e = 2)}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @straddle(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @straddle(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa2: vector<2x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sab = vector.broadcast %sa2 : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sa = vector.shape_cast %sab : vector<2x32xf8E8M0FNU> to vector<64xf8E8M0FNU>
  %sa1 = vector.extract_strided_slice %sa {offsets = [16], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one scale code for the block: the block's 32 elements span 2 of the 2 scale blocks of 32 elements}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @wide_loop(
// CHECK: scf.for
// CHECK: scf.if
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
// CHECK: arith.addf
func.func @wide_loop(%a: vector<4x32xf4E2M1FN>, %b: vector<4x32xf4E2M1FN>, %sa4: vector<4x1xf8E8M0FNU>, %sb4: vector<4x1xf8E8M0FNU>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant -0.0 : f32
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %aj = vector.extract %a[%j] : vector<32xf4E2M1FN> from vector<4x32xf4E2M1FN>
    %bj = vector.extract %b[%j] : vector<32xf4E2M1FN> from vector<4x32xf4E2M1FN>
    %saj = vector.extract %sa4[%j] : vector<1xf8E8M0FNU> from vector<4x1xf8E8M0FNU>
    %sbj = vector.extract %sb4[%j] : vector<1xf8E8M0FNU> from vector<4x1xf8E8M0FNU>
    %sav = vector.broadcast %saj : vector<1xf8E8M0FNU> to vector<32xf8E8M0FNU>
    %sbv = vector.broadcast %sbj : vector<1xf8E8M0FNU> to vector<32xf8E8M0FNU>
    %A = arith.scaling_extf %aj, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
    %B = arith.scaling_extf %bj, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
    %P = arith.mulf %A, %B : vector<32xf32>
    // expected-remark @below {{inserted a runtime guard}}
    %d = vector.reduction <add>, %P : vector<32xf32> into f32
    %next = arith.addf %acc, %d : f32
    scf.yield %next : f32
  }
  return %r : f32
}

// -----

// CHECK-LABEL: func.func @loop_carried_acc(
// CHECK: scf.for
// CHECK-NOT: scf.if
func.func @loop_carried_acc(%a: vector<4x32xf4E2M1FN>, %b: vector<4x32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant -0.0 : f32
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %r = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {
    %aj = vector.extract %a[%j] : vector<32xf4E2M1FN> from vector<4x32xf4E2M1FN>
    %bj = vector.extract %b[%j] : vector<32xf4E2M1FN> from vector<4x32xf4E2M1FN>
    %A = arith.scaling_extf %aj, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
    %B = arith.scaling_extf %bj, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
    %P = arith.mulf %A, %B : vector<32xf32>
    // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0}}
    %next = vector.reduction <add>, %P, %acc : vector<32xf32> into f32
    scf.yield %next : f32
  }
  return %r : f32
}

// -----

// A scale vector assembled from per-block broadcasts with vector.insert_strided_slice: the block
// at 32 traces to the second inserted value.
// CHECK-LABEL: func.func @inserted(
// CHECK-SAME: %[[S1:[a-z0-9]+]]: f8E8M0FNU, %{{[a-z0-9]+}}: f8E8M0FNU) -> f32
// CHECK: arith.bitcast %[[S1]] : f8E8M0FNU to i8
// CHECK: scf.if
func.func @inserted(%a: vector<64xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %s0: f8E8M0FNU, %s1: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %z = arith.constant dense<0x7F> : vector<64xf8E8M0FNU>
  %b0 = vector.broadcast %s0 : f8E8M0FNU to vector<32xf8E8M0FNU>
  %b1 = vector.broadcast %s1 : f8E8M0FNU to vector<32xf8E8M0FNU>
  %i0 = vector.insert_strided_slice %b0, %z {offsets = [0], strides = [1]} : vector<32xf8E8M0FNU> into vector<64xf8E8M0FNU>
  %sa = vector.insert_strided_slice %b1, %i0 {offsets = [32], strides = [1]} : vector<32xf8E8M0FNU> into vector<64xf8E8M0FNU>
  %a1 = vector.extract_strided_slice %a {offsets = [32], sizes = [32], strides = [1]} : vector<64xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa1 = vector.extract_strided_slice %sa {offsets = [32], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a1, %sa1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// The block outside the inserted slice reads the destination, a splat constant: code 0x81.
// CHECK-LABEL: func.func @inserted_const(
// CHECK-NOT: arith.scaling_extf
// CHECK: arith.constant 4.000000e+00 : f32
func.func @inserted_const(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %s1: f8E8M0FNU) -> f32 {
  %z = arith.constant dense<0x81> : vector<64xf8E8M0FNU>
  %b1 = vector.broadcast %s1 : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sa = vector.insert_strided_slice %b1, %z {offsets = [32], strides = [1]} : vector<32xf8E8M0FNU> into vector<64xf8E8M0FNU>
  %sa0 = vector.extract_strided_slice %sa {offsets = [0], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %sbv = arith.constant dense<0x7F> : vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa0 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes xa = 129, xb = 127 (e = 2)}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @inserted_straddle(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @inserted_straddle(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %s0: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %z = arith.constant dense<0x7F> : vector<64xf8E8M0FNU>
  %b0 = vector.broadcast %s0 : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sa = vector.insert_strided_slice %b0, %z {offsets = [0], strides = [1]} : vector<32xf8E8M0FNU> into vector<64xf8E8M0FNU>
  %sa1 = vector.extract_strided_slice %sa {offsets = [16], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{left unchanged: the scale of operand a is not one scale code for the block: the block's elements 16..47 straddle a slice inserted at 0..31 (two scales in one block)}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// Per-block scales repeated by vector.shuffle (one code per block, each lane taken 32 times):
// each block's slice takes one lane, which the guard reads.
// CHECK-LABEL: func.func @wide_shuffle(
// CHECK-SAME: %[[SA2:[a-z0-9]+]]: vector<2xf8E8M0FNU>
// CHECK: vector.extract %[[SA2]][0] : f8E8M0FNU from vector<2xf8E8M0FNU>
// CHECK: mxcert.guard
// CHECK: vector.extract %[[SA2]][1] : f8E8M0FNU from vector<2xf8E8M0FNU>
// CHECK: mxcert.guard
func.func @wide_shuffle(%a: vector<64xf4E2M1FN>, %b: vector<64xf4E2M1FN>, %sa2: vector<2xf8E8M0FNU>, %sb: f8E8M0FNU) -> f32 {
  %sa = vector.shuffle %sa2, %sa2 [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1] : vector<2xf8E8M0FNU>, vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %a0 = vector.extract_strided_slice %a {offsets = [0], sizes = [32], strides = [1]} : vector<64xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa0 = vector.extract_strided_slice %sa {offsets = [0], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %A0 = arith.scaling_extf %a0, %sa0 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %b0 = vector.extract_strided_slice %b {offsets = [0], sizes = [32], strides = [1]} : vector<64xf4E2M1FN> to vector<32xf4E2M1FN>
  %B0 = arith.scaling_extf %b0, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P0 = arith.mulf %A0, %B0 : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R0 = vector.reduction <add>, %P0 : vector<32xf32> into f32
  %a1 = vector.extract_strided_slice %a {offsets = [32], sizes = [32], strides = [1]} : vector<64xf4E2M1FN> to vector<32xf4E2M1FN>
  %sa1 = vector.extract_strided_slice %sa {offsets = [32], sizes = [32], strides = [1]} : vector<64xf8E8M0FNU> to vector<32xf8E8M0FNU>
  %A1 = arith.scaling_extf %a1, %sa1 : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %b1 = vector.extract_strided_slice %b {offsets = [32], sizes = [32], strides = [1]} : vector<64xf4E2M1FN> to vector<32xf4E2M1FN>
  %B1 = arith.scaling_extf %b1, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P1 = arith.mulf %A1, %B1 : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json}}
  %R1 = vector.reduction <add>, %P1 : vector<32xf32> into f32
  %S = arith.addf %R0, %R1 : f32
  return %S : f32
}

// A zero accumulator read back from memory (docs/mlir.md, "From linalg"): a
// vector.transfer_read of a memref that the same block just filled with a splat ±0.0 by a
// vector.transfer_write of the same type, at the same indices, both unmasked and in bounds, with
// no op in between that may write memory, holds exactly that ±0.0: the k + 1 any-order table
// covers the tile. Anything else (another value written, a write to any memref or a call in
// between, other indices, an access not in bounds, the write in another block) is left unchanged.
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// Filled with -0.0, then only reads and pure ops before the read: guarded.
// CHECK-LABEL: func.func @forwarded(
// CHECK: scf.if
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @forwarded(%a: vector<4x32xf4E2M1FN>, %b: vector<4x32xf4E2M1FN>, %s: memref<f8E8M0FNU>, %c: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<-0.0> : vector<4xf32>
  vector.transfer_write %z, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %sc = memref.load %s[] : memref<f8E8M0FNU>
  %sv = vector.broadcast %sc : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %b, %sv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %B : vector<4x32xf32>
  %pad = arith.constant 0.0 : f32
  %acc = vector.transfer_read %c[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json, dequant elsewhere [accumulator: a vector.transfer_read of the ±0.0 splat just written to the same memref]}}
  %R = vector.multi_reduction <add>, %P, %acc [1] : vector<4x32xf32> to vector<4xf32>
  vector.transfer_write %R, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  return
}

// -----

// A write to another memref in between: nothing is known about aliasing, so it is refused.
// CHECK-LABEL: func.func @write_between(
// CHECK-NOT: scf.if
func.func @write_between(%a: vector<4x32xf4E2M1FN>, %s: f8E8M0FNU, %c: memref<4xf32>, %d: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  vector.transfer_write %z, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %one = arith.constant 1.0 : f32
  memref.store %one, %d[%c0] : memref<4xf32>
  %sv = vector.broadcast %s : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %A : vector<4x32xf32>
  %pad = arith.constant 0.0 : f32
  %acc = vector.transfer_read %c[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one}}
  %R = vector.multi_reduction <add>, %P, %acc [1] : vector<4x32xf32> to vector<4xf32>
  vector.transfer_write %R, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  return
}

// -----

// A call in between (unknown effects).
// CHECK-LABEL: func.func @call_between(
// CHECK-NOT: scf.if
func.func private @touch(memref<4xf32>)
func.func @call_between(%a: vector<4x32xf4E2M1FN>, %s: f8E8M0FNU, %c: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant dense<0.0> : vector<4xf32>
  vector.transfer_write %z, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  func.call @touch(%c) : (memref<4xf32>) -> ()
  %sv = vector.broadcast %s : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %A : vector<4x32xf32>
  %pad = arith.constant 0.0 : f32
  %acc = vector.transfer_read %c[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one}}
  %R = vector.multi_reduction <add>, %P, %acc [1] : vector<4x32xf32> to vector<4xf32>
  return
}

// -----

// Filled with 1.0; written at other indices; a read not marked in bounds; the fill in another
// block (before a loop whose body reads it).
// CHECK-LABEL: func.func @not_forwarded(
// CHECK-NOT: scf.if
func.func @not_forwarded(%a: vector<4x32xf4E2M1FN>, %s: f8E8M0FNU, %c: memref<8xf32>, %d: memref<4xf32>, %e: memref<4xf32>, %f: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant dense<1.0> : vector<4xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  %pad = arith.constant 0.0 : f32
  %sv = vector.broadcast %s : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sv : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %A : vector<4x32xf32>
  vector.transfer_write %one, %d[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %acc1 = vector.transfer_read %d[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one}}
  %R1 = vector.multi_reduction <add>, %P, %acc1 [1] : vector<4x32xf32> to vector<4xf32>
  vector.transfer_write %z, %c[%c0] {in_bounds = [true]} : vector<4xf32>, memref<8xf32>
  %acc2 = vector.transfer_read %c[%c1], %pad {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one}}
  %R2 = vector.multi_reduction <add>, %P, %acc2 [1] : vector<4x32xf32> to vector<4xf32>
  vector.transfer_write %z, %e[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %acc3 = vector.transfer_read %e[%c0], %pad : memref<4xf32>, vector<4xf32>
  // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one}}
  %R3 = vector.multi_reduction <add>, %P, %acc3 [1] : vector<4x32xf32> to vector<4xf32>
  vector.transfer_write %z, %f[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %acc4 = vector.transfer_read %f[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32>
    // expected-remark @below {{left unchanged: the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one}}
    %R4 = vector.multi_reduction <add>, %P, %acc4 [1] : vector<4x32xf32> to vector<4xf32>
    vector.transfer_write %R4, %f[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  }
  return
}

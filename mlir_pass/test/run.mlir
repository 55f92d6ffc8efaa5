// Execution (mlir-runner): the SPEC §8 dot product (e2m1, k = 2, variable scale codes) at the
// edges SPEC §3 fixes, lowered with and without the rewrite; both must return the bits of
// `mxcert eval --placements dequant` (the expected values below are its output; NaNs are
// canonicalized to 0x7FC00000 by the driver). The exhaustive version is exec/exec_test.py.
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-to-llvm | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s
// RUN: mxcert-opt %s --mx-scale-placement --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s
// RUN: mxcert-opt %s --mx-scale-placement 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// REMARK: inserted a runtime guard
//
// case 0: a = ['0x2', '0x2'], b = ['0x2', '0x2'], xa = 0, xb = 127: 0x00800000, scale code 0 is 2^-127 (upstream: +0)
// case 1: a = ['0x8', '0x8'], b = ['0x2', '0x2'], xa = 127, xb = 127: 0x80000000, a sum of -0 products is -0 (upstream: +0)
// case 2: a = ['0x7', '0x7'], b = ['0x7', '0x7'], xa = 254, xb = 254: 0x7F800000, overflow to +inf
// case 3: a = ['0x7', '0xf'], b = ['0x7', '0x7'], xa = 200, xb = 200: 0x7FC00000, inf + -inf = NaN (post would give 0: outside the agree set)
// case 4: a = ['0x2', '0x1'], b = ['0x3', '0x4'], xa = 130, xb = 120: 0x3E200000, inside the agree set: 0.15625
// case 5: a = ['0x7', '0x7'], b = ['0x7', '0x7'], xa = 0, xb = 254: 0x7F800000, 2^127 * 6 overflows in dequant (post would give 72)
// case 6: a = ['0x2', '0x2'], b = ['0x2', '0x2'], xa = 255, xb = 127: 0x7FC00000, scale code 255 is NaN
// case 7: a = ['0x8', '0x0'], b = ['0x2', '0xa'], xa = 127, xb = 127: 0x80000000, (-0)(1) + (0)(-1) = -0
// CHECK: data =
// CHECK-NEXT: [8388608,  -2147483648,  2139095040,  2143289344,  1042284544,  2139095040,  2143289344,  -2147483648]

func.func private @printMemrefI32(memref<*xi32>)

func.func @dot(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// The bits of @dot, NaN canonicalized.
func.func @bits(%a: vector<2xi4>, %b: vector<2xi4>, %xa: i8, %xb: i8) -> i32 {
  %fa = arith.bitcast %a : vector<2xi4> to vector<2xf4E2M1FN>
  %fb = arith.bitcast %b : vector<2xi4> to vector<2xf4E2M1FN>
  %sa = arith.bitcast %xa : i8 to f8E8M0FNU
  %sb = arith.bitcast %xb : i8 to f8E8M0FNU
  %r = func.call @dot(%fa, %fb, %sa, %sb) : (vector<2xf4E2M1FN>, vector<2xf4E2M1FN>, f8E8M0FNU, f8E8M0FNU) -> f32
  %i = arith.bitcast %r : f32 to i32
  %nan = arith.cmpf uno, %r, %r : f32
  %q = arith.constant 0x7FC00000 : i32
  %s = arith.select %nan, %q, %i : i32
  return %s : i32
}

func.func @main() {
  %buf = memref.alloc() : memref<8xi32>
  %a0 = arith.constant dense<[2, 2]> : vector<2xi4>
  %b0 = arith.constant dense<[2, 2]> : vector<2xi4>
  %xa0 = arith.constant 0 : i8
  %xb0 = arith.constant 127 : i8
  %r0 = func.call @bits(%a0, %b0, %xa0, %xb0) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c0 = arith.constant 0 : index
  memref.store %r0, %buf[%c0] : memref<8xi32>
  %a1 = arith.constant dense<[-8, -8]> : vector<2xi4>
  %b1 = arith.constant dense<[2, 2]> : vector<2xi4>
  %xa1 = arith.constant 127 : i8
  %xb1 = arith.constant 127 : i8
  %r1 = func.call @bits(%a1, %b1, %xa1, %xb1) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c1 = arith.constant 1 : index
  memref.store %r1, %buf[%c1] : memref<8xi32>
  %a2 = arith.constant dense<[7, 7]> : vector<2xi4>
  %b2 = arith.constant dense<[7, 7]> : vector<2xi4>
  %xa2 = arith.constant -2 : i8
  %xb2 = arith.constant -2 : i8
  %r2 = func.call @bits(%a2, %b2, %xa2, %xb2) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c2 = arith.constant 2 : index
  memref.store %r2, %buf[%c2] : memref<8xi32>
  %a3 = arith.constant dense<[7, -1]> : vector<2xi4>
  %b3 = arith.constant dense<[7, 7]> : vector<2xi4>
  %xa3 = arith.constant -56 : i8
  %xb3 = arith.constant -56 : i8
  %r3 = func.call @bits(%a3, %b3, %xa3, %xb3) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c3 = arith.constant 3 : index
  memref.store %r3, %buf[%c3] : memref<8xi32>
  %a4 = arith.constant dense<[2, 1]> : vector<2xi4>
  %b4 = arith.constant dense<[3, 4]> : vector<2xi4>
  %xa4 = arith.constant -126 : i8
  %xb4 = arith.constant 120 : i8
  %r4 = func.call @bits(%a4, %b4, %xa4, %xb4) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c4 = arith.constant 4 : index
  memref.store %r4, %buf[%c4] : memref<8xi32>
  %a5 = arith.constant dense<[7, 7]> : vector<2xi4>
  %b5 = arith.constant dense<[7, 7]> : vector<2xi4>
  %xa5 = arith.constant 0 : i8
  %xb5 = arith.constant -2 : i8
  %r5 = func.call @bits(%a5, %b5, %xa5, %xb5) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c5 = arith.constant 5 : index
  memref.store %r5, %buf[%c5] : memref<8xi32>
  %a6 = arith.constant dense<[2, 2]> : vector<2xi4>
  %b6 = arith.constant dense<[2, 2]> : vector<2xi4>
  %xa6 = arith.constant -1 : i8
  %xb6 = arith.constant 127 : i8
  %r6 = func.call @bits(%a6, %b6, %xa6, %xb6) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c6 = arith.constant 6 : index
  memref.store %r6, %buf[%c6] : memref<8xi32>
  %a7 = arith.constant dense<[-8, 0]> : vector<2xi4>
  %b7 = arith.constant dense<[2, -6]> : vector<2xi4>
  %xa7 = arith.constant 127 : i8
  %xb7 = arith.constant 127 : i8
  %r7 = func.call @bits(%a7, %b7, %xa7, %xb7) : (vector<2xi4>, vector<2xi4>, i8, i8) -> i32
  %c7 = arith.constant 7 : index
  memref.store %r7, %buf[%c7] : memref<8xi32>
  %u = memref.cast %buf : memref<8xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %buf : memref<8xi32>
  return
}

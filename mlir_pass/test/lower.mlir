// --mx-to-llvm: everything reaches the LLVM dialect; the narrow-float decoding gives scale code 0
// the f32 subnormal 2^-127 (bits 0x00400000) and code 255 NaN (0x7FC00000); ordered float add
// reductions start from -0.0 (the exact identity), not +0.0.
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement --mx-to-llvm | FileCheck %s
// RUN: mxcert-opt %s --mx-lower-narrow-floats | FileCheck %s --check-prefix=NARROW
// The committed k = 32 table's e range lies in [-149, 127]: the post branch scales in f32 only.
// RUN: mxcert-opt %s --mx-scale-placement --mx-to-llvm | FileCheck %s --check-prefix=F32
// F32-NOT: f64

// CHECK-NOT: arith.
// CHECK-NOT: vector.
// CHECK-NOT: scf.
// CHECK-NOT: unrealized_conversion_cast
// CHECK-LABEL: llvm.func @dot(
// CHECK-DAG: llvm.mlir.constant(-0.000000e+00 : f32) : f32
// CHECK-DAG: llvm.mlir.constant(dense<4194304> : vector<32xi32>) : vector<32xi32>
// CHECK-DAG: llvm.mlir.constant(dense<2143289344> : vector<32xi32>) : vector<32xi32>
// CHECK: llvm.cond_br
// CHECK: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<32xf32>) -> f32
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<32xf32>) -> f32

// NARROW-LABEL: func.func @dot(
// NARROW-NOT: arith.scaling_extf
// NARROW-DAG: %[[NZ:.+]] = arith.constant -0.000000e+00 : f32
// NARROW-DAG: arith.constant dense<4194304> : vector<32xi32>
// NARROW-DAG: arith.constant dense<2143289344> : vector<32xi32>
// NARROW: arith.bitcast %{{.*}} : vector<32xf8E4M3FN> to vector<32xi8>
// NARROW: arith.bitcast %{{.*}} : vector<32xf8E8M0FNU> to vector<32xi8>
// NARROW: vector.reduction <add>, %{{.*}}, %[[NZ]] : vector<32xf32> into f32
func.func @dot(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

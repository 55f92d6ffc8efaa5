// The linalg pipeline (docs/mlir.md, "From linalg") on examples/mx_gemv_linalg.mlir: a
// linalg.generic on tensors computing 4 MX dot products (one scale code per row of A, one for
// b). Unvectorized, the pass only says where it will act; vectorized by
// pipelines/linalg-vectorize.mlir it sees a vector.multi_reduction tile whose row scales are a
// transfer_read broadcast and transposed, and b's a 0-d transfer_read broadcast, and guards it
// with the k = 33 any-order table; the whole pipeline runs in mlir-runner and prints the
// example's four sums. (mlir_exec_e2m1_linalg runs it over all 65,536 code pairs.)
// REQUIRES: mxcert
// RUN: mxcert-opt %S/../../examples/mx_gemv_linalg.mlir --mx-scale-placement 2>&1 >/dev/null | FileCheck %s --check-prefix=BEFORE
// BEFORE: remark: mx-scale-placement: left unchanged: a linalg.generic that scales MX elements is matched after vectorization
//
// RUN: mxcert-opt %S/../../examples/mx_gemv_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-scale-placement 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
// REMARK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in (for every row of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json, dequant elsewhere
// CHECK-LABEL: func.func @mx_gemv(
// CHECK: %[[ROWS:.+]] = vector.transfer_read %{{.*}} : tensor<4xf8E8M0FNU>, vector<4xf8E8M0FNU>
// CHECK: %[[B:.+]] = vector.transfer_read %{{.*}} : tensor<f8E8M0FNU>, vector<f8E8M0FNU>
// CHECK: %[[XA8:.+]] = arith.bitcast %[[ROWS]] : vector<4xf8E8M0FNU> to vector<4xi8>
// CHECK-NEXT: arith.extui %[[XA8]] : vector<4xi8> to vector<4xi32>
// CHECK-NEXT: vector.extract %[[B]][] : f8E8M0FNU from vector<f8E8M0FNU>
// CHECK: vector.reduction <and>
// CHECK: scf.if
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<4x32xf32> to vector<4xf32>
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
//
// RUN: mxcert-opt %S/../../examples/mx_gemv_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-scale-placement "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=OUT
// OUT: [48,  96,  192,  24]

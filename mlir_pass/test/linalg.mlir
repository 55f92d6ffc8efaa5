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

// A batch matmul (examples/mx_bmm_linalg.mlir): vectorized, a rank-4 vector.multi_reduction
// over k whose scales are transfer_reads broadcast and transposed into the iteration space
// (docs/mlir.md, "Any contraction layout"); the guard reads each transfer_read's codes once and
// broadcasts and transposes them to the vector<2x2x3> of outputs. The pipeline prints the same
// sums with and without the pass.
// RUN: mxcert-opt %S/../../examples/mx_bmm_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-scale-placement 2>%t.bmm.err | FileCheck %s --check-prefix=BMM
// RUN: FileCheck %s --check-prefix=BMMREMARK --input-file=%t.bmm.err
// BMMREMARK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json, dequant elsewhere
// BMM-LABEL: func.func @mx_bmm(
// BMM: %[[SA:.+]] = vector.transfer_read %{{.*}} : tensor<2x2xf8E8M0FNU>, vector<2x2xf8E8M0FNU>
// BMM: %[[SB:.+]] = vector.transfer_read %{{.*}} : tensor<2x3xf8E8M0FNU>, vector<2x3xf8E8M0FNU>
// BMM: %[[SA8:.+]] = arith.bitcast %[[SA]] : vector<2x2xf8E8M0FNU> to vector<2x2xi8>
// BMM-NEXT: %[[XA:.+]] = arith.extui %[[SA8]] : vector<2x2xi8> to vector<2x2xi32>
// BMM-NEXT: %[[TA:.+]] = vector.broadcast %[[XA]] : vector<2x2xi32> to vector<3x2x2xi32>
// BMM-NEXT: vector.transpose %[[TA]], [1, 2, 0] : vector<3x2x2xi32> to vector<2x2x3xi32>
// BMM: vector.reduction <and>, %{{.*}} : vector<12xi1> into i1
// BMM: scf.if
// BMM: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [3] : vector<2x2x3x32xf32> to vector<2x2x3xf32>
// BMM: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
//
// RUN: mxcert-opt %S/../../examples/mx_bmm_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-scale-placement "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=BMMOUT
// RUN: mxcert-opt %S/../../examples/mx_bmm_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=BMMOUT
// BMMOUT: {{\[}}{{\[}}[48,    48,    96],
// BMMOUT-NEXT: [96,    96,    192]],
// BMMOUT-NEXT: {{\[}}[96,    192,    1536],
// BMMOUT-NEXT: [12,    24,    192]]]

// The matrix-vector product on memrefs (examples/mx_gemv_linalg_memref.mlir): vectorized, the
// fill is a vector.transfer_write of dense<0.0> to the output and the accumulator a
// vector.transfer_read of it with nothing written in between, so the accumulator is provably
// +0.0 (docs/mlir.md, "From linalg"); the tile is guarded, and the pipeline prints the same sums
// with and without the pass.
// RUN: mxcert-opt %S/../../examples/mx_gemv_linalg_memref.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-scale-placement 2>%t.mem.err | FileCheck %s --check-prefix=MEM
// RUN: FileCheck %s --check-prefix=MEMREMARK --input-file=%t.mem.err
// MEMREMARK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in (for every row of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json, dequant elsewhere [accumulator: a vector.transfer_read of the ±0.0 splat just written to the same memref]
// MEM-LABEL: func.func @mx_gemv(
// MEM: vector.transfer_write %{{.*}}, %[[C:.+]][%{{.*}}] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
// MEM: %[[ACC:.+]] = vector.transfer_read %[[C]]
// MEM: scf.if
// MEM: vector.multi_reduction <add>, %{{.*}}, %[[ACC]] [1] : vector<4x32xf32> to vector<4xf32>
// MEM: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
//
// RUN: mxcert-opt %S/../../examples/mx_gemv_linalg_memref.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-scale-placement --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=OUT
// RUN: mxcert-opt %S/../../examples/mx_gemv_linalg_memref.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=OUT

// An MX matmul with an explicit block dimension (examples/mx_matmul_kblocks_linalg.mlir):
// vectorized, a vector.multi_reduction over [2, 3] (kb and k); --mx-split-blocks splits it at k
// into the blocks' sums from -0.0 and their sum over kb from the accumulator, and the pass
// guards the blocks (docs/mlir.md, "Wide K"). The pipeline prints the same sums with both
// passes and with neither (the values are exact in every order).
// RUN: mxcert-opt %S/../../examples/mx_matmul_kblocks_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-split-blocks --mx-scale-placement 2>%t.kb.err | FileCheck %s --check-prefix=KB
// RUN: FileCheck %s --check-prefix=KBREMARK --input-file=%t.kb.err
// KBREMARK: remark: mx-split-blocks: split the vector.multi_reduction over a block dimension of 2 and a block of 32 (its lowering chooses the order) into the blocks' sums from -0.0, then their sum from the accumulator: one of the orders the op allows
// KBREMARK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json
// KB-LABEL: func.func @mx_mm(
// KB: %[[NZ:.+]] = arith.constant dense<-0.000000e+00> : vector<2x2x2xf32>
// KB: scf.if %{{.*}} -> (vector<2x2x2xf32>) {
// KB: vector.multi_reduction <add>, %{{.*}}, %[[NZ]] [3] : vector<2x2x2x32xf32> to vector<2x2x2xf32>
// KB: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
// KB: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [2] : vector<2x2x2xf32> to vector<2x2xf32>
//
// RUN: mxcert-opt %S/../../examples/mx_matmul_kblocks_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize --mx-split-blocks --mx-scale-placement "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=KBOUT
// RUN: mxcert-opt %S/../../examples/mx_matmul_kblocks_linalg.mlir --transform-preload-library=transform-library-paths=%S/../pipelines/linalg-vectorize.mlir --transform-interpreter --canonicalize "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-vector-to-scf=full-unroll=true --mx-to-llvm 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %s --check-prefix=KBOUT
// KBOUT: {{\[}}[96,   480],
// KBOUT-NEXT: [204,   1560]]

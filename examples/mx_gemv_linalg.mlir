// examples/mx_gemv_linalg.mlir — an MX matrix-vector product written as a linalg.generic on
// tensors, for the linalg pipeline (docs/mlir.md, "From linalg"): C[i] = sum_k rnd(2^sa_i A[i,k])
// * rnd(2^sb b[k]) over K = 32, e2m1 elements, one scale code per row of A (sa) and one for b,
// C filled with +0.0 first. Vectorized by the transform script mlir_pass/pipelines/linalg-vectorize.mlir,
// it becomes a vector.multi_reduction tile that --mx-scale-placement guards with the committed
// k = 33 any-order table; then one-shot-bufferize, convert-vector-to-scf and --mx-to-llvm lower
// it for mlir-runner. @main: A = all 1.0, b = all 1.5, scale codes sa = [127, 128, 129, 126],
// sb = 127: prints [48, 96, 192, 24].

func.func @mx_gemv(%a: tensor<4x32xf4E2M1FN>, %b: tensor<32xf4E2M1FN>, %sa: tensor<4xf8E8M0FNU>, %sb: tensor<f8E8M0FNU>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %res = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> ()>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : tensor<4x32xf4E2M1FN>, tensor<32xf4E2M1FN>, tensor<4xf8E8M0FNU>, tensor<f8E8M0FNU>) outs(%c : tensor<4xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %s: f8E8M0FNU, %u: f8E8M0FNU, %acc: f32):
    %xs = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %ys = arith.scaling_extf %y, %u : f4E2M1FN, f8E8M0FNU to f32
    %p = arith.mulf %xs, %ys : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  } -> tensor<4xf32>
  return %res : tensor<4xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %a8 = arith.constant dense<2> : vector<4x32xi8>
  %a4 = arith.trunci %a8 : vector<4x32xi8> to vector<4x32xi4>
  %av = arith.bitcast %a4 : vector<4x32xi4> to vector<4x32xf4E2M1FN>
  %ae = tensor.empty() : tensor<4x32xf4E2M1FN>
  %a = vector.transfer_write %av, %ae[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf4E2M1FN>, tensor<4x32xf4E2M1FN>
  %b8 = arith.constant dense<3> : vector<32xi8>
  %b4 = arith.trunci %b8 : vector<32xi8> to vector<32xi4>
  %bv = arith.bitcast %b4 : vector<32xi4> to vector<32xf4E2M1FN>
  %be = tensor.empty() : tensor<32xf4E2M1FN>
  %b = vector.transfer_write %bv, %be[%c0] {in_bounds = [true]} : vector<32xf4E2M1FN>, tensor<32xf4E2M1FN>
  %s0 = arith.constant 0x7F : f8E8M0FNU
  %s1 = arith.constant 0x80 : f8E8M0FNU
  %s2 = arith.constant 0x81 : f8E8M0FNU
  %s3 = arith.constant 0x7E : f8E8M0FNU
  %sa = tensor.from_elements %s0, %s1, %s2, %s3 : tensor<4xf8E8M0FNU>
  %sb = tensor.from_elements %s0 : tensor<f8E8M0FNU>
  %r = func.call @mx_gemv(%a, %b, %sa, %sb) : (tensor<4x32xf4E2M1FN>, tensor<32xf4E2M1FN>, tensor<4xf8E8M0FNU>, tensor<f8E8M0FNU>) -> tensor<4xf32>
  %m = bufferization.to_buffer %r : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

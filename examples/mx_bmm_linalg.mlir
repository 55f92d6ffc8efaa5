// examples/mx_bmm_linalg.mlir — an MX batch matmul written as a linalg.generic on tensors, for
// the linalg pipeline (docs/mlir.md, "From linalg", "Any contraction layout"):
//   C[b, i, j] = sum_k rnd(2^sa[b,i] A[b,i,k]) * rnd(2^sb[b,j] B[b,k,j])
// over K = 32, e2m1 elements, one scale code per (batch, row) of A and per (batch, column) of
// B, C filled with +0.0 first. Vectorized by mlir_pass/pipelines/linalg-vectorize.mlir it
// becomes a rank-4 vector.multi_reduction over k whose scales are transfer_reads broadcast and
// transposed into the iteration space; --mx-scale-placement guards it with the committed
// k = 33 any-order table (one code pair per output element). @main: A = all 1.0, B = all 1.5,
// sa = [[127, 128], [129, 126]], sb = [[127, 127, 128], [126, 127, 130]]: C[b, i, j] =
// 48 * 2^(sa - 127) * 2^(sb - 127), printed as [[[48, 48, 96], [96, 96, 192]],
// [[96, 192, 1536], [12, 24, 192]]].

func.func @mx_bmm(%a: tensor<2x2x32xf4E2M1FN>, %b: tensor<2x32x3xf4E2M1FN>, %sa: tensor<2x2xf8E8M0FNU>, %sb: tensor<2x3xf8E8M0FNU>) -> tensor<2x2x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x3xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %res = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i)>, affine_map<(b, i, j, k) -> (b, j)>, affine_map<(b, i, j, k) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : tensor<2x2x32xf4E2M1FN>, tensor<2x32x3xf4E2M1FN>, tensor<2x2xf8E8M0FNU>, tensor<2x3xf8E8M0FNU>) outs(%c : tensor<2x2x3xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %s: f8E8M0FNU, %u: f8E8M0FNU, %acc: f32):
    %xs = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %ys = arith.scaling_extf %y, %u : f4E2M1FN, f8E8M0FNU to f32
    %p = arith.mulf %xs, %ys : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  } -> tensor<2x2x3xf32>
  return %res : tensor<2x2x3xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %a8 = arith.constant dense<2> : vector<2x2x32xi8>
  %a4 = arith.trunci %a8 : vector<2x2x32xi8> to vector<2x2x32xi4>
  %av = arith.bitcast %a4 : vector<2x2x32xi4> to vector<2x2x32xf4E2M1FN>
  %ae = tensor.empty() : tensor<2x2x32xf4E2M1FN>
  %a = vector.transfer_write %av, %ae[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x2x32xf4E2M1FN>, tensor<2x2x32xf4E2M1FN>
  %b8 = arith.constant dense<3> : vector<2x32x3xi8>
  %b4 = arith.trunci %b8 : vector<2x32x3xi8> to vector<2x32x3xi4>
  %bv = arith.bitcast %b4 : vector<2x32x3xi4> to vector<2x32x3xf4E2M1FN>
  %be = tensor.empty() : tensor<2x32x3xf4E2M1FN>
  %b = vector.transfer_write %bv, %be[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x32x3xf4E2M1FN>, tensor<2x32x3xf4E2M1FN>
  %sa8 = arith.constant dense<[[127, 128], [129, 126]]> : tensor<2x2xi8>
  %sa = arith.bitcast %sa8 : tensor<2x2xi8> to tensor<2x2xf8E8M0FNU>
  %sb8 = arith.constant dense<[[127, 127, -128], [126, 127, -126]]> : tensor<2x3xi8>
  %sb = arith.bitcast %sb8 : tensor<2x3xi8> to tensor<2x3xf8E8M0FNU>
  %r = func.call @mx_bmm(%a, %b, %sa, %sb) : (tensor<2x2x32xf4E2M1FN>, tensor<2x32x3xf4E2M1FN>, tensor<2x2xf8E8M0FNU>, tensor<2x3xf8E8M0FNU>) -> tensor<2x2x3xf32>
  %m = bufferization.to_buffer %r : tensor<2x2x3xf32> to memref<2x2x3xf32>
  %u = memref.cast %m : memref<2x2x3xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// examples/mx_matmul_kblocks_linalg.mlir — an MX matmul with an explicit block dimension, as a
// linalg.generic on tensors over (i, j, kb, k), for the linalg pipeline with --mx-split-blocks
// (docs/mlir.md, "From linalg", "Wide K"):
//   C[i, j] = sum over kb, k of rnd(2^sa[i,kb] A[i,kb,k]) * rnd(2^sb[kb,j] B[kb,k,j])
// K = 2 blocks of 32, e2m1 elements, one scale code per (row, block) of A and per (block,
// column) of B, C filled with +0.0. Vectorized, it is a vector.multi_reduction over [2, 3]
// (kb and k) that leaves the order open; --mx-split-blocks splits it at k (both scales are one
// code along k) into the blocks' sums from -0.0 and their sum over kb from the accumulator, and
// --mx-scale-placement guards the blocks with the committed k = 33 any-order table.
// @main: A = all 1.0, B = all 1.5, sa = [[127, 128], [129, 126]], sb = [[127, 130], [126, 127]]:
// C[i, j] = 48 * (2^(sa[i,0] + sb[0,j] - 254) + 2^(sa[i,1] + sb[1,j] - 254)), printed as
// [[96, 480], [204, 1560]].

func.func @mx_mm(%a: tensor<2x2x32xf4E2M1FN>, %b: tensor<2x32x2xf4E2M1FN>, %sa: tensor<2x2xf8E8M0FNU>, %sb: tensor<2x2xf8E8M0FNU>) -> tensor<2x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %res = linalg.generic {indexing_maps = [affine_map<(i, j, kb, k) -> (i, kb, k)>, affine_map<(i, j, kb, k) -> (kb, k, j)>, affine_map<(i, j, kb, k) -> (i, kb)>, affine_map<(i, j, kb, k) -> (kb, j)>, affine_map<(i, j, kb, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b, %sa, %sb : tensor<2x2x32xf4E2M1FN>, tensor<2x32x2xf4E2M1FN>, tensor<2x2xf8E8M0FNU>, tensor<2x2xf8E8M0FNU>) outs(%c : tensor<2x2xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %s: f8E8M0FNU, %u: f8E8M0FNU, %acc: f32):
    %xs = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %ys = arith.scaling_extf %y, %u : f4E2M1FN, f8E8M0FNU to f32
    %p = arith.mulf %xs, %ys : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  } -> tensor<2x2xf32>
  return %res : tensor<2x2xf32>
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %a8 = arith.constant dense<2> : vector<2x2x32xi8>
  %a4 = arith.trunci %a8 : vector<2x2x32xi8> to vector<2x2x32xi4>
  %av = arith.bitcast %a4 : vector<2x2x32xi4> to vector<2x2x32xf4E2M1FN>
  %ae = tensor.empty() : tensor<2x2x32xf4E2M1FN>
  %a = vector.transfer_write %av, %ae[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x2x32xf4E2M1FN>, tensor<2x2x32xf4E2M1FN>
  %b8 = arith.constant dense<3> : vector<2x32x2xi8>
  %b4 = arith.trunci %b8 : vector<2x32x2xi8> to vector<2x32x2xi4>
  %bv = arith.bitcast %b4 : vector<2x32x2xi4> to vector<2x32x2xf4E2M1FN>
  %be = tensor.empty() : tensor<2x32x2xf4E2M1FN>
  %b = vector.transfer_write %bv, %be[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<2x32x2xf4E2M1FN>, tensor<2x32x2xf4E2M1FN>
  %sa8 = arith.constant dense<[[127, 128], [-127, 126]]> : tensor<2x2xi8>
  %sa = arith.bitcast %sa8 : tensor<2x2xi8> to tensor<2x2xf8E8M0FNU>
  %sb8 = arith.constant dense<[[127, -126], [126, 127]]> : tensor<2x2xi8>
  %sb = arith.bitcast %sb8 : tensor<2x2xi8> to tensor<2x2xf8E8M0FNU>
  %r = func.call @mx_mm(%a, %b, %sa, %sb) : (tensor<2x2x32xf4E2M1FN>, tensor<2x32x2xf4E2M1FN>, tensor<2x2xf8E8M0FNU>, tensor<2x2xf8E8M0FNU>) -> tensor<2x2xf32>
  %m = bufferization.to_buffer %r : tensor<2x2xf32> to memref<2x2xf32>
  %u = memref.cast %m : memref<2x2xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// examples/mx_gemv_linalg_memref.mlir — examples/mx_gemv_linalg.mlir on memrefs (docs/mlir.md,
// "From linalg"): C[i] = sum_k rnd(2^sa_i A[i,k]) * rnd(2^sb b[k]) over K = 32, e2m1 elements,
// one scale code per row of A and one for b, C an output buffer filled with +0.0 first.
// Vectorized by mlir_pass/pipelines/linalg-vectorize.mlir, the fill is a vector.transfer_write
// of dense<0.0> to %c and the product's accumulator a vector.transfer_read of %c with no write
// in between, so the accumulator is provably +0.0 and --mx-scale-placement guards the tile
// with the committed k = 33 any-order table. @main: A = all 1.0, b = all 1.5, scale codes
// sa = [127, 128, 129, 126], sb = 127: prints [48, 96, 192, 24].

func.func @mx_gemv(%a: memref<4x32xf4E2M1FN>, %b: memref<32xf4E2M1FN>, %sa: memref<4xf8E8M0FNU>, %sb: memref<f8E8M0FNU>, %c: memref<4xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> ()>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%a, %b, %sa, %sb : memref<4x32xf4E2M1FN>, memref<32xf4E2M1FN>, memref<4xf8E8M0FNU>, memref<f8E8M0FNU>) outs(%c : memref<4xf32>) {
  ^bb0(%x: f4E2M1FN, %y: f4E2M1FN, %s: f8E8M0FNU, %u: f8E8M0FNU, %acc: f32):
    %xs = arith.scaling_extf %x, %s : f4E2M1FN, f8E8M0FNU to f32
    %ys = arith.scaling_extf %y, %u : f4E2M1FN, f8E8M0FNU to f32
    %p = arith.mulf %xs, %ys : f32
    %sum = arith.addf %acc, %p : f32
    linalg.yield %sum : f32
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4x32xf4E2M1FN>
  %a8 = arith.constant dense<2> : vector<4x32xi8>
  %a4 = arith.trunci %a8 : vector<4x32xi8> to vector<4x32xi4>
  %av = arith.bitcast %a4 : vector<4x32xi4> to vector<4x32xf4E2M1FN>
  vector.transfer_write %av, %a[%c0, %c0] {in_bounds = [true, true]} : vector<4x32xf4E2M1FN>, memref<4x32xf4E2M1FN>
  %b = memref.alloc() : memref<32xf4E2M1FN>
  %b8 = arith.constant dense<3> : vector<32xi8>
  %b4 = arith.trunci %b8 : vector<32xi8> to vector<32xi4>
  %bv = arith.bitcast %b4 : vector<32xi4> to vector<32xf4E2M1FN>
  vector.transfer_write %bv, %b[%c0] {in_bounds = [true]} : vector<32xf4E2M1FN>, memref<32xf4E2M1FN>
  %sa = memref.alloc() : memref<4xf8E8M0FNU>
  %s8 = arith.constant dense<[127, 128, -127, 126]> : vector<4xi8>
  %sv = arith.bitcast %s8 : vector<4xi8> to vector<4xf8E8M0FNU>
  vector.transfer_write %sv, %sa[%c0] {in_bounds = [true]} : vector<4xf8E8M0FNU>, memref<4xf8E8M0FNU>
  %sb = memref.alloc() : memref<f8E8M0FNU>
  %s0 = arith.constant 0x7F : f8E8M0FNU
  memref.store %s0, %sb[] : memref<f8E8M0FNU>
  %c = memref.alloc() : memref<4xf32>
  func.call @mx_gemv(%a, %b, %sa, %sb, %c) : (memref<4x32xf4E2M1FN>, memref<32xf4E2M1FN>, memref<4xf8E8M0FNU>, memref<f8E8M0FNU>, memref<4xf32>) -> ()
  %u = memref.cast %c : memref<4xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

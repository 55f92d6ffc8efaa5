// examples/in.mlir — a sample input for mxcert-opt (README.md, docs/mlir.md): the MX block dot
// product of docs/spec.md §8 (e2m1, K = 2) once with variable scale codes (the pass inserts a
// runtime guard) and once with constant codes 127, 127 (the pass rewrites it at compile time),
// and a @main that prints both results for mlir-runner:
//   build/mlir_pass/mxcert-opt examples/in.mlir --mx-scale-placement
//   build/mlir_pass/mxcert-opt examples/in.mlir --mx-scale-placement --mx-to-llvm |
//     mlir-runner-22 -e main -entry-point-result=void -O2 \
//       -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so
// prints 0.15625 (a = [1, 0.5], b = [1.5, 2], scales 2^3 and 2^-7: (1.5 + 1) * 2^-4) and 3.5.

func.func @dot(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @dot_unit_scales(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %s = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %s : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %s : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @main() {
  %a = arith.constant dense<[1.0, 0.5]> : vector<2xf4E2M1FN>
  %b = arith.constant dense<[1.5, 2.0]> : vector<2xf4E2M1FN>
  %sa = arith.constant 0x82 : f8E8M0FNU
  %sb = arith.constant 0x78 : f8E8M0FNU
  %r = func.call @dot(%a, %b, %sa, %sb) : (vector<2xf4E2M1FN>, vector<2xf4E2M1FN>, f8E8M0FNU, f8E8M0FNU) -> f32
  vector.print %r : f32
  %c = arith.constant dense<[3.0, 1.0]> : vector<2xf4E2M1FN>
  %d = arith.constant dense<[1.0, 0.5]> : vector<2xf4E2M1FN>
  %u = func.call @dot_unit_scales(%c, %d) : (vector<2xf4E2M1FN>, vector<2xf4E2M1FN>) -> f32
  vector.print %u : f32
  return
}

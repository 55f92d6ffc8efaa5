// A k = 32 MXFP4 block dot product (SPEC §8 form), the input of denormal.mlir's committed-table run.
func.func @dot(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// guards=FILE with an any-order certificate (`mxcert table --tree any`, docs/bounds.md "Every
// reduction order"): its agree set holds for every reduction tree, seq included, so it serves
// the ordered `vector.reduction` of SPEC §8 like a seq table (after the checker has verified
// it). An any:2 table (binary trees) covers seq too. A value-relation any-order table does
// not fit (the pass needs bitwise).
// REQUIRES: mxcert
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mxcert table --format mxfp4 --k 4 --tree any --lhs dequant --rhs post -o %t/any.json
// RUN: %mxcert table --format mxfp4 --k 4 --tree any:2 --lhs post --rhs dequant -o %t/any2.json
// RUN: %mxcert table --format mxfp4 --k 4 --tree any --lhs dequant --rhs post --relation value -o %t/value.json
// RUN: mxcert-opt %s --mx-scale-placement=guards=%t/any.json 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: mxcert-opt %s --mx-scale-placement=guards=%t/any2.json 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: mxcert-opt %s --mx-scale-placement=guards=%t/value.json 2>&1 | FileCheck %s --check-prefix=VALUE
//
// ANY: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..121} of any{{2?}}.json, dequant elsewhere
// ANY: scf.if
// ANY: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..121", mxcert.post = "f32"}
// VALUE: does not fit this block: the table is for e2m1 x e2m1, k = 4, tree any, f32 rne keep, dequant/post value; the IR needs e2m1 x e2m1, k = 4, tree seq
// VALUE-NOT: scf.if
func.func @e2m1_k4(%a: vector<4xf4E2M1FN>, %b: vector<4xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<4xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %P = arith.mulf %A, %B : vector<4xf32>
  %R = vector.reduction <add>, %P : vector<4xf32> into f32
  return %R : f32
}

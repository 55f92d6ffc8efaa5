// guards=INDEX: a sweep index (`mxcert sweep`, docs/sweeps.md) or a directory holding one as
// index.json. A block uses the first certified entry whose configuration, placements and
// relation fit it; the entry's certificate is read, must be exactly the entry's table, and is
// verified by the checker as any certificate. An entry that is not certified is never read
// and leaves the block unchanged like a missing table, naming the entry and its status; so
// does a configuration the index does not list (the committed tables play no part).
// REQUIRES: mxcert
//
// The index, made at test time: a sweep of Inputs/index_manifest.json into a directory that
// already holds the committed e2m1 k = 2 certificate (entry 0: resumed, no solver run), and
// entry 1 stopped at its term limit (unknown: sweep exits 3). Garbage under entry 1's file name
// shows that it is never read.
// RUN: rm -rf %t && mkdir -p %t
// RUN: cp %tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json %t/
// RUN: not %mxcert sweep %inputs/index_manifest.json -o %t --quiet
// RUN: echo junk > %t/e4m3xe4m3_f32_rne_keep_k32_seq_dequant-post_bitwise.json
// RUN: mxcert-opt %s --mx-scale-placement=guards=%t/index.json 2>&1 | FileCheck %s
// RUN: mxcert-opt %s --mx-scale-placement=guards=%t 2>&1 | FileCheck %s
//
// CHECK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere
// CHECK: remark: mx-scale-placement: left unchanged: no certified table for e4m3 x e4m3, k = 32 (seq or any, f32 rne keep, dequant/post bitwise) in index '{{.*}}index.json': entry 1 (e4m3xe4m3_f32_rne_keep_k32_seq_dequant-post_bitwise) has status unknown
// CHECK: remark: mx-scale-placement: left unchanged: no certified table for e2m1 x e2m1, k = 4 (seq or any, f32 rne keep, dequant/post bitwise) in index '{{.*}}index.json' (no entry of this configuration); make one with `mxcert table --a e2m1 --b e2m1 --acc f32 --k 4 --tree seq --lhs dequant --rhs post --relation bitwise -o e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json` and pass guards=e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json
// CHECK-LABEL: func.func @e2m1_k2(
// CHECK: scf.if
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..122", mxcert.post = "f32"}
// CHECK-LABEL: func.func @e4m3_k32_unknown(
// CHECK-NOT: scf.if
// CHECK: vector.reduction <add>
// CHECK-LABEL: func.func @e2m1_k4_unlisted(
// CHECK-NOT: scf.if
// CHECK: vector.reduction <add>
func.func @e2m1_k2(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @e4m3_k32_unknown(%a: vector<32xf8E4M3FN>, %b: vector<32xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

func.func @e2m1_k4_unlisted(%a: vector<4xf4E2M1FN>, %b: vector<4xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<4xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %P = arith.mulf %A, %B : vector<4xf32>
  %R = vector.reduction <add>, %P : vector<4xf32> into f32
  return %R : f32
}

// tables=: several table sources at once (docs/mlir.md, "Which tables the pass uses"). The
// pass looks for each block's table in the listed sources in order (a directory: its
// index.json if it has one, else its files by name; a sweep index; a certificate), then in
// tables-dir (the committed tables): a user-made K = 4 table serves the K = 4 block, the
// committed K = 2 table the K = 2 block, and the K = 8 block, served by neither, is left
// unchanged with a remark naming both places. Every table is verified like any certificate.
// REQUIRES: mxcert
// RUN: rm -rf %t && mkdir -p %t/user
// RUN: %mxcert table --a e2m1 --k 4 --lhs dequant --rhs post --quiet -o %t/user/e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json
// RUN: mxcert-opt %s "--mx-scale-placement=tables=%t/user" 2>&1 >/dev/null | FileCheck %s --check-prefix=DIR
// RUN: mxcert-opt %s "--mx-scale-placement=tables=%t/user/e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json" 2>&1 >/dev/null | FileCheck %s --check-prefix=FILE
// RUN: not mxcert-opt %s "--mx-scale-placement=tables=%t/missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mxcert-opt %s "--mx-scale-placement=tables=%t/user guards=%tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json" 2>&1 | FileCheck %s --check-prefix=BOTH
//
// DIR: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..121} of e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json
// DIR: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// DIR: remark: mx-scale-placement: left unchanged: no certified table for e2m1 x e2m1, k = 8 (seq or any, f32 rne keep, dequant/post bitwise) in '{{.*}}user'; make one with `{{.*}}; no certified table for e2m1 x e2m1, k = 8 (seq or any, f32 rne keep, dequant/post bitwise) in '{{.*}}certs/tables'
//
// FILE: remark: mx-scale-placement: inserted a runtime guard: {{.*}} of e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json
// FILE: remark: mx-scale-placement: inserted a runtime guard: {{.*}} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// FILE: remark: mx-scale-placement: left unchanged: guard table '{{.*}}e2m1xe2m1_f32_rne_keep_k4_seq_dequant-post_bitwise.json' does not fit this block: the table is for e2m1 x e2m1, k = 4, {{.*}}; no certified table for e2m1 x e2m1, k = 8
//
// MISSING: error: mx-scale-placement: cannot use tables='{{.*}}missing': cannot read '{{.*}}missing': No such file or directory
// BOTH: error: mx-scale-placement: guards= and tables= cannot be combined

func.func @k4(%a: vector<4xf4E2M1FN>, %b: vector<4xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<4xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %P = arith.mulf %A, %B : vector<4xf32>
  %R = vector.reduction <add>, %P : vector<4xf32> into f32
  return %R : f32
}

func.func @k2(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @k8(%a: vector<8xf4E2M1FN>, %b: vector<8xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<8xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<8xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<8xf4E2M1FN>, vector<8xf8E8M0FNU> to vector<8xf32>
  %B = arith.scaling_extf %b, %sbv : vector<8xf4E2M1FN>, vector<8xf8E8M0FNU> to vector<8xf32>
  %P = arith.mulf %A, %B : vector<8xf32>
  %R = vector.reduction <add>, %P : vector<8xf32> into f32
  return %R : f32
}

// guards=FILE: a certificate or a compact "mxcert-guard-table" is used for every block after its
// configuration is checked against the IR (element types, k, seq tree, f32 rne keep,
// dequant/post, bitwise); a table for another configuration leaves the block unchanged with a
// remark saying what differs (nothing is verified for that). An unreadable or invalid file is
// an error: no output, exit 1. The compact tables used for rewrites here need
// allow-uncertified=true; certificates and the checker are tested in verify.mlir.
//
// RUN: mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_narrow.json allow-uncertified=true" 2>&1 | FileCheck %s --check-prefix=NARROW
// NARROW: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the agree set {xa:100..150,xb:100..150,e:-20..20} of e2m1_k2_narrow.json (uncertified compact table, not checked), dequant elsewhere
// NARROW-DAG: arith.constant 100 : i32
// NARROW-DAG: arith.constant 150 : i32
// NARROW-DAG: arith.constant -20 : i32
// NARROW-DAG: arith.constant 20 : i32
// NARROW: } {mxcert.guard = "xa:100..150,xb:100..150,e:-20..20", mxcert.post = "f32"}
//
// Two regions: the condition is the OR of one conjunction per region.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_two_regions.json allow-uncertified=true" 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: %[[XA:.+]] = arith.extui {{.*}} : i8 to i32
// TWO: %[[XB:.+]] = arith.extui {{.*}} : i8 to i32
// TWO: %[[E:.+]] = arith.subi
// TWO: %[[C126:.+]] = arith.constant 126 : i32
// TWO-NEXT: arith.cmpi sle, %[[XA]], %[[C126]] : i32
// TWO: %[[C10:.+]] = arith.constant -10 : i32
// TWO-NEXT: arith.cmpi sle, %[[E]], %[[C10]] : i32
// TWO-NEXT: %[[R0:.+]] = arith.andi
// TWO: %[[C127:.+]] = arith.constant 127 : i32
// TWO-NEXT: arith.cmpi sge, %[[XA]], %[[C127]] : i32
// TWO: %[[ANY:.+]] = arith.ori %[[R0]], %{{.+}} : i1
// TWO-NEXT: scf.if %[[ANY]]
// TWO: } {mxcert.guard = "xa:0..126,xb:0..254,e:-147..-10|xa:127..252,xb:0..252,e:0..122", mxcert.post = "f32"}
//
// The placements may be listed in either order.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_post_dequant.json allow-uncertified=true" 2>&1 | FileCheck %s --check-prefix=SWAPPED
// SWAPPED: inserted a runtime guard
//
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e4m3_k2.json 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: remark: mx-scale-placement: left unchanged: guard table '{{.*}}e4m3_k2.json' does not fit this block: the table is for e4m3 x e4m3, k = 2, tree seq, f32 rne keep, dequant/post bitwise; the IR needs e2m1 x e2m1, k = 2, tree seq, f32 rne keep, dequant/post bitwise
// OTHER-NOT: scf.if
//
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_value.json 2>&1 | FileCheck %s --check-prefix=VALUE
// VALUE: does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, f32 rne keep, dequant/post value;
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_pre_post.json 2>&1 | FileCheck %s --check-prefix=PRE
// PRE: does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, f32 rne keep, pre/post bitwise;
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_rtz.json 2>&1 | FileCheck %s --check-prefix=RTZ
// RTZ: does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, f32 rtz keep, dequant/post bitwise;
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_ftz.json 2>&1 | FileCheck %s --check-prefix=FTZ
// FTZ: does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, f32 rne ftz, dequant/post bitwise;
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_bf16.json 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: does not fit this block: the table is for e2m1 x e2m1, k = 2, tree seq, bf16 rne keep, dequant/post bitwise;
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k4_pairwise.json 2>&1 | FileCheck %s --check-prefix=TREE
// TREE: does not fit this block: the table is for e2m1 x e2m1, k = 4, tree ((0 1) (2 3)), f32 rne keep, dequant/post bitwise; the IR needs e2m1 x e2m1, k = 2
// An empty agree set decides nothing: no allow-uncertified needed.
// RUN: mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_empty.json 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: remark: mx-scale-placement: left unchanged: the agree set of e2m1_k2_empty.json (uncertified compact table) is empty
//
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/bad_not_json.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/bad_empty.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/bad_code_range.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/bad_unknown_key.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/bad_format_name.json 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/does_not_exist.json 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: mx-scale-placement: cannot use guards='{{.*}}.json': {{.+}}
// BAD-NOT: func.func
// BAD-NOT: scf.if
func.func @dot(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// Mixed element types in either operand order, served by the committed grown set
// (certs/grown, searched after certs/tables by default): an e4m3 x e2m1 block by the table
// certified for e4m3 x e2m1, an e2m1 x e4m3 block by the one certified for e2m1 x e4m3. Neither
// is derived from the other (their agree sets are transposes of each other, but no certificate
// states that the placements commute: docs/mlir.md, "Table lookup"). With tables-dir= set, the
// grown set is not searched and both blocks are left unchanged.
// The pass verifies the certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: mxcert-opt %s "--mx-scale-placement=tables-dir=%tables" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOGROWN
//
// REMARK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..246,xb:0..252,e:-139..111} of e4m3xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json, dequant elsewhere
// REMARK: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..246,e:-139..111} of e2m1xe4m3_f32_rne_keep_k32_seq_dequant-post_bitwise.json, dequant elsewhere
//
// NOGROWN: remark: mx-scale-placement: left unchanged: no certified table for e4m3 x e2m1, k = 32 (seq or any, f32 rne keep, dequant/post bitwise) in '{{.*}}certs/tables'; make one with `mxcert table --a e4m3 --b e2m1
// NOGROWN: remark: mx-scale-placement: left unchanged: no certified table for e2m1 x e4m3, k = 32 (seq or any, f32 rne keep, dequant/post bitwise) in '{{.*}}certs/tables'; make one with `mxcert table --a e2m1 --b e4m3

// The guard of each block tests its own a code against its own bound: xa <= 246 where a is
// e4m3 (the largest e4m3 element, 448, times 2^(xa - 127) must stay finite after dequant),
// xb <= 246 where b is.
// CHECK-LABEL: func.func @e4m3_e2m1(
// CHECK: %[[XA:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[XB:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[C246:.*]] = arith.constant 246 : i32
// CHECK: arith.cmpi sle, %[[XA]], %[[C246]] : i32
// CHECK: %[[C252:.*]] = arith.constant 252 : i32
// CHECK: arith.cmpi sle, %[[XB]], %[[C252]] : i32
// CHECK: scf.if
// CHECK: arith.extf %{{.*}} : vector<32xf8E4M3FN> to vector<32xf32>
// CHECK: arith.extf %{{.*}} : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK: } else {
// CHECK: arith.scaling_extf
func.func @e4m3_e2m1(%a: vector<32xf8E4M3FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// CHECK-LABEL: func.func @e2m1_e4m3(
// CHECK: %[[XA:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[XB:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[C252:.*]] = arith.constant 252 : i32
// CHECK: arith.cmpi sle, %[[XA]], %[[C252]] : i32
// CHECK: %[[C246:.*]] = arith.constant 246 : i32
// CHECK: arith.cmpi sle, %[[XB]], %[[C246]] : i32
// CHECK: scf.if
func.func @e2m1_e4m3(%a: vector<32xf4E2M1FN>, %b: vector<32xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E4M3FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

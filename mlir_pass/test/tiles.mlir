// Tiles: one vector.contract (or vector.multi_reduction over dimension 1) computing M dot
// products, one per row of a vector<MxK> operand, each an MX block (docs/mlir.md, "Tiles"). A
// row's scale is one code broadcast over the tile or one code per row (a vector<Mx1x...>
// broadcast along the rows, also as i8 bits); the other operand may be a vector<K> shared by
// the rows. The runtime guard takes the post branch when every row's codes lie in the agree
// set (the i1 conditions of the rows AND-reduced); constant per-row codes are decided at compile
// time, each row's 2^e a constant of its own. A matmul tile (two parallel dimensions) is one dot
// product per output element, with codes per row of a and per column of b.
// (mlir_exec_e2m1_contract-tile runs a 4x32 tile over all 65,536 code pairs.)
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// One scale for the whole tile: a scalar guard; the post branch scales the 4 sums by one 2^e.
// CHECK-LABEL: func.func @tile_matvec(
// CHECK: %[[XA:.+]] = arith.extui %{{.*}} : i8 to i32
// CHECK: %[[E:.+]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
// CHECK: %[[D:.+]] = vector.contract {{.*}} : vector<4x32xf32>, vector<32xf32> into vector<4xf32>
// CHECK: %[[P:.+]] = arith.bitcast %{{.*}} : i32 to f32
// CHECK-NEXT: %[[PV:.+]] = vector.broadcast %[[P]] : f32 to vector<4xf32>
// CHECK-NEXT: arith.mulf %[[D]], %[[PV]] : vector<4xf32>
// CHECK: } else {
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @tile_matvec(%a: vector<4x32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> vector<4xf32> {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<4x32xf32>, vector<32xf32> into vector<4xf32>
  return %R : vector<4xf32>
}

// -----

// Per-row codes: xa, xb and e as vector<4xi32>, the rows' conditions AND-reduced.
// CHECK-LABEL: func.func @tile_rows(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: vector<4x1xf8E8M0FNU>
// CHECK: %[[R:.+]] = vector.shape_cast %[[SA]] : vector<4x1xf8E8M0FNU> to vector<4xf8E8M0FNU>
// CHECK-NEXT: %[[R8:.+]] = arith.bitcast %[[R]] : vector<4xf8E8M0FNU> to vector<4xi8>
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[R8]] : vector<4xi8> to vector<4xi32>
// CHECK: %[[XB:.+]] = vector.broadcast %{{.*}} : i32 to vector<4xi32>
// CHECK: arith.cmpi sle, %[[XA]], %{{.*}} : vector<4xi32>
// CHECK: %[[ALL:.+]] = vector.reduction <and>, %{{.*}} : vector<4xi1> into i1
// CHECK: scf.if %[[ALL]] -> (vector<4xf32>) {
// CHECK: arith.bitcast %{{.*}} : vector<4xi32> to vector<4xf32>
// CHECK: } {mxcert.guard = "xa:0..246,xb:0..246,e:-131..105", mxcert.post = "f32"}
func.func @tile_rows(%a: vector<4x32xf8E4M3FN>, %b: vector<4x32xf8E4M3FN>, %sa: vector<4x1xf8E8M0FNU>, %sb: f8E8M0FNU) -> vector<4xf32> {
  %sav = vector.broadcast %sa : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4x32xf8E4M3FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4x32xf8E4M3FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %z = arith.constant dense<-0.0> : vector<4xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in (for every row of the tile) the certified agree set {xa:0..246,xb:0..246,e:-131..105} of e4m3xe4m3_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<4x32xf32>, vector<4x32xf32> into vector<4xf32>
  return %R : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @tile_multi_reduction(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: vector<4x1xi8>
// CHECK: %[[R:.+]] = vector.shape_cast %[[SA]] : vector<4x1xi8> to vector<4xi8>
// CHECK-NEXT: arith.extui %[[R]] : vector<4xi8> to vector<4xi32>
// CHECK: scf.if
// CHECK: vector.multi_reduction <add>, %{{.*}}, %{{.*}} [1] : vector<4x32xf32> to vector<4xf32>
// CHECK: } {mxcert.guard = "xa:0..250,xb:0..250,e:-141..113", mxcert.post = "f32"}
func.func @tile_multi_reduction(%a: vector<4x32xf6E3M2FN>, %b: vector<4x32xf6E3M2FN>, %sa: vector<4x1xi8>, %sb: vector<4x1xf8E8M0FNU>) -> vector<4xf32> {
  %sai = vector.broadcast %sa : vector<4x1xi8> to vector<4x32xi8>
  %sav = arith.bitcast %sai : vector<4x32xi8> to vector<4x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4x32xf6E3M2FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4x32xf6E3M2FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %P = arith.mulf %A, %B : vector<4x32xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  // expected-remark @below {{(for every row of the tile) the certified agree set {xa:0..250,xb:0..250,e:-141..113} of e3m2xe3m2_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.multi_reduction <add>, %P, %z [1] : vector<4x32xf32> to vector<4xf32>
  return %R : vector<4xf32>
}

// -----

// Constant per-row codes inside the agree set: 2^e per row, exact f32 constants.
// CHECK-LABEL: func.func @tile_constant_rows(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[D:.+]] = vector.contract
// CHECK: %[[P:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 8.000000e+00, 7.4505806E-9]> : vector<4xf32>
// CHECK: arith.mulf %[[D]], %[[P]] : vector<4xf32>
func.func @tile_constant_rows(%a: vector<4x32xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> vector<4xf32> {
  %sa = arith.constant dense<[[0x7F], [0x80], [0x82], [0x64]]> : vector<4x1xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sbv = arith.constant dense<0x7F> : vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes (per row) xa = [127, 128, 130, 100], xb = [127, 127, 127, 127] (e = [0, 1, 3, -27]) lie in the certified agree set}}
  %R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<4x32xf32>, vector<32xf32> into vector<4xf32>
  return %R : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @tile_row_outside(
// CHECK: arith.scaling_extf
// CHECK-NOT: scf.if
func.func @tile_row_outside(%a: vector<4x32xf4E2M1FN>, %b: vector<32xf4E2M1FN>) -> vector<4xf32> {
  %sa = arith.constant dense<[[0x7F], [0x80], [0xFD], [0x64]]> : vector<4x1xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<4x1xf8E8M0FNU> to vector<4x32xf8E8M0FNU>
  %sbv = arith.constant dense<0x7F> : vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4x32xf4E2M1FN>, vector<4x32xf8E8M0FNU> to vector<4x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %z = arith.constant dense<0.0> : vector<4xf32>
  // expected-remark @below {{left unchanged: scale codes (per row) xa = [127, 128, 253, 100], xb = [127, 127, 127, 127] (e = [0, 1, 126, -27]): row 2's codes lie outside the certified agree set {xa:0..252,xb:0..252,e:-147..117}}}
  %R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<4x32xf32>, vector<32xf32> into vector<4xf32>
  return %R : vector<4xf32>
}

// -----

// A matmul tile (two parallel dimensions): output (i, j) is row i of a times column j of b.
// One code per row of a and per column of b (a vector<3xf8E8M0FNU> broadcast along K): xa and
// xb become vector<2x3xi32> (a's through a broadcast and transpose), the 6 conditions are
// flattened and AND-reduced, and 2^e is per output element.
// CHECK-LABEL: func.func @tile_matmul(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: vector<2x1xf8E8M0FNU>, %[[SB:[a-z0-9]+]]: vector<3xf8E8M0FNU>
// CHECK: %[[XA:.+]] = arith.extui %{{.*}} : vector<2xi8> to vector<2xi32>
// CHECK: %[[SB8:.+]] = arith.bitcast %[[SB]] : vector<3xf8E8M0FNU> to vector<3xi8>
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[SB8]] : vector<3xi8> to vector<3xi32>
// CHECK-NEXT: %[[T:.+]] = vector.broadcast %[[XA]] : vector<2xi32> to vector<3x2xi32>
// CHECK-NEXT: vector.transpose %[[T]], [1, 0] : vector<3x2xi32> to vector<2x3xi32>
// CHECK-NEXT: vector.broadcast %[[XB]] : vector<3xi32> to vector<2x3xi32>
// CHECK: vector.shape_cast %{{.*}} : vector<2x3xi1> to vector<6xi1>
// CHECK-NEXT: vector.reduction <and>, %{{.*}} : vector<6xi1> into i1
// CHECK: scf.if %{{.*}} -> (vector<2x3xf32>) {
// CHECK: arith.bitcast %{{.*}} : vector<2x3xi32> to vector<2x3xf32>
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @tile_matmul(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>, %sa: vector<2x1xf8E8M0FNU>, %sb: vector<3xf8E8M0FNU>) -> vector<2x3xf32> {
  %sav = vector.broadcast %sa : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<3xf8E8M0FNU> to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<2x3xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in (for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// -----

// b as vector<NxK> ((i, j, k) -> (j, k)): its per-row codes are the output's per-column codes.
// CHECK-LABEL: func.func @tile_matmul_bt(
// CHECK: scf.if %{{.*}} -> (vector<2x3xf32>) {
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @tile_matmul_bt(%a: vector<2x32xf4E2M1FN>, %b: vector<3x32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: vector<3x1xf8E8M0FNU>) -> vector<2x3xf32> {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<3x1xf8E8M0FNU> to vector<3x32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<3x32xf4E2M1FN>, vector<3x32xf8E8M0FNU> to vector<3x32xf32>
  %z = arith.constant dense<-0.0> : vector<2x3xf32>
  // expected-remark @below {{(for every element of the tile) the certified agree set}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<3x32xf32> into vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// -----

// Constant codes per row and per column: decided at compile time, 2^e per output element.
// CHECK-LABEL: func.func @tile_matmul_constant(
// CHECK-NOT: arith.scaling_extf
// CHECK: %[[D:.+]] = vector.contract
// CHECK: %[[P:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00, 3.05175781E-5], [2.000000e+00, 8.000000e+00, 6.10351563E-5]]> : vector<2x3xf32>
// CHECK: arith.mulf %[[D]], %[[P]] : vector<2x3xf32>
func.func @tile_matmul_constant(%a: vector<2x32xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>) -> vector<2x3xf32> {
  %sa = arith.constant dense<[[0x7F], [0x80]]> : vector<2x1xf8E8M0FNU>
  %sb = arith.constant dense<[0x7F, 0x81, 0x70]> : vector<3xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<2x1xf8E8M0FNU> to vector<2x32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<3xf8E8M0FNU> to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2x32xf4E2M1FN>, vector<2x32xf8E8M0FNU> to vector<2x32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<2x3xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes (per element, row-major) xa = [127, 127, 127, 128, 128, 128], xb = [127, 129, 112, 127, 129, 112] (e = [0, 2, -15, 1, 3, -14])}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<2x32xf32>, vector<32x3xf32> into vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// -----

// a held transposed, as vector<KxM> ((i, j, k) -> (k, i)): its per-column codes (a vector<M>
// broadcast along the K rows) are the output's per-row codes. The post branch contracts the
// unscaled elements with the same maps.
// CHECK-LABEL: func.func @tile_matmul_at(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: vector<2xf8E8M0FNU>, %[[SB:[a-z0-9]+]]: vector<3xf8E8M0FNU>
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : vector<2xf8E8M0FNU> to vector<2xi8>
// CHECK: %[[XA:.+]] = arith.extui %[[XA8]] : vector<2xi8> to vector<2xi32>
// CHECK: %[[T:.+]] = vector.broadcast %[[XA]] : vector<2xi32> to vector<3x2xi32>
// CHECK: vector.transpose %[[T]], [1, 0] : vector<3x2xi32> to vector<2x3xi32>
// CHECK: scf.if %{{.*}} -> (vector<2x3xf32>) {
// CHECK: arith.extf %{{.*}} : vector<32x2xf4E2M1FN> to vector<32x2xf32>
// CHECK: vector.contract {{.*}} : vector<32x2xf32>, vector<32x3xf32> into vector<2x3xf32>
// CHECK: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
func.func @tile_matmul_at(%a: vector<32x2xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>, %sa: vector<2xf8E8M0FNU>, %sb: vector<3xf8E8M0FNU>) -> vector<2x3xf32> {
  %sav = vector.broadcast %sa : vector<2xf8E8M0FNU> to vector<32x2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<3xf8E8M0FNU> to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32x2xf4E2M1FN>, vector<32x2xf8E8M0FNU> to vector<32x2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<2x3xf32>
  // expected-remark @below {{(for every element of the tile) the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k33_any_dequant-post_bitwise.json}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<32x2xf32>, vector<32x3xf32> into vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// -----

// The same with constant codes: decided at compile time per output element (a's column codes
// are the rows' codes).
// CHECK-LABEL: func.func @tile_matmul_at_constant(
// CHECK-NOT: arith.scaling_extf
// CHECK: vector.contract
func.func @tile_matmul_at_constant(%a: vector<32x2xf4E2M1FN>, %b: vector<32x3xf4E2M1FN>) -> vector<2x3xf32> {
  %sa = arith.constant dense<[0x7F, 0x80]> : vector<2xf8E8M0FNU>
  %sb = arith.constant dense<[0x7F, 0x81, 0x70]> : vector<3xf8E8M0FNU>
  %sav = vector.broadcast %sa : vector<2xf8E8M0FNU> to vector<32x2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : vector<3xf8E8M0FNU> to vector<32x3xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32x2xf4E2M1FN>, vector<32x2xf8E8M0FNU> to vector<32x2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32x3xf4E2M1FN>, vector<32x3xf8E8M0FNU> to vector<32x3xf32>
  %z = arith.constant dense<0.0> : vector<2x3xf32>
  // expected-remark @below {{rewrote dequant to post: scale codes (per element, row-major) xa = [127, 127, 127, 128, 128, 128], xb = [127, 129, 112, 127, 129, 112] (e = [0, 2, -15, 1, 3, -14])}}
  %R = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (k, i)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %z : vector<32x2xf32>, vector<32x3xf32> into vector<2x3xf32>
  return %R : vector<2x3xf32>
}

// Runtime guards of --mx-scale-placement (scale codes known only at run time), for every element
// type at k = 2 and for k = 1 and 32: the guard compares the integer codes xa, xb and
// e = xa + xb - 254 with the certified region (bounds every code satisfies are left out: e >= -254
// for k = 1); inside it the post placement with 2^e built exactly from its f32 bits (normal, or
// also subnormal where the agree set reaches e < -126: mxcert.post = "f32") or, for k = 1 (e up
// to 250), from its f64 bits (mxcert.post = "f64"), outside it the original ops (which the
// pass does not match again).
// The pass verifies the committed certificates with the checker:
// REQUIRES: mxcert
// RUN: mxcert-opt %s --mx-scale-placement -verify-diagnostics -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @e2m1_k2(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<2xf4E2M1FN>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -147 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 122 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<2xf4E2M1FN> to vector<2xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<2xf4E2M1FN> to vector<2xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT:   %[[CLO:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[EN:.+]] = arith.maxsi %[[E]], %[[CLO]] : i32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[EN]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[C149:.+]] = arith.constant 149 : i32
// CHECK-NEXT:   %[[UP:.+]] = arith.addi %[[E]], %[[C149]] : i32
// CHECK-NEXT:   %[[CZ:.+]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[NN:.+]] = arith.maxsi %[[UP]], %[[CZ]] : i32
// CHECK-NEXT:   %[[C22:.+]] = arith.constant 22 : i32
// CHECK-NEXT:   %[[SH:.+]] = arith.minsi %[[NN]], %[[C22]] : i32
// CHECK-NEXT:   %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[SBITS:.+]] = arith.shli %[[ONE]], %[[SH]] : i32
// CHECK-NEXT:   %[[CLO2:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[ISN:.+]] = arith.cmpi sge, %[[E]], %[[CLO2]] : i32
// CHECK-NEXT:   %[[BITS:.+]] = arith.select %[[ISN]], %[[NBITS]], %[[SBITS]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<2xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<2xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..122", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k2(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m3_k2(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf6E2M3FN>, %[[B:[a-z0-9]+]]: vector<2xf6E2M3FN>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -143 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 122 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<2xf6E2M3FN> to vector<2xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<2xf6E2M3FN> to vector<2xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT:   %[[CLO:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[EN:.+]] = arith.maxsi %[[E]], %[[CLO]] : i32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[EN]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[C149:.+]] = arith.constant 149 : i32
// CHECK-NEXT:   %[[UP:.+]] = arith.addi %[[E]], %[[C149]] : i32
// CHECK-NEXT:   %[[CZ:.+]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[NN:.+]] = arith.maxsi %[[UP]], %[[CZ]] : i32
// CHECK-NEXT:   %[[C22:.+]] = arith.constant 22 : i32
// CHECK-NEXT:   %[[SH:.+]] = arith.minsi %[[NN]], %[[C22]] : i32
// CHECK-NEXT:   %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[SBITS:.+]] = arith.shli %[[ONE]], %[[SH]] : i32
// CHECK-NEXT:   %[[CLO2:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[ISN:.+]] = arith.cmpi sge, %[[E]], %[[CLO2]] : i32
// CHECK-NEXT:   %[[BITS:.+]] = arith.select %[[ISN]], %[[NBITS]], %[[SBITS]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<2xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<2xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..252,xb:0..252,e:-143..122", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m3_k2(%a: vector<2xf6E2M3FN>, %b: vector<2xf6E2M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E2M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-143..122} of e2m3xe2m3_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e3m2_k2(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf6E3M2FN>, %[[B:[a-z0-9]+]]: vector<2xf6E3M2FN>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 250 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 250 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -141 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 118 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<2xf6E3M2FN> to vector<2xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<2xf6E3M2FN> to vector<2xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT:   %[[CLO:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[EN:.+]] = arith.maxsi %[[E]], %[[CLO]] : i32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[EN]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[C149:.+]] = arith.constant 149 : i32
// CHECK-NEXT:   %[[UP:.+]] = arith.addi %[[E]], %[[C149]] : i32
// CHECK-NEXT:   %[[CZ:.+]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[NN:.+]] = arith.maxsi %[[UP]], %[[CZ]] : i32
// CHECK-NEXT:   %[[C22:.+]] = arith.constant 22 : i32
// CHECK-NEXT:   %[[SH:.+]] = arith.minsi %[[NN]], %[[C22]] : i32
// CHECK-NEXT:   %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[SBITS:.+]] = arith.shli %[[ONE]], %[[SH]] : i32
// CHECK-NEXT:   %[[CLO2:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[ISN:.+]] = arith.cmpi sge, %[[E]], %[[CLO2]] : i32
// CHECK-NEXT:   %[[BITS:.+]] = arith.select %[[ISN]], %[[NBITS]], %[[SBITS]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<2xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<2xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..250,xb:0..250,e:-141..118", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e3m2_k2(%a: vector<2xf6E3M2FN>, %b: vector<2xf6E3M2FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf6E3M2FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..250,xb:0..250,e:-141..118} of e3m2xe3m2_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e4m3_k2(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf8E4M3FN>, %[[B:[a-z0-9]+]]: vector<2xf8E4M3FN>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 246 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 246 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -131 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 110 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<2xf8E4M3FN> to vector<2xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<2xf8E4M3FN> to vector<2xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT:   %[[CLO:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[EN:.+]] = arith.maxsi %[[E]], %[[CLO]] : i32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[EN]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[C149:.+]] = arith.constant 149 : i32
// CHECK-NEXT:   %[[UP:.+]] = arith.addi %[[E]], %[[C149]] : i32
// CHECK-NEXT:   %[[CZ:.+]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[NN:.+]] = arith.maxsi %[[UP]], %[[CZ]] : i32
// CHECK-NEXT:   %[[C22:.+]] = arith.constant 22 : i32
// CHECK-NEXT:   %[[SH:.+]] = arith.minsi %[[NN]], %[[C22]] : i32
// CHECK-NEXT:   %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[SBITS:.+]] = arith.shli %[[ONE]], %[[SH]] : i32
// CHECK-NEXT:   %[[CLO2:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[ISN:.+]] = arith.cmpi sge, %[[E]], %[[CLO2]] : i32
// CHECK-NEXT:   %[[BITS:.+]] = arith.select %[[ISN]], %[[NBITS]], %[[SBITS]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<2xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<2xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..246,xb:0..246,e:-131..110", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e4m3_k2(%a: vector<2xf8E4M3FN>, %b: vector<2xf8E4M3FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E4M3FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..246,xb:0..246,e:-131..110} of e4m3xe4m3_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k2(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf8E5M2>, %[[B:[a-z0-9]+]]: vector<2xf8E5M2>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 239 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 239 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -117 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 96 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<2xf8E5M2> to vector<2xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<2xf8E5M2> to vector<2xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<2xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<2xf32> into f32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[E]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[NBITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<2xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<2xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..239,xb:0..239,e:-117..96", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e5m2_k2(%a: vector<2xf8E5M2>, %b: vector<2xf8E5M2>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf8E5M2>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..239,xb:0..239,e:-117..96} of e5m2xe5m2_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k1(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<1xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<1xf4E2M1FN>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant 250 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sle, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G2]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<1xf4E2M1FN> to vector<1xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<1xf4E2M1FN> to vector<1xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<1xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<1xf32> into f32
// CHECK-NEXT:   %[[D64:.+]] = arith.extf %[[D]] : f32 to f64
// CHECK-NEXT:   %[[C1023:.+]] = arith.constant 1023 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[E]], %[[C1023]] : i32
// CHECK-NEXT:   %[[W:.+]] = arith.extui %[[BIASED]] : i32 to i64
// CHECK-NEXT:   %[[C52:.+]] = arith.constant 52 : i64
// CHECK-NEXT:   %[[BITS:.+]] = arith.shli %[[W]], %[[C52]] : i64
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i64 to f64
// CHECK-NEXT:   %[[M:.+]] = arith.mulf %[[D64]], %[[POW]] : f64
// CHECK-NEXT:   %[[T:.+]] = arith.truncf %[[M]] : f64 to f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<1xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<1xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..252,xb:0..252,e:-254..250", mxcert.post = "f64"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k1(%a: vector<1xf4E2M1FN>, %b: vector<1xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<1xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<1xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %B = arith.scaling_extf %b, %sbv : vector<1xf4E2M1FN>, vector<1xf8E8M0FNU> to vector<1xf32>
  %P = arith.mulf %A, %B : vector<1xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-254..250} of e2m1xe2m1_f32_rne_keep_k1_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<1xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k1(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<1xf8E5M2>, %[[B:[a-z0-9]+]]: vector<1xf8E5M2>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 239 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 239 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant 224 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sle, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G2]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<1xf8E5M2> to vector<1xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<1xf8E5M2> to vector<1xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<1xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<1xf32> into f32
// CHECK-NEXT:   %[[D64:.+]] = arith.extf %[[D]] : f32 to f64
// CHECK-NEXT:   %[[C1023:.+]] = arith.constant 1023 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[E]], %[[C1023]] : i32
// CHECK-NEXT:   %[[W:.+]] = arith.extui %[[BIASED]] : i32 to i64
// CHECK-NEXT:   %[[C52:.+]] = arith.constant 52 : i64
// CHECK-NEXT:   %[[BITS:.+]] = arith.shli %[[W]], %[[C52]] : i64
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i64 to f64
// CHECK-NEXT:   %[[M:.+]] = arith.mulf %[[D64]], %[[POW]] : f64
// CHECK-NEXT:   %[[T:.+]] = arith.truncf %[[M]] : f64 to f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<1xf8E5M2>, vector<1xf8E8M0FNU> to vector<1xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<1xf8E5M2>, vector<1xf8E8M0FNU> to vector<1xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<1xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<1xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..239,xb:0..239,e:-254..224", mxcert.post = "f64"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e5m2_k1(%a: vector<1xf8E5M2>, %b: vector<1xf8E5M2>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<1xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<1xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<1xf8E5M2>, vector<1xf8E8M0FNU> to vector<1xf32>
  %B = arith.scaling_extf %b, %sbv : vector<1xf8E5M2>, vector<1xf8E8M0FNU> to vector<1xf32>
  %P = arith.mulf %A, %B : vector<1xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..239,xb:0..239,e:-254..224} of e5m2xe5m2_f32_rne_keep_k1_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<1xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e2m1_k32(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<32xf4E2M1FN>, %[[B:[a-z0-9]+]]: vector<32xf4E2M1FN>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 252 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -147 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 117 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<32xf4E2M1FN> to vector<32xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<32xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<32xf32> into f32
// CHECK-NEXT:   %[[CLO:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[EN:.+]] = arith.maxsi %[[E]], %[[CLO]] : i32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[EN]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[C149:.+]] = arith.constant 149 : i32
// CHECK-NEXT:   %[[UP:.+]] = arith.addi %[[E]], %[[C149]] : i32
// CHECK-NEXT:   %[[CZ:.+]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[NN:.+]] = arith.maxsi %[[UP]], %[[CZ]] : i32
// CHECK-NEXT:   %[[C22:.+]] = arith.constant 22 : i32
// CHECK-NEXT:   %[[SH:.+]] = arith.minsi %[[NN]], %[[C22]] : i32
// CHECK-NEXT:   %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[SBITS:.+]] = arith.shli %[[ONE]], %[[SH]] : i32
// CHECK-NEXT:   %[[CLO2:.+]] = arith.constant -126 : i32
// CHECK-NEXT:   %[[ISN:.+]] = arith.cmpi sge, %[[E]], %[[CLO2]] : i32
// CHECK-NEXT:   %[[BITS:.+]] = arith.select %[[ISN]], %[[NBITS]], %[[SBITS]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<32xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<32xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..252,xb:0..252,e:-147..117", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e2m1_k32(%a: vector<32xf4E2M1FN>, %b: vector<32xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf4E2M1FN>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..117} of e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

// -----

// CHECK-LABEL: func.func @e5m2_k32(
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<32xf8E5M2>, %[[B:[a-z0-9]+]]: vector<32xf8E5M2>, %[[SA:[a-z0-9]+]]: f8E8M0FNU, %[[SB:[a-z0-9]+]]: f8E8M0FNU
// CHECK-DAG: %[[SAV:.+]] = vector.broadcast %[[SA]]
// CHECK-DAG: %[[SBV:.+]] = vector.broadcast %[[SB]]
// CHECK: %[[XA8:.+]] = arith.bitcast %[[SA]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XA:.+]] = arith.extui %[[XA8]] : i8 to i32
// CHECK-NEXT: %[[XB8:.+]] = arith.bitcast %[[SB]] : f8E8M0FNU to i8
// CHECK-NEXT: %[[XB:.+]] = arith.extui %[[XB8]] : i8 to i32
// CHECK-NEXT: %[[C254:.+]] = arith.constant 254 : i32
// CHECK-NEXT: %[[SUM:.+]] = arith.addi %[[XA]], %[[XB]] : i32
// CHECK-NEXT: %[[E:.+]] = arith.subi %[[SUM]], %[[C254]] : i32
// CHECK-NEXT: %[[K0:.+]] = arith.constant 239 : i32
// CHECK-NEXT: %[[C0:.+]] = arith.cmpi sle, %[[XA]], %[[K0]] : i32
// CHECK-NEXT: %[[K1:.+]] = arith.constant 239 : i32
// CHECK-NEXT: %[[C1:.+]] = arith.cmpi sle, %[[XB]], %[[K1]] : i32
// CHECK-NEXT: %[[G1:.+]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %[[K2:.+]] = arith.constant -117 : i32
// CHECK-NEXT: %[[C2:.+]] = arith.cmpi sge, %[[E]], %[[K2]] : i32
// CHECK-NEXT: %[[G2:.+]] = arith.andi %[[G1]], %[[C2]] : i1
// CHECK-NEXT: %[[K3:.+]] = arith.constant 91 : i32
// CHECK-NEXT: %[[C3:.+]] = arith.cmpi sle, %[[E]], %[[K3]] : i32
// CHECK-NEXT: %[[G3:.+]] = arith.andi %[[G2]], %[[C3]] : i1
// CHECK-NEXT: %[[R:.+]] = scf.if %[[G3]] -> (f32) {
// CHECK-NEXT:   %[[EA:.+]] = arith.extf %[[A]] : vector<32xf8E5M2> to vector<32xf32>
// CHECK-NEXT:   %[[EB:.+]] = arith.extf %[[B]] : vector<32xf8E5M2> to vector<32xf32>
// CHECK-NEXT:   %[[P:.+]] = arith.mulf %[[EA]], %[[EB]] : vector<32xf32>
// CHECK-NEXT:   %[[D:.+]] = vector.reduction <add>, %[[P]] : vector<32xf32> into f32
// CHECK-NEXT:   %[[C127:.+]] = arith.constant 127 : i32
// CHECK-NEXT:   %[[BIASED:.+]] = arith.addi %[[E]], %[[C127]] : i32
// CHECK-NEXT:   %[[C23:.+]] = arith.constant 23 : i32
// CHECK-NEXT:   %[[NBITS:.+]] = arith.shli %[[BIASED]], %[[C23]] : i32
// CHECK-NEXT:   %[[POW:.+]] = arith.bitcast %[[NBITS]] : i32 to f32
// CHECK-NEXT:   %[[T:.+]] = arith.mulf %[[D]], %[[POW]] : f32
// CHECK-NEXT:   scf.yield %[[T]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[OA:.+]] = arith.scaling_extf %[[A]], %[[SAV]] : vector<32xf8E5M2>, vector<32xf8E8M0FNU> to vector<32xf32>
// CHECK-NEXT:   %[[OB:.+]] = arith.scaling_extf %[[B]], %[[SBV]] : vector<32xf8E5M2>, vector<32xf8E8M0FNU> to vector<32xf32>
// CHECK-NEXT:   %[[OP:.+]] = arith.mulf %[[OA]], %[[OB]] : vector<32xf32>
// CHECK-NEXT:   %[[OR:.+]] = vector.reduction <add>, %[[OP]] : vector<32xf32> into f32
// CHECK-NEXT:   scf.yield %[[OR]] : f32
// CHECK-NEXT: } {mxcert.guard = "xa:0..239,xb:0..239,e:-117..91", mxcert.post = "f32"}
// CHECK-NEXT: return %[[R]] : f32
func.func @e5m2_k32(%a: vector<32xf8E5M2>, %b: vector<32xf8E5M2>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<32xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<32xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<32xf8E5M2>, vector<32xf8E8M0FNU> to vector<32xf32>
  %B = arith.scaling_extf %b, %sbv : vector<32xf8E5M2>, vector<32xf8E8M0FNU> to vector<32xf32>
  %P = arith.mulf %A, %B : vector<32xf32>
  // expected-remark @below {{inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..239,xb:0..239,e:-117..91} of e5m2xe5m2_f32_rne_keep_k32_seq_dequant-post_bitwise.json, dequant elsewhere}}
  %R = vector.reduction <add>, %P : vector<32xf32> into f32
  return %R : f32
}

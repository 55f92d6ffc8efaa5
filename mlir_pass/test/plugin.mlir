// The pass plugin: upstream mlir-opt (Debian's mlir-opt-22) with --load-pass-plugin runs the
// same passes as mxcert-opt. Its passes are named in --pass-pipeline (mlir-opt creates its
// --PASS flags before it loads plugins). The other tests' inputs must pass their own checks
// (the same CHECK lines and expected diagnostics), and the output and the diagnostics must be
// byte for byte those of mxcert-opt. A copy in an install layout finds the prefix's tables and
// checker by itself; loading it twice, or into mxcert-opt, changes nothing.
// REQUIRES: mxcert, mlir-opt
//
// DEFINE: %{opt} = %mlir_opt --load-pass-plugin=%plugin
//
// (a) The other tests' checks.
// RUN: %{opt} %S/static.mlir --pass-pipeline='builtin.module(mx-scale-placement)' -verify-diagnostics -split-input-file | FileCheck %S/static.mlir
// RUN: %{opt} %S/runtime.mlir --pass-pipeline='builtin.module(mx-scale-placement)' -verify-diagnostics -split-input-file | FileCheck %S/runtime.mlir
// RUN: %{opt} %S/untouched.mlir --pass-pipeline='builtin.module(mx-scale-placement)' -verify-diagnostics -split-input-file | FileCheck %S/untouched.mlir
// RUN: %{opt} %S/no_table.mlir --pass-pipeline='builtin.module(mx-scale-placement)' -verify-diagnostics -split-input-file | FileCheck %S/no_table.mlir
// RUN: %{opt} %S/split_blocks.mlir --pass-pipeline='builtin.module(mx-split-blocks)' -verify-diagnostics -split-input-file | FileCheck %S/split_blocks.mlir
// RUN: %{opt} %S/modes.mlir --pass-pipeline='builtin.module(mx-scale-placement{mode=runtime})' -verify-diagnostics -split-input-file | FileCheck %S/modes.mlir --check-prefix=RUNTIME
// RUN: %{opt} %S/modes.mlir --pass-pipeline='builtin.module(mx-scale-placement{mode=static})' -verify-diagnostics=only-expected -split-input-file | FileCheck %S/modes.mlir --check-prefix=STATIC
// RUN: %{opt} %S/guards_file.mlir --pass-pipeline='builtin.module(mx-scale-placement{guards=%inputs/e2m1_k2_two_regions.json allow-uncertified=true})' 2>&1 | FileCheck %S/guards_file.mlir --check-prefix=TWO
// RUN: not %{opt} %S/guards_file.mlir --pass-pipeline='builtin.module(mx-scale-placement{guards=%inputs/bad_not_json.json})' 2>&1 | FileCheck %S/guards_file.mlir --check-prefix=BAD
// RUN: %{opt} %S/lower.mlir --pass-pipeline='builtin.module(mx-scale-placement,mx-to-llvm)' | FileCheck %S/lower.mlir
// RUN: %{opt} %S/lower.mlir --pass-pipeline='builtin.module(mx-lower-narrow-floats)' | FileCheck %S/lower.mlir --check-prefix=NARROW
// RUN: %{opt} %S/run.mlir --pass-pipeline='builtin.module(mx-scale-placement,mx-to-llvm)' 2>/dev/null | %mlir_runner -e main -entry-point-result=void -O2 -shared-libs=%runner_libs | FileCheck %S/run.mlir
//
// (b) Byte for byte mxcert-opt's output and diagnostics (stdout and stderr apart).
// RUN: mxcert-opt %S/../../examples/in.mlir --mx-scale-placement > %t.opt.out 2> %t.opt.err
// RUN: %{opt} %S/../../examples/in.mlir --pass-pipeline='builtin.module(mx-scale-placement)' > %t.plugin.out 2> %t.plugin.err
// RUN: diff %t.opt.out %t.plugin.out && diff %t.opt.err %t.plugin.err
// RUN: FileCheck %s --check-prefix=IN --input-file=%t.plugin.err
// IN: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere
// IN: remark: mx-scale-placement: rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// RUN: mxcert-opt %S/runtime.mlir --mx-scale-placement -split-input-file > %t.opt.out 2> %t.opt.err
// RUN: %{opt} %S/runtime.mlir --pass-pipeline='builtin.module(mx-scale-placement)' -split-input-file > %t.plugin.out 2> %t.plugin.err
// RUN: diff %t.opt.out %t.plugin.out && diff %t.opt.err %t.plugin.err
// RUN: mxcert-opt %S/static.mlir --mx-scale-placement=mode=runtime -split-input-file > %t.opt.out 2> %t.opt.err
// RUN: %{opt} %S/static.mlir --pass-pipeline='builtin.module(mx-scale-placement{mode=runtime})' -split-input-file > %t.plugin.out 2> %t.plugin.err
// RUN: diff %t.opt.out %t.plugin.out && diff %t.opt.err %t.plugin.err
// RUN: mxcert-opt %S/../../examples/in.mlir --mx-scale-placement --mx-to-llvm > %t.opt.out 2> %t.opt.err
// RUN: %{opt} %S/../../examples/in.mlir --pass-pipeline='builtin.module(mx-scale-placement,mx-to-llvm)' > %t.plugin.out 2> %t.plugin.err
// RUN: diff %t.opt.out %t.plugin.out && diff %t.opt.err %t.plugin.err
//
// (c) Installed: <prefix>/<plugindir>/libMxcertPassPlugin.so uses <prefix>/<tablesdir> (here it
// holds the e2m1 k = 2 table only, so the k = 4 block below names that directory) and
// <prefix>/<bindir>/mxcert (a wrapper that logs its arguments), with no mxcert on PATH.
// RUN: rm -rf %t.prefix && mkdir -p %t.prefix/%install_plugindir %t.prefix/%install_bindir %t.prefix/%install_tablesdir
// RUN: cp %plugin %t.prefix/%install_plugindir/
// RUN: cp %tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json %t.prefix/%install_tablesdir/
// RUN: printf '#!/bin/sh\necho "$@" >> %t.log\nexec %mxcert "$@"\n' > %t.prefix/%install_bindir/mxcert && chmod +x %t.prefix/%install_bindir/mxcert
// RUN: rm -f %t.log
// RUN: env -u MXCERT_CHECKER MXCERT_CHECK_CACHE=none PATH=%t.prefix/nothing %mlir_opt --load-pass-plugin=%t.prefix/%install_plugindir/libMxcertPassPlugin.so %s --pass-pipeline='builtin.module(mx-scale-placement)' 2>&1 | FileCheck %s --check-prefix=INSTALLED -DTABLES=%t.prefix/%install_tablesdir
// INSTALLED: remark: mx-scale-placement: rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// INSTALLED: remark: mx-scale-placement: left unchanged: no certified table for e2m1 x e2m1, k = 4 (seq or any, f32 rne keep, dequant/post bitwise) in '[[TABLES]]'
// RUN: FileCheck %s --check-prefix=LOG --input-file=%t.log
// LOG: check {{.*}}e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
//
// (d) A copy outside an install layout, with no mxcert on PATH, finds no checker and refuses.
// RUN: rm -rf %t.loose && mkdir %t.loose && cp %plugin %t.loose/
// RUN: not env -u MXCERT_CHECKER MXCERT_CHECK_CACHE=none PATH=%t.loose %mlir_opt --load-pass-plugin=%t.loose/libMxcertPassPlugin.so %s --pass-pipeline='builtin.module(mx-scale-placement{guards=%tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json})' 2>&1 | FileCheck %s --check-prefix=NOCHECKER
// NOCHECKER: error: mx-scale-placement: cannot verify guard table '{{.*}}.json': no checker found (no mxcert next to this executable or plugin, in its build tree or on PATH); pass checker=PATH (the `mxcert` binary) or set MXCERT_CHECKER
//
// (e) Loaded twice, or into mxcert-opt, which has the passes already: the second registration
// is skipped (the pass registry aborts on a name registered twice); the same output.
// RUN: mxcert-opt %S/../../examples/in.mlir --mx-scale-placement > %t.opt.out 2> %t.opt.err
// RUN: mxcert-opt --load-pass-plugin=%plugin %S/../../examples/in.mlir --mx-scale-placement --mx-to-llvm > %t.twice.out
// RUN: mxcert-opt %S/../../examples/in.mlir --mx-scale-placement --mx-to-llvm | diff - %t.twice.out
// RUN: %{opt} --load-pass-plugin=%plugin %S/../../examples/in.mlir --pass-pipeline='builtin.module(mx-scale-placement)' > %t.twice.out 2> %t.twice.err
// RUN: diff %t.opt.out %t.twice.out && diff %t.opt.err %t.twice.err

func.func @unit_scales(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %s = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %s : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %s : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

func.func @k4(%a: vector<4xf4E2M1FN>, %b: vector<4xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<4xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<4xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %B = arith.scaling_extf %b, %sbv : vector<4xf4E2M1FN>, vector<4xf8E8M0FNU> to vector<4xf32>
  %P = arith.mulf %A, %B : vector<4xf32>
  %R = vector.reduction <add>, %P : vector<4xf32> into f32
  return %R : f32
}

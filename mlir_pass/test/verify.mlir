// The pass uses only tables it has verified: a certificate must pass `mxcert check` (run as a
// subprocess) before its agree set decides anything; a compact table is refused unless
// allow-uncertified=true, and is then never called certified. Checker outcomes are cached by
// the table's SHA-256 and the checker's identity, in the process and in check-cache=DIR.
// REQUIRES: mxcert
//
// DEFINE: %{cert} = %tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
//
// (a) A committed certificate passes the checker (found by itself: the build tree's mxcert);
// the remarks call its agree set certified.
// RUN: mxcert-opt %s --mx-scale-placement=guards=%{cert} 2>&1 | FileCheck %s --check-prefix=CERT
// CERT: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json, dequant elsewhere
// CERT: remark: mx-scale-placement: rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// CERT: remark: mx-scale-placement: left unchanged: scale codes xa = 250, xb = 127 (e = 123) lie outside the certified agree set {xa:0..252,xb:0..252,e:-147..122} of e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// CERT: func.func @dot(
// CERT: scf.if
//
// (b) The same certificate with its agree set widened by hand (e up to 123, agree_pairs
// recomputed: schema-valid, but it claims pairs its witnesses refute). The checker rejects it,
// so the pass fails without output instead of rewriting @dot_outside; allow-uncertified does
// not change that (it concerns compact tables only).
// RUN: python3 %inputs/widen_agree.py %{cert} %t.wide.json
// RUN: not %mxcert check %t.wide.json 2>&1 | FileCheck %s --check-prefix=HAND
// HAND: mxcert: check failed: coverage: overlap: witnesses[3] claims to refute 128 pair(s) inside the agree set
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t.wide.json 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%t.wide.json allow-uncertified=true" 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: mx-scale-placement: guard table '{{.*}}.json' is rejected by the checker (mxcert check exit 1): coverage: overlap: witnesses[3] claims to refute 128 pair(s) inside the agree set, e.g. (xa=125, xb=252, e=123) in agree region 0 (xa:0..252,xb:0..252,e:-147..123)
// WIDE-NOT: error:
// WIDE-NOT: remark:
// WIDE-NOT: func.func
//
// (c) A compact table (`mxcert export --as json`: claims, no evidence) is refused by default;
// with allow-uncertified=true it is used without running any checker (the checker given does
// not exist), and nothing calls it certified.
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%inputs/e2m1_k2_narrow.json 2>&1 | FileCheck %s --check-prefix=NOALLOW
// NOALLOW: error: mx-scale-placement: guard table '{{.*}}e2m1_k2_narrow.json' is an uncertified compact table (claims without proofs or witnesses, nothing to check); pass its certificate, or allow-uncertified=true to use it unchecked
// NOALLOW-NOT: error:
// NOALLOW-NOT: func.func
// RUN: mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_narrow.json allow-uncertified=true checker=%t.no-such-checker" 2>&1 | FileCheck %s --check-prefix=ALLOW
// ALLOW: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the agree set {xa:100..150,xb:100..150,e:-20..20} of e2m1_k2_narrow.json (uncertified compact table, not checked), dequant elsewhere
// ALLOW: remark: mx-scale-placement: rewrote dequant to post: scale codes xa = 127, xb = 127 (e = 0) lie in the agree set {xa:100..150,xb:100..150,e:-20..20} of e2m1_k2_narrow.json (uncertified compact table, not checked)
// ALLOW: remark: mx-scale-placement: left unchanged: scale codes xa = 250, xb = 127 (e = 123) lie outside the agree set {xa:100..150,xb:100..150,e:-20..20} of e2m1_k2_narrow.json (uncertified compact table, not checked)
// ALLOW: scf.if
// RUN: mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_narrow.json allow-uncertified=true" 2>&1 >/dev/null | not grep -E '(^|[^n])certified'
//
// (d) The cache. A checker that logs its invocations runs once for the first use of a file's
// bytes; a second run finds the entry in check-cache; the same path with other bytes (a
// trailing newline: same claims) is checked again; the widened file copied over the path the
// cache knows is rejected: entries are keyed by content, never by path.
// RUN: rm -rf %t.cache %t.log && cp %{cert} %t.cert.json
// RUN: printf '#!/bin/sh\necho "$@" >> %t.log\nexec %mxcert "$@"\n' > %t.logging && chmod +x %t.logging
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t.cert.json checker=%t.logging check-cache=%t.cache" 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t.cert.json checker=%t.logging check-cache=%t.cache" 2>&1 | FileCheck %s --check-prefix=CACHED
// CACHED: remark: mx-scale-placement: inserted a runtime guard: post where (xa, xb) lies in the certified agree set {xa:0..252,xb:0..252,e:-147..122} of verify.mlir.tmp.cert.json, dequant elsewhere
// RUN: FileCheck %s --check-prefix=LOG1 --input-file=%t.log
// LOG1: check {{.*}}.json
// LOG1-NOT: check
// RUN: ls %t.cache | count 1
// RUN: echo >> %t.cert.json
// RUN: mxcert-opt %s --mx-scale-placement="guards=%t.cert.json checker=%t.logging check-cache=%t.cache" 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: FileCheck %s --check-prefix=LOG2 --input-file=%t.log
// LOG2: check {{.*}}.tmp.cert.json
// LOG2-NEXT: check {{.*}}.tmp.cert.json
// LOG2-NOT: check
// RUN: ls %t.cache | count 2
// RUN: cp %t.wide.json %t.cert.json
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%t.cert.json checker=%t.logging check-cache=%t.cache" 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: ls %t.cache | count 2
//
// Within one process each table is checked once, even without a disk cache: the two
// -split-input-file chunks run the pass twice.
// RUN: rm -f %t.log && mxcert-opt %s -split-input-file --mx-scale-placement="guards=%{cert} checker=%t.logging check-cache=none" 2>&1 | FileCheck %s --check-prefix=CERT
// RUN: FileCheck %s --check-prefix=LOG1 --input-file=%t.log
//
// The default cache: $MXCERT_CHECK_CACHE (lit sets it), else $XDG_CACHE_HOME/mxcert/checked,
// else $HOME/.cache/mxcert/checked; `none` turns it off.
// RUN: rm -rf %t.xdg %t.home
// RUN: env -u MXCERT_CHECK_CACHE XDG_CACHE_HOME=%t.xdg HOME=%t.home mxcert-opt %s --mx-scale-placement=guards=%{cert} -o /dev/null 2>/dev/null
// RUN: ls %t.xdg/mxcert/checked | count 1
// RUN: test ! -e %t.home
// RUN: env -u MXCERT_CHECK_CACHE -u XDG_CACHE_HOME HOME=%t.home mxcert-opt %s --mx-scale-placement=guards=%{cert} -o /dev/null 2>/dev/null
// RUN: ls %t.home/.cache/mxcert/checked | count 1
// RUN: rm -rf %t.xdg %t.home
// RUN: env MXCERT_CHECK_CACHE=none XDG_CACHE_HOME=%t.xdg HOME=%t.home mxcert-opt %s --mx-scale-placement=guards=%{cert} -o /dev/null 2>/dev/null
// RUN: env XDG_CACHE_HOME=%t.xdg HOME=%t.home mxcert-opt %s --mx-scale-placement="guards=%{cert} check-cache=none" -o /dev/null 2>/dev/null
// RUN: test ! -e %t.xdg && test ! -e %t.home
//
// A cache directory that cannot be written is not an error: one warning, the table is used.
// RUN: mxcert-opt %s --mx-scale-placement="guards=%{cert} check-cache=%s/cache" 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: warning: mx-scale-placement: cannot write the check cache '{{.*}}verify.mlir/cache': Not a directory; tables are checked again in every run (check-cache=DIR chooses another directory, check-cache=none turns the cache off)
// UNWRITABLE-NOT: warning:
// UNWRITABLE: inserted a runtime guard: post where (xa, xb) lies in the certified agree set
// UNWRITABLE-NOT: warning:
//
// Finding the checker: checker= first, then $MXCERT_CHECKER.
// RUN: rm -f %t.log && env MXCERT_CHECKER=%t.no-such-checker mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=%t.logging check-cache=none" 2>&1 | FileCheck %s --check-prefix=CERT
// RUN: FileCheck %s --check-prefix=LOG1 --input-file=%t.log
// RUN: rm -f %t.log && env MXCERT_CHECKER=%t.logging mxcert-opt %s --mx-scale-placement="guards=%{cert} check-cache=none" 2>&1 | FileCheck %s --check-prefix=CERT
// RUN: FileCheck %s --check-prefix=LOG1 --input-file=%t.log
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=%t.no-such-checker" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: mx-scale-placement: cannot run the checker '{{.*}}.no-such-checker' to verify guard table '{{.*}}e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json': no such file
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=no-such-mxcert-checker" 2>&1 | FileCheck %s --check-prefix=NOTONPATH
// NOTONPATH: error: mx-scale-placement: cannot verify guard table '{{.*}}.json': the checker 'no-such-mxcert-checker' (checker=) is not on PATH
//
// (e) A copy of mxcert-opt outside the build tree, with no mxcert next to it or on PATH, finds
// no checker and refuses; with an mxcert next to it, it uses that one.
// RUN: rm -rf %t.bin && mkdir %t.bin && cp %mxcert_opt %t.bin/mxcert-opt
// RUN: not env -u MXCERT_CHECKER PATH=%t.bin %t.bin/mxcert-opt %s --mx-scale-placement=guards=%{cert} 2>&1 | FileCheck %s --check-prefix=NOCHECKER
// NOCHECKER: error: mx-scale-placement: cannot verify guard table '{{.*}}.json': no checker found (no mxcert next to this executable or plugin, in its build tree or on PATH); pass checker=PATH (the `mxcert` binary) or set MXCERT_CHECKER
// NOCHECKER-NOT: func.func
// RUN: cp %mxcert %t.bin/mxcert
// RUN: env -u MXCERT_CHECKER PATH=%t.bin %t.bin/mxcert-opt %s --mx-scale-placement=guards=%{cert} 2>&1 | FileCheck %s --check-prefix=CERT
// Tables that need no verification still work without a checker.
// RUN: rm %t.bin/mxcert
// RUN: env -u MXCERT_CHECKER PATH=%t.bin %t.bin/mxcert-opt %s --mx-scale-placement="guards=%inputs/e2m1_k2_narrow.json allow-uncertified=true" 2>&1 | FileCheck %s --check-prefix=ALLOW
// RUN: env -u MXCERT_CHECKER PATH=%t.bin %t.bin/mxcert-opt %s --mx-scale-placement=guards=%inputs/e4m3_k2.json 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: remark: mx-scale-placement: left unchanged: guard table '{{.*}}e4m3_k2.json' does not fit this block
//
// Every checker outcome: exit 2 and 3 (the checker's first diagnostic line is quoted), another
// exit status (the first FALSE or unknown claim of its stdout), a crash, and a file that
// changes while it is checked.
// RUN: printf '#!/bin/sh\necho "mxcert: error: pretend the file is invalid" >&2\nexit 2\n' > %t.exit2 && chmod +x %t.exit2
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=%t.exit2 check-cache=none" 2>&1 | FileCheck %s --check-prefix=EXIT2
// EXIT2: error: mx-scale-placement: guard table '{{.*}}.json' is not a valid certificate (mxcert check exit 2): pretend the file is invalid
// RUN: printf '#!/bin/sh\nexec %mxcert "$@" --solver none\n' > %t.exit3 && chmod +x %t.exit3
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=%t.exit3 check-cache=none" 2>&1 | FileCheck %s --check-prefix=EXIT3
// EXIT3: error: mx-scale-placement: guard table '{{.*}}.json' is not verified: the checker could not finish (mxcert check exit 3): proofs[0]: region xa:0..252,xb:0..252,e:-147..122: {{.*}}not re-proven (--solver none)
// RUN: printf '#!/bin/sh\necho "holds  agree: fine"\necho "FALSE  coverage: pretend"\nexit 7\n' > %t.exit7 && chmod +x %t.exit7
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=%t.exit7 check-cache=none" 2>&1 | FileCheck %s --check-prefix=EXIT7
// EXIT7: error: mx-scale-placement: cannot run the checker '{{.*}}.exit7' to verify guard table '{{.*}}.json': it exited with 7: coverage: pretend
// RUN: printf '#!/bin/sh\nkill -SEGV $$\n' > %t.crash && chmod +x %t.crash
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%{cert} checker=%t.crash check-cache=none" 2>&1 | FileCheck %s --check-prefix=CRASH
// CRASH: error: mx-scale-placement: cannot run the checker '{{.*}}.crash' to verify guard table '{{.*}}.json': it crashed: {{.+}}
// RUN: cp %{cert} %t.changing.json
// RUN: printf '#!/bin/sh\necho >> "$2"\nexec %mxcert "$@"\n' > %t.changer && chmod +x %t.changer
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%t.changing.json checker=%t.changer check-cache=%t.cache2" 2>&1 | FileCheck %s --check-prefix=CHANGED
// CHANGED: error: mx-scale-placement: guard table '{{.*}}.changing.json' changed while the checker was reading it
// RUN: test ! -e %t.cache2 || ls %t.cache2 | count 0

func.func @dot(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// -----

// Constant codes inside every agree set used here (e = 0).
func.func @dot_inside(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %s = arith.constant dense<0x7F> : vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %s : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %s : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

// Constant codes just outside the certified agree set (e = 123): what the widened certificate
// would wrongly rewrite.
func.func @dot_outside(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant dense<0xFA> : vector<2xf8E8M0FNU>
  %sb = arith.constant dense<0x7F> : vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sa : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sb : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

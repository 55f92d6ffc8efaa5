// guards=INDEX errors (one line, no output module, exit 1): a malformed index (not JSON, or
// not of the documented schema), a directory without index.json, and a certified entry whose
// certificate is missing, is another table, or is a compact table.
// REQUIRES: mxcert
//
// RUN: rm -rf %t && mkdir -p %t/empty
// RUN: cp %tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json %t/
// RUN: not %mxcert sweep %inputs/index_manifest.json -o %t --quiet
//
// RUN: head -c 100 %t/index.json > %t/truncated.json
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t/truncated.json 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: mx-scale-placement: cannot use guards='{{.*}}truncated.json': '{{.*}}truncated.json' is not valid JSON: {{.+}}
// TRUNC-NOT: func.func
// RUN: sed 's/"unknown"/"maybe"/' %t/index.json > %t/status.json
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t/status.json 2>&1 | FileCheck %s --check-prefix=STATUS
// STATUS: error: mx-scale-placement: cannot use guards='{{.*}}status.json': entries[1]: field 'status': expected certified, unknown or failed
// STATUS-NOT: func.func
// RUN: sed 's/"entries_total": 2/"entries_total": 1/' %t/index.json > %t/total.json
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t/total.json 2>&1 | FileCheck %s --check-prefix=TOTAL
// TOTAL: error: mx-scale-placement: cannot use guards='{{.*}}total.json': field 'entries': more entries than entries_total
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t/empty 2>&1 | FileCheck %s --check-prefix=NOINDEX
// NOINDEX: error: mx-scale-placement: cannot use guards='{{.*}}empty': cannot read '{{.*}}empty/index.json': No such file or directory
//
// The entry fits the block, but its certificate is missing / of another configuration / compact.
// RUN: mkdir -p %t/other && cp %t/index.json %t/other/
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t/other 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: mx-scale-placement: cannot read guard table: index entry 0 (e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise): cannot read '{{.*}}other/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json': No such file or directory
// MISSING-NOT: func.func
// RUN: cp %tables/e2m1xe2m1_f32_rne_keep_k1_seq_dequant-post_bitwise.json %t/other/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// RUN: not mxcert-opt %s --mx-scale-placement=guards=%t/other 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: mx-scale-placement: cannot read guard table: index entry 0 (e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise): '{{.*}}other/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json': not the entry's table (its 'config' differs from the index's)
// RUN: %mxcert export %t/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json --as json -o %t/other/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json
// RUN: not mxcert-opt %s --mx-scale-placement="guards=%t/other allow-uncertified=true" 2>&1 | FileCheck %s --check-prefix=COMPACT
// COMPACT: error: mx-scale-placement: cannot read guard table: index entry 0 (e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise): '{{.*}}': not a certificate ("format": "mxcert-certificate")
func.func @e2m1_k2(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>, %sa: f8E8M0FNU, %sb: f8E8M0FNU) -> f32 {
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}

#!/usr/bin/env bash
# tests/cli/test_nvfp4.sh — NVFP4 (e2m1 elements, e4m3 scales) end to end: `eval` with exact
# bits (a non-power-of-two scale, bf16 rounding that separates post from pre, the zero and NaN
# scale codes), the option checks (exit 2, one line), the exhaustive table at k = 1 and 2 with
# exactly derived agree sets, `check` of those certificates (witness replay, the agree set by
# enumeration), `export` (a compiled C++ header against the set, JSON, MLIR), a certificate
# claiming pairs outside 0..127, and prove/emit-smt2 refused (the
# solver table: test_nvfp4_solver.sh).
# Usage: test_nvfp4.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

# 1.5 * 6 + (-3) * 0.5 = 7.5, times sa * sb = 1 * 1.125: 8.4375 = 0x41070000 everywhere.
run eval --format nvfp4 --k 2 --xa 56 --xb 57 --a-vals "1.5 -3" --b-vals "6 0.5"
expect_rc 0 "nvfp4 eval"
py "nvfp4 eval text" '
import sys
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
assert (tok["xa"], tok["xb"], tok["sa"], tok["sb"]) == ("56", "57", "1", "1.125"), tok
assert "e" not in tok, tok
for p in ("pre", "post", "dequant", "post2"):
    assert tok[p] == "8.4375/0x41070000", (p, tok[p])
'

# bf16, sa = sb = 1.125, a = b = (6, 0.5): post rounds 45.87890625 once (46); pre and
# dequant round the leaf 45.5625 to 45.5 first (45.75); post2 rounds twice (45.75).
run eval --format nvfp4 --acc bf16 --k 2 --xa 57 --xb 57 --a-vals "6 0.5" --b-vals "6 0.5" --json
expect_rc 0 "nvfp4 eval bf16 --json"
py "nvfp4 eval bf16 json" '
import sys, json
d = json.load(open(sys.argv[1]))
assert d["config"]["scale"] == "e4m3" and d["config"]["a"] == "e2m1" and d["config"]["acc"] == "bf16", d["config"]
r = d["results"][0]
assert (r["xa"], r["xb"], r["sa"], r["sb"]) == (57, 57, "1.125", "1.125") and "e" not in r, r
bits = {p: v["bits"] for p, v in r["values"].items()}
assert bits == {"pre": "0x4237", "post": "0x4238", "dequant": "0x4237", "post2": "0x4237"}, bits
assert r["related"]["pre~post"] is False and r["related"]["pre~dequant"] is True, r["related"]
'

# Zero scale: +0 times the value (pre and dequant sum +0 and -0 leaves; post scales D = -1);
# the NaN code 127 gives NaN everywhere. --scale e4m3 with e2m1 is the same as nvfp4.
run eval --a e2m1 --scale e4m3 --k 2 --xa 0 --xb 56,127 --a-vals "1 -2" --b-vals "1 1" 2>/dev/null
expect_rc 2 "bad --xb list"
run eval --a e2m1 --scale e4m3 --k 2 --xa 0 --xb 126..127 --a-vals "1 -2" --b-vals "1 1" --placements pre,post
expect_rc 0 "nvfp4 eval zero/NaN scale"
py "nvfp4 zero and NaN scales" '
import sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 2, lines
t0 = dict(t.split("=", 1) for t in lines[0].split())
t1 = dict(t.split("=", 1) for t in lines[1].split())
assert t0["sb"] == "448" and t0["pre"] == "0/0x00000000" and t0["post"] == "-0/0x80000000", t0
assert t0["pre~post"] == "differ", t0
assert t1["sb"] == "nan" and t1["pre"] == "nan/0x7FC00000" and t1["post"] == "nan/0x7FC00000", t1
assert t1["pre~post"] == "related", t1
'
run eval --format nvfp4 --k 1 --xa all --xb 5 --a-vals 1 --b-vals 1
expect_rc 0 "nvfp4 eval --xa all"
if [ "$(wc -l <"$OUT")" -eq 128 ]; then ok; else fail "nvfp4 --xa all: expected 128 lines"; fi

# Bad combinations: exit 2 and one line naming the problem.
bad() {  # bad DESCRIPTION EXPECTED-TEXT ARGS...
  local desc="$1" want="$2"
  shift 2
  run "$@"
  expect_rc 2 "$desc"
  if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q -- "$want" "$ERR"; then ok; else fail "$desc: stderr $(cat "$ERR")"; fi
}
bad "nvfp4 with --a" "exclusive" eval --format nvfp4 --a e4m3 --k 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "e4m3 scale, e4m3 elements" "needs e2m1 elements" eval --a e4m3 --scale e4m3 --k 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "nvfp4 with --scale" "exclusive" eval --format nvfp4 --scale e4m3 --k 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "unknown --scale" "unknown --scale" eval --a e2m1 --scale e5m2 --k 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "e4m3 code 128" "out of range 0..127" eval --format nvfp4 --k 1 --xa 128 --xb 1 --a-vals 1 --b-vals 1
bad "--k and --block" "exclusive" eval --format nvfp4 --k 1 --block 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "nvfp4 default k 16" "k = 16" eval --format nvfp4 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "nvfp4 prove" "nvfp4: prove, cex, bound and emit-smt2 take e8m0 code regions" prove --format nvfp4 --k 1 --guard e:0
bad "nvfp4 emit-smt2" "use \`mxcert table\`" emit-smt2 --format nvfp4 --k 1 --guard e:0

# --block is --k.
run eval --format nvfp4 --block 1 --xa 56 --xb 56 --a-vals 6 --b-vals -6 --placements post
expect_rc 0 "nvfp4 --block"
if grep -q "post=-36/0xC2100000" "$OUT"; then ok; else fail "nvfp4 --block: $(cat "$OUT")"; fi

# The exhaustive table, k = 1, f32: every product is exact, so dequant and post agree on all
# 128 x 128 e4m3 code pairs.
run table --format nvfp4 --k 1 --engine exhaustive --lhs dequant --rhs post -o "$TMP/k1.json"
expect_rc 0 "nvfp4 table k=1"
if grep -q "^agree: 16384 of 16384 code pairs" "$OUT"; then ok; else fail "nvfp4 table k=1: $(head -3 "$OUT")"; fi

# k = 2, f32: the sums are exact too; only the sign of a zero differs: with a zero scale and a
# finite other one, post gives -0 for D < 0 where dequant adds +0 and -0 leaves. So the agree
# set is every pair except those with a code 0 and no code 127: 16384 - 253 pairs.
run table --format nvfp4 --k 2 --engine exhaustive --lhs dequant --rhs post -o "$TMP/k2.json"
expect_rc 0 "nvfp4 table k=2"
OUT="$TMP/k2.json"
py "nvfp4 k=2 agree set" '
import sys, json
c = json.load(open(sys.argv[1]))
assert c["config"] == {"a": "e2m1", "b": "e2m1", "acc": "f32", "round": "rne", "subnormals": "keep", "k": 2,
                       "tree": "(0 1)", "scale": "e4m3"}, c["config"]
assert c["engine"] == "exhaustive" and "bound" not in c, c.keys()
def pairs(regions):
    return {(a, b) for r in regions for a in range(r["xa"][0], r["xa"][1] + 1)
            for b in range(r["xb"][0], r["xb"][1] + 1) if r["e"][0] <= a + b - 254 <= r["e"][1]}
agree = pairs(c["agree"])
want = {(a, b) for a in range(128) for b in range(128) if not ((a == 0 or b == 0) and 127 not in (a, b))}
assert agree == want, (len(agree), len(want))
assert c["agree_pairs"] == 16131
refuted = set()
for w in c["witnesses"]:
    refuted |= pairs(w["refutes"])
assert refuted == {(a, b) for a in range(128) for b in range(128)} - want
'

for k in 1 2; do
  run check "$TMP/k$k.json"
  expect_rc 0 "nvfp4 check k=$k"
  if grep -q "^holds  agree (nvfp4, proven by enumeration)" "$OUT" && grep -q "^HOLDS" "$OUT"; then ok
  else fail "nvfp4 check k=$k: $(cat "$OUT")"; fi
done
if grep -q "holds  witnesses: 1 witness(es), 253 refuted pair(s) replayed" "$OUT"; then ok; else fail "k=2 witnesses: $(cat "$OUT")"; fi

# bf16, k = 2, pre vs post: check replays every witness and proves the agree set.
run table --format nvfp4 --acc bf16 --k 2 --engine exhaustive -o "$TMP/bf16.json"
expect_rc 0 "nvfp4 table bf16"
run check "$TMP/bf16.json"
expect_rc 0 "nvfp4 check bf16"

# A certificate that claims a pair outside the e4m3 codes is false; an unknown scale is a
# schema error (exit 2, one line).
python3 - "$TMP/bf16.json" "$TMP/out1.json" "$TMP/bad_scale.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["witnesses"][0]["refutes"].append({"xa": [200, 200], "xb": [0, 0], "e": [-54, -54]})
json.dump(c, open(sys.argv[2], "w"))
c = json.load(open(sys.argv[1]))
c["config"]["scale"] = "e3m4"
json.dump(c, open(sys.argv[3], "w"))
PY
run check "$TMP/out1.json"
expect_rc 1 "nvfp4 check: pair outside 0..127"
if grep -q "FALSE  coverage: outside: 1 claimed code pair(s) lie outside the e4m3 codes 0..127" "$OUT"; then ok
else fail "outside pair: $(cat "$OUT")"; fi
bad "nvfp4 bad scale field" "config.scale" check "$TMP/bad_scale.json"

# export: a C++ header whose _safe() is true exactly on the agree set (codes 0..127; false
# above), the compact JSON (with config.scale) and the MLIR attribute (mxcert.scale).
run export "$TMP/k2.json" --as cpp --name nv2 -o "$TMP/nv2.h"
expect_rc 0 "nvfp4 export cpp"
cat >"$TMP/nv2.cpp" <<'CPP'
#include "nv2.h"
#include <cstdio>
int main() {
  long n = 0;
  for (int a = 0; a < 256; ++a)
    for (int b = 0; b < 256; ++b)
      if (nv2_safe(std::uint8_t(a), std::uint8_t(b))) {
        if (a > 127 || b > 127 || ((a == 0 || b == 0) && a != 127 && b != 127)) return 1;
        ++n;
      }
  std::printf("%ld\n", n);
  return n == nv2_agree_pairs ? 0 : 1;
}
CPP
if g++ -std=c++17 -I"$TMP" "$TMP/nv2.cpp" -o "$TMP/nv2" && [ "$("$TMP/nv2")" = 16131 ]; then ok; else fail "nvfp4 export cpp: safe() is not the agree set"; fi
run export "$TMP/k2.json" --as json
expect_rc 0 "nvfp4 export json"
OUT="$OUT" py "nvfp4 compact table" '
import sys, json
t = json.load(open(sys.argv[1]))
assert t["format"] == "mxcert-guard-table" and t["config"]["scale"] == "e4m3", t["config"]
'
run export "$TMP/k2.json" --as mlir
expect_rc 0 "nvfp4 export mlir"
if grep -q 'mxcert.scale = "e4m3"' "$OUT" && grep -q "mxcert.agree_pairs = 16131 : i64" "$OUT"; then ok
else fail "nvfp4 export mlir: $(head -c 300 "$OUT")"; fi
bad "nvfp4 plot" "e4m3 (nvfp4) tables are not supported by this reader yet" plot "$TMP/k1.json" -o "$TMP/k1.svg"

finish

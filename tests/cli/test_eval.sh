#!/usr/bin/env bash
# tests/cli/test_eval.sh — `mxcert eval` end to end: the issue's example (exact bits in text
# and JSON output), overflow/NaN/signed-zero cases, the value relation, every accumulator and
# its options, `--xa all --xb all` (65536 lines), code ranges and -o.
# Usage: test_eval.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

EX=(eval --a e2m1 --b e2m1 --acc f32 --k 4 --tree pairwise --xa 120 --xb 3
    --a-vals "6 -0.5 1 0" --b-vals "1 2 -0 0x3")

# The issue's example: 6*1 + (-0.5)*2 + 1*(-0) + 0*1.5 = 5, times 2^-131 = 5 * 2^-131, a
# subnormal: 5 * 2^18 units of 2^-149 = 0x00140000 in every placement.
run "${EX[@]}"
expect_rc 0 "eval example"
py "eval example text" '
import sys, struct
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
tok = dict(t.split("=", 1) for t in lines[0].split())
assert tok["xa"] == "120" and tok["xb"] == "3" and tok["e"] == "-131", tok
for p in ("pre", "post", "dequant", "post2"):
    dec, bits = tok[p].split("/")
    assert bits == "0x00140000", (p, bits)
    assert struct.unpack(">I", struct.pack(">f", float(dec)))[0] == 0x00140000, (p, dec)
rel = [k for k in tok if "~" in k]
assert len(rel) == 6 and all(tok[k] == "related" for k in rel), tok
'

run "${EX[@]}" --json
expect_rc 0 "eval example --json"
py "eval example json" '
import sys, json, struct
d = json.load(open(sys.argv[1]))
assert (d["schema"], d["schema_version"]) == ("mxcert-eval", 1), d
assert d["a"] == ["6", "-0.5", "1", "0"], d["a"]
assert d["b"] == ["1", "2", "-0", "1.5"], d["b"]
assert d["config"]["tree"] == "((0 1) (2 3))", d["config"]
assert d["config"]["k"] == 4 and d["config"]["acc"] == "f32", d["config"]
assert d["relation"] == "bitwise"
rs = d["results"]
assert len(rs) == 1
r = rs[0]
assert (r["xa"], r["xb"], r["e"]) == (120, 3, -131), r
assert set(r["values"]) == {"pre", "post", "dequant", "post2"}, r["values"]
for p, v in r["values"].items():
    assert v["bits"] == "0x00140000", (p, v)
    assert struct.unpack(">I", struct.pack(">f", float(v["value"])))[0] == 0x00140000, (p, v)
    assert float(v["value"]) == 5 * 2.0 ** -131 or abs(float(v["value"]) / (5 * 2.0 ** -131) - 1) < 1e-6
assert len(r["related"]) == 6 and all(r["related"].values()), r["related"]
'

# -o writes the same text to a file.
run "${EX[@]}" -o "$TMP/eval.txt"
expect_rc 0 "eval -o"
"$MX" "${EX[@]}" >"$TMP/eval.stdout"
if cmp -s "$TMP/eval.txt" "$TMP/eval.stdout" && [ ! -s "$OUT" ]; then ok; else fail "eval -o: file differs from stdout"; fi

# e = 123: pre overflows (inf + -inf = NaN), post cancels to +0; dequant overflows at
# 6 * 2^127 and gives NaN; post2 gives +0.
run eval --a e2m1 --k 2 --xa 254 --xb 123 --a-vals "6 6" --b-vals "6 -6" --json
expect_rc 0 "eval overflow"
py "eval overflow bits" '
import sys, json
r = json.load(open(sys.argv[1]))["results"][0]
v = {p: x["bits"] for p, x in r["values"].items()}
assert v == {"pre": "0x7FC00000", "post": "0x00000000", "dequant": "0x7FC00000", "post2": "0x00000000"}, v
assert r["e"] == 123
assert r["related"]["pre~post"] is False and r["related"]["pre~dequant"] is True, r["related"]
assert r["related"]["post~post2"] is True and r["related"]["post~dequant"] is False, r["related"]
'

# Scale code 255: NaN (0x7FC00000) everywhere.
for xs in "255 3" "3 255" "255 255"; do
  set -- $xs
  run eval --a e2m1 --k 1 --xa "$1" --xb "$2" --a-vals "-0" --b-vals "1"
  expect_rc 0 "eval code 255 ($xs)"
  py "eval code 255 ($xs)" '
import sys
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
for p in ("pre", "post", "dequant", "post2"):
    assert tok[p] == "nan/0x7FC00000", (p, tok[p])
'
done

# Signed zeros: -0 * 1 = -0 in every placement.
run eval --a e2m1 --k 1 --xa 127 --xb 127 --a-vals "-0" --b-vals "1"
py "eval -0" '
import sys
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
for p in ("pre", "post", "dequant", "post2"):
    assert tok[p].endswith("/0x80000000"), (p, tok[p])
'

# e = -254: pre gives -0 + +0 = +0, post gives rnd(-0.25 * 2^-254) = -0: bitwise differ,
# value related.
for rel in bitwise value; do
  run eval --a e2m1 --k 2 --xa 0 --xb 0 --a-vals "-0.5 0.5" --b-vals "1 0.5" --placements pre,post --relation "$rel"
  expect_rc 0 "eval signed zero ($rel)"
  REL="$rel" py "eval signed zero ($rel)" '
import sys, os
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
assert tok["pre"].endswith("/0x00000000") and tok["post"].endswith("/0x80000000"), tok
assert "dequant" not in tok and "post2" not in tok, tok
want = "differ" if os.environ["REL"] == "bitwise" else "related"
assert tok["pre~post"] == want, tok
'
done

# Accumulator formats: 6 * 6 = 36 in each.
for spec in "f32 0x42100000" "bf16 0x4210" "f16 0x5080" "f64 0x4042000000000000"; do
  set -- $spec
  run eval --a e2m1 --acc "$1" --k 1 --xa 127 --xb 127 --a-vals 6 --b-vals 6 --placements post
  expect_rc 0 "eval acc $1"
  WANT="$2" py "eval acc $1" '
import sys, os
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
assert tok["post"].split("/")[1] == os.environ["WANT"], tok
'
done

# Rounding and subnormal options: 36 * 2^254 overflows (rne: inf, rtz: max finite);
# 0.25 * 2^-147 = 2^-149 is the smallest subnormal (ftz: +0).
for spec in "rne keep 254 254 6 0x7F800000" "rtz keep 254 254 6 0x7F7FFFFF" \
            "rne keep 0 107 0.5 0x00000001" "rne ftz 0 107 0.5 0x00000000" "rtz ftz 0 107 0.5 0x00000000"; do
  set -- $spec
  run eval --a e2m1 --k 1 --round "$1" --subnormals "$2" --xa "$3" --xb "$4" --a-vals "$5" --b-vals "$5"
  expect_rc 0 "eval $spec"
  WANT="$6" py "eval $spec" '
import sys, os
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
for p in ("pre", "post", "dequant", "post2"):
    assert tok[p].split("/")[1] == os.environ["WANT"], (p, tok)
'
done

# daz: the dequant factor 2^-127 (code 0) reads as +0, so dequant is +0 where ftz keeps
# 6 * 2^-127 = 3 * 2^-126 (normal: 0x01400000); the other placements scale exactly.
for spec in "ftz 0x01400000" "daz 0x00000000"; do
  set -- $spec
  run eval --a e2m1 --k 1 --subnormals "$1" --xa 0 --xb 127 --a-vals 6 --b-vals 1
  expect_rc 0 "eval $spec"
  WANT="$2" py "eval $spec" '
import sys, os
tok = dict(t.split("=", 1) for t in open(sys.argv[1]).read().split())
assert tok["dequant"].split("/")[1] == os.environ["WANT"], tok
for p in ("pre", "post"):
    assert tok[p].split("/")[1] == "0x01400000", (p, tok)
'
done

# Every code pair: 256 * 256 lines, in order, each with its own e. (Under the sanitizer build,
# cli_eval_asan, pre and post only: they are evaluated once per e; dequant and post2 pair by
# pair take about 35 s there.)
PLACEMENTS=()
[ -n "${MXCERT_TEST_SANITIZED:-}" ] && PLACEMENTS=(--placements pre,post)
run eval --a e2m1 --b e2m1 --acc f32 --k 4 --tree pairwise --xa all --xb all \
    --a-vals "6 -0.5 1 0" --b-vals "1 2 -0 0x3" "${PLACEMENTS[@]}"
expect_rc 0 "eval all"
py "eval all" '
import sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 65536, len(lines)
i = 0
for xa in range(256):
    for xb in range(256):
        tok = dict(t.split("=", 1) for t in lines[i].split())
        assert tok["xa"] == str(xa) and tok["xb"] == str(xb) and tok["e"] == str(xa + xb - 254), lines[i]
        if xa == 255 or xb == 255:
            assert all(tok[p] == "nan/0x7FC00000" for p in ("pre", "post", "dequant", "post2") if p in tok), lines[i]
        i += 1
tok = dict(t.split("=", 1) for t in lines[120 * 256 + 3].split())
assert tok["post"].endswith("/0x00140000"), tok
'

# Code ranges.
run eval --a e2m1 --k 1 --xa 0..3 --xb 0x7F --a-vals 1 --b-vals 1 --json
expect_rc 0 "eval ranges"
py "eval ranges" '
import sys, json
rs = json.load(open(sys.argv[1]))["results"]
assert [(r["xa"], r["xb"]) for r in rs] == [(0, 127), (1, 127), (2, 127), (3, 127)], rs
want = ["0x00400000", "0x00800000", "0x01000000", "0x01800000"]
assert [r["values"]["post"]["bits"] for r in rs] == want, rs
'

# The parser's spellings (CLI11): --opt=value, -oFILE, a negative number as a value, and `--`
# ending the options all give the same line as the plain spelling.
run eval --a e2m1 --k 1 --xa 127 --xb 127 --a-vals -6 --b-vals 1
expect_rc 0 "eval negative value"
cp "$OUT" "$TMP/plain.txt"
grep -q " pre=-6/0xC0C00000 " "$TMP/plain.txt" && ok || fail "eval -6*1: $(cat "$TMP/plain.txt")"
run eval --a=e2m1 --k=1 --xa=127 --xb=127 --a-vals=-6 --b-vals=1
expect_rc 0 "eval --opt=value"
cmp -s "$OUT" "$TMP/plain.txt" && ok || fail "--opt=value differs: $(cat "$OUT")"
run eval --a e2m1 --k 1 --xa 127 --xb 127 --a-vals -6 --b-vals 1 "-o$TMP/o.txt"
expect_rc 0 "eval -oFILE"
cmp -s "$TMP/o.txt" "$TMP/plain.txt" && ok || fail "-oFILE differs: $(cat "$TMP/o.txt")"

finish

#!/usr/bin/env bash
# tests/cli/test_table.sh — `mxcert table` end to end on the SPEC §7 public example:
# `--format mxfp4 --k 2 --json` gives agree == [{"xa":[0,254],"xb":[0,254],"e":[-147,122]}]
# exactly; the value relation covers exactly e in [-254,-157] u [-147,122]; k = 1 covers every
# pair; the text output names the region; the table's witnesses, replayed through
# `mxcert eval`, really differ; and --jobs 1 and 2 give the same certificate.
# Usage: test_table.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

# covered(regions) as a python helper: the set of (xa, xb) pairs a region list covers.
COVER='
def covered(regions):
    s = set()
    for r in regions:
        for xa in range(r["xa"][0], r["xa"][1] + 1):
            for xb in range(r["xb"][0], r["xb"][1] + 1):
                if r["e"][0] <= xa + xb - 254 <= r["e"][1]:
                    s.add((xa, xb))
    return s
def eset(*ivs):
    return {(xa, xb) for xa in range(255) for xb in range(255)
            if any(lo <= xa + xb - 254 <= hi for lo, hi in ivs)}
'

run table --format mxfp4 --k 2 --json
expect_rc 0 "table mxfp4 k=2"
cp "$OUT" "$TMP/table.json"
py "table mxfp4 k=2 agree" '
import sys, json
d = json.load(open(sys.argv[1]))
agree = [{k: r[k] for k in ("xa", "xb", "e")} for r in d["agree"]]
assert agree == [{"xa": [0, 254], "xb": [0, 254], "e": [-147, 122]}], d["agree"]
assert d["lhs"] == "pre" and d["rhs"] == "post" and d["relation"] == "bitwise", d
'

# The same with every option spelled out.
run table --a e2m1 --b e2m1 --acc f32 --round rne --subnormals keep --k 2 --tree seq \
    --lhs pre --rhs post --relation bitwise --json
expect_rc 0 "table explicit"
py "table explicit" '
import sys, json
d = json.load(open(sys.argv[1]))
agree = [{k: r[k] for k in ("xa", "xb", "e")} for r in d["agree"]]
assert agree == [{"xa": [0, 254], "xb": [0, 254], "e": [-147, 122]}], d["agree"]
'

run table --format mxfp4 --k 2 --relation value --json
expect_rc 0 "table value"
py "table value" "$COVER"'
import sys, json
d = json.load(open(sys.argv[1]))
got = covered(d["agree"])
want = eset((-254, -157), (-147, 122))
assert got == want, (len(got), len(want), sorted(got ^ want)[:10])
# Regions are disjoint: the sizes add up.
assert sum(len(covered([r])) for r in d["agree"]) == len(want)
'

run table --format mxfp4 --k 1 --json
expect_rc 0 "table k=1"
py "table k=1" "$COVER"'
import sys, json
d = json.load(open(sys.argv[1]))
assert covered(d["agree"]) == eset((-254, 254))
'

# Text output names the region.
run table --format mxfp4 --k 2
expect_rc 0 "table text"
if grep -q "xa:0..254,xb:0..254,e:-147..122" "$OUT"; then ok; else fail "table text: region line missing: $(cat "$OUT")"; fi

# -o writes the JSON to a file.
run table --format mxfp4 --k 2 --json -o "$TMP/t.json"
expect_rc 0 "table -o"
OUT="$TMP/t.json" py "table -o" '
import sys, json
d = json.load(open(sys.argv[1]))
assert [{k: r[k] for k in ("xa", "xb", "e")} for r in d["agree"]] == [{"xa": [0, 254], "xb": [0, 254], "e": [-147, 122]}]
'

# Replay the witnesses of the bitwise table through `mxcert eval`: pre and post differ.
OUT="$TMP/table.json"
python3 -c '
import sys, json
d = json.load(open(sys.argv[1]))
assert d["witnesses"], "no witnesses"
# Certificate format: each witness lists the regions of code pairs it refutes; replay it at
# the lowest and highest pair of every region.
for w in d["witnesses"][:40]:
    for r in w["refutes"]:
        pairs = [(xa, xb) for xa in range(r["xa"][0], r["xa"][1] + 1)
                 for xb in range(r["xb"][0], r["xb"][1] + 1) if r["e"][0] <= xa + xb - 254 <= r["e"][1]]
        for xa, xb in {pairs[0], pairs[-1]}:
            print(xa, xb, " ".join(w["a_values"]), "|", " ".join(w["b_values"]))
' "$OUT" >"$TMP/witnesses" || fail "table: cannot read witnesses"
n=0
while IFS= read -r line; do
  xa="${line%% *}"; rest="${line#* }"; xb="${rest%% *}"; rest="${rest#* }"
  avals="${rest%% |*}"; bvals="${rest#*| }"
  run eval --format mxfp4 --k 2 --xa "$xa" --xb "$xb" --a-vals "$avals" --b-vals "$bvals" --placements pre,post
  expect_rc 0 "witness eval"
  if grep -q "pre~post=differ" "$OUT"; then ok; else fail "witness ($xa,$xb) a=[$avals] b=[$bvals] does not differ: $(cat "$OUT")"; fi
  e=$((xa + xb - 254))
  if [ "$e" -ge -147 ] && [ "$e" -le 122 ]; then fail "witness at e=$e inside the agree set"; fi
  n=$((n + 1))
done <"$TMP/witnesses"
[ "$n" -gt 0 ] && ok || fail "no witness replayed"

# --jobs: the same certificate whatever the number of threads and solver processes. This
# table has structured inputs on every code group and a root step with 18 phases (17 facts:
# checked side by side with --jobs 2, smt/isolated.h).
JOBS_CFG=(--a e2m1 --acc bf16 --subnormals ftz --k 32 --lhs post2 --rhs post)
run table "${JOBS_CFG[@]}" --jobs 1 -o "$TMP/jobs1.json"
expect_rc 0 "table --jobs 1"
run table "${JOBS_CFG[@]}" --jobs 2 -o "$TMP/jobs2.json"
expect_rc 0 "table --jobs 2"
python3 - "$TMP/jobs1.json" "$TMP/jobs2.json" <<'PY' && ok || fail "table --jobs 1 and --jobs 2 differ"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
# Everything but the timings.
untimed = lambda c: [{k: v for k, v in p.items() if k != "seconds"} for p in c["proofs"]]
assert a["agree"] == b["agree"] and a["witnesses"] == b["witnesses"], "agree sets or witnesses"
assert untimed(a) == untimed(b), "proofs"
assert max(p["obligations"]["phases"] for p in a["proofs"]) >= 17, "no query with 16 fact phases"
PY
for bad in 0 x -2 1000; do
  run table "${JOBS_CFG[@]}" --jobs "$bad"
  expect_rc 2 "table --jobs $bad"
  if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q -- "--jobs: expected a number of threads" "$ERR"; then ok; else fail "table --jobs $bad: $(cat "$ERR")"; fi
done

finish

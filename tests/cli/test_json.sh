#!/usr/bin/env bash
# tests/cli/test_json.sh — --json on the verdict commands prove, cex, bound and check: one JSON
# object (schema "mxcert-CMD", schema_version 1) with the verdict, the same exit code as the
# text form, and counterexamples whose bits `mxcert eval` reproduces.
# Usage: test_json.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"
TABLES="$(cd "$(dirname "$0")/../../certs/tables" && pwd)"
C=(--format mxfp4 --k 2 --tree seq --lhs pre --rhs post)

# jq-like checks in python on the last stdout: $1 description, $2 expression that must be true (d = doc).
js() { py "$1" "import json,sys; d=json.load(open(sys.argv[1])); assert $2, d"; }

run prove "${C[@]}" --guard "e:-147..122" --json
expect_rc 0 "prove --json (proven)"
js "prove: schema" 'd["schema"] == "mxcert-prove" and d["schema_version"] == 1'
js "prove: verdict proven" 'd["verdict"] == "proven" and all(r["verdict"] == "unsat" for r in d["regions"])'
js "prove: guard and config" 'd["guard"][0]["e"] == [-147, 122] and d["config"]["k"] == 2 and d["lhs"] == "pre"'

run prove "${C[@]}" --guard "e:-147..123" --json
expect_rc 1 "prove --json (refuted)"
js "prove: refuted with a counterexample at e = 123" 'd["verdict"] == "refuted" and d["counterexample"]["e"] == 123'
XA=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['counterexample']['xa'])" "$OUT")
XB=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['counterexample']['xb'])" "$OUT")
AV=$(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['counterexample']['a_values']))" "$OUT")
BV=$(python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))['counterexample']['b_values']))" "$OUT")
cp "$OUT" "$TMP/cex.json"
run eval --format mxfp4 --k 2 --tree seq --xa "$XA" --xb "$XB" --a-vals "$AV" --b-vals "$BV" --placements pre,post --json
expect_rc 0 "eval of the JSON counterexample"
py "the counterexample's bits are the evaluator's" "
import json, sys
c = json.load(open('$TMP/cex.json'))['counterexample']
e = json.load(open(sys.argv[1]))['results'][0]
got = {p: e['values'][p]['bits'] for p in ('pre', 'post')}
assert got['pre'] == c['pre']['bits'] and got['post'] == c['post']['bits'], (got, c)
assert c['pre']['bits'] != c['post']['bits']
"

run prove "${C[@]}" --guard "e:-254..254" --json --timeout 0.001
expect_rc 3 "prove --json (unknown)"
js "prove: unknown, never proven" 'd["verdict"] == "unknown" and any(r["verdict"] == "unknown" for r in d["regions"])'

run cex "${C[@]}" --xa 0 --xb 106 --json
expect_rc 1 "cex --json (refuted)"
js "cex: refuted" 'd["schema"] == "mxcert-cex" and d["verdict"] == "refuted" and d["counterexample"]["xa"] == 0 and d["counterexample"]["xb"] == 106'
run cex "${C[@]}" --xa 127 --xb 127 --json
expect_rc 0 "cex --json (agree)"
js "cex: agree with a proof" 'd["verdict"] == "agree" and d["proof"]["solver"] == "cvc5"'

run bound "${C[@]}" --json
expect_rc 0 "bound --json"
js "bound: certified" 'd["schema"] == "mxcert-bound" and d["verdict"] == "certified" and d["predicted"][0]["e"] == [-147, 122] and len(d["tightness"]) == 2 and all(t["verdict"] == "refuted" for t in d["tightness"])'
run bound --format mxfp4 --k 2 --tree seq --lhs dequant --rhs post2 --json
expect_rc 3 "bound --json without a closed form"
js "bound: no closed form" 'd["verdict"] == "no closed form" and d["reason"]'

run check "$TABLES/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json" --json
expect_rc 0 "check --json"
js "check: holds" 'd["schema"] == "mxcert-check" and d["verdict"] == "HOLDS" and all(c["status"] == "holds" for c in d["claims"])'
python3 - "$TABLES/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["agree"][0]["e"][1] += 1
d["agree_pairs"] = sum(1 for a in range(255) for b in range(255) for r in d["agree"]
                       if r["xa"][0] <= a <= r["xa"][1] and r["xb"][0] <= b <= r["xb"][1] and r["e"][0] <= a + b - 254 <= r["e"][1])
json.dump(d, open(sys.argv[2], "w"))
PY
run check "$TMP/bad.json" --json
expect_rc 1 "check --json (rejected)"
js "check: rejected, the false claim named" 'd["verdict"] == "REJECTED" and any(c["status"] == "FALSE" for c in d["claims"])'

finish

#!/usr/bin/env bash
# tests/cli/test_plot.sh — `mxcert plot`: the SVG's cells are exactly the certificate's agree set
# and every excluded cell has the class its witness gives under `mxcert eval` (plot_check.py
# computes both independently); the PNG has the SVG's size and pixels; --compare draws exactly
# the symmetric difference; compact tables and false witnesses get their own classes; bad
# input is exit 2 with one line and no output file; docs/img is what scripts/gen-plots draws.
# Usage: test_plot.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TABLES="$ROOT/certs/tables"
CHECK="$(dirname "$0")/plot_check.py"
PP="$TABLES/e2m1xe2m1_f32_rne_keep_k32_seq_pre-post_bitwise.json"
DP="$TABLES/e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json"
VAL="$TABLES/e4m3xe4m3_f32_rne_keep_k32_seq_pre-post_value.json"
DPV="$TABLES/e4m3xe4m3_f32_rne_keep_k32_seq_dequant-post_value.json"

# pcheck DESCRIPTION ARGS... — runs plot_check.py; a failed assertion is a failed check.
pcheck() {
  local desc="$1"
  shift
  if ! python3 "$CHECK" "$@" 2>"$TMP/pyerr"; then
    fail "$desc: $(tail -n 2 "$TMP/pyerr")"
  else
    ok
  fi
}

# pcheck_eval DESCRIPTION ARGS... — a pcheck that runs `mxcert eval` for every class it checks:
# skipped against the sanitizer build (cli_plot_asan), where those evaluations take about 90 s
# and test eval, not plot (cli_plot runs them with the release build).
pcheck_eval() {
  [ -n "${MXCERT_TEST_SANITIZED:-}" ] && return 0
  pcheck "$@"
}

# one_line DESCRIPTION — the last run wrote exactly one "mxcert: error:" line on stderr and
# nothing on stdout.
one_line() {
  [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q '^mxcert: error: ' "$ERR" && ok || fail "$1: stderr: $(cat "$ERR")"
  [ -s "$OUT" ] && fail "$1: wrote to stdout" || ok
}

# plot_case DESCRIPTION NAME CERT — plots CERT into $TMP/NAME.svg; its agree cells must be the
# certificate's regions, code 255 its own class, and the legend's counts those of the cells.
plot_case() {
  run plot "$3" -o "$TMP/$2.svg"
  expect_rc 0 "$1"
  [ -s "$OUT" ] && fail "$1: -o wrote to stdout" || ok
  pcheck "$1: agree cells are the regions" cells "$TMP/$2.svg" main "$3"
}

# --- one certificate, SVG -------------------------------------------------------------------
plot_case "pre/post" pp "$PP"
pcheck_eval "pre/post: every excluded cell's class" classes "$TMP/pp.svg" main "$PP" "$MX"
pcheck "pre/post: e labels are the region bounds" labels "$TMP/pp.svg" main "$PP"
pcheck "pre/post: header and axes" text "$TMP/pp.svg" \
  "e2m1 x e2m1, k=32 seq: pre vs post, bitwise" "2-127" "2-96" "20" "296" "NaN" "127" "255" \
  "xa: scale code of a (scale 2^(xa-127))"
# Without -o the same SVG goes to stdout; the output is deterministic.
run plot "$PP"
expect_rc 0 "plot to stdout"
cmp -s "$OUT" "$TMP/pp.svg" && ok || fail "stdout SVG differs from the -o file"
[ "$(stat -c %s "$TMP/pp.svg")" -lt 300000 ] && ok || fail "SVG larger than 300 KB"

plot_case "value" val "$VAL"
pcheck_eval "value: every excluded cell's class" classes "$TMP/val.svg" main "$VAL" "$MX"
pcheck "value: e labels" labels "$TMP/val.svg" main "$VAL"
plot_case "dequant" dp "$DP"
pcheck_eval "dequant: classes at the witnesses' region corners" corners "$TMP/dp.svg" main "$DP" "$MX"
# Under the sanitizer build (cli_plot_asan) the cases marked "release only" are skipped: each
# classifies about 25,000 excluded cells by their witnesses (about 14 s there, 0.3 s in the
# release build) through code the other dequant cases run under the sanitizer too.
if [ -z "${MXCERT_TEST_SANITIZED:-}" ]; then  # release only
  plot_case "e4m3 dequant value" dpv "$DPV"
  pcheck_eval "e4m3 dequant value: classes at corners" corners "$TMP/dpv.svg" main "$DPV" "$MX"
fi

# --- PNG ------------------------------------------------------------------------------------
run plot "$PP" -o "$TMP/pp.png"
expect_rc 0 "plot -o pp.png"
# (127, 127) agrees; (254, 254) is refuted by a NaN witness; (0, 0) by a signed zero; (255, 3)
# is the NaN scale code. Colours as docs/plots.md lists them.
pcheck "pre/post PNG: size and pixels" png "$TMP/pp.svg" "$TMP/pp.png" \
  "127,127,#66c2a5" "254,254,#cc79a7" "0,0,#56b4e9" "255,3,#d4e6dc" "3,255,#d4e6dc"
if [ -z "${MXCERT_TEST_SANITIZED:-}" ]; then  # release only
  run plot "$DP" -o "$TMP/DP.PNG"
  expect_rc 0 "plot -o DP.PNG (extension in capitals)"
  pcheck "dequant PNG: size and pixels" png "$TMP/dp.svg" "$TMP/DP.PNG" "127,127,#66c2a5" "254,100,#cc79a7"
fi

# --- compare --------------------------------------------------------------------------------
# compare_case DESCRIPTION NAME LEFT RIGHT — plots LEFT --compare RIGHT into $TMP/NAME.svg and
# checks the three panels against the set algebra of the two files' agree sets.
compare_case() {
  run plot "$3" --compare "$4" -o "$TMP/$2.svg"
  expect_rc 0 "$1"
  pcheck "$1: the panels are A, B, and exactly A & B, A - B, B - A" compare "$TMP/$2.svg" "$3" "$4"
}
compare_case "compare with itself" self "$PP" "$PP"
pcheck "compare with itself: text" text "$TMP/self.svg" "0 pairs differ: 0 only left, 0 only right" \
  "same configuration, placements and relation"
# Release only: each of these classifies the dequant table's excluded cells by their witnesses
# (about 35 s per run under the sanitizer build, where "compare with itself" runs the
# comparison's drawing and the dequant case above its classification).
if [ -z "${MXCERT_TEST_SANITIZED:-}" ]; then  # release only
  compare_case "compare two tables" cmp "$PP" "$DP"
  compare_case "compare tables of two configurations" cmp2 "$DP" "$VAL"
  pcheck "compare: configurations differ" text "$TMP/cmp2.svg" "configurations, placements or relations differ"
  run plot "$PP" --compare "$DP" -o "$TMP/cmp.png"
  expect_rc 0 "compare as PNG"
  pcheck "compare PNG: size and pixels of all three panels" png "$TMP/cmp.svg" "$TMP/cmp.png" "127,127,#66c2a5"
fi

# --- other inputs ---------------------------------------------------------------------------
# A compact guard table has no witnesses: every excluded cell is "no-witness".
run export "$DP" --as json -o "$TMP/compact.json"
expect_rc 0 "export compact table"
plot_case "compact table" compact "$TMP/compact.json"
pcheck "compact table: excluded cells have no witness" only "$TMP/compact.svg" main no-witness
# A witness that does not refute (codes all zero: both placements give 0) is "unconfirmed".
python3 - "$PP" "$TMP/false.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
for w in c["witnesses"]:
    w["a"] = [0] * len(w["a"]); w["b"] = [0] * len(w["b"]); del w["a_values"]; del w["b_values"]
json.dump(c, open(sys.argv[2], "w"))
EOF
run plot "$TMP/false.json" -o "$TMP/false.svg"
expect_rc 0 "plot a certificate with false witnesses"
pcheck "false witnesses: unconfirmed" only "$TMP/false.svg" main unconfirmed

# --- bad input: exit 2, one line, no file -----------------------------------------------------
echo '{"format": "mxcert-certificate", ' >"$TMP/corrupt.json"
python3 -c "import json,sys; c=json.load(open(sys.argv[1])); c['extra']=1; json.dump(c, open(sys.argv[2],'w'))" \
  "$PP" "$TMP/unknown-key.json"
for c in "missing file|$TMP/nope.json -o $TMP/bad1.svg" \
         "corrupt JSON|$TMP/corrupt.json -o $TMP/bad2.svg" \
         "schema violation|$TMP/unknown-key.json -o $TMP/bad3.svg" \
         "a directory|$TMP -o $TMP/bad4.svg" \
         "unknown extension|$PP -o $TMP/bad5.jpg" \
         "no extension|$PP -o $TMP/bad6" \
         "missing --compare file|$PP --compare $TMP/nope.json -o $TMP/bad7.png" \
         "corrupt --compare file|$PP --compare $TMP/corrupt.json -o $TMP/bad8.svg" \
         "two files|$PP $PP" \
         "no file|" \
         "--compare without a value|$PP --compare"; do
  desc="${c%%|*}"
  # shellcheck disable=SC2086
  run plot ${c#*|}
  expect_rc 2 "$desc"
  one_line "$desc"
done
ls "$TMP"/bad* >/dev/null 2>&1 && fail "an output file was written for bad input: $(ls "$TMP"/bad*)" || ok
run plot "$PP" --compar "$DP"
expect_rc 2 "misspelt option"
grep -q '^mxcert: error: unknown option --compar (did you mean --compare?)$' "$ERR" && ok || fail "did you mean: $(cat "$ERR")"
run plot "$PP" -o "$TMP/x.svg" --json
expect_rc 2 "unknown option --json"
one_line "unknown option --json"
grep -q 'did you mean' "$ERR" && fail "--json: unexpected suggestion: $(cat "$ERR")" || ok
# A failed plot leaves an existing output file as it was.
cp "$TMP/pp.svg" "$TMP/keep.svg"
run plot "$TMP/corrupt.json" -o "$TMP/keep.svg"
expect_rc 2 "corrupt input over an existing file"
cmp -s "$TMP/keep.svg" "$TMP/pp.svg" && ok || fail "the existing -o file was changed"
run plot "$PP" -o /dev/full/x.png
expect_rc 2 "unwritable -o"
one_line "unwritable -o"

# --- the pictures of docs/plots.md ------------------------------------------------------------
# Skipped against the sanitizer build (cli_plot_asan): scripts/gen-plots draws ten pictures
# with the plotting code exercised above (about 80 s there, 2 s in the release build), and
# cli_plot runs this part.
[ -n "${MXCERT_TEST_SANITIZED:-}" ] && finish
if MXCERT="$MX" "$ROOT/scripts/gen-plots" --check >"$TMP/gp" 2>&1; then ok; else fail "gen-plots --check: $(cat "$TMP/gp")"; fi
MXCERT="$MX" "$ROOT/scripts/gen-plots" --out >"$TMP/gp" 2>&1
[ $? -eq 2 ] && ok || fail "gen-plots --out without a directory: not exit 2"
MXCERT="$MX" "$ROOT/scripts/gen-plots" --out "$TMP/imgs" >"$TMP/gp" 2>&1 && [ "$(ls "$TMP/imgs" | wc -l)" -eq 5 ] && ok ||
  fail "gen-plots --out DIR: $(cat "$TMP/gp")"

finish

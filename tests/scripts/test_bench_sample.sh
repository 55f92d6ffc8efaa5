#!/usr/bin/env bash
# tests/scripts/test_bench_sample.sh MXCERT — scripts/bench-sample: bad arguments exit 2 with
# one line; one drawn configuration (seed 7, k = 1) is certified and its row's agreeing pairs
# equal the exhaustive engine's for the configuration the row names; with --exhaustive the
# same row also shows the exhaustive engine's result and "same" agree sets.
# shellcheck source=../cli/lib.sh
source "$(dirname "$0")/../cli/lib.sh"
S="$(cd "$(dirname "$0")/../.." && pwd)/scripts/bench-sample"

for bad in "--count 0" "--count" "--timeout x" "--k 65" "--frobnicate"; do
  # shellcheck disable=SC2086
  err=$(MXCERT=$MX "$S" $bad 2>&1 >/dev/null); rc=$?
  if [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ "$err" == bench-sample:\ error:* ]]; then ok; else
    fail "bench-sample $bad: exit $rc, stderr '$err'"; fi
done
err=$(MXCERT=/nonexistent "$S" 2>&1 >/dev/null); rc=$?
if [ $rc = 2 ] && [[ "$err" == *"is not built"* ]]; then ok; else fail "missing binary: exit $rc, '$err'"; fi

out=$(MXCERT=$MX "$S" --count 1 --seed 7 --k 1 --timeout 120 2>/dev/null); rc=$?
echo "$out"
[ $rc = 0 ] && ok || fail "--count 1 --seed 7 --k 1: exit $rc"
[ "$(printf '%s\n' "$out" | grep -c '^| e')" = 1 ] && ok || fail "expected exactly one row"
printf '%s\n' "$out" | grep -q '^1 of 1 proven in under 120 s (seed 7)$' && ok || fail "no summary line"
# The row: | A x B ACC ROUND SUB TREE LHS/RHS REL | seconds | proven | PAIRS |
row=$(printf '%s\n' "$out" | grep '^| e' | head -1)
read -r a _ b acc rnd sub tree pl rel <<<"$(printf '%s' "$row" | cut -d'|' -f2)"
pairs=$(printf '%s' "$row" | cut -d'|' -f5 | tr -d ' ')
[ "$(printf '%s' "$row" | cut -d'|' -f4)" = " proven " ] && ok || fail "the row is not proven: $row"
run table --a "$a" --b "$b" --acc "$acc" --round "$rnd" --subnormals "$sub" --k 1 --tree "$tree" \
  --lhs "${pl%/*}" --rhs "${pl#*/}" --relation "$rel" --engine exhaustive --quiet -o "$TMP/x.json"
[ "$RC" = 0 ] && ok || fail "the exhaustive engine on the row's configuration: exit $RC"
want=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['agree_pairs'])" "$TMP/x.json")
[ "$pairs" = "$want" ] && ok || fail "agreeing pairs $pairs, the exhaustive engine says $want"
# --exhaustive: the same configuration, the two engines' agree sets compared by the script.
out=$(MXCERT=$MX "$S" --count 1 --seed 7 --k 1 --timeout 120 --exhaustive 2>/dev/null); rc=$?
echo "$out"
[ $rc = 0 ] && ok || fail "--exhaustive: exit $rc"
# | CONFIG | solver | proven | exhaustive | proven | ratio | same |
erow=$(printf '%s\n' "$out" | grep '^| e' | head -1)
[ "$(printf '%s' "$erow" | cut -d'|' -f2)" = "$(printf '%s' "$row" | cut -d'|' -f2)" ] && ok ||
  fail "--exhaustive drew another configuration: $erow"
[ "$(printf '%s' "$erow" | cut -d'|' -f4,6,8)" = " proven | proven | same " ] && ok ||
  fail "--exhaustive: the row is not proven by both with the same agree set: $erow"
printf '%s\n' "$out" | grep -Eq '^[01] of 1: the solver engine slower than the exhaustive engine \(seed 7\)$' && ok ||
  fail "--exhaustive: no comparison line"
finish

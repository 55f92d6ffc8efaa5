#!/usr/bin/env bash
# tests/scripts/test_bench_slowest.sh MXCERT — scripts/bench-slowest: bad arguments exit 2 with
# one line; one configuration (e2m1 k = 3 fused f32 rtz pre/post value) runs with both engines
# and the Markdown row says the solver proved it and the two agree sets are the same.
set -u
MX=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
S=$ROOT/scripts/bench-slowest
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for bad in "--runs 0" "--timeout x" "--frobnicate" "--only"; do
  # shellcheck disable=SC2086
  err=$(MXCERT=$MX "$S" $bad 2>&1 >/dev/null); rc=$?
  [ $rc = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && [[ "$err" == bench-slowest:\ error:* ]] ||
    fail "bench-slowest $bad: exit $rc, stderr '$err'"
done
err=$(MXCERT=/nonexistent "$S" 2>&1 >/dev/null); rc=$?
[ $rc = 2 ] && [[ "$err" == *"is not built"* ]] || fail "missing binary: exit $rc, '$err'"

out=$(MXCERT=$MX "$S" --only "k=3 fused" 2>/dev/null); rc=$?
echo "$out"
[ $rc = 0 ] || fail "--only 'k=3 fused': exit $rc"
[ "$(printf '%s\n' "$out" | grep -c '^| e2m1')" = 1 ] || fail "expected exactly one row"
printf '%s\n' "$out" | grep -q '^| e2m1 k=3 fused f32 rtz pre/post value | [0-9.]* s | proven | [0-9.]* s | [0-9.]* | same |$' ||
  fail "the row does not say proven and same"

[ $fails = 0 ] && echo "all checks passed" || { echo "$fails failure(s)"; exit 1; }

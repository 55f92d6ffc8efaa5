#!/usr/bin/env bash
# tests/certs/check_grown.sh — a committed table set made by a sweep: certs/grown/ (made by
# `mxcert sweep certs/manifests/grown.json -o certs/grown`) or, with SET = nvfp4, certs/nvfp4/
# (certs/manifests/nvfp4.json): the index is what a sweep of the
# manifest writes for these certificates (a resumed sweep over a copy recomputes nothing and
# writes the same index, byte for byte), every manifest entry is certified, and every
# certificate passes `mxcert check`.
# Usage: check_grown.sh path/to/mxcert path/to/certs [SET]
set -u
MX="${1:?usage: $0 mxcert certs-dir [set]}"
CERTS="${2:?usage: $0 mxcert certs-dir [set]}"
SET="${3:-grown}"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cp -r "$CERTS/$SET" "$TMP/$SET"
rm -f "$TMP/$SET/index.json"
"$MX" sweep "$CERTS/manifests/$SET.json" -o "$TMP/$SET" 2>"$TMP/err"
rc=$?
[ "$rc" -eq 0 ] || fail "the resumed sweep exited $rc: $(cat "$TMP/err")"
total=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries_total'])" "$CERTS/$SET/index.json")
grep -q "($total already done, skipped)" "$TMP/err" || fail "the resumed sweep recomputed something: $(cat "$TMP/err")"
cmp -s "$TMP/$SET/index.json" "$CERTS/$SET/index.json" || fail "the committed index differs from the sweep's"
python3 - "$CERTS/$SET/index.json" <<'PY' || fails=$((fails + 1))
import json, sys
ix = json.load(open(sys.argv[1]))
bad = [e["name"] for e in ix["entries"] if e["status"] != "certified"]
if bad or len(ix["entries"]) != ix["entries_total"]:
    print("FAIL: entries not certified:", bad, len(ix["entries"]), ix["entries_total"])
    sys.exit(1)
PY
n=0
t0=$(date +%s)
for f in $(python3 -c "import json,sys; print(' '.join(e['file'] for e in json.load(open(sys.argv[1]))['entries']))" "$CERTS/$SET/index.json"); do
  err=$("$MX" check "$CERTS/$SET/$f" --quiet 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 0 ] || fail "$f: check exit $rc: ${err:0:300}"
  n=$((n + 1))
done
echo "check_grown ($SET): $n certificate(s) checked in $(($(date +%s) - t0)) s, $fails failure(s)"
[ "$fails" -eq 0 ]

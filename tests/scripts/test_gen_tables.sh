#!/usr/bin/env bash
# tests/scripts/test_gen_tables.sh — scripts/gen-tables takes --help, rejects bad arguments
# (exit 2), writes to the directory it is given, and leaves the committed tables alone.
# Usage: test_gen_tables.sh path/to/mxcert
set -u
MX="${1:?usage: $0 path/to/mxcert}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
FAILS=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
before="$(cd "$ROOT/certs/tables" && sha256sum -- * | sha256sum)"

MXCERT="$MX" "$ROOT/scripts/gen-tables" --help >"$TMP/out" 2>&1 || fail "--help exits $?"
grep -q "^usage: scripts/gen-tables \[--out DIR\]" "$TMP/out" || fail "--help: no usage line"
for bad in "--bogus" "--only" "--only everything" "--out" "--formats e9m9" "--formats ,"; do
  # shellcheck disable=SC2086
  MXCERT="$MX" "$ROOT/scripts/gen-tables" $bad >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [ "$rc" = 2 ] || fail "gen-tables $bad: exit $rc, expected 2"
  grep -q "^gen-tables: error: " "$TMP/err" || fail "gen-tables $bad: no error line: $(cat "$TMP/err")"
done
# Two formats, a 4-bit and a 6-bit one (the others take longer; cert_check_tables re-checks
# every committed table, and docs/mlir.md times the whole --only mlir set).
MXCERT="$MX" "$ROOT/scripts/gen-tables" --only mlir --formats e2m1,e3m2 --out "$TMP/t" >"$TMP/out" 2>"$TMP/err" ||
  fail "--only mlir --out: exit $?"
n=$(ls "$TMP/t"/*.json 2>/dev/null | wc -l)
[ "$n" = 12 ] || fail "--only mlir --formats (2) wrote $n tables, expected 12 (k = 1, 2, 32 keep; k = 32 ftz, daz; k = 33 any)"
[ -f "$TMP/t/README.md" ] || fail "no summary README.md in the chosen directory"
for f in "$TMP/t"/*.json; do
  cmp -s <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['agree'])" "$f") \
         <(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['agree'])" "$ROOT/certs/tables/$(basename "$f")") ||
    fail "$(basename "$f"): the agree set differs from the committed table"
done
after="$(cd "$ROOT/certs/tables" && sha256sum -- * | sha256sum)"
[ "$before" = "$after" ] || fail "the committed tables changed"
echo "test_gen_tables.sh: $FAILS failure(s)"
[ "$FAILS" = 0 ]

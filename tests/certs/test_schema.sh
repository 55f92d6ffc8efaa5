#!/usr/bin/env bash
# tests/certs/test_schema.sh — certs/certificate.schema.json against real files: every
# committed certificate, the replay fixtures, fresh certificates from `mxcert table` (solver
# and exhaustive engines) and an exported compact table are valid; mutated documents that
# break the schema (unknown key, wrong type, out-of-range number, bad enum, missing field) are
# invalid for the schema AND rejected by the reader (`mxcert check` exit 2): the two agree.
# Usage: test_schema.sh path/to/mxcert path/to/repo
. "$(dirname "$0")/../cli/lib.sh"
ROOT="${2:?usage: $0 mxcert repo}"
SCHEMA="$ROOT/certs/certificate.schema.json"
CHECK="python3 $(dirname "$0")/schema_check.py $SCHEMA"

"$MX" table --a e2m1 --b e2m1 --k 2 --lhs pre --rhs post --embed-queries -o "$TMP/pp2.json" >/dev/null || fail "table pp2"
"$MX" table --a e2m1 --b e2m1 --k 2 --lhs dequant --rhs post -o "$TMP/dp2.json" >/dev/null || fail "table dp2"
"$MX" table --a e2m1 --b e2m1 --k 2 --lhs pre --rhs post --engine exhaustive -o "$TMP/exh.json" >/dev/null || fail "table exh"
"$MX" export "$TMP/dp2.json" --as json -o "$TMP/compact.json" || fail "export"

shopt -s nullglob
valid=("$ROOT"/certs/tables/*.json "$ROOT"/certs/nvfp4/e*.json "$ROOT"/gpu_replay/tests/data/*.json "$TMP"/pp2.json "$TMP"/dp2.json "$TMP"/exh.json "$TMP"/compact.json)
if $CHECK "${valid[@]}" >"$TMP/valid.log"; then ok; else fail "schema rejects valid files: $(grep -v '^ok' "$TMP/valid.log" | head -5)"; fi
echo "schema: ${#valid[@]} valid files accepted"

# Invalid documents: each a python expression mutating d (the pp2 certificate).
i=0
while IFS= read -r mut; do
  [ -z "$mut" ] && continue
  i=$((i + 1))
  python3 -c "
import json, sys
d = json.load(open('$TMP/pp2.json'))
$mut
json.dump(d, open('$TMP/bad$i.json', 'w'))" || { fail "mutation $mut"; continue; }
  if $CHECK "$TMP/bad$i.json" --expect-invalid >/dev/null; then ok; else fail "schema accepts: $mut"; fi
  "$MX" check "$TMP/bad$i.json" --solver none >/dev/null 2>&1
  rc=$?
  if [ "$rc" -eq 2 ]; then ok; else fail "reader does not reject ($rc): $mut"; fi
done <<'MUTATIONS'
d['extra'] = 1
d['tool']['extra'] = 1
d['config']['k'] = '2'
d['config']['k'] = 65
d['config']['acc'] = 'f8'
d['config']['tree'] = 'balanced'
d['lhs'] = 'before'
d['relation'] = 'equal'
d['engine'] = 'magic'
d['format'] = 'something-else'
d['format_version'] = 3
d['agree'][0]['xa'] = [0, 255]
d['agree'][0]['e'] = [-255, 0]
d['agree'][0]['e'] = [0]
d['agree'][0]['q'] = [0, 1]
del d['agree'][0]['xb']
d['agree_pairs'] = -1
d['proofs'][0]['solver'] = 'yices'
d['proofs'][0]['seconds'] = -1
d['proofs'][0]['query_sha256'] = 'ABC'
d['proofs'][0]['encoding'] = 'bv'
d['proofs'][0]['query_file'] = '/etc/passwd'
del d['proofs'][0]['query_bytes']
d['witnesses'][0]['a'][0] = 256
d['witnesses'][0]['refutes'] = {}
d['witnesses'][0]['note'] = 'x'
del d['witnesses']
d['bound']['params']['L'] = 'x'
d['stats'] = []
MUTATIONS
finish

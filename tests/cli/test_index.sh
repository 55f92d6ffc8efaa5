#!/usr/bin/env bash
# tests/cli/test_index.sh — `mxcert export` reading a sweep index (docs/sweeps.md, "Using the
# index"): every certified entry exported, byte for byte what exporting its certificate
# directly writes; entries that are not certified are never read; an index given as a
# directory, by a bare name, or rewritten by merge; bad indexes and bad entries are exit 2 with
# one line, and nothing is written.
# Usage: test_index.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"
MX="$(cd "$(dirname "$MX")" && pwd)/$(basename "$MX")"  # also from other directories
TABLES="$(cd "$(dirname "$0")/../../certs/tables" && pwd)"

# one_line DESCRIPTION PATTERN — the last run wrote exactly one stderr line, matching PATTERN.
one_line() {
  if [ "$(wc -l <"$ERR")" -ne 1 ] || ! grep -q -- "$2" "$ERR"; then fail "$1: stderr: $(head -c 400 "$ERR")"; else ok; fi
}

# The sweep: two committed certificates (a rerun skips them: no solver needed), one entry
# stopped by its term limit (unknown, deterministic: not a timing).
K2=e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise
K1=e2m3xe2m3_f32_rne_keep_k1_seq_dequant-post_bitwise
UNK=e4m3xe4m3_f32_rne_keep_k32_seq_dequant-post_bitwise
M="$TMP/m.json"
cat >"$M" <<'JSON'
{"manifest": "mxcert-sweep", "version": 1, "name": "index-test",
 "defaults": {"acc": "f32", "tree": "seq", "lhs": "dequant", "rhs": "post", "relation": "bitwise"},
 "list": [{"a": "e2m1", "k": 2}, {"a": "e4m3", "k": 32, "max-terms": 1000}, {"a": "e2m3", "k": 1}]}
JSON
S="$TMP/s"
mkdir -p "$S"
cp "$TABLES/$K2.json" "$TABLES/$K1.json" "$S/"
run sweep "$M" -o "$S" --quiet
expect_rc 3 "sweep with an unknown entry"
OUT="$S/index.json"
py "index statuses" "
import json, sys
e = json.load(open(sys.argv[1]))['entries']
assert [(x['name'], x['status']) for x in e] == [('$K2', 'certified'), ('$UNK', 'unknown'), ('$K1', 'certified')], e
"
# The unknown entry's file is never read: garbage under its name changes nothing.
printf 'not a certificate' >"$S/$UNK.json"

# Each form: exactly the certified entries' files, each equal to the direct export.
for as in cpp json mlir; do
  case $as in cpp) ext=h ;; json) ext=json ;; mlir) ext=mlir ;; esac
  run export "$S/index.json" --as $as -o "$TMP/out-$as"
  expect_rc 0 "export index --as $as"
  [ "$(cat "$ERR")" = "mxcert: export: entry 1 ($UNK): status unknown, not exported" ] && ok ||
    fail "export --as $as stderr: $(cat "$ERR")"
  [ "$(ls "$TMP/out-$as" | tr '\n' ' ')" = "$K2.$ext $K1.$ext " ] && ok || fail "--as $as files: $(ls "$TMP/out-$as")"
  for n in $K1 $K2; do
    run export "$S/$n.json" --as $as
    cmp -s "$OUT" "$TMP/out-$as/$n.$ext" && ok || fail "--as $as: $n differs from the direct export"
  done
done
grep -q "from $S/$K2.json; do not edit" "$TMP/out-cpp/$K2.h" && ok || fail "the header names the certificate's path"

# A directory stands for its index.json; a bare index name resolves entries in the current
# directory (the same as exporting the bare certificate name there).
run export "$S" --as mlir -o "$TMP/out-dir"
expect_rc 0 "export DIR"
diff -r "$TMP/out-mlir" "$TMP/out-dir" >/dev/null && ok || fail "export DIR differs from export DIR/index.json"
(cd "$S" && "$MX" export index.json --as cpp -o ../out-bare && "$MX" export "$K2.json" --as cpp >../direct-bare.h) 2>"$ERR"
cmp -s "$TMP/out-bare/$K2.h" "$TMP/direct-bare.h" && ok || fail "bare index name: $(cat "$ERR")"
# merge writes "file" relative to its output: the entries resolve from there.
mkdir -p "$TMP/elsewhere"
run merge "$S/index.json" -o "$TMP/elsewhere/all.json"
expect_rc 0 "merge"
run export "$TMP/elsewhere/all.json" --as json -o "$TMP/out-merged"
expect_rc 0 "export a merged index"
diff -r "$TMP/out-json" "$TMP/out-merged" >/dev/null && ok || fail "export of a merged index differs"

# Bad input: exit 2, one line naming the problem, nothing written.
bad() {  # DESCRIPTION PATTERN INDEX [EXTRA ARGS]
  local desc="$1" pattern="$2" index="$3"
  shift 3
  rm -rf "$TMP/out-bad"
  run export "$index" --as cpp -o "$TMP/out-bad" "$@"
  expect_rc 2 "$desc"
  one_line "$desc" "$pattern"
  [ -z "$(ls "$TMP/out-bad" 2>/dev/null)" ] && ok || fail "$desc: wrote $(ls "$TMP/out-bad")"
}
head -c 200 "$S/index.json" >"$TMP/truncated.json"
bad "truncated index" "^mxcert: error: '$TMP/truncated.json' is not valid JSON: .*parse error" "$TMP/truncated.json"
bad "missing index" "^mxcert: error: cannot read '$TMP/nothing.json'" "$TMP/nothing.json"
mkdir -p "$TMP/emptydir"
bad "directory without index.json" "^mxcert: error: cannot read '$TMP/emptydir/index.json'" "$TMP/emptydir"
edit() {  # NAME PYTHON — a copy of the index in $S, edited by PYTHON (j is the document)
  python3 - "$S/index.json" "$S/$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(j, open(sys.argv[2], 'w'))
PY
}
edit bad-status.json "j['entries'][0]['status'] = 'maybe'"
bad "bad status" "'$S/bad-status.json': entries\[0\]: field 'status': expected certified, unknown or failed" "$S/bad-status.json"
edit bad-key.json "j['entries'][2]['extra'] = 1"
bad "unknown entry key" "entries\[2\]: unknown field 'extra'" "$S/bad-key.json"
edit bad-top.json "del j['manifest_sha256']"
bad "missing top-level key" "missing field 'manifest_sha256'" "$S/bad-top.json"
edit bad-version.json "j['version'] = 2"
bad "version 2" "field 'version': unsupported version" "$S/bad-version.json"
edit bad-order.json "j['entries'].reverse()"
bad "entries out of order" "entries\[1\]: entry numbers must increase" "$S/bad-order.json"
edit bad-agree.json "j['entries'][1]['agree'] = j['entries'][0]['agree']"
bad "agree of an unknown entry" "entries\[1\]: 'agree' and 'agree_pairs' must be null for status unknown" "$S/bad-agree.json"
edit bad-file.json "j['entries'][0]['file'] = 'other.json'"
bad "file not NAME.json" "entries\[0\]: field 'file': expected a path ending in the entry's NAME.json" "$S/bad-file.json"
edit bad-config.json "j['entries'][0]['config']['acc'] = 'f99'"
bad "bad config" "entries\[0\]: config.acc: unknown accumulator format" "$S/bad-config.json"
# A certified entry whose certificate is missing, or is another table, or is a compact table.
mkdir -p "$TMP/s2"
cp "$S/index.json" "$TMP/s2/"
cp "$S/$K2.json" "$TMP/s2/"
bad "missing certificate" "^mxcert: error: index entry 2 ($K1): cannot read '$TMP/s2/$K1.json'" "$TMP/s2/index.json"
cp "$TABLES/e2m3xe2m3_f32_rne_keep_k2_seq_dequant-post_bitwise.json" "$TMP/s2/$K1.json"
bad "another table" "^mxcert: error: index entry 2 ($K1): '$TMP/s2/$K1.json': not the entry's table (its 'config' differs from the index's)$" "$TMP/s2/index.json"
"$MX" export "$S/$K1.json" --as json -o "$TMP/s2/$K1.json"
bad "a compact table" "index entry 2 ($K1): '$TMP/s2/$K1.json': not a certificate" "$TMP/s2/index.json"
edit bad-agree2.json "e = j['entries'][0]; r = e['agree'][0]; r['xa'][1] -= 1
e['agree_pairs'] = sum(r['xa'][0] <= a <= r['xa'][1] and r['xb'][0] <= b <= r['xb'][1] and r['e'][0] <= a + b - 254 <= r['e'][1]
                       for a in range(255) for b in range(255))"
bad "agree differs from the certificate" "index entry 0 ($K2): .*its 'agree' differs" "$S/bad-agree2.json"
# Usage: -o is a directory here, --name does not apply, and --as json must not replace the
# certificates next to the index.
run export "$S/index.json" --as cpp
expect_rc 2 "index without -o"
one_line "index without -o" "exporting an index writes one file per table: give -o DIR"
bad "--name with an index" "^mxcert: error: --name: an index exports each table under its default name" "$S/index.json" --name x
run export "$S/index.json" --as json -o "$S"
expect_rc 2 "--as json over the certificates"
one_line "--as json over the certificates" "would overwrite the certificate of index entry 0 ($K2)"
cmp -s "$S/$K2.json" "$TABLES/$K2.json" && ok || fail "a certificate was overwritten"

finish

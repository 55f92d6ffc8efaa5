#!/usr/bin/env bash
# tests/cli/test_sweep.sh — mxcert sweep and mxcert merge: every certificate of a sweep equals
# `mxcert table` run directly, the index is exact, --jobs 2 and shards merged give the same
# index, a rerun recomputes nothing, an interrupted sweep leaves only complete certificates and
# a rerun finishes it, a timeout is unknown (exit 3), bad input is exit 2 with one line.
# Usage: test_sweep.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

# one_line DESCRIPTION PATTERN — the last run wrote exactly one stderr line, matching PATTERN.
one_line() {
  if [ "$(wc -l <"$ERR")" -ne 1 ] || ! grep -q -- "$2" "$ERR"; then fail "$1: stderr: $(head -c 400 "$ERR")"; else ok; fi
}

M="$TMP/m.json"
cat >"$M" <<'JSON'
{"manifest": "mxcert-sweep", "version": 1, "name": "test",
 "defaults": {"acc": "f32", "query-timeout": 60},
 "grid": {"a": ["e2m1", "e2m3"], "k": [2, 32], "pairs": [["dequant", "post"]]},
 "list": [{"a": "e2m1", "k": 2, "lhs": "pre", "rhs": "post", "relation": "value"},
          {"a": "e2m1", "k": 2, "lhs": "dequant", "rhs": "post", "engine": "exhaustive"}]}
JSON

run sweep "$M" -o "$TMP/s1"
expect_rc 0 "sweep"
grep -q "^mxcert: sweep: 6 table(s): 6 certified (0 already done, skipped), 0 unknown, 0 failed; index $TMP/s1/index.json$" "$ERR" && ok ||
  fail "sweep summary: $(cat "$ERR")"
[ -z "$(ls "$TMP/s1" | grep -v '\.json$')" ] && ok || fail "leftover files: $(ls "$TMP/s1")"
# The index: the expansion order, names, options, configurations and outcomes.
OUT="$TMP/s1/index.json"
py "index" "
import json, sys
j = json.load(open(sys.argv[1]))
assert j['index'] == 'mxcert-sweep-index' and j['version'] == 1 and j['manifest'] == 'test', j
assert j['entries_total'] == 6 and j['shard'] is None and len(j['manifest_sha256']) == 64
names = [e['name'] for e in j['entries']]
assert names == ['e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise', 'e2m1xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise',
                 'e2m3xe2m3_f32_rne_keep_k2_seq_dequant-post_bitwise', 'e2m3xe2m3_f32_rne_keep_k32_seq_dequant-post_bitwise',
                 'e2m1xe2m1_f32_rne_keep_k2_seq_pre-post_value', 'e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise_exhaustive'], names
assert [e['entry'] for e in j['entries']] == list(range(6))
assert all(e['status'] == 'certified' and e['file'] == e['name'] + '.json' for e in j['entries'])
assert j['entries'][1]['options'] == {'a': 'e2m1', 'acc': 'f32', 'k': '32', 'lhs': 'dequant', 'rhs': 'post', 'query-timeout': '60'}
assert j['entries'][5]['engine'] == 'exhaustive' and j['entries'][4]['relation'] == 'value'
"
# Every certificate equals the table computed directly with the entry's options, and the
# index lists its agree set and config.
python3 - "$TMP/s1/index.json" >"$TMP/argv" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1]))['entries']:
    print(e['file'], ' '.join('--%s %s' % (k, v) for k, v in sorted(e['options'].items())))
PY
while read -r file opts; do
  # shellcheck disable=SC2086
  run table $opts --json
  cp "$OUT" "$TMP/direct.json"
  OUT="$TMP/s1/$file"
  py "$file equals the direct table" "
import json, sys
s, d = json.load(open(sys.argv[1])), json.load(open('$TMP/direct.json'))
ix = {e['file']: e for e in json.load(open('$TMP/s1/index.json'))['entries']}['$file']
for key in ('config', 'lhs', 'rhs', 'relation', 'engine', 'agree', 'agree_pairs'):
    assert s[key] == d[key], key
assert ix['agree'] == d['agree'] and ix['agree_pairs'] == d['agree_pairs'] and ix['config'] == d['config']
"
  run check "$TMP/s1/$file" --quiet
  expect_rc 0 "check $file"
done <"$TMP/argv"

# --jobs 2: the same index (it records no timings).
run sweep "$M" -o "$TMP/s2" --jobs 2 --quiet
expect_rc 0 "sweep --jobs 2"
[ -s "$ERR" ] && fail "--quiet wrote: $(cat "$ERR")" || ok
cmp -s "$TMP/s1/index.json" "$TMP/s2/index.json" && ok || fail "--jobs 2 index differs"

# Shards 0/2 and 1/2 in one directory, merged: the index of the unsharded sweep.
run sweep "$M" -o "$TMP/s3" --shard 0/2 --quiet
expect_rc 0 "shard 0/2"
run sweep "$M" -o "$TMP/s3" --shard 1/2 --quiet
expect_rc 0 "shard 1/2"
OUT="$TMP/s3/index-shard-1-of-2.json"
py "shard 1/2 entries" "
import json, sys
j = json.load(open(sys.argv[1]))
assert j['shard'] == '1/2' and [e['entry'] for e in j['entries']] == [1, 3, 5], j['entries']
"
run merge "$TMP/s3/index-shard-1-of-2.json" "$TMP/s3/index-shard-0-of-2.json" -o "$TMP/s3/index.json"
expect_rc 0 "merge"
cmp -s "$TMP/s1/index.json" "$TMP/s3/index.json" && ok || fail "merged shards differ from the unsharded index"
run merge "$TMP/s3" -o "$TMP/s3/index-dir.json"
expect_rc 0 "merge DIR"
cmp -s "$TMP/s1/index.json" "$TMP/s3/index-dir.json" && ok || fail "merge DIR differs from the unsharded index"
# Identical duplicates are fine; one shard alone says what is missing; files are rewritten
# relative to the output.
run merge "$TMP/s3/index-shard-0-of-2.json" "$TMP/s3/index-shard-0-of-2.json"
expect_rc 0 "merge identical duplicates"
one_line "merge one shard" "^mxcert: merge: 3 of 6 entries (the other shards' indexes are missing)$"
mkdir -p "$TMP/elsewhere"
run merge "$TMP/s3/index-shard-0-of-2.json" "$TMP/s3/index-shard-1-of-2.json" -o "$TMP/elsewhere/all.json"
OUT="$TMP/elsewhere/all.json"
py "merge rewrites file" "
import json, sys
assert json.load(open(sys.argv[1]))['entries'][0]['file'] == '../s3/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json'
"
# Bare file names (no directory part): relative to the current directory.
(cd "$TMP/elsewhere" && "$MX" merge ../s3 -o bare.json) 2>"$ERR"
[ $? = 0 ] && ok || fail "merge -o bare.json: $(cat "$ERR")"
(cd "$TMP/s3" && "$MX" merge index-shard-0-of-2.json index-shard-1-of-2.json -o ../elsewhere/bare2.json) 2>"$ERR"
[ $? = 0 ] && cmp -s "$TMP/elsewhere/bare.json" "$TMP/elsewhere/bare2.json" && ok ||
  fail "merge of bare index names: $(cat "$ERR")"
OUT="$TMP/elsewhere/bare.json"
py "merge -o bare name" "
import json, sys
assert json.load(open(sys.argv[1]))['entries'][0]['file'] == '../s3/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json'
"

# Resume: a rerun recomputes nothing; a corrupt certificate is recomputed.
touch -d '2001-01-01' "$TMP/s1/"*_k*.json
before=$(stat -c '%Y %n' "$TMP/s1/"*_k*.json)
run sweep "$M" -o "$TMP/s1"
expect_rc 0 "rerun"
grep -q "6 certified (6 already done, skipped)" "$ERR" && ok || fail "rerun skipped: $(cat "$ERR")"
[ "$(stat -c '%Y %n' "$TMP/s1/"*_k*.json)" = "$before" ] && ok || fail "rerun rewrote a certificate"
cmp -s "$TMP/s1/index.json" "$TMP/s2/index.json" && ok || fail "rerun index differs"
F1="$TMP/s1/e2m3xe2m3_f32_rne_keep_k2_seq_dequant-post_bitwise.json"
head -c 100 "$F1" >"$TMP/trunc" && cp "$TMP/trunc" "$F1"
run sweep "$M" -o "$TMP/s1" --progress
grep -q "6 certified (5 already done, skipped)" "$ERR" && ok || fail "corrupt certificate not recomputed: $(cat "$ERR")"
# --progress: the first line counts the skipped tables as done, with an estimate.
grep -q "^mxcert: sweep: 5/6 tables (83%), .* s left$" "$ERR" && ok || fail "progress line: $(cat "$ERR")"
OUT="$F1"
py "recomputed certificate" "
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open('$TMP/s2/$(basename "$F1")'))
assert all(a[k] == b[k] for k in ('config', 'lhs', 'rhs', 'relation', 'agree', 'witnesses'))
"

# Interruption: SIGINT once two certificates exist; only complete certificates remain under
# their names (each passes mxcert check), exit 130; a rerun skips them and finishes the rest.
MI="$TMP/mi.json"
cat >"$MI" <<'JSON'
{"manifest": "mxcert-sweep", "version": 1, "name": "interrupt",
 "grid": {"a": ["e2m1", "e2m3", "e3m2", "e4m3"], "k": [32], "pairs": [["pre", "post"], ["dequant", "post"]]}}
JSON
"$MX" sweep "$MI" -o "$TMP/si" >/dev/null 2>"$TMP/si.err" &
pid=$!
for _ in $(seq 600); do
  [ "$(ls "$TMP/si" 2>/dev/null | grep -c '_k32_.*\.json$')" -ge 2 ] && break
  sleep 0.05
done
kill -INT "$pid"
wait "$pid"
RC=$?
ERR="$TMP/si.err"
expect_rc 130 "interrupted sweep"
grep -q "^mxcert: interrupted (signal 2)" "$ERR" && ok || fail "interrupt message: $(cat "$ERR")"
[ -e "$TMP/si/index.json" ] && fail "an interrupted sweep wrote an index" || ok
done_files=$(ls "$TMP/si" | grep '\.json$')
n=$(echo "$done_files" | grep -c .)
{ [ "$n" -ge 2 ] && [ "$n" -lt 8 ]; } && ok || fail "interrupted after $n certificates (expected midway)"
[ -z "$(ls -a "$TMP/si" | grep -v -e '\.json$' -e '\.log$' -e '^\.\.\?$')" ] && ok || fail "temporary files left: $(ls -a "$TMP/si")"
for f in $done_files; do
  run check "$TMP/si/$f" --quiet
  expect_rc 0 "interrupted sweep left $f, which must check"
done
run sweep "$MI" -o "$TMP/si"
expect_rc 0 "rerun after the interrupt"
grep -q "8 certified ($n already done, skipped)" "$ERR" && ok || fail "rerun after interrupt: $(cat "$ERR")"
run sweep "$MI" -o "$TMP/sj" --jobs 2 --quiet
cmp -s "$TMP/si/index.json" "$TMP/sj/index.json" && ok || fail "resumed index differs from a fresh one"

# A timeout is unknown in the index, no certificate, exit 3.
MT="$TMP/mt.json"
cat >"$MT" <<'JSON'
{"manifest": "mxcert-sweep", "version": 1, "name": "timeout",
 "list": [{"a": "e2m1", "k": 2}, {"a": "e4m3", "k": 32, "relation": "value", "timeout": 0.001}]}
JSON
run sweep "$MT" -o "$TMP/st"
expect_rc 3 "timeout"
grep -q "^mxcert: sweep: entry 1 (e4m3xe4m3_f32_rne_keep_k32_seq_pre-post_value): unknown (exit 3" "$ERR" && ok || fail "timeout line: $(cat "$ERR")"
[ -e "$TMP/st/e4m3xe4m3_f32_rne_keep_k32_seq_pre-post_value.json" ] && fail "a timed-out table was written" || ok
OUT="$TMP/st/index.json"
py "timeout index" "
import json, sys
e = json.load(open(sys.argv[1]))['entries']
assert [x['status'] for x in e] == ['certified', 'unknown'], e
assert e[1]['agree'] is None and e[1]['agree_pairs'] is None and e[0]['agree_pairs'] > 0
"

# Bad input: exit 2 with one line naming the problem, before any work.
printf '{"manifest": "mxcert-sweep", "version": 1, ' >"$TMP/bad.json"
run sweep "$TMP/bad.json" -o "$TMP/sb"
expect_rc 2 "malformed manifest"
one_line "malformed manifest" "^mxcert: error: .*bad.json"
sed 's/"e2m3"/"e9m9"/' "$M" >"$TMP/bad2.json"
run sweep "$TMP/bad2.json" -o "$TMP/sb"
expect_rc 2 "unknown format"
one_line "unknown format" "^mxcert: error: manifest entry 2 (a=e9m9 acc=f32 k=2 lhs=dequant query-timeout=60 rhs=post): .*e9m9"
[ -e "$TMP/sb" ] && fail "a bad manifest created the output directory" || ok
sed 's/"query-timeout": 60/"query-timeuot": 60/' "$M" >"$TMP/bad3.json"
run sweep "$TMP/bad3.json" -o "$TMP/sb"
expect_rc 2 "unknown option"
one_line "unknown option" "manifest entry 0 .*unknown option --query-timeuot (did you mean --query-timeout?)"
printf '{"manifest": "mxcert-sweep", "version": 1, "name": "d", "list": [{"a": "e2m1", "k": 2}, {"format": "mxfp4", "k": 2, "query-timeout": 5}]}' >"$TMP/dup.json"
run sweep "$TMP/dup.json" -o "$TMP/sb"
expect_rc 2 "duplicate entries"
one_line "duplicate entries" "manifest entry 1 (.*): the same table as entry 0"
printf '{"manifest": "mxcert-sweep", "version": 2, "name": "x", "list": []}' >"$TMP/v2.json"
run sweep "$TMP/v2.json" -o "$TMP/sb"
expect_rc 2 "version 2"
one_line "version 2" '"version" must be 1'
for s in 5/4 0/0 4/4 junk 1/ -1/2; do
  run sweep "$M" -o "$TMP/sb" --shard "$s"
  expect_rc 2 "--shard $s"
  one_line "--shard $s" "^mxcert: error: --shard: expected I/N"
done
run sweep "$M" -o "$TMP/sb" --jobs 0
expect_rc 2 "--jobs 0"
run sweep "$M"
expect_rc 2 "no -o"
one_line "no -o" "\-o"
: >"$TMP/afile"
run sweep "$M" -o "$TMP/afile"
expect_rc 2 "-o names a file"
one_line "-o names a file" "cannot create the directory"
run sweep "$M" "$M" -o "$TMP/sb"
expect_rc 2 "two manifests"
run sweep "$TMP/missing.json" -o "$TMP/sb"
expect_rc 2 "missing manifest"
one_line "missing manifest" "missing.json"
run merge "$TMP/s1/index.json" "$TMP/st/index.json"
expect_rc 2 "merge different manifests"
one_line "merge different manifests" "st/index.json' is the index of a different manifest than"
python3 - "$TMP/s3/index-shard-0-of-2.json" "$TMP/conflict.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j['entries'][1]['options']['query-timeout'] = '61'  # still a valid index: a different configuration
json.dump(j, open(sys.argv[2], 'w'))
j['entries'][1]['agree_pairs'] += 1  # agree_pairs no longer the size of agree: not an index
json.dump(j, open(sys.argv[2] + '.bad', 'w'))
PY
run merge "$TMP/s3/index-shard-0-of-2.json" "$TMP/conflict.json"
expect_rc 2 "conflicting duplicates"
one_line "conflicting duplicates" "^mxcert: error: entry 2 (e2m3xe2m3_f32_rne_keep_k2_seq_dequant-post_bitwise): .* disagree"
run merge "$TMP/s3/index-shard-0-of-2.json" "$TMP/conflict.json.bad"
expect_rc 2 "merge a malformed index"
one_line "merge a malformed index" "^mxcert: error: '$TMP/conflict.json.bad': entries\[1\]: field 'agree_pairs' does not match the regions of 'agree'$"
run merge "$M"
expect_rc 2 "merge a manifest"
one_line "merge a manifest" "not a sweep index"
run merge
expect_rc 2 "merge nothing"

finish

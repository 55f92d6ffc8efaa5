#!/usr/bin/env bash
# tests/cli/test_output.sh — outputs are never half-written (issue "Reliability", items 3
# and 4): a write to standard output that fails (/dev/full) exits 2 with one line naming it,
# for every command that prints; -o writes atomically (a temporary file in the target
# directory, fsync, rename), so a write that fails (ulimit -f) or a run that is killed leaves
# a good file untouched; certificate paths in generated code are escaped (a newline in a
# path cannot inject code).
# Usage: test_output.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

T2=(--a e2m1 --b e2m1 --k 2 --tree seq --lhs pre --rhs post)
CERT="$TMP/good.json"
"$MX" table "${T2[@]}" -o "$CERT" >/dev/null || fail "making the fixture certificate"

# full STDOUT: the command must exit 2 with "cannot write standard output".
full() {
  local desc="$1"
  shift
  "$MX" "$@" >/dev/full 2>"$TMP/err"
  local rc=$?
  if [ "$rc" -ne 2 ]; then
    fail "$desc > /dev/full: exit $rc, expected 2 ($(head -c 200 "$TMP/err"))"
  elif [ "$(wc -l <"$TMP/err")" -ne 1 ] || ! grep -q "^mxcert: error: cannot write standard output" "$TMP/err"; then
    fail "$desc > /dev/full: stderr is not one line naming standard output: $(cat "$TMP/err")"
  else
    ok
  fi
}
full "table --json" table "${T2[@]}" --json
full "table" table "${T2[@]}"
full "eval" eval --a e2m1 --b e2m1 --k 1 --xa 127 --xb 127 --a-vals 1 --b-vals 1
full "check" check "$CERT"
full "prove" prove "${T2[@]}" --guard "e:-147..122"
full "cex" cex "${T2[@]}" --xa 0 --xb 106
full "bound" bound "${T2[@]}"
full "emit-smt2" emit-smt2 "${T2[@]}" --e 0
full "export" export "$CERT" --as cpp
# (Release only: --version encodes 60 probe queries, about 17 s under the sanitizer build; it
# writes through the same writeStdout as the commands above.)
[ -z "${MXCERT_TEST_SANITIZED:-}" ] && full "--version" --version

# -o under a file-size limit (1 KiB; the certificate is larger): exit 2, the old file kept
# byte for byte, no temporary file left.
cp "$CERT" "$TMP/keep.json"
(ulimit -f 1; "$MX" table "${T2[@]}" --relation value -o "$TMP/keep.json" >/dev/null 2>"$TMP/err")
rc=$?
if [ "$rc" -ne 2 ] || ! grep -q "cannot write '.*keep.json'" "$TMP/err"; then
  fail "-o under ulimit -f: exit $rc, expected 2 naming the file ($(cat "$TMP/err"))"
elif ! cmp -s "$CERT" "$TMP/keep.json"; then
  fail "-o under ulimit -f replaced the good file"
elif ls -a "$TMP" | grep -q '^\.mxcert-tmp-'; then
  fail "-o under ulimit -f left a temporary file: $(ls -a "$TMP")"
else
  ok
fi
# export -o the same way.
echo "old" >"$TMP/keep.h"
(ulimit -f 1; "$MX" export "$CERT" --as cpp -o "$TMP/keep.h" >/dev/null 2>"$TMP/err")
if [ "$(cat "$TMP/keep.h")" != old ]; then fail "export -o under ulimit -f replaced the file"; else ok; fi

# A run killed before it finishes leaves the target as it was (the file is renamed into
# place only when complete).
# The table must still be running when the signal comes: an unrolled e5m2 k = 32 value table
# takes tens of seconds (a faster one finished within the second on CI and replaced the file
# legitimately); if it has finished anyway, the test says so instead of blaming the writer.
cp "$CERT" "$TMP/kill.json"
"$MX" table --a e5m2 --k 32 --tree pairwise --lhs pre --rhs post --relation value --proof unrolled \
  -o "$TMP/kill.json" >/dev/null 2>&1 &
pid=$!
sleep 1
if ! kill -TERM "$pid" 2>/dev/null; then
  fail "the table meant to be killed finished within 1 s (choose a slower one)"
else
  wait "$pid" 2>/dev/null
  if cmp -s "$CERT" "$TMP/kill.json"; then ok; else fail "a killed table run changed the -o file"; fi
fi

# A successful -o replaces the file with a complete certificate that checks.
run table "${T2[@]}" --relation value -o "$TMP/new.json"
expect_rc 0 "table -o"
run check "$TMP/new.json"
expect_rc 0 "check of the -o file"

# Paths in generated code: a newline in the certificate's path is escaped.
evil="$TMP/x"$'\n'"#error injected"$'\n'"y.json"
cp "$CERT" "$evil"
for as in cpp mlir; do
  run export "$evil" --as "$as"
  expect_rc 0 "export --as $as of a path with newlines"
  if grep -q '^#error' "$OUT"; then
    fail "export --as $as: the path injected a line: $(grep -n '^#error' "$OUT")"
  elif ! grep -q 'x\\x0a#error injected\\x0ay.json' "$OUT"; then
    fail "export --as $as: the escaped path is not in the comment: $(head -n 1 "$OUT")"
  else
    ok
  fi
done
run export "$evil" --as cpp
printf '#include "%s"\nint main() { return 0; }\n' "$OUT" >"$TMP/use.cpp"
if g++ -std=c++17 -Wall -Werror -fsyntax-only "$TMP/use.cpp" 2>"$TMP/gxx"; then ok; else fail "the exported header does not compile: $(head -c 400 "$TMP/gxx")"; fi

finish

# tests/cli/lib.sh — helpers shared by the CLI end-to-end tests (sourced, not run).
# Each test script takes the path of the mxcert binary as $1, counts failures in $FAILS and
# ends with `finish`, which exits 1 when any check failed.

set -u
MX="${1:?usage: $0 path/to/mxcert}"
FAILS=0
CHECKS=0
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# fail MESSAGE — records one failed check.
fail() {
  echo "FAIL: $*" >&2
  FAILS=$((FAILS + 1))
}

# ok — records one passed check.
ok() { CHECKS=$((CHECKS + 1)); }

# run ARGS... — runs mxcert; sets RC, OUT (stdout file) and ERR (stderr file).
run() {
  OUT="$TMP/out"
  ERR="$TMP/err"
  "$MX" "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

# expect_rc N DESCRIPTION — checks the exit code of the last run.
expect_rc() {
  if [ "$RC" -ne "$1" ]; then
    fail "$2: exit code $RC, expected $1; stderr: $(head -c 400 "$ERR")"
  else
    ok
  fi
}

# py DESCRIPTION SCRIPT — runs a python3 check on the last stdout (file path in sys.argv[1]);
# the script raises/asserts to fail.
py() {
  local desc="$1" script="$2"
  if ! python3 -c "$script" "$OUT" 2>"$TMP/pyerr"; then
    fail "$desc: $(tail -n 3 "$TMP/pyerr")"
  else
    ok
  fi
}

# finish — prints a summary and exits 1 on failures.
finish() {
  echo "$(basename "$0"): $CHECKS checks passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
  exit $?
}

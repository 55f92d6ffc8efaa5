#!/usr/bin/env bash
# tests/cli/test_help.sh — every command has --help (and `mxcert help CMD`) listing exactly the
# options its parser accepts; unknown options name the closest accepted one; -o only where a
# command writes a file; MLIR and PyTorch element-type names are aliases of the formats;
# --version names the revision, the solvers and the encoder identity.
# Usage: test_help.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

for cmd in eval table prove cex bound emit-smt2 check export plot sweep merge; do
  run "$cmd" --help
  expect_rc 0 "$cmd --help"
  grep -q "^usage: mxcert $cmd " "$OUT" && ok || fail "$cmd --help: no usage line: $(head -n 2 "$OUT")"
  [ -s "$ERR" ] && fail "$cmd --help wrote to stderr: $(cat "$ERR")" || ok
  cp "$OUT" "$TMP/a"
  run help "$cmd"
  expect_rc 0 "help $cmd"
  cmp -s "$OUT" "$TMP/a" && ok || fail "help $cmd differs from $cmd --help"
  # Every listed option is accepted by the parser (no "unknown option" for any of them). Under
  # the sanitizer build (cli_help_asan) every third of these 150-odd parse errors runs, without
  # LeakSanitizer's exit scan (0.25 s each; the release build, cli_help, runs them all, and
  # cli_errors_asan checks leaks on the same error paths).
  n=0
  for opt in $(grep -o '^  --[a-z0-9-]*' "$TMP/a" | tr -d ' '); do
    [ "$opt" = --help ] && continue
    n=$((n + 1))
    if [ -n "${MXCERT_TEST_SANITIZED:-}" ]; then
      [ $((n % 3)) = 1 ] || continue
      ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 run "$cmd" "$opt" x y
    else
      run "$cmd" "$opt" x y
    fi
    grep -q "unknown option $opt\b" "$ERR" && fail "$cmd: $opt is listed but unknown to the parser" || ok
  done
done
# The help of table lists its limits and -o; check's lists its own --solver choices.
run table --help
grep -q '^  --timeout S ' "$OUT" && grep -q '^  -o FILE ' "$OUT" && grep -q '^  --query-timeout S ' "$OUT" && ok ||
  fail "table --help misses --timeout/-o/--query-timeout"
run check --help
grep -q '^  --solver S .*other' "$OUT" && ok || fail "check --help: --solver choices"
run prove --help
grep -q '^  -o ' "$OUT" && fail "prove --help lists -o" || ok

run table --format mxfp4 --k 2 --relatoin value
expect_rc 2 "misspelt option"
grep -q "^mxcert: error: unknown option --relatoin (did you mean --relation?)$" "$ERR" && ok || fail "did you mean: $(cat "$ERR")"
run table --format mxfp4 --k 2 --zzzzzzzz 1
grep -q "^mxcert: error: unknown option --zzzzzzzz$" "$ERR" && ok || fail "no suggestion expected: $(cat "$ERR")"
run prove --format mxfp4 --k 2 --guard "e:0..0" -o "$TMP/x"
expect_rc 2 "prove -o"
grep -q "unknown option -o (this command writes no file)" "$ERR" && ok || fail "prove -o: $(cat "$ERR")"
[ -e "$TMP/x" ] && fail "prove -o created a file" || ok
run help table extra
expect_rc 2 "help with two names"
run help
expect_rc 0 "help"
grep -q "mxcert CMD --help" "$OUT" && ok || fail "top-level help does not mention CMD --help"

# Element-format names users already type: MLIR element types and PyTorch dtypes.
EV=(eval --k 2 --xa 127 --xb 130 --a-vals "6 -0.5" --b-vals "1 0x7" --json)
for pair in "e2m1 f4E2M1FN" "e2m1 float4_e2m1fn_x2" "e4m3 f8E4M3FN" "e4m3 float8_e4m3fn" "e5m2 float8_e5m2" \
            "e5m2 f8E5M2" "e2m3 f6E2M3FN" "e3m2 float6_e3m2fn"; do
  set -- $pair
  run "${EV[@]}" --a "$1"
  cp "$OUT" "$TMP/canonical"
  run "${EV[@]}" --a "$2"
  expect_rc 0 "--a $2"
  cmp -s "$OUT" "$TMP/canonical" && ok || fail "--a $2 is not the same as --a $1"
done
run "${EV[@]}" --a F8E4M3FN
expect_rc 2 "--a F8E4M3FN (wrong case)"
grep -q "unknown element format 'F8E4M3FN' for --a" "$ERR" && ok || fail "alias error: $(cat "$ERR")"

# Progress lines: with --progress (stderr is not a terminal here), none by default or with --quiet.
# (Small configurations: every command prints at least its last progress line; the lines are
# the same code at any k, and this script also runs under the sanitizer build, cli_help_asan.)
run table --format mxfp4 --k 2 --lhs pre --rhs post --progress
expect_rc 0 "table --progress"
grep -q "^mxcert: table: [0-9]*/65025 code pairs decided ([0-9]*%), " "$ERR" && ok || fail "table --progress: $(head -c 300 "$ERR")"
run table --format mxfp4 --k 2 --lhs pre --rhs post
[ -s "$ERR" ] && fail "table without --progress wrote to stderr: $(head -c 200 "$ERR")" || ok
run table --format mxfp4 --k 2 --lhs pre --rhs post --progress --quiet
[ -s "$ERR" ] && fail "--quiet still shows progress" || ok
run table --format mxfp4 --k 2 --engine exhaustive --progress
grep -q "^mxcert: table (exhaustive): [0-9]*/[0-9]* evaluation groups" "$ERR" && ok || fail "exhaustive --progress: $(head -c 300 "$ERR")"
run check "$(dirname "$0")/../../certs/tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json" --progress
grep -q "^mxcert: check: [0-9]*/[0-9]* proofs re-proven" "$ERR" && ok || fail "check --progress: $(head -c 300 "$ERR")"
run prove --format mxfp4 --k 2 --lhs pre --rhs post --guard "e:-147..122" --progress
expect_rc 0 "prove --progress"
grep -q "^mxcert: prove: 50469/50469 code pairs decided (100%), " "$ERR" && ok || fail "prove --progress: $(head -c 300 "$ERR")"
run prove --format mxfp4 --k 2 --lhs pre --rhs post --guard "e:-147..122" --quiet
[ -s "$ERR" ] && fail "prove --quiet wrote to stderr: $(head -c 200 "$ERR")" || ok
run bound --format mxfp4 --k 2 --lhs pre --rhs post --progress
expect_rc 0 "bound --progress"
grep -q "^mxcert: bound: [0-9]*/[0-9]* code pairs decided ([0-9]*%), " "$ERR" && ok || fail "bound --progress: $(head -c 300 "$ERR")"

run --version
expect_rc 0 "--version"
head -n 1 "$OUT" | grep -q "^mxcert [0-9][0-9.]* (git .*)$" && ok || fail "--version line 1: $(head -n 1 "$OUT")"
grep -q "^  solver cvc5 [0-9]" "$OUT" && grep -q "^  solver z3 [0-9]" "$OUT" && ok || fail "--version solvers: $(cat "$OUT")"
grep -q "^  encoder QF_LIA identity [0-9a-f]\{16\} " "$OUT" && ok || fail "--version encoder identity: $(cat "$OUT")"
# Deterministic: a second run gives the same identity (release only: each run encodes 60
# probe queries, about 17 s under the sanitizer build).
if [ -z "${MXCERT_TEST_SANITIZED:-}" ]; then
  id1=$(grep identity "$OUT")
  run --version
  [ "$(grep identity "$OUT")" = "$id1" ] && ok || fail "the encoder identity is not deterministic"
fi
run --version extra
expect_rc 2 "--version with an argument"

finish

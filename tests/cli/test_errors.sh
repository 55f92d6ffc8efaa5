#!/usr/bin/env bash
# tests/cli/test_errors.sh — bad usage and bad input: `mxcert` exits with code 2, prints
# exactly one line on stderr ("mxcert: error: ...") and nothing on stdout, for unknown
# formats, k out of 1..64, trees not matching k, malformed trees, non-numeric or
# unrepresentable values, wrong value counts, bad scale codes, unknown options, commands,
# placements and relations.
# Usage: test_errors.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

# bad DESCRIPTION ARGS... — runs mxcert ARGS and checks the bad-input contract.
bad() {
  local desc="$1"
  shift
  run "$@"
  local lines
  lines=$(wc -l <"$ERR")
  if [ "$RC" -ne 2 ]; then
    fail "$desc: exit code $RC, expected 2 (stderr: $(head -c 300 "$ERR"))"
  elif [ "$lines" -ne 1 ]; then
    fail "$desc: $lines lines on stderr, expected 1: $(head -c 600 "$ERR")"
  elif ! head -n 1 "$ERR" | grep -q '^mxcert: error: .'; then
    fail "$desc: stderr does not start with 'mxcert: error: ': $(cat "$ERR")"
  elif [ -s "$OUT" ]; then
    fail "$desc: unexpected stdout: $(head -c 300 "$OUT")"
  else
    ok
  fi
}

E=(eval --a e2m1 --b e2m1 --xa 127 --xb 127)  # eval prefix; add --k, values
T=(table --format mxfp4)                       # table prefix; add --k

# Unknown formats.
bad "unknown element format"    eval --a e9m9 --k 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "unknown --b format"        eval --a e2m1 --b fp4 --k 1 --xa 1 --xb 1 --a-vals 1 --b-vals 1
bad "unknown --format"          table --format mxfp9 --k 2
bad "unknown accumulator"       "${E[@]}" --acc f8 --k 1 --a-vals 1 --b-vals 1
bad "unknown --round"           "${E[@]}" --round rtn --k 1 --a-vals 1 --b-vals 1
bad "daz with subnormal elements" table --a e5m2 --acc f16 --k 2 --subnormals daz
bad "daz with nvfp4"              table --format nvfp4 --subnormals daz
bad "unknown --subnormals"      "${E[@]}" --subnormals dazz --k 1 --a-vals 1 --b-vals 1
bad "--format with --a"         table --format mxfp4 --a e2m1 --k 2
# k out of range.
bad "--k 0"                     "${E[@]}" --k 0 --a-vals 1 --b-vals 1
bad "--k 65"                    "${E[@]}" --k 65 --a-vals 1 --b-vals 1
bad "--k -1"                    "${T[@]}" --k -1
bad "--k abc"                   "${T[@]}" --k abc
bad "table --k 0"               "${T[@]}" --k 0
bad "table --k 65"              "${T[@]}" --k 65
bad "missing --k"               "${T[@]}"
# Trees not matching k.
bad "tree misses a leaf"        "${E[@]}" --k 4 --tree "((0 1) 2)" --a-vals "1 1 1 1" --b-vals "1 1 1 1"
bad "tree leaf out of range"    "${E[@]}" --k 2 --tree "(0 1 2)" --a-vals "1 1" --b-vals "1 1"
bad "tree duplicate leaf"       "${T[@]}" --k 3 --tree "((0 1) 1)"
# Malformed trees.
bad "tree unbalanced"           "${T[@]}" --k 3 --tree "((0 1) 2"
bad "tree extra paren"          "${T[@]}" --k 2 --tree "(0 1))"
bad "tree garbage"              "${T[@]}" --k 2 --tree "(0 x)"
# 20,000 nested parentheses: rejected before the recursive parser could exhaust the stack.
DEEP="$(printf '%.0s(' $(seq 20000))0 1$(printf '%.0s)' $(seq 20000))"
bad "tree nested 20000 deep"     "${T[@]}" --k 2 --tree "$DEEP"
bad "tree single child"         "${T[@]}" --k 1 --tree "(0)"
bad "tree empty"                "${T[@]}" --k 2 --tree ""
bad "tree unknown name"         "${T[@]}" --k 2 --tree balanced
# Values.
bad "non-numeric value"         "${E[@]}" --k 2 --a-vals "6 abc" --b-vals "1 1"
bad "non-numeric value 2"       "${E[@]}" --k 1 --a-vals "1" --b-vals "1.2.3"
bad "0.3 in e2m1"               "${E[@]}" --k 1 --a-vals 0.3 --b-vals 1
bad "7 in e2m1"                 "${E[@]}" --k 1 --a-vals 7 --b-vals 1
bad "nan in e2m1"               "${E[@]}" --k 1 --a-vals nan --b-vals 1
bad "inf in e4m3"               eval --a e4m3 --b e4m3 --xa 127 --xb 127 --k 1 --a-vals inf --b-vals 1
bad "code 0x10 in e2m1"         "${E[@]}" --k 1 --a-vals 0x10 --b-vals 1
bad "too few values"            "${E[@]}" --k 4 --a-vals "1 2 3" --b-vals "1 2 3 4"
bad "too many values"           "${E[@]}" --k 2 --a-vals "1 2" --b-vals "1 2 3"
bad "no values"                 "${E[@]}" --k 1 --a-vals "" --b-vals 1
bad "missing --a-vals"          "${E[@]}" --k 1 --b-vals 1
# Scale codes.
bad "scale code 256"            eval --a e2m1 --k 1 --xa 256 --xb 127 --a-vals 1 --b-vals 1
bad "scale code -1"             eval --a e2m1 --k 1 --xa -1 --xb 127 --a-vals 1 --b-vals 1
bad "scale code abc"            eval --a e2m1 --k 1 --xa abc --xb 127 --a-vals 1 --b-vals 1
bad "scale code --xb 300"       eval --a e2m1 --k 1 --xa 1 --xb 300 --a-vals 1 --b-vals 1
bad "scale range 1..300"        eval --a e2m1 --k 1 --xa 1..300 --xb 1 --a-vals 1 --b-vals 1
bad "scale range empty"         eval --a e2m1 --k 1 --xa 5..3 --xb 1 --a-vals 1 --b-vals 1
bad "scale code 1.5"            eval --a e2m1 --k 1 --xa 1.5 --xb 1 --a-vals 1 --b-vals 1
bad "missing --xa"              eval --a e2m1 --k 1 --xb 1 --a-vals 1 --b-vals 1
# Unknown options and commands.
bad "unknown option (eval)"     "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --frobnicate
bad "unknown option (table)"    "${T[@]}" --k 2 --bogus 3
bad "unknown short option"      "${T[@]}" --k 2 -x
bad "flag with a value"         "${T[@]}" --k 2 --json=yes
bad "option given twice"        "${T[@]}" --k 2 --k 3
bad "option without value"      "${T[@]}" --k
bad "option with empty value"   "${T[@]}" --k=
bad "-o without file name"      "${T[@]}" --k 1 -o
bad "-o given twice"            "${T[@]}" --k 1 -o a.json -o b.json
bad "unknown option after =/--" "${T[@]}" --k 1 --bogus=3
bad "unexpected argument"       "${T[@]}" --k 2 extra
bad "unknown command"           frobnicate --k 2
bad "unknown engine"            "${T[@]}" --k 2 --engine magic
bad "unwritable -o"             "${T[@]}" --k 1 -o /nonexistent-dir/out.json
# Unknown placements and relations.
bad "unknown placement (eval)"  "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --placements pre,foo
bad "empty placement list"      "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --placements ""
bad "unknown placement (lhs)"   "${T[@]}" --k 2 --lhs foo
bad "unknown placement (rhs)"   "${T[@]}" --k 2 --rhs scaled
bad "unknown relation (eval)"   "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --relation approx
bad "unknown relation (table)"  "${T[@]}" --k 2 --relation approx

# Reliability audit, smaller items: --b without --a, a trailing comma in --placements,
# emit-smt2 without a region, QF_FP on what it cannot express, and a value with a line break
# (the error stays one line: the `bad` contract checks it).
bad "--b without --a"            eval --b e2m1 --k 1 --xa 127 --xb 127 --a-vals 1 --b-vals 1
bad "placement list 'pre,'"      "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --placements pre,
bad "placement list ',post'"     "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --placements ,post
bad "placement list 'pre,,post'" "${E[@]}" --k 1 --a-vals 1 --b-vals 1 --placements pre,,post
bad "emit-smt2 without a region" emit-smt2 --format mxfp4 --k 2 --lhs pre --rhs post
bad "emit-smt2 fp, fused k = 3"  emit-smt2 --format mxfp4 --k 3 --tree fused --lhs pre --rhs post --e 0 --encoding fp
bad "emit-smt2 fp, ftz"          emit-smt2 --format mxfp4 --k 2 --lhs pre --rhs post --e 0 --encoding fp --subnormals ftz
bad "a line break in a value"    table --format $'mx\nfp4' --k 2
bad "a line break in a tree"     "${T[@]}" --k 2 --tree $'(0\n1'

finish

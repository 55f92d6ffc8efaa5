#!/usr/bin/env bash
# tests/cli/test_solve.sh — `mxcert prove`, `cex`, `bound` and `emit-smt2` end to end on MXFP4
# (e2m1, f32 rne, seq, pre/post, bitwise), whose k = 2 agree set is e in [-147, 122] (SPEC §7):
#  * prove: the interval is proven (exit 0); one step wider is refuted (exit 1) with a
#    counterexample whose replay command, run through `mxcert eval`, really gives two different
#    bit patterns, and which the solver also finds sat against the QF_LIA encoding;
#  * cex: "agree" (exit 0) inside, a counterexample (exit 1) at e = -148, also at k = 32;
#  * bound: the closed form [-147, 122], sound and tight;
#  * emit-smt2: the cvc5 and z3 binaries answer the emitted text as the library does (unsat
#    inside; sat at e = -148 with the counterexample's inputs fixed, in both encodings);
#  * bad input: exit 2 with a one-line error naming the problem.
# Usage: test_solve.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

CFG=(--format mxfp4 --tree seq --lhs pre --rhs post --relation bitwise)

# contains TEXT DESCRIPTION — the last stdout contains TEXT.
contains() {
  if grep -qF -- "$1" "$OUT"; then ok; else fail "$2: output lacks '$1': $(head -c 600 "$OUT")"; fi
}

# replay_differs DESCRIPTION — runs the `replay:` line of the last stdout and checks that the two
# placements give different bits.
replay_differs() {
  local line
  line=$(grep -m1 '  replay: mxcert eval' "$OUT" | sed 's/^  replay: mxcert //')
  if [ -z "$line" ]; then fail "$1: no replay line"; return; fi
  eval "\"\$MX\" $line --json" >"$TMP/replay" 2>"$TMP/replay.err"
  local rc=$?
  # eval reports the relation in its output (exit 0).
  if [ "$rc" -ne 0 ]; then fail "$1: replay exit $rc: $(head -c 300 "$TMP/replay.err")"; return; fi
  if python3 - "$TMP/replay" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["related"] == {"pre~post": False}, r
assert r["values"]["pre"]["bits"] != r["values"]["post"]["bits"], r
EOF
  then ok; else fail "$1: the replayed results do not differ"; fi
}

# prove: the agree interval is proven, one step wider is refuted.
for s in cvc5 z3; do
  run prove "${CFG[@]}" --k 2 --guard "e:-147..122" --solver $s
  expect_rc 0 "prove k=2 agree interval ($s)"
  contains "proven" "prove k=2 ($s)"
  contains "unsat ($s" "prove k=2 names the solver ($s)"
  run prove "${CFG[@]}" --k 2 --guard "e:-148..122" --solver $s
  expect_rc 1 "prove k=2 one step wider ($s)"
  contains "refuted: xa:0..254,xb:0..254,e:-148..122" "prove k=2 refuted ($s)"
  contains "counterexample at" "prove k=2 counterexample ($s)"
  contains "QF_LIA check: sat with these inputs fixed ($s" "prove k=2 solver check ($s)"
  replay_differs "prove k=2 replay ($s)"
done
run prove "${CFG[@]}" --k 2 --guard "e:123..130"
expect_rc 1 "prove above the interval"
replay_differs "prove above the interval replay"

# cex: inside the set, "agree" and proven; at e = -148 a counterexample, k = 2 and 32.
run cex "${CFG[@]}" --k 2 --xa 127 --xb 127
expect_rc 0 "cex inside"
contains "agree: pre ~ post (bitwise) for every input at xa=127 xb=127 (proven: unsat" "cex inside"
for k in 2 32; do
  run cex "${CFG[@]}" --k $k --xa 0 --xb 106
  expect_rc 1 "cex k=$k e=-148"
  contains "counterexample at xa=0 xb=106 (e=-148):" "cex k=$k"
  contains "QF_LIA check: sat with these inputs fixed" "cex k=$k solver check"
  replay_differs "cex k=$k replay"
  cp "$OUT" "$TMP/cex$k"
done

# bound: the closed form, sound and tight.
run bound "${CFG[@]}" --k 2
expect_rc 0 "bound k=2"
contains "predicted: xa:0..254,xb:0..254,e:-147..122" "bound k=2 prediction"
contains "e = -148: refuted" "bound k=2 lower tightness"
contains "e = 123: refuted" "bound k=2 upper tightness"
contains "certified: sound and tight" "bound k=2 verdict"

# emit-smt2: the binaries answer as the library does. A QF_LIA query is a script of phases
# (push/pop: cvc5 needs --incremental): unsat means every phase answered unsat; sat is the
# first answer (the goal's phase).
# solve SOLVER FILE EXPECTED DESCRIPTION
solve() {
  local out v
  if [ "$1" = cvc5 ]; then out=$(cvc5 --incremental --tlimit=60000 --fp-exp "$2" 2>&1); else out=$(z3 -T:60 "$2" 2>&1); fi
  if [ "$3" = unsat ]; then v=$(printf '%s\n' "$out" | sort -u | tr '\n' ' ' | sed 's/ $//'); else v=$(printf '%s\n' "$out" | head -n1); fi
  if [ "$v" = "$3" ]; then ok; else fail "$4: $1 says '$v', expected $3"; fi
}
run emit-smt2 "${CFG[@]}" --k 2 --encoding lia --guard "e:-147..122"
expect_rc 0 "emit-smt2 lia interval"
cp "$OUT" "$TMP/in.smt2"
run emit-smt2 "${CFG[@]}" --k 1 --encoding fp --e 0
expect_rc 0 "emit-smt2 fp k=1"
cp "$OUT" "$TMP/fp1.smt2"
# The k = 32 counterexample's inputs, fixed, at its code pair.
codes() { grep -m1 "  $1 = " "$TMP/cex32" | sed 's/.*(codes \(.*\))/\1/'; }
AC=$(codes a)
BC=$(codes b)
run emit-smt2 "${CFG[@]}" --k 32 --encoding lia --xa 0 --xb 106 --a-vals "$AC" --b-vals "$BC"
expect_rc 0 "emit-smt2 lia fixed"
cp "$OUT" "$TMP/fixed.smt2"
contains "fixed leaves (a code, b code): 0=(" "emit-smt2 fixed leaves are named"
run emit-smt2 "${CFG[@]}" --k 32 --encoding fp --xa 0 --xb 106 --a-vals "$AC" --b-vals "$BC"
expect_rc 0 "emit-smt2 fp fixed"
cp "$OUT" "$TMP/fixedfp.smt2"
for s in cvc5 z3; do
  solve $s "$TMP/in.smt2" unsat "lia interval"
  solve $s "$TMP/fp1.smt2" unsat "fp k=1 e=0"
  solve $s "$TMP/fixed.smt2" sat "lia fixed counterexample"
  solve $s "$TMP/fixedfp.smt2" sat "fp fixed counterexample"
done
# Inputs fixed inside the agree set: unsat in both encodings.
run emit-smt2 "${CFG[@]}" --k 32 --encoding lia --xa 127 --xb 127 --a-vals "$AC" --b-vals "$BC"
cp "$OUT" "$TMP/fixedin.smt2"
solve cvc5 "$TMP/fixedin.smt2" unsat "lia fixed inside"
solve z3 "$TMP/fixedin.smt2" unsat "lia fixed inside"

# Bad input: exit 2, one line, naming the problem.
# bad DESCRIPTION NEEDLE ARGS... — expects exit 2 and a one-line stderr containing NEEDLE.
bad() {
  local desc="$1" needle="$2"
  shift 2
  run "$@"
  expect_rc 2 "$desc"
  if [ "$(wc -l <"$ERR")" -eq 1 ] && grep -qF -- "$needle" "$ERR"; then ok; else fail "$desc: stderr: $(head -c 300 "$ERR")"; fi
}
bad "emit-smt2 wrong count" "need k = 2 values each (got 2 and 1)" emit-smt2 "${CFG[@]}" --k 2 --a-vals "1 2" --b-vals "1" --e 0
bad "emit-smt2 bad value" "'7' is not representable in e2m1" emit-smt2 "${CFG[@]}" --k 2 --a-vals "1 7" --b-vals "1 1" --e 0
bad "emit-smt2 only a" "b-vals" emit-smt2 "${CFG[@]}" --k 2 --a-vals "1 1" --e 0
bad "emit-smt2 bad encoding" "unknown --encoding 'bv'" emit-smt2 "${CFG[@]}" --k 2 --encoding bv --e 0
bad "cex code 255" "--xa" cex "${CFG[@]}" --k 2 --xa 255 --xb 0
bad "prove malformed guard" "guard" prove "${CFG[@]}" --k 2 --guard "e:5..x"
bad "prove unknown solver" "solver" prove "${CFG[@]}" --k 2 --guard "e:0..0" --solver yices
finish

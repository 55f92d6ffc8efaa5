#!/usr/bin/env bash
# tests/cli/test_values.sh — element values on the `mxcert eval` command line: every decimal
# spelling of a representable value is accepted (also with a leading 0 in the digits, such as
# "0.25" or "0.001953125"), as are -0, exponents, hex codes, inf/nan where the format has
# them; the value reaches the evaluator exactly (checked through the f64 result bits).
# Usage: test_values.sh path/to/mxcert
. "$(dirname "$0")/lib.sh"

# value FMT TEXT F64BITS — evaluates TEXT * 1 (k = 1, scales 2^0) in f64 and checks the bits.
value() {
  local fmt="$1" text="$2" want="$3"
  run eval --a "$fmt" --b e2m1 --acc f64 --k 1 --xa 127 --xb 127 --a-vals "$text" --b-vals 1 --placements post
  if [ "$RC" -ne 0 ]; then
    fail "$fmt '$text': exit code $RC: $(head -c 300 "$ERR")"
    return
  fi
  local got
  got=$(sed -n 's/.*post=[^/]*\/\(0x[0-9A-F]*\).*/\1/p' "$OUT")
  if [ "$got" = "$want" ]; then ok; else fail "$fmt '$text': bits $got, expected $want"; fi
}

value e2m1 6            0x4018000000000000
value e2m1 6.0          0x4018000000000000
value e2m1 60e-1        0x4018000000000000
value e2m1 -1.5         0xBFF8000000000000
value e2m1 -0           0x8000000000000000
value e2m1 0.5          0x3FE0000000000000
value e2m1 0x1          0x3FE0000000000000
value e2m3 0.125        0x3FC0000000000000
value e2m3 0.25         0x3FD0000000000000
value e2m3 0.375        0x3FD8000000000000
value e3m2 0.0625       0x3FB0000000000000
value e4m3 0.001953125  0x3F60000000000000
value e4m3 448          0x407C000000000000
value e5m2 57344        0x40EC000000000000
value e5m2 -inf         0xFFF0000000000000
value e5m2 nan          0x7FF8000000000000
value e4m3 nan          0x7FF8000000000000

finish

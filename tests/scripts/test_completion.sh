#!/usr/bin/env bash
# tests/scripts/test_completion.sh — the bash completion offers the commands, each command's
# options as its --help lists them, and the fixed choices of option values.
# Usage: test_completion.sh path/to/mxcert
set -u
MX="${1:?usage: $0 path/to/mxcert}"
. "$(dirname "$0")/../../scripts/completion/mxcert.bash"
FAILS=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
# complete WORD... — runs the completion function on the words (the last one is completed).
complete_words() {
  COMP_WORDS=("$MX" "$@")
  COMP_CWORD=$(($# ))
  COMPREPLY=()
  _mxcert
  echo "${COMPREPLY[*]}"
}
[ "$(complete_words ta)" = "table" ] || fail "command: $(complete_words ta)"
[[ " $(complete_words table --rel) " == *" --relation "* ]] || fail "table --rel: $(complete_words table --rel)"
[[ " $(complete_words table --) " == *" --max-terms "* ]] || fail "table --: no --max-terms"
[[ " $(complete_words prove --) " == *" -o "* ]] && fail "prove offers -o"
[ "$(complete_words table --relation v)" = "value" ] || fail "--relation v: $(complete_words table --relation v)"
[ "$(complete_words check --solver bo)" = "both" ] || fail "check --solver bo"
[ "$(complete_words table --solver "")" = "cvc5 z3" ] || fail "table --solver: $(complete_words table --solver "")"
[ "$(complete_words help ch)" = "check" ] || fail "help ch"
[ "$(complete_words pl)" = "plot" ] || fail "command pl: $(complete_words pl)"
[[ " $(complete_words plot --) " == *" --compare "* ]] || fail "plot --: no --compare"
[ "$(complete_words sw)" = "sweep" ] || fail "command sw: $(complete_words sw)"
[[ " $(complete_words sweep --) " == *" --shard "* ]] || fail "sweep --: no --shard"
[ "$(complete_words help me)" = "merge" ] || fail "help me: $(complete_words help me)"
echo "test_completion.sh: $FAILS failure(s)"
[ "$FAILS" = 0 ]

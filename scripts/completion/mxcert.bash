# bash completion for mxcert (installed as share/bash-completion/completions/mxcert).
# Commands and options come from `mxcert --help` and `mxcert CMD --help` themselves, so the
# completion always matches the binary; values are completed for the options with fixed choices.
_mxcert() {
  local cur prev cmd words
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  local exe="${COMP_WORDS[0]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "eval table prove cex bound emit-smt2 check export plot sweep merge help --help --version" -- "$cur"))
    return
  fi
  cmd="${COMP_WORDS[1]}"
  case "$prev" in
    --a|--b) COMPREPLY=($(compgen -W "e2m1 e2m3 e3m2 e4m3 e5m2" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "mxfp4 mxfp6 mxfp8 nvfp4" -- "$cur")); return ;;
    --scale) COMPREPLY=($(compgen -W "e8m0 e4m3" -- "$cur")); return ;;
    --acc) COMPREPLY=($(compgen -W "f32 bf16 f16 f64" -- "$cur")); return ;;
    --round) COMPREPLY=($(compgen -W "rne rtz" -- "$cur")); return ;;
    --subnormals) COMPREPLY=($(compgen -W "keep ftz" -- "$cur")); return ;;
    --tree) COMPREPLY=($(compgen -W "seq pairwise fused any any:2" -- "$cur")); return ;;
    --step) COMPREPLY=($(compgen -W "leaf root node start add root1" -- "$cur")); return ;;
    --invariant) COMPREPLY=($(compgen -W "scaled zero equal scaled-noinf" -- "$cur")); return ;;
    --lhs|--rhs) COMPREPLY=($(compgen -W "pre post dequant post2" -- "$cur")); return ;;
    --relation) COMPREPLY=($(compgen -W "bitwise value" -- "$cur")); return ;;
    --engine) COMPREPLY=($(compgen -W "solver exhaustive" -- "$cur")); return ;;
    --encoding) COMPREPLY=($(compgen -W "lia fp" -- "$cur")); return ;;
    --as) COMPREPLY=($(compgen -W "cpp json mlir" -- "$cur")); return ;;
    --solver)
      if [ "$cmd" = check ]; then COMPREPLY=($(compgen -W "other z3 cvc5 both none" -- "$cur"))
      else COMPREPLY=($(compgen -W "cvc5 z3" -- "$cur")); fi
      return ;;
    -o|--compare) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  if [ "$cmd" = help ]; then
    COMPREPLY=($(compgen -W "eval table prove cex bound emit-smt2 check export plot sweep merge" -- "$cur"))
    return
  fi
  if [[ "$cur" == -* ]]; then
    words=$("$exe" "$cmd" --help 2>/dev/null | sed -n 's/^  \(-[-a-z0-9]*\).*/\1/p')
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _mxcert mxcert

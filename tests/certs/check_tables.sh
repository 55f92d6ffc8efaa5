#!/usr/bin/env bash
# tests/certs/check_tables.sh — runs `mxcert check` on every committed certificate
# (certs/tables/*.json), printing per file the verdict and the wall time, and the total.
# Exit 1 when any certificate is rejected or unknown, 2 when there are none.
# Usage: check_tables.sh path/to/mxcert path/to/certs/tables [extra mxcert check options...]
set -u
MX="${1:?usage: $0 mxcert tables-dir [options]}"
DIR="${2:?usage: $0 mxcert tables-dir [options]}"
shift 2
shopt -s nullglob
files=("$DIR"/*.json)
if [ ${#files[@]} -eq 0 ]; then
  echo "no certificates in $DIR"
  exit 2
fi
fails=0
t0=$(date +%s%N)
for f in "${files[@]}"; do
  s=$(date +%s%N)
  err=$("$MX" check "$f" --quiet "$@" 2>&1 >/dev/null)
  rc=$?
  e=$(date +%s%N)
  ms=$(((e - s) / 1000000))
  printf '%-62s exit %d  %5d.%03d s  %s\n' "$(basename "$f")" "$rc" $((ms / 1000)) $((ms % 1000)) "${err:0:300}"
  [ "$rc" -eq 0 ] || fails=$((fails + 1))
done
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
printf 'check_tables: %d certificate(s), %d not confirmed, %d.%03d s in all\n' "${#files[@]}" "$fails" $((ms / 1000)) $((ms % 1000))
[ "$fails" -eq 0 ]

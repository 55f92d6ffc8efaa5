#!/usr/bin/env bash
# gpu_replay/tests/test_compiled.sh — checks that a device backend was compiled (it runs
# nothing on a device): test_compiled.sh cuda|hip REPLAY_BINARY PLUGIN_SO "TARGET;TARGET..."
#  * the plugin exists, exports the plugin entry points, and mxcert-replay can load it
#    (--backend-info: dlopen, interface version, compiled targets) without opening a device;
#  * the device code for every target the build probed is in the shared object (cuobjdump
#    --list-elf for CUDA when it is installed; the offload bundle names for HIP).
set -u
KIND=$1
R=$2
SO=$3
TARGETS=$4
fail() {
  echo "FAIL: $*"
  exit 1
}
[ -f "$SO" ] || fail "$SO was not built"
if command -v nm >/dev/null; then
  syms=$(nm -D --defined-only "$SO")
  grep -q ' mxreplay_plugin_v1$' <<<"$syms" || fail "$SO does not export mxreplay_plugin_v1"
  grep -q ' mxreplay_plugin_targets$' <<<"$syms" || fail "$SO does not export mxreplay_plugin_targets"
fi
info=$("$R" --backend-info "$KIND") || fail "mxcert-replay --backend-info $KIND failed"
echo "$info"
IFS=';' read -r -a ts <<<"$TARGETS"
for t in "${ts[@]}"; do
  grep -q -- "$t" <<<"$info" || fail "--backend-info does not list $t"
done
if [ "$KIND" = cuda ]; then
  if command -v cuobjdump >/dev/null; then
    elfs=$(cuobjdump --list-elf "$SO") || fail "cuobjdump --list-elf failed"
    echo "$elfs"
    for t in "${ts[@]}"; do
      grep -q "\.$t\." <<<"$elfs" || fail "no $t cubin in $SO"
    done
  else
    echo "note: cuobjdump not found; cubins not listed"
  fi
else
  for t in "${ts[@]}"; do
    grep -aq "amdgcn-amd-amdhsa--$t" "$SO" || fail "no $t code object in $SO"
  done
  echo "code objects: ${ts[*]}"
fi
echo "compiled: $KIND for ${ts[*]}"

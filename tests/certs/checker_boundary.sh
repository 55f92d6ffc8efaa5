#!/usr/bin/env bash
# tests/certs/checker_boundary.sh — the checker's trusted base (docs/certificates.md): no
# file of src/check includes or calls the synthesizer's engine code (src/engine), and the
# checker library does not link it. Usage: checker_boundary.sh SOURCE_DIR
set -u
src="$1"
fail=0
if grep -n '#include "src/engine\|engine::' "$src"/src/check/*.h "$src"/src/check/*.cpp; then
  echo "FAIL: src/check uses the engine (lines above)"; fail=1
fi
if grep -n 'target_link_libraries(mxcert_check .*mxcert_engine' "$src"/src/CMakeLists.txt; then
  echo "FAIL: mxcert_check links mxcert_engine"; fail=1
fi
[ "$fail" = 0 ] && echo "1 passed, 0 failed: src/check neither includes, calls nor links src/engine"
exit "$fail"

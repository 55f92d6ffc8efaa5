#!/usr/bin/env bash
# tests/install/test_install.sh — installs the build into a temporary prefix and uses it as a
# consumer would: a CMake project with find_package(mxcert) (mxcert::certs), the same source
# built with pkg-config, the installed mxcert CLI on an installed table, the installed
# mxcert-opt with its default (installed) tables, the installed MLIR pass plugin in upstream
# mlir-opt-22 (the same output as mxcert-opt), and a partial install that must fail at
# configure time with a clear message; with PYTHON (the interpreter the Python module is built
# for), also `import mxcert` from the installed package.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR [PYTHON]
set -u
BUILD="${1:?usage: $0 BUILD_DIR SOURCE_DIR [PYTHON]}"
SRC="${2:?usage: $0 BUILD_DIR SOURCE_DIR [PYTHON]}"
PY="${3:-}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
P="$TMP/prefix"
FAILS=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

cmake --install "$BUILD" --prefix "$P" >"$TMP/install.log" 2>&1 || { cat "$TMP/install.log"; fail "cmake --install"; }
for f in bin/mxcert lib/libmxcert_models.a lib/libmxcert_certs.a include/mxcert/models/guard.h \
         include/mxcert/certs/certificate.h lib/cmake/mxcert/mxcertConfig.cmake lib/pkgconfig/mxcert.pc \
         share/mxcert/tables/README.md share/mxcert/certificate.schema.json share/doc/mxcert/README.md \
         share/doc/mxcert/docs/mlir.md \
         share/bash-completion/completions/mxcert; do
  [ -e "$P/$f" ] || fail "not installed: $f"
done
ntables=$(ls "$P"/share/mxcert/tables/*.json | wc -l)
[ "$ntables" = "$(ls "$SRC"/certs/tables/*.json | wc -l)" ] || fail "installed $ntables tables"
ngrown=$(ls "$P"/share/mxcert/grown/*.json | wc -l)
[ "$ngrown" = "$(ls "$SRC"/certs/grown/*.json | wc -l)" ] && [ -e "$P/share/mxcert/grown/index.json" ] ||
  fail "installed $ngrown files of the grown set (with index.json)"
nnv=$(ls "$P"/share/mxcert/nvfp4/*.json | wc -l)
[ "$nnv" = "$(ls "$SRC"/certs/nvfp4/*.json | wc -l)" ] && [ -e "$P/share/mxcert/nvfp4/index.json" ] ||
  fail "installed $nnv files of the NVFP4 set (with index.json)"
TABLE="$P/share/mxcert/tables/e2m1xe2m1_f32_rne_keep_k2_seq_dequant-post_bitwise.json"
# The expected answers, from the JSON itself.
expect() {
  python3 - "$TABLE" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); xa, xb = int(sys.argv[2]), int(sys.argv[3]); e = xa + xb - 254
ok = any(r["xa"][0] <= xa <= r["xa"][1] and r["xb"][0] <= xb <= r["xb"][1] and r["e"][0] <= e <= r["e"][1] for r in d["agree"])
print("agree" if ok else "outside")
PY
}

# 1. CMake consumer.
cmake -S "$SRC/tests/install/consumer" -B "$TMP/cb" -DCMAKE_PREFIX_PATH="$P" >"$TMP/cfg.log" 2>&1 ||
  { cat "$TMP/cfg.log"; fail "configuring the consumer against the install"; }
cmake --build "$TMP/cb" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; fail "building the consumer"; }
for pair in "127 127" "250 127" "0 0" "200 180"; do
  set -- $pair
  got=$("$TMP/cb/consumer" "$TABLE" "$1" "$2" | cut -d' ' -f1)
  want=$(expect "$1" "$2")
  [ "$got" = "$want" ] || fail "cmake consumer at ($1, $2): $got, expected $want"
done
"$TMP/cb/consumer" "$TABLE" 127 127 | grep -q " e2m1 e2m1 k=2 guard=" || fail "cmake consumer: config not printed"

# 2. pkg-config consumer (the same source).
if command -v pkg-config >/dev/null; then
  flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs mxcert) || fail "pkg-config mxcert"
  # shellcheck disable=SC2086
  c++ "$SRC/tests/install/consumer/main.cpp" $flags -o "$TMP/pc_consumer" 2>"$TMP/pc.log" ||
    { cat "$TMP/pc.log"; fail "building with pkg-config"; }
  got=$("$TMP/pc_consumer" "$TABLE" 127 127 | cut -d' ' -f1)
  [ "$got" = "$(expect 127 127)" ] || fail "pkg-config consumer: $got"
  tdir=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --variable=tablesdir mxcert)
  [ "$(realpath "$tdir")" = "$(realpath "$P/share/mxcert/tables")" ] || fail "pkg-config tablesdir: $tdir"
fi

# 3. The installed CLI on an installed table.
"$P/bin/mxcert" check "$TABLE" >"$TMP/check.out" 2>&1 || fail "installed mxcert check: $(tail -n 2 "$TMP/check.out")"
"$P/bin/mxcert" export "$TABLE" --as json >"$TMP/compact.json" || fail "installed mxcert export"

# 4. The installed mxcert-opt finds the installed tables and the installed checker by itself.
if [ -x "$P/bin/mxcert-opt" ]; then
  cat >"$TMP/block.mlir" <<'MLIR'
func.func @dot(%a: vector<2xf4E2M1FN>, %b: vector<2xf4E2M1FN>) -> f32 {
  %sa = arith.constant 0x7F : f8E8M0FNU
  %sb = arith.constant 0x7F : f8E8M0FNU
  %sav = vector.broadcast %sa : f8E8M0FNU to vector<2xf8E8M0FNU>
  %sbv = vector.broadcast %sb : f8E8M0FNU to vector<2xf8E8M0FNU>
  %A = arith.scaling_extf %a, %sav : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %B = arith.scaling_extf %b, %sbv : vector<2xf4E2M1FN>, vector<2xf8E8M0FNU> to vector<2xf32>
  %P = arith.mulf %A, %B : vector<2xf32>
  %R = vector.reduction <add>, %P : vector<2xf32> into f32
  return %R : f32
}
MLIR
  MXCERT_CHECK_CACHE=none "$P/bin/mxcert-opt" "$TMP/block.mlir" --mx-scale-placement >"$TMP/opt.out" 2>"$TMP/opt.err" ||
    fail "installed mxcert-opt: $(head -c 400 "$TMP/opt.err")"
  grep -q "certified agree set" "$TMP/opt.err" || fail "installed mxcert-opt did not use a verified installed table: $(head -c 400 "$TMP/opt.err")"
  # An NVFP4 block (f8E4M3FN scales, K = 16): the installed NVFP4 set (share/mxcert/nvfp4).
  sed -e 's/f8E8M0FNU/f8E4M3FN/g' -e 's/vector<2x/vector<16x/g' -e 's/0x7F : f8E4M3FN/0x38 : f8E4M3FN/g' \
    "$TMP/block.mlir" >"$TMP/nvfp4.mlir"
  MXCERT_CHECK_CACHE=none "$P/bin/mxcert-opt" "$TMP/nvfp4.mlir" --mx-scale-placement >"$TMP/opt.out" 2>"$TMP/opt.err" ||
    fail "installed mxcert-opt (nvfp4): $(head -c 400 "$TMP/opt.err")"
  grep -q "rewrote dequant to post: scale codes xa = 56, xb = 56 lie in the certified agree set .* of e2m1xe2m1-e4m3_f32_rne_keep_k16_seq_dequant-post_bitwise.json" "$TMP/opt.err" ||
    fail "installed mxcert-opt did not use the installed NVFP4 set: $(head -c 400 "$TMP/opt.err")"

  # 4b. The installed pass plugin, loaded by upstream mlir-opt, gives mxcert-opt's output and
  # diagnostics byte for byte, on examples/in.mlir and on a block with no table (whose remark
  # names the tables directory: the installed one), with only the installed checker (no mxcert
  # on PATH, no cache: the check runs).
  PLUGIN="$P/lib/mxcert/libMxcertPassPlugin.so"
  MLIR_OPT="$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)"
  if [ ! -f "$PLUGIN" ]; then
    fail "not installed: lib/mxcert/libMxcertPassPlugin.so"
  elif grep -q '^MXCERT_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
    echo "skipped: the installed plugin in mlir-opt (a sanitized plugin cannot be loaded into the unsanitized mlir-opt)"
  elif [ ! -x "$MLIR_OPT" ]; then
    fail "mlir-opt-22 not found (package mlir-22-tools), needed to load the installed plugin"
  else
    sed 's/vector<2x/vector<4x/g' "$TMP/block.mlir" >"$TMP/k4.mlir"
    for input in "$SRC/examples/in.mlir" "$TMP/k4.mlir"; do
      name=$(basename "$input" .mlir)
      env -u MXCERT_CHECKER MXCERT_CHECK_CACHE=none PATH=/usr/bin:/bin "$P/bin/mxcert-opt" "$input" \
        --mx-scale-placement >"$TMP/$name.opt.out" 2>"$TMP/$name.opt.err" || fail "installed mxcert-opt on $name: $(head -c 400 "$TMP/$name.opt.err")"
      env -u MXCERT_CHECKER MXCERT_CHECK_CACHE=none PATH=/usr/bin:/bin "$MLIR_OPT" --load-pass-plugin="$PLUGIN" "$input" \
        --pass-pipeline='builtin.module(mx-scale-placement)' >"$TMP/$name.plugin.out" 2>"$TMP/$name.plugin.err" ||
        fail "installed plugin on $name: $(head -c 400 "$TMP/$name.plugin.err")"
      cmp -s "$TMP/$name.opt.out" "$TMP/$name.plugin.out" || fail "installed plugin on $name: output differs from mxcert-opt's"
      cmp -s "$TMP/$name.opt.err" "$TMP/$name.plugin.err" || fail "installed plugin on $name: diagnostics differ from mxcert-opt's"
    done
    [ "$(grep -c "in the certified agree set" "$TMP/in.plugin.err")" = 2 ] ||
      fail "installed plugin did not use a verified installed table: $(head -c 400 "$TMP/in.plugin.err")"
    grep -qF "no certified table for e2m1 x e2m1, k = 4 (seq or any, f32 rne keep, dequant/post bitwise) in '$(realpath "$P")/share/mxcert/tables'" "$TMP/k4.plugin.err" ||
      fail "installed plugin did not look in the installed tables: $(head -c 400 "$TMP/k4.plugin.err")"
    # A mixed block (e4m3 x e2m1, K = 32) is served by the installed grown set, after the tables.
    sed -e 's/vector<2xf4E2M1FN>, %b/vector<32xf8E4M3FN>, %b/' -e 's/vector<2x/vector<32x/g' \
        -e '0,/vector<32xf4E2M1FN>, vector<32xf8E8M0FNU>/s//vector<32xf8E4M3FN>, vector<32xf8E8M0FNU>/' \
        "$TMP/block.mlir" >"$TMP/mixed.mlir"
    env -u MXCERT_CHECKER MXCERT_CHECK_CACHE=none PATH=/usr/bin:/bin "$MLIR_OPT" --load-pass-plugin="$PLUGIN" "$TMP/mixed.mlir" \
      --pass-pipeline='builtin.module(mx-scale-placement)' >"$TMP/mixed.plugin.out" 2>"$TMP/mixed.plugin.err" ||
      fail "installed plugin on a mixed block: $(head -c 400 "$TMP/mixed.plugin.err")"
    grep -qF "of e4m3xe2m1_f32_rne_keep_k32_seq_dequant-post_bitwise.json" "$TMP/mixed.plugin.err" ||
      fail "installed plugin did not use the installed grown set for e4m3 x e2m1: $(head -c 400 "$TMP/mixed.plugin.err")"
    # The linalg pipeline with the installed transform script and tables (docs/mlir.md, "From linalg").
    env -u MXCERT_CHECKER MXCERT_CHECK_CACHE=none PATH=/usr/bin:/bin "$P/bin/mxcert-opt" "$SRC/examples/mx_gemv_linalg.mlir" \
      --transform-preload-library=transform-library-paths="$P/share/mxcert/pipelines/linalg-vectorize.mlir" \
      --transform-interpreter --canonicalize --mx-scale-placement >"$TMP/linalg.out" 2>"$TMP/linalg.err" ||
      fail "installed linalg pipeline: $(head -c 400 "$TMP/linalg.err")"
    grep -q "k33_any_dequant-post_bitwise.json, dequant elsewhere" "$TMP/linalg.err" && grep -q "mxcert.guard" "$TMP/linalg.out" ||
      fail "installed linalg pipeline did not guard the vectorized product: $(head -c 400 "$TMP/linalg.err")"
  fi
fi

# 5. The installed Python package, alone on PYTHONPATH (run outside the build tree): guard
#    lookups on the installed table, and its check (HOLDS, as the installed CLI's in 3.).
if [ -n "$PY" ]; then
  PYDIR=$(sed -n 's/^MXCERT_INSTALL_PYTHONDIR:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
  [ -n "$PYDIR" ] && [ -f "$P/$PYDIR/mxcert/__init__.py" ] || fail "the Python package is not installed (${PYDIR:-?}/mxcert)"
  got=$(cd "$TMP" && PYTHONPATH="$P/$PYDIR" "$PY" - "$TABLE" "$P" 2>&1 <<'PY'
import os, sys
import mxcert
table, prefix = sys.argv[1], sys.argv[2]
assert os.path.realpath(mxcert.__file__).startswith(os.path.realpath(prefix)), mxcert.__file__
t = mxcert.GuardTable(table)
print(" ".join("agree" if t.agrees(xa, xb) else "outside" for xa, xb in ((127, 127), (250, 127), (0, 0), (200, 180))),
      mxcert.check(table)["verdict"])
PY
  ) || fail "import mxcert from the install: $got"
  want="$(expect 127 127) $(expect 250 127) $(expect 0 0) $(expect 200 180) HOLDS"
  [ "$got" = "$want" ] || fail "the installed Python package: '$got', expected '$want'"
fi

# 6. A partial install fails when the consumer is configured, naming the missing file.
rm "$P/lib/libmxcert_certs.a"
if cmake -S "$SRC/tests/install/consumer" -B "$TMP/cb2" -DCMAKE_PREFIX_PATH="$P" >"$TMP/cfg2.log" 2>&1; then
  fail "configuring against a partial install succeeded"
else
  grep -q "libmxcert_certs.a" "$TMP/cfg2.log" || fail "the partial-install error does not name the file: $(tail -n 5 "$TMP/cfg2.log")"
fi

echo "test_install.sh: $FAILS failure(s)"
[ "$FAILS" = 0 ]

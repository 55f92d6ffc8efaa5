"""mlir_pass/exec/mxexec.py — shared helpers of the execution tests and the benchmark.

They generate MLIR modules holding an MX block dot product in the SPEC §8 form plus a driver
(`@main`) that calls it for every scale-code pair, lower them with `mxcert-opt`, JIT them with
`mlir-runner`, parse the printed result bits, and evaluate the reference semantics with
`mxcert eval`. Only the standard library is used.
"""

import os
import re
import struct
import subprocess
import sys

# The element formats of SPEC §2: MLIR type, total bits, exponent bits, mantissa bits, specials.
FORMATS = {
    "e2m1": dict(mlir="f4E2M1FN", bits=4, ebits=2, mbits=1, specials="none"),
    "e2m3": dict(mlir="f6E2M3FN", bits=6, ebits=2, mbits=3, specials="none"),
    "e3m2": dict(mlir="f6E3M2FN", bits=6, ebits=3, mbits=2, specials="none"),
    "e4m3": dict(mlir="f8E4M3FN", bits=8, ebits=4, mbits=3, specials="nan"),
    "e5m2": dict(mlir="f8E5M2", bits=8, ebits=5, mbits=2, specials="ieee"),
}

NUM_PAIRS = 256 * 256  # every (xa, xb) in 0..255 x 0..255, index xa * 256 + xb

# The scale formats: MX's e8m0 (f8E8M0FNU) and NVFP4's e4m3 (f8E4M3FN; codes 128..255 are the
# negative e4m3 values, outside every table: the pass keeps the original computation there).
SCALE_TYPES = {"e8m0": "f8E8M0FNU", "e4m3": "f8E4M3FN"}


def sign_bit(fmt):
    return 1 << (FORMATS[fmt]["bits"] - 1)


def max_code(fmt):
    """The largest positive finite code."""
    f = FORMATS[fmt]
    top = sign_bit(fmt) - 1  # all exponent and mantissa bits set
    if f["specials"] == "nan":
        return top - 1  # S.1111.111 is NaN
    if f["specials"] == "ieee":
        return ((1 << f["ebits"]) - 2) << f["mbits"] | ((1 << f["mbits"]) - 1)
    return top


def one_code(fmt):
    """The code of 1.0 (exponent field = bias, mantissa 0)."""
    f = FORMATS[fmt]
    bias = (1 << (f["ebits"] - 1)) - 1
    return bias << f["mbits"]


def f32_is_nan(bits):
    return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x007FFFFF) != 0


def f32_bits(x):
    """The f32 bits of the double x rounded once to f32 (RNE, subnormals kept, overflow to inf;
    NaN: 0x7FC00000)."""
    if x != x:
        return 0x7FC00000
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return 0xFF800000 if x < 0 else 0x7F800000


def bits_f32(b):
    """The value of the f32 bits b."""
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32_add_bits(x, y):
    """rnd_f32(x + y) of two f32 bit patterns (the double sum of two f32 values rounded to f32
    is the correctly rounded f32 sum: 53 >= 2 * 24 + 2)."""
    return f32_bits(bits_f32(x) + bits_f32(y))


def same_bits(x, y):
    """SPEC §3: the same bits, all NaNs counting as the same."""
    return x == y or (f32_is_nan(x) and f32_is_nan(y))


def run(cmd, **kw):
    """Runs a command; on failure prints it with its output and exits 1."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        sys.stderr.write("FAILED: %s\n%s\n%s\n" % (" ".join(cmd), r.stdout[-4000:], r.stderr[-4000:]))
        sys.exit(1)
    return r


# ---------------------------------------------------------------------------------------------
# Module generation


SCALE_FORMS = ("scalar", "vector1", "i8")


def scale_lines(var, code_var, vs, k, form, st="f8E8M0FNU"):
    """The lines that make the block scale vector %<var> (type vs) from the scalar %<code_var>
    of scale type st (f8E8M0FNU, or f8E4M3FN for NVFP4), in one of the forms the pass matches:
    "scalar" (SPEC §8: a broadcast of the scalar), "vector1" (a broadcast of a vector<1xST>,
    the form of arith.scaling_extf's documentation) or "i8" (the code's bits as i8, broadcast,
    then bitcast to ST)."""
    if form == "scalar":
        return ["  %%%s = vector.broadcast %%%s : %s to %s" % (var, code_var, st, vs)]
    if form == "vector1":
        return ["  %%%s1 = vector.broadcast %%%s : %s to vector<1x%s>" % (var, code_var, st, st),
                "  %%%s = vector.broadcast %%%s1 : vector<1x%s> to %s" % (var, var, st, vs)]
    if form == "i8":
        return ["  %%%s8 = arith.bitcast %%%s : %s to i8" % (var, code_var, st),
                "  %%%si = vector.broadcast %%%s8 : i8 to vector<%dxi8>" % (var, var, k),
                "  %%%s = arith.bitcast %%%si : vector<%dxi8> to %s" % (var, var, k, vs)]
    raise ValueError("unknown scale form %r" % form)


# The ops that sum a block's products (docs/mlir.md, "What the pass matches"): SPEC §8's
# vector.reduction, and with a constant zero accumulator ("+0" or "-0") the same reduction
# (acc first), vector.multi_reduction and a 1-D vector.contract (the order is the lowering's;
# --mx-to-llvm sums acc first); contract-tile: exec_test.py's 4xK tile (tile_driver_module);
# contract-rows: the same tile lowered to per-row reductions by upstream first; contract-matmul: a
# 2xK times Kx3 tile with per-row and per-column codes (matmul_driver_module), also with A held
# transposed (-at), the result held transposed (-ct), and as a batch matmul of 2 batches (contract-bmm);
# linalg: the same product as a linalg.generic through the linalg pipeline (linalg_driver_module),
# on tensors, or on memrefs (linalg-memref: the accumulator read back from the filled output);
# linalg-kblocks: an MX matmul over (i, j, kb, k) through the linalg pipeline with --mx-split-blocks
# (linalg_kblocks_driver_module);
# wide: 4 blocks of K, each reduced on its own, the sums added (wide_driver_module).
FORMS = ("reduction", "reduction-acc", "multi_reduction", "contract", "contract-tile", "contract-rows",
         "contract-matmul", "contract-matmul-at", "contract-matmul-ct", "contract-bmm", "linalg", "linalg-memref", "linalg-kblocks", "wide")


def parse_form(text):
    """"FORM" or "FORM:ACC" (ACC "+0" or "-0") -> (form, acc or None); reduction has no acc,
    the others need one."""
    form, _, acc = text.partition(":")
    if form not in FORMS:
        raise ValueError("unknown form %r (expected one of %s)" % (form, ", ".join(FORMS)))
    if form in ("reduction", "wide", "linalg-kblocks"):
        if acc:
            raise ValueError("form %s takes no accumulator" % form)
        return form, None
    if acc not in ("+0", "-0"):
        raise ValueError("form %s needs an accumulator, +0 or -0 (e.g. %s:-0)" % (form, form))
    return form, acc


def model_leaves(fmt_a, fmt_b, a, b, acc, last=False):
    """The element vectors of the table's dot product: the accumulator is one more leaf, first
    (the order --mx-to-llvm sums a 1-D op in), or last (a tile's rows: each row's products
    summed from -0.0, then the accumulator added): +0 is the product of the codes (+0, +0),
    -0 of (-0, +0)."""
    if acc is None:
        return list(a), list(b)
    za, zb = [sign_bit(fmt_a) if acc == "-0" else 0], [0]
    return (list(a) + za, list(b) + zb) if last else (za + list(a), zb + list(b))


def dot_function(name, fmt_a, fmt_b, k, scales=None, fastmath="", scale_form="scalar", form="reduction", acc=None,
                 scale="e8m0"):
    """The SPEC §8 block dot product. scales=None: the codes are function arguments; otherwise
    a pair of constant codes (xa, xb). scale_form: how the block scales are written
    (scale_lines). form, acc: the op that sums the products (FORMS) and its zero accumulator.
    scale: the scale format (SCALE_TYPES; "e4m3": an NVFP4 block)."""
    ta, tb, st = FORMATS[fmt_a]["mlir"], FORMATS[fmt_b]["mlir"], SCALE_TYPES[scale]
    va, vb, vs = "vector<%dx%s>" % (k, ta), "vector<%dx%s>" % (k, tb), "vector<%dx%s>" % (k, st)
    vf = "vector<%dxf32>" % k
    fm = (" fastmath<%s>" % fastmath) if fastmath else ""
    lines = []
    if scales is None:
        lines.append("func.func @%s(%%a: %s, %%b: %s, %%sa: %s, %%sb: %s) -> f32 {" % (name, va, vb, st, st))
    else:
        lines.append("func.func @%s(%%a: %s, %%b: %s) -> f32 {" % (name, va, vb))
        lines.append("  %%sa = arith.constant 0x%02X : %s" % (scales[0], st))
        lines.append("  %%sb = arith.constant 0x%02X : %s" % (scales[1], st))
    lines += scale_lines("sav", "sa", vs, k, scale_form, st) + scale_lines("sbv", "sb", vs, k, scale_form, st)
    lines += [
        "  %%A = arith.scaling_extf %%a, %%sav : %s, %s to %s" % (va, vs, vf),
        "  %%B = arith.scaling_extf %%b, %%sbv : %s, %s to %s" % (vb, vs, vf),
    ]
    if acc is not None:
        lines.append("  %%z = arith.constant %s : f32" % ("-0.0" if acc == "-0" else "0.0"))
    if form != "contract":
        lines.append("  %%P = arith.mulf %%A, %%B%s : %s" % (fm, vf))
    if form == "reduction":
        lines.append("  %%R = vector.reduction <add>, %%P%s : %s into f32" % (fm, vf))
    elif form == "reduction-acc":
        lines.append("  %%R = vector.reduction <add>, %%P, %%z%s : %s into f32" % (fm, vf))
    elif form == "multi_reduction":
        lines.append("  %%R = vector.multi_reduction <add>, %%P, %%z [0] : %s to f32" % vf)
    elif form == "contract":
        lines.append("  %%R = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, "
                     "affine_map<(d0) -> ()>], iterator_types = [\"reduction\"], kind = #vector.kind<add>} "
                     "%%A, %%B, %%z : %s, %s into f32" % (vf, vf))
    else:
        raise ValueError("unknown form %r" % form)
    lines += ["  return %R : f32", "}"]
    return "\n".join(lines)


def _i8(v):
    return v if v < 128 else v - 256


def element_vector(var, fmt, codes):
    """MLIR lines that define %var as a vector of element codes (built from integers, so the
    driver needs no narrow-float constants)."""
    f = FORMATS[fmt]
    k = len(codes)
    n = f["bits"]
    lines = ["    %%%s_i8 = arith.constant dense<[%s]> : vector<%dxi8>" % (var, ", ".join(str(_i8(c)) for c in codes), k)]
    src = "%%%s_i8" % var
    if n != 8:
        lines.append("    %%%s_iN = arith.trunci %s : vector<%dxi8> to vector<%dxi%d>" % (var, src, k, k, n))
        src = "%%%s_iN" % var
    lines.append("    %%%s = arith.bitcast %s : vector<%dxi%d> to vector<%dx%s>" % (var, src, k, n, k, f["mlir"]))
    return lines


# The f32 denormal environments of the execution tests: the mode number that
# mxcert_set_denormal_mode (exec/fpenv.cpp) takes, and the MXCSR bits (FTZ 0x8000, DAZ 0x40) it sets.
DENORMAL_MODES = {"ieee": (0, 0x0), "ftz": (1, 0x8000), "daz": (2, 0x8040)}
# The model's --subnormals mode of each environment (docs/semantics.md).
SUBNORMALS = {"ieee": "keep", "ftz": "ftz", "daz": "daz"}
# LLVM's denormal-fp-math value ("OUT,IN") of each environment.
LLVM_DENORMAL = {"ieee": "ieee,ieee", "ftz": "preserve-sign,ieee", "daz": "preserve-sign,preserve-sign"}

_FUNC_RE = re.compile(r"^(\s*func\.func @[^\n]*?) \{$", re.M)


def with_denormal_attrs(text, denormal):
    """The module text with `denormal_fp_math_f32` set on every defined func.func (func-to-llvm
    keeps it; LLVM then folds constants as that environment computes: without it, LLVM folds
    a subnormal constant product as IEEE, which FTZ code would have flushed), and a passthrough
    "noinline" on every function but @main: LLVM may fold x * 1.0 to x even where FTZ would
    flush the product (its denormal modes let an optimization skip a flush), so the element
    vectors, constants in @main, must not reach the dot products' code as constants. A kernel
    that loads its elements from memory is in the same position."""
    value = LLVM_DENORMAL[denormal]

    def add(m):
        head = m.group(1)
        if " attributes {" in head:
            raise ValueError("function already has attributes: " + head)
        extra = "" if "@main(" in head else ", passthrough = [\"noinline\"]"
        return '%s attributes {denormal_fp_math_f32 = "%s"%s} {' % (head, value, extra)
    return _FUNC_RE.sub(add, text)


def main_prologue(n, ns):
    """The first lines of @main: the result buffers %buf (n results) and %sbuf (ns), and their
    unranked casts %ubuf, %usbuf for printMemrefI32."""
    return ["func.func @main() {",
            "  %%buf = memref.alloc() : memref<%dxi32>" % n,
            "  %%sbuf = memref.alloc() : memref<%dxi32>" % ns,
            "  %%ubuf = memref.cast %%buf : memref<%dxi32> to memref<*xi32>" % n,
            "  %%usbuf = memref.cast %%sbuf : memref<%dxi32> to memref<*xi32>" % ns]


# The head of @run_all: for %i in 0..65535, xa = %i >> 8 (%xa32), xb = %i & 255 (%sb, of the
# scale type st, f8E8M0FNU unless given); the caller adds the body and its end.
PAIR_LOOP_HEAD = """func.func @run_all(%%a: %(va)s, %%b: %(vb)s, %%buf: memref<%(bufn)dxi32>) {
  %%c0 = arith.constant 0 : index
  %%c1 = arith.constant 1 : index
  %%cn = arith.constant %(n)d : index
  %%c8 = arith.constant 8 : i32
  %%c255 = arith.constant 255 : i32
  scf.for %%i = %%c0 to %%cn step %%c1 {
    %%i32 = arith.index_cast %%i : index to i32
    %%xa32 = arith.shrui %%i32, %%c8 : i32
    %%xb32 = arith.andi %%i32, %%c255 : i32
    %%xb8 = arith.trunci %%xb32 : i32 to i8
    %%sb = arith.bitcast %%xb8 : i8 to %(st)s"""


def driver_module(fmt_a, fmt_b, k, vectors, static_pairs, scale_form="scalar", denormal="ieee", attrs=True,
                  form="reduction", acc=None, scale="e8m0"):
    """A module with @dot (variable scales), one @dot_s<j> per constant pair of static_pairs,
    and @main: for every vector, all 65536 code pairs through @dot, then every @dot_s<j>; each
    result's bits are printed with printMemrefI32 (two memrefs per vector). scale_form: how
    the dot products write their block scales (scale_lines); form, acc: the op that sums the
    products (dot_function). denormal other than "ieee": @main
    first sets that environment (exec/fpenv.cpp, loaded with -shared-libs) and finally prints
    one more memref holding the MXCSR denormal bits in effect after the last dot product; with
    attrs, every function also says so to LLVM (with_denormal_attrs). scale: the scale format
    (SCALE_TYPES)."""
    ta, tb, st = FORMATS[fmt_a]["mlir"], FORMATS[fmt_b]["mlir"], SCALE_TYPES[scale]
    va, vb = "vector<%dx%s>" % (k, ta), "vector<%dx%s>" % (k, tb)
    out = ["func.func private @printMemrefI32(memref<*xi32>)",
           dot_function("dot", fmt_a, fmt_b, k, scale_form=scale_form, form=form, acc=acc, scale=scale)]
    if denormal != "ieee":
        out.insert(1, "func.func private @mxcert_set_denormal_mode(i32) -> i32\n"
                      "func.func private @mxcert_denormal_bits() -> i32")
    for j, p in enumerate(static_pairs):
        out.append(dot_function("dot_s%d" % j, fmt_a, fmt_b, k, scales=p, scale_form=scale_form, form=form, acc=acc,
                                scale=scale))
    # @run_all: every code pair through @dot.
    out.append(PAIR_LOOP_HEAD % dict(va=va, vb=vb, n=NUM_PAIRS, sa="%sa", bufn=NUM_PAIRS, st=st) + """
    %%xa8 = arith.trunci %%xa32 : i32 to i8
    %%sa = arith.bitcast %%xa8 : i8 to %(st)s
    %%r = func.call @dot(%%a, %%b, %%sa, %%sb) : (%(va)s, %(vb)s, %(st)s, %(st)s) -> f32
    %%bits = arith.bitcast %%r : f32 to i32
    memref.store %%bits, %%buf[%%i] : memref<%(n)dxi32>
  }
  return
}""" % dict(va=va, vb=vb, n=NUM_PAIRS, st=st))
    ns = max(1, len(static_pairs))
    body = ["func.func @run_static(%%a: %s, %%b: %s, %%buf: memref<%dxi32>) {" % (va, vb, ns)]
    for j in range(len(static_pairs)):
        body.append("  %%r%d = func.call @dot_s%d(%%a, %%b) : (%s, %s) -> f32" % (j, j, va, vb))
        body.append("  %%i%d = arith.bitcast %%r%d : f32 to i32" % (j, j))
        body.append("  %%c%d = arith.constant %d : index" % (j, j))
        body.append("  memref.store %%i%d, %%buf[%%c%d] : memref<%dxi32>" % (j, j, ns))
    body += ["  return", "}"]
    out.append("\n".join(body))
    main = main_prologue(NUM_PAIRS, ns)
    if denormal != "ieee":
        main += ["  %%dmode = arith.constant %d : i32" % DENORMAL_MODES[denormal][0],
                 "  %set = func.call @mxcert_set_denormal_mode(%dmode) : (i32) -> i32"]
    for v, (a, b) in enumerate(vectors):
        main += [line[2:] for line in element_vector("a%d" % v, fmt_a, a)]
        main += [line[2:] for line in element_vector("b%d" % v, fmt_b, b)]
        main.append("  func.call @run_all(%%a%d, %%b%d, %%buf) : (%s, %s, memref<%dxi32>) -> ()" % (v, v, va, vb, NUM_PAIRS))
        main.append("  func.call @printMemrefI32(%ubuf) : (memref<*xi32>) -> ()")
        main.append("  func.call @run_static(%%a%d, %%b%d, %%sbuf) : (%s, %s, memref<%dxi32>) -> ()" % (v, v, va, vb, ns))
        main.append("  func.call @printMemrefI32(%usbuf) : (memref<*xi32>) -> ()")
    if denormal != "ieee":
        main += ["  %dbits = func.call @mxcert_denormal_bits() : () -> i32",
                 "  %dbuf = memref.alloc() : memref<1xi32>",
                 "  %dc0 = arith.constant 0 : index",
                 "  memref.store %dbits, %dbuf[%dc0] : memref<1xi32>",
                 "  %udbuf = memref.cast %dbuf : memref<1xi32> to memref<*xi32>",
                 "  func.call @printMemrefI32(%udbuf) : (memref<*xi32>) -> ()",
                 "  memref.dealloc %dbuf : memref<1xi32>"]
    main += ["  memref.dealloc %%buf : memref<%dxi32>" % NUM_PAIRS, "  memref.dealloc %%sbuf : memref<%dxi32>" % ns,
             "  return", "}"]
    out.append("\n".join(main))
    text = "\n\n".join(out) + "\n"
    return with_denormal_attrs(text, denormal) if denormal != "ieee" and attrs else text


# ---------------------------------------------------------------------------------------------
# Running


def lower(mxcert_opt, src, dst, passes):
    """mxcert-opt SRC PASSES... -o DST; returns stderr (the remarks)."""
    return run([mxcert_opt, src] + passes + ["-o", dst]).stderr


def jit(mlir_runner, runner_libs, module, opt="-O2"):
    """Runs @main of a lowered module; returns the list of printed memrefs (lists of ints)."""
    r = run([mlir_runner, module, "-e", "main", "-entry-point-result=void", opt, "-shared-libs=" + runner_libs])
    chunks = r.stdout.split("data =")[1:]
    out = []
    for c in chunks:
        m = re.search(r"\[([^\]]*)\]", c)
        # int() skips the spaces and newlines around each number.
        body = m.group(1)
        out.append([x & 0xFFFFFFFF for x in map(int, body.split(","))] if body.strip() else [])
    return out


_EVAL_CODES_RE = re.compile(r"^xa=(\d+) xb=(\d+) ", re.M)  # each line's code pair
_EVAL_BITS_RE = re.compile(r"=\S*/0x([0-9A-Fa-f]+)")  # each result's bits, in the order asked


def model_bits(mxcert, fmt_a, fmt_b, k, a, b, placements=("dequant", "post"), subnormals="keep", scale="e8m0"):
    """`mxcert eval` over all 65536 code pairs: {placement: [bits at index xa * 256 + xb]}.
    scale "e4m3" (NVFP4): the model covers the codes 0..127 only; the entries of the other
    pairs are None."""
    cmd = [mxcert, "eval", "--a", fmt_a, "--b", fmt_b, "--scale", scale, "--acc", "f32", "--subnormals", subnormals,
           "--k", str(k), "--tree", "seq",
           "--xa", "all", "--xb", "all", "--a-vals", ",".join("0x%x" % c for c in a),
           "--b-vals", ",".join("0x%x" % c for c in b), "--placements", ",".join(placements)]
    out = run(cmd).stdout
    # Each line is "xa=.. xb=.. e=.. (NVFP4: sa=.. sb=..) p1=value/0xBITS p2=... p1~p2=related":
    # the placements' bits in the order asked, then the relations (no bits). Two scans of the
    # whole text instead of a regular expression per line.
    idx = [int(xa) * 256 + int(xb) for xa, xb in _EVAL_CODES_RE.findall(out)]
    hexes = _EVAL_BITS_RE.findall(out)
    if len(hexes) != len(idx) * len(placements):
        sys.stderr.write("mxcert eval output: %d results for %d lines of %d placements\n"
                         % (len(hexes), len(idx), len(placements)))
        sys.exit(1)
    res = {}
    for j, p in enumerate(placements):
        bits = [None] * NUM_PAIRS
        for i, h in zip(idx, hexes[j::len(placements)]):
            bits[i] = int(h, 16)
        res[p] = bits
    for p in placements:
        if any(x is None for i, x in enumerate(res[p]) if scale == "e8m0" or (i >> 8 <= 127 and i & 255 <= 127)):
            sys.stderr.write("mxcert eval output incomplete for %s\n" % p)
            sys.exit(1)
    return res


def ensure_dir(d):
    os.makedirs(d, exist_ok=True)
    return d


# ---------------------------------------------------------------------------------------------
# Tiles: one vector.contract of a vector<ROWSxK> and a vector<K> into vector<ROWSxf32>


TILE_ROW_STEP = 37  # row i of a tile has the scale code (xa + 37 i) mod 256


def tile_row_code(xa, i):
    """The scale code of row i of the tile when the driver's code is xa."""
    return (xa + TILE_ROW_STEP * i) % 256


def tile_function(name, fmt, k, rows, acc, codes=None):
    """@name: a `vector.contract` tile of `rows` dot products, row i of %a (vector<ROWSxK>)
    times %b (vector<K>), from the constant accumulator acc ("+0" / "-0"). Row i's scale is
    row i of %sa (vector<ROWSx1xf8E8M0FNU>, broadcast along the row); %b's is %sb. codes:
    None (both scales are arguments) or ([row codes], xb) constants."""
    t = FORMATS[fmt]["mlir"]
    va, vb = "vector<%dx%dx%s>" % (rows, k, t), "vector<%dx%s>" % (k, t)
    vsa, vsb = "vector<%dx%dxf8E8M0FNU>" % (rows, k), "vector<%dxf8E8M0FNU>" % k
    vfa, vfb, vr = "vector<%dx%dxf32>" % (rows, k), "vector<%dxf32>" % k, "vector<%dxf32>" % rows
    rs = "vector<%dx1xf8E8M0FNU>" % rows
    if codes is None:
        lines = ["func.func @%s(%%a: %s, %%b: %s, %%sa: %s, %%sb: f8E8M0FNU) -> %s {" % (name, va, vb, rs, vr)]
    else:
        lines = ["func.func @%s(%%a: %s, %%b: %s) -> %s {" % (name, va, vb, vr),
                 "  %%sa = arith.constant dense<[%s]> : %s" % (", ".join("[0x%02X]" % c for c in codes[0]), rs),
                 "  %%sb = arith.constant 0x%02X : f8E8M0FNU" % codes[1]]
    lines += [
        "  %%sav = vector.broadcast %%sa : %s to %s" % (rs, vsa),
        "  %%sbv = vector.broadcast %%sb : f8E8M0FNU to %s" % vsb,
        "  %%A = arith.scaling_extf %%a, %%sav : %s, %s to %s" % (va, vsa, vfa),
        "  %%B = arith.scaling_extf %%b, %%sbv : %s, %s to %s" % (vb, vsb, vfb),
        "  %%z = arith.constant dense<%s> : %s" % ("-0.0" if acc == "-0" else "0.0", vr),
        "  %%R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, "
        "affine_map<(i, k) -> (i)>], iterator_types = [\"parallel\", \"reduction\"], kind = #vector.kind<add>} "
        "%%A, %%B, %%z : %s, %s into %s" % (vfa, vfb, vr),
        "  return %%R : %s" % vr,
        "}",
    ]
    return "\n".join(lines)


def code_lines(name, src, step, count):
    """Loop-body lines that define %<name><i> (f8E8M0FNU), i < count, as the scale code
    (src + step i) mod 256 of the i32 value src (%xa32 or %xb32 in @run_all; needs %c255)."""
    lines = []
    for i in range(count):
        v = "%%%s%d" % (name, i)
        lines += ["    %s_o = arith.constant %d : i32" % (v, step * i),
                  "    %s_x = arith.addi %s, %s_o : i32" % (v, src, v),
                  "    %s_m = arith.andi %s_x, %%c255 : i32" % (v, v),
                  "    %s_8 = arith.trunci %s_m : i32 to i8" % (v, v),
                  "    %s = arith.bitcast %s_8 : i8 to f8E8M0FNU" % (v, v)]
    return lines


def tile_driver_module(fmt, k, rows, vectors, static_pairs, acc):
    """A module with @tile (variable scales), one @tile_s<j> per constant pair (xa, xb) of
    static_pairs (row codes tile_row_code(xa, i)), and @main: for every (rows of a, b) in
    vectors, all 65536 (xa, xb) through @tile (rows results each, at index (xa * 256 + xb) *
    rows + i), then every @tile_s<j> (at j * rows + i); two printed memrefs per vector."""
    t = FORMATS[fmt]["mlir"]
    va, vb, vr = "vector<%dx%dx%s>" % (rows, k, t), "vector<%dx%s>" % (k, t), "vector<%dxf32>" % rows
    rs = "vector<%dx1xf8E8M0FNU>" % rows
    n = NUM_PAIRS * rows
    out = ["func.func private @printMemrefI32(memref<*xi32>)", tile_function("tile", fmt, k, rows, acc)]
    for j, (xa, xb) in enumerate(static_pairs):
        out.append(tile_function("tile_s%d" % j, fmt, k, rows, acc, ([tile_row_code(xa, i) for i in range(rows)], xb)))
    row_lines = code_lines("s", "%xa32", TILE_ROW_STEP, rows)
    stores = []
    for i in range(rows):
        stores += ["    %%r%d = vector.extract %%r[%d] : f32 from %s" % (i, i, vr),
                   "    %%b%d = arith.bitcast %%r%d : f32 to i32" % (i, i),
                   "    %%k%d = arith.constant %d : index" % (i, i),
                   "    %%at%d = arith.addi %%base, %%k%d : index" % (i, i),
                   "    memref.store %%b%d, %%buf[%%at%d] : memref<%dxi32>" % (i, i, n)]
    out.append(PAIR_LOOP_HEAD % dict(va=va, vb=vb, n=NUM_PAIRS, bufn=n, st="f8E8M0FNU") + """
    %%crows = arith.constant %(rows)d : index
%(row_lines)s
    %%sa1 = vector.from_elements %(svals)s : vector<%(rows)dxf8E8M0FNU>
    %%sa = vector.shape_cast %%sa1 : vector<%(rows)dxf8E8M0FNU> to %(rs)s
    %%r = func.call @tile(%%a, %%b, %%sa, %%sb) : (%(va)s, %(vb)s, %(rs)s, f8E8M0FNU) -> %(vr)s
    %%base = arith.muli %%i, %%crows : index
%(stores)s
  }
  return
}""" % dict(va=va, vb=vb, vr=vr, rs=rs, n=n, pairs=NUM_PAIRS, rows=rows, row_lines="\n".join(row_lines),
            svals=", ".join("%%s%d" % i for i in range(rows)), stores="\n".join(stores)))
    ns = max(1, len(static_pairs)) * rows
    body = ["func.func @run_static(%%a: %s, %%b: %s, %%buf: memref<%dxi32>) {" % (va, vb, ns)]
    for j in range(len(static_pairs)):
        body.append("  %%r%d = func.call @tile_s%d(%%a, %%b) : (%s, %s) -> %s" % (j, j, va, vb, vr))
        for i in range(rows):
            body += ["  %%e%d_%d = vector.extract %%r%d[%d] : f32 from %s" % (j, i, j, i, vr),
                     "  %%i%d_%d = arith.bitcast %%e%d_%d : f32 to i32" % (j, i, j, i),
                     "  %%c%d_%d = arith.constant %d : index" % (j, i, j * rows + i),
                     "  memref.store %%i%d_%d, %%buf[%%c%d_%d] : memref<%dxi32>" % (j, i, j, i, ns)]
    body += ["  return", "}"]
    out.append("\n".join(body))
    main = main_prologue(n, ns)
    for v, (a_rows, b) in enumerate(vectors):
        flat = [c for row in a_rows for c in row]
        main += [line[2:] for line in element_vector("a%df" % v, fmt, flat)]
        main.append("  %%a%d = vector.shape_cast %%a%df : vector<%dx%s> to %s" % (v, v, rows * k, t, va))
        main += [line[2:] for line in element_vector("b%d" % v, fmt, b)]
        main.append("  func.call @run_all(%%a%d, %%b%d, %%buf) : (%s, %s, memref<%dxi32>) -> ()" % (v, v, va, vb, n))
        main.append("  func.call @printMemrefI32(%ubuf) : (memref<*xi32>) -> ()")
        main.append("  func.call @run_static(%%a%d, %%b%d, %%sbuf) : (%s, %s, memref<%dxi32>) -> ()" % (v, v, va, vb, ns))
        main.append("  func.call @printMemrefI32(%usbuf) : (memref<*xi32>) -> ()")
    main += ["  memref.dealloc %%buf : memref<%dxi32>" % n, "  memref.dealloc %%sbuf : memref<%dxi32>" % ns,
             "  return", "}"]
    out.append("\n".join(main))
    return "\n\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Wide K: BLOCKS blocks of K elements, each reduced on its own, the block sums added


def wide_code(x, j, step):
    """The scale code of block j when the driver's code is x: (x + step j) mod 256."""
    return (x + step * j) % 256


WIDE_STEP_A, WIDE_STEP_B = 37, 11


def wide_functions(fmt, k, blocks):
    """@wide_slices: one vector<BLOCKS*K> per operand, each block a vector.extract_strided_slice
    of the elements and of the per-block scales (a vector<BLOCKSx1xf8E8M0FNU> broadcast and
    reshaped to one code per element), reduced on its own; the block sums added in order.
    @wide_loop: the same as an scf.for over the blocks from -0.0, loading each block's elements
    (vector.load of a row of a memref<BLOCKSxK>) and scale (memref.load of a memref<BLOCKS>).
    @wide_contract: one 1-D vector.contract over all BLOCKS*K elements (the same per-block
    scales) from the accumulator %acc (an argument: the caller passes -0.0), an order the op
    leaves open, for --mx-split-blocks (docs/mlir.md, "Wide K"). @wide_tile: the same as a
    1 x BLOCKS*K tile (a vector.contract (i, k) -> (i, k), (k), (i) from dense<-0.0>, a's
    per-block scale a vector<1xBLOCKSx1> broadcast and reshaped to vector<1xBLOCKS*K>), which
    --mx-split-blocks splits by reshaping K to (BLOCKS, K)."""
    t = FORMATS[fmt]["mlir"]
    n = blocks * k
    vs = "vector<%dx1xf8E8M0FNU>" % blocks
    lines = ["func.func @wide_slices(%%a: vector<%dx%s>, %%b: vector<%dx%s>, %%sa4: %s, %%sb4: %s) -> f32 {" % (n, t, n, t, vs, vs)]
    for x in ("a", "b"):
        lines += ["  %%s%sb = vector.broadcast %%s%s4 : %s to vector<%dx%dxf8E8M0FNU>" % (x, x, vs, blocks, k),
                  "  %%s%s = vector.shape_cast %%s%sb : vector<%dx%dxf8E8M0FNU> to vector<%dxf8E8M0FNU>" % (x, x, blocks, k, n)]
    for j in range(blocks):
        for x in ("a", "b"):
            lines += ["  %%%s%d = vector.extract_strided_slice %%%s {offsets = [%d], sizes = [%d], strides = [1]} : "
                      "vector<%dx%s> to vector<%dx%s>" % (x, j, x, k * j, k, n, t, k, t),
                      "  %%s%s%d = vector.extract_strided_slice %%s%s {offsets = [%d], sizes = [%d], strides = [1]} : "
                      "vector<%dxf8E8M0FNU> to vector<%dxf8E8M0FNU>" % (x, j, x, k * j, k, n, k),
                      "  %%%s%dx = arith.scaling_extf %%%s%d, %%s%s%d : vector<%dx%s>, vector<%dxf8E8M0FNU> to vector<%dxf32>"
                      % (x.upper(), j, x, j, x, j, k, t, k, k)]
        lines += ["  %%P%d = arith.mulf %%A%dx, %%B%dx : vector<%dxf32>" % (j, j, j, k),
                  "  %%R%d = vector.reduction <add>, %%P%d : vector<%dxf32> into f32" % (j, j, k)]
    acc = "%R0"
    for j in range(1, blocks):
        lines.append("  %%S%d = arith.addf %s, %%R%d : f32" % (j, acc, j))
        acc = "%%S%d" % j
    lines += ["  return %s : f32" % acc, "}", ""]
    lines += ["func.func @wide_contract(%%a: vector<%dx%s>, %%b: vector<%dx%s>, %%sa4: %s, %%sb4: %s, %%acc: f32) -> f32 {"
              % (n, t, n, t, vs, vs)]
    for x in ("a", "b"):
        lines += ["  %%s%sb = vector.broadcast %%s%s4 : %s to vector<%dx%dxf8E8M0FNU>" % (x, x, vs, blocks, k),
                  "  %%s%s = vector.shape_cast %%s%sb : vector<%dx%dxf8E8M0FNU> to vector<%dxf8E8M0FNU>" % (x, x, blocks, k, n),
                  "  %%%s = arith.scaling_extf %%%s, %%s%s : vector<%dx%s>, vector<%dxf8E8M0FNU> to vector<%dxf32>"
                  % (x.upper(), x, x, n, t, n, n)]
    lines += ["  %%R = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], "
              "iterator_types = [\"reduction\"], kind = #vector.kind<add>} %%A, %%B, %%acc : vector<%dxf32>, vector<%dxf32> into f32"
              % (n, n), "  return %R : f32", "}", ""]
    lines += ["func.func @wide_tile(%%a: vector<%dx%s>, %%b: vector<%dx%s>, %%sa4: %s, %%sb4: %s) -> f32 {"
              % (n, t, n, t, vs, vs),
              "  %%a1 = vector.shape_cast %%a : vector<%dx%s> to vector<1x%dx%s>" % (n, t, n, t),
              "  %%sa3 = vector.shape_cast %%sa4 : %s to vector<1x%dx1xf8E8M0FNU>" % (vs, blocks),
              "  %%sab = vector.broadcast %%sa3 : vector<1x%dx1xf8E8M0FNU> to vector<1x%dx%dxf8E8M0FNU>" % (blocks, blocks, k),
              "  %%sa = vector.shape_cast %%sab : vector<1x%dx%dxf8E8M0FNU> to vector<1x%dxf8E8M0FNU>" % (blocks, k, n),
              "  %%sbb = vector.broadcast %%sb4 : %s to vector<%dx%dxf8E8M0FNU>" % (vs, blocks, k),
              "  %%sb = vector.shape_cast %%sbb : vector<%dx%dxf8E8M0FNU> to vector<%dxf8E8M0FNU>" % (blocks, k, n),
              "  %%A = arith.scaling_extf %%a1, %%sa : vector<1x%dx%s>, vector<1x%dxf8E8M0FNU> to vector<1x%dxf32>"
              % (n, t, n, n),
              "  %%B = arith.scaling_extf %%b, %%sb : vector<%dx%s>, vector<%dxf8E8M0FNU> to vector<%dxf32>" % (n, t, n, n),
              "  %z = arith.constant dense<-0.0> : vector<1xf32>",
              "  %%R = vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, "
              "affine_map<(i, k) -> (i)>], iterator_types = [\"parallel\", \"reduction\"], kind = #vector.kind<add>} "
              "%%A, %%B, %%z : vector<1x%dxf32>, vector<%dxf32> into vector<1xf32>" % (n, n),
              "  %r = vector.extract %R[0] : f32 from vector<1xf32>", "  return %r : f32", "}", ""]
    mm, ms = "memref<%dx%dx%s>" % (blocks, k, t), "memref<%dxf8E8M0FNU>" % blocks
    lines += ["func.func @wide_loop(%%a: %s, %%b: %s, %%sa: %s, %%sb: %s) -> f32 {" % (mm, mm, ms, ms),
              "  %c0 = arith.constant 0 : index",
              "  %c1 = arith.constant 1 : index",
              "  %%cn = arith.constant %d : index" % blocks,
              "  %z = arith.constant -0.0 : f32",
              "  %r = scf.for %j = %c0 to %cn step %c1 iter_args(%acc = %z) -> (f32) {"]
    for x in ("a", "b"):
        lines += ["    %%%sj = vector.load %%%s[%%j, %%c0] : %s, vector<%dx%s>" % (x, x, mm, k, t),
                  "    %%s%sj = memref.load %%s%s[%%j] : %s" % (x, x, ms),
                  "    %%s%sv = vector.broadcast %%s%sj : f8E8M0FNU to vector<%dxf8E8M0FNU>" % (x, x, k),
                  "    %%%s = arith.scaling_extf %%%sj, %%s%sv : vector<%dx%s>, vector<%dxf8E8M0FNU> to vector<%dxf32>"
                  % (x.upper(), x, x, k, t, k, k)]
    lines += ["    %%P = arith.mulf %%A, %%B : vector<%dxf32>" % k,
              "    %%d = vector.reduction <add>, %%P : vector<%dxf32> into f32" % k,
              "    %next = arith.addf %acc, %d : f32",
              "    scf.yield %next : f32",
              "  }",
              "  return %r : f32",
              "}"]
    return "\n".join(lines)


def wide_driver_module(fmt, k, blocks, vectors):
    """A module with @wide_slices, @wide_loop, @wide_contract, @wide_tile and @main: for every
    (a blocks, b blocks) in vectors, all 65536 (xa, xb), block j's codes wide_code(xa, j,
    WIDE_STEP_A) and wide_code(xb, j, WIDE_STEP_B); results at 4 (xa * 256 + xb) (slices), + 1
    (loop), + 2 (contract, from -0.0) and + 3 (tile); one printed memref per vector."""
    t = FORMATS[fmt]["mlir"]
    n, va, vl = 4 * NUM_PAIRS, "vector<%dx%s>" % (blocks * k, t), "vector<%dx%dx%s>" % (blocks, k, t)
    vs = "vector<%dx1xf8E8M0FNU>" % blocks
    out = ["func.func private @printMemrefI32(memref<*xi32>)", wide_functions(fmt, k, blocks)]
    codes = []
    for x, step in (("a", WIDE_STEP_A), ("b", WIDE_STEP_B)):
        codes += code_lines(x + "f", "%%%s32" % ("xa" if x == "a" else "xb"), step, blocks)
        codes += ["    %%%sv = vector.from_elements %s : vector<%dxf8E8M0FNU>" % (
                      x, ", ".join("%%%sf%d" % (x, j) for j in range(blocks)), blocks),
                  "    %%s%s4 = vector.shape_cast %%%sv : vector<%dxf8E8M0FNU> to %s" % (x, x, blocks, vs)]
    mm, ms = "memref<%dx%dx%s>" % (blocks, k, t), "memref<%dxf8E8M0FNU>" % blocks
    fill = ["  %%am = memref.alloc() : %s" % mm, "  %%bm = memref.alloc() : %s" % mm,
            "  %%sam = memref.alloc() : %s" % ms, "  %%sbm = memref.alloc() : %s" % ms]
    for j in range(blocks):
        fill += ["  %%row%d = arith.constant %d : index" % (j, j),
                 "  %%ar%d = vector.extract %%a[%d] : vector<%dx%s> from %s" % (j, j, k, t, vl),
                 "  %%br%d = vector.extract %%b[%d] : vector<%dx%s> from %s" % (j, j, k, t, vl),
                 "  vector.store %%ar%d, %%am[%%row%d, %%c0] : %s, vector<%dx%s>" % (j, j, mm, k, t),
                 "  vector.store %%br%d, %%bm[%%row%d, %%c0] : %s, vector<%dx%s>" % (j, j, mm, k, t)]
        codes += ["    memref.store %%af%d, %%sam[%%row%d] : %s" % (j, j, ms),
                  "    memref.store %%bf%d, %%sbm[%%row%d] : %s" % (j, j, ms)]
    head = PAIR_LOOP_HEAD % dict(va=vl, vb=vl, n=NUM_PAIRS, bufn=n, st="f8E8M0FNU")
    at = head.index("  scf.for")
    head = head[:at] + "\n".join(fill) + "\n" + head[at:]
    out.append(head + """
%(codes)s
    %%a128 = vector.shape_cast %%a : %(vl)s to %(va)s
    %%b128 = vector.shape_cast %%b : %(vl)s to %(va)s
    %%r1 = func.call @wide_slices(%%a128, %%b128, %%sa4, %%sb4) : (%(va)s, %(va)s, %(vs)s, %(vs)s) -> f32
    %%r2 = func.call @wide_loop(%%am, %%bm, %%sam, %%sbm) : (%(mm)s, %(mm)s, %(ms)s, %(ms)s) -> f32
    %%mz = arith.constant -0.0 : f32
    %%r3 = func.call @wide_contract(%%a128, %%b128, %%sa4, %%sb4, %%mz) : (%(va)s, %(va)s, %(vs)s, %(vs)s, f32) -> f32
    %%r4 = func.call @wide_tile(%%a128, %%b128, %%sa4, %%sb4) : (%(va)s, %(va)s, %(vs)s, %(vs)s) -> f32
    %%c4 = arith.constant 4 : index
    %%c2i = arith.constant 2 : index
    %%c3i = arith.constant 3 : index
    %%at1 = arith.muli %%i, %%c4 : index
    %%at2 = arith.addi %%at1, %%c1 : index
    %%at3 = arith.addi %%at1, %%c2i : index
    %%at4 = arith.addi %%at1, %%c3i : index
    %%b1 = arith.bitcast %%r1 : f32 to i32
    %%b2 = arith.bitcast %%r2 : f32 to i32
    %%b3 = arith.bitcast %%r3 : f32 to i32
    %%b4 = arith.bitcast %%r4 : f32 to i32
    memref.store %%b1, %%buf[%%at1] : memref<%(n)dxi32>
    memref.store %%b2, %%buf[%%at2] : memref<%(n)dxi32>
    memref.store %%b3, %%buf[%%at3] : memref<%(n)dxi32>
    memref.store %%b4, %%buf[%%at4] : memref<%(n)dxi32>
  }
  memref.dealloc %%am : %(mm)s
  memref.dealloc %%bm : %(mm)s
  memref.dealloc %%sam : %(ms)s
  memref.dealloc %%sbm : %(ms)s
  return
}""" % dict(codes="\n".join(codes), va=va, vl=vl, vs=vs, n=n, mm=mm, ms=ms))
    main = main_prologue(n, 1)
    for v, (a_blocks, b_blocks) in enumerate(vectors):
        main += [line[2:] for line in element_vector("a%df" % v, fmt, [c for blk in a_blocks for c in blk])]
        main += [line[2:] for line in element_vector("b%df" % v, fmt, [c for blk in b_blocks for c in blk])]
        main += ["  %%a%d = vector.shape_cast %%a%df : %s to %s" % (v, v, va, vl),
                 "  %%b%d = vector.shape_cast %%b%df : %s to %s" % (v, v, va, vl),
                 "  func.call @run_all(%%a%d, %%b%d, %%buf) : (%s, %s, memref<%dxi32>) -> ()" % (v, v, vl, vl, n),
                 "  func.call @printMemrefI32(%ubuf) : (memref<*xi32>) -> ()"]
    main += ["  memref.dealloc %%buf : memref<%dxi32>" % n, "  memref.dealloc %sbuf : memref<1xi32>", "  return", "}"]
    out.append("\n".join(main))
    return "\n\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# The linalg pipeline: an MX matrix-vector product written as linalg.generic on tensors


# mlir_pass/pipelines/linalg-vectorize.mlir, relative to this file.
LINALG_VECTORIZE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pipelines",
                                "linalg-vectorize.mlir")


def linalg_pipeline(placement):
    """The passes of the linalg pipeline (docs/mlir.md, "From linalg"), with `placement` (the
    --mx-scale-placement option, or None for the original) after vectorization."""
    passes = ["--transform-preload-library=transform-library-paths=" + LINALG_VECTORIZE,
              "--transform-interpreter", "--canonicalize"]
    if placement:
        passes.append(placement)
    return passes + ["--one-shot-bufferize=bufferize-function-boundaries "
                     "function-boundary-type-conversion=identity-layout-map",
                     "--convert-vector-to-scf=full-unroll=true", "--mx-to-llvm"]


def linalg_mx_body(t):
    """The region of a linalg.generic over MX elements of MLIR type t: rnd(2^s x) * rnd(2^u y)
    added to the accumulator (the scalar form of SPEC §8's dequant placement)."""
    return """  ^bb0(%%x: %(t)s, %%y: %(t)s, %%s: f8E8M0FNU, %%u: f8E8M0FNU, %%acc: f32):
    %%xs = arith.scaling_extf %%x, %%s : %(t)s, f8E8M0FNU to f32
    %%ys = arith.scaling_extf %%y, %%u : %(t)s, f8E8M0FNU to f32
    %%p = arith.mulf %%xs, %%ys : f32
    %%sum = arith.addf %%acc, %%p : f32
    linalg.yield %%sum : f32
  }""" % dict(t=t)


def linalg_gemv(fmt, k, rows, acc, memref=False):
    """@mx_gemv: C = A x b as a linalg.generic on tensors, C[i] = sum_k rnd(2^sa_i A[i,k]) *
    rnd(2^sb b[k]), C filled with the accumulator acc ("+0" / "-0") first. With memref: the
    same on memrefs, C an output argument."""
    t = FORMATS[fmt]["mlir"]
    kind = "memref" if memref else "tensor"
    d = dict(r=rows, k=k, t=t, z="-0.0" if acc == "-0" else "0.0", m=kind, body=linalg_mx_body(t))
    generic = """linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> ()>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%%a, %%b, %%sa, %%sb : %(m)s<%(r)dx%(k)dx%(t)s>, %(m)s<%(k)dx%(t)s>, %(m)s<%(r)dxf8E8M0FNU>, %(m)s<f8E8M0FNU>) outs(%%c : %(m)s<%(r)dxf32>) {
%(body)s""" % d
    head = "func.func @mx_gemv(%%a: %(m)s<%(r)dx%(k)dx%(t)s>, %%b: %(m)s<%(k)dx%(t)s>, %%sa: %(m)s<%(r)dxf8E8M0FNU>, %%sb: %(m)s<f8E8M0FNU>" % d
    if memref:
        return head + """, %%c: memref<%(r)dxf32>) {
  %%z = arith.constant %(z)s : f32
  linalg.fill ins(%%z : f32) outs(%%c : memref<%(r)dxf32>)
  %(g)s
  return
}""" % dict(d, g=generic)
    return head + """) -> tensor<%(r)dxf32> {
  %%z = arith.constant %(z)s : f32
  %%e = tensor.empty() : tensor<%(r)dxf32>
  %%c = linalg.fill ins(%%z : f32) outs(%%e : tensor<%(r)dxf32>) -> tensor<%(r)dxf32>
  %%res = %(g)s -> tensor<%(r)dxf32>
  return %%res : tensor<%(r)dxf32>
}""" % dict(d, g=generic)


def linalg_driver_module(fmt, k, rows, vectors, acc, memref=False):
    """@mx_gemv and @main: for every (rows of a, b) in vectors, all 65536 (xa, xb) (row i's
    code tile_row_code(xa, i), b's xb) through @mx_gemv, results at (xa * 256 + xb) * rows + i;
    one printed memref per vector. Everything is on tensors until one-shot-bufferize; with
    memref, @mx_gemv is on memrefs (linalg_gemv), called with the element tensors' buffers
    (bufferization.to_buffer) and with scales and output in buffers allocated per call."""
    t = FORMATS[fmt]["mlir"]
    ta, tb, tr = "tensor<%dx%dx%s>" % (rows, k, t), "tensor<%dx%s>" % (k, t), "tensor<%dxf32>" % rows
    n = NUM_PAIRS * rows
    codes, stores = code_lines("s", "%xa32", TILE_ROW_STEP, rows), []
    for i in range(rows):
        stores += ["    %%k%d = arith.constant %d : index" % (i, i),
                   ("    %%r%d = memref.load %%cm[%%k%d] : memref<%dxf32>" % (i, i, rows)) if memref else
                   "    %%r%d = tensor.extract %%r[%%k%d] : %s" % (i, i, tr),
                   "    %%b%d = arith.bitcast %%r%d : f32 to i32" % (i, i),
                   "    %%at%d = arith.addi %%base, %%k%d : index" % (i, i),
                   "    memref.store %%b%d, %%buf[%%at%d] : memref<%dxi32>" % (i, i, n)]
    out = ["func.func private @printMemrefI32(memref<*xi32>)", linalg_gemv(fmt, k, rows, acc, memref)]
    if memref:
        call = ["    %%am = bufferization.to_buffer %%a : %s to memref<%dx%dx%s>" % (ta, rows, k, t),
                "    %%bm = bufferization.to_buffer %%b : %s to memref<%dx%s>" % (tb, k, t),
                "    %%sam = memref.alloc() : memref<%dxf8E8M0FNU>" % rows]
        call += ["    %%q%d = arith.constant %d : index\n    memref.store %%s%d, %%sam[%%q%d] : memref<%dxf8E8M0FNU>"
                 % (i, i, i, i, rows) for i in range(rows)]
        call += ["    %sbm = memref.alloc() : memref<f8E8M0FNU>",
                 "    memref.store %sb, %sbm[] : memref<f8E8M0FNU>",
                 "    %%cm = memref.alloc() : memref<%dxf32>" % rows,
                 "    func.call @mx_gemv(%%am, %%bm, %%sam, %%sbm, %%cm) : (memref<%dx%dx%s>, memref<%dx%s>, "
                 "memref<%dxf8E8M0FNU>, memref<f8E8M0FNU>, memref<%dxf32>) -> ()" % (rows, k, t, k, t, rows, rows)]
        free = ["    memref.dealloc %%sam : memref<%dxf8E8M0FNU>" % rows, "    memref.dealloc %sbm : memref<f8E8M0FNU>",
                "    memref.dealloc %%cm : memref<%dxf32>" % rows]
    else:
        call = ["    %%sat = tensor.from_elements %s : tensor<%dxf8E8M0FNU>" % (", ".join("%%s%d" % i for i in range(rows)), rows),
                "    %sbt = tensor.from_elements %sb : tensor<f8E8M0FNU>",
                "    %%r = func.call @mx_gemv(%%a, %%b, %%sat, %%sbt) : (%s, %s, tensor<%dxf8E8M0FNU>, tensor<f8E8M0FNU>) -> %s"
                % (ta, tb, rows, tr)]
        free = []
    out.append(PAIR_LOOP_HEAD % dict(va=ta, vb=tb, n=NUM_PAIRS, bufn=n, st="f8E8M0FNU") + """
    %%crows = arith.constant %(rows)d : index
%(codes)s
%(call)s
    %%base = arith.muli %%i, %%crows : index
%(stores)s
%(free)s
  }
  return
}""" % dict(rows=rows, codes="\n".join(codes), call="\n".join(call), stores="\n".join(stores), free="\n".join(free)))
    main = main_prologue(n, 1) + ["  %c0m = arith.constant 0 : index"]
    for v, (a_rows, b) in enumerate(vectors):
        main += [line[2:] for line in element_vector("a%df" % v, fmt, [c for row in a_rows for c in row])]
        main += [line[2:] for line in element_vector("b%dv" % v, fmt, b)]
        main += ["  %%a%dv = vector.shape_cast %%a%df : vector<%dx%s> to vector<%dx%dx%s>" % (v, v, rows * k, t, rows, k, t),
                 "  %%a%de = tensor.empty() : %s" % (v, ta),
                 "  %%a%d = vector.transfer_write %%a%dv, %%a%de[%%c0m, %%c0m] {in_bounds = [true, true]} : "
                 "vector<%dx%dx%s>, %s" % (v, v, v, rows, k, t, ta),
                 "  %%b%de = tensor.empty() : %s" % (v, tb),
                 "  %%b%d = vector.transfer_write %%b%dv, %%b%de[%%c0m] {in_bounds = [true]} : vector<%dx%s>, %s"
                 % (v, v, v, k, t, tb),
                 "  func.call @run_all(%%a%d, %%b%d, %%buf) : (%s, %s, memref<%dxi32>) -> ()" % (v, v, ta, tb, n),
                 "  func.call @printMemrefI32(%ubuf) : (memref<*xi32>) -> ()"]
    main += ["  memref.dealloc %%buf : memref<%dxi32>" % n, "  memref.dealloc %sbuf : memref<1xi32>", "  return", "}"]
    out.append("\n".join(main))
    return "\n\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# An MX matmul with an explicit block dimension: linalg.generic over (i, j, kb, k)

KB_M, KB_N, KB_BLOCKS = 2, 2, 2  # rows of A, columns of B, blocks of K


def kblock_code_a(xa, i, kb):
    """The scale code of row i, block kb of A when the driver's code is xa."""
    return (xa + TILE_ROW_STEP * i + WIDE_STEP_B * kb) % 256


def kblock_code_b(xb, kb, j):
    """The scale code of block kb, column j of B when the driver's code is xb."""
    return (xb + WIDE_STEP_B * kb + TILE_ROW_STEP * j) % 256


def linalg_kblocks_driver_module(fmt, k, a_blocks, b_blocks):
    """@mx_mm: C[i, j] = sum over kb, k of rnd(2^sa[i,kb] A[i,kb,k]) * rnd(2^sb[kb,j] B[kb,k,j]),
    a linalg.generic on tensors with iterators (i, j, kb, k) (both kb and k reductions; the MX
    blocks are the k lines), C filled with +0.0; KB_M x KB_N outputs, KB_BLOCKS blocks of k.
    a_blocks[i][kb], b_blocks[kb][j]: the blocks' element codes. @main runs all 65536 (xa, xb),
    block (i, kb) of A with code kblock_code_a(xa, i, kb), block (kb, j) of B with
    kblock_code_b(xb, kb, j); output (i, j) of pair (xa, xb) at (xa * 256 + xb) * M * N + i * N + j;
    one printed memref."""
    t = FORMATS[fmt]["mlir"]
    m, n, nb = KB_M, KB_N, KB_BLOCKS
    ta, tb = "tensor<%dx%dx%dx%s>" % (m, nb, k, t), "tensor<%dx%dx%dx%s>" % (nb, k, n, t)
    tsa, tsb, tr = "tensor<%dx%dxf8E8M0FNU>" % (m, nb), "tensor<%dx%dxf8E8M0FNU>" % (nb, n), "tensor<%dx%dxf32>" % (m, n)
    total = NUM_PAIRS * m * n
    mm = """func.func @mx_mm(%%a: %(ta)s, %%b: %(tb)s, %%sa: %(tsa)s, %%sb: %(tsb)s) -> %(tr)s {
  %%z = arith.constant 0.0 : f32
  %%e = tensor.empty() : %(tr)s
  %%c = linalg.fill ins(%%z : f32) outs(%%e : %(tr)s) -> %(tr)s
  %%res = linalg.generic {indexing_maps = [affine_map<(i, j, kb, k) -> (i, kb, k)>, affine_map<(i, j, kb, k) -> (kb, k, j)>, affine_map<(i, j, kb, k) -> (i, kb)>, affine_map<(i, j, kb, k) -> (kb, j)>, affine_map<(i, j, kb, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%%a, %%b, %%sa, %%sb : %(ta)s, %(tb)s, %(tsa)s, %(tsb)s) outs(%%c : %(tr)s) {
%(body)s -> %(tr)s
  return %%res : %(tr)s
}""" % dict(ta=ta, tb=tb, tsa=tsa, tsb=tsb, tr=tr, t=t, body=linalg_mx_body(t))
    body = []
    for name, src, code in (("ca", "%xa32", lambda i, kb: TILE_ROW_STEP * i + WIDE_STEP_B * kb),
                            ("cb", "%xb32", lambda kb, j: WIDE_STEP_B * kb + TILE_ROW_STEP * j)):
        rows, cols = (m, nb) if name == "ca" else (nb, n)
        vals = []
        for r in range(rows):
            for c in range(cols):
                v = "%%%s%d%d" % (name, r, c)
                body += ["    %s_o = arith.constant %d : i32" % (v, code(r, c)),
                         "    %s_x = arith.addi %s, %s_o : i32" % (v, src, v),
                         "    %s_m = arith.andi %s_x, %%c255 : i32" % (v, v),
                         "    %s_8 = arith.trunci %s_m : i32 to i8" % (v, v),
                         "    %s = arith.bitcast %s_8 : i8 to f8E8M0FNU" % (v, v)]
                vals.append(v)
        body.append("    %%%st = tensor.from_elements %s : %s" % (name, ", ".join(vals), tsa if name == "ca" else tsb))
    body += ["    %%r = func.call @mx_mm(%%a, %%b, %%cat, %%cbt) : (%s, %s, %s, %s) -> %s" % (ta, tb, tsa, tsb, tr),
             "    %%cmn = arith.constant %d : index" % (m * n), "    %base = arith.muli %i, %cmn : index"]
    for i in range(m):
        for j in range(n):
            q = i * n + j
            body += ["    %%ri%d = arith.constant %d : index" % (q, i), "    %%rj%d = arith.constant %d : index" % (q, j),
                     "    %%e%d = tensor.extract %%r[%%ri%d, %%rj%d] : %s" % (q, q, q, tr),
                     "    %%i%d = arith.bitcast %%e%d : f32 to i32" % (q, q),
                     "    %%k%d = arith.constant %d : index" % (q, q),
                     "    %%at%d = arith.addi %%base, %%k%d : index" % (q, q),
                     "    memref.store %%i%d, %%buf[%%at%d] : memref<%dxi32>" % (q, q, total)]
    run_all = PAIR_LOOP_HEAD % dict(va=ta, vb=tb, n=NUM_PAIRS, bufn=total, st="f8E8M0FNU") + "\n" + "\n".join(body) + "\n  }\n  return\n}"
    main = main_prologue(total, 1) + ["  %c0m = arith.constant 0 : index"]
    a_elems = [c for i in range(m) for kb in range(nb) for c in a_blocks[i][kb]]
    b_elems = [b_blocks[kb][j][kk] for kb in range(nb) for kk in range(k) for j in range(n)]
    main += [line[2:] for line in element_vector("af", fmt, a_elems)]
    main += [line[2:] for line in element_vector("bf", fmt, b_elems)]
    for x, elems, tt, shape in (("a", a_elems, ta, (m, nb, k)), ("b", b_elems, tb, (nb, k, n))):
        vt = "vector<%dx%dx%dx%s>" % (shape + (t,))
        main += ["  %%%sv = vector.shape_cast %%%sf : vector<%dx%s> to %s" % (x, x, len(elems), t, vt),
                 "  %%%se = tensor.empty() : %s" % (x, tt),
                 "  %%%s = vector.transfer_write %%%sv, %%%se[%%c0m, %%c0m, %%c0m] {in_bounds = [true, true, true]} : %s, %s"
                 % (x, x, x, vt, tt)]
    main += ["  func.call @run_all(%%a, %%b, %%buf) : (%s, %s, memref<%dxi32>) -> ()" % (ta, tb, total),
             "  func.call @printMemrefI32(%ubuf) : (memref<*xi32>) -> ()",
             "  memref.dealloc %%buf : memref<%dxi32>" % total, "  memref.dealloc %sbuf : memref<1xi32>", "  return", "}"]
    return "\n\n".join(["func.func private @printMemrefI32(memref<*xi32>)", mm, run_all, "\n".join(main)]) + "\n"


# ---------------------------------------------------------------------------------------------
# A matmul tile: vector.contract of vector<MxK> and vector<KxN> into vector<MxN>


MATMUL_LAYOUTS = ("mk", "km", "ct", "batch")
MATMUL_BATCH = 2  # the "batch" layout's number of batches


def matmul_outputs(layout, m, n):
    """The outputs of a matmul driver of `layout` (MATMUL_LAYOUTS) over M rows of A and N columns
    of B (per batch for "batch"): a list of (row of A, column of B), in the order the driver
    stores them (the result's row-major order)."""
    if layout == "ct":  # the result held transposed: (j, i)
        return [(i, j) for j in range(n) for i in range(m)]
    if layout == "batch":
        return [(b * m + i, b * n + j) for b in range(MATMUL_BATCH) for i in range(m) for j in range(n)]
    return [(i, j) for i in range(m) for j in range(n)]


def matmul_driver_module(fmt, k, a_rows, b_cols, acc, layout="mk"):
    """@mm: the matmul C = A B from the accumulator acc ("+0" / "-0"), one vector.contract, row
    r of A scaled by its code (a vector<Mx1xf8E8M0FNU> broadcast along the row), column c of B
    by its code (a vector<N> broadcast along the K rows). The layout (MATMUL_LAYOUTS): "mk" A is
    vector<MxK>; "km" A is held as its transpose, a vector<KxM> read with (i, j, k) -> (k, i),
    its codes a vector<M> broadcast along the K rows; "ct" the result is held transposed, a
    vector<NxM> written with (i, j, k) -> (j, i); "batch" a batch matmul (b, i, j, k) of
    MATMUL_BATCH batches, A vector<BxMxK> with codes vector<BxMx1>, B vector<BxKxN> with codes
    vector<Bx1xN>, rows b * M + i of a_rows and columns b * N + j of b_cols.
    @main runs all 65536 (xa, xb) with row r's code tile_row_code(xa, r) and column c's
    wide_code(xb, c, WIDE_STEP_B); output q (matmul_outputs) of pair (xa, xb) at
    (xa * 256 + xb) * Q + q; one printed memref."""
    t = FORMATS[fmt]["mlir"]
    nb = MATMUL_BATCH if layout == "batch" else 1
    m, n = len(a_rows) // nb, len(b_cols) // nb
    outs = matmul_outputs(layout, m, n)
    B = "%dx" % nb if layout == "batch" else ""
    ashape = "%dx%d" % ((k, m) if layout == "km" else (m, k))
    rshape = "%dx%d" % ((n, m) if layout == "ct" else (m, n))
    va, vb, vr = "vector<%s%sx%s>" % (B, ashape, t), "vector<%s%dx%dx%s>" % (B, k, n, t), "vector<%s%sxf32>" % (B, rshape)
    vsa = "vector<%dxf8E8M0FNU>" % m if layout == "km" else "vector<%s%dx1xf8E8M0FNU>" % (B, m)
    vsb = "vector<%s1x%dxf8E8M0FNU>" % (B, n) if layout == "batch" else "vector<%dxf8E8M0FNU>" % n
    d = "(b, i, j, k)" if layout == "batch" else "(i, j, k)"
    amap = {"km": "(k, i)", "batch": "(b, i, k)"}.get(layout, "(i, k)")
    bmap = "(b, k, j)" if layout == "batch" else "(k, j)"
    rmap = {"ct": "(j, i)", "batch": "(b, i, j)"}.get(layout, "(i, j)")
    iters = ", ".join(['"parallel"'] * (3 if layout == "batch" else 2) + ['"reduction"'])
    total = NUM_PAIRS * len(outs)
    mm = """func.func @mm(%%a: %(va)s, %%b: %(vb)s, %%sa: %(vsa)s, %%sb: %(vsb)s) -> %(vr)s {
  %%sav = vector.broadcast %%sa : %(vsa)s to vector<%(B)s%(ashape)sxf8E8M0FNU>
  %%sbv = vector.broadcast %%sb : %(vsb)s to vector<%(B)s%(k)dx%(n)dxf8E8M0FNU>
  %%A = arith.scaling_extf %%a, %%sav : %(va)s, vector<%(B)s%(ashape)sxf8E8M0FNU> to vector<%(B)s%(ashape)sxf32>
  %%B = arith.scaling_extf %%b, %%sbv : %(vb)s, vector<%(B)s%(k)dx%(n)dxf8E8M0FNU> to vector<%(B)s%(k)dx%(n)dxf32>
  %%z = arith.constant dense<%(z)s> : %(vr)s
  %%R = vector.contract {indexing_maps = [affine_map<%(d)s -> %(amap)s>, affine_map<%(d)s -> %(bmap)s>, affine_map<%(d)s -> %(rmap)s>], iterator_types = [%(iters)s], kind = #vector.kind<add>} %%A, %%B, %%z : vector<%(B)s%(ashape)sxf32>, vector<%(B)s%(k)dx%(n)dxf32> into %(vr)s
  return %%R : %(vr)s
}""" % dict(va=va, vb=vb, vr=vr, vsa=vsa, vsb=vsb, n=n, k=k, B=B, ashape=ashape, d=d, amap=amap, bmap=bmap,
            rmap=rmap, iters=iters, z="-0.0" if acc == "-0" else "0.0")
    body = code_lines("as", "%xa32", TILE_ROW_STEP, m * nb) + code_lines("bs", "%xb32", WIDE_STEP_B, n * nb)
    body += ["    %%sav1 = vector.from_elements %s : vector<%dxf8E8M0FNU>" % (", ".join("%%as%d" % i for i in range(m * nb)),
                                                                            m * nb)]
    if layout != "km":  # one code per row: vector<[B x] M x 1 x ...>
        body += ["    %%sav = vector.shape_cast %%sav1 : vector<%dxf8E8M0FNU> to %s" % (m * nb, vsa)]
    body += ["    %%sbv%s = vector.from_elements %s : vector<%dxf8E8M0FNU>" % (
        "1" if layout == "batch" else "", ", ".join("%%bs%d" % j for j in range(n * nb)), n * nb)]
    if layout == "batch":  # one code per (batch, column): vector<Bx1xN>
        body += ["    %%sbv = vector.shape_cast %%sbv1 : vector<%dxf8E8M0FNU> to %s" % (n * nb, vsb)]
    body += ["    %%r = func.call @mm(%%a, %%b, %s, %%sbv) : (%s, %s, %s, %s) -> %s"
             % ("%sav1" if layout == "km" else "%sav", va, vb, vsa, vsb, vr),
             "    %%cmn = arith.constant %d : index" % len(outs), "    %base = arith.muli %i, %cmn : index"]
    for q, (r, c) in enumerate(outs):
        b_, i, j = (r // m, r % m, c % n)
        pos = {"ct": "%d, %d" % (j, i), "batch": "%d, %d, %d" % (b_, i, j)}.get(layout, "%d, %d" % (i, j))
        body += ["    %%e%d = vector.extract %%r[%s] : f32 from %s" % (q, pos, vr),
                 "    %%i%d = arith.bitcast %%e%d : f32 to i32" % (q, q),
                 "    %%k%d = arith.constant %d : index" % (q, q),
                 "    %%at%d = arith.addi %%base, %%k%d : index" % (q, q),
                 "    memref.store %%i%d, %%buf[%%at%d] : memref<%dxi32>" % (q, q, total)]
    run_all = PAIR_LOOP_HEAD % dict(va=va, vb=vb, n=NUM_PAIRS, bufn=total, st="f8E8M0FNU") + "\n" + "\n".join(body) + "\n  }\n  return\n}"
    main = main_prologue(total, 1)
    if layout == "km":
        a_elems = [a_rows[i][kk] for kk in range(k) for i in range(m)]
    else:  # row-major [b][i][k]
        a_elems = [c for row in a_rows for c in row]
    b_elems = [b_cols[bb * n + j][kk] for bb in range(nb) for kk in range(k) for j in range(n)]  # [b][k][j]
    main += [line[2:] for line in element_vector("af", fmt, a_elems)]
    main += [line[2:] for line in element_vector("bf", fmt, b_elems)]
    main += ["  %%a = vector.shape_cast %%af : vector<%dx%s> to %s" % (len(a_elems), t, va),
             "  %%b = vector.shape_cast %%bf : vector<%dx%s> to %s" % (len(b_elems), t, vb),
             "  func.call @run_all(%%a, %%b, %%buf) : (%s, %s, memref<%dxi32>) -> ()" % (va, vb, total),
             "  func.call @printMemrefI32(%ubuf) : (memref<*xi32>) -> ()",
             "  memref.dealloc %%buf : memref<%dxi32>" % total, "  memref.dealloc %sbuf : memref<1xi32>", "  return", "}"]
    return "\n\n".join(["func.func private @printMemrefI32(memref<*xi32>)", mm, run_all, "\n".join(main)]) + "\n"

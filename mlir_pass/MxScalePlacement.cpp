// mlir_pass/MxScalePlacement.cpp — matcher, guard lookup, compile-time decision, runtime
// guard emission and the `post` computation of the `--mx-scale-placement` pass.
//
// The math (SPEC §3, §5; rnd = f32 rounding to nearest even, subnormals as the denormal mode
// says: kept, or flushed (ftz, daz; docs/semantics.md), each mode served by its own tables):
//   dequant (the matched IR):  R = Seq_i rnd(rnd(2^sa a_i) * rnd(2^sb b_i))
//   post    (what we emit):    R = rnd(2^e * Seq_i rnd(a_i * b_i)),  e = xa + xb - 254
// where Seq is the ordered sum ((t_0 + t_1) + t_2) + ... rounding after every addition.
// Elements of every MX format extend exactly to f32 and their products are exact in f32, so
// p_i = rnd(a_i b_i) is one `arith.mulf` of the extended elements. The final scaling is ONE
// rounding: where every e the code meets has 2^e an f32 the hardware reads as it is (e in
// [-149, 127]; [-126, 127] under daz) it is one f32 multiply D * 2^e of exact f32 values;
// otherwise (|e| <= 254) D is extended to f64 (exact), multiplied by 2^e built exactly as an
// f64 (the product is exact: 24 significant bits, exponent within [-149 - 254, 128 + 254],
// well inside f64), and truncated to f32 (the only rounding).
// The guard compares the integer codes (never floats): the scale f8E8M0FNU is bitcast to i8
// and zero-extended, e is computed in i32, and each region is a conjunction of inclusive
// integer ranges on xa, xb, e; code 255 (NaN) is never inside (both placements give NaN there,
// which the original computation produces).
#include "mlir_pass/MxScalePlacement.h"

#include "certs/config_json.h"
#include "certs/sha256.h"
#include "certs/table_name.h"
#include "mlir_pass/InstallLayout.h"
#include "models/guard.h"
#include "models/tree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>

#ifndef MXCERT_TABLES_DIR
#define MXCERT_TABLES_DIR "certs/tables"
#endif

using namespace mlir;

namespace mxcert::mlir_pass {

std::optional<PlacementMode> parsePlacementMode(const std::string &s) {
  if (s == "auto") return PlacementMode::Auto;
  if (s == "static") return PlacementMode::Static;
  if (s == "runtime") return PlacementMode::Runtime;
  if (s == "off") return PlacementMode::Off;
  return std::nullopt;
}

std::optional<DenormalMode> parseDenormalMode(const std::string &s) {
  if (s == "ieee") return DenormalMode::IEEE;
  if (s == "ftz") return DenormalMode::FTZ;
  if (s == "daz") return DenormalMode::DAZ;
  return std::nullopt;
}

const char *toString(DenormalMode m) {
  switch (m) {
  case DenormalMode::IEEE: return "ieee";
  case DenormalMode::FTZ: return "ftz";
  case DenormalMode::DAZ: return "daz";
  }
  return "ieee";
}

Subnormals subnormalsOf(DenormalMode m) {
  switch (m) {
  case DenormalMode::IEEE: return Subnormals::Keep;
  case DenormalMode::FTZ: return Subnormals::FTZ;
  case DenormalMode::DAZ: return Subnormals::DAZ;
  }
  return Subnormals::Keep;
}

std::optional<DenormalMode> denormalModeOfLLVM(const std::string &value, std::string &why) {
  std::string out = value, in;
  if (size_t comma = value.find(','); comma != std::string::npos) {
    out = value.substr(0, comma);
    in = value.substr(comma + 1);
  } else {
    in = out;
  }
  if (out == "ieee" && in == "ieee") return DenormalMode::IEEE;
  if (out == "preserve-sign" && in == "ieee") return DenormalMode::FTZ;
  if (out == "preserve-sign" && in == "preserve-sign") return DenormalMode::DAZ;
  why = "denormal-fp-math \"" + value +
        "\" is not a mode mxcert models (ieee; ftz = \"preserve-sign,ieee\"; daz = \"preserve-sign,preserve-sign\")";
  return std::nullopt;
}

std::optional<DenormalMode> functionDenormalMode(Operation *op, std::string &attr, std::string &why) {
  attr.clear();
  why.clear();
  Operation *fn = op->getParentOfType<FunctionOpInterface>();
  if (!fn) return std::nullopt;
  // The attributes LLVM honours, f32-specific first (func-to-llvm keeps `denormal_fp_math*`
  // of a func.func as the llvm.func's own; a passthrough entry becomes the IR attribute).
  auto named = [&](const char *name) -> std::optional<std::string> {
    if (auto s = dyn_cast_or_null<StringAttr>(fn->getAttr(name))) return s.getValue().str();
    return std::nullopt;
  };
  auto passthrough = [&](const char *key) -> std::optional<std::string> {
    auto list = dyn_cast_or_null<ArrayAttr>(fn->getAttr("passthrough"));
    if (!list) return std::nullopt;
    for (Attribute e : list)
      if (auto kv = dyn_cast<ArrayAttr>(e); kv && kv.size() == 2)
        if (auto k = dyn_cast<StringAttr>(kv[0]); k && k.getValue() == key)
          if (auto v = dyn_cast<StringAttr>(kv[1])) return v.getValue().str();
    return std::nullopt;
  };
  struct Source {
    std::optional<std::string> prop, pass;
    const char *propName, *passName;
  };
  for (Source s : {Source{named("denormal_fp_math_f32"), passthrough("denormal-fp-math-f32"), "denormal_fp_math_f32",
                          "passthrough \"denormal-fp-math-f32\""},
                   Source{named("denormal_fp_math"), passthrough("denormal-fp-math"), "denormal_fp_math",
                          "passthrough \"denormal-fp-math\""}}) {
    if (!s.prop && !s.pass) continue;
    if (s.prop && s.pass && *s.prop != *s.pass) {
      why = std::string("the function's ") + s.propName + " = \"" + *s.prop + "\" and " + s.passName + " = \"" +
            *s.pass + "\" disagree";
      return std::nullopt;
    }
    const std::string value = s.prop ? *s.prop : *s.pass;
    attr = std::string(s.prop ? s.propName : s.passName) + " = \"" + value + "\"";
    std::optional<DenormalMode> m = denormalModeOfLLVM(value, why);
    if (!m) why = "the function's " + why;
    return m;
  }
  return std::nullopt;
}

std::string defaultTablesDir() {
  // Installed (cmake --install): <prefix>/bin/mxcert-opt and the plugin
  // <prefix>/lib/mxcert/libMxcertPassPlugin.so use <prefix>/share/mxcert/tables.
  std::string installed = installedTablesDir(codeFile());
  if (!installed.empty()) return installed;
  // The build tree: the source tree's committed tables.
  return MXCERT_TABLES_DIR;
}

//===----------------------------------------------------------------------===//
// Guard tables
//===----------------------------------------------------------------------===//

/// The configuration of a block the pass matches: a x b, f32 rne, seq over k (k <= kMaxK),
/// subnormals as the denormal mode requires.
static ModelConfig blockConfig(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode) {
  return ModelConfig{a, b, AccSpec{*findAccFormat("f32"), Rounding::RNE, subnormalsOf(mode)}, Tree::seq(k)};
}

std::string GuardTableSource::tableFileName(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode) {
  return certs::tableFileName(blockConfig(a, b, k, mode), "seq", Placement::Dequant, Placement::Post,
                              Relation::Bitwise, "solver");
}

std::string GuardTableSource::tableCommand(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode) {
  std::string sub = mode == DenormalMode::IEEE ? "" : std::string(" --subnormals ") + toString(subnormalsOf(mode));
  return "mxcert table --a " + a.name + " --b " + b.name + " --acc f32" + sub + " --k " + std::to_string(k) +
         " --tree seq --lhs dequant --rhs post --relation bitwise -o " + tableFileName(a, b, k, mode);
}

LoadedTable GuardTableSource::load(const std::string &path) {
  // The table is parsed from the very bytes whose hash identifies it to the checker's cache.
  std::string bytes = certs::readRegularFile(path, certs::kMaxFileBytes);
  return loadParsed(path, bytes, certs::parseStrict(bytes, "'" + path + "'"));
}

LoadedTable GuardTableSource::loadParsed(const std::string &path, const std::string &bytes, const nlohmann::json &j) {
  LoadedTable t;
  t.path = path;
  t.sha256 = certs::sha256Hex(bytes);
  t.compact = j.is_object() && j.contains("format") && j.at("format") == "mxcert-guard-table";
  t.table = certs::guardTableFromJson(j);  // compact tables are never verified (nothing to check)
  return t;
}

LoadedTable GuardTableSource::loadEntry(const certs::IndexEntry &e) {
  LoadedTable t;
  t.path = e.path;
  std::string bytes;
  t.table = certs::readIndexedTable(e, &bytes);  // a certificate (never compact) of exactly the entry's table
  t.sha256 = certs::sha256Hex(bytes);            // of the very bytes parsed, as in load()
  return t;
}

std::unique_ptr<GuardTableSource> GuardTableSource::fromFile(const std::string &file, const TrustOptions &trust,
                                                             std::string &error) {
  std::unique_ptr<GuardTableSource> s(new GuardTableSource(trust));
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
      s->index_ = certs::readSweepIndex(file);  // DIR/index.json
      return s;
    }
    std::string bytes = certs::readRegularFile(file, certs::kMaxFileBytes);
    nlohmann::json j = certs::parseStrict(bytes, "'" + file + "'");
    if (certs::isSweepIndex(j))
      s->index_ = certs::sweepIndexFromJson(j, file);
    else
      s->file_ = loadParsed(file, bytes, j);
  } catch (const std::exception &e) {  // certs::SchemaError, and anything else the reader throws
    error = "'" + file + "': " + e.what();
    return nullptr;
  }
  return s;
}

std::unique_ptr<GuardTableSource> GuardTableSource::fromDirectory(const std::string &dir, const TrustOptions &trust) {
  std::unique_ptr<GuardTableSource> s(new GuardTableSource(trust));
  s->dir_ = dir;
  return s;
}

LogicalResult GuardTableSource::admit(LoadedTable &t, std::string &error, std::string &warning) {
  using Trust = LoadedTable::Trust;
  switch (t.trust) {
  case Trust::Verified:
  case Trust::Uncertified:
    return success();
  case Trust::Refused:
    return failure();
  case Trust::Unchecked:
    break;
  }
  if (t.compact) {
    if (allowUncertified_) {
      t.trust = Trust::Uncertified;
      return success();
    }
    t.trust = Trust::Refused;
    error = "guard table '" + t.path +
            "' is an uncertified compact table (claims without proofs or witnesses, nothing to check); "
            "pass its certificate, or allow-uncertified=true to use it unchecked";
    return failure();
  }
  CheckResult r = checker_.verify(t.path, t.sha256);
  warning = r.warning;
  if (!r.ok) {
    t.trust = Trust::Refused;
    error = r.error;
    return failure();
  }
  t.trust = Trust::Verified;
  return success();
}

/// "e2m1 x e2m1, k = 2, seq, f32 rne keep, dequant/post bitwise"
static std::string describe(const ElementFormat &a, const ElementFormat &b, int k, const std::string &tree,
                            const std::string &acc, Placement lhs, Placement rhs, Relation rel) {
  return a.name + " x " + b.name + ", k = " + std::to_string(k) + ", tree " + tree + ", " + acc + ", " +
         toString(lhs) + "/" + toString(rhs) + " " + toString(rel);
}

std::string GuardTableSource::mismatch(const ModelConfig &c, Placement lhs, Placement rhs, Relation rel,
                                       const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode) {
  bool ok = rel == Relation::Bitwise &&
            ((lhs == Placement::Dequant && rhs == Placement::Post) ||
             (lhs == Placement::Post && rhs == Placement::Dequant)) &&
            // An any-order table (every tree, docs/bounds.md) covers seq too.
            c.a == a && c.b == b && c.k() == k && (c.anyOrder || c.tree == Tree::seq(k)) && c.acc.fmt.name == "f32" &&
            c.acc.rounding == Rounding::RNE && c.acc.subnormals == subnormalsOf(mode);
  if (ok) return "";
  auto treeName = [&](const Tree &tr) {
    return c.anyOrder ? treeText(c) : tr == Tree::seq(tr.k()) ? std::string("seq") : tr.sexpr();
  };
  std::string acc = c.acc.fmt.name + " " + toString(c.acc.rounding) + " " + toString(c.acc.subnormals);
  return "the table is for " + describe(c.a, c.b, c.k(), treeName(c.tree), acc, lhs, rhs, rel) + "; the IR needs " +
         describe(a, b, k, "seq", std::string("f32 rne ") + toString(subnormalsOf(mode)), Placement::Dequant,
                  Placement::Post, Relation::Bitwise);
}

/// "no certified table for e2m1 x e2m1, k = 4"
static std::string noTable(const ElementFormat &a, const ElementFormat &b, int k) {
  return "no certified table for " + a.name + " x " + b.name + ", k = " + std::to_string(k);
}

/// "(seq, f32 rne keep, dequant/post bitwise)"
static std::string wanted(DenormalMode mode) {
  return std::string("(seq, f32 rne ") + toString(subnormalsOf(mode)) + ", dequant/post bitwise)";
}

TableLookup GuardTableSource::lookup(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode) {
  if (file_) {
    const certs::GuardTable &g = file_->table;
    std::string why = mismatch(g.config, g.lhs, g.rhs, g.relation, a, b, k, mode);
    if (why.empty()) return TableLookup{&*file_, "", false};
    return TableLookup{nullptr, "guard table '" + file_->path + "' does not fit this block: " + why, false};
  }
  auto key = std::make_tuple(a.name, b.name, k, int(mode));
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second.second;
  auto &entry = cache_[key];
  if (k > kMaxK)
    entry.second.reason = noTable(a, b, k) + ": mxcert handles blocks of at most " + std::to_string(kMaxK) + " elements";
  else if (index_)
    lookupIndex(a, b, k, mode, entry);
  else
    lookupDirectory(a, b, k, mode, entry);
  if (entry.first && entry.second.reason.empty() && !entry.second.error) {
    // The table's own configuration decides, not its file name or its index entry.
    const certs::GuardTable &g = entry.first->table;
    std::string why = mismatch(g.config, g.lhs, g.rhs, g.relation, a, b, k, mode);
    if (why.empty())
      entry.second.table = &*entry.first;
    else
      entry.second.reason = "guard table '" + entry.first->path + "' does not fit this block: " + why;
  }
  return entry.second;
}

void GuardTableSource::lookupDirectory(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                       std::pair<std::optional<LoadedTable>, TableLookup> &entry) {
  std::string path = dir_ + "/" + tableFileName(a, b, k, mode);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    entry.second.reason = noTable(a, b, k) + " " + wanted(mode) + " in '" + dir_ + "'; make one with `" +
                          tableCommand(a, b, k, mode) + "` and pass guards=" + tableFileName(a, b, k, mode);
    return;
  }
  try {
    entry.first = load(path);
  } catch (const std::exception &e) {
    entry.second.reason = std::string("cannot read guard table: ") + e.what();
    entry.second.error = true;
  }
}

void GuardTableSource::lookupIndex(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                   std::pair<std::optional<LoadedTable>, TableLookup> &entry) {
  const certs::IndexEntry *use = nullptr, *uncertified = nullptr;
  for (const certs::IndexEntry &e : index_->entries) {
    if (!mismatch(e.config, e.lhs, e.rhs, e.relation, a, b, k, mode).empty()) continue;
    if (e.certified()) {
      use = &e;
      break;
    }
    if (!uncertified) uncertified = &e;
  }
  const std::string where = noTable(a, b, k) + " " + wanted(mode) + " in index '" + index_->path + "'";
  if (!use && uncertified) {
    // Never read: an entry that is not certified is no table at all.
    entry.second.reason = where + ": " + uncertified->label() + " has status " + uncertified->status;
    return;
  }
  if (!use) {
    entry.second.reason = where + " (no entry of this configuration); make one with `" + tableCommand(a, b, k, mode) +
                          "` and pass guards=" + tableFileName(a, b, k, mode);
    return;
  }
  try {
    entry.first = loadEntry(*use);
  } catch (const std::exception &e) {
    entry.second.reason = std::string("cannot read guard table: ") + e.what();
    entry.second.error = true;
  }
}

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// The MX element format of an MLIR type (compared by its printed name with
/// ElementFormat::mlirType(), the one place that names them), or nullopt.
std::optional<ElementFormat> elementFormatOf(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  for (const ElementFormat &f : elementFormats())
    if (f.mlirType() == s) return f;
  return std::nullopt;
}

namespace {

/// "f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2"
std::string mxTypeList() {
  std::string s;
  for (const ElementFormat &f : elementFormats()) s += (s.empty() ? "" : ", ") + f.mlirType();
  return s;
}

std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// The scale of one operand: one f8E8M0FNU value broadcast over the block. The IR may hold
/// that value as an f8E8M0FNU scalar, as the one element of a `vector<1xf8E8M0FNU>` (the form
/// of `arith.scaling_extf`'s documentation), or as its bits: an i8 scalar or `vector<1xi8>`
/// broadcast and then bitcast to f8E8M0FNU. The code is the same 8 bits in every form.
struct BlockScale {
  Value scalar;                 ///< the broadcast source (null for a splat constant vector)
  bool bits = false;            ///< `scalar` is i8 (or vector<1xi8>): the code's bits, not an f8E8M0FNU
  std::optional<unsigned> code; ///< its code 0..255 when it is a compile-time constant
};

/// One MX block dot product in the form of SPEC §8.
struct MxBlock {
  vector::ReductionOp reduction;  ///< R = vector.reduction <add>, P
  arith::MulFOp mul;              ///< P = arith.mulf A, B
  arith::ScalingExtFOp extA;      ///< A = arith.scaling_extf a, sa
  arith::ScalingExtFOp extB;      ///< B = arith.scaling_extf b, sb
  Value a, b;                     ///< the element vectors
  BlockScale sa, sb;              ///< their scales
  ElementFormat fa, fb;           ///< their formats
  int k = 0;                      ///< the vector length
};

/// Why an operation carries fast-math flags ("" when it carries none).
std::string fastMathReason(Operation *op) {
  auto fmi = dyn_cast<arith::ArithFastMathInterface>(op);
  if (!fmi) return "";
  arith::FastMathFlagsAttr attr = fmi.getFastMathFlagsAttr();
  if (!attr || attr.getValue() == arith::FastMathFlags::none) return "";
  return "`" + op->getName().getStringRef().str() + "` carries fast-math flags <" +
         arith::stringifyFastMathFlags(attr.getValue()) +
         ">, which allow results other than the dequant semantics the guard tables describe";
}

/// Matches the scale operand of a scaling_extf: a `vector.broadcast` of one f8E8M0FNU value
/// (a scalar or a `vector<1xf8E8M0FNU>`), an `arith.bitcast` to f8E8M0FNU of a broadcast i8
/// value (a scalar or a `vector<1xi8>`), or a splat f8E8M0FNU constant. Anything else (a
/// scale per element, a broadcast of a longer vector) is not one scale for the block.
FailureOr<BlockScale> matchScale(Value scale, const char *side, std::string &why) {
  Type et = getElementTypeOrSelf(scale.getType());
  if (!isa<Float8E8M0FNUType>(et)) {
    why = std::string("the scale of operand ") + side + " has type " + typeStr(et) + ", not f8E8M0FNU";
    return failure();
  }
  BlockScale s;
  // The code of a constant: an f8E8M0FNU or i8 attribute, or a splat of one, also seen
  // through broadcasts and 8-bit bitcasts (which keep the 8 bits).
  std::function<std::optional<unsigned>(Value)> codeOf = [&](Value v) -> std::optional<unsigned> {
    Attribute attr;
    if (!matchPattern(v, m_Constant(&attr))) {
      if (auto bc = v.getDefiningOp<vector::BroadcastOp>()) return codeOf(bc.getSource());
      if (auto cast = v.getDefiningOp<arith::BitcastOp>())
        if (getElementTypeOrSelf(cast.getIn().getType()).getIntOrFloatBitWidth() == 8) return codeOf(cast.getIn());
      return std::nullopt;
    }
    if (auto splat = dyn_cast<SplatElementsAttr>(attr)) attr = splat.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(attr)) return unsigned(f.getValue().bitcastToAPInt().getZExtValue());
    if (auto i = dyn_cast<IntegerAttr>(attr)) return unsigned(i.getValue().getZExtValue() & 0xFF);
    return std::nullopt;
  };
  // One value of type `want` (f8E8M0FNU or i8): the scalar, or a vector of exactly one.
  auto isOneOf = [](Type t, auto want) {
    if (auto vt = dyn_cast<VectorType>(t))
      return !vt.isScalable() && vt.getNumElements() == 1 && want(vt.getElementType());
    return bool(want(t));
  };
  auto isScale = [](Type t) { return isa<Float8E8M0FNUType>(t); };
  auto isI8 = [](Type t) { return t.isInteger(8); };
  Value bcValue = scale;
  if (auto cast = scale.getDefiningOp<arith::BitcastOp>()) {
    bcValue = cast.getIn();
    s.bits = true;
  }
  if (auto bc = bcValue.getDefiningOp<vector::BroadcastOp>()) {
    Value src = bc.getSource();
    if (!(s.bits ? isOneOf(src.getType(), isI8) : isOneOf(src.getType(), isScale))) {
      why = std::string("the scale of operand ") + side + " is " + (s.bits ? "a bitcast of a value " : "") +
            "broadcast from " + typeStr(src.getType()) + ", not from one " + (s.bits ? "i8" : "f8E8M0FNU") +
            " value";
      return failure();
    }
    s.scalar = src;
    s.code = codeOf(src);
    return s;
  }
  // A splat constant (of f8E8M0FNU, or of i8 under the bitcast); codeOf refuses non-splats.
  if (std::optional<unsigned> c = codeOf(bcValue)) {
    s.code = c;
    return s;
  }
  why = std::string("the scale of operand ") + side +
        " is not one f8E8M0FNU value broadcast over the block (mismatched or per-element scales are "
        "not an MX block)";
  return failure();
}

/// Matches an MX block rooted at `op`. Returns failure with `candidate` false when `op` is
/// not an MX-like dot product at all (no remark: ordinary reductions are none of our
/// business), and with `candidate` true and `why` set when it looks like one but must be
/// left alone.
FailureOr<MxBlock> matchMxBlock(vector::ReductionOp op, bool &candidate, std::string &why) {
  candidate = false;
  if (op.getKind() != vector::CombiningKind::ADD) return failure();
  auto mul = op.getVector().getDefiningOp<arith::MulFOp>();
  if (!mul) return failure();
  auto extA = mul.getLhs().getDefiningOp<arith::ScalingExtFOp>();
  auto extB = mul.getRhs().getDefiningOp<arith::ScalingExtFOp>();
  if (!extA && !extB) return failure();
  // The original computation we keep in a runtime guard's else branch is not matched again.
  if (auto ifOp = dyn_cast<scf::IfOp>(op->getParentOp()))
    if (ifOp->hasAttr(kGuardAttrName) && op->getParentRegion() == &ifOp.getElseRegion()) return failure();
  candidate = true;

  if (isa<vector::MaskOp>(op->getParentOp())) {
    why = "the reduction is masked (`vector.mask`)";
    return failure();
  }
  for (Operation *o : {op.getOperation(), mul.getOperation(), extA ? extA.getOperation() : nullptr,
                       extB ? extB.getOperation() : nullptr})
    if (o) {
      why = fastMathReason(o);
      if (!why.empty()) return failure();
    }
  if (op.getAcc()) {
    why = "the reduction has an accumulator operand (the guard tables' semantics start from the first "
          "product)";
    return failure();
  }
  if (!extA || !extB) {
    why = std::string("operand ") + (extA ? "b" : "a") + " of the `arith.mulf` is not an `arith.scaling_extf`";
    return failure();
  }
  auto vt = dyn_cast<VectorType>(op.getVector().getType());
  if (!vt || vt.getRank() != 1 || vt.isScalable()) {
    why = "the reduction is not over a fixed-length 1-D vector";
    return failure();
  }
  if (!op.getType().isF32() || !vt.getElementType().isF32() ||
      !getElementTypeOrSelf(extA.getType()).isF32() || !getElementTypeOrSelf(extB.getType()).isF32()) {
    why = "the products and the reduction are " + typeStr(op.getType()) +
          ", not f32 (the guard tables cover the f32 accumulator)";
    return failure();
  }
  MxBlock m;
  m.reduction = op;
  m.mul = mul;
  m.extA = extA;
  m.extB = extB;
  m.a = extA.getIn();
  m.b = extB.getIn();
  m.k = int(vt.getNumElements());
  for (auto [v, side, fmt] : {std::tuple{m.a, "a", &m.fa}, std::tuple{m.b, "b", &m.fb}}) {
    Type et = getElementTypeOrSelf(v.getType());
    std::optional<ElementFormat> f = elementFormatOf(et);
    if (!f) {
      why = std::string("operand ") + side + " has element type " + typeStr(et) +
            ", not an MX element type (" + mxTypeList() + ")";
      return failure();
    }
    *fmt = *f;
  }
  FailureOr<BlockScale> sa = matchScale(extA.getScale(), "a", why);
  if (failed(sa)) return failure();
  FailureOr<BlockScale> sb = matchScale(extB.getScale(), "b", why);
  if (failed(sb)) return failure();
  m.sa = *sa;
  m.sb = *sb;
  return m;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// The scale code as i32: bitcast f8E8M0FNU -> i8, zero-extend; a constant when known.
Value codeI32(OpBuilder &b, Location loc, const BlockScale &s) {
  Type i32 = b.getI32Type();
  if (s.code) return arith::ConstantIntOp::create(b, loc, i32, int64_t(*s.code));
  Value v = s.scalar;
  if (isa<VectorType>(v.getType())) v = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});  // vector<1x...>
  Value i8 = s.bits ? v : Value(arith::BitcastOp::create(b, loc, b.getI8Type(), v));
  return arith::ExtUIOp::create(b, loc, i32, i8);
}

/// The guard as an i1: OR over regions of (lo <= xa <= hi) && (lo <= xb <= hi) && (lo <= e <= hi),
/// with xa, xb <= 254 always required (code 255 is NaN and never inside). Comparisons a
/// region does not need (a bound that every code satisfies) are left out.
Value buildGuardCondition(OpBuilder &b, Location loc, const Guard &g, Value xa, Value xb, Value e) {
  Type i32 = b.getI32Type();
  auto cst = [&](int v) { return arith::ConstantIntOp::create(b, loc, i32, int64_t(v)); };
  Value any;
  for (const Region &r : g.regions) {
    Value all;
    auto conj = [&](Value c) { all = all ? Value(arith::AndIOp::create(b, loc, all, c)) : c; };
    // Each variable: (value, range, smallest and largest value it can take).
    struct Var { Value v; CodeRange r; int min, max; };
    for (const Var &x : {Var{xa, r.xa, 0, 255}, Var{xb, r.xb, 0, 255}, Var{e, r.e, -254, 256}}) {
      int hi = (x.v == e) ? x.r.hi : std::min(x.r.hi, kMaxCode);
      if (x.r.lo > x.min) conj(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x.v, cst(x.r.lo)));
      if (hi < x.max) conj(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, x.v, cst(hi)));
    }
    any = any ? Value(arith::OrIOp::create(b, loc, any, all)) : all;
  }
  if (!any) any = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  return any;
}

/// How the post placement scales: 2^e as an f32 (one f32 multiply) where every e it meets
/// allows that, else as an f64.
enum class PostScaling { F32, F32WithSubnormalPow2, F64 };

/// The smallest e for which 2^e may be an f32 operand in denormal mode `dm`: -149 (2^e is
/// then an f32 subnormal, exact), but -126 under daz, which would read a subnormal operand as
/// zero. The largest is 127 (2^128 is no f32).
int lowestF32Pow2(DenormalMode dm) { return dm == DenormalMode::DAZ ? -126 : -149; }

/// The scaling for the e values in [eLo, eHi] (docs/mlir.md, "The math"): rnd(2^e D) is ONE
/// f32 multiply of the exact f32 values D and 2^e when 2^e is an f32 value the hardware reads
/// as it is (e in [lowestF32Pow2(dm), 127]); otherwise the f64 route.
PostScaling postScaling(int eLo, int eHi, DenormalMode dm) {
  if (eLo < lowestF32Pow2(dm) || eHi > 127) return PostScaling::F64;
  return eLo < -126 ? PostScaling::F32WithSubnormalPow2 : PostScaling::F32;
}

/// The smallest and largest e of the code pairs in `g` (Region::tightened: the bounds its
/// pairs reach; an empty region reaches none).
std::pair<int, int> eRange(const Guard &g) {
  int lo = kMaxCode + 1, hi = -kMaxCode - 1;  // e = xa + xb - 254 lies in [-254, 254]
  for (const Region &r : g.regions) {
    const Region t = r.tightened();
    if (t.count() == 0) continue;
    lo = std::min(lo, t.e.lo);
    hi = std::max(hi, t.e.hi);
  }
  return {lo, hi};
}

/// Under ftz and daz the model rounds and then flushes a result below 2^-126; x86 (like any
/// hardware that detects tininess before rounding) also flushes an exact result just below
/// 2^-126 that rounds up to 2^-126. Both placements meet no exact value below 2^-126 at all
/// where every dequantized element 2^sa a_i, 2^sb b_i and every product grid 2^(e + qa + qb)
/// is at least 2^-126 (products and sums are multiples of those grids). Returns why some
/// region of `g` is not such a set, or "" when all are (docs/mlir.md, "Denormal mode").
std::string tinyValuesInside(const Guard &g, const ElementFormat &fa, const ElementFormat &fb) {
  const int emin = -126, qa = fa.quantumExp(), qb = fb.quantumExp();
  for (const Region &r : g.regions) {
    const Region t = r.tightened();  // the smallest xa, xb and e its pairs reach
    if (t.count() == 0) continue;
    if (t.xa.lo - 127 + qa < emin || t.xb.lo - 127 + qb < emin || t.e.lo + qa + qb < emin)
      return "the agree region {" + r.str() +
             "} reaches values below 2^-126, where hardware that detects tininess before rounding (x86) "
             "flushes results that the model's ftz keeps";
  }
  return "";
}

/// The post placement: R = rnd_f32(2^e * D), D = Seq_i rnd_f32(a_i * b_i). `e` is an i32
/// value, or `eConst` when the codes are constants. `scaling` (postScaling of the e values
/// this code can meet) says whether 2^e is an f32 (normal only, or also subnormal) or an f64.
Value buildPost(OpBuilder &b, Location loc, const MxBlock &m, Value e, std::optional<int> eConst,
                PostScaling scaling) {
  auto vf32 = VectorType::get({m.k}, b.getF32Type());
  Value a32 = arith::ExtFOp::create(b, loc, vf32, m.a, arith::FastMathFlagsAttr());  // exact
  Value b32 = arith::ExtFOp::create(b, loc, vf32, m.b, arith::FastMathFlagsAttr());  // exact
  Value p = arith::MulFOp::create(b, loc, a32, b32);  // exact: products of MX elements fit f32
  Value d = vector::ReductionOp::create(b, loc, vector::CombiningKind::ADD, p);  // ordered: seq
  if (scaling != PostScaling::F64) {
    Type i32 = b.getI32Type();
    auto cst = [&](int v) { return arith::ConstantIntOp::create(b, loc, i32, int64_t(v)); };
    Value pow2;
    if (eConst) {
      pow2 = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(std::ldexp(1.0f, *eConst)));  // exact
    } else {
      // (One op per statement: the emitted order is fixed.)
      // Normal 2^e: biased exponent e + 127 (1..254), mantissa 0.
      Value eN = e;
      if (scaling == PostScaling::F32WithSubnormalPow2) {
        Value lowest = cst(-126);
        eN = arith::MaxSIOp::create(b, loc, e, lowest);
      }
      Value bias = cst(127);
      Value biased = arith::AddIOp::create(b, loc, eN, bias);
      Value mantissaBits = cst(23);
      Value bits = arith::ShLIOp::create(b, loc, biased, mantissaBits);
      if (scaling == PostScaling::F32WithSubnormalPow2) {
        // Subnormal 2^e (e in -149..-127): the single mantissa bit 1 << (e + 149); the shift
        // is clamped to 0..22 so that it is defined for every e.
        Value c149 = cst(149);
        Value up = arith::AddIOp::create(b, loc, e, c149);
        Value c0 = cst(0);
        Value nonneg = arith::MaxSIOp::create(b, loc, up, c0);
        Value c22 = cst(22);
        Value sh = arith::MinSIOp::create(b, loc, nonneg, c22);
        Value one = cst(1);
        Value sub = arith::ShLIOp::create(b, loc, one, sh);
        Value lowestNormal = cst(-126);
        Value normal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, e, lowestNormal);
        bits = arith::SelectOp::create(b, loc, normal, bits, sub);
      }
      pow2 = arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
    }
    return arith::MulFOp::create(b, loc, d, pow2);  // the one rounding: both factors are exact f32
  }
  Value d64 = arith::ExtFOp::create(b, loc, b.getF64Type(), d, arith::FastMathFlagsAttr());  // exact
  Value pow2;
  if (eConst) {
    pow2 = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(std::ldexp(1.0, *eConst)));
  } else {
    // 2^e as f64 from its bits: biased exponent e + 1023 (in 769..1277 for |e| <= 254), mantissa 0.
    Value biased = arith::AddIOp::create(b, loc, e, arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1023));
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), biased);
    Value bits = arith::ShLIOp::create(b, loc, wide, arith::ConstantIntOp::create(b, loc, b.getI64Type(), 52));
    pow2 = arith::BitcastOp::create(b, loc, b.getF64Type(), bits);
  }
  Value scaled = arith::MulFOp::create(b, loc, d64, pow2);  // exact in f64
  return arith::TruncFOp::create(b, loc, b.getF32Type(), scaled);  // the one rounding
}

/// Erases `op` and, recursively, the pure producers it leaves without uses.
void eraseDeadChain(RewriterBase &rewriter, Operation *op) {
  if (!op || !op->use_empty() || !isPure(op)) return;
  SmallVector<Operation *> producers;
  for (Value v : op->getOperands())
    if (Operation *d = v.getDefiningOp()) producers.push_back(d);
  rewriter.eraseOp(op);
  for (Operation *d : producers) eraseDeadChain(rewriter, d);
}

/// The pattern: a matched MX block is rewritten to post (static), guarded (runtime), or left
/// unchanged with a remark.
struct MxScalePlacementPattern : OpRewritePattern<vector::ReductionOp> {
  MxScalePlacementPattern(MLIRContext *ctx, MxScalePlacementState &state)
      : OpRewritePattern(ctx), state(state) {}

  LogicalResult matchAndRewrite(vector::ReductionOp op, PatternRewriter &rewriter) const override {
    if (state.mode == PlacementMode::Off) return rewriter.notifyMatchFailure(op, "mode=off");
    bool candidate = false;
    std::string why;
    FailureOr<MxBlock> m = matchMxBlock(op, candidate, why);
    if (failed(m)) {
      if (!candidate) return rewriter.notifyMatchFailure(op, "not an MX block dot product");
      return leave(op, rewriter, why);
    }
    // The floating-point environment: the pass option, the function's LLVM attributes, or
    // ieee. Only tables certified for that mode decide (never an ieee table under ftz/daz).
    std::string fnAttr, fnWhy;
    std::optional<DenormalMode> fnMode = functionDenormalMode(op, fnAttr, fnWhy);
    if (!fnWhy.empty()) return leave(op, rewriter, fnWhy);
    if (state.denormal && fnMode && *state.denormal != *fnMode)
      return leave(op, rewriter,
                   std::string("the pass option denormal=") + toString(*state.denormal) + " contradicts the function's " +
                       fnAttr + " (denormal mode " + toString(*fnMode) + ")");
    const DenormalMode dm = state.denormal ? *state.denormal : fnMode ? *fnMode : DenormalMode::IEEE;
    const std::string modeNote =
        std::string(" [denormal mode ") + toString(dm) +
        (state.denormal ? ": the pass option" + (fnMode ? ", as the function's " + fnAttr : std::string())
         : fnMode       ? ": the function's " + fnAttr
                        : ": the default, no option or function attribute") +
        "]";
    TableLookup t = state.tables->lookup(m->fa, m->fb, m->k, dm);
    if (!t.table) {
      if (t.error) return fail(op, rewriter, t.reason);
      return leave(op, rewriter, t.reason + modeNote);
    }
    LoadedTable &table = *t.table;
    const Guard &guard = table.table.agree;
    std::string tableName = llvm::sys::path::filename(table.path).str();
    // Decisions that need no table claim: the table is not verified for them.
    if (guard.regions.empty())
      return leave(op, rewriter,
                   "the agree set of " + tableName + (table.compact ? " (uncertified compact table)" : "") +
                       " is empty");
    if (dm != DenormalMode::IEEE)
      if (std::string tiny = tinyValuesInside(guard, m->fa, m->fb); !tiny.empty())
        return leave(op, rewriter, tiny + " (" + tableName + ")" + modeNote);
    bool constant = m->sa.code && m->sb.code;
    if (state.mode == PlacementMode::Static && !constant)
      return leave(op, rewriter, "mode=static and the scale codes are not compile-time constants");
    bool decideStatically = constant && state.mode != PlacementMode::Runtime;
    int xa = decideStatically ? int(*m->sa.code) : 0, xb = decideStatically ? int(*m->sb.code) : 0;
    std::string codes =
        decideStatically ? "scale codes xa = " + std::to_string(xa) + ", xb = " + std::to_string(xb) : "";
    if (decideStatically && (xa == ScaleCode::kNaN || xb == ScaleCode::kNaN))
      return leave(op, rewriter, codes + ": code 255 is NaN (both placements give NaN; dequant already does)");

    // From here on the agree set decides: the table must be admitted (a certificate the
    // checker accepts, or a compact table with allow-uncertified=true).
    std::string error, warning;
    LogicalResult admitted = state.tables->admit(table, error, warning);
    if (!warning.empty()) mlir::emitWarning(op->getLoc(), "mx-scale-placement: ") << warning;
    if (failed(admitted)) {
      if (!error.empty()) return fail(op, rewriter, error);
      return rewriter.notifyMatchFailure(op, "guard table '" + table.path + "' was refused");
    }
    // Only a table the checker accepted is called certified.
    bool verified = table.trust == LoadedTable::Trust::Verified;
    if (!verified) tableName += " (uncertified compact table, not checked)";
    std::string agreeSet = verified ? "the certified agree set " : "the agree set ";
    std::string guardText = "{" + guard.str() + "}";

    if (decideStatically) {
      int e = xa + xb - 254;
      codes += " (e = " + std::to_string(e) + ")";
      if (!guard.contains(xa, xb))
        return leave(op, rewriter, codes + " lie outside " + agreeSet + guardText + " of " + tableName + modeNote);
      remark(op, "rewrote dequant to post: " + codes + " lie in " + agreeSet + guardText + " of " +
                     tableName + modeNote);
      rewriter.setInsertionPoint(op);
      Value r = buildPost(rewriter, op.getLoc(), *m, Value(), e, postScaling(e, e, dm));
      replaceAndClean(rewriter, *m, r);
      return success();
    }

    // Runtime guard: post where the codes lie in the agree set, the original ops elsewhere.
    remark(op, "inserted a runtime guard: post where (xa, xb) lies in " + agreeSet + guardText +
                   " of " + tableName + ", dequant elsewhere" + modeNote);
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value xaV = codeI32(rewriter, loc, m->sa), xbV = codeI32(rewriter, loc, m->sb);
    Value e = arith::SubIOp::create(rewriter, loc, arith::AddIOp::create(rewriter, loc, xaV, xbV),
                                    arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), 254));
    Value cond = buildGuardCondition(rewriter, loc, guard, xaV, xbV, e);
    const MxBlock &blk = *m;
    const auto [eLo, eHi] = eRange(guard);
    const PostScaling scaling = postScaling(eLo, eHi, dm);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, cond,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, buildPost(b, l, blk, e, std::nullopt, scaling));
        },
        [&](OpBuilder &b, Location l) {
          IRMapping map;
          b.clone(*blk.extA, map);
          if (blk.extB != blk.extA) b.clone(*blk.extB, map);
          b.clone(*blk.mul, map);
          Operation *red = b.clone(*blk.reduction, map);
          scf::YieldOp::create(b, l, red->getResult(0));
        });
    ifOp->setAttr(kGuardAttrName, rewriter.getStringAttr(guard.str()));
    ifOp->setAttr(kPostAttrName, rewriter.getStringAttr(scaling == PostScaling::F64 ? "f64" : "f32"));
    replaceAndClean(rewriter, *m, ifOp.getResult(0));
    return success();
  }

private:
  /// Emits a remark (when enabled) prefixed with the pass name.
  void remark(Operation *op, const std::string &msg) const {
    if (state.emitRemarks) mlir::emitRemark(op->getLoc(), "mx-scale-placement: ") << msg;
  }
  /// Reports an error (the pass then fails: no output, never a silent rewrite).
  LogicalResult fail(vector::ReductionOp op, PatternRewriter &rewriter, const std::string &why) const {
    state.hadError = true;
    mlir::emitError(op->getLoc(), "mx-scale-placement: ") << why;
    return rewriter.notifyMatchFailure(op, why);
  }
  /// Leaves the block unchanged, saying why.
  LogicalResult leave(vector::ReductionOp op, PatternRewriter &rewriter, const std::string &why) const {
    remark(op, "left unchanged: " + why);
    return rewriter.notifyMatchFailure(op, why);
  }
  /// Replaces the reduction by `r` and erases the original ops that nothing else uses.
  static void replaceAndClean(PatternRewriter &rewriter, const MxBlock &m, Value r) {
    Operation *mul = m.mul;
    rewriter.replaceOp(m.reduction, r);
    eraseDeadChain(rewriter, mul);
  }

  MxScalePlacementState &state; ///< options, tables and the error flag of the running pass
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct MxScalePlacementPass : PassWrapper<MxScalePlacementPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MxScalePlacementPass)

  MxScalePlacementPass() = default;
  MxScalePlacementPass(const MxScalePlacementPass &other) : PassWrapper(other) {}

  StringRef getArgument() const override { return "mx-scale-placement"; }
  StringRef getDescription() const override {
    return "Rewrite MX block dot products from the dequant to the post scale placement where a "
           "certified guard table allows it (statically, or behind a runtime scf.if guard)";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, scf::SCFDialect, vector::VectorDialect>();
  }

  void runOnOperation() override {
    TrustOptions trust;
    trust.check.checker = checker;
    trust.check.cacheDir = checkCache;
    trust.allowUncertified = allowUncertified;
    std::unique_ptr<GuardTableSource> tables;
    if (!guards.empty()) {
      std::string err;
      tables = GuardTableSource::fromFile(guards, trust, err);
      if (!tables) {
        mlir::emitError(getOperation()->getLoc(), "mx-scale-placement: cannot use guards=") << err;
        return signalPassFailure();
      }
    } else {
      std::string dir = tablesDir.empty() ? defaultTablesDir() : std::string(tablesDir);
      std::error_code ec;
      if (!std::filesystem::is_directory(dir, ec)) {
        mlir::emitError(getOperation()->getLoc(), "mx-scale-placement: tables-dir '") << dir << "' is not a directory";
        return signalPassFailure();
      }
      tables = GuardTableSource::fromDirectory(dir, trust);
    }
    MxScalePlacementState state;
    state.mode = mode;
    if (!denormal.empty()) {
      state.denormal = parseDenormalMode(denormal);
      if (!state.denormal) {
        mlir::emitError(getOperation()->getLoc(), "mx-scale-placement: denormal='")
            << denormal << "' is not a denormal mode (expected ieee, ftz or daz)";
        return signalPassFailure();
      }
    }
    state.tables = tables.get();
    RewritePatternSet patterns(&getContext());
    populateMxScalePlacementPatterns(patterns, state);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    if (state.hadError) signalPassFailure();
  }

  Option<std::string> guards{*this, "guards",
                             llvm::cl::desc("A certificate or exported guard table to use for every block, or a "
                                            "sweep index (INDEX.json, or a directory holding index.json) whose "
                                            "certified entries are looked up by configuration (default: the "
                                            "committed certified tables)"),
                             llvm::cl::init("")};
  Option<std::string> tablesDir{*this, "tables-dir",
                                llvm::cl::desc("Directory of certified tables looked up by configuration "
                                               "(default: <prefix>/share/mxcert/tables when installed, "
                                               "else the source tree's certs/tables)"),
                                llvm::cl::init("")};
  Option<std::string> checker{
      *this, "checker",
      llvm::cl::desc("The certificate checker (`mxcert`) that must accept a certificate before it is used "
                     "(default: $MXCERT_CHECKER, else mxcert next to mxcert-opt or in <prefix>/bin of the installed "
                     "plugin, in its build tree, or on PATH)"),
      llvm::cl::init("")};
  Option<std::string> checkCache{
      *this, "check-cache",
      llvm::cl::desc("Directory caching the certificates the checker accepted, by content hash; 'none': no "
                     "cache (default: $MXCERT_CHECK_CACHE, else $XDG_CACHE_HOME/mxcert/checked, else "
                     "$HOME/.cache/mxcert/checked)"),
      llvm::cl::init("")};
  Option<std::string> denormal{
      *this, "denormal",
      llvm::cl::desc("The f32 denormal mode the code runs in: ieee (subnormals kept), ftz (results flushed), daz "
                     "(results flushed and subnormal operands read as zero); only tables certified for that mode "
                     "(--subnormals keep, ftz, daz) are used (default: the function's denormal_fp_math_f32 / "
                     "denormal_fp_math attribute or passthrough entry, else ieee)"),
      llvm::cl::init("")};
  Option<bool> allowUncertified{
      *this, "allow-uncertified",
      llvm::cl::desc("Use compact guard tables (mxcert export --as json), which carry no evidence, "
                     "unchecked (default: refuse them)"),
      llvm::cl::init(false)};
  Option<PlacementMode> mode{
      *this, "mode", llvm::cl::desc("How to decide"), llvm::cl::init(PlacementMode::Auto),
      llvm::cl::values(
          clEnumValN(PlacementMode::Auto, "auto", "constant scales: at compile time; others: runtime guard"),
          clEnumValN(PlacementMode::Static, "static", "only constant scales, decided at compile time"),
          clEnumValN(PlacementMode::Runtime, "runtime", "always a runtime guard"),
          clEnumValN(PlacementMode::Off, "off", "leave the IR unchanged"))};
};

}  // namespace

void populateMxScalePlacementPatterns(RewritePatternSet &patterns, MxScalePlacementState &state) {
  patterns.add<MxScalePlacementPattern>(patterns.getContext(), state);
}

std::unique_ptr<Pass> createMxScalePlacementPass() { return std::make_unique<MxScalePlacementPass>(); }

void registerMxScalePlacementPass() { PassRegistration<MxScalePlacementPass>(); }

}  // namespace mxcert::mlir_pass

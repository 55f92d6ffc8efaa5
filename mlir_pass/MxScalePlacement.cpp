// mlir_pass/MxScalePlacement.cpp — matcher, guard lookup, compile-time decision, runtime
// guard emission and the `post` computation of the `--mx-scale-placement` pass.
//
// The math (SPEC §3, §5; rnd = f32 rounding to nearest even, subnormals as the denormal mode
// says: kept, or flushed (ftz, daz; docs/semantics.md), each mode served by its own tables):
//   dequant (the matched IR):  R = Seq_i rnd(rnd(2^sa a_i) * rnd(2^sb b_i))
//   post    (what we emit):    R = rnd(2^e * Seq_i rnd(a_i * b_i)),  e = xa + xb - 254
// where Seq is the ordered sum ((t_0 + t_1) + t_2) + ... rounding after every addition (or,
// for the other matched roots, the sum their lowering computes from a zero accumulator: the
// post side sums with a clone of the same op, so over the same tree).
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
#ifndef MXCERT_GROWN_DIR
#define MXCERT_GROWN_DIR "certs/grown"
#endif
#ifndef MXCERT_NVFP4_DIR
#define MXCERT_NVFP4_DIR "certs/nvfp4"
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

/// A committed set searched after the default tables: `installed` of an installed pass, the
/// source tree's `sourceDir` (when it exists) in the build tree. Only beside the default
/// tables: an installed pass never reads the source tree.
static std::string defaultSetDir(std::string (*installed)(const CodeFile &), const char *sourceDir) {
  if (!installedTablesDir(codeFile()).empty()) return installed(codeFile());
  std::error_code ec;
  return std::filesystem::is_directory(sourceDir, ec) ? sourceDir : "";
}

std::string defaultGrownDir() { return defaultSetDir(installedGrownDir, MXCERT_GROWN_DIR); }

std::string defaultNvfp4Dir() { return defaultSetDir(installedNvfp4Dir, MXCERT_NVFP4_DIR); }

//===----------------------------------------------------------------------===//
// Guard tables
//===----------------------------------------------------------------------===//

const char *toString(ReductionOrder o) { return o == ReductionOrder::Seq ? "seq" : "any"; }

/// The configuration of a table for a block the pass matches: a x b, f32 rne, k leaves
/// (k <= kMaxK), subnormals as the denormal mode requires, the seq tree or every tree.
static ModelConfig blockConfig(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                               ReductionOrder tree, ScaleFormat scale) {
  ModelConfig c{a, b, AccSpec{*findAccFormat("f32"), Rounding::RNE, subnormalsOf(mode)}, Tree::seq(k)};
  c.scale = scale;
  if (tree == ReductionOrder::Any) c.anyOrder = std::max(k, 2);  // "any": no fan-in limit
  return c;
}

std::string GuardTableSource::tableFileName(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                            ReductionOrder tree, ScaleFormat scale) {
  return certs::tableFileName(blockConfig(a, b, k, mode, tree, scale), toString(tree), Placement::Dequant,
                              Placement::Post, Relation::Bitwise, "solver");
}

std::string GuardTableSource::tableCommand(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                           ReductionOrder tree, ScaleFormat scale) {
  std::string sub = mode == DenormalMode::IEEE ? "" : std::string(" --subnormals ") + toString(subnormalsOf(mode));
  const std::string formats =
      scale == ScaleFormat::E4M3 ? std::string("--format nvfp4") : "--a " + a.name + " --b " + b.name;
  return "mxcert table " + formats + " --acc f32" + sub + " --k " + std::to_string(k) + " --tree " + toString(tree) +
         " --lhs dequant --rhs post --relation bitwise -o " + tableFileName(a, b, k, mode, tree, scale);
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
  t.table = certs::guardTableFromJson(j, /*allowNvfp4=*/true);  // compact tables are never verified (nothing to check)
  return t;
}

LoadedTable GuardTableSource::loadEntry(const certs::IndexEntry &e) {
  LoadedTable t;
  t.path = e.path;
  std::string bytes;
  t.table = certs::readIndexedTable(e, &bytes, /*allowNvfp4=*/true);  // a certificate (never compact) of exactly the entry's table
  t.sha256 = certs::sha256Hex(bytes);            // of the very bytes parsed, as in load()
  return t;
}

std::unique_ptr<GuardTableSource> GuardTableSource::fromFile(const std::string &file, const TrustOptions &trust,
                                                             std::string &error) {
  std::unique_ptr<GuardTableSource> s(new GuardTableSource(trust));
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
      s->sources_.push_back(Source{certs::readSweepIndex(file), "", ""});  // DIR/index.json
      return s;
    }
    std::string bytes = certs::readRegularFile(file, certs::kMaxFileBytes);
    nlohmann::json j = certs::parseStrict(bytes, "'" + file + "'");
    if (certs::isSweepIndex(j))
      s->sources_.push_back(Source{certs::sweepIndexFromJson(j, file), "", ""});
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
  s->sources_.push_back(Source{std::nullopt, dir, ""});
  return s;
}

bool GuardTableSource::appendIndex(const std::string &dir, std::string &error) {
  try {
    sources_.push_back(Source{certs::readSweepIndex(dir), "", ""});
    return true;
  } catch (const std::exception &e) {  // certs::SchemaError, and anything else the reader throws
    error = "'" + dir + "': " + e.what();
    return false;
  }
}

std::unique_ptr<GuardTableSource> GuardTableSource::fromList(const std::vector<std::string> &paths,
                                                             const std::string &fallbackDir,
                                                             const TrustOptions &trust, std::string &error) {
  std::unique_ptr<GuardTableSource> s(new GuardTableSource(trust));
  for (const std::string &path : paths) {
    try {
      std::error_code ec;
      if (std::filesystem::is_directory(path, ec)) {
        if (std::filesystem::exists(path + "/index.json", ec))
          s->sources_.push_back(Source{certs::readSweepIndex(path), "", ""});
        else
          s->sources_.push_back(Source{std::nullopt, path, ""});
        continue;
      }
      std::string bytes = certs::readRegularFile(path, certs::kMaxFileBytes);
      nlohmann::json j = certs::parseStrict(bytes, "'" + path + "'");
      if (certs::isSweepIndex(j)) {
        s->sources_.push_back(Source{certs::sweepIndexFromJson(j, path), "", ""});
        continue;
      }
      s->files_.emplace(path, loadParsed(path, bytes, j));  // validated now, used where it fits
      s->sources_.push_back(Source{std::nullopt, "", path});
    } catch (const std::exception &e) {  // certs::SchemaError, and anything else the reader throws
      error = "'" + path + "': " + e.what();
      return nullptr;
    }
  }
  s->sources_.push_back(Source{std::nullopt, fallbackDir, ""});
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

/// "e2m1 x e2m1, k = 2, seq, f32 rne keep, dequant/post bitwise" ("e2m1 x e2m1 (nvfp4), ..."
/// with e4m3 scales)
static std::string describe(const ElementFormat &a, const ElementFormat &b, ScaleFormat scale, int k,
                            const std::string &tree, const std::string &acc, Placement lhs, Placement rhs,
                            Relation rel) {
  return a.name + " x " + b.name + (scale == ScaleFormat::E4M3 ? " (nvfp4)" : "") + ", k = " + std::to_string(k) + ", tree " + tree + ", " + acc + ", " +
         toString(lhs) + "/" + toString(rhs) + " " + toString(rel);
}

std::string GuardTableSource::mismatch(const ModelConfig &c, Placement lhs, Placement rhs, Relation rel,
                                       const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                       ReductionOrder order, ScaleFormat scale) {
  // An any-order table (every tree, docs/bounds.md) covers seq too; a block whose order the
  // op leaves open needs one.
  const bool treeOk = c.anyOrder || (order == ReductionOrder::Seq && c.tree == Tree::seq(k));
  bool ok = rel == Relation::Bitwise &&
            ((lhs == Placement::Dequant && rhs == Placement::Post) ||
             (lhs == Placement::Post && rhs == Placement::Dequant)) &&
            c.a == a && c.b == b && c.scale == scale && c.k() == k && treeOk && c.acc.fmt.name == "f32" &&
            c.acc.rounding == Rounding::RNE && c.acc.subnormals == subnormalsOf(mode);
  if (ok) return "";
  auto treeName = [&](const Tree &tr) {
    return c.anyOrder ? treeText(c) : tr == Tree::seq(tr.k()) ? std::string("seq") : tr.sexpr();
  };
  std::string acc = c.acc.fmt.name + " " + toString(c.acc.rounding) + " " + toString(c.acc.subnormals);
  return "the table is for " + describe(c.a, c.b, c.scale, c.k(), treeName(c.tree), acc, lhs, rhs, rel) +
         "; the IR needs " +
         describe(a, b, scale, k, order == ReductionOrder::Seq ? "seq" : "any (the op leaves the order open)",
                  std::string("f32 rne ") + toString(subnormalsOf(mode)), Placement::Dequant, Placement::Post,
                  Relation::Bitwise);
}

/// "no certified table for e2m1 x e2m1, k = 4" ("e2m1 x e2m1 (nvfp4)" with e4m3 scales)
static std::string noTable(const ElementFormat &a, const ElementFormat &b, int k, ScaleFormat scale) {
  return "no certified table for " + a.name + " x " + b.name + (scale == ScaleFormat::E4M3 ? " (nvfp4)" : "") +
         ", k = " + std::to_string(k);
}

/// "(seq or any, f32 rne keep, dequant/post bitwise)"
static std::string wanted(DenormalMode mode, ReductionOrder order) {
  return std::string("(") + (order == ReductionOrder::Seq ? "seq or any" : "any") + ", f32 rne " +
         toString(subnormalsOf(mode)) + ", dequant/post bitwise)";
}

TableLookup GuardTableSource::lookup(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                     ReductionOrder order, ScaleFormat scale) {
  if (file_) {
    const certs::GuardTable &g = file_->table;
    std::string why = mismatch(g.config, g.lhs, g.rhs, g.relation, a, b, k, mode, order, scale);
    if (why.empty()) return TableLookup{&*file_, "", false};
    return TableLookup{nullptr, "guard table '" + file_->path + "' does not fit this block: " + why, false};
  }
  auto key = std::make_tuple(a.name, b.name, k, int(mode), int(order), int(scale));
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  TableLookup &entry = cache_[key];
  if (k > kMaxK) {
    entry.reason = noTable(a, b, k, scale) + ": mxcert handles blocks of at most " + std::to_string(kMaxK) + " elements";
    return entry;
  }
  // The sources in order: the first table that fits serves; an unreadable one is an error.
  std::vector<std::string> reasons;
  for (const Source &src : sources_) {
    TableLookup r = lookupIn(src, a, b, k, mode, order, scale);
    if (r.table) {
      // The table's own configuration decides, not its file name or its index entry.
      const certs::GuardTable &g = r.table->table;
      std::string why = mismatch(g.config, g.lhs, g.rhs, g.relation, a, b, k, mode, order, scale);
      if (why.empty()) return entry = r;
      r.reason = "guard table '" + r.table->path + "' does not fit this block: " + why;
      r.table = nullptr;
    }
    if (r.error) return entry = r;
    reasons.push_back(r.reason);
  }
  for (const std::string &why : reasons) entry.reason += (entry.reason.empty() ? "" : "; ") + why;
  return entry;
}

TableLookup GuardTableSource::lookupIn(const Source &src, const ElementFormat &a, const ElementFormat &b, int k,
                                       DenormalMode mode, ReductionOrder order, ScaleFormat scale) {
  if (src.index) return lookupIndex(*src.index, a, b, k, mode, order, scale);
  if (!src.dir.empty()) return lookupDirectory(src.dir, a, b, k, mode, order, scale);
  return TableLookup{&files_.at(src.file), "", false};  // one certificate: its configuration decides
}

LoadedTable &GuardTableSource::loadOnce(const std::string &path) {
  if (auto f = files_.find(path); f != files_.end()) return f->second;
  return files_.emplace(path, load(path)).first->second;
}

TableLookup GuardTableSource::lookupDirectory(const std::string &dir, const ElementFormat &a, const ElementFormat &b,
                                              int k, DenormalMode mode, ReductionOrder order, ScaleFormat scale) {
  TableLookup r;
  // Seq blocks: the seq table, else the any-order table; blocks of open order: the any-order table.
  std::vector<ReductionOrder> trees = {order};
  if (order == ReductionOrder::Seq) trees.push_back(ReductionOrder::Any);
  std::string path;
  for (ReductionOrder t : trees) {
    std::string p = dir + "/" + tableFileName(a, b, k, mode, t, scale);
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) {
      path = p;
      break;
    }
  }
  if (path.empty()) {
    r.reason = noTable(a, b, k, scale) + " " + wanted(mode, order) + " in '" + dir + "'; make one with `" +
               tableCommand(a, b, k, mode, order, scale) + "` and pass guards=" + tableFileName(a, b, k, mode, order, scale);
    return r;
  }
  try {
    r.table = &loadOnce(path);
  } catch (const std::exception &e) {
    r.reason = std::string("cannot read guard table: ") + e.what();
    r.error = true;
  }
  return r;
}

TableLookup GuardTableSource::lookupIndex(const certs::SweepIndex &index, const ElementFormat &a,
                                          const ElementFormat &b, int k, DenormalMode mode, ReductionOrder order,
                                          ScaleFormat scale) {
  TableLookup r;
  const certs::IndexEntry *use = nullptr, *uncertified = nullptr;
  for (const certs::IndexEntry &e : index.entries) {
    if (!mismatch(e.config, e.lhs, e.rhs, e.relation, a, b, k, mode, order, scale).empty()) continue;
    if (e.certified()) {
      use = &e;
      break;
    }
    if (!uncertified) uncertified = &e;
  }
  const std::string where = noTable(a, b, k, scale) + " " + wanted(mode, order) + " in index '" + index.path + "'";
  if (!use && uncertified) {
    // Never read: an entry that is not certified is no table at all.
    r.reason = where + ": " + uncertified->label() + " has status " + uncertified->status;
    return r;
  }
  if (!use) {
    r.reason = where + " (no entry of this configuration); make one with `" +
               tableCommand(a, b, k, mode, order, scale) + "` and pass guards=" + tableFileName(a, b, k, mode, order, scale);
    return r;
  }
  if (auto f = files_.find(use->path); f != files_.end()) {
    r.table = &f->second;
    return r;
  }
  try {
    r.table = &files_.emplace(use->path, loadEntry(*use)).first->second;
  } catch (const std::exception &e) {
    r.reason = std::string("cannot read guard table: ") + e.what();
    r.error = true;
  }
  return r;
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

std::optional<ScaleFormat> scaleFormatOf(mlir::Type t) {
  if (isa<Float8E8M0FNUType>(t)) return ScaleFormat::E8M0;
  if (isa<Float8E4M3FNType>(t)) return ScaleFormat::E4M3;
  return std::nullopt;
}

namespace {

/// Whether `t` is a scale element type the pass reads (scaleFormatOf).
bool isScaleType(Type t) { return scaleFormatOf(t).has_value(); }

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
  /// In a tile (one dot product per row of a `vector<MxK>` operand): `scalar` is a
  /// `vector<Mx1x...>` holding one code per row, broadcast along the row (or a `vector<M>`,
  /// broadcast to `vector<KxM>` and transposed).
  bool perRow = false;
  std::vector<unsigned> rowCodes; ///< when perRow: the M codes, if they are compile-time constants
  /// When not empty: the block's code is the element of `scalar` (a vector of one code per
  /// block) at this position (a slice of a per-block scale vector; traceBlockScale).
  SmallVector<int64_t> pos;
};

/// The 8-bit scale code of a constant element: an f8E8M0FNU value's bits, or an i8's.
std::optional<unsigned> codeOfAttr(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a)) return unsigned(f.getValue().bitcastToAPInt().getZExtValue());
  if (auto i = dyn_cast<IntegerAttr>(a)) return unsigned(i.getValue().getZExtValue() & 0xFF);
  return std::nullopt;
}

/// The codes of a constant vector of scale codes (one per row or column), or none when `v`
/// is not a constant or does not hold `n` codes.
std::vector<unsigned> constantCodes(Value v, int64_t n) {
  std::vector<unsigned> codes;
  DenseElementsAttr dense;
  if (!matchPattern(v, m_Constant(&dense))) return codes;
  for (Attribute a : dense.getValues<Attribute>())
    if (std::optional<unsigned> c = codeOfAttr(a)) codes.push_back(*c);
  if (int64_t(codes.size()) != n) codes.clear();
  return codes;
}

/// The one scale code of the elements [lo, hi) of the 1-D vector `v`, traced back through
/// `vector.extract_strided_slice` (1-D, stride 1), `vector.shape_cast` of a 2-D per-block
/// scale (a `vector.broadcast` of a `vector<NBx1x...>`, one code per block of BS elements, to
/// `vector<NBxBS x ...>`, whose rows are the blocks), `vector.insert_strided_slice`,
/// `vector.shuffle` (every element of the range taking one lane) and constants. Fills
/// `s.scalar` with the value holding the code and `s.pos` with the block's position in it
/// (empty: `s.scalar` is the code). Returns false with `why` set when the range spans several
/// blocks (not one MX block) or the form is another one.
bool traceBlockScale(Value v, int64_t lo, int64_t hi, BlockScale &s, std::string &why) {
  if (auto slice = v.getDefiningOp<vector::ExtractStridedSliceOp>()) {
    auto src = cast<VectorType>(slice.getSource().getType());
    SmallVector<int64_t> off, str;
    for (Attribute a : slice.getOffsets()) off.push_back(cast<IntegerAttr>(a).getInt());
    for (Attribute a : slice.getStrides()) str.push_back(cast<IntegerAttr>(a).getInt());
    if (src.getRank() != 1 || str[0] != 1) {
      why = "its slice is not a 1-D slice of stride 1";
      return false;
    }
    return traceBlockScale(slice.getSource(), lo + off[0], hi + off[0], s, why);
  }
  if (auto sc = v.getDefiningOp<vector::ShapeCastOp>()) {
    auto src = cast<VectorType>(sc.getSource().getType());
    auto bc = sc.getSource().getDefiningOp<vector::BroadcastOp>();
    auto from = bc ? dyn_cast<VectorType>(bc.getSource().getType()) : VectorType();
    if (src.getRank() != 2 || src.isScalable() || !from || from.getShape() != ArrayRef<int64_t>{src.getShape()[0], 1}) {
      why = "it is a vector.shape_cast of " + typeStr(src) +
            ", not of a per-block scale (a vector<NBx1x...> broadcast to vector<NBxBSx...>)";
      return false;
    }
    const int64_t bs = src.getShape()[1], nb = src.getShape()[0];
    if (lo / bs != (hi - 1) / bs) {
      why = "the block's " + std::to_string(hi - lo) + " elements span " + std::to_string((hi - 1) / bs - lo / bs + 1) +
            " of the " + std::to_string(nb) + " scale blocks of " + std::to_string(bs) +
            " elements, so they are not one MX block (a reduction over several blocks is not a sum of per-block "
            "dot products: reduce each block separately, e.g. over vector.extract_strided_slice of one block; "
            "--mx-split-blocks does that where the op leaves the order open)";
      return false;
    }
    s.scalar = bc.getSource();
    s.pos = {lo / bs, 0};
    return true;
  }
  if (auto ins = v.getDefiningOp<vector::InsertStridedSliceOp>()) {
    // A vector assembled from slices: the block's elements must lie in one of them.
    auto dst = cast<VectorType>(ins.getDestVectorType());
    SmallVector<int64_t> off, str;
    for (Attribute a : ins.getOffsets()) off.push_back(cast<IntegerAttr>(a).getInt());
    for (Attribute a : ins.getStrides()) str.push_back(cast<IntegerAttr>(a).getInt());
    const int64_t n = ins.getSourceVectorType().getNumElements();
    if (dst.getRank() != 1 || str[0] != 1) {
      why = "it is built by a vector.insert_strided_slice that is not 1-D of stride 1";
      return false;
    }
    if (lo >= off[0] && hi <= off[0] + n) return traceBlockScale(ins.getValueToStore(), lo - off[0], hi - off[0], s, why);
    if (hi <= off[0] || lo >= off[0] + n) return traceBlockScale(ins.getDest(), lo, hi, s, why);
    why = "the block's elements " + std::to_string(lo) + ".." + std::to_string(hi - 1) +
          " straddle a slice inserted at " + std::to_string(off[0]) + ".." + std::to_string(off[0] + n - 1) +
          " (two scales in one block)";
    return false;
  }
  if (auto sh = v.getDefiningOp<vector::ShuffleOp>()) {
    // A vector.shuffle of 1-D vectors (e.g. one code per block repeated BS times): the block's
    // elements must all take the same lane of the sources; that lane is the block's code.
    auto t1 = dyn_cast<VectorType>(sh.getV1().getType()), t2 = dyn_cast<VectorType>(sh.getV2().getType());
    if (!t1 || !t2 || t1.getRank() != 1 || t2.getRank() != 1 || t1.isScalable() || t2.isScalable()) {
      why = "it is a vector.shuffle that is not of 1-D vectors";
      return false;
    }
    ArrayRef<int64_t> mask = sh.getMask();
    const int64_t lane = mask[size_t(lo)];
    for (int64_t i = lo; i < hi; ++i)
      if (mask[size_t(i)] != lane || lane < 0) {
        why = "it is a vector.shuffle whose mask takes the block's elements " + std::to_string(lo) + ".." +
              std::to_string(hi - 1) + (lane < 0 ? " from a poison lane" : " from more than one lane (two scales in one block)");
        return false;
      }
    const int64_t n1 = t1.getShape()[0];
    Value src = lane < n1 ? sh.getV1() : sh.getV2();
    const int64_t at = lane < n1 ? lane : lane - n1;
    // The lane traced further where it is a form with one code (a broadcast, a constant, a
    // per-block scale); otherwise the guard reads that lane of the source vector.
    BlockScale inner = s;
    std::string innerWhy;
    if (traceBlockScale(src, at, at + 1, inner, innerWhy)) {
      s = inner;
      return true;
    }
    s.scalar = src;
    s.pos = {at};
    return true;
  }
  if (DenseElementsAttr dense; matchPattern(v, m_Constant(&dense))) {
    // A constant: one code if the block's elements have one.
    auto values = dense.getValues<Attribute>();
    auto codeAt = [&](int64_t i) { return codeOfAttr(values[i]); };
    std::optional<unsigned> c = codeAt(lo);
    for (int64_t i = lo + 1; c && i < hi; ++i)
      if (codeAt(i) != c) c.reset();
    if (!c) {
      why = "it is a constant with more than one code in the block's elements";
      return false;
    }
    s.scalar = v;
    s.pos.clear();
    s.code = c;
    return true;
  }
  if (auto bc = v.getDefiningOp<vector::BroadcastOp>()) {
    // One value for every element (a scalar, or a vector of one).
    auto from = dyn_cast<VectorType>(bc.getSource().getType());
    if (!from || (!from.isScalable() && from.getNumElements() == 1)) {
      s.scalar = bc.getSource();
      s.pos.clear();
      return true;
    }
  }
  why = "it is not a broadcast, a per-block scale or a slice of one";
  return false;
}

/// A `vector.contract` that computes one MX dot product per output element in a layout the
/// fixed forms below do not name (docs/mlir.md, "Any contraction layout"): kind add, one
/// reduction dimension k, every indexing map a projected permutation, both operands indexed by
/// k and the result by every parallel dimension (batch dimensions, a transposed result, a
/// broadcast operand). Result element o is then
///   R[o] = acc[o] + sum over k of lhs[P_lhs(o, k)] * rhs[P_rhs(o, k)]
/// (P_x: the iteration point (o, k) projected by operand x's map), one MX block per output
/// element when each operand's scale is constant along k.
struct ContractLayout {
  SmallVector<int64_t> dimSize;  ///< the size of each iteration dimension
  int64_t kDim = -1;             ///< the reduction dimension
  SmallVector<int64_t> outDims;  ///< the iteration dimension of each result dimension
  SmallVector<int64_t> lhsDims;  ///< the iteration dimension of each lhs dimension
  SmallVector<int64_t> rhsDims;  ///< the iteration dimension of each rhs dimension
  /// The number of result elements.
  int64_t outElements() const {
    int64_t n = 1;
    for (int64_t d : outDims) n *= dimSize[d];
    return n;
  }
  /// The iteration point of result element `flat` (row-major over the result), with k = 0.
  SmallVector<int64_t> pointOf(int64_t flat) const {
    SmallVector<int64_t> p(dimSize.size(), 0);
    for (int64_t r = int64_t(outDims.size()) - 1; r >= 0; --r) {
      p[outDims[r]] = flat % dimSize[outDims[r]];
      flat /= dimSize[outDims[r]];
    }
    return p;
  }
};

/// "(b, i, j)": the position of result element `flat` (row-major) of a ContractLayout.
std::string elementName(const ContractLayout &L, int64_t flat) {
  const SmallVector<int64_t> p = L.pointOf(flat);
  std::string t;
  for (int64_t d : L.outDims) t += (t.empty() ? "" : ", ") + std::to_string(p[size_t(d)]);
  return "(" + t + ")";
}

/// One operand's scale codes in a ContractLayout: the scale vector (of the operand's shape)
/// traced back through `vector.transpose`, `vector.broadcast`, `vector.shape_cast` that adds or
/// drops unit dimensions, and 8-bit `arith.bitcast` to the value that holds the codes, with
/// the iteration dimension that indexes each of its dimensions. The code of the scale at
/// iteration point p is src[q] with q_j = p[srcDims[j]] (0 where srcDims[j] is -1).
struct LayoutScale {
  Value src;  ///< the value holding the codes: an f8E8M0FNU or i8 scalar, or a vector of them
  bool bits = false;  ///< src holds i8 bits (else f8E8M0FNU values)
  /// Per dimension of src: the iteration dimension indexing it, or -1 for a unit dimension.
  /// Never k unless src is a constant (whose codes are then checked to be equal along k).
  SmallVector<int64_t> srcDims;
  std::optional<std::vector<unsigned>> constant;  ///< src's codes (row-major) when it is a constant
  /// The code at iteration point `p` of a constant scale.
  unsigned codeAt(ArrayRef<int64_t> p) const {
    int64_t at = 0;
    auto vt = dyn_cast<VectorType>(src.getType());
    for (size_t j = 0; j < srcDims.size(); ++j) at = at * vt.getShape()[j] + (srcDims[j] < 0 ? 0 : p[srcDims[j]]);
    return (*constant)[size_t(at)];
  }
};

/// The op that sums the products of an MX block (docs/mlir.md, "What the pass matches").
enum class RootKind {
  Reduction,      ///< `vector.reduction <add>, P [, acc]`: the ordered sum (acc first)
  MultiReduction, ///< `vector.multi_reduction <add>, P, acc [0]`: the order is the lowering's
  Contract,       ///< `vector.contract` of A and B into a scalar: the order is the lowering's
};

/// One MX block dot product: SPEC §8's form, or the same products summed by another op.
struct MxBlock {
  Operation *root = nullptr;      ///< R: the op of `kind` (its one result is the f32 dot product)
  RootKind kind = RootKind::Reduction;
  arith::MulFOp mul;              ///< P = arith.mulf A, B (null for vector.contract, which multiplies)
  arith::ScalingExtFOp extA;      ///< A = arith.scaling_extf a, sa
  arith::ScalingExtFOp extB;      ///< B = arith.scaling_extf b, sb
  Value a, b;                     ///< the element vectors
  BlockScale sa, sb;              ///< their scales
  ElementFormat fa, fb;           ///< their formats
  /// The scale format: e8m0 (MX, f8E8M0FNU scales) or e4m3 (NVFP4, f8E4M3FN scales).
  ScaleFormat scale = ScaleFormat::E8M0;
  int k = 0;                      ///< the vector length (the number of products)
  /// 0: one dot product (a scalar result); M: a tile of M dot products, one per row of a
  /// `vector<MxK>` operand (a `vector<Mxf32>` result), each its own MX block.
  int rows = 0;
  /// N for a matmul tile (a `vector<MxN>` result: output (i, j) is row i of a times column j
  /// of b), else 0.
  int cols = 0;
  bool bTransposed = false; ///< a matmul tile's b is vector<NxK> ((i, j, k) -> (j, k)), not vector<KxN>
  bool aTransposed = false; ///< a matmul tile's a is vector<KxM> ((i, j, k) -> (k, i)), not vector<MxK>
  /// A reduction of row i of a 2-D product (what upstream's contract lowering leaves): the
  /// block's a (b) is row `rowA` (`rowB`) of the 2-D `a` (`b`) and of its scale; unset for a
  /// 1-D operand.
  std::optional<int64_t> rowA, rowB;
  /// A `vector.contract` in another layout (ContractLayout): its dimensions, and each
  /// operand's codes (traceLayoutScale) in place of sa, sb.
  std::optional<ContractLayout> layout;
  LayoutScale la, lb; ///< with `layout`: the codes of a and of b
  Value reduced; ///< the value the root reduces (replaced by the exact products in the post branch)
  Value acc;                      ///< the accumulator, a constant +0.0 or -0.0 (null: none)
  /// The accumulator is not a constant but a read of memory just filled with a ±0.0 splat
  /// (forwardedZeroSign): the same value, proven by the IR between the write and the read.
  bool accFromMemory = false;
  ReductionOrder order = ReductionOrder::Seq; ///< the trees the table must cover
  /// The leaves of the table's dot product: the k products, and the accumulator as one more
  /// (a zero product: +0 is the pair (+0, +0), -0 the pair (-0, +0); docs/mlir.md).
  int leaves() const { return k + (acc ? 1 : 0); }
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
FailureOr<BlockScale> matchScale(Value scale, const char *side, int rows, std::string &why, int cols = 0) {
  const Type scaleType = getElementTypeOrSelf(scale.getType());  // f8E8M0FNU (MX) or f8E4M3FN (NVFP4)
  if (!isScaleType(scaleType)) {
    why = std::string("the scale of operand ") + side + " has type " + typeStr(scaleType) +
          ", not f8E8M0FNU (MX) or f8E4M3FN (NVFP4)";
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
    return codeOfAttr(attr);
  };
  // One value of type `want` (f8E8M0FNU or i8): the scalar, or a vector of exactly one.
  auto isOneOf = [](Type t, auto want) {
    if (auto vt = dyn_cast<VectorType>(t))
      return !vt.isScalable() && vt.getNumElements() == 1 && want(vt.getElementType());
    return bool(want(t));
  };
  auto isScale = [scaleType](Type t) { return t == scaleType; };
  auto isI8 = [](Type t) { return t.isInteger(8); };
  Value bcValue = scale;
  if (auto cast = scale.getDefiningOp<arith::BitcastOp>()) {
    bcValue = cast.getIn();
    s.bits = true;
  }
  // In a tile: one code per row as a vector<rows> broadcast to vector<K x rows> and transposed
  // (what upstream's transfer permutation lowering makes of a scale read along the rows).
  if (auto tr = bcValue.getDefiningOp<vector::TransposeOp>(); tr && rows > 1) {
    auto bc = tr.getVector().getDefiningOp<vector::BroadcastOp>();
    auto from = bc ? dyn_cast<VectorType>(bc.getSource().getType()) : VectorType();
    if (tr.getPermutation() == ArrayRef<int64_t>{1, 0} && from && from.getShape() == ArrayRef<int64_t>{rows} &&
        (s.bits ? isI8(from.getElementType()) : isScale(from.getElementType()))) {
      s.scalar = bc.getSource();
      s.perRow = true;
      return s;
    }
  }
  // b of a matmul tile (vector<KxN>): one code per column, a vector<N> or vector<1xN>
  // broadcast along the K rows (perRow then means one code per output column).
  if (auto bc = bcValue.getDefiningOp<vector::BroadcastOp>(); bc && cols > 1) {
    auto from = dyn_cast<VectorType>(bc.getSource().getType());
    if (from && !from.isScalable() && from.getNumElements() == cols &&
        (from.getShape() == ArrayRef<int64_t>{cols} || from.getShape() == ArrayRef<int64_t>{1, cols}) &&
        (s.bits ? isI8(from.getElementType()) : isScale(from.getElementType()))) {
      s.scalar = bc.getSource();
      s.perRow = true;
      s.rowCodes = constantCodes(s.scalar, cols);
      return s;
    }
  }
  if (auto bc = bcValue.getDefiningOp<vector::BroadcastOp>()) {
    Value src = bc.getSource();
    // In a tile of `rows` dot products: one code per row, a vector<rows x 1 x ...>.
    auto srcVec = dyn_cast<VectorType>(src.getType());
    if (rows > 1 && srcVec && !srcVec.isScalable() && srcVec.getShape() == ArrayRef<int64_t>{rows, 1} &&
        (s.bits ? isI8(srcVec.getElementType()) : isScale(srcVec.getElementType()))) {
      s.scalar = src;
      s.perRow = true;
      s.rowCodes = constantCodes(src, rows);
      return s;
    }
    if (!(s.bits ? isOneOf(src.getType(), isI8) : isOneOf(src.getType(), isScale))) {
      why = std::string("the scale of operand ") + side + " is " + (s.bits ? "a bitcast of a value " : "") +
            "broadcast from " + typeStr(src.getType()) + ", not from one " + (s.bits ? "i8" : typeStr(scaleType)) +
            " value" + (rows > 1 ? " or one per row (vector<" + std::to_string(rows) + "x1x...>)" : std::string());
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
  // A slice of a per-block scale vector (or the whole of one): one code if the block's
  // elements lie in one scale block.
  if (bcValue.getDefiningOp<vector::ExtractStridedSliceOp>() || bcValue.getDefiningOp<vector::ShapeCastOp>() ||
      bcValue.getDefiningOp<vector::InsertStridedSliceOp>() || bcValue.getDefiningOp<vector::ShuffleOp>()) {
    auto vt = cast<VectorType>(bcValue.getType());
    std::string traceWhy;
    if (rows == 0 && vt.getRank() == 1 && traceBlockScale(bcValue, 0, vt.getShape()[0], s, traceWhy)) {
      Type et = getElementTypeOrSelf(s.scalar.getType());
      if (s.bits ? et.isInteger(8) : et == scaleType) {
        DenseElementsAttr dense;  // a constant per-block vector: the block's code is known
        if (!s.pos.empty() && matchPattern(s.scalar, m_Constant(&dense))) {
          auto src = cast<VectorType>(s.scalar.getType());
          int64_t at = 0;  // the row-major index of s.pos
          for (size_t d = 0; d < s.pos.size(); ++d) at = at * src.getShape()[d] + s.pos[d];
          s.code = codeOfAttr(dense.getValues<Attribute>()[at]);
        } else if (s.pos.empty() && !s.code) {
          s.code = codeOf(s.scalar);  // one broadcast value: a constant code, or none
        }
        return s;
      }
      traceWhy = "its per-block scale has type " + typeStr(s.scalar.getType());
    }
    why = std::string("the scale of operand ") + side + " is not one scale code for the block: " + traceWhy;
    return failure();
  }
  why = std::string("the scale of operand ") + side +
        " is not one " + typeStr(scaleType) + " value broadcast over the block (mismatched or per-element scales "
        "are not an MX block)";
  return failure();
}

/// Traces operand `side`'s scale `scale` in a ContractLayout (docs/mlir.md, "Any contraction
/// layout"): `dims` gives the iteration dimension of each dimension of the operand (and of its
/// scale, which has the operand's shape). Returns false with `why` set when the codes are not
/// one per MX block (they vary along k) or are not f8E8M0FNU / i8 values.
bool traceLayoutScale(Value scale, SmallVector<int64_t> dims, const ContractLayout &L, const char *side,
                      LayoutScale &s, std::string &why) {
  Value v = scale;
  while (true) {
    if (auto cast = v.getDefiningOp<arith::BitcastOp>()) {  // 8 bits either way: the same code
      if (getElementTypeOrSelf(cast.getIn().getType()).getIntOrFloatBitWidth() != 8) break;
      v = cast.getIn();
      continue;
    }
    if (auto tr = v.getDefiningOp<vector::TransposeOp>()) {  // result dim i is source dim perm[i]
      SmallVector<int64_t> d(dims.size(), -1);
      for (auto [i, p] : llvm::enumerate(tr.getPermutation())) d[size_t(p)] = dims[i];
      dims = d;
      v = tr.getVector();
      continue;
    }
    if (auto bc = v.getDefiningOp<vector::BroadcastOp>()) {
      auto from = dyn_cast<VectorType>(bc.getSource().getType());
      v = bc.getSource();
      if (!from) {  // a scalar broadcast everywhere
        dims.clear();
        break;
      }
      // The source's dimensions align with the result's trailing ones; a unit one is stretched.
      const int64_t off = int64_t(dims.size()) - from.getRank();
      SmallVector<int64_t> d;
      for (int64_t j = 0; j < from.getRank(); ++j) d.push_back(from.getDimSize(j) == 1 ? -1 : dims[size_t(j + off)]);
      dims = d;
      continue;
    }
    if (auto sc = v.getDefiningOp<vector::ShapeCastOp>()) {  // only adding or dropping unit dimensions
      auto from = cast<VectorType>(sc.getSource().getType());
      auto to = cast<VectorType>(sc.getType());
      SmallVector<int64_t> fromBig, toBig;  // the non-unit dimensions
      for (int64_t j = 0; j < from.getRank(); ++j)
        if (from.getDimSize(j) != 1) fromBig.push_back(j);
      for (int64_t j = 0; j < to.getRank(); ++j)
        if (to.getDimSize(j) != 1) toBig.push_back(j);
      if (fromBig.size() != toBig.size() ||
          !llvm::all_of(llvm::seq<size_t>(0, fromBig.size()), [&](size_t q) {
            return from.getDimSize(fromBig[q]) == to.getDimSize(toBig[q]);
          }))
        break;
      SmallVector<int64_t> d(size_t(from.getRank()), -1);
      for (size_t q = 0; q < fromBig.size(); ++q) d[size_t(fromBig[q])] = dims[size_t(toBig[q])];
      dims = d;
      v = sc.getSource();
      continue;
    }
    break;
  }
  Type et = getElementTypeOrSelf(v.getType());
  if (!isScaleType(et) && !et.isInteger(8)) {
    why = std::string("the scale of operand ") + side + " comes from a value of type " + typeStr(v.getType()) +
          ", not f8E8M0FNU, f8E4M3FN or i8 codes";
    return false;
  }
  s.src = v;
  s.bits = et.isInteger(8);
  s.srcDims.clear();
  if (auto vt = dyn_cast<VectorType>(v.getType())) {
    if (vt.isScalable() || int64_t(dims.size()) != vt.getRank()) {
      why = std::string("the scale of operand ") + side + " is a scalable or reshaped vector";
      return false;
    }
    for (int64_t j = 0; j < vt.getRank(); ++j) s.srcDims.push_back(vt.getDimSize(j) == 1 ? -1 : dims[size_t(j)]);
  }
  Attribute attr;
  if (matchPattern(v, m_Constant(&attr))) {
    std::vector<unsigned> codes;
    if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
      for (Attribute a : dense.getValues<Attribute>()) codes.push_back(codeOfAttr(a).value_or(0));
    } else if (std::optional<unsigned> c = codeOfAttr(attr)) {
      codes.push_back(*c);
    }
    s.constant = codes;
  }
  if (llvm::is_contained(s.srcDims, L.kDim)) {
    // Codes indexed by k: one MX block per output element only if they are equal along k.
    bool equal = s.constant.has_value();
    for (int64_t o = 0; equal && o < L.outElements(); ++o) {
      SmallVector<int64_t> p = L.pointOf(o);
      const unsigned first = s.codeAt(p);
      for (p[L.kDim] = 1; equal && p[L.kDim] < L.dimSize[L.kDim]; ++p[L.kDim]) equal = s.codeAt(p) == first;
    }
    if (!equal) {
      why = std::string("the scale of operand ") + side +
            " varies along the reduction dimension (a scale per element, not one per MX block)";
      return false;
    }
  }
  return true;
}

}  // namespace

bool isScaleConstantAlong(Value scale, ArrayRef<int64_t> dims, ArrayRef<int64_t> sizes, int64_t k, const char *side,
                          std::string &why) {
  ContractLayout L;
  L.dimSize.assign(sizes.begin(), sizes.end());
  L.kDim = k;
  for (int64_t d = 0; d < int64_t(sizes.size()); ++d)
    if (d != k) L.outDims.push_back(d);
  LayoutScale s;
  return traceLayoutScale(scale, SmallVector<int64_t>(dims.begin(), dims.end()), L, side, s, why);
}

bool isOneBlockScale(Value scale, int64_t lo, int64_t hi, std::string &why) {
  Value v = scale;
  bool bits = false;
  if (auto cast = v.getDefiningOp<arith::BitcastOp>();
      cast && getElementTypeOrSelf(cast.getIn().getType()).getIntOrFloatBitWidth() == 8) {
    v = cast.getIn();
    bits = true;
  }
  auto vt = dyn_cast<VectorType>(v.getType());
  BlockScale s;
  if (!vt || vt.getRank() != 1 || vt.isScalable() || !traceBlockScale(v, lo, hi, s, why)) {
    if (why.empty()) why = "the scale is not a 1-D vector of fixed length";
    return false;
  }
  Type et = getElementTypeOrSelf(s.scalar ? s.scalar.getType() : v.getType());
  if (bits ? !et.isInteger(8) : !isScaleType(et)) {
    why = "its per-block scale has type " + typeStr(et);
    return false;
  }
  return true;
}

namespace {

/// Whether `op` lies in the else branch of a runtime guard this pass inserted (the original
/// computation kept there is not matched again).
bool insideGuardElse(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (auto ifOp = dyn_cast<scf::IfOp>(p))
      if (ifOp->hasAttr(kGuardAttrName) && ifOp.getElseRegion().isAncestor(op->getParentRegion())) return true;
  return false;
}

/// The sign of a constant f32 zero (true: -0.0), or nullopt when `v` is anything else.
std::optional<bool> constantZeroSign(Value v) {
  Attribute attr;
  if (!v || !matchPattern(v, m_Constant(&attr))) return std::nullopt;
  if (auto splat = dyn_cast<SplatElementsAttr>(attr)) attr = splat.getSplatValue<Attribute>();  // a tile's
  auto f = dyn_cast<FloatAttr>(attr);
  if (!f || !f.getType().isF32() || !f.getValue().isZero()) return std::nullopt;
  return f.getValue().isNegative();
}

/// The sign of the ±0.0 splat the accumulator `v` provably holds when it is read back from
/// memory just filled with it (docs/mlir.md, "From linalg"): `v` is an unmasked, in-bounds
/// `vector.transfer_read` of a memref, and walking back through its block the first op that
/// may write memory (or whose effects are unknown) is an unmasked, in-bounds
/// `vector.transfer_write` of a splat ±0.0 f32 constant to the same memref value, of the same
/// vector type, at the same indices, with the same permutation map. The read then returns
/// exactly the written vector: nothing at all is written in between, so no alias reasoning is
/// needed (a write to any other memref in between already refuses). nullopt otherwise.
std::optional<bool> forwardedZeroSign(Value v) {
  auto read = v ? v.getDefiningOp<vector::TransferReadOp>() : vector::TransferReadOp();
  if (!read || read.getMask() || !isa<MemRefType>(read.getBase().getType()) ||
      llvm::is_contained(read.getInBoundsValues(), false))
    return std::nullopt;
  for (Operation *prev = read->getPrevNode(); prev; prev = prev->getPrevNode()) {
    if (auto w = dyn_cast<vector::TransferWriteOp>(prev); w && w.getBase() == read.getBase()) {
      if (w.getMask() || llvm::is_contained(w.getInBoundsValues(), false) ||
          w.getVectorType() != read.getVectorType() || w.getPermutationMap() != read.getPermutationMap() ||
          !llvm::equal(w.getIndices(), read.getIndices()))
        return std::nullopt;
      return constantZeroSign(w.getVector());
    }
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects = getEffectsRecursively(prev);
    if (!effects) return std::nullopt;  // unknown effects
    for (const MemoryEffects::EffectInstance &e : *effects)
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect())) return std::nullopt;
  }
  return std::nullopt;
}

/// The block's operand `v` (a scaling_extf input or scale), or its row `row` when the block
/// is one row of a 2-D operand.
Value rowOf(OpBuilder &b, Location loc, Value v, std::optional<int64_t> row) {
  if (!row) return v;
  return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{*row});
}

/// The scale of row `row` of a 2-D operand from the scale of the whole (matchScale with the
/// operand's rows): one code for every row stays as it is; a per-row scale picks the row.
void pickRow(BlockScale &s, int64_t row) {
  if (!s.perRow) return;
  s.perRow = false;
  if (!s.rowCodes.empty()) {
    s.code = s.rowCodes[row];
    return;
  }
  auto src = cast<VectorType>(s.scalar.getType());
  s.pos = src.getRank() == 2 ? SmallVector<int64_t>{row, 0} : SmallVector<int64_t>{row};
}

/// The checks every root shares, once `m.root`, `m.kind`, `m.mul` (when there is one), the
/// scaling_extf ops (either may be null), `m.rows` and `m.acc` are set: not masked, no fast-math
/// flags, a zero accumulator, both operands scaling_extf in f32 from MX element types, one
/// scale per block. `vt` is the type of the vectors reduced: a fixed 1-D f32 vector<K>, or in
/// a tile of M rows a vector<MxK> (the other operand may be a vector<K> shared by the rows).
LogicalResult matchBlockOperands(MxBlock &m, VectorType vt, std::string &why) {
  Operation *op = m.root;
  if (isa<vector::MaskOp>(op->getParentOp())) {
    why = "the " + op->getName().getStringRef().str() + " is masked (`vector.mask`)";
    return failure();
  }
  for (Operation *o : {op, m.mul ? m.mul.getOperation() : nullptr, m.extA ? m.extA.getOperation() : nullptr,
                       m.extB ? m.extB.getOperation() : nullptr})
    if (o) {
      why = fastMathReason(o);
      if (!why.empty()) return failure();
    }
  if (m.acc && !constantZeroSign(m.acc)) {
    m.accFromMemory = forwardedZeroSign(m.acc).has_value();
    if (!m.accFromMemory) {
      why = "the accumulator is not a constant +0.0 or -0.0, nor read back from memory just filled with one (a "
            "certified table covers a zero accumulator as one more leaf; any other start value is not an MX "
            "block dot product)";
      return failure();
    }
  }
  if (!m.extA || !m.extB) {
    why = std::string("operand ") + (m.extA ? "b" : "a") + " of the " +
          (m.mul ? "`arith.mulf`" : "`vector.contract`") + " is not an `arith.scaling_extf`";
    return failure();
  }
  if (!vt || (!m.layout && vt.getRank() != (m.rows ? 2 : 1)) || vt.isScalable()) {
    why = m.rows ? "the tile is not a fixed-size 2-D vector" : "the reduction is not over a fixed-length 1-D vector";
    return failure();
  }
  Type resultType = op->getResult(0).getType();
  Type resultElem = getElementTypeOrSelf(resultType);
  if (!resultElem.isF32() || !vt.getElementType().isF32() ||
      !getElementTypeOrSelf(m.extA.getType()).isF32() || !getElementTypeOrSelf(m.extB.getType()).isF32()) {
    why = "the products and the reduction are " + typeStr(resultElem) +
          ", not f32 (the guard tables cover the f32 accumulator)";
    return failure();
  }
  m.a = m.extA.getIn();
  m.b = m.extB.getIn();
  m.k = int(m.layout ? m.layout->dimSize[m.layout->kDim] : m.aTransposed ? vt.getShape().front() : vt.getShape().back());
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
  // The scale format, from the scale operands' element types (matchScale checks the forms).
  const Type stA = getElementTypeOrSelf(m.extA.getScale().getType()),
             stB = getElementTypeOrSelf(m.extB.getScale().getType());
  if (stA != stB && isScaleType(stA) && isScaleType(stB)) {
    why = "the scales of operands a and b have different types (" + typeStr(stA) + " and " + typeStr(stB) +
          "): not one MX or NVFP4 block";
    return failure();
  }
  if (std::optional<ScaleFormat> sf = scaleFormatOf(stA)) m.scale = *sf;
  if (m.scale == ScaleFormat::E4M3 && (m.fa.name != "e2m1" || m.fb.name != "e2m1")) {
    why = "f8E4M3FN scales (NVFP4) with " + m.fa.mlirType() + " x " + m.fb.mlirType() +
          " elements: mxcert's NVFP4 blocks have f4E2M1FN elements on both sides";
    return failure();
  }
  if (m.layout)  // any contraction layout: each operand's codes per iteration point
    return success(traceLayoutScale(m.extA.getScale(), m.layout->lhsDims, *m.layout, "a", m.la, why) &&
                   traceLayoutScale(m.extB.getScale(), m.layout->rhsDims, *m.layout, "b", m.lb, why));
  // In a tile, an operand of rank 2 has one block per row; a rank-1 one is shared by the rows.
  // (A row of a 2-D operand: its scale is matched over the operand's rows, then the row picked.)
  auto rowsOf = [&](Value v, std::optional<int64_t> row) {
    int64_t r = cast<VectorType>(v.getType()).getRank() == 2 ? cast<VectorType>(v.getType()).getShape()[0] : 0;
    return (m.rows || row) ? int(r) : 0;
  };
  // A matmul tile's a: one code per row of its vector<MxK>, or per column of its vector<KxM>.
  FailureOr<BlockScale> sa = m.aTransposed ? matchScale(m.extA.getScale(), "a", 0, why, m.rows)
                                           : matchScale(m.extA.getScale(), "a", rowsOf(m.a, m.rowA), why);
  if (failed(sa)) return failure();
  // A matmul tile's b: one code per column (vector<KxN>), or per row of its vector<NxK>.
  FailureOr<BlockScale> sb = !m.cols         ? matchScale(m.extB.getScale(), "b", rowsOf(m.b, m.rowB), why)
                             : m.bTransposed ? matchScale(m.extB.getScale(), "b", m.cols, why)
                                             : matchScale(m.extB.getScale(), "b", 0, why, m.cols);
  if (failed(sb)) return failure();
  m.sa = *sa;
  m.sb = *sb;
  if (m.rowA) pickRow(m.sa, *m.rowA);
  if (m.rowB) pickRow(m.sb, *m.rowB);
  return success();
}

/// A block rooted at `root` of `kind`, before its operands are matched.
MxBlock blockOf(Operation *root, RootKind kind, ReductionOrder order, Value acc) {
  MxBlock m;
  m.root = root;
  m.kind = kind;
  m.order = order;
  m.acc = acc;
  return m;
}

/// The products P = arith.mulf(A, B) summed by a reduction: sets `m.mul` and the scaling_extf
/// ops. Returns false (not a candidate) unless at least one factor is a scaling_extf.
bool matchProducts(Value p, MxBlock &m) {
  m.reduced = p;
  // Row i of a 2-D product: vector.extract %P[i] of P = arith.mulf(A, B) on 2-D operands.
  std::optional<int64_t> row;
  if (auto ex = p.getDefiningOp<vector::ExtractOp>())
    if (ex.getStaticPosition().size() == 1 && !ShapedType::isDynamic(ex.getStaticPosition()[0]) &&
        ex.getDynamicPosition().empty() && cast<VectorType>(ex.getSource().getType()).getRank() == 2) {
      row = ex.getStaticPosition()[0];
      p = ex.getSource();
    }
  m.mul = p.getDefiningOp<arith::MulFOp>();
  if (!m.mul) return false;
  // A factor: a scaling_extf, or (1-D products only) row i of a 2-D one.
  auto factor = [&](Value v, std::optional<int64_t> &r) -> arith::ScalingExtFOp {
    if (row) {
      r = row;
      return v.getDefiningOp<arith::ScalingExtFOp>();
    }
    if (auto ex = v.getDefiningOp<vector::ExtractOp>())
      if (ex.getStaticPosition().size() == 1 && !ShapedType::isDynamic(ex.getStaticPosition()[0]) &&
          ex.getDynamicPosition().empty() && cast<VectorType>(ex.getSource().getType()).getRank() == 2)
        if (auto ext = ex.getSource().getDefiningOp<arith::ScalingExtFOp>()) {
          r = ex.getStaticPosition()[0];
          return ext;
        }
    return v.getDefiningOp<arith::ScalingExtFOp>();
  };
  m.extA = factor(m.mul.getLhs(), m.rowA);
  m.extB = factor(m.mul.getRhs(), m.rowB);
  if (!m.extA) m.rowA.reset();
  if (!m.extB) m.rowB.reset();
  return m.extA || m.extB;
}

/// Matches an MX block rooted at `op`. Returns failure with `candidate` false when `op` is
/// not an MX-like dot product at all (no remark: ordinary reductions are none of our
/// business), and with `candidate` true and `why` set when it looks like one but must be
/// left alone.
FailureOr<MxBlock> matchMxBlock(vector::ReductionOp op, bool &candidate, std::string &why) {
  candidate = false;
  // Without `reassoc`, the ordered sum (acc first).
  MxBlock m = blockOf(op, RootKind::Reduction, ReductionOrder::Seq, op.getAcc());
  if (op.getKind() != vector::CombiningKind::ADD || !matchProducts(op.getVector(), m) || insideGuardElse(op))
    return failure();
  candidate = true;
  if (failed(matchBlockOperands(m, dyn_cast<VectorType>(op.getVector().getType()), why))) return failure();
  return m;
}

/// The same for `vector.multi_reduction <add>, P, acc [0]` of a 1-D P into a scalar.
FailureOr<MxBlock> matchMxBlock(vector::MultiDimReductionOp op, bool &candidate, std::string &why) {
  candidate = false;
  MxBlock m = blockOf(op, RootKind::MultiReduction, ReductionOrder::Any, op.getAcc());  // the lowering's order
  if (op.getKind() != vector::CombiningKind::ADD || !matchProducts(op.getSource(), m) || insideGuardElse(op))
    return failure();
  if (m.rowA || m.rowB) {  // (rows of 2-D products: only under a 1-D vector.reduction)
    candidate = true;
    why = "the vector.multi_reduction reduces a row of a 2-D product (the pass matches such rows under a "
          "vector.reduction)";
    return failure();
  }
  candidate = true;
  auto vt = dyn_cast<VectorType>(op.getSource().getType());
  // A 1-D vector reduced to a scalar.
  if (vt && vt.getRank() == 1) {
    if (failed(matchBlockOperands(m, vt, why))) return failure();
    return m;
  }
  // The rows of a 2-D one: reduction dimension [1], codes one or one per row.
  if (vt && vt.getRank() == 2 && !vt.isScalable() && op.getReductionDims() == ArrayRef<int64_t>{1}) {
    m.rows = int(vt.getShape()[0]);
    if (succeeded(matchBlockOperands(m, vt, why))) return m;
    // Else (codes in a form the fixed tile does not read) the general reading decides.
  }
  // Any rank: one reduction dimension k, each output element the sum over k of one line of
  // the product (what linalg vectorization makes of a batch matmul), read as a ContractLayout
  // whose operands are both indexed by every dimension of the product.
  if (!vt || vt.isScalable() || op.getReductionDims().size() != 1) {
    why = "the vector.multi_reduction reduces dimensions [" +
          [&] {
            std::string d;
            for (int64_t x : op.getReductionDims()) d += (d.empty() ? "" : ", ") + std::to_string(x);
            return d;
          }() +
          "] of a " + (vt ? "rank-" + std::to_string(vt.getRank()) : std::string("scalable")) +
          " vector (an MX block is a dot product over one dimension; over a block dimension and k, "
          "--mx-split-blocks splits it into its blocks)";
    return failure();
  }
  MxBlock g = blockOf(op, RootKind::MultiReduction, ReductionOrder::Any, op.getAcc());
  g.mul = m.mul;
  g.extA = m.extA;
  g.extB = m.extB;
  g.reduced = m.reduced;
  ContractLayout L;
  L.dimSize.assign(vt.getShape().begin(), vt.getShape().end());
  L.kDim = op.getReductionDims()[0];
  for (int64_t d = 0; d < vt.getRank(); ++d) {
    L.lhsDims.push_back(d);
    L.rhsDims.push_back(d);
    if (d != L.kDim) L.outDims.push_back(d);
  }
  g.layout = L;
  if (failed(matchBlockOperands(g, vt, why))) return failure();
  return g;
}

/// The ContractLayout of `op` (a vector.contract with a vector result, kind add), or failure
/// with `why` naming the condition its indexing maps break.
FailureOr<ContractLayout> contractLayout(vector::ContractionOp op, std::string &why) {
  ContractLayout L;
  const SmallVector<vector::IteratorType> iters = op.getIteratorTypesArray();
  for (auto [d, it] : llvm::enumerate(iters))
    if (it == vector::IteratorType::reduction) {
      if (L.kDim >= 0) {
        why = "the vector.contract reduces over more than one dimension (an MX block is a dot product over one; "
              "over a block dimension and k, --mx-split-blocks splits it into its blocks)";
        return failure();
      }
      L.kDim = int64_t(d);
    }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  auto lt = dyn_cast<VectorType>(op.getLhs().getType());
  auto rt = dyn_cast<VectorType>(op.getRhs().getType());
  auto ot = dyn_cast<VectorType>(op.getResultType());
  if (L.kDim < 0 || !lt || !rt || !ot || lt.isScalable() || rt.isScalable() || ot.isScalable()) {
    why = "the vector.contract has no reduction dimension or a scalable operand";
    return failure();
  }
  L.dimSize.assign(iters.size(), 0);
  auto dimsOf = [&](AffineMap map, VectorType t, SmallVector<int64_t> &dims) {
    if (!map.isProjectedPermutation() || map.getNumSymbols() != 0) return false;
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      const int64_t d = map.getDimPosition(r);
      dims.push_back(d);
      L.dimSize[size_t(d)] = t.getDimSize(r);
    }
    return true;
  };
  if (!dimsOf(maps[0], lt, L.lhsDims) || !dimsOf(maps[1], rt, L.rhsDims) || !dimsOf(maps[2], ot, L.outDims) ||
      !llvm::is_contained(L.lhsDims, L.kDim) || !llvm::is_contained(L.rhsDims, L.kDim) ||
      int64_t(L.outDims.size()) + 1 != int64_t(iters.size()) || llvm::is_contained(L.outDims, L.kDim)) {
    why = "the vector.contract is not one dot product per output element: its indexing maps must be projected "
          "permutations, both operands indexed by the one reduction dimension and the result by every parallel one";
    return failure();
  }
  return L;
}

/// The same for a `vector.contract` of two 1-D vectors into a scalar: indexing maps
/// (d0) -> (d0), (d0) -> (d0), (d0) -> (), one reduction iterator, kind add.
FailureOr<MxBlock> matchMxBlock(vector::ContractionOp op, bool &candidate, std::string &why) {
  candidate = false;
  MxBlock m = blockOf(op, RootKind::Contract, ReductionOrder::Any, op.getAcc());  // the lowering's order
  m.extA = op.getLhs().getDefiningOp<arith::ScalingExtFOp>();
  m.extB = op.getRhs().getDefiningOp<arith::ScalingExtFOp>();
  if ((!m.extA && !m.extB) || insideGuardElse(op)) return failure();
  candidate = true;
  if (op.getKind() != vector::CombiningKind::ADD) {
    why = "the vector.contract combines with <" + vector::stringifyCombiningKind(op.getKind()).str() + ">, not <add>";
    return failure();
  }
  auto lt = dyn_cast<VectorType>(op.getLhs().getType());
  auto rt = dyn_cast<VectorType>(op.getRhs().getType());
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  using IT = vector::IteratorType;
  const SmallVector<IT> iters = op.getIteratorTypesArray();
  auto map = [&](unsigned dims, ArrayRef<unsigned> results) {
    SmallVector<AffineExpr> e;
    for (unsigned r : results) e.push_back(getAffineDimExpr(r, ctx));
    return AffineMap::get(dims, 0, e, ctx);
  };
  if (!isa<VectorType>(op.getResultType())) {
    // One dot product: (d0) -> (d0), (d0) -> (d0), (d0) -> ().
    if (maps.size() != 3 || maps[0] != map(1, {0}) || maps[1] != map(1, {0}) || maps[2] != map(1, {}) ||
        iters != SmallVector<IT>{IT::reduction}) {
      why = "the vector.contract's indexing maps are not those of a dot product, (d0) -> (d0), (d0) -> (d0), "
            "(d0) -> () with d0 a reduction";
      return failure();
    }
    if (lt != rt) {
      why = "the vector.contract's operands have different types";
      return failure();
    }
  } else {
    // A tile of M dot products, one per row i of lhs: (i, k) -> (i, k), rhs (i, k) -> (k)
    // (a vector shared by the rows) or (i, k) -> (i, k), result (i, k) -> (i).
    bool rowwise = maps.size() == 3 && iters == SmallVector<IT>{IT::parallel, IT::reduction} &&
                   maps[0] == map(2, {0, 1}) && (maps[1] == map(2, {1}) || maps[1] == map(2, {0, 1})) &&
                   maps[2] == map(2, {0}) && lt && lt.getRank() == 2 && !lt.isScalable();
    // A matmul tile: (i, j, k) -> (i, k) or (k, i), (k, j) or (j, k), (i, j), i and j parallel.
    bool matmul = maps.size() == 3 && iters == SmallVector<IT>{IT::parallel, IT::parallel, IT::reduction} &&
                  (maps[0] == map(3, {0, 2}) || maps[0] == map(3, {2, 0})) &&
                  (maps[1] == map(3, {2, 1}) || maps[1] == map(3, {1, 2})) &&
                  maps[2] == map(3, {0, 1}) && lt && lt.getRank() == 2 && !lt.isScalable() && rt &&
                  rt.getRank() == 2 && !rt.isScalable();
    if (rowwise || matmul) {
      m.aTransposed = matmul && maps[0] == map(3, {2, 0});
      m.rows = int(lt.getShape()[m.aTransposed ? 1 : 0]);
      if (matmul) {
        m.cols = int(maps[1] == map(3, {2, 1}) ? rt.getShape()[1] : rt.getShape()[0]);
        m.bTransposed = maps[1] == map(3, {1, 2});
      }
      if (succeeded(matchBlockOperands(m, lt, why))) return m;
      // Else (scales in a form the fixed tiles do not read) the general reading decides.
    }
    // Any other layout that is one dot product per output element (ContractLayout).
    FailureOr<ContractLayout> layout = contractLayout(op, why);
    if (failed(layout)) return failure();
    MxBlock g = blockOf(op, RootKind::Contract, ReductionOrder::Any, op.getAcc());
    g.extA = m.extA;
    g.extB = m.extB;
    g.layout = *layout;
    if (failed(matchBlockOperands(g, lt, why))) return failure();
    return g;
  }
  if (failed(matchBlockOperands(m, lt, why))) return failure();
  return m;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// An integer constant of type `t`: a scalar (i1, i32, i64), or a splat of a vector of them.
Value intConst(OpBuilder &b, Location loc, Type t, int64_t v) {
  if (auto vt = dyn_cast<VectorType>(t))
    return arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getIntegerAttr(vt.getElementType(), v)));
  return arith::ConstantIntOp::create(b, loc, t, v);
}

/// `t`'s shape (none for a scalar) with element type `elem`.
Type withShapeOf(Type t, Type elem) {
  if (auto vt = dyn_cast<VectorType>(t)) return VectorType::get(vt.getShape(), elem);
  return elem;
}

/// The scale code as i32: bitcast f8E8M0FNU -> i8, zero-extend; a constant when known. A
/// per-row scale gives a vector<Mxi32> (its vector<Mx1x...> reshaped to vector<Mx...>).
Value codeI32(OpBuilder &b, Location loc, const BlockScale &s) {
  Type i32 = b.getI32Type();
  if (s.code) return arith::ConstantIntOp::create(b, loc, i32, int64_t(*s.code));
  if (s.perRow) {
    auto src = cast<VectorType>(s.scalar.getType());
    const int64_t n = src.getNumElements();  // vector<Mx1>, vector<M>, vector<1xN>, vector<N>
    auto rows = VectorType::get({n}, i32);
    if (!s.rowCodes.empty())
      return arith::ConstantOp::create(
          b, loc, rows, DenseElementsAttr::get(rows, llvm::to_vector(llvm::map_range(s.rowCodes, [&](unsigned c) {
                                                 return APInt(32, c);
                                               }))));
    Value v = src.getRank() == 1 ? s.scalar  // vector<M> (a transposed broadcast), vector<N>
                                 : Value(vector::ShapeCastOp::create(b, loc, VectorType::get({n}, src.getElementType()),
                                                                     s.scalar));
    Value i8 = s.bits ? v : Value(arith::BitcastOp::create(b, loc, withShapeOf(v.getType(), b.getI8Type()), v));
    return arith::ExtUIOp::create(b, loc, rows, i8);
  }
  Value v = s.scalar;
  if (!s.pos.empty()) v = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>(s.pos));  // the block's code
  else if (auto vt = dyn_cast<VectorType>(v.getType()))  // vector<1x...>, or a 0-d vector<...>
    v = vector::ExtractOp::create(b, loc, v, SmallVector<int64_t>(vt.getRank(), 0));
  Value i8 = s.bits ? v : Value(arith::BitcastOp::create(b, loc, b.getI8Type(), v));
  return arith::ExtUIOp::create(b, loc, i32, i8);
}

/// The codes of a LayoutScale as a vector<result shape x i32> (docs/mlir.md, "Any contraction
/// layout"): the codes bitcast to i8 and zero-extended, unit dimensions dropped
/// (`vector.shape_cast`), then `vector.broadcast` over the result dimensions that do not index
/// them and `vector.transpose` into the result's order; a constant scale gives a constant.
Value layoutCodesI32(OpBuilder &b, Location loc, const LayoutScale &s, const ContractLayout &L) {
  Type i32 = b.getI32Type(), i8 = b.getI8Type();
  SmallVector<int64_t> outShape;
  for (int64_t d : L.outDims) outShape.push_back(L.dimSize[d]);
  auto outType = VectorType::get(outShape, i32);
  if (s.constant) {  // the code of each result element (equal along k: traceLayoutScale)
    SmallVector<APInt> codes;
    for (int64_t o = 0; o < L.outElements(); ++o) codes.push_back(APInt(32, s.codeAt(L.pointOf(o))));
    return arith::ConstantOp::create(b, loc, outType, DenseElementsAttr::get(outType, codes));
  }
  Value v = s.src;
  SmallVector<int64_t> kept;  // the iteration dimensions of the non-unit dimensions of src, in order
  for (int64_t d : s.srcDims)
    if (d >= 0) kept.push_back(d);
  if (auto vt = dyn_cast<VectorType>(v.getType())) {
    if (kept.empty()) {  // one code in a vector of unit dimensions
      v = vector::ExtractOp::create(b, loc, v, SmallVector<int64_t>(vt.getRank(), 0));
    } else if (int64_t(kept.size()) != vt.getRank()) {
      SmallVector<int64_t> shape;
      for (int64_t d : kept) shape.push_back(L.dimSize[d]);
      v = vector::ShapeCastOp::create(b, loc, VectorType::get(shape, vt.getElementType()), v);
    }
  }
  if (!s.bits) v = arith::BitcastOp::create(b, loc, withShapeOf(v.getType(), i8), v);
  v = arith::ExtUIOp::create(b, loc, withShapeOf(v.getType(), i32), v);
  // Broadcast to [the result dimensions src lacks (in the result's order)..., kept...], then
  // transpose into the result's order.
  SmallVector<int64_t> order, shape;
  for (int64_t d : L.outDims)
    if (!llvm::is_contained(kept, d)) order.push_back(d);
  order.append(kept.begin(), kept.end());
  for (int64_t d : order) shape.push_back(L.dimSize[d]);
  auto vt = dyn_cast<VectorType>(v.getType());
  if (!vt || vt.getRank() != int64_t(shape.size())) v = vector::BroadcastOp::create(b, loc, VectorType::get(shape, i32), v);
  SmallVector<int64_t> perm;
  for (int64_t d : L.outDims) perm.push_back(int64_t(llvm::find(order, d) - order.begin()));
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, int64_t(perm.size()))))
    v = vector::TransposeOp::create(b, loc, v, perm);
  return v;
}

/// The guard as an i1: OR over regions of (lo <= xa <= hi) && (lo <= xb <= hi) && (lo <= e <= hi),
/// with xa, xb <= 254 always required (code 255 is NaN and never inside). Comparisons a
/// region does not need (a bound that every code satisfies) are left out. With per-row codes
/// (xa, xb, e vectors of one shape) the condition holds when it holds for every row (the
/// whole tile takes one branch).
Value buildGuardCondition(OpBuilder &b, Location loc, const Guard &g, Value xa, Value xb, Value e) {
  Type t = e.getType();
  auto cst = [&](int v) { return intConst(b, loc, t, int64_t(v)); };
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
  if (!any) any = intConst(b, loc, withShapeOf(t, b.getI1Type()), 0);
  if (auto vt = dyn_cast<VectorType>(t)) {  // every row (every element of a matmul tile)
    if (vt.getRank() > 1)
      any = vector::ShapeCastOp::create(b, loc, VectorType::get({vt.getNumElements()}, b.getI1Type()), any);
    any = vector::ReductionOp::create(b, loc, vector::CombiningKind::AND, any);
  }
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

/// The post placement: R = rnd_f32(2^e * D), D the block's own sum of the exact products
/// p_i = rnd(a_i * b_i) (and of its zero accumulator): the root op cloned onto the unscaled
/// operands, so that D is summed by the same op, in the same order, as the original (Seq for
/// vector.reduction; the lowering's choice for the others, the same for both). `e` is an i32
/// value, or `eConst` when the codes are constants. `scaling` (postScaling of the e values
/// this code can meet) says whether 2^e is an f32 (normal only, or also subnormal) or an f64.
/// D, the block's own sum of the exact products p_i = rnd(a_i * b_i) (and of its zero
/// accumulator): the root op cloned onto the unscaled operands (see buildPost).
Value buildUnscaledSum(OpBuilder &b, Location loc, const MxBlock &m) {
  Type f32 = b.getF32Type();
  Value av = rowOf(b, loc, m.a, m.rowA), bv = rowOf(b, loc, m.b, m.rowB);
  Value a32 = arith::ExtFOp::create(b, loc, withShapeOf(av.getType(), f32), av, arith::FastMathFlagsAttr());  // exact
  Value b32 = arith::ExtFOp::create(b, loc, withShapeOf(bv.getType(), f32), bv, arith::FastMathFlagsAttr());  // exact
  IRMapping map;
  if (m.kind == RootKind::Contract) {
    map.map(m.extA->getResult(0), a32);  // the contract multiplies: p_i exact
    map.map(m.extB->getResult(0), b32);
  } else {
    map.map(m.reduced, arith::MulFOp::create(b, loc, a32, b32).getResult());  // exact products
  }
  return b.clone(*m.root, map)->getResult(0);  // f32, or vector<Mxf32> in a tile
}

Value buildPost(OpBuilder &b, Location loc, const MxBlock &m, Value e, ArrayRef<int> eConsts,
                PostScaling scaling) {
  Type f32 = b.getF32Type();
  Value d = buildUnscaledSum(b, loc, m);
  // e: an i32, or a vector<Mxi32> of per-row codes; eConsts: one constant (every row) or one
  // per row. The scale factor gets e's shape and is broadcast over a tile's rows if needed.
  Type eType = e ? e.getType()
                 : eConsts.size() > 1 ? withShapeOf(m.root->getResult(0).getType(), b.getI32Type())
                                      : Type(b.getI32Type());
  auto pow2Const = [&](FloatType ft) -> Value {
    auto attr = [&](int x) { return b.getFloatAttr(ft, std::ldexp(1.0, x)); };  // exact in f32 (checked) and f64
    if (eConsts.size() == 1) return arith::ConstantOp::create(b, loc, attr(eConsts[0]));
    auto vt = VectorType::get(cast<VectorType>(m.root->getResult(0).getType()).getShape(), ft);  // one per output
    SmallVector<Attribute> vals;
    for (int x : eConsts) vals.push_back(attr(x));
    return arith::ConstantOp::create(b, loc, vt, DenseElementsAttr::get(vt, vals));
  };
  auto toShapeOf = [&](Value factor, Value of) -> Value {  // a scalar factor for a tile's rows
    if (isa<VectorType>(of.getType()) && !isa<VectorType>(factor.getType()))
      return vector::BroadcastOp::create(b, loc, of.getType(), factor);
    return factor;
  };
  if (scaling != PostScaling::F64) {
    auto cst = [&](int v) { return intConst(b, loc, eType, int64_t(v)); };
    Value pow2;
    if (!eConsts.empty()) {
      pow2 = pow2Const(b.getF32Type());  // exact
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
      pow2 = arith::BitcastOp::create(b, loc, withShapeOf(eType, f32), bits);
    }
    return arith::MulFOp::create(b, loc, d, toShapeOf(pow2, d));  // the one rounding: both factors are exact f32
  }
  Value d64 = arith::ExtFOp::create(b, loc, withShapeOf(d.getType(), b.getF64Type()), d, arith::FastMathFlagsAttr());  // exact
  Value pow2;
  if (!eConsts.empty()) {
    pow2 = pow2Const(b.getF64Type());
  } else {
    // 2^e as f64 from its bits: biased exponent e + 1023 (in 769..1277 for |e| <= 254), mantissa 0.
    Value biased = arith::AddIOp::create(b, loc, e, intConst(b, loc, eType, 1023));
    Value wide = arith::ExtUIOp::create(b, loc, withShapeOf(eType, b.getI64Type()), biased);
    Value bits = arith::ShLIOp::create(b, loc, wide, intConst(b, loc, withShapeOf(eType, b.getI64Type()), 52));
    pow2 = arith::BitcastOp::create(b, loc, withShapeOf(eType, b.getF64Type()), bits);
  }
  Value scaled = arith::MulFOp::create(b, loc, d64, toShapeOf(pow2, d64));  // exact in f64
  return arith::TruncFOp::create(b, loc, withShapeOf(d.getType(), f32), scaled);  // the one rounding
}

/// The exact product S = sa sb of the NVFP4 scales of codes xa, xb in 0..126 (decoded as
/// e4m3 values: at most 4 significant bits each, so S has at most 8 and lies in
/// [2^-18, 200704], an exact f32; code 0 is +0). Code 127 (NaN) never reaches here: the static
/// decision leaves NaN codes unchanged first.
float nvfp4ScaleProduct(int xa, int xb) {
  const ElementFormat e4m3 = *findElementFormat("e4m3");
  auto value = [&](int x) {
    const ElementValue v = decodeElementCode(e4m3, unsigned(x));  // n * 2^quantumExp, exact
    return std::ldexp(double(v.n.toInt64()), e4m3.quantumExp());  // n < 2^4: exact
  };
  return float(value(xa) * value(xb));  // exact in double and in f32 (see above)
}

/// The NVFP4 post placement (docs/semantics.md, "NVFP4"): R = rnd_f32(D * S), D as in
/// buildPost (buildUnscaledSum) and S = sa sb the exact product of the decoded e4m3 scales.
/// S is an exact f32 (nvfp4ScaleProduct), so R is ONE f32 multiplication. With constant
/// codes `sConsts` holds S (one for every dot product, or one per result element); otherwise
/// S is computed from the i32 codes xa, xb (a scalar, or one per row or element: the shape
/// of the guard's codes): each truncated to its 8 bits, bitcast to f8E4M3FN and extended to
/// f32 (exact; code 0 is +0 and 127 NaN, which the product propagates), then one f32
/// multiplication (exact).
Value buildPostNvfp4(OpBuilder &b, Location loc, const MxBlock &m, Value xa, Value xb, ArrayRef<float> sConsts) {
  Type f32 = b.getF32Type();
  Value d = buildUnscaledSum(b, loc, m);
  Value sv;
  if (!sConsts.empty()) {
    if (sConsts.size() == 1) {
      sv = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(sConsts[0]));
    } else {
      auto vt = VectorType::get(cast<VectorType>(d.getType()).getShape(), f32);  // one per output
      sv = arith::ConstantOp::create(b, loc, vt, DenseElementsAttr::get(vt, sConsts));
    }
  } else {
    auto scaleOf = [&](Value code) -> Value {
      Value i8 = arith::TruncIOp::create(b, loc, withShapeOf(code.getType(), b.getI8Type()), code);
      Value f8 = arith::BitcastOp::create(b, loc, withShapeOf(code.getType(), b.getType<Float8E4M3FNType>()), i8);
      return arith::ExtFOp::create(b, loc, withShapeOf(code.getType(), f32), f8, arith::FastMathFlagsAttr());
    };
    Value sa = scaleOf(xa);
    Value sb = scaleOf(xb);
    sv = arith::MulFOp::create(b, loc, sa, sb);  // S = sa sb, exact
  }
  if (isa<VectorType>(d.getType()) && !isa<VectorType>(sv.getType())) sv = vector::BroadcastOp::create(b, loc, d.getType(), sv);
  return arith::MulFOp::create(b, loc, d, sv);  // the one rounding: both factors are exact f32
}

/// tinyValuesInside for NVFP4: why a block may meet a value below 2^-126, or "" (always,
/// with f32 and e2m1 elements). Every nonzero e4m3 scale is at least its smallest subnormal
/// 2^(1 - bias - mbits) = 2^-9 and a multiple of it, every element a multiple of its quantum
/// (2^-1 for e2m1), so every factor sa a_i, sb b_i and product t_i is a multiple of a grid
/// of at least 2^(-9 + qa), 2^(-9 + qb) and 2^(qa + qb), and every product, sum, and D S
/// (D a multiple of 2^(qa + qb), S of 2^-18) a multiple of 2^(-18 + qa + qb): nonzero
/// results and their roundings are at least that large (2^-20 for e2m1), so no flush ever
/// happens and ftz or daz hardware computes exactly the keep semantics.
std::string nvfp4TinyValues(const ElementFormat &fa, const ElementFormat &fb) {
  const int sMin = findElementFormat("e4m3")->quantumExp();  // the smallest nonzero scale 2^sMin (2^-9)
  const int grid = 2 * sMin + fa.quantumExp() + fb.quantumExp();
  if (grid >= -126) return "";
  return "NVFP4 values reach 2^" + std::to_string(grid) + " < 2^-126, where hardware that detects tininess before "
         "rounding (x86) flushes results that the model's ftz keeps";
}

}  // namespace

void eraseDeadChain(RewriterBase &rewriter, Operation *op) {
  if (!op || !op->use_empty() || !isPure(op)) return;
  SmallVector<Operation *> producers;
  for (Value v : op->getOperands())
    if (Operation *d = v.getDefiningOp()) producers.push_back(d);
  rewriter.eraseOp(op);
  for (Operation *d : producers) eraseDeadChain(rewriter, d);
}

void replaceAndEraseDead(RewriterBase &rewriter, Operation *op, Value r) {
  SmallVector<Operation *> producers;
  for (Value v : op->getOperands())
    if (Operation *d = v.getDefiningOp()) producers.push_back(d);
  rewriter.replaceOp(op, r);
  for (Operation *d : producers) eraseDeadChain(rewriter, d);
}

namespace {

/// What the patterns share: a matched MX block is rewritten to post (static), guarded
/// (runtime), or left unchanged with a remark.
class MxBlockRewriter {
public:
  explicit MxBlockRewriter(MxScalePlacementState &state) : state(state) {}

  /// Decides and rewrites the block rooted at `op` (see the patterns below).
  template <typename OpT>
  LogicalResult matchAndRewriteRoot(OpT op, PatternRewriter &rewriter) const {
    if (state.mode == PlacementMode::Off) return rewriter.notifyMatchFailure(op, "mode=off");
    bool candidate = false;
    std::string why;
    FailureOr<MxBlock> m = matchMxBlock(op, candidate, why);
    if (failed(m)) {
      if (!candidate) return rewriter.notifyMatchFailure(op, "not an MX block dot product");
      return leave(op, rewriter, why);
    }
    return rewriteBlock(op, *m, rewriter);
  }

private:
  /// The decision and the rewrite of a matched block rooted at `op`.
  LogicalResult rewriteBlock(Operation *op, const MxBlock &blk, PatternRewriter &rewriter) const {
    const MxBlock *m = &blk;
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
    // A zero accumulator read back from memory (forwardedZeroSign) is named in the remarks.
    const std::string accNote =
        m->accFromMemory ? " [accumulator: a vector.transfer_read of the ±0.0 splat just written to the same memref]"
                         : "";
    if (m->scale == ScaleFormat::E4M3 && m->order == ReductionOrder::Any)
      return leave(op, rewriter,
                   "an NVFP4 block (f8E4M3FN scales) summed by " + op->getName().getStringRef().str() +
                       ", whose lowering chooses the order: mxcert has no any-order NVFP4 tables (docs/semantics.md, "
                       "\"NVFP4\"), so only NVFP4 blocks summed in order are rewritten (vector.reduction, or the "
                       "blocks --mx-split-blocks makes of a wide K)");
    if (m->scale == ScaleFormat::E4M3 && dm == DenormalMode::DAZ)
      return leave(op, rewriter,
                   "an NVFP4 block (f8E4M3FN scales) under denormal mode daz: mxcert defines NVFP4 with subnormals kept "
                   "or flushed (ftz) only, so no table covers it (docs/semantics.md, \"NVFP4\")" + modeNote);
    TableLookup t = state.tables->lookup(m->fa, m->fb, m->leaves(), dm, m->order, m->scale);
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
      if (std::string tiny = m->scale == ScaleFormat::E4M3 ? nvfp4TinyValues(m->fa, m->fb)
                                                           : tinyValuesInside(guard, m->fa, m->fb);
          !tiny.empty())
        return leave(op, rewriter, tiny + " (" + tableName + ")" + modeNote);
    // The codes of each dot product (one, or one per row of a tile) when they are constants.
    auto constCodes = [&](const BlockScale &sc) -> std::vector<unsigned> {
      if (sc.code) return {*sc.code};
      return sc.rowCodes;  // empty unless per-row constants
    };
    std::vector<unsigned> xas = constCodes(m->sa), xbs = constCodes(m->sb);
    if (m->layout) {  // one pair of codes per result element, when both are constants
      xas.clear();
      xbs.clear();
      if (m->la.constant && m->lb.constant)
        for (int64_t o = 0; o < m->layout->outElements(); ++o) {
          xas.push_back(m->la.codeAt(m->layout->pointOf(o)));
          xbs.push_back(m->lb.codeAt(m->layout->pointOf(o)));
        }
    }
    bool constant = !xas.empty() && !xbs.empty();
    if (state.mode == PlacementMode::Static && !constant)
      return leave(op, rewriter, "mode=static and the scale codes are not compile-time constants");
    bool decideStatically = constant && state.mode != PlacementMode::Runtime;
    // Per dot product (row, or output element i * N + j of a matmul tile): xa, xb and e; one
    // entry when every one has the same codes.
    const bool grid = m->cols && (xas.size() > 1 || xbs.size() > 1);
    const bool perElement = grid || m->layout;  // codes listed per result element, row-major
    const size_t nRows = grid ? size_t(m->rows) * size_t(m->cols) : std::max(xas.size(), xbs.size());
    std::vector<int> xaRow, xbRow, eRow;
    if (decideStatically)
      for (size_t i = 0; i < nRows; ++i) {
        const size_t ia = grid ? i / size_t(m->cols) : i, ib = grid ? i % size_t(m->cols) : i;
        xaRow.push_back(int(xas[xas.size() == 1 ? 0 : ia]));
        xbRow.push_back(int(xbs[xbs.size() == 1 ? 0 : ib]));
        eRow.push_back(xaRow.back() + xbRow.back() - 254);
      }
    auto list = [](const std::vector<int> &v) {
      if (v.size() == 1) return std::to_string(v[0]);
      std::string t;
      for (int x : v) t += (t.empty() ? "" : ", ") + std::to_string(x);
      return "[" + t + "]";
    };
    std::string codes = decideStatically ? std::string(nRows > 1 ? (perElement ? "scale codes (per element, row-major) xa = "
                                                                           : "scale codes (per row) xa = ")
                                                                    : "scale codes xa = ") +
                                               list(xaRow) + ", xb = " + list(xbRow)
                                         : "";
    const bool nv = m->scale == ScaleFormat::E4M3;
    const int nanCode = nv ? E4m3ScaleCode::kNaN : ScaleCode::kNaN;
    if (decideStatically && (std::count(xaRow.begin(), xaRow.end(), nanCode) ||
                             std::count(xbRow.begin(), xbRow.end(), nanCode)))
      return leave(op, rewriter, codes + ": code " + std::to_string(nanCode) +
                                     " is NaN (both placements give NaN; dequant already does)");

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
      if (!nv) codes += " (e = " + list(eRow) + ")";  // NVFP4: the scale is sa sb, no power 2^e
      for (size_t i = 0; i < nRows; ++i)
        if (!guard.contains(xaRow[i], xbRow[i]))
          return leave(op, rewriter,
                       codes +
                           (nRows > 1 ? (m->layout ? ": element " + elementName(*m->layout, int64_t(i))
                                         : grid ? ": element (" + std::to_string(i / size_t(m->cols)) + ", " +
                                                    std::to_string(i % size_t(m->cols)) + ")"
                                              : ": row " + std::to_string(i)) +
                                            "'s codes lie"
                                      : std::string(" lie")) +
                           " outside " + agreeSet + guardText + " of " + tableName + modeNote);
      remark(op, "rewrote dequant to post: " + codes + " lie in " + agreeSet + guardText + " of " +
                     tableName + accNote + modeNote);
      rewriter.setInsertionPoint(op);
      if (nv) {
        std::vector<float> sRow;  // S = sa sb per dot product, exact in f32
        for (size_t i = 0; i < nRows; ++i) sRow.push_back(nvfp4ScaleProduct(xaRow[i], xbRow[i]));
        const bool same = std::all_of(sRow.begin(), sRow.end(), [&](float v) { return v == sRow[0]; });
        Value r = buildPostNvfp4(rewriter, op->getLoc(), *m, Value(), Value(),
                                 same ? std::vector<float>{sRow[0]} : sRow);
        replaceAndClean(rewriter, *m, r);
        return success();
      }
      const auto [eMin, eMax] = std::minmax_element(eRow.begin(), eRow.end());
      // One constant factor when every row has the same e.
      std::vector<int> eConsts = (*eMin == *eMax) ? std::vector<int>{*eMin} : eRow;
      Value r = buildPost(rewriter, op->getLoc(), *m, Value(), eConsts, postScaling(*eMin, *eMax, dm));
      replaceAndClean(rewriter, *m, r);
      return success();
    }

    // Runtime guard: post where the codes lie in the agree set, the original ops elsewhere.
    const bool perRow = m->sa.perRow || m->sb.perRow || m->layout;
    remark(op, std::string("inserted a runtime guard: post where (xa, xb) lies in ") +
                   (perRow ? ((m->cols || m->layout) ? "(for every element of the tile) " : "(for every row of the tile) ") : "") +
                   agreeSet + guardText + " of " + tableName +
                   ", dequant elsewhere" + accNote + modeNote);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    Value xaV, xbV;
    if (m->layout) {  // codes per result element, vector<result shape x i32>
      xaV = layoutCodesI32(rewriter, loc, m->la, *m->layout);
      xbV = layoutCodesI32(rewriter, loc, m->lb, *m->layout);
    } else {
      xaV = codeI32(rewriter, loc, m->sa);
      xbV = codeI32(rewriter, loc, m->sb);
    }
    if (!m->layout && perRow && m->cols) {  // a matmul tile: codes of output (i, j), xa of row i, xb of column j
      Type i32 = rewriter.getI32Type();
      auto out = VectorType::get({m->rows, m->cols}, i32);
      if (isa<VectorType>(xaV.getType())) {  // vector<M> -> [i, j] = xa[i]
        Value t = vector::BroadcastOp::create(rewriter, loc, VectorType::get({m->cols, m->rows}, i32), xaV);
        xaV = vector::TransposeOp::create(rewriter, loc, t, ArrayRef<int64_t>{1, 0});
      } else {
        xaV = vector::BroadcastOp::create(rewriter, loc, out, xaV);
      }
      xbV = vector::BroadcastOp::create(rewriter, loc, out, xbV);  // vector<N> -> [i, j] = xb[j]; or one code
    } else if (!m->layout && perRow) {  // one code per row on both sides
      auto rowsI32 = VectorType::get({m->rows}, rewriter.getI32Type());
      if (!isa<VectorType>(xaV.getType())) xaV = vector::BroadcastOp::create(rewriter, loc, rowsI32, xaV);
      if (!isa<VectorType>(xbV.getType())) xbV = vector::BroadcastOp::create(rewriter, loc, rowsI32, xbV);
    }
    Value e = arith::SubIOp::create(rewriter, loc, arith::AddIOp::create(rewriter, loc, xaV, xbV),
                                    intConst(rewriter, loc, xaV.getType(), 254));
    Value cond = buildGuardCondition(rewriter, loc, guard, xaV, xbV, e);
    const auto [eLo, eHi] = eRange(guard);
    const PostScaling scaling = nv ? PostScaling::F32 : postScaling(eLo, eHi, dm);
    auto ifOp = scf::IfOp::create(
        rewriter, loc, cond,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l, nv ? buildPostNvfp4(b, l, blk, xaV, xbV, {}) : buildPost(b, l, blk, e, {}, scaling));
        },
        [&](OpBuilder &b, Location l) {
          IRMapping map;
          if (blk.rowA || blk.rowB) {
            // A row of a 2-D product: the row's own dequant (scaling_extf is elementwise, so
            // the row of the scaled tile is the scaled row of the elements and scales).
            auto rowExt = [&](arith::ScalingExtFOp ext, std::optional<int64_t> row) -> Value {
              if (!row) return b.clone(*ext)->getResult(0);
              Value in = rowOf(b, l, ext.getIn(), row), sc = rowOf(b, l, ext.getScale(), row);
              return arith::ScalingExtFOp::create(b, l, withShapeOf(in.getType(), b.getF32Type()), in, sc,
                                                  ext.getFastmathAttr());
            };
            Value A = rowExt(blk.extA, blk.rowA), B = rowExt(blk.extB, blk.rowB);
            arith::MulFOp mul = blk.mul;
            map.map(blk.reduced, arith::MulFOp::create(b, l, A, B, mul.getFastmathAttr()).getResult());
          } else {
            b.clone(*blk.extA, map);
            if (blk.extB != blk.extA) b.clone(*blk.extB, map);
            if (blk.mul) b.clone(*blk.mul, map);
          }
          Operation *red = b.clone(*blk.root, map);
          scf::YieldOp::create(b, l, red->getResult(0));
        });
    ifOp->setAttr(kGuardAttrName, rewriter.getStringAttr(guard.str()));
    ifOp->setAttr(kPostAttrName, rewriter.getStringAttr(scaling == PostScaling::F64 ? "f64" : "f32"));
    replaceAndClean(rewriter, *m, ifOp.getResult(0));
    return success();
  }

  /// Emits a remark (when enabled) prefixed with the pass name.
  void remark(Operation *op, const std::string &msg) const {
    if (state.emitRemarks) mlir::emitRemark(op->getLoc(), "mx-scale-placement: ") << msg;
  }
  /// Reports an error (the pass then fails: no output, never a silent rewrite).
  LogicalResult fail(Operation *op, PatternRewriter &rewriter, const std::string &why) const {
    state.hadError = true;
    mlir::emitError(op->getLoc(), "mx-scale-placement: ") << why;
    return rewriter.notifyMatchFailure(op, why);
  }
  /// Leaves the block unchanged, saying why.
  LogicalResult leave(Operation *op, PatternRewriter &rewriter, const std::string &why) const {
    remark(op, "left unchanged: " + why);
    return rewriter.notifyMatchFailure(op, why);
  }
  /// Replaces the root by `r` and erases the original ops that nothing else uses.
  static void replaceAndClean(PatternRewriter &rewriter, const MxBlock &m, Value r) {
    replaceAndEraseDead(rewriter, m.root, r);
  }

  MxScalePlacementState &state; ///< options, tables and the error flag of the running pass
};

/// The pattern rooted at each op that sums MX products: `vector.reduction`,
/// `vector.multi_reduction`, `vector.contract`.
template <typename OpT>
struct MxScalePlacementPattern : OpRewritePattern<OpT> {
  MxScalePlacementPattern(MLIRContext *ctx, MxScalePlacementState &state)
      : OpRewritePattern<OpT>(ctx), rewriter_(state) {}
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    return rewriter_.matchAndRewriteRoot(op, rewriter);
  }
  MxBlockRewriter rewriter_; ///< the shared decision and rewrite
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
    if (!guards.empty() && !tablesList.empty()) {
      mlir::emitError(getOperation()->getLoc(),
                      "mx-scale-placement: guards= and tables= cannot be combined (guards= is the one table "
                      "for every block)");
      return signalPassFailure();
    }
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
      if (tablesList.empty()) {
        tables = GuardTableSource::fromDirectory(dir, trust);
      } else {
        std::string err;
        tables = GuardTableSource::fromList(std::vector<std::string>(tablesList.begin(), tablesList.end()), dir,
                                            trust, err);
        if (!tables) {
          mlir::emitError(getOperation()->getLoc(), "mx-scale-placement: cannot use tables=") << err;
          return signalPassFailure();
        }
      }
      // The default tables-dir: the committed tables, then the committed grown set (every
      // element pair, each operand order its own certified table, at k = 32: docs/mlir.md),
      // then the committed NVFP4 set (k = 16).
      if (tablesDir.empty())
        for (auto [dir, what] : {std::pair{defaultGrownDir(), "grown"}, std::pair{defaultNvfp4Dir(), "NVFP4"}}) {
          if (dir.empty()) continue;
          std::string err;
          if (!tables->appendIndex(dir, err)) {
            mlir::emitError(getOperation()->getLoc(), "mx-scale-placement: cannot use the committed ")
                << what << " set " << err;
            return signalPassFailure();
          }
        }
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
    // Structured ops are matched once vectorized: say so where one computes MX products.
    if (state.mode != PlacementMode::Off && state.emitRemarks)
      getOperation()->walk([](Operation *op) {
        if (!op->getName().getStringRef().starts_with("linalg.")) return;
        bool scaled = false;
        op->walk([&](arith::ScalingExtFOp) { scaled = true; });
        if (scaled)
          mlir::emitRemark(op->getLoc(), "mx-scale-placement: left unchanged: a ")
              << op->getName() << " that scales MX elements is matched after vectorization "
              << "(docs/mlir.md, \"From linalg\": transform.structured.vectorize with "
              << "mlir_pass/pipelines/linalg-vectorize.mlir, then --mx-scale-placement)";
      });
    if (state.hadError) signalPassFailure();
  }

  Option<std::string> guards{*this, "guards",
                             llvm::cl::desc("A certificate or exported guard table to use for every block, or a "
                                            "sweep index (INDEX.json, or a directory holding index.json) whose "
                                            "certified entries are looked up by configuration (default: the "
                                            "committed certified tables)"),
                             llvm::cl::init("")};
  ListOption<std::string> tablesList{
      *this, "tables",
      llvm::cl::desc("Where to look for each block's table first, in order (comma-separated): directories (their "
                     "index.json when they have one, else their files by name), sweep index files, and certificates; "
                     "then tables-dir (the committed tables by default)")};
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
  patterns.add<MxScalePlacementPattern<vector::ReductionOp>, MxScalePlacementPattern<vector::MultiDimReductionOp>,
               MxScalePlacementPattern<vector::ContractionOp>>(patterns.getContext(), state);
}

std::unique_ptr<Pass> createMxScalePlacementPass() { return std::make_unique<MxScalePlacementPass>(); }

void registerMxScalePlacementPass() { PassRegistration<MxScalePlacementPass>(); }

}  // namespace mxcert::mlir_pass

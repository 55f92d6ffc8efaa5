// mlir_pass/MxScalePlacement.h — the certified scale-placement rewrite of SPEC §8.
//
// The pass `--mx-scale-placement` finds MX block dot products written with upstream ops,
//
//   %sav = vector.broadcast %sa : f8E8M0FNU to vector<Kxf8E8M0FNU>
//   %sbv = vector.broadcast %sb : f8E8M0FNU to vector<Kxf8E8M0FNU>
//   %A = arith.scaling_extf %a, %sav : vector<KxELT>, vector<Kxf8E8M0FNU> to vector<Kxf32>
//   %B = arith.scaling_extf %b, %sbv : vector<KxELT>, vector<Kxf8E8M0FNU> to vector<Kxf32>
//   %P = arith.mulf %A, %B : vector<Kxf32>
//   %R = vector.reduction <add>, %P : vector<Kxf32> into f32
//
// (a scale may also be a broadcast `vector<1xf8E8M0FNU>`, i8 bits broadcast and bitcast to
// f8E8M0FNU, or a splat constant: one 8-bit code per block; the products may also be summed
// from a constant +0.0 / -0.0 accumulator, by `vector.multi_reduction`, or by a 1-D
// `vector.contract`, served by tables over K + 1 leaves, of every order where the op leaves
// the order open: docs/mlir.md),
// whose meaning is the `dequant` placement over the `seq` tree in f32, rne, with subnormals as
// the denormal mode says (the option `denormal`, or the function's LLVM attribute; kept by
// default):
//   A_i = rnd(2^sa a_i), B_i = rnd(2^sb b_i), R = ((A_0 B_0 + A_1 B_1) + A_2 B_2) + ...
// (every product and every sum rounded once), with sa = xa - 127, sb = xb - 127 for the scale
// codes xa, xb. It rewrites them to the `post` placement over the same leaves,
//   D = ((p_0 + p_1) + p_2) + ...,  p_i = rnd(a_i b_i),   R = rnd(2^e D),  e = xa + xb - 254,
// (2^e D as one f32 multiply where every e it meets allows that, else through f64),
// wherever a certified guard table (certs/) of that denormal mode says that the two
// placements give the same bits: at compile time when both scales are constants, otherwise
// behind an `scf.if` whose condition
// compares the integer scale codes with the guard's regions (post inside, the original
// computation outside). Everything else is left unchanged with a remark naming the reason.
// A table decides only after it is admitted: a certificate must pass the independent checker
// (`mxcert check`, run as a subprocess: TableCheck.h), a compact table without evidence is
// refused unless allow-uncertified=true.
#pragma once

#include "certs/certificate.h"
#include "certs/sweep_index.h"
#include "mlir_pass/TableCheck.h"
#include "models/formats.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace mxcert::mlir_pass {

/// The MX element format of an MLIR type (compared by its printed name with
/// ElementFormat::mlirType(), the one place that names them), or nullopt.
std::optional<ElementFormat> elementFormatOf(mlir::Type t);

/// The scale format of an MLIR scale element type: f8E8M0FNU is MX's e8m0, f8E4M3FN NVFP4's
/// e4m3 (docs/semantics.md, "NVFP4"); nullopt for any other type.
std::optional<ScaleFormat> scaleFormatOf(mlir::Type t);

/// How the pass decides between the placements (the pass option `mode`).
enum class PlacementMode {
  Auto,    ///< constant scales: decide at compile time; otherwise insert a runtime guard
  Static,  ///< only blocks with constant scales are rewritten (compile-time decision)
  Runtime, ///< every matched block gets a runtime guard, even with constant scales
  Off,     ///< leave everything unchanged
};

/// Parses "auto", "static", "runtime", "off".
std::optional<PlacementMode> parsePlacementMode(const std::string &s);

/// The floating-point environment a block runs in, for its f32 subnormals (the pass option
/// `denormal`, or the function's LLVM attributes; docs/mlir.md). Each is served only by
/// tables certified for the model's matching `--subnormals` mode (docs/semantics.md):
enum class DenormalMode {
  IEEE, ///< gradual underflow (LLVM "ieee"): tables with subnormals keep
  FTZ,  ///< results flushed, operands read as they are ("preserve-sign,ieee"): ftz tables
  DAZ,  ///< results flushed and subnormal operands read as zero ("preserve-sign,preserve-sign"): daz tables
};

/// Parses "ieee", "ftz", "daz".
std::optional<DenormalMode> parseDenormalMode(const std::string &s);
/// "ieee", "ftz", "daz".
const char *toString(DenormalMode m);
/// The model's subnormal mode that describes `m`: keep, ftz, daz.
Subnormals subnormalsOf(DenormalMode m);

/// The denormal mode an LLVM `denormal-fp-math` value ("OUT[,IN]", IN defaulting to OUT)
/// describes, or nullopt with `why` set for the values mxcert does not model
/// (positive-zero, dynamic, and DAZ without FTZ: "ieee,preserve-sign").
std::optional<DenormalMode> denormalModeOfLLVM(const std::string &value, std::string &why);

/// The denormal mode of the function enclosing `op`, from the attributes LLVM honours: the
/// function's `denormal_fp_math_f32` (else `denormal_fp_math`), as `func.func` and `llvm.func`
/// carry them, or a `passthrough` entry "denormal-fp-math-f32" (else "denormal-fp-math").
/// `attr` is set to the attribute that decided ("" when the function has none: then nullopt
/// and `why` empty); nullopt with `why` set when the attribute names a mode mxcert does not
/// model or two attributes disagree.
std::optional<DenormalMode> functionDenormalMode(mlir::Operation *op, std::string &attr, std::string &why);

/// Which reduction trees a table must cover for a block (docs/mlir.md, "What the pass matches").
enum class ReductionOrder {
  Seq, ///< the op fixes the ordered sum ((t_0 + t_1) + t_2) + ...: a seq table or an any-order table
  Any, ///< the op leaves the order to its lowering (`vector.contract`, `vector.multi_reduction`): an
       ///< any-order table (every tree, `--tree any` or `any:N`)
};

/// "seq" or "any".
const char *toString(ReductionOrder o);

/// A guard table read from a file, with the file it came from and whether it may be used.
struct LoadedTable {
  std::string path;        ///< the file the table was read from
  certs::GuardTable table; ///< its configuration, placements, relation and agree guard
  std::string sha256;      ///< SHA-256 of the bytes `table` was parsed from
  bool compact = false;    ///< a compact `mxcert-guard-table` (claims only: nothing to check)
  /// Whether the table may decide a rewrite (see GuardTableSource::admit).
  enum class Trust {
    Unchecked,   ///< not needed yet
    Verified,    ///< a certificate that the checker accepted
    Uncertified, ///< a compact table, used unchecked because of allow-uncertified=true
    Refused,     ///< refused; the error was reported once
  } trust = Trust::Unchecked;
};

/// The outcome of looking up the table for one block.
struct TableLookup {
  LoadedTable *table = nullptr; ///< a table whose configuration matches, or null
  std::string reason;           ///< when null: why (a remark, or an error message)
  bool error = false;           ///< when null: the reason is an unreadable or invalid file
};

/// What the pass trusts: how certificates are verified, and whether compact tables may be
/// used without evidence (the pass options `checker=`, `check-cache=`, `allow-uncertified=`).
struct TrustOptions {
  CheckOptions check;            ///< where the checker and its cache are
  bool allowUncertified = false; ///< use compact tables unchecked
};

/// Where guard tables come from: one explicit file (`guards=FILE`), a sweep index
/// (`guards=INDEX.json`, or `guards=DIR` holding DIR/index.json; docs/sweeps.md) whose
/// certified entries are looked up by configuration, a list of sources searched in order
/// (`tables=`: directories, indexes, certificates) before the table directory, or the
/// directory of the committed certified tables alone, looked up by file name (certs::tableFileName:
/// `<a>x<b>_f32_rne_keep_k<K>_seq_dequant-post_bitwise.json`). Whichever, the table's own
/// configuration is checked against the block's before it is used; a file name or an index
/// entry is only a hint (and an index entry's certificate must be exactly the entry's table).
/// A table whose configuration fits must still be admitted (`admit`) before its agree set
/// decides anything. One source serves one pass run on one thread; the verification cache
/// behind `admit` is process-wide and thread-safe.
class GuardTableSource {
public:
  /// Every block is checked against the table in `file`, or, when `file` is a sweep index
  /// (or a directory holding one as index.json), looked up in its entries. On an unreadable
  /// or invalid file or index, returns null and sets `error` to a one-line reason.
  static std::unique_ptr<GuardTableSource> fromFile(const std::string &file, const TrustOptions &trust,
                                                    std::string &error);
  /// Tables are looked up by configuration in `dir`.
  static std::unique_ptr<GuardTableSource> fromDirectory(const std::string &dir, const TrustOptions &trust);
  /// Tables are looked up in `paths`, in order (the pass option `tables=`), then in
  /// `fallbackDir` (the committed tables, or tables-dir=): each path is a directory (its
  /// index.json when it has one, else its files by name), a sweep index file, or one
  /// certificate (used where its configuration fits). On an unreadable or invalid path,
  /// returns null and sets `error` to a one-line reason.
  static std::unique_ptr<GuardTableSource> fromList(const std::vector<std::string> &paths,
                                                    const std::string &fallbackDir, const TrustOptions &trust,
                                                    std::string &error);

  /// Appends the sweep index of directory `dir` (its index.json) as the last place to look
  /// (the committed grown set after the default tables-dir). On an unreadable or invalid
  /// index, returns false and sets `error` to a one-line reason.
  bool appendIndex(const std::string &dir, std::string &error);

  /// The table for a block of `k` leaves of formats `a` and `b` (f32, rne, dequant/post,
  /// bitwise, subnormals as `mode` requires: never a table of another mode; a seq table or an
  /// any-order table for `order` Seq, an any-order table for Any), or the reason there is
  /// none. Tables are read once and cached. `scale` E4M3: an NVFP4 table (e4m3 scale codes).
  /// Only the configuration is compared: nothing is verified yet. Through an index: the
  /// first certified entry (in index order) whose configuration, placements and relation
  /// fit; an entry that fits but is not certified is never read (the reason names it).
  TableLookup lookup(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode, ReductionOrder order,
                     ScaleFormat scale = ScaleFormat::E8M0);

  /// Decides whether `t` may decide rewrites: a certificate must pass the checker
  /// (`mxcert check`, cached by content hash: see TableCheck.h), then its trust is
  /// Verified; a compact table is Uncertified when allow-uncertified is set and refused
  /// otherwise. On refusal returns failure with `error` set to a one-line reason the first
  /// time (the caller reports it) and empty afterwards. `warning`, when set, is a one-line
  /// warning to report (the check cache could not be written).
  mlir::LogicalResult admit(LoadedTable &t, std::string &error, std::string &warning);

  /// The file name (certs::tableFileName) of the table of tree `tree` ("seq" or "any") for a
  /// block; a directory lookup reads the seq file, then the any file, for order Seq, and
  /// only the any file for order Any.
  static std::string tableFileName(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                   ReductionOrder tree, ScaleFormat scale = ScaleFormat::E8M0);
  /// The `mxcert table` command that makes the table of tree `tree` for a block.
  static std::string tableCommand(const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                                  ReductionOrder tree, ScaleFormat scale = ScaleFormat::E8M0);

private:
  explicit GuardTableSource(const TrustOptions &trust) : allowUncertified_(trust.allowUncertified), checker_(trust.check) {}
  /// Reads a table file (certificate or compact table); throws on an unreadable or invalid file.
  static LoadedTable load(const std::string &path);
  /// The same from the file's bytes and their parse.
  static LoadedTable loadParsed(const std::string &path, const std::string &bytes, const nlohmann::json &j);
  /// Reads the certificate of the certified index entry `e` (certs::readIndexedTable: it
  /// must be exactly the entry's table); throws SchemaError naming the entry.
  static LoadedTable loadEntry(const certs::IndexEntry &e);
  /// Why a table of configuration `c`, placements `lhs`/`rhs` and relation `rel` cannot
  /// serve a block (a, b, k, mode, order, scale), or "" when it can.
  static std::string mismatch(const ModelConfig &c, Placement lhs, Placement rhs, Relation rel,
                              const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                              ReductionOrder order, ScaleFormat scale);
  /// One place tables are looked up in: a sweep index, a directory (files by name), or one
  /// certificate (a `tables=` entry).
  struct Source {
    std::optional<certs::SweepIndex> index; ///< a sweep index
    std::string dir;                        ///< else a directory
    std::string file;                       ///< else one certificate (read into files_ by fromList)
  };
  /// The table for (a, b, k, mode, order) in one source (see lookup): the table read into
  /// files_ (its configuration not yet compared), or the reason there is none.
  TableLookup lookupIn(const Source &s, const ElementFormat &a, const ElementFormat &b, int k, DenormalMode mode,
                       ReductionOrder order, ScaleFormat scale);
  /// The same through a sweep index.
  TableLookup lookupIndex(const certs::SweepIndex &index, const ElementFormat &a, const ElementFormat &b, int k,
                          DenormalMode mode, ReductionOrder order, ScaleFormat scale);
  /// The same in a directory.
  TableLookup lookupDirectory(const std::string &dir, const ElementFormat &a, const ElementFormat &b, int k,
                              DenormalMode mode, ReductionOrder order, ScaleFormat scale);
  /// The table file at `path`, read once (files_); throws on an unreadable or invalid file.
  LoadedTable &loadOnce(const std::string &path);
  std::optional<LoadedTable> file_; ///< the explicit table (guards=FILE), if any
  std::vector<Source> sources_;     ///< else where tables are looked up, in order
  bool allowUncertified_ = false;         ///< allow-uncertified=true
  TableChecker checker_;                  ///< verifies certificates
  /// The tables read so far, by path (one LoadedTable per file, so that a file two lookups
  /// find is read and admitted once).
  std::map<std::string, LoadedTable> files_;
  /// Directory and index lookups already done, by (a, b, k, mode, order, scale): the table
  /// (in files_), or the reason there is none.
  std::map<std::tuple<std::string, std::string, int, int, int, int>, TableLookup> cache_;
};

/// Whether the elements [lo, hi) of the 1-D scale vector `scale` (the scale operand of an
/// `arith.scaling_extf`) carry one scale code in a form the pass reads (docs/mlir.md, "Wide
/// K": a slice of a per-block scale, a broadcast, a constant, through insert_strided_slice,
/// vector.shuffle and an 8-bit bitcast); sets `why` when they do not. `--mx-split-blocks`
/// splits a reduction only into ranges this accepts.
bool isOneBlockScale(mlir::Value scale, int64_t lo, int64_t hi, std::string &why);

/// Whether the scale `scale` of an operand (its dimension i indexed by iteration dimension
/// `dims[i]`, the iteration dimensions of sizes `sizes`) carries one code along iteration
/// dimension `k` (`side` names the operand in `why`): read as in "Any contraction layout" (docs/mlir.md: traced through transposes,
/// broadcasts, unit reshapes and 8-bit bitcasts to codes not indexed by k, or a constant equal
/// along k); sets `why` when not. `--mx-split-blocks` splits a reduction over two dimensions at
/// the one both scales are constant along.
bool isScaleConstantAlong(mlir::Value scale, llvm::ArrayRef<int64_t> dims, llvm::ArrayRef<int64_t> sizes, int64_t k,
                          const char *side, std::string &why);

/// Erases `op` and, recursively, the pure producers it leaves without uses.
void eraseDeadChain(mlir::RewriterBase &rewriter, mlir::Operation *op);
/// Replaces `op` by `r`, then erases the producers of `op`'s operands that nothing uses any
/// more (eraseDeadChain): the rewritten computation's original ops.
void replaceAndEraseDead(mlir::RewriterBase &rewriter, mlir::Operation *op, mlir::Value r);

/// What the rewrite patterns share with the pass that runs them.
struct MxScalePlacementState {
  PlacementMode mode = PlacementMode::Auto; ///< the `mode` option
  /// The `denormal` option (unset: the function's attributes decide, else ieee).
  std::optional<DenormalMode> denormal;
  GuardTableSource *tables = nullptr;       ///< the guard tables (not owned)
  bool emitRemarks = true;                  ///< report every decision as a remark
  bool hadError = false;                    ///< set when a pattern emitted an error
};

/// Adds the patterns that rewrite matched MX block dot products, rooted at the op that sums
/// the products: `vector.reduction` (with or without a zero accumulator),
/// `vector.multi_reduction` and `vector.contract`: one dot product, a tile of one per row, a
/// matmul tile or a contraction in any layout (batch dimensions, a transposed result) of one
/// per output element, with scales per block, per row or column, or per block of a wide K (docs/mlir.md, "What the pass matches"). `state` must outlive the pattern set. Driven once per op (as
/// `walkAndApplyPatterns` does), every decision is reported exactly once.
void populateMxScalePlacementPatterns(mlir::RewritePatternSet &patterns, MxScalePlacementState &state);

/// The default table directory: the installed tables of an installed mxcert-opt or pass plugin
/// (InstallLayout.h), else the repository's certs/tables (fixed at build time).
std::string defaultTablesDir();

/// The committed grown set the pass searches after the default tables-dir (certs/grown, or
/// <prefix>/share/mxcert/grown when installed), or "" when there is none.
std::string defaultGrownDir();

/// The committed NVFP4 set the pass searches after the grown set (certs/nvfp4, or
/// <prefix>/share/mxcert/nvfp4 when installed), or "" when there is none.
std::string defaultNvfp4Dir();

/// Creates the `--mx-scale-placement` pass.
std::unique_ptr<mlir::Pass> createMxScalePlacementPass();
/// Registers `--mx-scale-placement` with the global pass registry.
void registerMxScalePlacementPass();

/// The discardable attribute on the `scf.if` of a runtime guard: the guard, as text.
constexpr const char *kGuardAttrName = "mxcert.guard";
/// The discardable attribute on the `scf.if` of a runtime guard: "f32" when the post branch
/// scales by 2^e with one f32 multiply (every e of the agree set allows it), "f64" otherwise.
constexpr const char *kPostAttrName = "mxcert.post";

}  // namespace mxcert::mlir_pass

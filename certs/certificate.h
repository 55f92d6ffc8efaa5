// certs/certificate.h — the certificate of a guard table: what it claims, and the evidence.
//
// A certificate states the exact agree set of two placements for one configuration, as a
// guard, with per region the solver proofs of sub-regions covering it, and per excluded code
// pair a witness (concrete element codes) that refutes it. The JSON form is documented in
// docs/certificates.md and described by certs/certificate.schema.json. Reading validates the
// schema strictly (unknown keys, wrong types, out-of-range numbers are SchemaError); whether
// the claims are TRUE is the checker's business (src/check), not the reader's.
#pragma once

#include "certs/config_json.h"
#include "models/guard.h"
#include "models/induction.h"
#include "models/nvfp4.h"
#include "models/placement.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mxcert::certs {

/// The format identifier and version written and accepted. Version 2 (obligations mode):
/// every QF_LIA proof records its obligations; a version 1 file (whose proofs trusted the
/// encoder's analysis) is refused with "format version 1: regenerate with `mxcert table
/// ...`" (regenerateCommand), as a SchemaError (exit 2), never as a failed check.
constexpr const char *kFormatName = "mxcert-certificate";
constexpr int kFormatVersion = 2;
/// The version of the proof-less guard table ("mxcert-guard-table", `mxcert export --as
/// json`): unchanged, it holds no proof.
constexpr int kGuardTableVersion = 1;

/// The `mxcert table` command that regenerates the certificate `j` (of any version) claims
/// to be, as far as its configuration can be read ("mxcert table ..." otherwise).
std::string regenerateCommand(const nlohmann::json &j);

/// One solver proof: the query for `region` was unsat.
struct Proof {
  Region region;
  /// NVFP4 certificates: the region in scale coordinates (models/nvfp4.h) instead of `region`
  /// ("region": {"ma", "mb", "ja", "jb", "j"}).
  std::optional<Nvfp4Region> nv;
  std::string solver;         ///< cvc5 | z3
  std::string solverVersion;
  double seconds = 0;
  std::string encoding = "lia";
  std::string querySha256;    ///< SHA-256 of the SMT-LIB2 text of the query
  long queryBytes = 0;
  std::string query;          ///< the text itself (optional, may be empty)
  std::string queryFile;      ///< a file holding the text, relative to the certificate (optional)
  /// Whether the query is the constant false: the encoder's analysis decided the region
  /// before any solver saw it ("constant_false"; absent in older files; the checker
  /// recomputes it and rejects a wrong value).
  std::optional<bool> constantFalse;
  /// Obligations mode ("obligations": {"phases", "facts", "decisions"}; required for a QF_LIA
  /// proof since format version 2): the query was built with every fact as an obligation
  /// (smt/term.h), the checker regenerates it so and re-proves every phase.
  struct Obligations {
    long phases = 1, facts = 0, decisions = 0;
  };
  std::optional<Obligations> obligations;
  /// Any-order certificates (config.tree "any" / "any:N"): the induction step this query
  /// proves ("step") and the invariant ("invariant": {"mode", "base", "grid", "unit"} and an
  /// optional "no_inf", models/induction.h). A region counts as proven when every step of
  /// inductionSteps(config) has a proof of that region with the same invariant. In one-tree
  /// certificates only on the proofs the every-tree induction made.
  std::optional<InductionStep> step;
  std::optional<Invariant> invariant;
};

/// One witness: element codes, and the code pairs it claims to refute.
struct CertWitness {
  std::vector<unsigned> a, b;  ///< element codes (k each)
  Guard refutes;               ///< the excluded pairs this witness covers
  /// The codes' values as the file writes them ("a_values", "b_values"; informational, empty
  /// when absent). The writer always derives them from the codes; the checker compares.
  std::vector<std::string> aValues, bValues;
  /// Any-order certificates: the tree (an S-expression over the k leaves, inner nodes within
  /// the fan-in limit) on which the inputs make the placements differ ("tree"). Absent in
  /// one-tree certificates, whose witnesses use config.tree.
  std::string tree;
};

/// A closed-form bound recorded with the table (optional).
struct BoundRecord {
  std::string formula;
  std::vector<std::pair<std::string, long>> params;
  Guard agree;                 ///< the predicted agree set
};

/// A guard table certificate.
struct Certificate {
  std::string toolVersion;
  ModelConfig config;
  Placement lhs = Placement::Pre, rhs = Placement::Post;
  Relation relation = Relation::Bitwise;
  std::string engine = "solver";   ///< solver | exhaustive
  Guard agree;
  long agreePairs = 0;             ///< "agree_pairs" as read (the writer recomputes it)
  std::vector<Proof> proofs;
  std::vector<std::vector<int>> regionProofs;  ///< per agree region: indices into proofs
  std::vector<CertWitness> witnesses;
  std::optional<BoundRecord> bound;
  nlohmann::json stats = nlohmann::json::object();  ///< informational
};

/// The certificate as JSON (the format of docs/certificates.md).
nlohmann::json toJson(const Certificate &c);
/// Reads and validates a certificate; throws SchemaError naming the offending field.
Certificate certificateFromJson(const nlohmann::json &j);
/// Reads a certificate file; throws SchemaError (also for unreadable files, bad JSON,
/// duplicate keys, nesting deeper than kMaxJsonDepth and files over kMaxFileBytes).
Certificate readCertificate(const std::string &path);

/// The contents of a regular file of at most maxBytes; SchemaError for a directory, a FIFO,
/// a device or a socket (refused without blocking), a larger file, or a read error.
std::string readRegularFile(const std::string &path, size_t maxBytes);

/// Limits of the reader (inputs beyond them are SchemaError, never a crash or a stall).
constexpr size_t kMaxFileBytes = size_t(1) << 30;   ///< 1 GiB
constexpr int kMaxJsonDepth = 64;                   ///< nesting of arrays and objects
constexpr size_t kMaxListLength = size_t(kNumCodes) * kNumCodes;  ///< regions, proofs, witnesses

/// Parses JSON text strictly (duplicate keys and deep nesting rejected); throws SchemaError
/// whose message starts with `what` (e.g. the file name).
nlohmann::json parseStrict(const std::string &text, const std::string &what);

/// The guard of a certificate or of a compact table, whichever the file is (for consumers
/// such as the MLIR pass and GPU replay). Throws SchemaError.
struct GuardTable {
  ModelConfig config;
  Placement lhs, rhs;
  Relation relation;
  Guard agree;
  bool certified = false;  ///< a full certificate (proofs and witnesses present)
};
GuardTable readGuardTable(const std::string &path);
/// The compact guard table (mxcert export --as json) of `t`: its claims without evidence.
nlohmann::json toCompactJson(const GuardTable &t);
/// The same from parsed JSON (a certificate or a compact table). Throws SchemaError. NVFP4
/// tables (e4m3 scales, codes 0..127) are refused unless `allowNvfp4`: the MLIR pass, GPU
/// replay and plot index e8m0 codes; `mxcert export` reads both.
GuardTable guardTableFromJson(const nlohmann::json &j, bool allowNvfp4 = false);

}  // namespace mxcert::certs

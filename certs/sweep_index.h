// certs/sweep_index.h — reading the index of a sweep (`mxcert sweep -o DIR` writes
// DIR/index.json; docs/sweeps.md, "The index" and "Using the index") and the certificates it
// lists. Solver-free, like the rest of the certificate reader, so that the MLIR pass can
// look tables up through an index.
#pragma once

#include "certs/certificate.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mxcert::certs {

/// The index format identifier and version written and accepted.
constexpr const char *kIndexName = "mxcert-sweep-index";
constexpr int kIndexVersion = 1;

/// One entry of a sweep index: one table of the manifest and its outcome.
struct IndexEntry {
  int entry = 0;              ///< its number in the expanded manifest (0-based)
  std::string name;           ///< the table's name (certs/table_name.h)
  std::string file;           ///< "file" as written: the certificate, relative to the index's directory
  std::string path;           ///< `file` resolved against the index's directory (absolute `file`: itself)
  ModelConfig config;         ///< the table's configuration
  Placement lhs = Placement::Pre, rhs = Placement::Post;
  Relation relation = Relation::Bitwise;
  std::string engine;         ///< solver | exhaustive
  std::string status;         ///< certified | unknown | failed
  std::optional<Guard> agree; ///< the agree set (certified entries only)
  /// Whether the entry may be used as a table at all (status "certified"); its certificate
  /// is still read, compared with the entry and trusted only as the reader's caller decides.
  bool certified() const { return status == "certified"; }
  /// "entry N (NAME)", for messages.
  std::string label() const;
};

/// A sweep index as read.
struct SweepIndex {
  std::string path;                ///< the file it was read from
  std::string manifest;            ///< "manifest": the manifest's name
  std::string manifestSha256;      ///< "manifest_sha256"
  size_t entriesTotal = 0;         ///< "entries_total"
  std::optional<std::string> shard; ///< "shard" ("I/N"), absent for a whole sweep
  std::vector<IndexEntry> entries; ///< in index order (strictly increasing entry numbers)
};

/// Whether parsed JSON is meant as a sweep index (an object whose "index" is kIndexName):
/// how a reader that takes a certificate or an index tells them apart.
bool isSweepIndex(const nlohmann::json &j);

/// Validates parsed JSON `j` read from `path` against the documented schema: exactly the
/// documented keys, index/version, a 64-hex-digit manifest_sha256, "shard" null or "I/N",
/// entries with strictly increasing numbers below entries_total, each with name, file (whose
/// last component is NAME.json), options, config, lhs, rhs, relation, engine, status
/// (certified, unknown, failed), and agree/agree_pairs (the guard and its size for a
/// certified entry, null otherwise). Each `file` is resolved against `path`'s directory.
/// Throws SchemaError naming the problem (not yet prefixed with the file).
SweepIndex sweepIndexFromJson(const nlohmann::json &j, const std::string &path);

/// Reads and validates the index file `path`, or `path`/index.json when `path` is a
/// directory. Throws SchemaError "'PATH': REASON" (unreadable, not JSON, not an index, or
/// not of the schema).
SweepIndex readSweepIndex(const std::string &path);

/// The guard table in the parsed certificate `j` of the certified entry `e`: it must be a
/// certificate (a compact table is not what a sweep writes) of exactly the entry's
/// configuration, placements, relation, engine and agree set. Throws SchemaError
/// "index entry N (NAME): 'PATH': REASON". Whether its claims are true is the checker's
/// business, as for any certificate.
/// NVFP4 tables are refused unless `allowNvfp4` (as guardTableFromJson).
GuardTable indexedTableFromJson(const IndexEntry &e, const nlohmann::json &j, bool allowNvfp4 = false);

/// Reads the certificate of the certified entry `e` from `e.path` (as readGuardTable reads a
/// file) and checks it with indexedTableFromJson; `bytes`, when given, receives the file's
/// contents the table was parsed from (what a content hash must cover). Throws SchemaError
/// naming the entry.
GuardTable readIndexedTable(const IndexEntry &e, std::string *bytes = nullptr, bool allowNvfp4 = false);

}  // namespace mxcert::certs

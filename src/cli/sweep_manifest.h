// src/cli/sweep_manifest.h — sweep manifests (docs/sweeps.md): reading, expanding a grid and a
// list into table entries validated by the CLI's own parser, shards, and index entries.
#pragma once

#include "models/placement.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace mxcert::cli {

/// The manifest format identifier and version accepted (the index's: certs/sweep_index.h).
constexpr const char *kManifestName = "mxcert-sweep";
constexpr int kSweepVersion = 1;

/// One table of a sweep: its `mxcert table` options, validated.
struct SweepEntry {
  int index = 0;                                          ///< position in the expanded manifest (0-based)
  std::vector<std::pair<std::string, std::string>> opts;  ///< option name -> value ("" for a flag), sorted by name
  ModelConfig config;
  Placement lhs = Placement::Pre, rhs = Placement::Post;
  Relation relation = Relation::Bitwise;
  std::string engine = "solver";
  std::string name;  ///< the certificate's file name without ".json" (unique in the manifest)
};

/// An expanded manifest.
struct Manifest {
  std::string name;              ///< "name" of the manifest
  std::string sha256;            ///< SHA-256 of the manifest's canonical JSON (sorted keys, no spaces)
  std::vector<SweepEntry> entries;
};

/// Reads the manifest file `path`: checks "manifest"/"version", expands "grid" (the cartesian
/// product, keys in sorted order, the last varying fastest; "pairs" sets lhs and rhs together)
/// then appends "list", each entry over "defaults". Every entry is parsed as `mxcert table`
/// options; UsageError "manifest entry N (OPTIONS): REASON" for the first bad one, and for two
/// entries with the same file name.
Manifest readManifest(const std::string &path);

/// "--shard I/N" (0-based, 0 <= I < N): {I, N}; {0, 1} when absent. UsageError otherwise.
std::pair<int, int> parseShard(const std::string &text);

/// The entry's options as "a=e2m1 k=2 ..." (for messages).
std::string describeEntry(const SweepEntry &e);

/// The argv (after "mxcert table") of the entry's table command.
std::vector<std::string> tableArgv(const SweepEntry &e);

/// The index record of an entry without its outcome: entry, name, file, options, config, lhs,
/// rhs, relation, engine.
nlohmann::json indexEntryJson(const SweepEntry &e);

}  // namespace mxcert::cli

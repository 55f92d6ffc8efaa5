// certs/sweep_index.cpp — reading a sweep's index and the certificates it lists (see
// sweep_index.h; the format: docs/sweeps.md, "The index").
#include "certs/sweep_index.h"

#include <filesystem>
#include <set>

namespace mxcert::certs {

using nlohmann::json;

namespace {

namespace fs = std::filesystem;

/// Whether `s` is 64 lowercase hex digits (a SHA-256).
bool isSha256(const std::string &s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

/// Whether `s` is a shard "I/N" with 0 <= I < N (decimal, at most 6 digits each).
bool isShard(const std::string &s) {
  const size_t slash = s.find('/');
  if (slash == std::string::npos || slash == 0 || slash > 6 || slash + 1 == s.size() || s.size() - slash - 1 > 6)
    return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i != slash && (s[i] < '0' || s[i] > '9')) return false;
  return std::stol(s.substr(0, slash)) < std::stol(s.substr(slash + 1));
}

/// `file` resolved against the directory of the index file `indexPath`.
std::string resolve(const std::string &indexPath, const std::string &file) {
  const fs::path f(file), dir = fs::path(indexPath).parent_path();
  if (f.is_absolute() || dir.empty()) return file;
  return (dir / f).string();
}

/// The keys of an index entry, each required.
const std::set<std::string> kEntryKeys = {"entry",    "name",   "file",   "options", "config", "lhs",
                                          "rhs",      "relation", "engine", "status",  "agree",  "agree_pairs"};

/// Validates entry `j` (entries[i]) of an index with `total` entries; SchemaError naming
/// the field.
IndexEntry entryFromJson(const json &j, size_t i, size_t total, const std::string &indexPath) {
  const std::string where = "entries[" + std::to_string(i) + "]";
  try {
    onlyKeys(j, kEntryKeys, where);
    for (const std::string &key : kEntryKeys) field(j, key, where);  // every one required
    IndexEntry e;
    e.entry = int(getInt(j, "entry", 0, long(total) - 1));
    e.name = getString(j, "name");
    if (e.name.empty() || e.name.find('/') != std::string::npos) throw SchemaError("field 'name': not a table name");
    e.file = getString(j, "file");
    if (e.file.empty() || e.file.size() > 4096 || e.file.find('\0') != std::string::npos ||
        fs::path(e.file).filename().string() != e.name + ".json")
      throw SchemaError("field 'file': expected a path ending in the entry's NAME.json");
    e.path = resolve(indexPath, e.file);
    const json &opts = j.at("options");
    if (!opts.is_object()) throw SchemaError("field 'options' must be an object");
    for (const auto &[k, v] : opts.items())
      if (!v.is_string() && v != json(true))
        throw SchemaError("options." + k + " must be a string (or true for a flag)");
    e.config = configField(j, where);
    e.lhs = placementField(j, "lhs");
    e.rhs = placementField(j, "rhs");
    e.relation = relationField(j);
    e.engine = engineField(j);
    e.status = getString(j, "status");
    if (e.status != "certified" && e.status != "unknown" && e.status != "failed")
      throw SchemaError("field 'status': expected certified, unknown or failed");
    if (e.certified()) {
      e.agree = agreeField(j, where);
    } else if (!j.at("agree").is_null() || !j.at("agree_pairs").is_null()) {
      throw SchemaError("'agree' and 'agree_pairs' must be null for status " + e.status);
    }
    return e;
  } catch (const SchemaError &x) {
    const std::string msg = x.what();
    throw SchemaError(msg.rfind(where, 0) == 0 ? msg : where + ": " + msg);
  }
}

}  // namespace

std::string IndexEntry::label() const { return "entry " + std::to_string(entry) + " (" + name + ")"; }

bool isSweepIndex(const json &j) { return j.is_object() && j.contains("index") && j.at("index") == kIndexName; }

SweepIndex sweepIndexFromJson(const json &j, const std::string &path) {
  if (!isSweepIndex(j)) throw SchemaError(std::string("not a sweep index (\"index\": \"") + kIndexName + "\")");
  onlyKeys(j, {"index", "version", "manifest", "manifest_sha256", "entries_total", "shard", "entries"}, "index");
  if (getInt(j, "version", 0, 1000) != kIndexVersion) throw SchemaError("field 'version': unsupported version");
  SweepIndex ix;
  ix.path = path;
  ix.manifest = getString(j, "manifest");
  if (ix.manifest.empty()) throw SchemaError("field 'manifest': empty");
  ix.manifestSha256 = getString(j, "manifest_sha256");
  if (!isSha256(ix.manifestSha256)) throw SchemaError("field 'manifest_sha256': expected 64 lowercase hex digits");
  ix.entriesTotal = size_t(getInt(j, "entries_total", 1, long(kMaxListLength)));
  const json &shard = field(j, "shard", "index");
  if (!shard.is_null()) {
    if (!shard.is_string() || !isShard(shard.get<std::string>()))
      throw SchemaError("field 'shard': expected null or \"I/N\" with 0 <= I < N");
    ix.shard = shard.get<std::string>();
  }
  const json &entries = field(j, "entries", "index");
  if (!entries.is_array()) throw SchemaError("field 'entries' must be a list");
  if (entries.size() > ix.entriesTotal) throw SchemaError("field 'entries': more entries than entries_total");
  for (size_t i = 0; i < entries.size(); ++i) {
    IndexEntry e = entryFromJson(entries[i], i, ix.entriesTotal, path);
    if (!ix.entries.empty() && e.entry <= ix.entries.back().entry)
      throw SchemaError("entries[" + std::to_string(i) + "]: entry numbers must increase (entry " +
                        std::to_string(e.entry) + " after " + std::to_string(ix.entries.back().entry) + ")");
    ix.entries.push_back(std::move(e));
  }
  return ix;
}

SweepIndex readSweepIndex(const std::string &path) {
  std::error_code ec;
  const std::string file = fs::is_directory(path, ec) ? (fs::path(path) / "index.json").string() : path;
  const std::string what = "'" + file + "'";
  const json j = parseStrict(readRegularFile(file, kMaxFileBytes), what);
  try {
    return sweepIndexFromJson(j, file);
  } catch (const SchemaError &e) {
    throw SchemaError(what + ": " + e.what());
  } catch (const json::exception &e) {
    throw SchemaError(what + ": malformed index: " + e.what());
  }
}

GuardTable indexedTableFromJson(const IndexEntry &e, const json &j, bool allowNvfp4) {
  const std::string what = "index " + e.label() + ": '" + e.path + "'";
  if (!e.certified()) throw SchemaError(what + ": the entry's status is " + e.status + ", not certified");
  if (!j.is_object() || !j.contains("format") || j.at("format") != kFormatName)
    throw SchemaError(what + ": not a certificate (\"format\": \"" + kFormatName + "\")");
  Certificate c;
  try {
    c = certificateFromJson(j);
  } catch (const SchemaError &x) {
    throw SchemaError(what + ": " + x.what());
  } catch (const json::exception &x) {
    throw SchemaError(what + ": malformed certificate: " + x.what());
  }
  const char *differs = configToJson(c.config) != configToJson(e.config) ? "config"
                        : c.lhs != e.lhs                                 ? "lhs"
                        : c.rhs != e.rhs                                 ? "rhs"
                        : c.relation != e.relation                       ? "relation"
                        : c.engine != e.engine                           ? "engine"
                        : guardToJson(c.agree) != guardToJson(*e.agree)  ? "agree"
                                                                         : nullptr;
  if (differs)
    throw SchemaError(what + ": not the entry's table (its '" + differs + "' differs from the index's)");
  if (!allowNvfp4) rejectNvfp4Table(c.config);
  return GuardTable{c.config, c.lhs, c.rhs, c.relation, c.agree, c.engine == "solver"};
}

GuardTable readIndexedTable(const IndexEntry &e, std::string *bytes, bool allowNvfp4) {
  json j;
  try {
    std::string text = readRegularFile(e.path, kMaxFileBytes);
    j = parseStrict(text, "'" + e.path + "'");
    if (bytes) *bytes = std::move(text);
  } catch (const SchemaError &x) {
    throw SchemaError("index " + e.label() + ": " + x.what());
  }
  return indexedTableFromJson(e, j, allowNvfp4);
}

}  // namespace mxcert::certs

// src/cli/cmd_merge.cpp — `mxcert merge INDEX|DIR... [-o OUT]`: the shard indexes of one sweep
// joined into one index (docs/sweeps.md).
#include "certs/certificate.h"
#include "certs/sweep_index.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/cli/sweep_manifest.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <fmt/core.h>

namespace mxcert::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// Reads the sweep index `path`, validated by the index reader (certs/sweep_index.h);
/// UsageError naming the file when it is not one.
json readIndex(const std::string &path) {
  json j = certs::parseStrict(certs::readRegularFile(path, certs::kMaxFileBytes), path);
  try {
    certs::sweepIndexFromJson(j, path);
  } catch (const certs::SchemaError &e) {
    throw UsageError("'" + oneLine(path) + "': " + e.what());
  }
  return j;
}

/// The index files an argument names: the file itself, or for a directory its shard indexes
/// (index-shard-*-of-*.json, sorted), or its index.json when it holds none.
std::vector<std::string> indexFiles(const std::string &arg) {
  std::error_code ec;
  if (!fs::is_directory(arg, ec)) return {arg};
  std::vector<std::string> out;
  for (const fs::directory_entry &d : fs::directory_iterator(arg, ec)) {
    const std::string n = d.path().filename().string();
    if (n.rfind("index-shard-", 0) == 0 && n.size() > 5 && n.compare(n.size() - 5, 5, ".json") == 0)
      out.push_back(d.path().string());
  }
  std::sort(out.begin(), out.end());
  if (out.empty()) out.push_back((fs::path(arg) / "index.json").string());
  return out;
}

/// The absolute directory of the file `path` ("index.json": the current directory).
fs::path dirOf(const std::string &path) {
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  return fs::absolute(parent).lexically_normal();
}

}  // namespace

int cmdMerge(int argc, char **argv) {
  Args args(argc, argv, 2, {}, {"o"});
  if (args.positional().empty()) throw UsageError("missing INDEX files (mxcert merge INDEX... [-o OUT])");
  // The directory the output's "file" entries are relative to (stdout: the current one).
  const fs::path outDir = dirOf(args.get("o") ? *args.get("o") : std::string("./index.json"));
  json merged;
  std::string first;
  std::map<size_t, std::pair<json, std::string>> entries;  // entry number -> (record, index file)
  std::vector<std::string> files;
  for (const std::string &arg : args.positional())
    for (const std::string &f : indexFiles(arg)) files.push_back(f);
  for (const std::string &path : files) {
    json j = readIndex(path);
    if (merged.is_null()) {
      merged = j;
      first = path;
    } else if (j["manifest_sha256"] != merged["manifest_sha256"] || j["entries_total"] != merged["entries_total"]) {
      throw UsageError("'" + oneLine(path) + "' is the index of a different manifest than '" + oneLine(first) +
                       "' (manifest_sha256 " + j["manifest_sha256"].get<std::string>().substr(0, 12) + "... vs " +
                       merged["manifest_sha256"].get<std::string>().substr(0, 12) + "...)");
    }
    const fs::path base = dirOf(path);
    for (json e : j["entries"]) {
      // "file" is relative to the index that lists it: rewritten relative to OUT's directory.
      e["file"] = (base / e["file"].get<std::string>()).lexically_normal().lexically_relative(outDir).string();
      const size_t n = e["entry"].get<size_t>();
      auto it = entries.find(n);
      if (it == entries.end()) {
        entries.emplace(n, std::make_pair(e, path));  // a duplicate keeps the first one's file
      } else if (json a = it->second.first, b = e; (a.erase("file"), b.erase("file"), a != b)) {
        throw UsageError("entry " + std::to_string(n) + " (" + oneLine(e["name"].get<std::string>()) + "): '" +
                         oneLine(it->second.second) + "' and '" + oneLine(path) +
                         "' disagree (a different status, agree set or configuration)");
      }
    }
  }
  merged["shard"] = json();
  merged["entries"] = json::array();
  for (auto &[n, e] : entries) merged["entries"].push_back(e.first);
  const size_t total = merged["entries_total"].get<size_t>();
  if (entries.size() < total)
    fmt::print(stderr, "mxcert: merge: {} of {} entries (the other shards' indexes are missing)\n", entries.size(), total);
  emit(args, merged.dump(1) + "\n");
  return kOk;
}

}  // namespace mxcert::cli

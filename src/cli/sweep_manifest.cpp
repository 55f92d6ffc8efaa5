// src/cli/sweep_manifest.cpp — sweep manifests: reading, expansion, validation, shards.
#include "src/cli/sweep_manifest.h"

#include "certs/certificate.h"
#include "certs/config_json.h"
#include "certs/sha256.h"
#include "certs/table_name.h"
#include "src/cli/options.h"
#include "src/cli/reports.h"

#include <map>
#include <set>

namespace mxcert::cli {
namespace {

using nlohmann::json;
using OptionMap = std::map<std::string, std::string>;

/// The keys a manifest may hold at its top level.
const std::set<std::string> kTopKeys = {"manifest", "version", "name", "defaults", "grid", "list"};

/// The option value `v` of key `key` in `where` as command-line text: a string, a number, or
/// true for a flag (false: the flag is absent, returned as nullopt).
std::optional<std::string> optionText(const json &v, const std::string &key, const std::string &where) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number()) return v.dump();
  if (v.is_boolean()) {
    if (!tableOptions().flags.count(key))
      throw UsageError(where + ": '" + key + "' takes a value, not true/false");
    if (v.get<bool>()) return std::string();
    return std::nullopt;
  }
  throw UsageError(where + ": the value of '" + key + "' must be a string, a number or a boolean");
}

/// Sets option `key` of `m` from the JSON value `v` (a flag's false removes it).
void setOption(OptionMap &m, const std::string &key, const json &v, const std::string &where) {
  for (char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
      throw UsageError(where + ": bad option name '" + oneLine(key) + "'");
  if (auto t = optionText(v, key, where)) m[key] = *t;
  else m.erase(key);
}

/// Parses the options of entry `index` with the parser of `mxcert table`; UsageError naming
/// the entry.
SweepEntry validate(int index, const OptionMap &m) {
  SweepEntry e;
  e.index = index;
  e.opts.assign(m.begin(), m.end());
  std::vector<std::string> words = {"mxcert", "table"};
  for (const std::string &w : tableArgv(e)) words.push_back(w);
  std::vector<char *> argv;
  for (std::string &w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  try {
    Args args(int(words.size()), argv.data(), 2, tableOptions().flags, tableOptions().valued);
    e.config = parseConfig(args);
    e.lhs = parsePlacementOpt(args, "lhs", Placement::Pre);
    e.rhs = parsePlacementOpt(args, "rhs", Placement::Post);
    e.relation = parseRelationOpt(args);
    e.engine = args.get("engine", "solver");
    if (e.engine != "solver" && e.engine != "exhaustive")
      throw UsageError("unknown --engine '" + e.engine + "' (expected solver or exhaustive)");
    parseSolverOpt(args);
    parseSecondsOpt(args, "query-timeout", 120);
    parseBudget(args, 0);
    e.name = certs::tableName(e.config, args.get("tree", "seq"), e.lhs, e.rhs, e.relation, e.engine);
  } catch (const HelpRequested &) {
    throw UsageError("manifest entry " + std::to_string(index) + " (" + describeEntry(e) + "): 'help' is not a table option");
  } catch (const std::exception &x) {
    throw UsageError("manifest entry " + std::to_string(index) + " (" + describeEntry(e) + "): " + x.what());
  }
  return e;
}

}  // namespace

std::string describeEntry(const SweepEntry &e) {
  std::string s;
  for (const auto &[k, v] : e.opts) s += (s.empty() ? "" : " ") + k + (v.empty() ? "" : "=" + v);
  return oneLine(s);
}

std::vector<std::string> tableArgv(const SweepEntry &e) {
  std::vector<std::string> out;
  for (const auto &[k, v] : e.opts) {
    out.push_back("--" + k);
    if (!tableOptions().flags.count(k)) out.push_back(v);
  }
  return out;
}

Manifest readManifest(const std::string &path) {
  const json j = certs::parseStrict(certs::readRegularFile(path, certs::kMaxFileBytes), path);
  const std::string what = "manifest '" + oneLine(path) + "'";
  if (!j.is_object()) throw UsageError(what + ": not a JSON object");
  for (const auto &[k, v] : j.items())
    if (!kTopKeys.count(k)) throw UsageError(what + ": unknown key '" + oneLine(k) + "' (expected manifest, version, name, defaults, grid, list)");
  if (!j.contains("manifest") || j["manifest"] != kManifestName)
    throw UsageError(what + ": \"manifest\" must be \"" + kManifestName + "\"");
  if (!j.contains("version") || j["version"] != kSweepVersion)
    throw UsageError(what + ": \"version\" must be " + std::to_string(kSweepVersion));
  Manifest m;
  if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty())
    throw UsageError(what + ": \"name\" must be a non-empty string");
  m.name = j["name"].get<std::string>();
  m.sha256 = certs::sha256Hex(j.dump());
  OptionMap defaults;
  if (j.contains("defaults")) {
    if (!j["defaults"].is_object()) throw UsageError(what + ": \"defaults\" must be an object");
    for (const auto &[k, v] : j["defaults"].items()) setOption(defaults, k, v, what + ": defaults");
  }
  std::vector<OptionMap> expanded;
  if (j.contains("grid")) {
    const json &g = j["grid"];
    if (!g.is_object() || g.empty()) throw UsageError(what + ": \"grid\" must be a non-empty object of arrays");
    expanded.push_back(defaults);
    for (const auto &[k, vals] : g.items()) {
      const std::string where = what + ": grid." + oneLine(k);
      if (!vals.is_array() || vals.empty()) throw UsageError(where + " must be a non-empty array");
      std::vector<OptionMap> next;
      for (const OptionMap &base : expanded) {
        for (const json &v : vals) {
          OptionMap o = base;
          if (k == "pairs") {
            if (!v.is_array() || v.size() != 2) throw UsageError(where + ": each pair must be [\"LHS\", \"RHS\"]");
            setOption(o, "lhs", v[0], where);
            setOption(o, "rhs", v[1], where);
          } else {
            setOption(o, k, v, where);
          }
          next.push_back(std::move(o));
        }
      }
      expanded = std::move(next);
    }
  }
  if (j.contains("list")) {
    if (!j["list"].is_array()) throw UsageError(what + ": \"list\" must be an array of objects");
    for (size_t i = 0; i < j["list"].size(); ++i) {
      const json &o = j["list"][i];
      const std::string where = what + ": list[" + std::to_string(i) + "]";
      if (!o.is_object()) throw UsageError(where + " must be an object");
      OptionMap m2 = defaults;
      for (const auto &[k, v] : o.items()) setOption(m2, k, v, where);
      expanded.push_back(std::move(m2));
    }
  }
  if (expanded.empty()) throw UsageError(what + ": no entries (give a \"grid\" or a \"list\")");
  std::map<std::string, int> byName;
  for (size_t i = 0; i < expanded.size(); ++i) {
    SweepEntry e = validate(int(i), expanded[i]);
    auto [it, fresh] = byName.insert({e.name, int(i)});
    if (!fresh)
      throw UsageError("manifest entry " + std::to_string(i) + " (" + describeEntry(e) + "): the same table as entry " +
                       std::to_string(it->second) + " (" + e.name + ".json)");
    m.entries.push_back(std::move(e));
  }
  return m;
}

std::pair<int, int> parseShard(const std::string &text) {
  const std::string bad = "--shard: expected I/N with 0 <= I < N (0-based), got '" + oneLine(text) + "'";
  const size_t slash = text.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == text.size()) throw UsageError(bad);
  auto num = [&](const std::string &s) {
    if (s.size() > 6) throw UsageError(bad);
    for (char c : s)
      if (c < '0' || c > '9') throw UsageError(bad);
    return std::stoi(s);
  };
  const int i = num(text.substr(0, slash)), n = num(text.substr(slash + 1));
  if (n < 1 || i >= n) throw UsageError(bad);
  return {i, n};
}

nlohmann::json indexEntryJson(const SweepEntry &e) {
  json opts = json::object();
  for (const auto &[k, v] : e.opts) opts[k] = v.empty() && tableOptions().flags.count(k) ? json(true) : json(v);
  return json{{"entry", e.index},
              {"name", e.name},
              {"file", e.name + ".json"},
              {"options", opts},
              {"config", certs::configToJson(e.config)},
              {"lhs", toString(e.lhs)},
              {"rhs", toString(e.rhs)},
              {"relation", toString(e.relation)},
              {"engine", e.engine}};
}

}  // namespace mxcert::cli

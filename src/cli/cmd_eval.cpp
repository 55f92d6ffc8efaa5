// src/cli/cmd_eval.cpp — `mxcert eval`: the reference evaluator on concrete inputs.
#include "certs/config_json.h"
#include "models/eval.h"
#include "models/value_io.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace mxcert::cli {

namespace {

/// Parses a scale-code selection: "N", "0xNN", "lo..hi" or "all" (0..255).
std::pair<int, int> parseCodeRange(const std::string &name, const std::string &v) {
  if (v == "all") return {0, 255};
  try {
    size_t dots = v.find("..");
    if (dots == std::string::npos) {
      int c = int(parseIntIn(v, 0, 255, "--" + name));
      return {c, c};
    }
    int lo = int(parseIntIn(v.substr(0, dots), 0, 255, "--" + name));
    int hi = int(parseIntIn(v.substr(dots + 2), 0, 255, "--" + name));
    if (lo > hi) throw UsageError("--" + name + ": empty range " + v);
    return {lo, hi};
  } catch (const ValueError &e) {
    throw UsageError(std::string(e.what()) + " (expected 0..255, lo..hi or all)");
  }
}

std::vector<Placement> parsePlacementList(const std::string &v) {
  std::vector<Placement> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = v.find(',', start);
    const std::string item = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty() && !v.empty()) throw UsageError("--placements: empty item in '" + v + "'");
    auto p = parsePlacement(item);
    if (!p) throw UsageError("unknown placement '" + item + "' in --placements");
    out.push_back(*p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (out.empty()) throw UsageError("--placements is empty");
  return out;
}

}  // namespace

int cmdEval(int argc, char **argv) {
  std::set<std::string> valued = configOptions();
  valued.insert({"xa", "xb", "a-vals", "b-vals", "placements", "relation", "o"});
  Args args(argc, argv, 2, {"json"}, valued);
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  ModelConfig cfg = parseConfig(args);
  Relation rel = parseRelationOpt(args);
  std::vector<Placement> ps = parsePlacementList(args.get("placements", "pre,post,dequant,post2"));
  auto [xaLo, xaHi] = parseCodeRange("xa", args.require("xa"));
  auto [xbLo, xbHi] = parseCodeRange("xb", args.require("xb"));
  ConcreteInput in;
  try {
    in.a = parseElementList(cfg.a, args.require("a-vals"));
    in.b = parseElementList(cfg.b, args.require("b-vals"));
  } catch (const ValueError &e) {
    throw UsageError(e.what());
  }
  if (in.a.size() != size_t(cfg.k()) || in.b.size() != size_t(cfg.k()))
    throw UsageError("--a-vals and --b-vals need k = " + std::to_string(cfg.k()) +
                     " values each (got " + std::to_string(in.a.size()) + " and " +
                     std::to_string(in.b.size()) + ")");

  const AccFormat &af = cfg.acc.fmt;
  nlohmann::json results = nlohmann::json::array();
  std::string text;
  for (int xa = xaLo; xa <= xaHi; ++xa)
    for (int xb = xbLo; xb <= xbHi; ++xb) {
      in.xa = unsigned(xa);
      in.xb = unsigned(xb);
      std::vector<CVal> r = evaluatePlacements(cfg, ps, in);
      const int e = xa + xb - 254;
      if (args.flag("json")) {
        nlohmann::json vals = nlohmann::json::object(), relj = nlohmann::json::object();
        for (size_t i = 0; i < ps.size(); ++i)
          vals[toString(ps[i])] = {{"value", toDecimal(r[i], af)}, {"bits", hexBits(encodeBits(r[i], af), af)}};
        for (size_t i = 0; i < ps.size(); ++i)
          for (size_t j = i + 1; j < ps.size(); ++j)
            relj[std::string(toString(ps[i])) + "~" + toString(ps[j])] = isRelated(r[i], r[j], rel);
        results.push_back({{"xa", xa}, {"xb", xb}, {"e", e}, {"values", vals}, {"related", relj}});
      } else {
        std::string line = "xa=" + std::to_string(xa) + " xb=" + std::to_string(xb) + " e=" + std::to_string(e);
        for (size_t i = 0; i < ps.size(); ++i)
          line += std::string(" ") + toString(ps[i]) + "=" + toDecimal(r[i], af) + "/" +
                  hexBits(encodeBits(r[i], af), af);
        for (size_t i = 0; i < ps.size(); ++i)
          for (size_t j = i + 1; j < ps.size(); ++j)
            line += std::string(" ") + toString(ps[i]) + "~" + toString(ps[j]) + "=" +
                    (isRelated(r[i], r[j], rel) ? "related" : "differ");
        text += line + "\n";
      }
    }
  if (args.flag("json")) {
    nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array();
    for (unsigned c : in.a) a.push_back(elementToString(cfg.a, c));
    for (unsigned c : in.b) b.push_back(elementToString(cfg.b, c));
    nlohmann::json doc = {{"config", certs::configToJson(cfg)},
                          {"relation", toString(rel)},
                          {"a", a},
                          {"b", b},
                          {"results", results}};
    emit(args, doc.dump(1) + "\n");
  } else {
    emit(args, text);
  }
  return 0;
}

}  // namespace mxcert::cli

// src/cli/cmd_eval.cpp — `mxcert eval`: the reference evaluator on concrete inputs.
#include "certs/config_json.h"
#include "models/eval.h"
#include "models/value_io.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/cli/reports.h"

#include <nlohmann/json.hpp>

#include <map>
#include <sstream>

namespace mxcert::cli {

namespace {

/// Parses a scale-code selection: "N", "0xNN", "lo..hi" or "all" (0..maxCode: 255 for e8m0,
/// 127 for e4m3).
std::pair<int, int> parseCodeRange(const std::string &name, const std::string &v, int maxCode) {
  if (v == "all") return {0, maxCode};
  try {
    size_t dots = v.find("..");
    if (dots == std::string::npos) {
      int c = int(parseIntIn(v, 0, maxCode, "--" + name));
      return {c, c};
    }
    int lo = int(parseIntIn(v.substr(0, dots), 0, maxCode, "--" + name));
    int hi = int(parseIntIn(v.substr(dots + 2), 0, maxCode, "--" + name));
    if (lo > hi) throw UsageError("--" + name + ": empty range " + v);
    return {lo, hi};
  } catch (const ValueError &e) {
    throw UsageError(std::string(e.what()) + " (expected 0.." + std::to_string(maxCode) + ", lo..hi or all)");
  }
}

/// The largest scale code of a configuration: 255 (e8m0) or 127 (e4m3).
int maxScaleCode(const ModelConfig &cfg) { return cfg.nvfp4() ? E4m3ScaleCode::kMaxCode : ScaleCode::kNaN; }

/// The decimal value of an e4m3 scale code (NVFP4 rows print the scales instead of e).
std::string e4m3ScaleText(int code) {
  static const ElementFormat kE4m3 = *findElementFormat("e4m3");
  return elementToString(kE4m3, unsigned(code));
}

/// Parses --placements: placement names separated by commas.
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

/// A parsed eval command line: the configuration, the placements and relation, the code ranges
/// and the elements.
struct EvalRequest {
  ModelConfig cfg;
  Relation rel;
  std::vector<Placement> ps;
  std::pair<int, int> xa, xb;
  ConcreteInput in;
};

/// The request of `args` (UsageError naming the first bad or missing option).
EvalRequest parseEval(const Args &args) {
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  const ModelConfig cfg = parseConfig(args);
  if (cfg.anyOrder)
    throw UsageError("--tree " + treeText(cfg) + ": eval evaluates one tree (name it: seq, pairwise, fused or an S-expression)");
  const int maxCode = maxScaleCode(cfg);
  EvalRequest r{cfg, parseRelationOpt(args), parsePlacementList(args.get("placements", "pre,post,dequant,post2")),
                parseCodeRange("xa", args.require("xa"), maxCode), parseCodeRange("xb", args.require("xb"), maxCode),
                {}};
  try {
    r.in.a = parseElementList(r.cfg.a, args.require("a-vals"));
    r.in.b = parseElementList(r.cfg.b, args.require("b-vals"));
  } catch (const ValueError &e) {
    throw UsageError(e.what());
  }
  if (r.in.a.size() != size_t(r.cfg.k()) || r.in.b.size() != size_t(r.cfg.k()))
    throw UsageError("--a-vals and --b-vals need k = " + std::to_string(r.cfg.k()) +
                     " values each (got " + std::to_string(r.in.a.size()) + " and " +
                     std::to_string(r.in.b.size()) + ")");
  return r;
}

/// The results at one code pair: one value per placement of the request.
struct EvalRow {
  int xa, xb;
  std::vector<CVal> r;
};

/// Every code pair of the request's ranges, evaluated (xa-major). A placement whose result
/// depends on the codes only through e (dependsOnEOnly: MX pre and post; never NVFP4, whose
/// scales are values) is evaluated once per e and its result reused for every pair of finite
/// codes on that e-line (code 255, NaN, is evaluated pair by pair): the same values, and a
/// sweep over all 65,536 pairs evaluates it 509 times instead (the MLIR execution tests'
/// model, mlir_pass/exec).
std::vector<EvalRow> evaluateAll(const EvalRequest &req) {
  std::vector<Placement> perE, perPair;  // the request's placements, split
  std::vector<size_t> perEAt, perPairAt; // their positions in req.ps
  for (size_t i = 0; i < req.ps.size(); ++i) {
    const bool eOnly = !req.cfg.nvfp4() && dependsOnEOnly(req.ps[i]);
    (eOnly ? perE : perPair).push_back(req.ps[i]);
    (eOnly ? perEAt : perPairAt).push_back(i);
  }
  std::map<int, std::vector<CVal>> byE;  // e -> the perE results on that e-line
  std::vector<EvalRow> rows;
  // The elements decoded once for every pair (evaluatePlacements' own code path).
  DecodedBlock blk(req.cfg, req.in.a, req.in.b);
  for (int xa = req.xa.first; xa <= req.xa.second; ++xa)
    for (int xb = req.xb.first; xb <= req.xb.second; ++xb) {
      EvalRow row{xa, xb, std::vector<CVal>(req.ps.size())};
      if (!perPair.empty()) {
        std::vector<CVal> r = blk.evaluate(perPair, unsigned(xa), unsigned(xb));
        for (size_t j = 0; j < r.size(); ++j) row.r[perPairAt[j]] = std::move(r[j]);
      }
      if (!perE.empty()) {
        const bool finite = xa <= ScaleCode::kMaxFinite && xb <= ScaleCode::kMaxFinite;
        const int e = xa + xb - 2 * 127;
        auto it = finite ? byE.find(e) : byE.end();
        std::vector<CVal> fresh;
        if (!finite || it == byE.end()) {
          fresh = blk.evaluate(perE, unsigned(xa), unsigned(xb));
          if (finite) it = byE.emplace(e, fresh).first;
        }
        const std::vector<CVal> &r = finite ? it->second : fresh;
        for (size_t j = 0; j < r.size(); ++j) row.r[perEAt[j]] = r[j];
      }
      rows.push_back(std::move(row));
    }
  return rows;
}

/// eval's text: one line per code pair.
std::string evalText(const EvalRequest &req) {
  const AccFormat &af = req.cfg.acc.fmt;
  const std::vector<Placement> &ps = req.ps;
  std::string text;
  for (const EvalRow &row : evaluateAll(req)) {
    std::string line = "xa=" + std::to_string(row.xa) + " xb=" + std::to_string(row.xb) +
                       (req.cfg.nvfp4() ? " sa=" + e4m3ScaleText(row.xa) + " sb=" + e4m3ScaleText(row.xb)
                                        : " e=" + std::to_string(row.xa + row.xb - 254));
    for (size_t i = 0; i < ps.size(); ++i)
      line += std::string(" ") + toString(ps[i]) + "=" + toDecimal(row.r[i], af) + "/" +
              hexBits(encodeBits(row.r[i], af), af);
    for (size_t i = 0; i < ps.size(); ++i)
      for (size_t j = i + 1; j < ps.size(); ++j)
        line += std::string(" ") + toString(ps[i]) + "~" + toString(ps[j]) + "=" +
                (isRelated(row.r[i], row.r[j], req.rel) ? "related" : "differ");
    text += line + "\n";
  }
  return text;
}

}  // namespace

const OptionSet &evalOptions() {
  static const OptionSet kOpts = [] {
    OptionSet s{{}, configOptions()};
    s.valued.insert({"xa", "xb", "a-vals", "b-vals", "placements", "relation"});
    return s;
  }();
  return kOpts;
}

nlohmann::json evalReport(const Args &args) {
  const EvalRequest req = parseEval(args);
  const AccFormat &af = req.cfg.acc.fmt;
  const std::vector<Placement> &ps = req.ps;
  nlohmann::json results = nlohmann::json::array();
  for (const EvalRow &row : evaluateAll(req)) {
    nlohmann::json vals = nlohmann::json::object(), relj = nlohmann::json::object();
    for (size_t i = 0; i < ps.size(); ++i)
      vals[toString(ps[i])] = {{"value", toDecimal(row.r[i], af)}, {"bits", hexBits(encodeBits(row.r[i], af), af)}};
    for (size_t i = 0; i < ps.size(); ++i)
      for (size_t j = i + 1; j < ps.size(); ++j)
        relj[std::string(toString(ps[i])) + "~" + toString(ps[j])] = isRelated(row.r[i], row.r[j], req.rel);
    nlohmann::json res = {{"xa", row.xa}, {"xb", row.xb}, {"values", vals}, {"related", relj}};
    // NVFP4 scales are no powers of two: the row names the two scale values instead of e.
    if (req.cfg.nvfp4()) {
      res["sa"] = e4m3ScaleText(row.xa);
      res["sb"] = e4m3ScaleText(row.xb);
    } else {
      res["e"] = row.xa + row.xb - 254;
    }
    results.push_back(res);
  }
  nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array();
  for (unsigned c : req.in.a) a.push_back(elementToString(req.cfg.a, c));
  for (unsigned c : req.in.b) b.push_back(elementToString(req.cfg.b, c));
  // Versioned like the verdict documents (docs/cli.md): a removed or renamed key increments
  // schema_version.
  return {{"schema", "mxcert-eval"},
          {"schema_version", 1},
          {"config", certs::configToJson(req.cfg)},
          {"relation", toString(req.rel)},
          {"a", a},
          {"b", b},
          {"results", results}};
}

int cmdEval(int argc, char **argv) {
  std::set<std::string> valued = evalOptions().valued;
  valued.insert("o");
  Args args(argc, argv, 2, {"json"}, valued);
  emit(args, args.flag("json") ? evalReport(args).dump(1) + "\n" : evalText(parseEval(args)));
  return 0;
}

}  // namespace mxcert::cli

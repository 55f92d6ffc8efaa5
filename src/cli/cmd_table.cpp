// src/cli/cmd_table.cpp — `mxcert table`: the exact agree set of two placements.
#include "certs/config_json.h"
#include "models/value_io.h"
#include "src/cli/commands.h"
#include "src/cli/options.h"
#include "src/engine/exhaustive.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace mxcert::cli {

int cmdTable(int argc, char **argv) {
  std::set<std::string> valued = configOptions();
  valued.insert({"lhs", "rhs", "relation", "engine"});
  Args args(argc, argv, 2, {"json", "no-collapse"}, valued);
  if (!args.positional().empty()) throw UsageError("unexpected argument '" + args.positional()[0] + "'");
  engine::PairQuery q{parseConfig(args), parsePlacementOpt(args, "lhs", Placement::Pre),
                      parsePlacementOpt(args, "rhs", Placement::Post), parseRelationOpt(args)};
  std::string eng = args.get("engine", "exhaustive");
  if (eng != "exhaustive") throw UsageError("unknown --engine '" + eng + "' (expected exhaustive)");
  engine::ExhaustiveOptions opt;
  opt.collapse = !args.flag("no-collapse");
  engine::ExhaustiveResult r;
  try {
    r = engine::runExhaustive(q, opt);
  } catch (const engine::ResourceLimit &e) {
    std::fprintf(stderr, "mxcert: unknown: %s\n", e.what());
    return kUnknown;
  }
  Guard g = Guard::fromSet(r.agree);
  const long agree = r.agree.count(), excluded = long(kNumCodes) * kNumCodes - agree;
  std::vector<long> covers(r.witnesses.size(), 0);
  for (int w : r.witnessOf)
    if (w >= 0) ++covers[size_t(w)];
  if (args.flag("json")) {
    nlohmann::json ws = nlohmann::json::array();
    for (size_t i = 0; i < r.witnesses.size(); ++i) {
      const engine::Witness &w = r.witnesses[i];
      nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array();
      for (unsigned c : w.a) a.push_back(elementToString(q.cfg.a, c));
      for (unsigned c : w.b) b.push_back(elementToString(q.cfg.b, c));
      ws.push_back({{"a", a}, {"b", b}, {"xa", w.xa}, {"xb", w.xb}, {"refutes_pairs", covers[i]}});
    }
    nlohmann::json doc = {{"tool", "mxcert"},
                          {"version", MXCERT_VERSION},
                          {"config", certs::configToJson(q.cfg)},
                          {"lhs", toString(q.lhs)},
                          {"rhs", toString(q.rhs)},
                          {"relation", toString(q.rel)},
                          {"engine", "exhaustive"},
                          {"agree", certs::guardToJson(g)},
                          {"agree_pairs", agree},
                          {"excluded_pairs", excluded},
                          {"witnesses", ws},
                          {"stats",
                           {{"seconds", r.stats.seconds},
                            {"groups", r.stats.groups},
                            {"tree_evaluations", r.stats.treeEvaluations},
                            {"witness_reuses", r.stats.witnessHits},
                            {"decided_by_scaling", r.stats.collapsed},
                            {"max_layer_states", r.stats.maxLayerStates}}}};
    emit(args, doc.dump(1) + "\n");
    return kOk;
  }
  std::string t = "# mxcert table: " + describe(q.cfg) + "\n# " + toString(q.lhs) + " vs " +
                  toString(q.rhs) + ", relation " + toString(q.rel) + ", engine exhaustive\n";
  t += "agree: " + std::to_string(agree) + " of " + std::to_string(long(kNumCodes) * kNumCodes) +
       " code pairs, " + std::to_string(g.regions.size()) + " region(s)\n";
  for (const Region &reg : g.regions) t += "  " + reg.str() + "\n";
  t += "excluded: " + std::to_string(excluded) + " code pairs, refuted by " +
       std::to_string(r.witnesses.size()) + " witness(es)\n";
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "time: %.2f s (%zu groups, %zu full evaluations, %zu witness re-uses, %zu by scaling, "
                "largest layer %zu states)\n",
                r.stats.seconds, r.stats.groups, r.stats.treeEvaluations, r.stats.witnessHits,
                r.stats.collapsed, r.stats.maxLayerStates);
  t += buf;
  emit(args, t);
  return kOk;
}

}  // namespace mxcert::cli

// certs/config_json.cpp — configurations and guards as JSON.
#include "certs/config_json.h"

namespace mxcert::certs {

using nlohmann::json;

long getInt(const json &j, const std::string &key, long lo, long hi) {
  if (!j.is_object() || !j.contains(key)) throw SchemaError("missing field '" + key + "'");
  const json &v = j.at(key);
  if (!v.is_number_integer()) throw SchemaError("field '" + key + "' must be an integer");
  if (v.is_number_unsigned()) {
    auto u = v.get<uint64_t>();
    if (u > uint64_t(hi)) throw SchemaError("field '" + key + "' out of range");
    return long(u);
  }
  auto s = v.get<int64_t>();
  if (s < lo || s > hi) throw SchemaError("field '" + key + "' out of range");
  return long(s);
}

std::string getString(const json &j, const std::string &key) {
  if (!j.is_object() || !j.contains(key)) throw SchemaError("missing field '" + key + "'");
  const json &v = j.at(key);
  if (!v.is_string()) throw SchemaError("field '" + key + "' must be a string");
  return v.get<std::string>();
}

void onlyKeys(const json &j, const std::set<std::string> &allowed, const std::string &where) {
  if (!j.is_object()) throw SchemaError(where + " must be an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!allowed.count(it.key())) throw SchemaError(where + ": unknown field '" + it.key() + "'");
}

const json &field(const json &j, const std::string &key, const std::string &where) {
  if (!j.contains(key)) throw SchemaError(where + ": missing field '" + key + "'");
  return j.at(key);
}

Placement placementField(const json &j, const std::string &key) {
  auto p = parsePlacement(getString(j, key));
  if (!p) throw SchemaError("field '" + key + "': unknown placement");
  return *p;
}

Relation relationField(const json &j) {
  auto r = parseRelation(getString(j, "relation"));
  if (!r) throw SchemaError("field 'relation': expected bitwise or value");
  return *r;
}

ModelConfig configField(const json &j, const std::string &where) {
  ModelConfig c = configFromJson(field(j, "config", where));
  onlyKeys(j.at("config"), {"a", "b", "acc", "round", "subnormals", "k", "tree", "scale"}, "config");
  return c;
}

std::string engineField(const json &j) {
  std::string e = getString(j, "engine");
  if (e != "solver" && e != "exhaustive") throw SchemaError("field 'engine': expected solver or exhaustive");
  return e;
}

Guard agreeField(const json &j, const std::string &where) {
  Guard g = guardFromJson(field(j, "agree", where));
  if (getInt(j, "agree_pairs", 0, long(kNumCodes) * kNumCodes) != g.toSet().count())
    throw SchemaError("field 'agree_pairs' does not match the regions of 'agree'");
  return g;
}

json configToJson(const ModelConfig &cfg) {
  json j{{"a", cfg.a.name},
              {"b", cfg.b.name},
              {"acc", cfg.acc.fmt.name},
              {"round", toString(cfg.acc.rounding)},
              {"subnormals", toString(cfg.acc.subnormals)},
              {"k", cfg.k()},
              {"tree", treeText(cfg)}};
  // Written only for NVFP4, so that every MX document keeps its bytes.
  if (cfg.nvfp4()) j["scale"] = toString(cfg.scale);
  return j;
}

ModelConfig configFromJson(const json &j) {
  if (!j.is_object()) throw SchemaError("config must be an object");
  auto fa = findElementFormat(getString(j, "a"));
  if (!fa) throw SchemaError("config.a: unknown element format");
  auto fb = findElementFormat(getString(j, "b"));
  if (!fb) throw SchemaError("config.b: unknown element format");
  auto acc = findAccFormat(getString(j, "acc"));
  if (!acc) throw SchemaError("config.acc: unknown accumulator format");
  auto r = parseRounding(getString(j, "round"));
  if (!r) throw SchemaError("config.round: expected rne or rtz");
  auto s = parseSubnormals(getString(j, "subnormals"));
  if (!s) throw SchemaError("config.subnormals: expected keep, ftz or daz");
  long k = getInt(j, "k", 1, kMaxK);
  // The tree parser is recursive: bound the text and its nesting before parsing (a valid
  // tree of k <= 64 leaves is far below both limits).
  const std::string tree = getString(j, "tree");
  if (tree.size() > 4096) throw SchemaError("config.tree: longer than 4096 characters");
  int depth = 0;
  for (char ch : tree) {
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    if (depth > 2 * kMaxK) throw SchemaError("config.tree: nested deeper than " + std::to_string(2 * kMaxK));
  }
  ScaleFormat scale = ScaleFormat::E8M0;
  if (j.contains("scale")) {
    auto sc = parseScaleFormat(getString(j, "scale"));
    if (!sc) throw SchemaError("config.scale: expected e8m0 or e4m3");
    scale = *sc;
  }
  if (scale == ScaleFormat::E4M3 && (fa->name != "e2m1" || fb->name != "e2m1"))
    throw SchemaError("config.scale: e4m3 scales (nvfp4) need e2m1 elements");
  if (const std::string why = dazUnsupported(ModelConfig{*fa, *fb, AccSpec{*acc, *r, *s}, Tree::seq(1), scale});
      !why.empty())
    throw SchemaError("config.subnormals: " + why);
  try {
    if (const int fanIn = parseAnyOrder(tree, int(k))) {
      if (tree != anyOrderName(fanIn, int(k)))
        throw SchemaError("config.tree: '" + tree + "' is not canonical (write '" + anyOrderName(fanIn, int(k)) + "')");
      if (scale == ScaleFormat::E4M3) throw SchemaError("config.tree: no any-order tables for nvfp4");
      ModelConfig c{*fa, *fb, AccSpec{*acc, *r, *s}, Tree::seq(int(k)), scale};
      c.anyOrder = fanIn;
      return c;
    }
    Tree t = Tree::parse(tree, int(k));
    return ModelConfig{*fa, *fb, AccSpec{*acc, *r, *s}, t, scale};
  } catch (const TreeError &e) {
    throw SchemaError(std::string("config.tree: ") + e.what());
  }
}

void rejectNvfp4Table(const ModelConfig &cfg) {
  if (cfg.nvfp4())
    throw SchemaError("config.scale: e4m3 (nvfp4) tables are not supported by this reader yet (it indexes e8m0 codes)");
}

json regionToJson(const Region &r) {
  return json{{"xa", {r.xa.lo, r.xa.hi}}, {"xb", {r.xb.lo, r.xb.hi}}, {"e", {r.e.lo, r.e.hi}}};
}

Region regionFromJson(const json &j) {
  if (!j.is_object()) throw SchemaError("region must be an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "xa" && it.key() != "xb" && it.key() != "e")
      throw SchemaError("region: unknown field '" + it.key() + "'");
  Region r;
  auto rng = [&](const char *k, long lo, long hi) {
    if (!j.contains(k)) throw SchemaError(std::string("region: missing '") + k + "'");
    const json &v = j.at(k);
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
      throw SchemaError(std::string("region.") + k + " must be [lo, hi] integers");
    json tmp = {{"lo", v[0]}, {"hi", v[1]}};
    CodeRange c{int(getInt(tmp, "lo", lo, hi)), int(getInt(tmp, "hi", lo, hi))};
    if (c.lo > c.hi) throw SchemaError(std::string("region.") + k + ": lo > hi");
    return c;
  };
  r.xa = rng("xa", 0, kMaxCode);
  r.xb = rng("xb", 0, kMaxCode);
  r.e = rng("e", -kMaxCode, kMaxCode);
  return r;
}

json nvRegionToJson(const Nvfp4Region &r) {
  return {{"ma", r.ma}, {"mb", r.mb}, {"ja", {r.ja.lo, r.ja.hi}}, {"jb", {r.jb.lo, r.jb.hi}}, {"j", {r.j.lo, r.j.hi}}};
}

Nvfp4Region nvRegionFromJson(const json &j) {
  if (!j.is_object()) throw SchemaError("region must be an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "ma" && it.key() != "mb" && it.key() != "ja" && it.key() != "jb" && it.key() != "j")
      throw SchemaError("region: unknown field '" + it.key() + "' (an nvfp4 region has ma, mb, ja, jb, j)");
  Nvfp4Region r;
  auto cls = [&](const char *k) {
    if (!j.contains(k)) throw SchemaError(std::string("region: missing '") + k + "'");
    const int m = int(getInt(j, k, -1, 15));
    if (m > 0 && m % 2 == 0) throw SchemaError(std::string("region.") + k + ": expected an odd part 1..15, 0 or -1");
    return m;
  };
  auto rng = [&](const char *k) {
    if (!j.contains(k)) throw SchemaError(std::string("region: missing '") + k + "'");
    const json &v = j.at(k);
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
      throw SchemaError(std::string("region.") + k + " must be [lo, hi] integers");
    json tmp = {{"lo", v[0]}, {"hi", v[1]}};
    CodeRange c{int(getInt(tmp, "lo", -64, 64)), int(getInt(tmp, "hi", -64, 64))};
    if (c.lo > c.hi) throw SchemaError(std::string("region.") + k + ": lo > hi");
    return c;
  };
  r.ma = cls("ma");
  r.mb = cls("mb");
  r.ja = rng("ja");
  r.jb = rng("jb");
  r.j = rng("j");
  return r;
}

json guardToJson(const Guard &g) {
  json a = json::array();
  for (const Region &r : g.regions) a.push_back(regionToJson(r));
  return a;
}

Guard guardFromJson(const json &j) {
  if (!j.is_array()) throw SchemaError("guard must be a list of regions");
  if (j.size() > size_t(kNumCodes) * kNumCodes) throw SchemaError("guard: too many regions");
  Guard g;
  for (const json &r : j) g.regions.push_back(regionFromJson(r));
  return g;
}

}  // namespace mxcert::certs

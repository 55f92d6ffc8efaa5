// certs/certificate.cpp — certificate JSON reading and writing (see certificate.h).
#include "certs/certificate.h"

#include "models/value_io.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mxcert::certs {

using nlohmann::json;

namespace {

double getNumber(const json &j, const std::string &key, const std::string &where) {
  const json &v = field(j, key, where);
  if (!v.is_number()) throw SchemaError(where + "." + key + " must be a number");
  double d = v.get<double>();
  if (!std::isfinite(d) || d < 0 || d > 1e9) throw SchemaError(where + "." + key + " out of range");
  return d;
}

std::vector<unsigned> codes(const json &j, const std::string &where, unsigned numCodes, int k) {
  if (!j.is_array()) throw SchemaError(where + " must be a list of element codes");
  if (int(j.size()) != k) throw SchemaError(where + " must have k = " + std::to_string(k) + " codes");
  std::vector<unsigned> out;
  for (const json &c : j) {
    if (!c.is_number_integer()) throw SchemaError(where + ": codes must be integers");
    if (c.is_number_unsigned() ? c.get<uint64_t>() >= numCodes
                               : (c.get<int64_t>() < 0 || c.get<int64_t>() >= int64_t(numCodes)))
      throw SchemaError(where + ": code out of range 0.." + std::to_string(numCodes - 1));
    out.push_back(unsigned(c.get<int64_t>()));
  }
  return out;
}

/// A JSON list of at most kMaxListLength entries.
const json &list(const json &j, const std::string &key, const std::string &where) {
  const json &v = field(j, key, where);
  if (!v.is_array()) throw SchemaError("field '" + key + "' must be a list");
  if (v.size() > kMaxListLength) throw SchemaError("field '" + key + "' has too many entries");
  return v;
}

/// The element values as written next to the codes (strings, k of them).
std::vector<std::string> valueStrings(const json &j, const std::string &where, int k) {
  if (!j.is_array() || int(j.size()) != k)
    throw SchemaError(where + " must be a list of k = " + std::to_string(k) + " strings");
  std::vector<std::string> out;
  for (const json &v : j) {
    if (!v.is_string() || v.get<std::string>().size() > 64) throw SchemaError(where + ": values must be short strings");
    out.push_back(v.get<std::string>());
  }
  return out;
}

/// A query file name: relative, inside the certificate's directory, no '..' component.
bool safeRelativePath(const std::string &p) {
  if (p.empty() || p.size() > 4096 || p[0] == '/' || p.find('\0') != std::string::npos) return false;
  std::stringstream ss(p);
  std::string part;
  while (std::getline(ss, part, '/'))
    if (part == "..") return false;
  return true;
}

bool isHex64(const std::string &s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

json toJson(const Certificate &c) {
  json proofs = json::array();
  for (const Proof &p : c.proofs) {
    json pj = {{"region", p.nv ? nvRegionToJson(*p.nv) : regionToJson(p.region)},
               {"solver", p.solver},
               {"solver_version", p.solverVersion},
               {"seconds", p.seconds},
               {"encoding", p.encoding},
               {"query_sha256", p.querySha256},
               {"query_bytes", p.queryBytes}};
    if (!p.query.empty()) pj["query"] = p.query;
    if (!p.queryFile.empty()) pj["query_file"] = p.queryFile;
    if (p.constantFalse) pj["constant_false"] = *p.constantFalse;
    if (p.obligations)
      pj["obligations"] = {{"phases", p.obligations->phases}, {"facts", p.obligations->facts},
                           {"decisions", p.obligations->decisions}};
    if (p.step) pj["step"] = toString(*p.step);
    if (p.invariant)
      pj["invariant"] = {{"mode", toString(p.invariant->mode)},
                         {"base", p.invariant->baseIsRhs ? "rhs" : "lhs"},
                         {"grid", p.invariant->grid},
                         {"unit", p.invariant->unit.str()}};
    if (p.invariant && p.invariant->noInf) pj["invariant"]["no_inf"] = true;  // absent: false
    if (p.invariant && p.invariant->infAsNaN) pj["invariant"]["inf_as_nan"] = true;  // absent: false
    proofs.push_back(pj);
  }
  json ws = json::array();
  for (const CertWitness &w : c.witnesses) {
    json av = json::array(), bv = json::array();
    for (unsigned x : w.a) av.push_back(elementToString(c.config.a, x));
    for (unsigned x : w.b) bv.push_back(elementToString(c.config.b, x));
    json wj = {{"a", w.a}, {"b", w.b}, {"a_values", av}, {"b_values", bv}, {"refutes", guardToJson(w.refutes)}};
    if (!w.tree.empty()) wj["tree"] = w.tree;
    ws.push_back(wj);
  }
  json j = {{"format", kFormatName},
            {"format_version", kFormatVersion},
            {"tool", {{"name", "mxcert"}, {"version", c.toolVersion}}},
            {"config", configToJson(c.config)},
            {"lhs", toString(c.lhs)},
            {"rhs", toString(c.rhs)},
            {"relation", toString(c.relation)},
            {"engine", c.engine},
            {"agree", guardToJson(c.agree)},
            {"agree_pairs", c.agree.toSet().count()},
            {"proofs", proofs},
            {"region_proofs", c.regionProofs},
            {"witnesses", ws},
            {"stats", c.stats}};
  if (c.bound) {
    json params = json::object();
    for (auto &[n, v] : c.bound->params) params[n] = v;
    j["bound"] = {{"formula", c.bound->formula}, {"params", params}, {"agree", guardToJson(c.bound->agree)}};
  }
  return j;
}

std::string regenerateCommand(const json &j) {
  try {
    const ModelConfig cfg = configFromJson(j.at("config"));
    std::string tree = treeText(cfg);
    const int k = cfg.k();
    if (cfg.anyOrder) {
    } else if (tree == Tree::seq(k).sexpr()) tree = "seq";
    else if (tree == Tree::pairwise(k).sexpr()) tree = "pairwise";
    else if (tree == Tree::fused(k).sexpr()) tree = "fused";
    else tree = "'" + tree + "'";
    std::string cmd = "mxcert table --a " + cfg.a.name + " --b " + cfg.b.name + " --acc " + cfg.acc.fmt.name +
                      " --round " + toString(cfg.acc.rounding) + " --subnormals " + toString(cfg.acc.subnormals);
    if (cfg.nvfp4()) cmd += " --scale " + std::string(toString(cfg.scale));
    cmd += " --k " + std::to_string(k) + " --tree " + tree;
    for (const char *key : {"lhs", "rhs", "relation"})
      cmd += std::string(" --") + key + " " + j.at(key).get<std::string>();
    return cmd + " -o FILE";
  } catch (const std::exception &) {
    return "mxcert table ...";
  }
}

Certificate certificateFromJson(const json &j) {
  if (j.is_object() && j.contains("format_version") && j.at("format_version") == 1 && j.contains("format") &&
      j.at("format") == kFormatName)
    throw SchemaError("format version 1: regenerate with `" + regenerateCommand(j) +
                      "` (its proofs trusted the encoder's analysis; version 2 proves every fact: docs/certificates.md)");
  onlyKeys(j, {"format", "format_version", "tool", "config", "lhs", "rhs", "relation", "engine", "agree",
               "agree_pairs", "proofs", "region_proofs", "witnesses", "bound", "stats"},
           "certificate");
  if (getString(j, "format") != kFormatName) throw SchemaError("field 'format': not an mxcert certificate");
  if (getInt(j, "format_version", 0, 1000) != kFormatVersion)
    throw SchemaError("field 'format_version': unsupported version");
  Certificate c;
  const json &tool = field(j, "tool", "certificate");
  onlyKeys(tool, {"name", "version"}, "tool");
  getString(tool, "name");
  c.toolVersion = getString(tool, "version");
  c.config = configField(j, "certificate");
  c.lhs = placementField(j, "lhs");
  c.rhs = placementField(j, "rhs");
  c.relation = relationField(j);
  c.engine = engineField(j);
  c.agree = agreeField(j, "certificate");
  c.agreePairs = c.agree.toSet().count();  // agreeField: equal to "agree_pairs"
  const json &proofs = list(j, "proofs", "certificate");
  for (size_t i = 0; i < proofs.size(); ++i) {
    const json &p = proofs[i];
    const std::string where = "proofs[" + std::to_string(i) + "]";
    onlyKeys(p, {"region", "solver", "solver_version", "seconds", "encoding", "query_sha256", "query_bytes",
                 "query", "query_file", "constant_false", "obligations", "step", "invariant"},
             where);
    Proof pr;
    if (c.config.nvfp4())
      pr.nv = nvRegionFromJson(field(p, "region", where));
    else
      pr.region = regionFromJson(field(p, "region", where));
    pr.solver = getString(p, "solver");
    if (pr.solver != "cvc5" && pr.solver != "z3") throw SchemaError(where + ".solver: expected cvc5 or z3");
    pr.solverVersion = getString(p, "solver_version");
    pr.seconds = getNumber(p, "seconds", where);
    pr.encoding = getString(p, "encoding");
    if (pr.encoding != "lia" && pr.encoding != "fp") throw SchemaError(where + ".encoding: expected lia or fp");
    pr.querySha256 = getString(p, "query_sha256");
    if (!isHex64(pr.querySha256)) throw SchemaError(where + ".query_sha256: expected 64 lowercase hex digits");
    pr.queryBytes = getInt(p, "query_bytes", 0, 1L << 40);
    if (p.contains("query")) pr.query = getString(p, "query");
    if (p.contains("query_file")) {
      pr.queryFile = getString(p, "query_file");
      if (!safeRelativePath(pr.queryFile))
        throw SchemaError(where + ".query_file: expected a relative path without '..'");
    }
    if (p.contains("constant_false")) {
      if (!p.at("constant_false").is_boolean()) throw SchemaError(where + ".constant_false: expected true or false");
      pr.constantFalse = p.at("constant_false").get<bool>();
    }
    if (p.contains("obligations")) {
      const auto &o = p.at("obligations");
      const std::string ow = where + ".obligations";
      if (!o.is_object()) throw SchemaError(ow + ": expected an object");
      onlyKeys(o, {"phases", "facts", "decisions"}, ow);
      Proof::Obligations ob;
      ob.phases = getInt(o, "phases", 1, 1000000);
      ob.facts = getInt(o, "facts", 0, 1000000);
      ob.decisions = getInt(o, "decisions", 0, 100000000);
      pr.obligations = ob;
    }
    if (pr.encoding == "lia" && !pr.obligations)
      throw SchemaError(where + ": a QF_LIA proof without 'obligations' (format version 2 requires them)");
    if (p.contains("step")) {
      auto st = parseInductionStep(getString(p, "step"));
      if (!st) throw SchemaError(where + ".step: expected leaf, start, add, node, root or root1");
      pr.step = st;
    }
    if (p.contains("invariant")) {
      const json &iv = p.at("invariant");
      const std::string iw = where + ".invariant";
      onlyKeys(iv, {"mode", "base", "grid", "unit", "no_inf", "inf_as_nan"}, iw);
      Invariant inv;
      auto mode = parseInvariantMode(getString(iv, "mode"));
      if (!mode) throw SchemaError(iw + ".mode: expected scaled, zero or equal");
      inv.mode = *mode;
      const std::string base = getString(iv, "base");
      if (base != "lhs" && base != "rhs") throw SchemaError(iw + ".base: expected lhs or rhs");
      inv.baseIsRhs = base == "rhs";
      inv.grid = int(getInt(iv, "grid", -100000, 100000));
      const std::string unit = getString(iv, "unit");
      if (unit.empty() || unit.size() > 64 || unit.find_first_not_of("0123456789") != std::string::npos ||
          (unit.size() > 1 && unit[0] == '0'))
        throw SchemaError(iw + ".unit: expected a non-negative decimal integer");
      inv.unit = Integer::parse(unit);
      if (iv.contains("no_inf")) {
        if (!iv.at("no_inf").is_boolean()) throw SchemaError(iw + ".no_inf: expected true or false");
        inv.noInf = iv.at("no_inf").get<bool>();
      }
      if (iv.contains("inf_as_nan")) {
        if (!iv.at("inf_as_nan").is_boolean()) throw SchemaError(iw + ".inf_as_nan: expected true or false");
        inv.infAsNaN = iv.at("inf_as_nan").get<bool>();
        if (inv.infAsNaN && (inv.mode != InvariantMode::Zero || inv.noInf))
          throw SchemaError(iw + ".inf_as_nan: only in mode zero, and not with no_inf");
      }
      pr.invariant = inv;
    }
    const bool anyOrder = c.config.anyOrder != 0;
    if (anyOrder && pr.encoding != "lia")
      throw SchemaError(where + ": an any-order proof must be a QF_LIA induction step");
    if (anyOrder && (!pr.step || !pr.invariant))
      throw SchemaError(where + ": an any-order certificate's proof needs 'step' and 'invariant'");
    // A fixed-tree certificate may prove a region with the induction steps of the every-tree
    // question (everyTreeConfig; docs/certificates.md): then both fields, and QF_LIA.
    if (!anyOrder && (pr.step.has_value() != pr.invariant.has_value()))
      throw SchemaError(where + ": an induction step proof needs both 'step' and 'invariant'");
    if (!anyOrder && pr.step && pr.encoding != "lia")
      throw SchemaError(where + ": an induction step must be a QF_LIA query");
    if (pr.step && *pr.step == InductionStep::Root1 && c.config.k() != 1)
      throw SchemaError(where + ".step: root1 is the root step of k = 1 only");
    c.proofs.push_back(pr);
  }
  const json &rp = list(j, "region_proofs", "certificate");
  if (rp.size() != c.agree.regions.size())
    throw SchemaError("field 'region_proofs' must have one list per region of 'agree'");
  for (const json &l : rp) {
    if (!l.is_array() || l.size() > kMaxListLength)
      throw SchemaError("field 'region_proofs': each entry must be a list of proof indices");
    std::vector<int> ids;
    for (const json &x : l) {
      if (!x.is_number_integer() || x.get<int64_t>() < 0 || x.get<int64_t>() >= int64_t(c.proofs.size()))
        throw SchemaError("field 'region_proofs': proof index out of range");
      ids.push_back(int(x.get<int64_t>()));
    }
    c.regionProofs.push_back(ids);
  }
  const json &ws = list(j, "witnesses", "certificate");
  for (size_t i = 0; i < ws.size(); ++i) {
    const json &w = ws[i];
    const std::string where = "witnesses[" + std::to_string(i) + "]";
    onlyKeys(w, {"a", "b", "a_values", "b_values", "refutes", "tree"}, where);
    CertWitness cw;
    cw.a = codes(field(w, "a", where), where + ".a", c.config.a.numCodes(), c.config.k());
    cw.b = codes(field(w, "b", where), where + ".b", c.config.b.numCodes(), c.config.k());
    cw.refutes = guardFromJson(field(w, "refutes", where));
    if (w.contains("a_values")) cw.aValues = valueStrings(w.at("a_values"), where + ".a_values", c.config.k());
    if (w.contains("b_values")) cw.bValues = valueStrings(w.at("b_values"), where + ".b_values", c.config.k());
    if (c.config.anyOrder) {
      // The witness's own tree: k leaves, each inner node within the fan-in limit.
      cw.tree = getString(w, "tree");
      if (cw.tree.size() > 4096) throw SchemaError(where + ".tree: longer than 4096 characters");
      if (cw.tree.find_first_not_of("0123456789() \t\n\r") != std::string::npos)
        throw SchemaError(where + ".tree: expected an S-expression of leaf indices");
      int depth = 0;  // the tree parser is recursive: bound the nesting first
      for (char ch : cw.tree) {
        depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
        if (depth > 2 * kMaxK) throw SchemaError(where + ".tree: nested deeper than " + std::to_string(2 * kMaxK));
      }
      try {
        Tree t = Tree::parse(cw.tree, c.config.k());
        for (const Tree::Node &n : t.nodes())
          if (int(n.children.size()) > c.config.anyOrder)
            throw SchemaError(where + ".tree: a node with " + std::to_string(n.children.size()) +
                              " children, beyond the fan-in limit of " + treeText(c.config));
        cw.tree = t.sexpr();
      } catch (const TreeError &e) {
        throw SchemaError(where + ".tree: " + e.what());
      }
    } else if (w.contains("tree")) {
      throw SchemaError(where + ".tree: a witness names its tree only in an any-order certificate");
    }
    c.witnesses.push_back(cw);
  }
  if (j.contains("bound")) {
    const json &b = j.at("bound");
    onlyKeys(b, {"formula", "params", "agree"}, "bound");
    BoundRecord br;
    br.formula = getString(b, "formula");
    const json &ps = field(b, "params", "bound");
    if (!ps.is_object() || ps.size() > 64) throw SchemaError("bound.params must be an object (at most 64 entries)");
    for (auto it = ps.begin(); it != ps.end(); ++it) br.params.push_back({it.key(), getInt(ps, it.key(), -100000, 100000)});
    br.agree = guardFromJson(field(b, "agree", "bound"));
    c.bound = br;
  }
  if (j.contains("stats")) {
    if (!j.at("stats").is_object()) throw SchemaError("field 'stats' must be an object");
    c.stats = j.at("stats");
  }
  return c;
}

json parseStrict(const std::string &text, const std::string &what) {
  // Per open object, the keys seen so far: a duplicate key is an error (nlohmann would keep
  // the last one silently, so two readers could see two different certificates).
  std::vector<std::set<std::string>> keys;
  auto cb = [&](int depth, json::parse_event_t ev, json &parsed) {
    if (depth > kMaxJsonDepth) throw SchemaError(what + ": nesting deeper than " + std::to_string(kMaxJsonDepth));
    switch (ev) {
    case json::parse_event_t::object_start: keys.emplace_back(); break;
    case json::parse_event_t::object_end:
      if (!keys.empty()) keys.pop_back();
      break;
    case json::parse_event_t::key:
      if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
        throw SchemaError(what + ": duplicate key '" + parsed.get<std::string>() + "'");
      break;
    default: break;
    }
    return true;
  };
  try {
    return json::parse(text, cb);
  } catch (const json::exception &e) {
    std::string msg = e.what();
    auto nl = msg.find('\n');
    if (nl != std::string::npos) msg = msg.substr(0, nl);
    throw SchemaError(what + " is not valid JSON: " + msg);
  }
}

std::string readRegularFile(const std::string &path, size_t maxBytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw SchemaError("cannot read '" + path + "': " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const std::string tooLarge = "'" + path + "' is larger than " + std::to_string(maxBytes) + " bytes";
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw SchemaError("cannot read '" + path + "'");
  if (S_ISDIR(st.st_mode)) throw SchemaError("cannot read '" + path + "': a directory");
  if (!S_ISREG(st.st_mode)) throw SchemaError("cannot read '" + path + "': not a regular file (a FIFO, device or socket)");
  if (uint64_t(st.st_size) > maxBytes) throw SchemaError(tooLarge);
  // Never more than maxBytes + 1: a file that grows while it is read is caught, not read whole.
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) throw SchemaError("cannot read '" + path + "': " + std::strerror(errno));
    if (n == 0) return text;
    text.append(buf, size_t(n));
    if (text.size() > maxBytes) throw SchemaError(tooLarge);
  }
}

namespace {
json parseFile(const std::string &path) {
  return parseStrict(readRegularFile(path, kMaxFileBytes), "'" + path + "'");
}
}  // namespace

Certificate readCertificate(const std::string &path) {
  json j = parseFile(path);
  try {
    return certificateFromJson(j);
  } catch (const json::exception &e) {
    throw SchemaError(std::string("malformed certificate: ") + e.what());
  }
}

json toCompactJson(const GuardTable &t) {
  return json{{"format", "mxcert-guard-table"},
              {"format_version", kGuardTableVersion},
              {"config", configToJson(t.config)},
              {"lhs", toString(t.lhs)},
              {"rhs", toString(t.rhs)},
              {"relation", toString(t.relation)},
              {"agree", guardToJson(t.agree)}};
}

GuardTable readGuardTable(const std::string &path) { return guardTableFromJson(parseFile(path)); }

GuardTable guardTableFromJson(const json &j, bool allowNvfp4) {
  try {
    if (j.is_object() && j.contains("format") && j.at("format") == "mxcert-guard-table") {
      onlyKeys(j, {"format", "format_version", "config", "lhs", "rhs", "relation", "agree"}, "guard table");
      if (getInt(j, "format_version", 0, 1000) != kGuardTableVersion)
        throw SchemaError("field 'format_version': unsupported version");
      GuardTable t{configFromJson(field(j, "config", "guard table")), placementField(j, "lhs"),
                   placementField(j, "rhs"), relationField(j), guardFromJson(field(j, "agree", "guard table")),
                   false};
      if (!allowNvfp4) rejectNvfp4Table(t.config);
      return t;
    }
    Certificate c = certificateFromJson(j);
    if (!allowNvfp4) rejectNvfp4Table(c.config);
    return GuardTable{c.config, c.lhs, c.rhs, c.relation, c.agree, c.engine == "solver"};
  } catch (const json::exception &e) {
    throw SchemaError(std::string("malformed guard table: ") + e.what());
  }
}

}  // namespace mxcert::certs

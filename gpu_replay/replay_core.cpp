// gpu_replay/replay_core.cpp — see replay_core.h.
#include "gpu_replay/replay_core.h"

#include "gpu_replay/host_backend.h"
#include "models/value_io.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

namespace mxreplay {

using mxcert::CodeSet;
using mxcert::ConcreteInput;
using mxcert::CVal;
using mxcert::Guard;
using mxcert::ModelConfig;
using mxcert::Placement;
using mxcert::Relation;
using mxcert::certs::Certificate;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string oneLine(std::string s) {
  for (char &c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

/// The directory holding the running executable (device plugins are installed next to it).
std::filesystem::path exeDir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  buf[n] = 0;
  return std::filesystem::path(buf).parent_path();
}

std::string upper(const std::string &kind) { return kind == "cuda" ? "CUDA" : kind == "hip" ? "HIP" : kind; }

int specialsOf(const mxcert::ElementFormat &f) {
  switch (f.specials) {
  case mxcert::SpecialKind::None: return kSpecialsNone;
  case mxcert::SpecialKind::NanOnlyMax: return kSpecialsNanOnlyMax;
  case mxcert::SpecialKind::Ieee: return kSpecialsIeee;
  }
  return kSpecialsNone;
}


int placementCode(Placement p) {
  switch (p) {
  case Placement::Pre: return kPre;
  case Placement::Post: return kPost;
  case Placement::Dequant: return kDequant;
  case Placement::Post2: return kPost2;
  }
  return kPre;
}

/// The pairs of a code set with both codes at most maxCode, in (xa, xb) order.
std::vector<std::pair<int, int>> pairsOf(const CodeSet &s, int maxCode = mxcert::kMaxCode) {
  std::vector<std::pair<int, int>> out;
  for (int xa = 0; xa <= maxCode; ++xa)
    for (int xb = 0; xb <= maxCode; ++xb)
      if (s.get(xa, xb)) out.emplace_back(xa, xb);
  return out;
}

}  // namespace

// ---- backends ---------------------------------------------------------------------------

namespace {

/// Loads the plugin of a device kind ("cuda", "hip") without initializing it. Throws
/// UsageError("no CUDA device: this build has no CUDA backend ...") etc.
const PluginV1 *loadPlugin(const std::string &kind, void **handle, std::string *pathOut) {
  const std::string U = upper(kind);
  const std::string file = "libmxcert_replay_" + kind + ".so";
  std::filesystem::path dir = exeDir();
  if (const char *d = std::getenv("MXCERT_REPLAY_PLUGIN_DIR")) dir = d;
  const std::filesystem::path path = dir / file;
  if (pathOut) *pathOut = path.string();
  if (!std::filesystem::exists(path))
    throw UsageError("no " + U + " device: this build has no " + U + " backend (" + file + " not found in " +
                     dir.string() + "; " + (kind == "cuda" ? "nvcc" : "hipcc") +
                     " was not found when it was configured)");
  void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror();
    throw UsageError("no " + U + " device: cannot load the " + U + " backend (" +
                     oneLine(e ? e : "dlopen failed") + ")");
  }
  *handle = h;
  auto entry = reinterpret_cast<PluginEntry>(dlsym(h, MXREPLAY_PLUGIN_SYMBOL));
  if (!entry) throw UsageError("no " + U + " device: " + file + " is not an mxcert-replay backend");
  const PluginV1 *api = entry();
  if (!api || api->abi != kPluginAbi)
    throw UsageError("no " + U + " device: " + file + " has an incompatible interface version");
  return api;
}

}  // namespace

std::string Backend::describeBuild(const std::string &kind) {
  if (kind == "host") return "host: built in (the arithmetic header compiled by the host compiler)";
  if (kind != "cuda" && kind != "hip") throw UsageError("unknown backend '" + kind + "' (expected cuda, hip or host)");
  void *h = nullptr;
  std::string path;
  const PluginV1 *api = loadPlugin(kind, &h, &path);
  std::string targets = "unknown";
  if (auto t = reinterpret_cast<const char *(*)()>(dlsym(h, MXREPLAY_TARGETS_SYMBOL))) targets = t();
  return kind + ": " + path + ", interface " + std::to_string(api->abi) + ", backend '" + api->name() +
         "', compiled for " + targets + (api->runTensorCores ? ", tensor-core mode" : "");
}

std::unique_ptr<Backend> Backend::open(const std::string &kind) {
  std::unique_ptr<Backend> b(new Backend());
  b->kind_ = kind;
  char err[512] = {0};
  if (kind == "host") {
    b->api_ = hostPlugin();
  } else if (kind == "cuda" || kind == "hip") {
    b->api_ = loadPlugin(kind, &b->handle_, nullptr);
  } else {
    throw UsageError("unknown --device '" + kind + "' (expected cuda, hip or host)");
  }
  const int st = b->api_->init(err, int(sizeof err));
  if (st != kStatusOk) {
    std::string why = oneLine(err);
    if (st == kStatusNoDevice) throw UsageError("no " + upper(kind) + " device" + (why.empty() ? "" : " (" + why + ")"));
    throw UsageError(upper(kind) + " backend: " + why);
  }
  return b;
}

Backend::~Backend() {
  // The plugins are not unloaded: CUDA and HIP runtimes register exit handlers.
}

std::vector<uint32_t> Backend::runPoints(const Problem &P, const std::vector<uint8_t> &wa,
                                         const std::vector<uint8_t> &wb,
                                         const std::vector<PointJob> &jobs) {
  std::vector<uint32_t> bits(2 * jobs.size());
  if (jobs.empty()) return bits;
  char err[512] = {0};
  const int st = api_->runPoints(&P, wa.data(), wb.data(), jobs.data(), jobs.size(), bits.data(), err,
                                 int(sizeof err));
  if (st != kStatusOk) throw UsageError(upper(kind_) + " backend: " + oneLine(err));
  return bits;
}

std::vector<uint64_t> Backend::runExhaustive(const Problem &P, const std::vector<float> &av,
                                             const std::vector<float> &bv, uint64_t numTuples,
                                             const std::vector<uint8_t> &points) {
  std::vector<uint64_t> first(points.size() / 2, UINT64_MAX);
  if (first.empty()) return first;
  char err[512] = {0};
  const int st = api_->runExhaustive(&P, av.data(), bv.data(), int(av.size()), numTuples, points.data(),
                                     first.size(), first.data(), err, int(sizeof err));
  if (st != kStatusOk) throw UsageError(upper(kind_) + " backend: " + oneLine(err));
  return first;
}

ElemFmt elemFmtOf(const mxcert::ElementFormat &f) {
  return ElemFmt{int(f.ebits), int(f.mbits), f.bias, specialsOf(f)};
}

// ---- the problem ------------------------------------------------------------------------

Problem makeProblem(const ModelConfig &cfg, Placement lhs, Placement rhs, Relation rel) {
  const std::string pre = "config not supported by the device build: ";
  if (cfg.anyOrder)
    throw UsageError(pre + "tree " + treeText(cfg) +
                     ": an any-order certificate's witnesses name their own trees; replay one tree at a time (not supported yet)");
  if (cfg.acc.fmt.name != "f32")
    throw UsageError(pre + "accumulator " + cfg.acc.fmt.name + " (the device arithmetic is binary32 only)");
  if (cfg.acc.rounding != mxcert::Rounding::RNE)
    throw UsageError(pre + "rounding rtz (the device arithmetic is round-to-nearest-even only)");
  if (!cfg.tree.isBinary())
    throw UsageError(pre + "tree " + cfg.tree.sexpr() +
                     " has a fused n-ary node, which has no IEEE device operation (skipped)");
  if (cfg.k() < 1 || cfg.k() > kMaxK) throw UsageError(pre + "k out of range");
  Problem P{};
  P.fa = elemFmtOf(cfg.a);
  P.fb = elemFmtOf(cfg.b);
  P.ftz = cfg.acc.subnormals == mxcert::Subnormals::DAZ ? 2 : cfg.acc.subnormals == mxcert::Subnormals::FTZ ? 1 : 0;
  P.p1 = placementCode(lhs);
  P.p2 = placementCode(rhs);
  P.relation = rel == Relation::Value ? kValue : kBitwise;
  P.scale = cfg.nvfp4() ? kScaleE4M3 : kScaleE8M0;
  P.tree.k = cfg.k();
  const auto &nodes = cfg.tree.nodes();
  std::vector<int> ref(nodes.size());
  int nInner = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].leaf >= 0) {
      ref[i] = nodes[i].leaf;
      continue;
    }
    P.tree.c0[nInner] = int8_t(ref[size_t(nodes[i].children[0])]);
    P.tree.c1[nInner] = int8_t(ref[size_t(nodes[i].children[1])]);
    ref[i] = kInnerRef + nInner;
    ++nInner;
  }
  P.tree.nInner = nInner;
  return P;
}

// ---- the model --------------------------------------------------------------------------

void evaluateModel(const Certificate &c, PointDetail &d) {
  const std::vector<CVal> r =
      mxcert::evaluatePlacements(c.config, {c.lhs, c.rhs}, ConcreteInput{d.a, d.b, d.xa, d.xb});
  d.model[0] = uint32_t(mxcert::encodeBits(r[0], c.config.acc.fmt));
  d.model[1] = uint32_t(mxcert::encodeBits(r[1], c.config.acc.fmt));
  d.modelRelated = mxcert::isRelated(r[0], r[1], c.relation);
}

// ---- witness replay ---------------------------------------------------------------------

WitnessReport replayWitnesses(const Certificate &c, Backend &be, long maxPairs) {
  const auto t0 = std::chrono::steady_clock::now();
  const Problem P = makeProblem(c.config, c.lhs, c.rhs, c.relation);
  const size_t k = size_t(c.config.k());
  WitnessReport r;
  r.witnesses = long(c.witnesses.size());
  const CodeSet agree = c.agree.toSet();
  CodeSet covered;
  std::vector<uint8_t> wa, wb;
  std::vector<PointJob> jobs;
  for (size_t w = 0; w < c.witnesses.size(); ++w) {
    const auto &W = c.witnesses[w];
    for (size_t i = 0; i < k; ++i) {
      wa.push_back(uint8_t(W.a[i]));
      wb.push_back(uint8_t(W.b[i]));
    }
    const std::vector<std::pair<int, int>> claimed = pairsOf(W.refutes.toSet());
    r.pairsClaimed += long(claimed.size());
    std::vector<std::pair<int, int>> pairs;  // the claims no earlier witness made
    for (const auto &[xa, xb] : claimed) {
      if (covered.get(xa, xb)) {
        ++r.duplicateClaims;
        continue;
      }
      pairs.push_back({xa, xb});
      covered.set(xa, xb);
      if (agree.get(xa, xb) && ++r.insideAgree == 1) r.firstInsideAgree = std::make_pair(xa, xb);
    }
    std::vector<size_t> pick;
    if (maxPairs > 0 && long(pairs.size()) > maxPairs) {
      ++r.sampledWitnesses;
      // Deterministic sample: evenly spaced, always including the first and the last pair.
      for (long i = 0; i < maxPairs; ++i)
        pick.push_back(maxPairs == 1 ? 0 : size_t(double(i) * double(pairs.size() - 1) / double(maxPairs - 1)));
      pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
    } else {
      for (size_t i = 0; i < pairs.size(); ++i) pick.push_back(i);
    }
    for (size_t i : pick)
      jobs.push_back(PointJob{uint32_t(w), uint8_t(pairs[i].first), uint8_t(pairs[i].second), 0});
  }
  const int maxCode = c.config.maxTableCode();  // the table's code space
  for (int xa = 0; xa <= maxCode; ++xa)
    for (int xb = 0; xb <= maxCode; ++xb)
      if (!agree.get(xa, xb)) {
        ++r.excludedPairs;
        if (!covered.get(xa, xb) && ++r.uncovered == 1) r.firstUncovered = std::make_pair(xa, xb);
      }
  r.pairsReplayed = long(jobs.size());
  const std::vector<uint32_t> bits = be.runPoints(P, wa, wb, jobs);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto &W = c.witnesses[jobs[i].witness];
    PointDetail d;
    d.where = "witness " + std::to_string(jobs[i].witness) + " (of " + std::to_string(c.witnesses.size()) + ")";
    d.a = W.a;
    d.b = W.b;
    d.xa = jobs[i].xa;
    d.xb = jobs[i].xb;
    d.device[0] = bits[2 * i];
    d.device[1] = bits[2 * i + 1];
    d.deviceRelated = related(d.device[0], d.device[1], P.relation);
    evaluateModel(c, d);
    const bool same = d.device[0] == d.model[0] && d.device[1] == d.model[1];
    if (same) {
      ++r.agree;
    } else if (++r.disagree == 1) {
      r.firstDisagreement = d;
    }
    if (!d.deviceRelated) {
      ++r.refuted;
    } else if (++r.notRefuted == 1) {
      r.firstNotRefuted = d;
    }
  }
  r.seconds = secondsSince(t0);
  return r;
}

// ---- exhaustive -------------------------------------------------------------------------

Classes buildClasses(const ModelConfig &cfg, bool products) {
  Classes C;
  C.products = products;
  const ElemFmt fa = elemFmtOf(cfg.a), fb = elemFmtOf(cfg.b);
  std::map<uint64_t, size_t> index;
  for (unsigned ca = 0; ca < cfg.a.numCodes(); ++ca)
    for (unsigned cb = 0; cb < cfg.b.numCodes(); ++cb) {
      const float av = decodeElement(fa, ca), bv = decodeElement(fb, cb);
      uint64_t key;
      if (products) {
        key = canonicalBits(mulRN(av, bv, 0));
      } else if (isNaN(av) || isNaN(bv)) {
        key = UINT64_MAX;
      } else {
        const uint32_t ua = floatToBits(av), ub = floatToBits(bv);
        key = (uint64_t(ua & 0x7FFFFFFFu) << 32) | (uint64_t(ub & 0x7FFFFFFFu) << 1) | ((ua ^ ub) >> 31);
      }
      if (index.emplace(key, C.av.size()).second) {
        C.av.push_back(av);
        C.bv.push_back(bv);
        C.rep.emplace_back(ca, cb);
      }
    }
  return C;
}

namespace {

/// The codes of tuple t (digit i in base n = class of position i).
void tupleCodes(const Classes &C, int k, uint64_t t, std::vector<unsigned> &a, std::vector<unsigned> &b) {
  const uint64_t n = C.av.size();
  a.assign(size_t(k), 0);
  b.assign(size_t(k), 0);
  for (int i = 0; i < k; ++i) {
    const size_t cls = size_t(t % n);
    t /= n;
    a[size_t(i)] = C.rep[cls].first;
    b[size_t(i)] = C.rep[cls].second;
  }
}

/// The code pairs on anti-diagonal e.
std::vector<std::pair<int, int>> linePairs(int e) {
  std::vector<std::pair<int, int>> out;
  for (int xa = std::max(0, e); xa <= std::min(mxcert::kMaxCode, e + mxcert::kMaxCode); ++xa)
    out.emplace_back(xa, e + mxcert::kMaxCode - xa);
  return out;
}

/// "xa = 1, xb = 2 (e = -251)"; NVFP4 pairs have no e (their scale is the product of two values).
std::string pairText(int xa, int xb, bool nvfp4) {
  const std::string t = "xa = " + std::to_string(xa) + ", xb = " + std::to_string(xb);
  return nvfp4 ? t : t + " (e = " + std::to_string(xa + xb - mxcert::kMaxCode) + ")";
}

}  // namespace

ExhaustiveReport replayExhaustive(const Certificate &c, Backend &be, const ExhaustiveOptions &opt) {
  const auto t0 = std::chrono::steady_clock::now();
  const Problem P = makeProblem(c.config, c.lhs, c.rhs, c.relation);
  ExhaustiveReport r;
  // NVFP4 placements depend on both scale values, never on e alone.
  r.eOnly = !c.config.nvfp4() && mxcert::dependsOnEOnly(c.lhs) && mxcert::dependsOnEOnly(c.rhs);
  r.products = c.lhs != Placement::Dequant && c.rhs != Placement::Dequant;
  r.fullRun = !opt.only.has_value();
  const Classes C = buildClasses(c.config, r.products);
  const int k = c.config.k();
  r.classes = int(C.av.size());
  const double tuplesD = std::pow(double(r.classes), double(k));
  if (tuplesD > 1.8e19)
    throw UsageError("exhaustive space too large: " + std::to_string(r.classes) + "^" + std::to_string(k) + " tuples");
  r.tuples = 1;
  for (int i = 0; i < k; ++i) r.tuples *= uint64_t(r.classes);

  // Scale points: one per e (a representative pair on the line), or every code pair.
  std::vector<uint8_t> points;
  std::vector<int> pointE;  // e-only: the e of each point
  const CodeSet onlySet = opt.only ? opt.only->toSet() : CodeSet::all();
  if (r.eOnly) {
    for (int e = -mxcert::kMaxCode; e <= mxcert::kMaxCode; ++e) {
      const auto line = linePairs(e);
      bool any = false;
      for (const auto &[xa, xb] : line) any = any || onlySet.get(xa, xb);
      if (!any) continue;
      points.push_back(uint8_t(line.back().first));
      points.push_back(uint8_t(line.back().second));
      pointE.push_back(e);
    }
  } else {
    for (const auto &[xa, xb] : pairsOf(onlySet, c.config.maxTableCode())) {
      points.push_back(uint8_t(xa));
      points.push_back(uint8_t(xb));
    }
  }
  r.points = long(points.size() / 2);
  r.work = double(r.tuples) * double(r.points);
  const double maxWork = opt.maxWork > 0 ? opt.maxWork : (be.kind() == "host" ? 4e10 : 1e15);
  if (r.work > maxWork) {
    std::ostringstream s;
    s << "exhaustive space too large: " << r.tuples << " " << (r.products ? "product" : "operand-pair")
      << " tuples x " << r.points << (r.eOnly ? " values of e" : " code pairs") << " = " << r.work
      << " evaluations exceeds the limit " << maxWork << " for --device " << be.kind()
      << " (raise it with --max-work, or restrict the scale points with --only)";
    throw UsageError(s.str());
  }

  std::vector<uint64_t> first;
  if (!opt.progress) {
    first = be.runExhaustive(P, C.av, C.bv, r.tuples, points);
  } else {
    const size_t n = points.size() / 2, chunk = std::max<size_t>(32, (n + 63) / 64);
    opt.progress(0, long(n));
    for (size_t lo = 0; lo < n; lo += chunk) {
      const size_t hi = std::min(n, lo + chunk);
      const std::vector<uint8_t> part(points.begin() + long(2 * lo), points.begin() + long(2 * hi));
      const std::vector<uint64_t> got = be.runExhaustive(P, C.av, C.bv, r.tuples, part);
      first.insert(first.end(), got.begin(), got.end());
      opt.progress(long(hi), long(n));
    }
  }

  // Compare with the certificate's claims.
  const CodeSet agree = c.agree.toSet();
  CodeSet devAgree;
  std::vector<PointDetail> checks;  // inputs to evaluate on the device and in the model
  auto describeTuple = [&](int xa, int xb, uint64_t t, const std::string &where) {
    PointDetail d;
    d.where = where;
    tupleCodes(C, k, t, d.a, d.b);
    d.xa = unsigned(xa);
    d.xb = unsigned(xb);
    return d;
  };
  std::optional<size_t> mismatchCheck;  // index into checks of the first mismatch's input
  auto noteMismatch = [&](const std::string &text, std::optional<PointDetail> input) {
    if (!r.firstMismatch.empty()) return;
    r.firstMismatch = text;
    if (input) {
      mismatchCheck = checks.size();
      checks.push_back(*input);
    }
  };
  for (size_t j = 0; j < first.size(); ++j) {
    const int xa = points[2 * j], xb = points[2 * j + 1];
    const bool differs = first[j] != UINT64_MAX;
    differs ? ++r.pointsDiffer : ++r.pointsAgree;
    const std::string tupleText = differs ? "tuple " + std::to_string(first[j]) : "";
    if (r.eOnly) {
      const int e = pointE[j];
      const auto line = linePairs(e);
      long in = 0;
      for (const auto &[a, b] : line) {
        in += agree.get(a, b) ? 1 : 0;
        if (!differs) devAgree.set(a, b);
      }
      const std::string where = "e = " + std::to_string(e);
      std::optional<PointDetail> input;
      if (differs) input = describeTuple(xa, xb, first[j], where + ", " + tupleText);
      if (in != 0 && in != long(line.size())) {
        ++r.mixedLines;
        noteMismatch(where + ": the certificate's agree set holds " + std::to_string(in) + " of the " +
                         std::to_string(line.size()) +
                         " code pairs on this e-line, but both placements depend on e only; the device finds "
                         "the placements " + (differs ? "differ" : "agree") + " on it",
                     input);
      } else if (in != 0 && differs) {
        ++r.claimedAgreeButDiffer;
        noteMismatch(where + ": the certificate claims agreement, but the device finds an input on which " +
                         mxcert::toString(c.lhs) + " and " + mxcert::toString(c.rhs) + " are not " +
                         mxcert::toString(c.relation) + "-equal",
                     input);
      } else if (in == 0 && !differs) {
        ++r.claimedExcludedButAgree;
        noteMismatch(where + ": the certificate excludes it, but none of the " + std::to_string(r.tuples) +
                         " tuples makes the placements differ on the device",
                     std::nullopt);
      }
      if (differs) checks.push_back(*input);
    } else {
      if (!differs) devAgree.set(xa, xb);
      const bool in = agree.get(xa, xb);
      const std::string where = pairText(xa, xb, c.config.nvfp4());
      std::optional<PointDetail> input;
      if (differs) input = describeTuple(xa, xb, first[j], where + ", " + tupleText);
      if (in && differs) {
        ++r.claimedAgreeButDiffer;
        noteMismatch(where + ": the certificate claims agreement, but the device finds an input on which " +
                         mxcert::toString(c.lhs) + " and " + mxcert::toString(c.rhs) + " are not " +
                         mxcert::toString(c.relation) + "-equal",
                     input);
      } else if (!in && !differs) {
        ++r.claimedExcludedButAgree;
        noteMismatch(where + ": the certificate excludes it, but none of the " + std::to_string(r.tuples) +
                         " tuples makes the placements differ on the device",
                     std::nullopt);
      }
      if (differs) checks.push_back(*input);
    }
  }
  if (r.fullRun) {
    r.agreeMatches = devAgree == agree;
    r.deviceAgree = Guard::fromSet(devAgree).str();
  }

  // Device against the model: every differing input found, and random samples.
  const size_t kMaxDiffChecks = 20000;
  if (checks.size() > kMaxDiffChecks) {
    std::vector<PointDetail> keep;
    if (mismatchCheck) keep.push_back(checks[*mismatchCheck]);
    for (size_t i = 0; i < kMaxDiffChecks; ++i) keep.push_back(checks[i * checks.size() / kMaxDiffChecks]);
    checks.swap(keep);
    if (mismatchCheck) mismatchCheck = 0;
  }
  std::mt19937_64 rng(0x6d78636572742d72ull);
  for (long s = 0; s < opt.modelSamples && r.points > 0; ++s) {
    const size_t j = size_t(rng() % uint64_t(r.points));
    int xa = points[2 * j], xb = points[2 * j + 1];
    if (r.eOnly) {  // any pair on the line (all pairs on it share the device result)
      const auto line = linePairs(pointE[j]);
      std::tie(xa, xb) = line[size_t(rng() % line.size())];
    }
    const uint64_t t = rng() % r.tuples;
    checks.push_back(describeTuple(xa, xb, t, "sample: " + pairText(xa, xb, c.config.nvfp4()) + ", tuple " + std::to_string(t)));
  }
  std::vector<uint8_t> wa, wb;
  std::vector<PointJob> jobs;
  for (size_t i = 0; i < checks.size(); ++i) {
    for (int q = 0; q < k; ++q) {
      wa.push_back(uint8_t(checks[i].a[size_t(q)]));
      wb.push_back(uint8_t(checks[i].b[size_t(q)]));
    }
    jobs.push_back(PointJob{uint32_t(i), uint8_t(checks[i].xa), uint8_t(checks[i].xb), 0});
  }
  const std::vector<uint32_t> bits = be.runPoints(P, wa, wb, jobs);
  for (size_t i = 0; i < checks.size(); ++i) {
    PointDetail &d = checks[i];
    d.device[0] = bits[2 * i];
    d.device[1] = bits[2 * i + 1];
    d.deviceRelated = related(d.device[0], d.device[1], P.relation);
    evaluateModel(c, d);
    ++r.modelChecks;
    if (d.device[0] != d.model[0] || d.device[1] != d.model[1]) {
      if (++r.modelDisagree == 1) r.firstModelDisagree = d;
    }
  }
  if (mismatchCheck) r.mismatchInput = checks[*mismatchCheck];
  r.seconds = secondsSince(t0);
  return r;
}

// ---- printing ---------------------------------------------------------------------------

std::string hex32(uint32_t u) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", u);
  return buf;
}

std::string f32Decimal(uint32_t bits) {
  const mxcert::AccFormat f32 = *mxcert::findAccFormat("f32");
  return mxcert::toDecimal(mxcert::decodeBits(bits, f32), f32);
}

std::string describeConfig(const Certificate &c) {
  const auto &cfg = c.config;
  std::ostringstream s;
  s << cfg.a.name << " x " << cfg.b.name << (cfg.nvfp4() ? " (nvfp4: e4m3 scales)" : "") << ", " << cfg.acc.fmt.name << " " << mxcert::toString(cfg.acc.rounding)
    << " " << mxcert::toString(cfg.acc.subnormals) << ", k = " << cfg.k() << ", tree " << cfg.tree.sexpr() << ", "
    << mxcert::toString(c.lhs) << " vs " << mxcert::toString(c.rhs) << ", " << mxcert::toString(c.relation);
  return s.str();
}

namespace {

std::string codeList(const mxcert::ElementFormat &f, const std::vector<unsigned> &codes) {
  std::string s = "codes [", v = "values [";
  for (size_t i = 0; i < codes.size(); ++i) {
    s += (i ? ", " : "") + std::to_string(codes[i]);
    v += (i ? ", " : "") + mxcert::elementToString(f, codes[i]);
  }
  return s + "] = " + v + "]";
}

}  // namespace

std::string describePoint(const Certificate &c, const PointDetail &d, const std::string &in) {
  std::ostringstream s;
  s << in << d.where << ": " << pairText(int(d.xa), int(d.xb), c.config.nvfp4()) << "\n";
  s << in << "  a (" << c.config.a.name << ") " << codeList(c.config.a, d.a) << "\n";
  s << in << "  b (" << c.config.b.name << ") " << codeList(c.config.b, d.b) << "\n";
  const Placement ps[2] = {c.lhs, c.rhs};
  for (int i = 0; i < 2; ++i)
    s << in << "  " << (i == 0 ? "lhs " : "rhs ") << mxcert::toString(ps[i]) << ": device " << hex32(d.device[i])
      << " (" << f32Decimal(d.device[i]) << "), model " << hex32(d.model[i]) << " (" << f32Decimal(d.model[i])
      << ")" << (d.device[i] == d.model[i] ? "" : "  <-- differs") << "\n";
  s << in << "  " << mxcert::toString(c.relation) << "-related: device " << (d.deviceRelated ? "yes" : "no")
    << ", model " << (d.modelRelated ? "yes" : "no") << "\n";
  return s.str();
}

nlohmann::json pointJson(const Certificate &c, const PointDetail &d) {
  nlohmann::json j{{"where", d.where},
                        {"xa", d.xa},
                        {"xb", d.xb},
                        {"a", d.a},
                        {"b", d.b},
                        {"device", {hex32(d.device[0]), hex32(d.device[1])}},
                        {"model", {hex32(d.model[0]), hex32(d.model[1])}},
                        {"device_related", d.deviceRelated},
                        {"model_related", d.modelRelated}};
  if (!c.config.nvfp4()) j["e"] = int(d.xa) + int(d.xb) - mxcert::kMaxCode;  // NVFP4 scales have no e
  return j;
}

nlohmann::json toJson(const WitnessReport &r, const Certificate &c) {
  nlohmann::json j{{"mode", "witnesses"},
                   {"config", describeConfig(c)},
                   {"witnesses", r.witnesses},
                   {"pairs_claimed", r.pairsClaimed},
                   {"pairs_replayed", r.pairsReplayed},
                   {"sampled_witnesses", r.sampledWitnesses},
                   {"agree", r.agree},
                   {"disagree", r.disagree},
                   {"refuted", r.refuted},
                   {"not_refuted", r.notRefuted},
                   {"inside_agree", r.insideAgree},
                   {"excluded_pairs", r.excludedPairs},
                   {"uncovered", r.uncovered},
                   {"duplicate_claims", r.duplicateClaims},
                   {"seconds", r.seconds},
                   {"ok", r.ok()}};
  j["first_disagreement"] = r.firstDisagreement ? pointJson(c, *r.firstDisagreement) : nlohmann::json();
  j["first_not_refuted"] = r.firstNotRefuted ? pointJson(c, *r.firstNotRefuted) : nlohmann::json();
  return j;
}

std::string toText(const WitnessReport &r, const Certificate &c) {
  std::ostringstream s;
  s << "witnesses replayed: " << r.witnesses << " (" << r.pairsClaimed << " code pairs claimed, "
    << r.pairsReplayed << " replayed";
  if (r.sampledWitnesses) s << "; " << r.sampledWitnesses << " witness(es) sampled by --max-pairs";
  s << ")\n";
  s << "device vs model: " << r.agree << " agree, " << r.disagree << " disagree (" << 2 * r.pairsReplayed
    << " placement results compared bit for bit)\n";
  s << "relation: " << r.refuted << " pairs refuted as claimed, " << r.notRefuted << " not refuted\n";
  s << "witness coverage: " << r.excludedPairs << " excluded pairs, " << r.uncovered << " without a witness, "
    << r.insideAgree << " claimed inside the agree set, " << r.duplicateClaims
    << " claimed again by a later witness\n";
  if (r.firstDisagreement) s << "first disagreement:\n" << describePoint(c, *r.firstDisagreement, "  ");
  if (r.firstNotRefuted) s << "first witness pair NOT refuted on the device:\n" << describePoint(c, *r.firstNotRefuted, "  ");
  if (r.firstInsideAgree)
    s << "first witness pair inside the agree set: " << pairText(r.firstInsideAgree->first, r.firstInsideAgree->second, c.config.nvfp4()) << "\n";
  if (r.firstUncovered)
    s << "first excluded pair without a witness: " << pairText(r.firstUncovered->first, r.firstUncovered->second, c.config.nvfp4()) << "\n";
  return s.str();
}

nlohmann::json toJson(const ExhaustiveReport &r, const Certificate &c) {
  nlohmann::json j{{"mode", "exhaustive"},
                   {"config", describeConfig(c)},
                   {"scale_points", r.eOnly ? "e" : "code pairs"},
                   {"classes", r.products ? "signed products" : "operand pairs"},
                   {"classes_per_position", r.classes},
                   {"tuples", r.tuples},
                   {"points", r.points},
                   {"evaluations", r.work},
                   {"points_differ", r.pointsDiffer},
                   {"points_agree", r.pointsAgree},
                   {"claimed_agree_but_differ", r.claimedAgreeButDiffer},
                   {"claimed_excluded_but_agree", r.claimedExcludedButAgree},
                   {"mixed_lines", r.mixedLines},
                   {"model_checks", r.modelChecks},
                   {"model_disagree", r.modelDisagree},
                   {"full_run", r.fullRun},
                   {"seconds", r.seconds},
                   {"ok", r.ok()}};
  if (r.fullRun) {
    j["device_agree"] = r.deviceAgree;
    j["agree_matches"] = r.agreeMatches;
  }
  j["first_mismatch"] = r.firstMismatch.empty() ? nlohmann::json() : nlohmann::json(r.firstMismatch);
  j["mismatch_input"] = r.mismatchInput ? pointJson(c, *r.mismatchInput) : nlohmann::json();
  j["first_model_disagreement"] = r.firstModelDisagree ? pointJson(c, *r.firstModelDisagree) : nlohmann::json();
  return j;
}

std::string toText(const ExhaustiveReport &r, const Certificate &c) {
  std::ostringstream s;
  s << "exhaustive: " << r.classes << " " << (r.products ? "signed-product" : "operand-pair") << " classes per position, "
    << r.tuples << " tuples x " << r.points << (r.eOnly ? " values of e" : " code pairs") << " = " << r.work
    << " evaluations" << (r.fullRun ? "" : " (restricted by --only)") << "\n";
  s << "scale points: " << r.pointsDiffer << " with a differing input, " << r.pointsAgree << " with none\n";
  if (r.fullRun)
    s << "device agree set: " << r.deviceAgree << " -> " << (r.agreeMatches ? "equals" : "DIFFERS FROM")
      << " the certificate's agree set\n";
  s << "claims: " << r.claimedAgreeButDiffer << " claimed-agree points differ, " << r.claimedExcludedButAgree
    << " claimed-excluded points agree, " << r.mixedLines << " mixed e-lines\n";
  s << "device vs model: " << r.modelChecks - r.modelDisagree << " of " << r.modelChecks
    << " inputs (every differing input found, plus random samples) agree bit for bit\n";
  if (!r.firstMismatch.empty()) {
    s << "first mismatch: " << r.firstMismatch << "\n";
    if (r.mismatchInput) s << describePoint(c, *r.mismatchInput, "  ");
  }
  if (r.firstModelDisagree) s << "first device/model disagreement:\n" << describePoint(c, *r.firstModelDisagree, "  ");
  return s.str();
}

}  // namespace mxreplay

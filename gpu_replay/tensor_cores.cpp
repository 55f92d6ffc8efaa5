// gpu_replay/tensor_cores.cpp — see tensor_cores.h.
#include "gpu_replay/tensor_cores.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

namespace mxreplay {

using mxcert::certs::Certificate;

namespace {

/// An exact binary32-range term: NaN, ±inf, or (-1)^neg N 2^X.
struct Term {
  bool nan = false, inf = false, neg = false;
  uint64_t N = 0;
  int X = 0;
};

Term termOf(float f) {
  const uint32_t u = floatToBits(f);
  Term t;
  t.neg = (u >> 31) != 0;
  const uint32_t E = (u >> 23) & 0xFF, M = u & 0x7FFFFF;
  if (E == 0xFF) {
    if (M) t.nan = true;
    else t.inf = true;
    return t;
  }
  if (E == 0) {
    t.N = M;
    t.X = -149;
  } else {
    t.N = M | 0x800000u;
    t.X = int(E) - 150;
  }
  return t;
}

int msb64(uint64_t v) { return 63 - __builtin_clzll(v); }

/// Rounds (-1)^neg S 2^X (S > 0, exact) once to binary32, RNE or toward zero, subnormals
/// kept (SPEC §3). Returns the float.
float roundToF32(bool neg, uint64_t S, int X, bool rz) {
  const int E = X + msb64(S);           // exponent of the leading bit
  const int q = std::max(E - 23, -149); // ulp exponent of the result
  uint64_t Nr = S;
  int Xr = X;
  if (X < q) {
    const int d = q - X;
    uint64_t quo, rem, half;
    if (d >= 64) {
      quo = 0;
      rem = S;
      half = 0;  // S < 2^64 <= 2^(d-1): strictly below half
    } else {
      quo = S >> d;
      rem = S & ((uint64_t(1) << d) - 1);
      half = uint64_t(1) << (d - 1);
    }
    bool up = false;
    if (!rz) {
      if (d >= 64) up = false;
      else up = rem > half || (rem == half && (quo & 1));
    }
    Nr = quo + (up ? 1 : 0);
    Xr = q;
  }
  // Overflow: the rounded value reaches 2^128.
  if (Nr != 0 && Xr + msb64(Nr) >= 128) {
    if (rz) return bitsToFloat((neg ? 0x80000000u : 0u) | 0x7F7FFFFFu);
    return bitsToFloat((neg ? 0x80000000u : 0u) | 0x7F800000u);
  }
  if (Nr == 0) return bitsToFloat(neg ? 0x80000000u : 0u);
  // Nr < 2^25 and the value is on the binary32 grid: build it exactly in double, convert.
  const double v = double(Nr) * std::ldexp(1.0, Xr);
  const float f = float(v);
  return neg ? -f : f;
}

/// One fused step: the exact sum of the terms, each truncated to F bits below the largest
/// exponent among them (F < 0: exact), rounded once to binary32.
float fusedStep(const std::vector<Term> &ts, int F, bool rz, bool zeroPlus) {
  bool nan = false, pinf = false, ninf = false, allNegZero = true, anyNonzero = false;
  int emax = -100000, xmin = 100000;
  for (const Term &t : ts) {
    nan = nan || t.nan;
    if (t.inf) (t.neg ? ninf : pinf) = true;
    if (t.nan || t.inf) continue;
    if (t.N == 0) {
      allNegZero = allNegZero && t.neg;
      continue;
    }
    allNegZero = false;
    anyNonzero = true;
    emax = std::max(emax, t.X + msb64(t.N));
    xmin = std::min(xmin, t.X);
  }
  if (nan || (pinf && ninf)) return nanf_();
  if (pinf) return bitsToFloat(0x7F800000u);
  if (ninf) return bitsToFloat(0xFF800000u);
  if (!anyNonzero) return bitsToFloat(allNegZero && !zeroPlus ? 0x80000000u : 0u);
  if (F >= 0) {
    const int u = emax - F;  // every kept term is a multiple of 2^u and below 2^(F+1) units
    int64_t S = 0;
    for (const Term &t : ts) {
      if (t.nan || t.inf || t.N == 0) continue;
      uint64_t m;
      if (t.X >= u) m = t.N << (t.X - u);
      else m = (u - t.X) >= 64 ? 0 : t.N >> (u - t.X);
      S += t.neg ? -int64_t(m) : int64_t(m);
    }
    if (S == 0) return 0.0f;
    return roundToF32(S < 0, uint64_t(S < 0 ? -S : S), u, rz);
  }
  // Exact: integer sum in units of 2^xmin (arbitrary precision).
  mxcert::Integer S(0);
  for (const Term &t : ts) {
    if (t.nan || t.inf || t.N == 0) continue;
    mxcert::Integer m = mxcert::Integer::fromU64(t.N) << unsigned(t.X - xmin);
    S += t.neg ? -m : m;
  }
  if (S.isZero()) return 0.0f;
  const bool neg = S.sign() < 0;
  mxcert::Integer A = S.abs();
  // Keep the top 62 bits and OR a sticky bit into the lowest one: a binary32 rounding drops
  // at least 38 of them, so the decision (below, at or above half) is unchanged.
  const unsigned m = A.msb();
  if (m > 61) {
    const unsigned drop = m - 61;
    const bool sticky = !A.lowBits(drop).isZero();
    uint64_t v = uint64_t((A >> drop).toInt64());
    if (sticky) v |= 1;
    return roundToF32(neg, v, xmin + int(drop), rz);
  }
  return roundToF32(neg, uint64_t(A.toInt64()), xmin, rz);
}

/// An e4m3 (or e5m2) code with exactly the value v; -1 if there is none.
int encodeAs(const ElemFmt &f, float v) {
  const uint32_t want = canonicalBits(v);
  for (unsigned c = 0; c < 256; ++c)
    if (canonicalBits(decodeElement(f, c)) == want) return int(c);
  return -1;
}

const ElemFmt kE4M3{4, 3, 7, kSpecialsNanOnlyMax};
const ElemFmt kE5M2{5, 2, 15, kSpecialsIeee};

/// The kind's key in --json and --tc-dump lines.
const char *kindKey(int kind) { return kind == kTcFp8 ? "fp8" : "mx-block-scaled"; }

std::string kindName(int kind) {
  return kind == kTcFp8 ? "fp8 mma.sync (e4m3/e5m2 -> f32, scales applied after the MMA)"
                        : "block-scaled MX MMA (kind::mxf8f6f4, e8m0 scales applied by the hardware)";
}

}  // namespace

std::string TcModel::name() const {
  std::ostringstream s;
  s << "g=" << g << ",F=" << (F < 0 ? std::string("exact") : std::to_string(F)) << "," << (rz ? "rz" : "rne");
  s << (scaleInside ? ",scale-inside" : ",scale-after");
  if (zeroPlus) s << ",+0";
  return s.str();
}

uint32_t tcModelDot(const TcModel &m, const mxcert::ModelConfig &cfg, const TcInput &in, bool scaled) {
  const ElemFmt fa = elemFmtOf(cfg.a), fb = elemFmtOf(cfg.b);
  const int k = int(in.a.size());
  const Scales s = makeScales(kScaleE8M0, int(in.xa), int(in.xb));  // MX only (replayTensorCores refuses NVFP4)
  if (scaled && s.nan) return kCanonicalNaN;
  float acc = bitsToFloat(0x80000000u);  // C = -0, the additive identity
  std::vector<Term> ts;
  for (int lo = 0; lo < k; lo += m.g) {
    ts.clear();
    ts.push_back(termOf(acc));
    for (int i = lo; i < std::min(k, lo + m.g); ++i) {
      Term t = termOf(mulRN(decodeElement(fa, in.a[size_t(i)]), decodeElement(fb, in.b[size_t(i)]), 0));
      if (scaled && m.scaleInside) t.X += s.e;
      ts.push_back(t);
    }
    acc = fusedStep(ts, m.F, m.rz, m.zeroPlus);
  }
  if (scaled && !m.scaleInside) acc = scaleRN(acc, s.e, 0);
  return canonicalBits(acc);
}

std::vector<TcModel> tcModelGrid(bool blockScaled, int k) {
  std::vector<TcModel> out;
  for (int inside = 0; inside <= (blockScaled ? 1 : 0); ++inside)
    for (int g : {1, 2, 4, 8, 16, 32}) {
      if (g > std::max(k, 1) && g != 32) continue;
      for (int rz = 0; rz <= 1; ++rz)
        for (int zp = 0; zp <= 1; ++zp) {
          out.push_back(TcModel{g, -1, rz != 0, inside != 0, zp != 0});
          for (int F = 8; F <= 30; ++F) out.push_back(TcModel{g, F, rz != 0, inside != 0, zp != 0});
        }
    }
  return out;
}

std::vector<std::pair<TcModel, long>> characterize(const mxcert::ModelConfig &cfg,
                                                   const std::vector<TcInput> &inputs,
                                                   const std::vector<uint32_t> &hw, bool scaled,
                                                   bool blockScaled) {
  std::vector<std::pair<TcModel, long>> out;
  for (const TcModel &m : tcModelGrid(blockScaled, cfg.k())) {
    long bad = 0;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (tcModelDot(m, cfg, inputs[i], scaled) != hw[i]) ++bad;
    out.emplace_back(m, bad);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto &x, const auto &y) { return x.second < y.second; });
  return out;
}

bool TensorCoreReport::ok() const {
  for (const auto &r : results)
    if (r.run && r.postAgree != r.postPoints) return false;
  return true;
}

namespace {

/// The model's post over the certificate's tree (scaled) or its tree sum D (unscaled), bits.
uint32_t treeBits(const mxcert::ModelConfig &cfg, const Problem &P, const TcInput &in, bool scaled) {
  const ElemFmt fa = elemFmtOf(cfg.a), fb = elemFmtOf(cfg.b);
  float av[kMaxK], bv[kMaxK], leaves[kMaxK];
  for (int i = 0; i < cfg.k(); ++i) {
    av[i] = decodeElement(fa, in.a[size_t(i)]);
    bv[i] = decodeElement(fb, in.b[size_t(i)]);
    leaves[i] = mulRN(av[i], bv[i], P.ftz);
  }
  if (scaled) return canonicalBits(evalPlacementValues(P, kPost, av, bv, int(in.xa), int(in.xb)));
  return canonicalBits(evalTree(P.tree, leaves, P.ftz));
}

/// The witnesses as MMA inputs: FP8 (unscaled), one dot each, scaled afterwards at every
/// claimed pair; block-scaled, every claimed pair is its own MMA.
std::vector<TcInput> witnessInputs(const Certificate &c, bool scaled) {
  std::vector<TcInput> inputs;
  for (size_t w = 0; w < c.witnesses.size(); ++w) {
    const auto &W = c.witnesses[w];
    if (!scaled) {
      inputs.push_back(TcInput{W.a, W.b, 127, 127, "witness " + std::to_string(w)});
      continue;
    }
    const mxcert::CodeSet s = W.refutes.toSet();
    for (int xa = 0; xa <= mxcert::kMaxCode; ++xa)
      for (int xb = 0; xb <= mxcert::kMaxCode; ++xb)
        if (s.get(xa, xb))
          inputs.push_back(TcInput{W.a, W.b, unsigned(xa), unsigned(xb), "witness " + std::to_string(w)});
  }
  return inputs;
}

/// Fills kr (kind and witnessInputs set) from the inputs and the hardware's results (canonical
/// f32 bits; unscaled D for FP8): post at every witness code pair, post over the tree on every
/// input, and the characterization; writes every input to dump when given.
void analyzeKind(const Certificate &c, const std::vector<TcInput> &inputs, const std::vector<uint32_t> &hw,
                 TcKindReport &kr, std::ostream *dump) {
  const auto &cfg = c.config;
  const Problem P = makeProblem(cfg, mxcert::Placement::Post, mxcert::Placement::Post, c.relation);
  const int kind = kr.kind;
  const bool scaled = kind == kTcMxBlock;
  kr.run = true;
  kr.inputs = long(inputs.size());
  // The post placement at every witness code pair.
  for (size_t i = 0; i < size_t(kr.witnessInputs); ++i) {
    const auto &W = inputs[i];
    auto check = [&](unsigned xa, unsigned xb, uint32_t hwPost) {
      PointDetail d;
      d.where = W.where;
      d.a = W.a;
      d.b = W.b;
      d.xa = xa;
      d.xb = xb;
      const mxcert::CVal m = mxcert::evaluatePlacement(cfg, mxcert::Placement::Post, mxcert::ConcreteInput{W.a, W.b, xa, xb});
      d.model[0] = d.model[1] = uint32_t(mxcert::encodeBits(m, cfg.acc.fmt));
      d.device[0] = d.device[1] = hwPost;
      d.deviceRelated = d.modelRelated = true;
      ++kr.postPoints;
      if (hwPost == d.model[0]) ++kr.postAgree;
      else if (!kr.firstPostDisagree) kr.firstPostDisagree = d;
    };
    if (scaled) {
      check(W.xa, W.xb, hw[i]);
    } else {
      const mxcert::CodeSet s = c.witnesses[i].refutes.toSet();
      for (int xa = 0; xa <= mxcert::kMaxCode; ++xa)
        for (int xb = 0; xb <= mxcert::kMaxCode; ++xb)
          if (s.get(xa, xb))
            check(unsigned(xa), unsigned(xb), canonicalBits(scaleRN(bitsToFloat(hw[i]), xa + xb - 254, 0)));
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const uint32_t t = treeBits(cfg, P, inputs[i], scaled);
    if (dump) {
      nlohmann::json line{{"kind", kindKey(kind)}, {"where", inputs[i].where},
                          {"a", inputs[i].a}, {"b", inputs[i].b}, {"xa", inputs[i].xa}, {"xb", inputs[i].xb},
                          {"hw", hex32(hw[i])}, {"tree", hex32(t)}};
      *dump << line.dump() << "\n";
    }
    if (t == hw[i]) {
      ++kr.treeMatches;
    } else if (kr.firstTreeMismatch.empty()) {
      std::ostringstream s;
      s << inputs[i].where << " (xa " << inputs[i].xa << ", xb " << inputs[i].xb << "): hardware " << hex32(hw[i])
        << " (" << f32Decimal(hw[i]) << "), post over tree " << cfg.tree.sexpr() << " " << hex32(t) << " ("
        << f32Decimal(t) << ")";
      kr.firstTreeMismatch = s.str();
    }
  }
  // Characterization on at most 8192 inputs (the witnesses first).
  std::vector<TcInput> sub;
  std::vector<uint32_t> subHw;
  const size_t step = std::max<size_t>(1, inputs.size() / 8192);
  for (size_t i = 0; i < inputs.size(); i += step) {
    sub.push_back(inputs[i]);
    subHw.push_back(hw[i]);
  }
  kr.ranking = characterize(cfg, sub, subHw, scaled, scaled);
}

}  // namespace

TensorCoreReport replayTensorCores(const Certificate &c, Backend &be, const TensorCoreOptions &opt) {
  const PluginV1 &api = be.api();
  if (!api.runTensorCores || !api.tensorCoreKinds)
    throw UsageError("--tensor-cores: the " + be.kind() + " backend has no tensor-core mode");
  TensorCoreReport rep;
  char desc[512] = {0};
  const int mask = api.tensorCoreKinds(desc, int(sizeof desc));
  rep.kinds = desc;
  if (!(mask & ((1 << kTcFp8) | (1 << kTcMxBlock))))
    throw UsageError("--tensor-cores: this device has no FP8 or MX tensor-core MMA (" + rep.kinds + ")");
  const auto &cfg = c.config;
  const int k = cfg.k();
  if (k > 64) throw UsageError("--tensor-cores: k > 64");
  makeProblem(cfg, mxcert::Placement::Post, mxcert::Placement::Post, c.relation);
  const ElemFmt fa = elemFmtOf(cfg.a), fb = elemFmtOf(cfg.b);
  const int typeA = cfg.a.name == "e5m2" ? kTcE5M2 : kTcE4M3;
  const int typeB = cfg.b.name == "e5m2" ? kTcE5M2 : kTcE4M3;
  auto toMma = [&](const ElemFmt &f, int type, unsigned code) {
    const int v = encodeAs(type == kTcE5M2 ? kE5M2 : kE4M3, decodeElement(f, code));
    if (v < 0) throw UsageError("--tensor-cores: an element value has no exact FP8 image");
    return uint8_t(v);
  };
  auto makeJob = [&](const TcInput &in) {
    TcJob j{};
    for (int i = 0; i < k; ++i) {
      j.a[i] = toMma(fa, typeA, in.a[size_t(i)]);
      j.b[i] = toMma(fb, typeB, in.b[size_t(i)]);
    }
    j.k = uint8_t(k);
    j.xa = uint8_t(in.xa);
    j.xb = uint8_t(in.xb);
    return j;
  };

  // Random inputs (deterministic): uniform codes, one large product among small ones, and
  // cancelling pairs; random scale codes with e concentrated near the subnormal and overflow
  // boundaries.
  std::mt19937_64 rng(0x74656e736f72ull);
  auto randCode = [&](const mxcert::ElementFormat &f) {
    for (;;) {
      const unsigned code = unsigned(rng() % f.numCodes());
      if (isNaN(decodeElement(elemFmtOf(f), code)) && rng() % 16 != 0) continue;
      return code;
    }
  };
  std::vector<TcInput> randoms;
  for (long r = 0; r < opt.randomInputs; ++r) {
    TcInput in;
    in.where = "random " + std::to_string(r);
    for (int i = 0; i < k; ++i) {
      in.a.push_back(randCode(cfg.a));
      in.b.push_back(randCode(cfg.b));
    }
    const int pattern = int(rng() % 4);
    if (pattern == 1 && k > 1) {  // small magnitudes, one large product
      for (int i = 0; i < k; ++i) {
        in.a[size_t(i)] &= (cfg.a.numCodes() / 2 - 1) >> 1;  // low half of the exponent range
      }
      in.a[size_t(rng() % unsigned(k))] = cfg.a.numCodes() / 2 - 2;  // a large positive code
    } else if (pattern == 2 && k > 1) {  // cancelling pairs
      for (int i = 0; i + 1 < k; i += 2) {
        in.a[size_t(i + 1)] = in.a[size_t(i)] ^ (cfg.a.numCodes() / 2);  // -a_i
        in.b[size_t(i + 1)] = in.b[size_t(i)];
      }
    }
    const int e = rng() % 2 ? int(rng() % 509) - 254 : (rng() % 2 ? -150 + int(rng() % 40) : 100 + int(rng() % 40));
    in.xa = unsigned(std::clamp(127 + e / 2, 0, 254));
    in.xb = unsigned(std::clamp(e + 254 - int(in.xa), 0, 254));
    randoms.push_back(in);
  }

  std::ofstream dump;
  if (!opt.dumpPath.empty()) {
    dump.open(opt.dumpPath, std::ios::trunc);
    if (!dump) throw UsageError("--tc-dump: cannot write " + opt.dumpPath);
  }
  for (int kind : {kTcFp8, kTcMxBlock}) {
    TcKindReport kr;
    kr.kind = kind;
    if (!(mask & (1 << kind))) {
      kr.skipped = "not available on this device/build";
      rep.results.push_back(kr);
      continue;
    }
    const bool scaled = kind == kTcMxBlock;
    // Self-test: one-hot a against distinct b values, so that one product is nonzero and
    // every sane accumulation gives it exactly (times the scales).
    // The operands are encoded in the MMA's own operand types (typeA, typeB): the same byte
    // means 1.0 in e4m3 and 0.5 in e5m2.
    const ElemFmt &mmaA = typeA == kTcE5M2 ? kE5M2 : kE4M3;
    const ElemFmt &mmaB = typeB == kTcE5M2 ? kE5M2 : kE4M3;
    const uint8_t oneA = uint8_t(encodeAs(mmaA, 1.0f));
    const unsigned halfB = unsigned(encodeAs(mmaB, 0.5f));  // b_i: the 32 codes from 0.5 up
    std::vector<TcJob> jobs;
    std::vector<uint32_t> expect;
    for (int j = 0; j < 32; ++j) {
      TcJob t{};
      t.k = 32;
      for (int i = 0; i < 32; ++i) {
        t.a[i] = i == j ? oneA : 0x00;  // 1.0 / +0
        t.b[i] = uint8_t(halfB + unsigned(i));
      }
      t.xa = 129;
      t.xb = 124;
      jobs.push_back(t);
      const float bj = decodeElement(mmaB, halfB + unsigned(j));
      expect.push_back(canonicalBits(scaled ? scaleRN(bj, -1, 0) : bj));
    }
    const size_t nSelf = jobs.size();
    // Inputs: the witnesses (FP8: one dot each, scaled afterwards at every claimed pair;
    // block-scaled: every claimed pair is its own MMA), then the random ones.
    std::vector<TcInput> inputs = witnessInputs(c, scaled);
    kr.witnessInputs = long(inputs.size());
    inputs.insert(inputs.end(), randoms.begin(), randoms.end());
    for (const TcInput &in : inputs) jobs.push_back(makeJob(in));
    std::vector<uint32_t> out(jobs.size());
    char err[512] = {0};
    const int st = api.runTensorCores(kind, typeA, typeB, jobs.data(), jobs.size(), out.data(), err, int(sizeof err));
    if (st == kStatusUnsupported) {
      kr.skipped = err;
      rep.results.push_back(kr);
      continue;
    }
    if (st != kStatusOk) throw UsageError("--tensor-cores: " + std::string(err));
    for (size_t j = 0; j < nSelf; ++j)
      if (canonicalBits(bitsToFloat(out[j])) != expect[j])
        throw UsageError("tensor-core kernel self-test failed (" + kindName(kind) + "): one-hot input " +
                         std::to_string(j) + " gave " + hex32(out[j]) + ", expected " + hex32(expect[j]) +
                         "; the MMA operand layout assumption does not hold on this device, results not interpreted");
    std::vector<uint32_t> hw(out.begin() + long(nSelf), out.end());
    for (auto &h : hw) h = canonicalBits(bitsToFloat(h));
    analyzeKind(c, inputs, hw, kr, dump.is_open() ? &dump : nullptr);
    rep.results.push_back(kr);
  }
  return rep;
}

TensorCoreReport analyzeRecordedTensorCores(const Certificate &c, const std::string &path) {
  const auto &cfg = c.config;
  const int k = cfg.k();
  if (k > 64) throw UsageError("--tensor-cores: k > 64");
  makeProblem(cfg, mxcert::Placement::Post, mxcert::Placement::Post, c.relation);
  std::ifstream f(path);
  if (!f) throw UsageError("--tc-from-dump: cannot read " + path);
  std::vector<TcInput> inputs[2];
  std::vector<uint32_t> hw[2];
  std::vector<long> lineOf[2];
  std::string text;
  long lineNo = 0;
  while (std::getline(f, text)) {
    ++lineNo;
    if (text.empty()) continue;
    const std::string at = "--tc-from-dump: " + path + " line " + std::to_string(lineNo) + ": ";
    try {
      const nlohmann::json j = nlohmann::json::parse(text);
      const std::string kind = j.at("kind").get<std::string>();
      if (kind != kindKey(kTcFp8) && kind != kindKey(kTcMxBlock)) throw UsageError(at + "unknown kind '" + kind + "'");
      const int kk = kind == kindKey(kTcFp8) ? kTcFp8 : kTcMxBlock;
      TcInput in;
      in.where = j.at("where").get<std::string>();
      in.a = j.at("a").get<std::vector<unsigned>>();
      in.b = j.at("b").get<std::vector<unsigned>>();
      in.xa = j.at("xa").get<unsigned>();
      in.xb = j.at("xb").get<unsigned>();
      if (int(in.a.size()) != k || int(in.b.size()) != k)
        throw UsageError(at + "a and b must have k = " + std::to_string(k) + " codes");
      for (size_t i = 0; i < size_t(k); ++i)
        if (in.a[i] >= unsigned(cfg.a.numCodes()) || in.b[i] >= unsigned(cfg.b.numCodes()))
          throw UsageError(at + "an element code outside " + cfg.a.name + " x " + cfg.b.name);
      if (in.xa > 254 || in.xb > 254) throw UsageError(at + "xa and xb must be e8m0 codes 0..254");
      const std::string h = j.at("hw").get<std::string>();
      if (h.size() != 10 || h.compare(0, 2, "0x") != 0 || h.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos)
        throw UsageError(at + "hw must be 0x and 8 hex digits");
      inputs[kk].push_back(in);
      hw[kk].push_back(canonicalBits(bitsToFloat(uint32_t(std::stoul(h.substr(2), nullptr, 16)))));
      lineOf[kk].push_back(lineNo);
    } catch (const nlohmann::json::exception &e) {
      throw UsageError(at + "not a --tc-dump line (" + std::string(e.what()) + ")");
    }
  }
  TensorCoreReport rep;
  rep.kinds = "recorded in " + path + " (no device opened)";
  for (int kind : {kTcFp8, kTcMxBlock}) {
    TcKindReport kr;
    kr.kind = kind;
    if (inputs[kind].empty()) {
      kr.skipped = "not in the recorded file";
      rep.results.push_back(kr);
      continue;
    }
    // The recorded witness inputs must be this certificate's, in order.
    const std::vector<TcInput> want = witnessInputs(c, kind == kTcMxBlock);
    for (size_t i = 0; i < want.size(); ++i) {
      const TcInput *got = i < inputs[kind].size() ? &inputs[kind][i] : nullptr;
      if (!got || got->where != want[i].where || got->a != want[i].a || got->b != want[i].b || got->xa != want[i].xa ||
          got->xb != want[i].xb)
        throw UsageError("--tc-from-dump: " + path + (got ? " line " + std::to_string(lineOf[kind][i]) : std::string()) +
                         ": not recorded from this certificate (" + want[i].where + " differs or is missing)");
    }
    kr.witnessInputs = long(want.size());
    analyzeKind(c, inputs[kind], hw[kind], kr, nullptr);
    rep.results.push_back(kr);
  }
  return rep;
}

nlohmann::json toJson(const TensorCoreReport &r, const Certificate &c) {
  nlohmann::json j{{"mode", "tensor-cores"}, {"device_mma", r.kinds}, {"ok", r.ok()}};
  nlohmann::json kinds = nlohmann::json::array();
  for (const auto &k : r.results) {
    nlohmann::json x{{"kind", kindKey(k.kind)}, {"run", k.run}};
    if (!k.run) {
      x["skipped"] = k.skipped;
      kinds.push_back(x);
      continue;
    }
    x["inputs"] = k.inputs;
    x["witness_inputs"] = k.witnessInputs;
    x["post_points"] = k.postPoints;
    x["post_agree"] = k.postAgree;
    x["tree_matches"] = k.treeMatches;
    x["first_tree_mismatch"] = k.firstTreeMismatch;
    x["first_post_disagreement"] = k.firstPostDisagree ? pointJson(c, *k.firstPostDisagree) : nlohmann::json();
    nlohmann::json models = nlohmann::json::array();
    for (size_t i = 0; i < k.ranking.size() && i < 20; ++i)
      models.push_back({{"model", k.ranking[i].first.name()}, {"mismatches", k.ranking[i].second}});
    x["models"] = models;
    kinds.push_back(x);
  }
  j["kinds"] = kinds;
  return j;
}

std::string toText(const TensorCoreReport &r, const Certificate &c) {
  std::ostringstream s;
  s << "tensor cores: " << r.kinds << "\n";
  for (const auto &k : r.results) {
    s << "[" << kindName(k.kind) << "]\n";
    if (!k.run) {
      s << "  skipped: " << k.skipped << "\n";
      continue;
    }
    s << "  inputs: " << k.inputs << " dot products (" << k.witnessInputs << " from witnesses)\n";
    s << "  post placement at the witnesses' code pairs: hardware agrees with the model at " << k.postAgree << " of "
      << k.postPoints << "\n";
    s << "  hardware equals post over the certificate's tree " << c.config.tree.sexpr() << " on " << k.treeMatches
      << " of " << k.inputs << " inputs\n";
    if (!k.firstTreeMismatch.empty()) s << "  first difference: " << k.firstTreeMismatch << "\n";
    if (k.firstPostDisagree) s << "  first post disagreement:\n" << describePoint(c, *k.firstPostDisagree, "    ");
    long zero = 0;
    for (const auto &m : k.ranking) zero += m.second == 0 ? 1 : 0;
    if (zero) {
      s << "  accumulation models reproducing every hardware result (" << zero << "):";
      long shown = 0;
      for (const auto &m : k.ranking)
        if (m.second == 0 && shown++ < 12) s << " [" << m.first.name() << "]";
      s << (zero > 12 ? " ..." : "") << "\n";
    } else {
      s << "  no model of the family reproduces every result; closest:";
      for (size_t i = 0; i < k.ranking.size() && i < 5; ++i)
        s << " [" << k.ranking[i].first.name() << ": " << k.ranking[i].second << " mismatches]";
      s << "\n";
    }
  }
  return s.str();
}

}  // namespace mxreplay

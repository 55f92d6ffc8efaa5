// gpu_replay/replay_core.h — what mxcert-replay does, independent of the backend: turning a
// certificate into a device problem, replaying its witnesses, the exhaustive check of its
// agree set, and comparing every device result with the reference evaluator (models/eval.h).
// Depends on the models and the certificate reader only (no solver library).
#pragma once

#include "certs/certificate.h"
#include "gpu_replay/plugin_api.h"
#include "models/eval.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mxreplay {

/// Bad usage or bad input (exit code 2); the message is one line.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A loaded backend: the host backend, or a device plugin opened with dlopen.
class Backend {
public:
  /// Opens "host", "cuda" or "hip". Throws UsageError: "no CUDA device", "this build has no
  /// HIP backend (...)", etc.
  static std::unique_ptr<Backend> open(const std::string &kind);
  /// What the build holds for a backend kind, without opening a device: the plugin's path,
  /// interface version and compiled targets ("cuda: .../libmxcert_replay_cuda.so, interface 2,
  /// compiled for sm_90+sm_100a"). Throws UsageError when the build has no such backend.
  static std::string describeBuild(const std::string &kind);
  ~Backend();
  const std::string &kind() const { return kind_; }
  std::string deviceName() const { return api_->deviceName(); }
  const PluginV1 &api() const { return *api_; }

  /// Both placements per job (bits[2 i], bits[2 i + 1]). Throws std::runtime_error on failure.
  std::vector<uint32_t> runPoints(const Problem &P, const std::vector<uint8_t> &wa,
                                  const std::vector<uint8_t> &wb, const std::vector<PointJob> &jobs);
  /// First differing tuple per scale point (UINT64_MAX: none).
  std::vector<uint64_t> runExhaustive(const Problem &P, const std::vector<float> &av,
                                      const std::vector<float> &bv, uint64_t numTuples,
                                      const std::vector<uint8_t> &points);

private:
  Backend() = default;
  std::string kind_;
  const PluginV1 *api_ = nullptr;
  void *handle_ = nullptr;
};

/// The plain-data element format of a model format.
ElemFmt elemFmtOf(const mxcert::ElementFormat &f);

/// The device problem of a configuration and placement pair. Throws UsageError
/// ("config not supported by the device build: ...") for non-f32 accumulators, RTZ, and trees
/// with a fused n-ary node.
Problem makeProblem(const mxcert::ModelConfig &cfg, mxcert::Placement lhs, mxcert::Placement rhs,
                    mxcert::Relation rel);

/// One input evaluated on the device and by the reference evaluator, in full.
struct PointDetail {
  std::string where;                 ///< "witness 2", "e = 123, tuple 17", ...
  std::vector<unsigned> a, b;        ///< element codes
  unsigned xa = 127, xb = 127;
  uint32_t device[2] = {0, 0};       ///< lhs, rhs bits from the backend
  uint32_t model[2] = {0, 0};        ///< lhs, rhs bits from the reference evaluator
  bool deviceRelated = false, modelRelated = false;
};

/// Evaluates inputs with the reference evaluator: lhs/rhs bits and whether they are related.
void evaluateModel(const mxcert::certs::Certificate &c, PointDetail &d);

/// Results of replaying the certificate's witnesses.
struct WitnessReport {
  long witnesses = 0;
  long pairsClaimed = 0;      ///< code pairs the witnesses claim to refute
  long pairsReplayed = 0;     ///< code pairs evaluated (less when sampled)
  long sampledWitnesses = 0;  ///< witnesses whose pairs were sampled (--max-pairs)
  long agree = 0;             ///< pairs where both device results equal the model's bits
  long disagree = 0;
  long refuted = 0;           ///< pairs where the device's results are not related (as claimed)
  long notRefuted = 0;
  long insideAgree = 0;       ///< claimed refutations of pairs the agree set contains
  long excludedPairs = 0;     ///< pairs outside the agree set
  long uncovered = 0;         ///< excluded pairs no witness claims
  long duplicateClaims = 0;   ///< claims of pairs an earlier witness already claims (replayed once)
  std::optional<PointDetail> firstDisagreement, firstNotRefuted;
  std::optional<std::pair<int, int>> firstInsideAgree, firstUncovered;
  double seconds = 0;
  bool ok() const {
    return disagree == 0 && notRefuted == 0 && insideAgree == 0 && uncovered == 0 && duplicateClaims == 0;
  }
};

/// Replays every witness at every code pair it claims (at most maxPairs per witness, sampled
/// deterministically beyond that) on the backend and against the reference evaluator. A pair
/// claimed by several witnesses is replayed once, for the first (each excluded pair has one
/// witness; the others are counted in duplicateClaims, which makes the report not ok), so the
/// work is bounded by the 65,025 code pairs whatever the certificate claims.
WitnessReport replayWitnesses(const mxcert::certs::Certificate &c, Backend &be, long maxPairs);

/// Leaf classes for the exhaustive enumeration (see replay_arith.h).
struct Classes {
  bool products = true;                             ///< classes of signed products t = a b
  std::vector<float> av, bv;                        ///< values of a representative pair
  std::vector<std::pair<unsigned, unsigned>> rep;   ///< its element codes
};
/// The classes of a configuration: distinct signed products when `products`, else distinct
/// (|a|, |b|, sign a xor sign b) operand pairs (every NaN pair is one class).
Classes buildClasses(const mxcert::ModelConfig &cfg, bool products);

/// Options of the exhaustive check.
struct ExhaustiveOptions {
  double maxWork = 0;             ///< limit on tuples x scale points (0: the backend's default)
  std::optional<mxcert::Guard> only;  ///< restrict the scale points to this guard
  long modelSamples = 2000;       ///< random (point, tuple) device-vs-model comparisons
  /// When set, called with (scale points done, scale points in all) as the device run
  /// advances; the points then go to the device in about 64 chunks (the same results: every
  /// point is checked on its own).
  std::function<void(long, long)> progress;
};

/// Results of the exhaustive check.
struct ExhaustiveReport {
  bool eOnly = false;        ///< one scale point per e (both placements depend on e only)
  bool products = true;      ///< classes are products (else operand pairs)
  int classes = 0;
  uint64_t tuples = 0;
  long points = 0;           ///< scale points checked (e values or code pairs)
  double work = 0;
  long pointsDiffer = 0, pointsAgree = 0;
  long claimedAgreeButDiffer = 0, claimedExcludedButAgree = 0, mixedLines = 0;
  long modelChecks = 0, modelDisagree = 0;
  std::string deviceAgree;   ///< the device-derived agree set (guard text), full runs only
  bool fullRun = true;       ///< no --only restriction
  bool agreeMatches = false; ///< device-derived agree set == certificate's (full runs)
  std::string firstMismatch; ///< one-line description of the first claim mismatch
  std::optional<PointDetail> mismatchInput;      ///< its differing input, when there is one
  std::optional<PointDetail> firstModelDisagree; ///< first device-vs-model difference
  double seconds = 0;
  bool ok() const {
    return claimedAgreeButDiffer == 0 && claimedExcludedButAgree == 0 && mixedLines == 0 &&
           modelDisagree == 0;
  }
};

ExhaustiveReport replayExhaustive(const mxcert::certs::Certificate &c, Backend &be,
                                  const ExhaustiveOptions &opt);

// ---- printing ---------------------------------------------------------------------------

/// "e2m1 x e2m1, f32 rne keep, k = 2, tree (0 1), dequant vs post, bitwise"
std::string describeConfig(const mxcert::certs::Certificate &c);
/// A multi-line description of one input (codes, values, device and model bits).
std::string describePoint(const mxcert::certs::Certificate &c, const PointDetail &d,
                          const std::string &indent);
nlohmann::json pointJson(const mxcert::certs::Certificate &c, const PointDetail &d);
std::string hex32(uint32_t u);
std::string f32Decimal(uint32_t bits);

nlohmann::json toJson(const WitnessReport &r, const mxcert::certs::Certificate &c);
nlohmann::json toJson(const ExhaustiveReport &r, const mxcert::certs::Certificate &c);
std::string toText(const WitnessReport &r, const mxcert::certs::Certificate &c);
std::string toText(const ExhaustiveReport &r, const mxcert::certs::Certificate &c);

}  // namespace mxreplay

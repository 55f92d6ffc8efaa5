// gpu_replay/tensor_cores.h — the tensor-core mode of mxcert-replay (NVIDIA only): the
// certificate's inputs (and random ones) go through the hardware's own dot-product unit,
//  * kTcFp8:     mma.sync m16n8k32 with FP8 (e4m3/e5m2) operands and f32 accumulation
//                (sm_89+); the MMA computes the unscaled dot D, the scale 2^e is applied after
//                it with one exact rounding (the `post` placement's last step);
//  * kTcMxBlock: block-scaled MX MMA (sm_100a tcgen05.mma kind::mxf8f6f4.block_scale, sm_120a
//                mma.sync kind::mxf8f6f4.block_scale), where the hardware applies the e8m0
//                scales itself;
// and the results are compared with the model's `post` placement over the certificate's tree,
// bit for bit. Where they differ, the hardware is characterized against a family of
// published-style tensor-core accumulation models (after Khattak and Mikaitis, "Accurate Models
// of NVIDIA Tensor Cores"): the products are exact, groups of g products plus the running
// accumulator are aligned to the largest exponent among them, every term is truncated to F
// bits below that exponent, the group is summed exactly and rounded to binary32 (RNE or
// toward zero); with the scales applied after the dot (scale-after) or to every product
// before the alignment (scale-inside); a sum of zeros is +0 or, as in IEEE addition, -0 when
// every term is -0. The report lists every parameter set that reproduces
// every hardware result, or the closest ones.
//
// The element values of e2m1, e2m3 and e3m2 are fed as their exact e4m3 images (same values,
// same products): the MMA's FP4/FP6 containers are not exercised, only its arithmetic.
#pragma once

#include "gpu_replay/replay_core.h"

#include <string>
#include <vector>

namespace mxreplay {

struct TensorCoreOptions {
  long randomInputs = 4096;
  /// When not empty: every input run through an MMA is written to this file, one JSON object
  /// per line ({"kind", "where", "a", "b", "xa", "xb", "hw", "tree"}: element codes of the
  /// certificate's formats, the hardware's result bits and the model's post over the
  /// certificate's tree, both unscaled D for the FP8 kind), so that the accumulation can be
  /// studied off the device.
  std::string dumpPath;
};

/// One accumulation model of the characterization family (see file comment).
struct TcModel {
  int g = 1;              ///< products per fused step (plus the accumulator)
  int F = -1;             ///< kept bits below the largest exponent; -1: exact (no truncation)
  bool rz = false;        ///< rounding of each step: toward zero, else nearest-even
  bool scaleInside = false;  ///< block-scaled: scales applied to the products before alignment
  /// A step whose terms are all zeros gives +0, also when every term is -0 (IEEE addition
  /// gives -0 there): a fixed-point sum has no signed zero. Name suffix ",+0". An H200's FP8
  /// MMA behaves so (docs/replay.md, "On real hardware").
  bool zeroPlus = false;
  std::string name() const;
};

/// One dot-product input of the tensor-core mode: element codes (certificate formats), scale
/// codes, and where it came from.
struct TcInput {
  std::vector<unsigned> a, b;
  unsigned xa = 127, xb = 127;
  std::string where;
};

/// The model's binary32 result of a TcModel on one input: with the scales applied after the
/// dot (returns rnd(2^e D)) or inside; `scaled` = false returns the unscaled D (scale-after
/// models only). The accumulator starts at c (the MMA's C operand, -0 here).
uint32_t tcModelDot(const TcModel &m, const mxcert::ModelConfig &cfg, const TcInput &in, bool scaled);

/// The parameter grid searched by the characterization.
std::vector<TcModel> tcModelGrid(bool blockScaled, int k);

/// Results of one tensor-core kind.
struct TcKindReport {
  int kind = kTcFp8;
  bool run = false;
  std::string skipped;        ///< why the kind did not run (device lacks it)
  long inputs = 0;            ///< dot products run through the MMA
  long witnessInputs = 0;
  long postPoints = 0, postAgree = 0;  ///< witness code pairs: hardware post vs model post
  std::optional<PointDetail> firstPostDisagree;
  long treeMatches = 0;       ///< inputs where the hardware equals post over the certificate's tree
  std::vector<std::pair<TcModel, long>> ranking;  ///< models and their mismatch counts, best first
  std::string firstTreeMismatch;  ///< first input where hardware != post over the certificate's tree
};

struct TensorCoreReport {
  std::string kinds;          ///< the device's description of its MMA support
  std::vector<TcKindReport> results;
  bool ok() const;
};

TensorCoreReport replayTensorCores(const mxcert::certs::Certificate &c, Backend &be,
                                   const TensorCoreOptions &opt);

/// The same report from a file written earlier by --tc-dump for this certificate (on a
/// device), on any machine: no device is opened, and the hardware results are the recorded
/// ones. Throws UsageError naming the line when the file is malformed or was not recorded from
/// this certificate (its witness inputs differ from the certificate's).
TensorCoreReport analyzeRecordedTensorCores(const mxcert::certs::Certificate &c, const std::string &path);

/// Characterizes hardware results: ranks the grid's models by mismatches against `hw`
/// (f32 bits per input; unscaled D when !scaled). Used by replayTensorCores and the tests.
std::vector<std::pair<TcModel, long>> characterize(const mxcert::ModelConfig &cfg,
                                                   const std::vector<TcInput> &inputs,
                                                   const std::vector<uint32_t> &hw, bool scaled,
                                                   bool blockScaled);

nlohmann::json toJson(const TensorCoreReport &r, const mxcert::certs::Certificate &c);
std::string toText(const TensorCoreReport &r, const mxcert::certs::Certificate &c);

}  // namespace mxreplay

// gpu_replay/plugin_api.h — the one interface every replay backend implements (host, CUDA,
// HIP): a C ABI table of functions over plain data, so that the device backends can live in
// shared objects built by nvcc and hipcc (libmxcert_replay_cuda.so, libmxcert_replay_hip.so)
// that mxcert-replay loads with dlopen only when asked for. The host backend implements the
// same table in-process. Nothing here depends on the models, Boost or a solver.
//
// Conventions: every function returns 0 on success; on failure a nonzero status and a one-line
// reason in err (NUL-terminated, at most errLen bytes):
//   kStatusNoDevice    the runtime reports no device (or no usable driver)
//   kStatusUnsupported the request is outside what this backend's build supports
//   kStatusFailed      a runtime error (the reason says which call failed)
#pragma once

#include "gpu_replay/replay_arith.h"

#include <stddef.h>
#include <stdint.h>

namespace mxreplay {

enum : int { kStatusOk = 0, kStatusNoDevice = 1, kStatusUnsupported = 2, kStatusFailed = 3 };

/// One witness evaluation: the witness whose codes to use and the scale codes.
struct PointJob {
  uint32_t witness;
  uint8_t xa, xb;
  uint16_t pad;
};

/// Tensor-core MMA kinds (CUDA only).
enum : int {
  kTcFp8 = 0,     ///< mma.sync m16n8k32 e4m3/e5m2 -> f32, no scales (sm_89+); scaling in software
  kTcMxBlock = 1, ///< block-scaled MX MMA, scales applied by the hardware (sm_100a tcgen05, sm_120a mma.sync)
};
/// Element type codes for the tensor-core inputs (codes are converted on the host).
enum : int { kTcE4M3 = 0, kTcE5M2 = 1 };

/// One tensor-core dot product: k <= 64 element codes per side in the MMA's 8-bit types,
/// and (for kTcMxBlock) the e8m0 scale codes; k > 32 is two chained MMAs (C = first D).
struct TcJob {
  uint8_t a[64], b[64];
  uint8_t xa, xb;
  uint8_t k;
  uint8_t pad;
};

/// The interface version: 2 since Problem carries the scale format (NVFP4); a plugin of
/// another version is refused, as its Problem layout differs.
constexpr int kPluginAbi = 2;

/// The function table of a backend (interface version kPluginAbi; the struct keeps its name).
struct PluginV1 {
  int abi;  ///< kPluginAbi
  /// "host", "cuda", "hip"
  const char *(*name)();
  /// Opens the device; kStatusNoDevice when there is none. Must be called first.
  int (*init)(char *err, int errLen);
  /// A human-readable description of the device (valid after init).
  const char *(*deviceName)();
  /// Evaluates both placements of P for every job: bits[2 i] = lhs, bits[2 i + 1] = rhs
  /// (canonical NaN). wa, wb: the witnesses' element codes, P.tree.k per witness.
  int (*runPoints)(const Problem *P, const uint8_t *wa, const uint8_t *wb, const PointJob *jobs,
                   uint64_t numJobs, uint32_t *bits, char *err, int errLen);
  /// Exhaustive check: for every scale point j (codes points[2 j], points[2 j + 1]) the
  /// smallest tuple index in [0, numTuples) whose placements are not related, or UINT64_MAX.
  /// The classes are (av[c], bv[c]) for c < n (see replay_arith.h).
  int (*runExhaustive)(const Problem *P, const float *av, const float *bv, int n,
                       uint64_t numTuples, const uint8_t *points, uint64_t numPoints,
                       uint64_t *firstDiff, char *err, int errLen);
  /// Tensor-core dot products (nullptr when the backend has none): out[i] = f32 bits of the
  /// MMA result of job i (unscaled for kTcFp8). typeA/typeB: kTcE4M3 or kTcE5M2.
  int (*runTensorCores)(int kind, int typeA, int typeB, const TcJob *jobs, uint64_t numJobs,
                        uint32_t *out, char *err, int errLen);
  /// Which tensor-core kinds this device supports, as a one-line description; returns a
  /// bit mask (1 << kTcFp8 | 1 << kTcMxBlock).
  int (*tensorCoreKinds)(char *desc, int descLen);
};

/// The symbol every device plugin exports.
#define MXREPLAY_PLUGIN_SYMBOL "mxreplay_plugin_v1"
typedef const PluginV1 *(*PluginEntry)();
/// A second symbol of the device plugins: the targets they were compiled for, as a string
/// ("sm_90+sm_100a+sm_120a", "gfx90a").
#define MXREPLAY_TARGETS_SYMBOL "mxreplay_plugin_targets"
#define MXREPLAY_STR2(x) #x
#define MXREPLAY_STR(x) MXREPLAY_STR2(x)

}  // namespace mxreplay

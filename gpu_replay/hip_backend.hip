// gpu_replay/hip_backend.hip — the HIP replay backend (libmxcert_replay_hip.so), built by hipcc
// and loaded by mxcert-replay with dlopen. The arithmetic is replay_arith.h compiled for the
// device: HIP's __fadd_rn / __fmul_rn are single IEEE operations, __double2float_rn is the RNE
// conversion, and the build uses -ffp-contract=off -fno-fast-math
// -fno-gpu-flush-denormals-to-zero, so nothing is fused and binary32 subnormals are kept.
// The kernels mirror the CUDA backend's (pointsKernel, exhaustiveKernel); there is no
// tensor-core mode on AMD here (MFMA FP8 is a possible extension, see docs/replay.md).
// NOT RUN on hardware in the session that wrote it (no device was lent).
#include "gpu_replay/plugin_api.h"

#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mxreplay {
namespace {

__global__ void pointsKernel(Problem P, const uint8_t *wa, const uint8_t *wb, const PointJob *jobs,
                             uint64_t n, uint32_t *bits) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    const PointJob j = jobs[i];
    evalBlock(P, wa + size_t(j.witness) * size_t(P.tree.k), wb + size_t(j.witness) * size_t(P.tree.k), j.xa,
              j.xb, bits + 2 * i);
  }
}

constexpr int kMaxSharedClasses = 4096;

__global__ void exhaustiveKernel(Problem P, const float *av, const float *bv, int n, uint64_t numTuples,
                                 const uint8_t *points, uint64_t pointBase, unsigned long long *first) {
  extern __shared__ float leaves[];
  const uint64_t j = pointBase + blockIdx.y;
  const Scales s = makeScales(P, points[2 * j], points[2 * j + 1]);
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    leaves[c] = placementLeaf(P.p1, av[c], bv[c], s, P.ftz);
    leaves[n + c] = placementLeaf(P.p2, av[c], bv[c], s, P.ftz);
  }
  __syncthreads();
  volatile unsigned long long *f = first + j;
  for (uint64_t t = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; t < numTuples;
       t += uint64_t(gridDim.x) * blockDim.x) {
    if (t > *f) break;
    if (tupleDiffers(P, n, t, leaves, leaves + n, s)) {
      atomicMin(first + j, (unsigned long long)t);
      break;
    }
  }
}

std::string gName;

void setErr(char *err, int len, const std::string &s) {
  if (err && len > 0) std::snprintf(err, size_t(len), "%s", s.c_str());
}

#define HK(call)                                                                             \
  do {                                                                                       \
    const hipError_t e_ = (call);                                                            \
    if (e_ != hipSuccess) {                                                                  \
      setErr(err, errLen, std::string(#call).substr(0, 40) + ": " + hipGetErrorString(e_)); \
      return kStatusFailed;                                                                  \
    }                                                                                        \
  } while (0)

template <class T> struct DevBuf {
  T *p = nullptr;
  ~DevBuf() {
    if (p) (void)hipFree(p);
  }
  hipError_t alloc(size_t n) { return hipMalloc(reinterpret_cast<void **>(&p), std::max<size_t>(n, 1) * sizeof(T)); }
};

const char *hipName() { return "hip"; }

int hipInit(char *err, int errLen) {
  int count = 0;
  const hipError_t e = hipGetDeviceCount(&count);
  if (e != hipSuccess || count == 0) {
    setErr(err, errLen, e != hipSuccess ? hipGetErrorString(e) : "the HIP runtime reports 0 devices");
    return kStatusNoDevice;
  }
  int dev = 0;
  if (const char *s = std::getenv("MXCERT_HIP_DEVICE")) dev = std::atoi(s);
  HK(hipSetDevice(dev));
  hipDeviceProp_t prop;
  HK(hipGetDeviceProperties(&prop, dev));
  int rt = 0;
  (void)hipRuntimeGetVersion(&rt);
  char buf[512];
  std::snprintf(buf, sizeof buf, "device %d: %s, %s, HIP runtime %d", dev, prop.name, prop.gcnArchName, rt);
  gName = buf;
  return kStatusOk;
}

const char *hipDeviceName() { return gName.c_str(); }

int hipRunPoints(const Problem *P, const uint8_t *wa, const uint8_t *wb, const PointJob *jobs, uint64_t numJobs,
                 uint32_t *bits, char *err, int errLen) {
  uint64_t numW = 0;
  for (uint64_t i = 0; i < numJobs; ++i) numW = std::max<uint64_t>(numW, uint64_t(jobs[i].witness) + 1);
  const size_t k = size_t(P->tree.k);
  DevBuf<uint8_t> da, db;
  DevBuf<PointJob> dj;
  DevBuf<uint32_t> dbits;
  HK(da.alloc(numW * k));
  HK(db.alloc(numW * k));
  HK(dj.alloc(numJobs));
  HK(dbits.alloc(2 * numJobs));
  HK(hipMemcpy(da.p, wa, numW * k, hipMemcpyHostToDevice));
  HK(hipMemcpy(db.p, wb, numW * k, hipMemcpyHostToDevice));
  HK(hipMemcpy(dj.p, jobs, numJobs * sizeof(PointJob), hipMemcpyHostToDevice));
  const unsigned blocks = unsigned(std::min<uint64_t>((numJobs + 255) / 256, 4096));
  hipLaunchKernelGGL(pointsKernel, dim3(blocks), dim3(256), 0, 0, *P, da.p, db.p, dj.p, numJobs, dbits.p);
  HK(hipGetLastError());
  HK(hipDeviceSynchronize());
  HK(hipMemcpy(bits, dbits.p, 2 * numJobs * sizeof(uint32_t), hipMemcpyDeviceToHost));
  return kStatusOk;
}

int hipRunExhaustive(const Problem *P, const float *av, const float *bv, int n, uint64_t numTuples,
                     const uint8_t *points, uint64_t numPoints, uint64_t *firstDiff, char *err, int errLen) {
  if (n > kMaxSharedClasses) {
    setErr(err, errLen, "exhaustive: " + std::to_string(n) + " classes per position exceed the device limit " +
                            std::to_string(kMaxSharedClasses));
    return kStatusUnsupported;
  }
  DevBuf<float> dav, dbv;
  DevBuf<uint8_t> dpts;
  DevBuf<unsigned long long> dfirst;
  HK(dav.alloc(size_t(n)));
  HK(dbv.alloc(size_t(n)));
  HK(dpts.alloc(2 * numPoints));
  HK(dfirst.alloc(numPoints));
  HK(hipMemcpy(dav.p, av, size_t(n) * sizeof(float), hipMemcpyHostToDevice));
  HK(hipMemcpy(dbv.p, bv, size_t(n) * sizeof(float), hipMemcpyHostToDevice));
  HK(hipMemcpy(dpts.p, points, 2 * numPoints, hipMemcpyHostToDevice));
  HK(hipMemset(dfirst.p, 0xFF, numPoints * sizeof(unsigned long long)));
  const unsigned threads = 256;
  const unsigned bx = unsigned(std::min<uint64_t>((numTuples + threads - 1) / threads, 2048));
  for (uint64_t base = 0; base < numPoints; base += 65535) {
    const unsigned by = unsigned(std::min<uint64_t>(numPoints - base, 65535));
    hipLaunchKernelGGL(exhaustiveKernel, dim3(bx, by), dim3(threads), 2 * size_t(n) * sizeof(float), 0, *P, dav.p,
                       dbv.p, n, numTuples, dpts.p, base, dfirst.p);
    HK(hipGetLastError());
  }
  HK(hipDeviceSynchronize());
  HK(hipMemcpy(firstDiff, dfirst.p, numPoints * sizeof(uint64_t), hipMemcpyDeviceToHost));
  return kStatusOk;
}

const PluginV1 kHipPlugin = {kPluginAbi, hipName, hipInit, hipDeviceName, hipRunPoints, hipRunExhaustive, nullptr, nullptr};

}  // namespace
}  // namespace mxreplay

extern "C" __attribute__((visibility("default"))) const mxreplay::PluginV1 *mxreplay_plugin_v1() {
  return &mxreplay::kHipPlugin;
}

#ifndef MXREPLAY_TARGETS
#define MXREPLAY_TARGETS unknown
#endif
extern "C" __attribute__((visibility("default"))) const char *mxreplay_plugin_targets() {
  return MXREPLAY_STR(MXREPLAY_TARGETS);
}

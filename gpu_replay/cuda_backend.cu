// gpu_replay/cuda_backend.cu — the CUDA replay backend (libmxcert_replay_cuda.so), built by
// nvcc and loaded by mxcert-replay with dlopen. The arithmetic is replay_arith.h, compiled for
// the device: __fadd_rn / __fmul_rn / __double2float_rn / __dmul_rn, built with -fmad=false
// -ftz=false -prec-div=true, so every operation is one IEEE operation in RNE with subnormals.
//
// Kernels:
//  * pointsKernel      — both placements for each (witness, xa, xb) job;
//  * exhaustiveKernel  — grid.y = scale points, grid.x x block = tuples (grid-stride); each
//                        block builds the two leaf tables of its scale point in shared memory;
//                        the first differing tuple per point is kept with atomicMin, and every
//                        thread stops once a smaller differing tuple is known;
//  * fp8MmaKernel      — one warp per dot product: mma.sync.m16n8k32 .e4m3/.e5m2 -> f32
//                        (sm_89+), all 16 rows of A and all 8 columns of B hold the same
//                        vector, so every element of D is the dot product whatever the row and
//                        column mapping; only the K mapping matters (PTX ISA fragment layout
//                        for 8-bit m16n8k32: A reg0/reg1 hold k = 4 (lane % 4) + 0..3, reg2/reg3
//                        k + 16; B reg0 k = 4 (lane % 4) + 0..3, reg1 k + 16). C = -0.
//  * mxMmaKernel       — block-scaled MX MMA: on sm_100a tcgen05.mma.cta_group::1
//                        .kind::mxf8f6f4.block_scale (M = 128, N = 32, K = 32, A and B in shared
//                        memory, K-major, no swizzle; D and the scale factors in tensor memory),
//                        on sm_120a mma.sync .kind::mxf8f6f4.block_scale.scale_vec::1X. Scale
//                        bytes are replicated in every position they could be read from.
// The tensor-core kernels check that every element of D they read is the same (a layout
// error would show as unequal elements) and the host runs a one-hot self-test first.
// NOT VALIDATED ON HARDWARE in the session that wrote it (no device was lent): see
// docs/replay.md, "On real hardware".
#include "gpu_replay/plugin_api.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace mxreplay {
namespace {

// ---- plain replay -----------------------------------------------------------------------

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
                                 const uint8_t *points, uint64_t pointBase,
                                 unsigned long long *first) {
  extern __shared__ float leaves[];  // 2 n: lhs table, rhs table
  const uint64_t j = pointBase + blockIdx.y;
  const Scales s = makeScales(P, points[2 * j], points[2 * j + 1]);
  const ClassTable C{n, av, bv};
  for (int c = threadIdx.x; c < n; c += blockDim.x) {
    leaves[c] = placementLeaf(P.p1, C.av[c], C.bv[c], s, P.ftz);
    leaves[n + c] = placementLeaf(P.p2, C.av[c], C.bv[c], s, P.ftz);
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

// ---- tensor cores -----------------------------------------------------------------------

enum : int { kFlagNotCompiled = 1, kFlagInconsistent = 2 };

/// Which tensor-core paths this architecture's image contains: bit kTcFp8, bit kTcMxBlock.
__global__ void archProbeKernel(int *out) {
  int m = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  m |= 1 << kTcFp8;
#endif
#if defined(__CUDA_ARCH_FEAT_SM100_ALL) || defined(__CUDA_ARCH_FEAT_SM120_ALL)
  m |= 1 << kTcMxBlock;
#endif
  out[0] = m;
}

/// Packs bytes v[i0 .. i0 + 3] of a k-vector, padding with `pad` beyond k.
__device__ inline uint32_t pack4(const uint8_t *v, int i0, int k, uint8_t pad) {
  uint32_t r = 0;
  for (int q = 0; q < 4; ++q) r |= uint32_t(i0 + q < k ? v[i0 + q] : pad) << (8 * q);
  return r;
}

#define MXR_FP8_MMA(TA, TB)                                                                               \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." TA "." TB ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "  \
               "{%8,%9}, {%10,%11,%12,%13};"                                                              \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                           \
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(c[0]),        \
                 "f"(c[1]), "f"(c[2]), "f"(c[3]))

/// One warp per job; D = C + A B with every row of A = a and every column of B = b, C = -0;
/// k > 32 chains two MMAs (C = first D). Padding: a = +0, b = -0 (products -0, the identity).
template <int TA, int TB>
__global__ void fp8MmaKernel(const TcJob *jobs, uint64_t n, uint32_t *out, int *flags) {
  const uint64_t job = blockIdx.x * uint64_t(blockDim.x / 32) + threadIdx.x / 32;
  if (job >= n) return;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  const int lane = threadIdx.x % 32, tig = lane % 4;
  const TcJob &J = jobs[job];
  float c[4], d[4];
  for (int q = 0; q < 4; ++q) c[q] = __uint_as_float(0x80000000u);
  for (int base = 0; base < J.k; base += 32) {
    const int k = J.k - base;
    uint32_t ra[4], rb[2];
    ra[0] = ra[1] = pack4(J.a + base, 4 * tig, k, 0x00);
    ra[2] = ra[3] = pack4(J.a + base, 16 + 4 * tig, k, 0x00);
    rb[0] = pack4(J.b + base, 4 * tig, k, 0x80);
    rb[1] = pack4(J.b + base, 16 + 4 * tig, k, 0x80);
    if (TA == kTcE4M3 && TB == kTcE4M3) MXR_FP8_MMA("e4m3", "e4m3");
    else if (TA == kTcE4M3) MXR_FP8_MMA("e4m3", "e5m2");
    else if (TB == kTcE4M3) MXR_FP8_MMA("e5m2", "e4m3");
    else MXR_FP8_MMA("e5m2", "e5m2");
    for (int q = 0; q < 4; ++q) c[q] = d[q];
  }
  const uint32_t r0 = __float_as_uint(d[0]);
  bool same = true;
  for (int q = 0; q < 4; ++q) same = same && __float_as_uint(d[q]) == r0;
  same = same && __shfl_sync(0xFFFFFFFFu, r0, 0) == r0;
  if (!__all_sync(0xFFFFFFFFu, same) && lane == 0) atomicOr(flags, kFlagInconsistent);
  if (lane == 0) out[job] = r0;
#else
  if (threadIdx.x % 32 == 0) atomicOr(flags, kFlagNotCompiled);
#endif
}

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
__device__ inline uint32_t smemAddr(const void *p) { return uint32_t(__cvta_generic_to_shared(p)); }

/// A shared-memory matrix descriptor (sm_100 UMMA): start address, leading (K-direction) and
/// stride (M/N-direction) byte offsets between 8 x 16-byte core matrices, version 1, no swizzle.
__device__ inline uint64_t ummaDesc(uint32_t addr, uint32_t lbo, uint32_t sbo) {
  uint64_t d = 0;
  d |= uint64_t((addr & 0x3FFFF) >> 4);
  d |= uint64_t(lbo >> 4) << 16;
  d |= uint64_t(sbo >> 4) << 32;
  d |= uint64_t(1) << 46;
  return d;
}

__device__ inline void mbarWait(uint32_t bar, uint32_t phase) {
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(bar), "r"(phase)
                 : "memory");
}
#endif

/// Block-scaled MX MMA, one CTA of 128 threads per job (see file comment).
__global__ void mxMmaKernel(int typeA, int typeB, const TcJob *jobs, uint64_t n, uint32_t *out, int *flags) {
  const uint64_t job = blockIdx.x;
  if (job >= n) return;
  const TcJob &J = jobs[job];
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
  // Shared memory: A 128 x 32 bytes, B 32 x 32 bytes, K-major, no swizzle: row r, 16-byte
  // K-chunk c at (r / 8) * 256 + c * 128 + (r % 8) * 16 (LBO = 128, SBO = 256).
  __shared__ alignas(1024) uint8_t sA[128 * 32];
  __shared__ alignas(1024) uint8_t sB[32 * 32];
  __shared__ alignas(8) uint64_t bar;
  __shared__ uint32_t tmemBase;
  __shared__ uint32_t ref;
  const int tid = threadIdx.x, warp = tid / 32;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 64;" ::"r"(smemAddr(&tmemBase))
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
  }
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddr(&bar)) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
  const uint32_t tbase = tmemBase;
  const uint32_t laneOff = uint32_t(warp * 32) << 16;
  const uint32_t dCol = tbase, sfaCol = tbase + 32, sfbCol = tbase + 36;
  // Scale factors: the code in every byte of 4 columns, in all 128 lanes.
  const uint32_t sa4 = uint32_t(J.xa) * 0x01010101u, sb4 = uint32_t(J.xb) * 0x01010101u;
  asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1, %1, %1, %1};" ::"r"(sfaCol + laneOff), "r"(sa4)
               : "memory");
  asm volatile("tcgen05.st.sync.aligned.32x32b.x4.b32 [%0], {%1, %1, %1, %1};" ::"r"(sfbCol + laneOff), "r"(sb4)
               : "memory");
  asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
  const uint32_t fmtA = typeA == kTcE5M2 ? 1u : 0u, fmtB = typeB == kTcE5M2 ? 1u : 0u;
  // Instruction descriptor (block-scaled): b_sf_id 0, a/b format, K-major, N >> 3 at 17,
  // scale format UE8M0 at 23, M >> 4 at 24, a_sf_id 0.
  const uint32_t idesc = (fmtA << 7) | (fmtB << 10) | ((32u >> 3) << 17) | (1u << 23) | ((128u >> 4) << 24);
  for (int base = 0, step = 0; base < J.k; base += 32, ++step) {
    const int k = J.k - base;
    // Fill A (row tid) and B (rows 0..31, threads 0..31): bytes of K-chunk c.
    for (int cchunk = 0; cchunk < 2; ++cchunk)
      for (int q = 0; q < 16; ++q) {
        const int kk = cchunk * 16 + q;
        sA[(tid / 8) * 256 + cchunk * 128 + (tid % 8) * 16 + q] = kk < k ? J.a[base + kk] : 0x00;
        if (tid < 32) sB[(tid / 8) * 256 + cchunk * 128 + (tid % 8) * 16 + q] = kk < k ? J.b[base + kk] : 0x80;
      }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    if (tid == 0) {
      asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
      const uint64_t da = ummaDesc(smemAddr(sA), 128, 256), db = ummaDesc(smemAddr(sB), 128, 256);
      const uint32_t acc = step > 0 ? 1u : 0u;  // first block: D = A B (no C, i.e. C = -0)
      asm volatile(
          "{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\n"
          "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%0], %1, %2, %3, [%5], [%6], p;\n}"
          ::"r"(dCol), "l"(da), "l"(db), "r"(idesc), "r"(acc), "r"(sfaCol), "r"(sfbCol)
          : "memory");
      asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                       smemAddr(&bar))
                   : "memory");
    }
    mbarWait(smemAddr(&bar), uint32_t(step & 1));
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    __syncthreads();
  }
  uint32_t r0, r1;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(dCol + laneOff)
               : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
  if (tid == 0) ref = r0;
  __syncthreads();
  if (r0 != ref || r1 != ref) atomicOr(flags, kFlagInconsistent);
  if (tid == 0) out[job] = r0;
  asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
  __syncthreads();
  if (warp == 0) {
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 64;" ::"r"(tbase) : "memory");
  }
#elif defined(__CUDA_ARCH_FEAT_SM120_ALL)
  // mma.sync block-scaled, one warp (the others idle); as fp8MmaKernel plus the scales.
  if (threadIdx.x >= 32) return;
  const int lane = threadIdx.x, tig = lane % 4;
  const uint32_t sa4 = uint32_t(J.xa) * 0x01010101u, sb4 = uint32_t(J.xb) * 0x01010101u;
  float c[4], d[4];
  for (int q = 0; q < 4; ++q) c[q] = __uint_as_float(0x80000000u);
  for (int base = 0; base < J.k; base += 32) {
    const int k = J.k - base;
    uint32_t ra[4], rb[2];
    ra[0] = ra[1] = pack4(J.a + base, 4 * tig, k, 0x00);
    ra[2] = ra[3] = pack4(J.a + base, 16 + 4 * tig, k, 0x00);
    rb[0] = pack4(J.b + base, 4 * tig, k, 0x80);
    rb[1] = pack4(J.b + base, 16 + 4 * tig, k, 0x80);
#define MXR_MX_MMA(TA, TB)                                                                                        \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32." TA "." TB        \
               ".f32.ue8m0 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}, %14, {0, 0}, %15, {0, 0};" \
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])                                                   \
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(c[0]), "f"(c[1]),    \
                 "f"(c[2]), "f"(c[3]), "r"(sa4), "r"(sb4))
    if (typeA == kTcE4M3 && typeB == kTcE4M3) MXR_MX_MMA("e4m3", "e4m3");
    else if (typeA == kTcE4M3) MXR_MX_MMA("e4m3", "e5m2");
    else if (typeB == kTcE4M3) MXR_MX_MMA("e5m2", "e4m3");
    else MXR_MX_MMA("e5m2", "e5m2");
#undef MXR_MX_MMA
    for (int q = 0; q < 4; ++q) c[q] = d[q];
  }
  const uint32_t r0 = __float_as_uint(d[0]);
  bool same = true;
  for (int q = 0; q < 4; ++q) same = same && __float_as_uint(d[q]) == r0;
  same = same && __shfl_sync(0xFFFFFFFFu, r0, 0) == r0;
  if (!__all_sync(0xFFFFFFFFu, same) && lane == 0) atomicOr(flags, kFlagInconsistent);
  if (lane == 0) out[job] = r0;
#else
  (void)J;
  (void)typeA;
  (void)typeB;
  (void)out;
  if (threadIdx.x == 0) atomicOr(flags, kFlagNotCompiled);
#endif
}

// ---- host side --------------------------------------------------------------------------

std::string gName;
int gMask = 0;
std::string gKinds;

void setErr(char *err, int len, const std::string &s) {
  if (err && len > 0) std::snprintf(err, size_t(len), "%s", s.c_str());
}

#define CK(call)                                                                              \
  do {                                                                                        \
    const cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) {                                                                  \
      setErr(err, errLen, std::string(#call).substr(0, 40) + ": " + cudaGetErrorString(e_)); \
      return e_ == cudaErrorNoKernelImageForDevice ? kStatusUnsupported : kStatusFailed;       \
    }                                                                                         \
  } while (0)

/// A device buffer freed at scope exit.
template <class T> struct DevBuf {
  T *p = nullptr;
  ~DevBuf() {
    if (p) cudaFree(p);
  }
  cudaError_t alloc(size_t n) { return cudaMalloc(reinterpret_cast<void **>(&p), std::max<size_t>(n, 1) * sizeof(T)); }
};

const char *cudaName() { return "cuda"; }

int cudaInit(char *err, int errLen) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    setErr(err, errLen, e != cudaSuccess ? cudaGetErrorString(e) : "the CUDA runtime reports 0 devices");
    return kStatusNoDevice;
  }
  int dev = 0;
  if (const char *s = std::getenv("MXCERT_CUDA_DEVICE")) dev = std::atoi(s);
  CK(cudaSetDevice(dev));
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  cudaFuncAttributes attr;
  const cudaError_t img = cudaFuncGetAttributes(&attr, pointsKernel);
  if (img != cudaSuccess) {
    setErr(err, errLen, std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
                            "): " + cudaGetErrorString(img) + " — rebuild with MXCERT_CUDA_ARCHS including it");
    return kStatusUnsupported;
  }
  DevBuf<int> probe;
  CK(probe.alloc(1));
  archProbeKernel<<<1, 1>>>(probe.p);
  CK(cudaGetLastError());
  CK(cudaMemcpy(&gMask, probe.p, sizeof(int), cudaMemcpyDeviceToHost));
  char buf[512];
  int rt = 0, drv = 0;
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  std::snprintf(buf, sizeof buf, "device %d: %s, sm_%d%d, CUDA runtime %d.%d, driver %d.%d", dev, prop.name,
                prop.major, prop.minor, rt / 1000, (rt % 1000) / 10, drv / 1000, (drv % 1000) / 10);
  gName = buf;
  gKinds = std::string(prop.name) + " sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ": fp8 mma.sync " +
           ((gMask >> kTcFp8) & 1 ? "yes" : "no (needs sm_89+)") + ", block-scaled MX MMA " +
           ((gMask >> kTcMxBlock) & 1 ? (prop.major == 10 ? "yes (tcgen05, sm_100a)" : "yes (mma.sync, sm_120a)")
                                      : "no (needs an sm_100a or sm_120a image)");
  return kStatusOk;
}

const char *cudaDeviceName() { return gName.c_str(); }

int cudaRunPoints(const Problem *P, const uint8_t *wa, const uint8_t *wb, const PointJob *jobs, uint64_t numJobs,
                  uint32_t *bits, char *err, int errLen) {
  uint64_t numW = 0;
  for (uint64_t i = 0; i < numJobs; ++i) numW = std::max<uint64_t>(numW, uint64_t(jobs[i].witness) + 1);
  const size_t k = size_t(P->tree.k);
  DevBuf<uint8_t> da, db;
  DevBuf<PointJob> dj;
  DevBuf<uint32_t> dbits;
  CK(da.alloc(numW * k));
  CK(db.alloc(numW * k));
  CK(dj.alloc(numJobs));
  CK(dbits.alloc(2 * numJobs));
  CK(cudaMemcpy(da.p, wa, numW * k, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db.p, wb, numW * k, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dj.p, jobs, numJobs * sizeof(PointJob), cudaMemcpyHostToDevice));
  const unsigned blocks = unsigned(std::min<uint64_t>((numJobs + 255) / 256, 4096));
  pointsKernel<<<blocks, 256>>>(*P, da.p, db.p, dj.p, numJobs, dbits.p);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(bits, dbits.p, 2 * numJobs * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  return kStatusOk;
}

int cudaRunExhaustive(const Problem *P, const float *av, const float *bv, int n, uint64_t numTuples,
                      const uint8_t *points, uint64_t numPoints, uint64_t *firstDiff, char *err, int errLen) {
  if (n > kMaxSharedClasses) {
    setErr(err, errLen, "exhaustive: " + std::to_string(n) + " classes per position exceed the device limit " +
                            std::to_string(kMaxSharedClasses));
    return kStatusUnsupported;
  }
  DevBuf<float> dav, dbv;
  DevBuf<uint8_t> dpts;
  DevBuf<unsigned long long> dfirst;
  CK(dav.alloc(size_t(n)));
  CK(dbv.alloc(size_t(n)));
  CK(dpts.alloc(2 * numPoints));
  CK(dfirst.alloc(numPoints));
  CK(cudaMemcpy(dav.p, av, size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dbv.p, bv, size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dpts.p, points, 2 * numPoints, cudaMemcpyHostToDevice));
  CK(cudaMemset(dfirst.p, 0xFF, numPoints * sizeof(unsigned long long)));
  const unsigned threads = 256;
  const unsigned bx = unsigned(std::min<uint64_t>((numTuples + threads - 1) / threads, 2048));
  for (uint64_t base = 0; base < numPoints; base += 65535) {
    const unsigned by = unsigned(std::min<uint64_t>(numPoints - base, 65535));
    exhaustiveKernel<<<dim3(bx, by), threads, 2 * size_t(n) * sizeof(float)>>>(*P, dav.p, dbv.p, n, numTuples,
                                                                                dpts.p, base, dfirst.p);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(firstDiff, dfirst.p, numPoints * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  return kStatusOk;
}

int cudaTensorCoreKinds(char *desc, int len) {
  setErr(desc, len, gKinds);
  return gMask;
}

int cudaRunTensorCores(int kind, int typeA, int typeB, const TcJob *jobs, uint64_t numJobs, uint32_t *out,
                       char *err, int errLen) {
  if (!(gMask & (1 << kind))) {
    setErr(err, errLen, kind == kTcFp8 ? "no fp8 mma.sync on this device (needs sm_89+)"
                                       : "no block-scaled MX MMA on this device/build (needs sm_100a or sm_120a)");
    return kStatusUnsupported;
  }
  DevBuf<TcJob> dj;
  DevBuf<uint32_t> dout;
  DevBuf<int> dflags;
  CK(dj.alloc(numJobs));
  CK(dout.alloc(numJobs));
  CK(dflags.alloc(1));
  CK(cudaMemcpy(dj.p, jobs, numJobs * sizeof(TcJob), cudaMemcpyHostToDevice));
  CK(cudaMemset(dflags.p, 0, sizeof(int)));
  if (kind == kTcFp8) {
    const unsigned blocks = unsigned((numJobs + 3) / 4);
    if (typeA == kTcE4M3 && typeB == kTcE4M3) fp8MmaKernel<kTcE4M3, kTcE4M3><<<blocks, 128>>>(dj.p, numJobs, dout.p, dflags.p);
    else if (typeA == kTcE4M3) fp8MmaKernel<kTcE4M3, kTcE5M2><<<blocks, 128>>>(dj.p, numJobs, dout.p, dflags.p);
    else if (typeB == kTcE4M3) fp8MmaKernel<kTcE5M2, kTcE4M3><<<blocks, 128>>>(dj.p, numJobs, dout.p, dflags.p);
    else fp8MmaKernel<kTcE5M2, kTcE5M2><<<blocks, 128>>>(dj.p, numJobs, dout.p, dflags.p);
  } else {
    mxMmaKernel<<<unsigned(numJobs), 128>>>(typeA, typeB, dj.p, numJobs, dout.p, dflags.p);
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int flags = 0;
  CK(cudaMemcpy(&flags, dflags.p, sizeof(int), cudaMemcpyDeviceToHost));
  if (flags & kFlagNotCompiled) {
    setErr(err, errLen, "the tensor-core path is not compiled for this architecture");
    return kStatusUnsupported;
  }
  if (flags & kFlagInconsistent) {
    setErr(err, errLen, "tensor-core kernel self-check failed: the elements of D differ (operand layout assumption "
                        "wrong on this device); results not interpreted");
    return kStatusFailed;
  }
  CK(cudaMemcpy(out, dout.p, numJobs * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  return kStatusOk;
}

const PluginV1 kCudaPlugin = {kPluginAbi,
                              cudaName,
                              cudaInit,
                              cudaDeviceName,
                              cudaRunPoints,
                              cudaRunExhaustive,
                              cudaRunTensorCores,
                              cudaTensorCoreKinds};

}  // namespace
}  // namespace mxreplay

extern "C" __attribute__((visibility("default"))) const mxreplay::PluginV1 *mxreplay_plugin_v1() {
  return &mxreplay::kCudaPlugin;
}

#ifndef MXREPLAY_TARGETS
#define MXREPLAY_TARGETS unknown
#endif
extern "C" __attribute__((visibility("default"))) const char *mxreplay_plugin_targets() {
  return MXREPLAY_STR(MXREPLAY_TARGETS);
}

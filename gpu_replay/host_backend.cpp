// gpu_replay/host_backend.cpp — the host backend: the arithmetic header (replay_arith.h) run on
// the CPU, behind the same function table as the device plugins. This file is compiled with
// -ffp-contract=off -fno-fast-math (see CMakeLists.txt), so every operation of the header is
// one IEEE binary32/binary64 operation in round-to-nearest-even, as on the devices.
#include "gpu_replay/host_backend.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace mxreplay {

namespace {

int gThreads = 0;
std::string gDeviceName;
/// Test hook (docs/replay.md): MXCERT_REPLAY_HOST_FAULT=ftz makes the host backend behave like
/// a device that flushes subnormal results to zero whatever the configuration says, so that
/// the tests can exercise the "device disagrees with the model" path (exit 1) without a GPU.
bool gFaultFtz = false;

/// The problem as the backend executes it (with the injected fault, if any).
Problem effective(const Problem &P) {
  Problem Q = P;
  if (gFaultFtz) Q.ftz = 1;
  return Q;
}

int threadCount() {
  int n = gThreads > 0 ? gThreads : int(std::thread::hardware_concurrency());
  return std::max(1, std::min(n, 64));
}

/// Runs body(i) for i in [0, n) on the worker threads (dynamic scheduling, chunks of `grain`).
template <class F> void parallelFor(uint64_t n, uint64_t grain, F body) {
  const int T = int(std::min<uint64_t>(uint64_t(threadCount()), (n + grain - 1) / std::max<uint64_t>(grain, 1)));
  std::atomic<uint64_t> next{0};
  auto work = [&] {
    for (;;) {
      const uint64_t lo = next.fetch_add(grain);
      if (lo >= n) return;
      const uint64_t hi = std::min(n, lo + grain);
      for (uint64_t i = lo; i < hi; ++i) body(i);
    }
  };
  if (T <= 1) {
    work();
    return;
  }
  std::vector<std::thread> ts;
  for (int t = 1; t < T; ++t) ts.emplace_back(work);
  work();
  for (auto &t : ts) t.join();
}

const char *hostName() { return "host"; }

int hostInit(char *err, int errLen) {
  gFaultFtz = false;
  if (const char *f = std::getenv("MXCERT_REPLAY_HOST_FAULT"); f && *f) {
    if (std::string(f) != "ftz") {
      std::snprintf(err, size_t(errLen), "MXCERT_REPLAY_HOST_FAULT='%s' is not a known fault (expected ftz)", f);
      return kStatusUnsupported;
    }
    gFaultFtz = true;
  }
  gDeviceName = "host CPU, " + std::to_string(threadCount()) +
                " thread(s), binary32 RNE via the arithmetic header (replay_arith.h)" +
                (gFaultFtz ? " [TEST FAULT INJECTED: flushes subnormal results]" : "");
  return kStatusOk;
}

const char *hostDeviceName() { return gDeviceName.c_str(); }

int hostRunPoints(const Problem *P0, const uint8_t *wa, const uint8_t *wb, const PointJob *jobs,
                  uint64_t numJobs, uint32_t *bits, char *, int) {
  const Problem Q = effective(*P0);
  const Problem *P = &Q;
  const size_t k = size_t(P->tree.k);
  parallelFor(numJobs, 256, [&](uint64_t i) {
    const PointJob &j = jobs[i];
    evalBlock(*P, wa + size_t(j.witness) * k, wb + size_t(j.witness) * k, j.xa, j.xb, bits + 2 * i);
  });
  return kStatusOk;
}

int hostRunExhaustive(const Problem *P0, const float *av, const float *bv, int n, uint64_t numTuples,
                      const uint8_t *points, uint64_t numPoints, uint64_t *firstDiff, char *, int) {
  const Problem Q = effective(*P0);
  const Problem *P = &Q;
  const ClassTable C{n, av, bv};
  parallelFor(numPoints, 1, [&](uint64_t j) {
    const Scales s = makeScales(*P, points[2 * j], points[2 * j + 1]);
    std::vector<float> L1(static_cast<size_t>(n)), L2(static_cast<size_t>(n));
    classLeaves(P->p1, C, s, P->ftz, L1.data());
    classLeaves(P->p2, C, s, P->ftz, L2.data());
    // Tuples in index order with an odometer over the class digits (digit 0 fastest), which
    // visits exactly the tuples tupleDiffers(t) names, without a division per digit.
    const int k = P->tree.k;
    int digit[kMaxK] = {0};
    float l1[kMaxK], l2[kMaxK];
    for (int i = 0; i < k; ++i) {
      l1[i] = L1[0];
      l2[i] = L2[0];
    }
    uint64_t first = UINT64_MAX;
    for (uint64_t t = 0; t < numTuples; ++t) {
      if (leavesDiffer(*P, l1, l2, s)) {
        first = t;
        break;
      }
      for (int i = 0; i < k; ++i) {
        if (++digit[i] < n) {
          l1[i] = L1[size_t(digit[i])];
          l2[i] = L2[size_t(digit[i])];
          break;
        }
        digit[i] = 0;
        l1[i] = L1[0];
        l2[i] = L2[0];
      }
    }
    firstDiff[j] = first;
  });
  return kStatusOk;
}

const PluginV1 kHostPlugin = {
    kPluginAbi, hostName, hostInit, hostDeviceName, hostRunPoints, hostRunExhaustive,
    nullptr, nullptr,
};

}  // namespace

const PluginV1 *hostPlugin() { return &kHostPlugin; }

void setHostThreads(int n) { gThreads = n; }

}  // namespace mxreplay

/* mlir_pass/exec/fpenv.cpp — test support for the execution tests (not part of mxcert): sets the
 * calling thread's f32 denormal environment, so that the JIT-ed code of one mlir-runner process
 * runs with subnormals flushed (FTZ) or read as zero (DAZ). mlir-runner loads it with
 * -shared-libs; the driver's @main calls it first (mlir_pass/exec/mxexec.py, driver_module).
 *
 *   mode 0: IEEE (MXCSR FTZ and DAZ clear)
 *   mode 1: FTZ  (MXCSR bit 15: a tiny result becomes a zero of its sign)
 *   mode 2: DAZ  (MXCSR bits 15 and 6: FTZ, and subnormal operands read as zeros of their sign)
 *
 * Returns the mode set, or -1 where this is not x86-64 (the tests are then skipped). The modes
 * are mxcert's --subnormals keep, ftz and daz (docs/semantics.md). */
#include <cstdint>
#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

extern "C" int32_t mxcert_set_denormal_mode(int32_t mode) {
#if defined(__x86_64__) || defined(_M_X64)
  const unsigned kFTZ = 1u << 15, kDAZ = 1u << 6;
  unsigned csr = _mm_getcsr() & ~(kFTZ | kDAZ);
  if (mode == 1) csr |= kFTZ;
  if (mode == 2) csr |= kFTZ | kDAZ;
  _mm_setcsr(csr);
  return mode;
#else
  (void)mode;
  return -1;
#endif
}

/* The MXCSR bits now set (FTZ | DAZ as above), for the driver to print: proof that the mode
 * is in effect while the dot products run. */
extern "C" int32_t mxcert_denormal_bits() {
#if defined(__x86_64__) || defined(_M_X64)
  return (int32_t)(_mm_getcsr() & ((1u << 15) | (1u << 6)));
#else
  return -1;
#endif
}

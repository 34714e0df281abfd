/*
 * Substrate VM's CPU-feature probe for x86-64 (com.oracle.svm.core.amd64.AMD64LibCHelper): which of the features the
 * builder names the CPU has (the check against the image's requirements is ../cpu_check.c). The struct is
 * generated from the builder's own @CStruct (amd64cpufeatures.h); a feature left 0 is one this probe does not look for,
 * which only keeps the image from using it. Bits are from Intel's SDM, vol. 2A, CPUID (leaves 1, 7 and 0x80000001) and
 * vol. 1, 13.3 (XGETBV: the OS saves the AVX and AVX-512 state).
 */
#include <cpuid.h>
#include <stdint.h>
#include <string.h>
#include "amd64cpufeatures.h"

static uint64_t xcr0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

void determineCPUFeatures(CPUFeatures *f) {
  unsigned int a, b, c, d, max, maxExt;
  memset(f, 0, sizeof(*f));
  max = __get_cpuid_max(0, 0);
  if (max < 1) {
    return;
  }
  __cpuid(1, a, b, c, d);
  f->fCX8 = (d >> 8) & 1;
  f->fCMOV = (d >> 15) & 1;
  f->fMMX = (d >> 23) & 1;
  f->fFXSR = (d >> 24) & 1;
  f->fSSE = (d >> 25) & 1;
  f->fSSE2 = (d >> 26) & 1;
  f->fHT = (d >> 28) & 1;
  f->fTSC = (d >> 4) & 1;
  f->fFLUSH = (d >> 19) & 1;
  f->fSSE3 = c & 1;
  f->fCLMUL = (c >> 1) & 1;
  f->fSSSE3 = (c >> 9) & 1;
  f->fFMA = (c >> 12) & 1;
  f->fSSE4_1 = (c >> 19) & 1;
  f->fSSE4_2 = (c >> 20) & 1;
  f->fPOPCNT = (c >> 23) & 1;
  f->fAES = (c >> 25) & 1;
  f->fF16C = (c >> 29) & 1;
  f->fHV = (c >> 31) & 1;
  int osxsave = (c >> 27) & 1;
  int avx = ((c >> 28) & 1) && osxsave && (xcr0() & 0x6) == 0x6;       /* XMM and YMM state enabled */
  int avx512 = avx && (xcr0() & 0xe0) == 0xe0;                          /* opmask, ZMM_Hi256, Hi16_ZMM */
  f->fAVX = avx;
  if (!avx) {
    f->fFMA = 0;
    f->fF16C = 0;
  }
  if (max >= 7) {
    __cpuid_count(7, 0, a, b, c, d);
    f->fBMI1 = (b >> 3) & 1;
    f->fAVX2 = avx && ((b >> 5) & 1);
    f->fBMI2 = (b >> 8) & 1;
    f->fERMS = (b >> 9) & 1;
    f->fADX = (b >> 19) & 1;
    f->fCLWB = (b >> 24) & 1;
    f->fFLUSHOPT = (b >> 23) & 1;
    f->fSHA = (b >> 29) & 1;
    f->fAVX512F = avx512 && ((b >> 16) & 1);
    f->fAVX512DQ = avx512 && ((b >> 17) & 1);
    f->fAVX512CD = avx512 && ((b >> 28) & 1);
    f->fAVX512BW = avx512 && ((b >> 30) & 1);
    f->fAVX512VL = avx512 && ((b >> 31) & 1);
    f->fFSRM = (d >> 4) & 1;
  }
  maxExt = __get_cpuid_max(0x80000000, 0);
  if (maxExt >= 0x80000001) {
    __cpuid(0x80000001, a, b, c, d);
    f->fLZCNT = (c >> 5) & 1;
    f->fRDTSCP = (d >> 27) & 1;
  }
}


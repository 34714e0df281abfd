/*
 * Substrate VM's CPU-feature probe for AArch64 on Linux (com.oracle.svm.core.aarch64.AArch64LibCHelper): which of the
 * features the builder names the CPU has (the check against the image's requirements is ../cpu_check.c). The
 * struct is generated from the builder's own @CStruct (aarch64cpufeatures.h). The kernel reports the features in the
 * auxiliary vector (getauxval(3), AT_HWCAP and AT_HWCAP2); the bits are Linux's (arch/arm64/include/uapi/asm/hwcap.h,
 * documented in Documentation/arch/arm64/elf_hwcaps.rst), named by musl's <sys/auxv.h> (bits/hwcap.h; HWCAP_ATOMICS is
 * LSE), the same GraalVM's own libchelper and HotSpot (vm_version_linux_aarch64.cpp) read. STXR_PREFETCH, A53MAC and
 * DMB_ATOMICS are not features but CPU models HotSpot tunes code for (read from /proc/cpuinfo there): left 0, as a
 * feature this probe does not look for, which only keeps the image from tuning for them.
 */
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include "aarch64cpufeatures.h"

void determineCPUFeatures(CPUFeatures *f) {
  unsigned long hwcap = getauxval(AT_HWCAP);
  unsigned long hwcap2 = getauxval(AT_HWCAP2);
  memset(f, 0, sizeof(*f));
  f->fFP = !!(hwcap & HWCAP_FP);
  f->fASIMD = !!(hwcap & HWCAP_ASIMD);
  f->fEVTSTRM = !!(hwcap & HWCAP_EVTSTRM);
  f->fAES = !!(hwcap & HWCAP_AES);
  f->fPMULL = !!(hwcap & HWCAP_PMULL);
  f->fSHA1 = !!(hwcap & HWCAP_SHA1);
  f->fSHA2 = !!(hwcap & HWCAP_SHA2);
  f->fCRC32 = !!(hwcap & HWCAP_CRC32);
  f->fLSE = !!(hwcap & HWCAP_ATOMICS);
  f->fFPHP = !!(hwcap & HWCAP_FPHP);
  f->fASIMDHP = !!(hwcap & HWCAP_ASIMDHP);
  f->fDCPOP = !!(hwcap & HWCAP_DCPOP);
  f->fSHA3 = !!(hwcap & HWCAP_SHA3);
  f->fSHA512 = !!(hwcap & HWCAP_SHA512);
  f->fSVE = !!(hwcap & HWCAP_SVE);
  f->fPACA = !!(hwcap & HWCAP_PACA);
  f->fSVE2 = !!(hwcap2 & HWCAP2_SVE2);
  f->fSVEBITPERM = !!(hwcap2 & HWCAP2_SVEBITPERM);
}


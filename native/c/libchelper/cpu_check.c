/*
 * Whether this CPU has every feature the image was compiled to require (Substrate VM's checkCPUFeatures, called as the
 * image starts), for either architecture: determineCPUFeatures is the architecture's own (amd64/, aarch64/), the struct
 * generated from the builder's @CStruct. The build-time mask has a byte per field of the struct
 * (CPUFeatureAccessFeatureBase.initializeCPUFeatureAccessData): 0xFE where the feature is required, 0xFF elsewhere, so
 * a field ORed with its mask byte is 0xFF unless a required feature is missing.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__x86_64__)
#include "amd64cpufeatures.h"
#elif defined(__aarch64__)
#include "aarch64cpufeatures.h"
#else
#error "sidecar-wait's native build is for x86-64 and AArch64"
#endif

void determineCPUFeatures(CPUFeatures *f);

/* 0 when the CPU has every feature the image requires, else -1. */
int checkCPUFeatures(const unsigned char *buildtimeMask) {
  CPUFeatures actual;
  const unsigned char *has = (const unsigned char *)&actual;
  determineCPUFeatures(&actual);
  for (size_t i = 0; i < sizeof(CPUFeatures); i++) {
    if ((unsigned char)(has[i] | buildtimeMask[i]) != 0xFF) {
      return -1;
    }
  }
  return 0;
}

int checkCPUFeaturesOrExit(const unsigned char *buildtimeMask, const char *errorMessage) {
  int result = checkCPUFeatures(buildtimeMask);
  if (result != 0) {
    fputs(errorMessage, stderr);
    fputc('\n', stderr);
    exit(1);
  }
  return result;
}

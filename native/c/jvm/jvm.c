/*
 * What OpenJDK's libjava, libnet and libnio ask of the JVM (jvm.h's JVM_* and jio_* functions), answered for a native
 * image, where no HotSpot is linked: the static JDK libraries call these by name. Substrate VM links it as "jvm"
 * (com.oracle.svm.core.jdk.Jvm, @CLibrary("jvm")), whose initialize() it calls once at start.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "jni.h"

void initialize(void) {
}

/* The processors this process may run on (its affinity mask, which a cgroup cpuset narrows), as HotSpot counts them. */
int JVM_ActiveProcessorCount(void) {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof(cpus), &cpus) == 0) {
    return CPU_COUNT(&cpus);
  }
  return (int)sysconf(_SC_NPROCESSORS_ONLN);
}

int jio_vsnprintf(char *str, size_t count, const char *fmt, va_list args) {
  if ((intptr_t)count <= 0) {
    return -1;
  }
  int result = vsnprintf(str, count, fmt, args);
  if (result < 0 || (size_t)result >= count) {
    str[count - 1] = '\0';
    return -1;
  }
  return result;
}

int jio_snprintf(char *str, size_t count, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = jio_vsnprintf(str, count, fmt, args);
  va_end(args);
  return result;
}

int jio_fprintf(FILE *file, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = vfprintf(file, fmt, args);
  va_end(args);
  return result;
}

void JVM_Halt(int code) {
  exit(code);
}

/*
 * dlsym(RTLD_DEFAULT, name) in a static binary: musl's finds nothing, so OpenJDK's libnio took openat, fstatat, futimens
 * and the rest for missing (futimens then threw InternalError) and libnet took IPv6 for unsupported (it asks for
 * inet_pton). The names the static JDK libraries ask for are answered from this table; any other is not found, as
 * for a library that is not there (gconf, gio).
 */
static int statxCall(int dirfd, const char *path, int flags, unsigned int mask, void *buffer) {
  return (int)syscall(SYS_statx, dirfd, path, flags, mask, buffer); /* musl 1.2.3 has no statx(3) */
}

static const struct {
  const char *name;
  void *address;
} symbols[] = {
  {"inet_pton", (void *)inet_pton},
  {"openat64", (void *)openat},
  {"fstatat64", (void *)fstatat},
  {"unlinkat", (void *)unlinkat},
  {"renameat", (void *)renameat},
  {"futimesat", (void *)futimesat},
  {"futimens", (void *)futimens},
  {"lutimes", (void *)lutimes},
  {"fdopendir", (void *)fdopendir},
  {"statx", (void *)statxCall},
};

void *dlsym(void *handle, const char *name) {
  for (size_t i = 0; i < sizeof(symbols) / sizeof(symbols[0]); i++) {
    if (strcmp(symbols[i].name, name) == 0) {
      return symbols[i].address;
    }
  }
  return NULL;
}

void *JVM_FindLibraryEntry(void *handle, const char *name) {
  return dlsym(handle, name);
}

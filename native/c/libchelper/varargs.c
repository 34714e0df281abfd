/*
 * C calls Substrate VM makes through fixed-argument wrappers, because a @CFunction cannot call a variadic function or a
 * macro: open(2), fprintf(3) with a string and an int (PosixVMThreads), mremap(2) with a new address (the image heap),
 * and the kernel's thread id (no gettid(3) before glibc 2.30; musl has it, the syscall is the same).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int openSII(const char *pathname, int flags, int mode) {
  return open(pathname, flags, mode);
}

int fprintfSD(FILE *stream, const char *format, char *arg0, int arg1) {
  return fprintf(stream, format, arg0, arg1);
}

void *mremapP(void *oldAddress, size_t oldSize, size_t newSize, int flags, void *newAddress) {
  return mremap(oldAddress, oldSize, newSize, flags, newAddress);
}

pid_t getThreadId(void) {
  return (pid_t)syscall(SYS_gettid);
}

/*
 * Substrate VM's delivery of signals to Java handlers (com.oracle.svm.core.posix.headers.CSunMiscSignal, read by
 * PosixSignalHandlerSupport's dispatcher thread): the C handler counts each signal and posts a semaphore; the thread
 * waits on it (awaitSemaphore, 0 when woken) and takes one pending signal at a time (checkPendingSignal: its number,
 * its count lowered by one, or -1 when none is pending). The handler only touches this file's static data and
 * async-signal-safe calls (sem_post).
 */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>

static volatile long pending[NSIG];
static sem_t semaphore;
static volatile int opened;

int cSunMiscSignal_open(void) {
  if (__sync_val_compare_and_swap(&opened, 0, 1) != 0) {
    errno = EBUSY;
    return -1;
  }
  for (int i = 0; i < NSIG; i++) {
    pending[i] = 0;
  }
  if (sem_init(&semaphore, 0, 0) != 0) {
    opened = 0;
    return -1;
  }
  return 0;
}

int cSunMiscSignal_close(void) {
  if (opened && sem_destroy(&semaphore) != 0) {
    return -1;
  }
  opened = 0;
  return 0;
}

int cSunMiscSignal_awaitSemaphore(void) {
  if (!opened) {
    errno = EINVAL;
    return -1;
  }
  while (sem_wait(&semaphore) != 0) {
    if (errno != EINTR) {
      return -1;
    }
  }
  return 0;
}

int cSunMiscSignal_signalSemaphore(void) {
  if (!opened) {
    errno = EINVAL;
    return -1;
  }
  return sem_post(&semaphore);
}

int cSunMiscSignal_signalRangeCheck(int signal) {
  return signal > 0 && signal < NSIG;
}

int cSunMiscSignal_checkPendingSignal(void) {
  for (int signal = 1; signal < NSIG; signal++) {
    long count;
    while ((count = pending[signal]) > 0) {
      if (__sync_bool_compare_and_swap(&pending[signal], count, count - 1)) {
        return signal;
      }
    }
  }
  return -1;
}

static void countingHandler(int signal) {
  int saved = errno;
  if (cSunMiscSignal_signalRangeCheck(signal)) {
    __sync_fetch_and_add(&pending[signal], 1);
    sem_post(&semaphore);
  }
  errno = saved;
}

void (*cSunMiscSignal_signalHandlerFunctionPointer(void))(int) {
  return countingHandler;
}

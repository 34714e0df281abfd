/*
 * The supervising wrapper's own way to take signals and start its command, in the native binary
 * (src/main/java/dev/sidecarwait/process/SignalPipe.java, Spawn.java), so that the thread that supervises takes both
 * itself: no thread of the runtime's waits for signals, none of the JDK's for the child.
 *
 * A caught signal's number is written, as one byte, to a pipe that thread reads: the handler makes one write(2),
 * async-signal-safe, and keeps errno; when the pipe is full the byte is dropped, and the signals already there are
 * read first. The command starts with posix_spawn(3), the environment this process has, and the descriptors the
 * caller names closed in the child.
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <unistd.h>

extern char **environ;

static volatile int pipe_in = -1;

static void to_pipe(int signal) {
  int saved = errno;
  unsigned char number = (unsigned char) signal;
  if (write(pipe_in, &number, 1) < 0) {
    /* full: the reader has signals to read already */
  }
  errno = saved;
}

/* SIGNAL, from now on, as one byte on the pipe whose write end is FD. 0, or -1 with errno (a signal the C library
 * keeps for itself, EINVAL). */
int swprocess_catch(int fd, int signal) {
  struct sigaction action = {0};
  action.sa_handler = to_pipe;
  action.sa_flags = SA_RESTART;
  sigfillset(&action.sa_mask);
  pipe_in = fd;
  if (sigaction(signal, &action, 0) != 0) {
    return -1;
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signal);
  return sigprocmask(SIG_UNBLOCK, &set, 0);
}

/* posix_spawn(3) of PATH with ARGV and this process's environment, the COUNT descriptors in CLOSE closed in the child.
 * 0 and the child's pid in *PID, or an errno. */
int swprocess_spawn(pid_t *pid, const char *path, char *const argv[], const int *close, int count) {
  posix_spawn_file_actions_t actions;
  int error = posix_spawn_file_actions_init(&actions);
  for (int i = 0; error == 0 && i < count; i++) {
    error = posix_spawn_file_actions_addclose(&actions, close[i]);
  }
  if (error == 0) {
    error = posix_spawn(pid, path, &actions, 0, argv, environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  return error;
}

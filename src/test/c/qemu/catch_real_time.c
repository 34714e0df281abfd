/* Catches every real-time signal, prints "ready PID", then the number of the first one that arrives. QemuUserTest. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void caught(int number) {
  got = number;
}

int main(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = caught;
  for (int number = SIGRTMIN; number <= SIGRTMAX; number++) {
    sigaction(number, &action, NULL);
  }
  printf("ready %d\n", (int)getpid());
  fflush(stdout);
  while (!got) {
    pause();
  }
  printf("got %d\n", got);
  return 0;
}

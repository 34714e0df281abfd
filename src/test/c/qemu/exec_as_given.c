/* Executes its arguments as they are (argv[1] is the program's path), changing nothing first. QemuUserTest. */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: exec_as_given PROGRAM [ARG...]\n", stderr);
    return 2;
  }
  execv(argv[1], argv + 1);
  perror(argv[1]);
  return 127;
}

/* Reads its own file (4 MiB of it a table) through a mapping, gives the pages back with madvise(MADV_PAGEOUT), and
 * prints the process's resident kB before and after: natively they leave, under qemu-user they stay. QemuUserTest. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

const char table[4 << 20] = {1};

static long resident_kb(void) {
  long size = 0, resident = 0;
  FILE *statm = fopen("/proc/self/statm", "r");
  if (statm == NULL || fscanf(statm, "%ld %ld", &size, &resident) != 2) return -1;
  fclose(statm);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int main(void) {
  int self = open("/proc/self/exe", O_RDONLY);
  long length = lseek(self, 0, SEEK_END);
  volatile const char *pages = mmap(NULL, length, PROT_READ, MAP_PRIVATE, self, 0);
  if (pages == MAP_FAILED) return 2;
  long sum = table[0];
  for (long offset = 0; offset < length; offset += 4096) sum += pages[offset];
  long before = resident_kb();
  int answer = madvise((void *)pages, length, 21 /* MADV_PAGEOUT, Linux 5.4 */);
  printf("before %ld after %ld madvise %d (%ld)\n", before, resident_kb(), answer, sum & 1);
  return 0;
}

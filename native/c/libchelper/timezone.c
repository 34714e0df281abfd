/*
 * The time-zone id Substrate VM's java.util.TimeZone asks for at first use (LibCHelper.SVM_FindJavaTZmd; the JDK's
 * TimeZone_md.c on Linux): TZ when set (a leading ':' dropped), else the first line of /etc/timezone, else the zone
 * /etc/localtime links to (the path after "zoneinfo/"). NULL when none says: the Java side then uses the offset from
 * UTC (GMT+hh:mm). Unlike the JDK, a /etc/localtime that is a copy rather than a link is not compared with every
 * zone file. sidecar-wait logs in UTC whatever this answers. Returns memory the caller frees.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *SVM_FindJavaTZmd(const char *tzmappings, int length) {
  const char *tz = getenv("TZ");
  char line[PATH_MAX];
  if (tz != NULL && *tz != '\0') {
    return strdup(*tz == ':' ? tz + 1 : tz);
  }
  FILE *file = fopen("/etc/timezone", "r");
  if (file != NULL) {
    char *read = fgets(line, sizeof(line), file);
    fclose(file);
    if (read != NULL) {
      line[strcspn(line, "\r\n")] = '\0';
      if (line[0] != '\0') {
        return strdup(line);
      }
    }
  }
  ssize_t linked = readlink("/etc/localtime", line, sizeof(line) - 1);
  if (linked > 0) {
    line[linked] = '\0';
    const char *zone = strstr(line, "zoneinfo/");
    if (zone != NULL) {
      return strdup(zone + strlen("zoneinfo/"));
    }
  }
  return NULL;
}

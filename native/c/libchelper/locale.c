/*
 * The process's locale as Substrate VM reads it at start (com.oracle.svm.core.c.locale.LocaleCHelper; svm_locale.h):
 * language, script, country and variant for display (LC_MESSAGES) and for formatting (LC_CTYPE), from the locale the
 * environment names (setlocale(LC_ALL, "")). As the JDK on Linux (java_props_md.c, ParseLocale), "C" and "POSIX" read
 * as en_US, and a name is language_COUNTRY.encoding@variant, each part after the language optional. Unlike the JDK,
 * no alias table fills in a country for a bare language.
 */
#include <ctype.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include "svm_locale.h"

static svm_locale_props_t props;

static char *part(const char *start, size_t length, int upper) {
  char *text = malloc(length + 1);
  if (text == NULL) {
    return NULL;
  }
  for (size_t i = 0; i < length; i++) {
    text[i] = (char)(upper ? toupper((unsigned char)start[i]) : tolower((unsigned char)start[i]));
  }
  text[length] = '\0';
  return text;
}

/* 0 when every part was allocated */
static int parse(int category, char **language, char **script, char **country, char **variant) {
  const char *name = setlocale(category, NULL);
  if (name == NULL || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0 || strncmp(name, "C.", 2) == 0) {
    name = "en_US";
  }
  size_t languageEnd = strcspn(name, "_.@");
  const char *rest = name + languageEnd;
  size_t countryLength = *rest == '_' ? strcspn(rest + 1, ".@") : 0;
  const char *at = strchr(name, '@');
  *language = part(name, languageEnd, 0);
  *country = part(rest + (countryLength ? 1 : 0), countryLength, 1);
  *script = part("", 0, 0);
  *variant = at != NULL ? part(at + 1, strlen(at + 1), 0) : part("", 0, 0);
  return *language && *country && *script && *variant ? 0 : -1;
}

int svm_initialize_locale(void) {
  setlocale(LC_ALL, "");
  if (parse(LC_MESSAGES, &props.display_language, &props.display_script, &props.display_country,
            &props.display_variant) != 0
      || parse(LC_CTYPE, &props.format_language, &props.format_script, &props.format_country,
               &props.format_variant) != 0) {
    return SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY;
  }
  return SVM_LOCALE_INITIALIZATION_SUCCEEDED;
}

svm_locale_props_t *svm_get_locale(void) {
  return &props;
}

/* The C interface, compiled as C: the header must be valid C, and the
 * lifecycle must work without any C++ on the caller's side. */
#include <autosched/regions/autosched_region.h>

#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                                    \
  do {                                                                                 \
    if (!(cond)) {                                                                     \
      snprintf(message, (size_t)size, "line %d: %s (last error: %s)", __LINE__, #cond, \
               autosched_region_last_error());                                         \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

int region_c_api_checks(char* message, int size) {
  autosched_region* r = NULL;
  autosched_region_scope s = {0};
  int v = -1, i;
  CHECK(autosched_region_create("c-region", 1, 4, 16, "dtree,depth=2,explore_after=0", &r) == AUTOSCHED_REGION_OK);
  CHECK(r != NULL);
  for (i = 0; i < 16; ++i) {
    CHECK(autosched_region_begin(r, &s) == AUTOSCHED_REGION_OK);
    CHECK(autosched_region_set_feature(&s, (double)(i % 4)) == AUTOSCHED_REGION_OK);
    CHECK(autosched_region_get_variant(&s, &v) == AUTOSCHED_REGION_OK);
    CHECK(autosched_region_end_with_metric(&s, v == i % 4 ? 1.0 : 10.0) == AUTOSCHED_REGION_OK);
  }
  for (i = 0; i < 8; ++i) {
    CHECK(autosched_region_begin(r, &s) == AUTOSCHED_REGION_OK);
    CHECK(autosched_region_set_feature(&s, (double)(i % 4)) == AUTOSCHED_REGION_OK);
    CHECK(autosched_region_get_variant(&s, &v) == AUTOSCHED_REGION_OK);
    CHECK(v == i % 4);
    CHECK(autosched_region_end(&s) == AUTOSCHED_REGION_OK);
  }
  CHECK(autosched_region_train(r) == AUTOSCHED_REGION_OK);

  /* Misuse: a status code and a message, never a crash. */
  CHECK(autosched_region_end(&s) == AUTOSCHED_REGION_ESTATE); /* already ended */
  CHECK(strstr(autosched_region_last_error(), "not live") != NULL);
  CHECK(autosched_region_begin(r, &s) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_begin(r, &s) == AUTOSCHED_REGION_ESTATE); /* still live */
  CHECK(autosched_region_get_variant(&s, &v) == AUTOSCHED_REGION_ESTATE); /* feature missing */
  CHECK(autosched_region_set_feature(&s, 0.0 / 0.0) == AUTOSCHED_REGION_EINVAL); /* NaN */
  CHECK(autosched_region_set_feature(&s, 1.0) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_set_feature(&s, 2.0) == AUTOSCHED_REGION_ESTATE); /* one too many */
  CHECK(strstr(autosched_region_last_error(), "declared features") != NULL);
  CHECK(autosched_region_end(&s) == AUTOSCHED_REGION_OK); /* nothing decided: nothing learned */
  CHECK(autosched_region_get_variant(NULL, &v) == AUTOSCHED_REGION_ESTATE);
  /* A region with a live scope is kept: the scope's end would write freed memory. */
  CHECK(autosched_region_begin(r, &s) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_destroy(r) == AUTOSCHED_REGION_ESTATE);
  CHECK(strstr(autosched_region_last_error(), "still live") != NULL);
  CHECK(autosched_region_set_feature(&s, 1.0) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_get_variant(&s, &v) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_end(&s) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_destroy(r) == AUTOSCHED_REGION_OK);
  CHECK(autosched_region_destroy(NULL) == AUTOSCHED_REGION_OK);

  CHECK(autosched_region_create("bad", 1, 0, 0, NULL, &r) == AUTOSCHED_REGION_EINVAL);
  CHECK(strstr(autosched_region_last_error(), "num_variants=0") != NULL);
  CHECK(autosched_region_create("bad", 1, 2, 0, "cart", &r) == AUTOSCHED_REGION_EINVAL);
  CHECK(strstr(autosched_region_last_error(), "cart") != NULL);
  CHECK(r == NULL);
  CHECK(autosched_region_create(NULL, 1, 2, 0, NULL, &r) == AUTOSCHED_REGION_EINVAL);
  return 0;
}

/* The C interface, compiled as C. Called from test_manager.cpp. */
#include <autosched/pinning/pinning.h>

#include <stddef.h>
#include <string.h>

/* 0 when every check passes, else the number of the failed check. */
int pinning_c_api_check(void) {
  autosched_pinning_manager* pm = NULL;
  autosched_pinning_thread* me = NULL;
  if (autosched_pinning_create("learn,bogus=1", &pm) != AUTOSCHED_PINNING_BAD_ARGUMENT) return 1;
  if (pm != NULL) return 2;
  if (strstr(autosched_pinning_last_error(), "bogus") == NULL) return 3;
  if (autosched_pinning_create("off", NULL) != AUTOSCHED_PINNING_BAD_ARGUMENT) return 4;
  if (autosched_pinning_create("off,period=0.01", &pm) != AUTOSCHED_PINNING_OK) return 5;
  if (autosched_pinning_start(pm) != AUTOSCHED_PINNING_OK) return 6;
  if (autosched_pinning_register_thread(pm, &me) != AUTOSCHED_PINNING_OK || me == NULL) return 7;
  autosched_pinning_heartbeat(me, 3);
  autosched_pinning_heartbeat(NULL, 1); /* ignored */
  if (autosched_pinning_unregister_thread(me) != AUTOSCHED_PINNING_OK) return 8;
  if (autosched_pinning_stop(pm) != AUTOSCHED_PINNING_OK) return 9;
  if (autosched_pinning_destroy(pm) != AUTOSCHED_PINNING_OK) return 10;
  if (autosched_pinning_start(NULL) != AUTOSCHED_PINNING_BAD_ARGUMENT) return 11;
  if (autosched_pinning_destroy(NULL) != AUTOSCHED_PINNING_OK) return 12;
  /* The message of the last failed call stays until another call fails, and
   * every interface reads the same one. */
  if (strstr(autosched_pinning_last_error(), "autosched_pinning_start: manager is NULL") == NULL) return 13;
  if (strcmp(autosched_last_error(), autosched_pinning_last_error()) != 0) return 14;
  if ((int)AUTOSCHED_PINNING_ERROR != (int)AUTOSCHED_EFAILED) return 15;
  if ((int)AUTOSCHED_PINNING_BAD_ARGUMENT != (int)AUTOSCHED_EINVAL) return 16;
  return 0;
}

#ifndef AUTOSCHED_PINNING_H
#define AUTOSCHED_PINNING_H
/* The pinning resource manager from C (docs/pinning.md). Every function
 * returns a status code of autosched/core/autosched_status.h; no C++ exception
 * crosses this interface. The text of the last failed call on the calling
 * thread is autosched_pinning_last_error() (the same as autosched_last_error()).
 *
 *   autosched_pinning_manager* pm;
 *   if (autosched_pinning_create(NULL, &pm) != AUTOSCHED_PINNING_OK) ...;   // AUTOSCHED_PINNING or defaults
 *   autosched_pinning_start(pm);
 *   // in each worker:
 *   autosched_pinning_thread* me;
 *   autosched_pinning_register_thread(pm, &me);
 *   for (...) { work(); autosched_pinning_heartbeat(me, 1); }
 *   autosched_pinning_unregister_thread(me);   // before the thread ends
 *   // at the end:
 *   autosched_pinning_destroy(pm);               // stops and joins
 */

#include <autosched/core/autosched_status.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct autosched_pinning_manager autosched_pinning_manager;
typedef struct autosched_pinning_thread autosched_pinning_thread;

/* The statuses of autosched/core/autosched_status.h under this interface's
 * names: BAD_ARGUMENT (AUTOSCHED_EINVAL) a null pointer or an invalid option
 * text; ERROR (AUTOSCHED_EFAILED, 3; it was 2 before the interfaces shared
 * their codes) anything else, the message says what. */
enum autosched_pinning_status {
  AUTOSCHED_PINNING_OK = AUTOSCHED_OK,
  AUTOSCHED_PINNING_BAD_ARGUMENT = AUTOSCHED_EINVAL,
  AUTOSCHED_PINNING_ERROR = AUTOSCHED_EFAILED
};

/* Creates a manager from an option text such as "learn,eps=0.05,period=0.1"
 * (the grammar of AUTOSCHED_PINNING); NULL: AUTOSCHED_PINNING if set, else the
 * defaults. Not started. */
int autosched_pinning_create(const char* options, autosched_pinning_manager** out);
int autosched_pinning_start(autosched_pinning_manager* manager);
int autosched_pinning_stop(autosched_pinning_manager* manager);
/* Stops the manager and frees it; NULL is accepted. Registered threads stay
 * valid handles and must still be unregistered. */
int autosched_pinning_destroy(autosched_pinning_manager* manager);

/* Registers the calling thread. */
int autosched_pinning_register_thread(autosched_pinning_manager* manager, autosched_pinning_thread** out);
/* Counts n units of progress of a registered thread (lock-free). */
void autosched_pinning_heartbeat(autosched_pinning_thread* thread, uint64_t n);
/* Unregisters and frees the handle; NULL is accepted. Call it before the
 * thread ends. */
int autosched_pinning_unregister_thread(autosched_pinning_thread* thread);

/* The message of the last failed call on this thread (to any autosched C
 * interface), "" when none. */
const char* autosched_pinning_last_error(void);

#ifdef __cplusplus
}
#endif

#endif

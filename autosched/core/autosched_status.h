/* The status codes every autosched C interface returns (loops, MPI loops,
 * regions, pinning), and what they mean. Valid C11 and C++. Every function of
 * those interfaces returns one of these and never aborts; the message of this
 * thread's last failed call is autosched_last_error() (the other interfaces'
 * *_last_error() functions return the same text).
 *
 * The older names of each interface (AUTOSCHED_MPI_EINVAL,
 * AUTOSCHED_REGION_ESTATE, AUTOSCHED_ENOTFOUND, AUTOSCHED_PINNING_ERROR, ...)
 * remain, as aliases of these, in that interface's header. */
#ifndef AUTOSCHED_STATUS_H
#define AUTOSCHED_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

enum autosched_status {
  AUTOSCHED_OK = 0,
  AUTOSCHED_EINVAL = 1,  /* a bad argument: NULL, an empty name, a schedule, option text or bounds the
                            library rejects (the message names it) */
  AUTOSCHED_ESTATE = 2,  /* a call out of order, or for something that does not exist yet: a chunk before
                            its loop started, a scope that has ended, the last instance of a loop that
                            has not finished one (the message names what was expected) */
  AUTOSCHED_EFAILED = 3, /* anything else (out of memory, I/O, MPI not initialised) */
  AUTOSCHED_EBODY = 4    /* the caller's own code failed and the loop stopped: a body threw (loops), or a
                            rank failed and the instance was aborted on every rank (MPI loops); the
                            message says which and why */
};

/* The message of this thread's last failed call to any autosched C
 * interface, "" when none has failed. Valid until this thread's next call. */
const char* autosched_last_error(void);

#ifdef __cplusplus
}
#endif

#endif

/* Status codes and per-thread error text.
 *
 * numgpu runs inside a long-lived, possibly multi-threaded Python process:
 * failures are returned as NgStatus and the message is kept per thread, so a
 * caller reads the text of its own last failure. The compiler log of a failed
 * kernel compile is kept beside it (it can be long). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <numgpu/numgpu.h>
#include "core/core.h"

static _Thread_local char last_message[1024];
static _Thread_local char *last_log; /* malloc'd; NULL when none */

const char *ng_error_message(void) { return last_message; }

const char *ng_error_log(void) { return last_log ? last_log : ""; }

NgStatus ng_error_set(NgStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    return st;
}

void ng_error_set_log(const char *log)
{
    free(last_log);
    last_log = log ? strdup(log) : NULL;
}

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

/* Cuts a message vsnprintf truncated back to whole UTF-8 characters (a compiler's quotes, a
 * file name: the binding decodes the text as UTF-8, and half a character failed the decoding). */
static void utf8_whole(char *s, size_t n)
{
    size_t j = n;
    while (j > 0 && ((unsigned char)s[j - 1] & 0xC0) == 0x80)
        j--;                                   /* back over continuation bytes to the lead byte */
    if (j == 0)
        return;
    unsigned char lead = (unsigned char)s[j - 1];
    size_t len = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (j - 1 + len > n)
        s[j - 1] = 0;
}

NgStatus ng_error_set(NgStatus st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(last_message, sizeof last_message, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof last_message)
        utf8_whole(last_message, sizeof last_message - 1);
    return st;
}

void ng_error_set_log(const char *log)
{
    free(last_log);
    last_log = log ? strdup(log) : NULL;
}

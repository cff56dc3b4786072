/* SPDX-License-Identifier: MIT */
#include "text.h"

#include <string.h>

int p2pb_text_is_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int len;
        if (*p < 0x20 || *p == 0x7f)
            return 0;
        if (*p < 0x80)
            len = 1;
        else if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
            len = 2;
        else if ((*p & 0xf0) == 0xe0)
            len = 3;
        else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
            len = 4;
        else
            return 0;
        for (int i = 1; i < len; i++)
            if ((p[i] & 0xc0) != 0x80)
                return 0;
        p += len;
    }
    return 1;
}

void p2pb_text_sanitize(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int len = 0;
        if (*p >= 0x20 && *p < 0x7f)
            len = 1;
        else if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
            len = 2;
        else if ((*p & 0xf0) == 0xe0)
            len = 3;
        else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
            len = 4;
        int ok = len > 0;
        for (int i = 1; ok && i < len; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (!ok) {
            *p++ = '?';
            continue;
        }
        p += len;
    }
}

int p2pb_text_list_has_empty(const char *list)
{
    size_t n = strlen(list);
    return n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,") != NULL;
}

/* SPDX-License-Identifier: MIT */
#include "text.h"

#include <string.h>

/* Length of the well-formed UTF-8 sequence at p (1..4 bytes; 1 for printable
 * ASCII), or 0 for a control character, a stray or overlong lead byte, or a
 * missing continuation byte (RFC 3629). */
static int utf8_len(const unsigned char *p)
{
    int len = 0;
    if (*p >= 0x20 && *p < 0x7f)
        return 1;
    if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
        len = 2;
    else if ((*p & 0xf0) == 0xe0)
        len = 3;
    else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
        len = 4;
    for (int i = 1; i < len; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return len;
}

int p2pb_text_is_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int len = utf8_len(p);
        if (!len)
            return 0;
        p += len;
    }
    return 1;
}

void p2pb_text_sanitize(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int len = utf8_len(p);
        if (!len)
            *p++ = '?';
        else
            p += len;
    }
}

int p2pb_text_list_has_empty(const char *list)
{
    size_t n = strlen(list);
    return n == 0 || list[0] == ',' || list[n - 1] == ',' || strstr(list, ",,") != NULL;
}

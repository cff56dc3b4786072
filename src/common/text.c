/* SPDX-License-Identifier: MIT */
#include "text.h"

#include <stdio.h>
#include <string.h>

/* 1 for the well-formed sequence p of len bytes when it encodes a control
 * that moves or hides text on a terminal: C1 controls U+0080-U+009F (NEL
 * among them), the line and paragraph separators U+2028/U+2029 and the
 * bidirectional marks and overrides U+200E/U+200F, U+202A-U+202E,
 * U+2066-U+2069 (Unicode 15, ch. 23.2; "Trojan Source", Boucher & Anderson
 * 2021). */
static int invisible_control(const unsigned char *p, int len)
{
    if (len == 2)
        return p[0] == 0xc2 && p[1] <= 0x9f;
    if (len != 3 || p[0] != 0xe2)
        return 0;
    if (p[1] == 0x80)
        return p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xa8 && p[2] <= 0xae);
    return p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9;
}

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
    return invisible_control(p, len) ? 0 : len;
}

void p2pb_text_write_json(FILE *o, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n, *from = p;
    while (p < end) {
        int len = *p == 0xc2 ? 2 : *p == 0xe2 ? 3 : 1;
        if (len > 1 && p + len <= end && (p[1] & 0xc0) == 0x80 &&
            (len == 2 || (p[2] & 0xc0) == 0x80) && invisible_control(p, len)) {
            unsigned cp = len == 2 ? p[1] : 0x2000u | ((p[1] & 0x3fu) << 6) | (p[2] & 0x3fu);
            fwrite(from, 1, (size_t)(p - from), o);
            fprintf(o, "\\u%04x", cp);
            p += len;
            from = p;
        } else
            p++;
    }
    fwrite(from, 1, (size_t)(p - from), o);
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

const char *p2pb_text_shown(char *buf, size_t len, const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    if (!len)
        return buf;
    snprintf(buf, len, "%.*s%s", (int)(n < max ? n : max), s ? s : "", n > max ? "..." : "");
    p2pb_text_sanitize(buf);
    return buf;
}

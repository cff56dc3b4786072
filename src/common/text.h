/* SPDX-License-Identifier: MIT */
/*
 * text.h - checks on text that comes from the command line or the
 * environment (labels, names, messages) before it goes into JSON or into a
 * one-line message. MPI-free; used by src/bench (options.c, preflight.c, run_record.c).
 */
#ifndef P2PBENCH_TEXT_H
#define P2PBENCH_TEXT_H

#include <stddef.h>
#include <stdio.h>

/*
 * 1 if the NUL-terminated s is UTF-8 (every lead byte 0xc2..0xf4 followed by
 * its continuation bytes 0x80..0xbf) without control characters (bytes below
 * 0x20 and 0x7f); else 0.
 */
int p2pb_text_is_clean(const char *s);

/*
 * In place: replace control characters (C0, DEL, C1, the line separators
 * and the bidirectional marks and overrides: text.c) and bytes that are not
 * valid UTF-8 by '?', one '?' per bad byte, so text from the command line or environment
 * can go into JSON and one-line messages. The length of s does not change.
 */
void p2pb_text_sanitize(char *s);

/*
 * n bytes of JSON text (cJSON's output) to o, with every control that moves
 * or hides text on a terminal (C1 U+0080-U+009F, U+2028/U+2029, the
 * bidirectional marks and overrides: text.c) written as a \uXXXX escape:
 * the same JSON value, shown safely. cJSON escapes C0 and DEL itself; these
 * sequences occur only inside JSON strings, so the text stays valid JSON.
 */
void p2pb_text_write_json(FILE *o, const char *s, size_t n);

/*
 * s as a message quotes it: its first max bytes (then "..."), sanitised
 * (p2pb_text_sanitize), into buf (len bytes, always terminated); "" for
 * NULL. Returns buf. For values from the command line echoed in an error,
 * so that the line stays one line and keeps its end.
 */
const char *p2pb_text_shown(char *buf, size_t len, const char *s, size_t max);

/*
 * 1 if the comma separated list has an empty element: it is empty, or has a
 * leading, trailing or doubled comma (strtok_r would skip it silently).
 */
int p2pb_text_list_has_empty(const char *list);

#endif /* P2PBENCH_TEXT_H */

#!/bin/sh
# SPDX-License-Identifier: MIT
# The options p2pbench-report's --help lists (generated from its option
# table, src/report/args.c) and the options table of docs/report.md are the
# same set of long options, with the same short letters; and each command's
# --help (its own option list, cmd_*.c) has the options the table's commands
# column gives it.
#   options_doc.sh P2PBENCH-REPORT SOURCE-DIR
set -eu
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$(dirname "$0")/../lib/driver.sh" # pass, fail, summary
bin=$1
doc=$2/docs/report.md
# "  -f, --format FMT   ..." and "      --vs   ..." lines after "Options:"
from_help=$("$bin" --help | sed -n '/^Options:/,/^$/p' |
    sed -n 's/^ \{2,6\}\(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\1\2/p' | sed 's/, / /' | sort)
# "| `-f, --format FMT` | ..." rows; "`-h, --help`, `-V, --version`" holds two
# shellcheck disable=SC2016 # backquotes of markdown, not a command substitution
from_doc=$(sed -n '/^| option | commands | meaning |/,/^$/p' "$doc" | cut -d'|' -f2 |
    grep -o '`[^`]*`' | tr -d '`' |
    sed -n 's/^\(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\).*/\1\2/p' | sed 's/, / /' | sort)
if [ "$from_help" = "$from_doc" ]; then
    pass "$(echo "$from_help" | wc -l) options in both"
else
    fail "p2pbench-report --help and docs/report.md's options table differ:"
    echo "$from_help" >/tmp/options_doc.$$.help
    echo "$from_doc" >/tmp/options_doc.$$.doc
    diff /tmp/options_doc.$$.help /tmp/options_doc.$$.doc || true
    rm -f /tmp/options_doc.$$.help /tmp/options_doc.$$.doc
fi
# The commands column: each command's --help lists exactly the options the
# column gives it ("all": every command).
commands=$("$bin" --help | sed -n '/^Commands:/,/^Options:/p' | sed -n 's/^  \([a-z][a-z]*\) .*/\1/p')
rows=$(sed -n '/^| option | commands | meaning |/,/^$/p' "$doc" | tail -n +3 | grep '^|')
for c in $commands; do
    have=$("$bin" "$c" --help | sed -n '/^Options:/,/^$/p' |
        sed -n 's/^ \{2,6\}\(-[A-Za-z], \)\{0,1\}--\([a-z-]*\).*/\2/p' | sort)
    want=$(echo "$rows" | awk -F'|' -v c="$c" '{
            n = split($3, cs, /,/); ok = 0
            for (i = 1; i <= n; i++) { gsub(/ /, "", cs[i]); if (cs[i] == c || cs[i] == "all") ok = 1 }
            if (ok) print $2 }' |
        grep -o -- '--[a-z-]*' | sed 's/^--//' | sort)
    if [ -n "$have" ] && [ "$have" = "$want" ]; then
        pass "$c: $(echo "$have" | wc -l) options, as docs/report.md's commands column says"
    else
        fail "$c --help and docs/report.md's commands column differ: help '$(echo "$have" | tr '\n' ' ')', doc '$(echo "$want" | tr '\n' ' ')'"
    fi
done
# The layout (issue 34): lines of at most 80 columns; an option's text from
# column 32 (after 31 columns), its wrapped lines indented to it, as getopt_long
# tools print theirs (help_layout, tests/lib/driver.sh)
for c in "" $commands; do
    # shellcheck disable=SC2086 # "" is the top-level --help
    bad=$("$bin" $c --help | help_layout 31 80)
    if [ -z "$bad" ]; then pass "${c:-top-level} --help: within 80 columns, aligned"; else
        fail "${c:-top-level} --help layout: $bad"
    fi
done
summary

#!/bin/sh
# SPDX-License-Identifier: MIT
# Extreme values in a results file (issue 35, items 1 and 2; the inputs are
# the fuzz corpus's, tests/data/fuzz/results/html-*.jsonl):
# - subnormal times (1e-310 usec) and a bytes_factor of 1e306 are refused by
#   the reader with the line number (they made html's grid loop forever and
#   fill the disk); show, compare and html all say so, and html leaves no file;
# - times of 1e-300 usec (600 decades of y axis) give a bounded page with at
#   most 13 labels per y axis;
# - a chart whose only size above 0 is 1 byte labels its x axis 1, 2, 4
#   (it evaluated (size_t)1 << -1: "8E");
# - a failing html (its write refused by a file-size limit) and an html killed
#   by SIGTERM or SIGINT (held by the build's test seam before its rename)
#   leave no FILE.html.XXXXXX, and the previous page stays as it was.
#   html_extreme.sh P2PBENCH-REPORT SOURCE-DIR WORK-DIR SEAMS(0|1)
set -u
# shellcheck source=SCRIPTDIR/../lib/driver.sh
. "$2/tests/lib/driver.sh"
bin=$1 corpus=$2/tests/data/fuzz/results work=$3 seams=${4:-0}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# no_tmp WHAT: no temporary page is left in the work directory
no_tmp() {
    if ls ./*.html.?????? >/dev/null 2>&1; then
        fail "$1: temporary file left: $(ls ./*.html.??????)"
    else
        pass "$1: no temporary file"
    fi
}

# refused FILE LINE FIELD WORDS: each verb exits 1 naming FILE:LINE and FIELD
refused() {
    for verb in show compare html; do
        case $verb in
        html) expect_status 1 timeout 30 "$bin" html "$corpus/$1" -o refused.html ;;
        compare) expect_status 1 timeout 30 "$bin" compare "$corpus/$1" --vs "$corpus/html-one-byte.jsonl" ;;
        show) expect_status 1 timeout 30 "$bin" show "$corpus/$1" ;;
        esac
        grep -qF "$1:$2: field \"$3\" $4" err.txt ||
            fail "$verb $1: no '$1:$2: field \"$3\" $4' in: $(cat err.txt)"
    done
    [ ! -e refused.html ] || fail "html $1 wrote a page"
    no_tmp "html $1"
}
refused html-subnormal-times.jsonl 4 t_usec.min "is too small: not a normal number (1e-310)"
refused html-bytes-factor-1e306.jsonl 4 bytes_factor "(1e+306) over 66.1341 usec is not a finite rate"

# ticks FILE: the tick labels of the page, one per line
ticks() { grep -o 'class="tick">[^<]*' "$1" | sed 's/.*>//'; }

expect_status 0 timeout 30 "$bin" html "$corpus/html-times-1e-300.jsonl" -o tiny.html
size=$(wc -c <tiny.html)
[ "$size" -lt 200000 ] || fail "1e-300 usec: a page of $size bytes"
# the latency chart: y from 1e-300 to 1e+03 in steps of 28 decades (12 steps)
n=$(ticks tiny.html | grep -c 'e-')
if [ "$n" -lt 10 ] || [ "$n" -gt 26 ]; then fail "1e-300 usec: $n labels below 1 (want 10..26 over two charts)"; fi
ticks tiny.html | grep -qx '1e-300' || fail "1e-300 usec: no 1e-300 label: $(ticks tiny.html | tr '\n' ' ')"
no_tmp "1e-300 usec"

expect_status 0 timeout 30 "$bin" html "$corpus/html-one-byte.jsonl" -o one.html
# the x labels of both charts: 1, 2, 4 bytes; nothing at 2^-1 or 2^63
x=$(grep -o 'y="[0-9.]*" text-anchor="middle" class="tick">[^<]*' one.html | sed 's/.*>//' | sort | uniq -c |
    awk '{ printf "%s:%s ", $2, $1 }')
[ "$x" = "1:2 2:2 4:2 " ] || fail "1-byte chart: x labels '$x' (want 1, 2 and 4 on both charts)"
grep -q '>8E<' one.html && fail "1-byte chart: a tick labelled 8E"
pass "1-byte chart"

# a failing write: a file-size limit of 4 KiB (SIGXFSZ ignored: write fails)
# leaves the page of before as it was and no temporary file
cp one.html old.html
sum=$(md5sum <old.html)
got=0
(trap '' XFSZ; ulimit -f 8; exec "$bin" html "$corpus/html-times-1e-300.jsonl" -o old.html) \
    >out.txt 2>err.txt || got=$?
[ "$got" = 1 ] || fail "failing html: exit $got (want 1): $(cat err.txt)"
grep -q "cannot write 'old.html'" err.txt || fail "failing html: $(cat err.txt)"
[ "$(md5sum <old.html)" = "$sum" ] || fail "failing html changed the page of before"
no_tmp "failing html"

# a signal while the temporary file exists (the build's seam holds it there)
if [ "$seams" != 1 ]; then
    say "signals: not tried (the build has no test seams: P2PB_TEST_SEAMS=OFF)"
else
    for sig in TERM INT; do
        P2PB_TEST_FAULT=html-stall env --default-signal=INT \
            "$bin" html "$corpus/html-one-byte.jsonl" -o old.html >out.txt 2>err.txt &
        pid=$!
        i=0
        while ! ls ./old.html.?????? >/dev/null 2>&1 && [ $i -lt 300 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        [ $i -lt 300 ] || fail "SIG$sig: no temporary file within 30 s"
        kill -s "$sig" "$pid"
        got=0
        wait "$pid" || got=$?
        case $sig in TERM) want=143 ;; INT) want=130 ;; esac
        [ "$got" = "$want" ] || fail "SIG$sig: exit $got (want $want)"
        [ "$(md5sum <old.html)" = "$sum" ] || fail "SIG$sig changed the page of before"
        no_tmp "html killed by SIG$sig"
    done
fi
summary

# SPDX-License-Identifier: MIT
# Where the eager-limit labels of a chart sit, from the SVG's coordinates:
# each label must lie above its plot frame (its box ends at least CLEAR px
# above the frame's top, so no data line, marker or ring can reach it) and
# its box must not meet the box of any other text (title, tick labels, axis
# labels, the other label) of its chart (gnuplot: of the whole image). Boxes are estimated from the font size: from
# 0.8 em above the baseline to 0.25 em below it, 0.62 em per character,
# placed by text-anchor (generous for the fonts used).
#   awk -v fmt=html -f svg_labels.awk PAGE.html   (the html report's charts)
#   awk -v fmt=gnuplot -f svg_labels.awk PLOT.svg (gnuplot's svg terminal)
# Prints "labels N" and one line per violation.
BEGIN { CLEAR = 10; nt = 0; nl = 0; chart = 0 }

function attr(s, a) {
    if (match(s, " " a "=\"[^\"]*\""))
        return substr(s, RSTART + length(a) + 3, RLENGTH - length(a) - 4)
    return ""
}
function content(s) {
    gsub(/<[^>]*>/, "", s)
    gsub(/^[ \t]+|[ \t]+$/, "", s)
    return s
}
# add a text: chart, x, y (baseline), anchor, font size, text; frame of its chart
function add(c, x, y, anchor, fs, t, w) {
    nt++
    w = 0.62 * fs * length(t)
    tc[nt] = c; tt[nt] = t; ty0[nt] = y - 0.8 * fs; ty1[nt] = y + 0.25 * fs
    tx0[nt] = anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x
    tx1[nt] = tx0[nt] + w
    label[nt] = t ~ /^eager limit /
    ftop[nt] = top[c]; fleft[nt] = left[c]; fright[nt] = right[c]
}

# html: one chart per <svg viewBox="0 0 540 320"; class gives the font size
fmt == "html" && /<svg viewBox="0 0 540 320"/ { chart++; next }
fmt == "html" && /class="frame"/ {
    left[chart] = attr($0, "x") + 0; top[chart] = attr($0, "y") + 0; right[chart] = left[chart] + attr($0, "width")
}
fmt == "html" && /<text x=/ {
    cls = attr($0, "class")
    fs = cls == "ctitle" ? 14 : cls == "alabel" ? 12 : 11
    add(chart, attr($0, "x") + 0, attr($0, "y") + 0, attr($0, "text-anchor"), fs, content($0))
}

# gnuplot: the frame is the closed border path "M x1,y1 L x1,y2 L x2,y2 L x2,y1 L x1,y1 Z";
# a text is <g transform="translate(x,y)" ... font-size= text-anchor=> then <text>
fmt == "gnuplot" && /d='M[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ L[0-9.]+,[0-9.]+ Z/ {
    d = $0; sub(/^.*d='M/, "", d); sub(/ Z.*$/, "", d); gsub(/ L/, ",", d)
    n = split(d, v, ",")
    if (n == 10 && v[1] == v[3] && v[4] == v[6] && v[5] == v[7] && v[8] == v[2]) {
        chart++
        left[chart] = v[1] + 0; right[chart] = v[5] + 0; top[chart] = v[2] + 0 < v[4] + 0 ? v[2] + 0 : v[4] + 0
    }
}
fmt == "gnuplot" && /<g transform="translate\(/ && !/rotate/ {
    g = $0; sub(/^.*translate\(/, "", g); sub(/\).*$/, "", g); split(g, xy, ",")
    gx = xy[1]; gy = xy[2]; ga = attr($0, "text-anchor"); gfs = attr($0, "font-size"); pending = 1
    if ($0 !~ /<text>/) next
}
fmt == "gnuplot" && pending && /<text>/ {
    pending = 0
    add(chart, gx + 0, gy + 0, ga, gfs + 0, content($0))
}

END {
    for (i = 1; i <= nt; i++) {
        if (!label[i])
            continue
        nl++
        if (ftop[i] == "" || ty1[i] > ftop[i] - CLEAR)
            printf "'%s' (box y %.1f..%.1f) reaches into the plot area (frame top %s, %d px clearance wanted)\n", tt[i], ty0[i], ty1[i], ftop[i], CLEAR
        if (tx0[i] < fleft[i] || tx1[i] > fright[i] + 40)
            printf "'%s' (box x %.1f..%.1f) beside the frame (x %s..%s)\n", tt[i], tx0[i], tx1[i], fleft[i], fright[i]
        for (j = 1; j <= nt; j++)
            if (j != i && (fmt == "gnuplot" || tc[j] == tc[i]) && tx0[i] < tx1[j] && tx0[j] < tx1[i] && ty0[i] < ty1[j] && ty0[j] < ty1[i])
                printf "'%s' (box %.1f,%.1f..%.1f,%.1f) overlaps '%s' (box %.1f,%.1f..%.1f,%.1f)\n", tt[i], tx0[i], ty0[i], tx1[i], ty1[i], tt[j], tx0[j], ty0[j], tx1[j], ty1[j]
    }
    printf "labels %d\n", nl
}

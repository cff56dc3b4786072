#!/bin/sh
# SPDX-License-Identifier: MIT
# Write N synthetic launch files whose truth is known, for compare tests.
#   gen_launches.sh DIR PREFIX LABEL N FACTOR [NOISE_OFFSET]
# Launch i (1..N) of kernel k at size X has t_usec.median =
#   base(X) * FACTOR * (1 + 0.004 * ((i + NOISE_OFFSET) % 5))
# i.e. at most 1.6% spread between launches; base(X) = 1 + X / 1000 usec.
# Environment: GEN_KREL (kernel release, default 6.1.0), GEN_MEM (memory bytes,
# default 4294967296), GEN_THP (host knob knobs.thp_enabled; unset: no knobs recorded), GEN_END (end status, default complete; "none" = no end record).
# GEN_RUN (JSON members added to the run record, e.g. '"link_profile":"wan","warnings":["..."]'),
# GEN_HOST (JSON members added to host h0, e.g. '"hypervisor":{...}'),
# GEN_END_X (JSON members added to the end record, e.g. '"load":[...]').
# GEN_MINUTE (default 0): the minute of every start_utc (2026-01-01T00:MM:SSZ,
#   SS = i), so that launches of separate calls are distinct launches.
# GEN_DIST="BYTES:COUNT:STEAL:LOST ...": at size BYTES the first COUNT launches
#   carry a disturbance with steal_pct STEAL and cpu_lost_pct LOST (every kernel).
# Campaign position (the run record's "campaign" object):
#   GEN_SIDE=A|B, GEN_POS="p1 p2 ...": launch i ran at position p_i (1 or 2) of round i,
#   seed GEN_SEED (default 1), index 2 (i - 1) + p_i; GEN_POS_FACTOR (default 1)
#   multiplies every value of a launch at position 2.
#   Without GEN_POS, P2PB_CAMPAIGN_* (set by scripts/campaign.sh) are recorded as
#   p2pbench records them (for tests/report/fake_launch.sh).
set -eu
dir=$1 prefix=$2 label=$3 n=$4 factor=$5 off=${6:-0}
krel=${GEN_KREL:-6.1.0} mem=${GEN_MEM:-4294967296} thp=${GEN_THP:-} end=${GEN_END:-complete}
runx=${GEN_RUN:-} hostx=${GEN_HOST:-} dist=${GEN_DIST:-} minute=${GEN_MINUTE:-0} endx=${GEN_END_X:-}
pos=${GEN_POS:-} side=${GEN_SIDE:-A} seed=${GEN_SEED:-1} posf=${GEN_POS_FACTOR:-1}
if [ -z "$pos" ] && [ -n "${P2PB_CAMPAIGN_SEED:-}" ]; then
    pos=$P2PB_CAMPAIGN_POSITION side=$P2PB_CAMPAIGN_SIDE seed=$P2PB_CAMPAIGN_SEED
    round=$P2PB_CAMPAIGN_ROUND
fi
mkdir -p "$dir"
i=1
while [ "$i" -le "$n" ]; do
    f=$(printf '%s/%s-%02d.jsonl' "$dir" "$prefix" "$i")
    awk -v label="$label" -v i="$i" -v factor="$factor" -v off="$off" -v krel="$krel" \
        -v mem="$mem" -v thp="$thp" -v end="$end" -v pos="$pos" -v side="$side" -v seed="$seed" \
        -v posf="$posf" -v round="${round:-}" -v runx="$runx" -v hostx="$hostx" -v dist="$dist" -v minute="$minute" -v endx="$endx" 'BEGIN {
        nd = split(dist, ds, " ")
        for (j = 1; j <= nd; j++) { split(ds[j], dd, ":"); dcount[dd[1]] = dd[2]; dsteal[dd[1]] = dd[3]; dlost[dd[1]] = dd[4] }
        if (runx != "") runx = "," runx
        if (hostx != "") hostx = "," hostx
        if (endx != "") endx = "," endx
        camp = ""
        knobs = (thp != "") ? sprintf(",\"knobs\":{\"thp_enabled\":\"%s\",\"numa_balancing\":\"0\"}", thp) : ""
        if (pos != "") {
            split(pos, ps, " ")
            p = ps[i]; r = (round != "") ? round : i
            camp = sprintf("\"campaign\":{\"seed\":%d,\"round\":%d,\"position\":%d,\"index\":%d,\"side\":\"%s\"},", seed, r, p, 2 * (r - 1) + p, side)
        }
        printf "{\"type\":\"run\",\"schema\":\"p2pbench/1\",\"source\":\"p2pbench\",\"version\":\"0.1.0\",\"git_commit\":\"synthetic\",\"command_line\":\"synthetic\",\"label\":\"%s\",%s\"start_utc\":\"2026-01-01T00:%02d:%02dZ\",\"mpi_library\":\"Open MPI v4.1.4\",\"nranks\":2,\"ranks\":[{\"rank\":0,\"host\":\"h0\",\"binding\":\"0\"},{\"rank\":1,\"host\":\"h0\",\"binding\":\"1\"}],\"hosts\":{\"h0\":{\"host\":\"h0\",\"kernel_release\":\"%s\",\"cpu_model\":\"Synthetic CPU\",\"memory_bytes\":%s%s%s}},\"policy\":{\"mode\":\"adaptive\"}%s}\n", label, camp, minute, i, krel, mem, knobs, hostx, runx
        nk = split("pingpong:PingPong:1 sendrecv:Sendrecv:2", ks, " ")
        ns = split("0 1024 65536 1048576", sz, " ")
        noise = 1 + 0.004 * ((i + off) % 5)
        if (camp != "" && p == 2) noise *= posf
        for (k = 1; k <= nk; k++) {
            split(ks[k], kk, ":")
            for (s = 1; s <= ns; s++) {
                x = sz[s]
                t = (1 + x / 1000) * factor * noise
                mb = (x > 0) ? kk[3] * x / t : 0
                dj = (x in dcount && i <= dcount[x]) ? sprintf(",\"disturbance\":{\"steal_pct\":%s,\"invol_ctxsw\":3,\"cpu_lost_pct\":%s,\"migrations\":0,\"worst_rank\":1}", dsteal[x], dlost[x]) : ""
                printf "{\"type\":\"result\",\"kernel\":\"%s\",\"display_name\":\"%s\",\"bytes\":%d,\"nranks\":2,\"active_ranks\":2,\"imb_layout\":\"t\",\"bytes_factor\":%d,\"time_scale\":%s,\"status\":\"ok\",\"samples\":20,\"iterations_per_sample\":1,\"t_usec\":{\"min\":%.6f,\"p25\":%.6f,\"median\":%.6f,\"p75\":%.6f,\"p99\":%.6f,\"max\":%.6f,\"mean\":%.6f,\"stddev\":0.01,\"ci95_low\":%.6f,\"ci95_high\":%.6f},\"t_min_usec\":%.6f,\"t_max_usec\":%.6f,\"t_avg_usec\":%.6f,\"mbytes_per_sec\":%.6f,\"mbytes_per_sec_imb\":%.6f,\"outliers\":0%s}\n", kk[1], kk[2], x, kk[3], (kk[1] == "pingpong" ? "0.5" : "1"), t*0.99, t*0.995, t, t*1.005, t*1.02, t*1.03, t, t*0.995, t*1.005, t, t, t, mb, mb, dj
            }
        }
        if (end != "none")
            printf "{\"type\":\"end\",\"status\":\"%s\",\"wall_sec\":1.5%s}\n", end, endx
    }' > "$f"
    i=$((i + 1))
done

#!/bin/sh
# SPDX-License-Identifier: MIT
# Write N synthetic launch files whose truth is known, for compare tests.
#   gen_launches.sh DIR PREFIX LABEL N FACTOR [NOISE_OFFSET]
# Launch i (1..N) of kernel k at size X has t_usec.median =
#   base(X) * FACTOR * (1 + 0.004 * ((i + NOISE_OFFSET) % 5))
# i.e. at most 1.6% spread between launches; base(X) = 1 + X / 1000 usec.
# Environment: GEN_KREL (kernel release, default 6.1.0), GEN_MEM (memory bytes,
# default 4294967296), GEN_END (end status, default complete; "none" = no end record).
set -eu
dir=$1 prefix=$2 label=$3 n=$4 factor=$5 off=${6:-0}
krel=${GEN_KREL:-6.1.0} mem=${GEN_MEM:-4294967296} end=${GEN_END:-complete}
mkdir -p "$dir"
i=1
while [ "$i" -le "$n" ]; do
    f=$(printf '%s/%s-%02d.jsonl' "$dir" "$prefix" "$i")
    awk -v label="$label" -v i="$i" -v factor="$factor" -v off="$off" -v krel="$krel" \
        -v mem="$mem" -v end="$end" 'BEGIN {
        printf "{\"type\":\"run\",\"schema\":\"p2pbench/1\",\"source\":\"p2pbench\",\"version\":\"0.1.0\",\"git_commit\":\"synthetic\",\"command_line\":\"synthetic\",\"label\":\"%s\",\"start_utc\":\"2026-01-01T00:00:%02dZ\",\"mpi_library\":\"Open MPI v4.1.4\",\"nranks\":2,\"ranks\":[{\"rank\":0,\"host\":\"h0\",\"binding\":\"0\"},{\"rank\":1,\"host\":\"h0\",\"binding\":\"1\"}],\"hosts\":{\"h0\":{\"host\":\"h0\",\"kernel_release\":\"%s\",\"cpu_model\":\"Synthetic CPU\",\"memory_bytes\":%s}},\"policy\":{\"mode\":\"adaptive\"}}\n", label, i, krel, mem
        nk = split("pingpong:PingPong:1 sendrecv:Sendrecv:2", ks, " ")
        ns = split("0 1024 65536 1048576", sz, " ")
        noise = 1 + 0.004 * ((i + off) % 5)
        for (k = 1; k <= nk; k++) {
            split(ks[k], kk, ":")
            for (s = 1; s <= ns; s++) {
                x = sz[s]
                t = (1 + x / 1000) * factor * noise
                mb = (x > 0) ? kk[3] * x / t : 0
                printf "{\"type\":\"result\",\"kernel\":\"%s\",\"display_name\":\"%s\",\"bytes\":%d,\"nranks\":2,\"active_ranks\":2,\"imb_layout\":\"t\",\"bytes_factor\":%d,\"time_scale\":%s,\"status\":\"ok\",\"samples\":20,\"iterations_per_sample\":1,\"t_usec\":{\"min\":%.6f,\"p25\":%.6f,\"median\":%.6f,\"p75\":%.6f,\"p99\":%.6f,\"max\":%.6f,\"mean\":%.6f,\"stddev\":0.01,\"ci95_low\":%.6f,\"ci95_high\":%.6f},\"t_min_usec\":%.6f,\"t_max_usec\":%.6f,\"t_avg_usec\":%.6f,\"mbytes_per_sec\":%.6f,\"mbytes_per_sec_imb\":%.6f,\"outliers\":0}\n", kk[1], kk[2], x, kk[3], (kk[1] == "pingpong" ? "0.5" : "1"), t*0.99, t*0.995, t, t*1.005, t*1.02, t*1.03, t, t*0.995, t*1.005, t, t, t, mb, mb
            }
        }
        if (end != "none")
            printf "{\"type\":\"end\",\"status\":\"%s\",\"wall_sec\":1.5}\n", end
    }' > "$f"
    i=$((i + 1))
done

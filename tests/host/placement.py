#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""placement.py: where the ranks ran, one line per rank, "RANK HOST PUS BOUND",
so that tests/host/mpi_host.sh can compare p2pbench's account of its placement
with the truth seen by a probe launched the same way.

  placement.py probe DIR NP ALL   the probe's files DIR/probe.0 .. probe.NP-1,
                                  each "HOST CPUS_ALLOWED_LIST" (written by the
                                  probe script of mpi_host.sh); ALL is the PU
                                  list the ranks may use (the test shell's own)
  placement.py info FILE          the "ranks" of p2pbench --info (JSON)
  placement.py disjoint FILE      exit 0 if the PUS of FILE's lines (as
                                  printed above) are pairwise disjoint, else 1

PUS is a PU list in the kernel's and hwloc's list form ("0-1,4"), rewritten
in one canonical form. BOUND is "true" when PUS leaves out some PU of ALL, as
p2pbench defines "bound" (src/bench/host/hostinfo.c), else "false".
Exit 0, or 1 with a one-line message on stderr (a rank missing, a bad list).
"""
import json
import os
import sys


def parse_list(text):
    """'0-2,5' -> {0, 1, 2, 5}; ValueError on anything else."""
    pus = set()
    for part in text.strip().split(','):
        lo, _, hi = part.partition('-')
        lo_n, hi_n = int(lo), int(hi) if hi else int(lo)
        if lo_n < 0 or hi_n < lo_n:
            raise ValueError(part)
        pus.update(range(lo_n, hi_n + 1))
    return pus


def canon(pus):
    """{0, 1, 2, 5} -> '0-2,5'."""
    out, run = [], None
    for p in sorted(pus):
        if run and p == run[1] + 1:
            run[1] = p
        else:
            run = [p, p]
            out.append(run)
    return ','.join(str(a) if a == b else '%d-%d' % (a, b) for a, b in out)


def probe(directory, nranks, all_list):
    everything = parse_list(all_list)
    for r in range(nranks):
        path = os.path.join(directory, 'probe.%d' % r)
        try:
            with open(path, encoding='utf-8') as f:
                host, pus = f.read().split()
        except (OSError, ValueError):
            sys.exit('placement.py: no "HOST PUS" line in %s' % path)
        s = parse_list(pus)
        print(r, host, canon(s), 'true' if not everything <= s else 'false')


def info(path):
    with open(path, encoding='utf-8') as f:
        doc = json.load(f)
    for rk in doc['ranks']:
        b = rk.get('binding')
        pus = canon(parse_list(b)) if b else 'none'
        print(rk['rank'], rk['host'], pus, json.dumps(rk.get('bound')))


def disjoint(path):
    seen = set()
    with open(path, encoding='utf-8') as f:
        for line in f:
            pus = parse_list(line.split()[2])
            if pus & seen:
                sys.exit(1)
            seen |= pus


def main(argv):
    try:
        if len(argv) == 5 and argv[1] == 'probe':
            probe(argv[2], int(argv[3]), argv[4])
        elif len(argv) == 3 and argv[1] == 'info':
            info(argv[2])
        elif len(argv) == 3 and argv[1] == 'disjoint':
            disjoint(argv[2])
        else:
            sys.exit('usage: placement.py probe DIR NP ALL | info FILE | disjoint FILE')
    except (ValueError, KeyError, TypeError, OSError) as e:
        sys.exit('placement.py: %s: %s' % (type(e).__name__, e))


if __name__ == '__main__':
    main(sys.argv)

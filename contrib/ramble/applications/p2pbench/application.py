# SPDX-License-Identifier: MIT
"""Ramble application definition for p2pbench (docs/frameworks.md, "Ramble").

One workload per kernel (`p2pbench --list`), each running one executable:
`{p2pbench_bin} KERNEL --sizes {sizes} --format {p2pbench_format} -o {experiment_run_dir}/results.jsonl
{p2pbench_flags}` under Ramble's MPI command, with standard output and standard error in
the experiment's log (p2pbench prints its closing line on standard error in every format
but text).

Figures of merit, one per table row (kernel, variant, message size) and metric, from the
`text` (default) or `csv` format: the median time, the two bounds of its 95% interval,
p99 and min (usec, time), the rate (MB/s, 10^6 bytes/s, throughput) and the sample count.
Text tables are named by their title line (context `table`, e.g. `PingPong`,
`Uniband 0->1`) and a figure by the size and metric (`1024 bytes t_median`); a csv
figure's name holds kernel and variant too (`uniband[0->1] 1024 bytes t_median`,
`pingpong[] 1024 bytes t_median`).
An interval bound p2pbench could not give reads `-` (too few samples) or `unbounded`.
Success: p2pbench's closing line naming the results file and the run time, which a run
that failed or measured nothing does not print (it says `run ABORTED`, `run FAILED` or
`nothing measured` instead).

The regular expressions are module constants, so that tests/frameworks/ramble_regex.py
can check them against real p2pbench output without Ramble.
"""

from ramble.appkit import *  # noqa: F401,F403 (Ramble's application language)

#: Kernels, as `p2pbench --list` names them: one workload each.
KERNELS = ('pingpong', 'pingping', 'sendrecv', 'exchange', 'uniband', 'oneway', 'biband',
           'multi-pingpong', 'multi-uniband', 'memcpy', 'tcp-pingpong', 'tcp-uniband',
           'noise', 'msgrate', 'put_latency', 'get_latency', 'put_bw', 'get_bw', 'put_bibw',
           'get_bibw', 'overlap', 'persistent-pingpong', 'partitioned-pingpong')
#: The stdout formats (p2pbench --format) whose rows the figures of merit read.
FORMATS = ('text', 'csv')

# A number as p2pbench's text tables print it (fixed point, docs/output-format.md), and
# as its csv prints it (%.9g: fixed or with an exponent).
_FIXED = r'-?[0-9]+(?:\.[0-9]+)?'
_G = r'-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?'
# A csv text field (RFC 4180: quoted with "" for a quote, or bare).
_FIELD = r'(?:"(?:[^"]|"")*"|[^,"]*)'

#: text: the title line of a table, e.g. `# PingPong: 2 ranks; t = half round trip; ...`
#: or `# Multi-PingPong pair 0-1: 2 of 4 ranks take part, ...`.
TEXT_TABLE = (r'^# (?P<table>[A-Za-z][^:]*): '
              r'(?:[0-9]+ ranks?;|[0-9]+ of [0-9]+ ranks take part)')
#: text: a row: bytes, n (with its marks * d s c f), k, t_median, ci95_lo, ci95_hi, p99, min,
#: MB/s, then the columns some kernels add: msgs/s (kernels with a message rate) and asym
#: (the second direction of a directional kernel), read as numbers but not as figures
#: (which of the two a lone one is depends on the kernel); where the row has a bound its
#: %bound (with "exceeds bound" above 105%); on the overlap kernel's overlap rows its
#: overlap[%] (or "undefined").
TEXT_ROW = (r'^ *(?P<bytes>[0-9]+) +(?P<samples>[0-9]+)(?P<marks>[*dscf]*) +(?P<batch>[0-9]+) +'
            rf'(?P<t_median>{_FIXED}) +(?P<ci95_low>{_FIXED}|unbounded|-) +'
            rf'(?P<ci95_high>{_FIXED}|unbounded|-) +(?P<p99>{_FIXED}) +(?P<t_min>{_FIXED}) +'
            rf'(?P<mbytes_per_sec>{_FIXED}|-)(?: +(?:{_FIXED}|-)){{0,2}}'
            rf'(?: +(?P<bound_pct>{_FIXED})%(?: exceeds bound)?)?'
            rf'(?: +(?P<overlap_pct>{_FIXED}|undefined))? *$')
#: csv: a row with status ok (rows that are not ok carry no numbers); its columns in
#: the order of docs/output-format.md, "CSV".
CSV_ROW = (rf'^p2pbench/[0-9]+,(?P<label>{_FIELD}),(?P<kernel>{_FIELD}),'
           rf'(?P<variant>{_FIELD}),(?P<bytes>[0-9]+),(?P<nranks>[0-9]+),'
           r'(?P<active_ranks>[0-9]+),ok,(?P<samples>[0-9]+),(?P<batch>[0-9]+),'
           rf'(?P<repetitions>[0-9]+),(?P<t_median>{_G}),(?P<ci95_low>{_G}|),'
           rf'(?P<ci95_high>{_G}|),(?P<t_min>{_G}),(?P<t_p25>{_G}),(?P<t_p75>{_G}),'
           rf'(?P<p99>{_G}),(?P<t_max>{_G}),(?P<t_mean>{_G}),(?P<t_stddev>{_G}|),'
           rf'(?P<outliers>[0-9]*),(?:{_G})?,(?:{_G})?,(?:{_G})?,'
           rf'(?P<mbytes_per_sec>{_G}|),.*$')
#: The closing line of a run that finished: `# results file: F (run time 0.7 s)` (text,
#: on stdout) or `p2pbench: results file: F (run time 0.7 s)` (other formats, stderr).
CLOSING_LINE = r'^(?:# |p2pbench: )results file: .+ \(run time [0-9]+\.[0-9] s\) *$'

#: Figures of merit per row: (metric, regex group, units, FomType name).
ROW_FOMS = (
    ('t_median', 't_median', 'usec', 'TIME'),
    ('t_ci95_low', 'ci95_low', 'usec', 'TIME'),
    ('t_ci95_high', 'ci95_high', 'usec', 'TIME'),
    ('t_p99', 'p99', 'usec', 'TIME'),
    ('t_min', 't_min', 'usec', 'TIME'),
    ('mbytes_per_sec', 'mbytes_per_sec', 'MB/s', 'THROUGHPUT'),
    ('samples', 'samples', 'samples', 'MEASURE'),
)
#: Per format: (context name, context regex, context output format, row regex, figure
#: name prefix). Figure names must differ between formats (Ramble keys figures by name).
FORMAT_RULES = {
    'text': ('table', TEXT_TABLE, '{table}', TEXT_ROW, '{bytes} bytes '),
    'csv': (None, None, None, CSV_ROW, '{kernel}[{variant}] {bytes} bytes '),
}


class P2pbench(ExecutableApplication):  # noqa: F405
    """MPI point-to-point benchmarks with statistics per message size (median, 95%
    interval, p99, MB/s) and the host context in a JSON Lines results file."""

    name = 'p2pbench'

    tags('mpi', 'benchmark', 'network', 'point-to-point', 'latency', 'bandwidth')  # noqa: F405

    for _kernel in KERNELS:
        executable(f'run-{_kernel}',  # noqa: F405
                   '{p2pbench_bin} ' + _kernel + ' --sizes {sizes} --format {p2pbench_format} '
                   '-o {experiment_run_dir}/results.jsonl {p2pbench_flags}',
                   use_mpi=True, output_capture=OUTPUT_CAPTURE.ALL)  # noqa: F405
        workload(_kernel, executables=[f'run-{_kernel}'])  # noqa: F405

    workload_variable('p2pbench_bin', default='p2pbench',  # noqa: F405
                      description='p2pbench to run (a path, or a name on PATH; under a '
                                  'package manager, bin/p2pbench of its install prefix)',
                      workloads=list(KERNELS))
    workload_variable('sizes', default='0,1K,64K,1M',  # noqa: F405
                      description='message sizes in bytes (p2pbench --sizes: 0,8,1K,1M or '
                                  '1K..1M)', workloads=list(KERNELS))
    workload_variable('p2pbench_format', default='text', values=list(FORMATS),  # noqa: F405
                      description='stdout format the figures of merit are read from',
                      workloads=list(KERNELS))
    workload_variable('p2pbench_flags', default='',  # noqa: F405
                      description='more p2pbench options, e.g. --rounds 10 --label native',
                      workloads=list(KERNELS))

    for _fmt in FORMATS:
        _context, _context_re, _context_name, _row_re, _prefix = FORMAT_RULES[_fmt]
        if _context:
            figure_of_merit_context(_context, regex=_context_re,  # noqa: F405
                                    output_format=_context_name)
        for _metric, _group, _units, _type in ROW_FOMS:
            figure_of_merit(_prefix + _metric, fom_regex=_row_re,  # noqa: F405
                            group_name=_group, units=_units,
                            contexts=[_context] if _context else [],
                            fom_type=getattr(FomType, _type))  # noqa: F405

    success_criteria('p2pbench-finished', mode='string', match=CLOSING_LINE,  # noqa: F405
                     file='{log_file}')

    del _kernel, _fmt, _context, _context_re, _context_name, _row_re, _prefix
    del _metric, _group, _units, _type

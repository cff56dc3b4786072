# SPDX-License-Identifier: MIT
"""ReFrame tests for p2pbench (docs/frameworks.md).

P2pbenchRun   runs p2pbench once per (kernel, sizes, ranks): its sanity is the results
              file's end record (status "complete"); its performance variables are read
              from the results file, four per row (kernel, variant, size): the median time
              and the two bounds of its 95% interval (usec), and the rate (MB/s).
P2pbenchGate  runs N launches of the candidate (this p2pbench) and then
              `p2pbench-report compare BASELINE --vs candidate --fail-on-regression`
              against a stored baseline campaign: it passes or fails as compare's exit
              status says; rows that are `inconclusive` are a warning, not a failure.

Both start MPI themselves (`mpirun -np R ... p2pbench ...`, the variable `mpirun`), or,
with `-S launch=partition`, through the launcher of the ReFrame partition (srun, ...).
As root they export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (Open MPI
refuses root without them); p2pbench itself never sets them.

Written for ReFrame 4.x (checked with 4.5.2). The undecorated base classes are for a
site's own check file (references, other parameters): see docs/frameworks.md.
"""

import json
import os
import re
import shlex

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.backends import getlauncher
# ReFrame puts these in every test class's namespace; imported for readers and linters
from reframe.core.builtins import (parameter, performance_function, run_after, run_before,
                                   sanity_function, variable)
from reframe.core.exceptions import SanityError


def _env_list(name, default, sep=','):
    """The values of environment variable NAME split at SEP (DEFAULT when unset)."""
    text = os.environ.get(name, '').strip() or default
    return [v.strip() for v in text.split(sep) if v.strip()]


def read_results(path):
    """The records of a p2pbench results file (docs/output-format.md), as a list of
    dicts; a last line cut off mid-write is left out, as p2pbench-report does."""
    records = []
    try:
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
    except OSError as e:
        raise SanityError(f'{path}: cannot read the results file: {e.strerror}')
    for num, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            if num == len(lines):      # the last line, cut off without its newline
                break
            raise SanityError(f'{path}:{num}: not a JSON record') from None
    return records


def end_record(records):
    """The end record, or None when the run left none (it was killed)."""
    if records and records[-1].get('type') == 'end':
        return records[-1]
    return None


def perf_name(row, metric):
    """Performance variable name of a result row and metric: BYTES[_VARIANT]_METRIC,
    e.g. 1024_t_median, 65536_0_to_1_mbytes_per_sec, 8_pair_2-3_t_ci95_low."""
    variant = row.get('variant') or ''
    variant = re.sub(r'[^A-Za-z0-9.-]+', '_', variant.replace('->', '_to_')).strip('_')
    return f"{row['bytes']}_{variant + '_' if variant else ''}{metric}"


#: The performance variables of one result row: name suffix, unit, and where the
#: value is in the row (docs/output-format.md, section 2).
ROW_METRICS = (
    ('t_median', 'usec', ('t_usec', 'median')),
    ('t_ci95_low', 'usec', ('t_usec', 'ci95_low')),
    ('t_ci95_high', 'usec', ('t_usec', 'ci95_high')),
    ('mbytes_per_sec', 'MB/s', ('mbytes_per_sec',)),
)


def _field(row, path):
    value = row
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _row_value(path, key, field):
    """Deferred: the value FIELD of the row KEY (kernel, variant, bytes) of the
    results file PATH (read when ReFrame evaluates the performance variable)."""
    for rec in read_results(path):
        if rec.get('type') == 'result' and (rec.get('kernel'), rec.get('variant') or '',
                                            rec.get('bytes')) == key:
            return _field(rec, field)
    raise SanityError(f'{path}: no row {key}')


class P2pbenchBase(rfm.RunOnlyRegressionTest):
    """What both tests share: where p2pbench is, and how MPI is started."""

    valid_systems = ['*']
    valid_prog_environs = ['*']
    sourcesdir = None

    #: p2pbench to run (a path, or a name on PATH).
    p2pbench = variable(str, value='p2pbench')
    #: mpirun: run `mpirun -np RANKS MPIRUN_FLAGS p2pbench ...` with ReFrame's local
    #: launcher (the default); partition: run p2pbench with the partition's launcher
    #: (srun, mpiexec...) and num_tasks = RANKS.
    launch = variable(str, value='mpirun')
    #: The MPI launcher (launch=mpirun), and its options (a shell word list, e.g.
    #: '--oversubscribe'), which under launch=partition go to the partition's launcher.
    mpirun = variable(str, value='mpirun')
    mpirun_flags = variable(str, value='')
    #: Words put before each launch (shell word list), e.g. 'taskset -c 0': before
    #: mpirun, or under launch=partition between the partition's launcher and p2pbench.
    launch_wrapper = variable(str, value='')
    #: More p2pbench options (shell word list), e.g. '--rounds 3 --time-per-size 0.02'.
    p2pbench_opts = variable(str, value='')

    @run_after('init')
    def _check_launch(self):
        if self.launch not in ('mpirun', 'partition'):
            raise ValueError(f"launch = {self.launch!r}: want 'mpirun' or 'partition'")

    @run_before('run')
    def _set_environment(self):
        # Open MPI refuses to run as root without these; only when root.
        if os.geteuid() == 0:
            self.env_vars['OMPI_ALLOW_RUN_AS_ROOT'] = '1'
            self.env_vars['OMPI_ALLOW_RUN_AS_ROOT_CONFIRM'] = '1'
        if self.launch == 'mpirun':
            self.job.launcher = getlauncher('local')()
        else:
            self.job.launcher.options += shlex.split(self.mpirun_flags)

    def launch_words(self, ranks, args):
        """The words of one p2pbench launch on RANKS ranks with ARGS: the whole command
        under launch=mpirun, the program and its arguments under launch=partition
        (ReFrame then puts the partition's launcher in front)."""
        words = shlex.split(self.launch_wrapper)
        if self.launch == 'mpirun':
            words += [self.mpirun, '-np', str(ranks)] + shlex.split(self.mpirun_flags)
        return words + [self.p2pbench] + args + shlex.split(self.p2pbench_opts)


class P2pbenchRunBase(P2pbenchBase):
    """One p2pbench run; sanity from its end record, performance from its rows."""

    #: Kernels (p2pbench --list), one test each. Default: P2PB_RFM_KERNELS or pingpong.
    kernel = parameter(_env_list('P2PB_RFM_KERNELS', 'pingpong'))
    #: Size lists (p2pbench --sizes), one test each; P2PB_RFM_SIZES separates lists by ';'.
    sizes = parameter(_env_list('P2PB_RFM_SIZES', '0,1K,64K,1M', sep=';'))
    #: Ranks per run, one test each. Default: P2PB_RFM_RANKS or 2.
    ranks = parameter([int(r) for r in _env_list('P2PB_RFM_RANKS', '2')])

    results_file = variable(str, value='results.jsonl')

    @run_after('init')
    def _keep_results(self):
        self.keep_files = [self.results_file]
        if self.launch == 'partition':
            self.num_tasks = self.ranks

    @run_before('run')
    def _set_command(self):
        args = [self.kernel, '--sizes', self.sizes, '-o', self.results_file, '-f', 'text']
        words = self.launch_words(self.ranks, args)
        self.executable = shlex.quote(words[0])
        self.executable_opts = [shlex.quote(w) for w in words[1:]]

    @sanity_function
    def assert_complete(self):
        """The results file ends with the end record of a finished run, and has rows."""
        records = read_results(self.results_file)
        end = end_record(records)
        if end is None:
            raise SanityError(f'{self.results_file}: no end record (the run was killed '
                              f'or is still running)')
        if end.get('status') != 'complete':
            why = ', '.join(f'{k} {end[k]}' for k in ('reason', 'kernel', 'bytes')
                            if end.get(k) is not None)
            raise SanityError(f"{self.results_file}: the run ended with status "
                              f"{end.get('status')!r}{': ' + why if why else ''}")
        rows = [r for r in records if r.get('type') == 'result']
        ok = [r for r in rows if r.get('status') == 'ok']
        if not ok:
            raise SanityError(f'{self.results_file}: no row with status ok')
        for r in rows:
            if r.get('status') != 'ok':
                self.logger.warning(f"{self.results_file}: {r.get('kernel')} "
                                    f"{r.get('bytes')} bytes: {r.get('status')} "
                                    f"({r.get('note', '')})")
        return True

    @run_before('performance')
    def set_perf_variables(self):
        """Four performance variables per row with status ok (ROW_METRICS); an
        interval bound that is null (too few samples) is left out."""
        path = os.path.join(self.stagedir, self.results_file)
        self.perf_variables = {}
        for row in read_results(path):
            if row.get('type') != 'result' or row.get('status') != 'ok':
                continue
            key = (row.get('kernel'), row.get('variant') or '', row.get('bytes'))
            for metric, unit, field in ROW_METRICS:
                if isinstance(_field(row, field), (int, float)):
                    self.perf_variables[perf_name(row, metric)] = \
                        sn.make_performance_function(_row_value, unit, path, key, field)


class P2pbenchGateBase(P2pbenchBase):
    """The regression gate: N candidate launches against a stored baseline campaign."""

    #: The baseline campaign: a directory of results files, one per launch
    #: (scripts/campaign.sh, scripts/gate.sh, or N launches with -o DIR/NAME-NN.jsonl).
    baseline_dir = variable(str, value='')
    #: A stored candidate campaign to compare instead of launching (empty: launch).
    candidate_dir = variable(str, value='')
    #: Candidate launches (at least 4 per side for a verdict; 10 recommended).
    launches = variable(int, value=10)
    #: Ranks of each launch.
    ranks = variable(int, value=2)
    #: p2pbench arguments: the same kernels and sizes as the baseline's.
    p2pbench_args = variable(str, value='pingpong')
    #: p2pbench-report to use.
    p2pbench_report = variable(str, value='p2pbench-report')
    #: Equivalence band of compare in percent (empty: compare's default, 5).
    threshold = variable(str, value='')

    num_tasks = 1
    keep_files = ['compare.json', 'compare.txt', 'candidate']

    @run_after('init')
    def _need_baseline(self):
        self.skip_if(not self.baseline_dir,
                     'no baseline campaign: give -S baseline_dir=DIR (docs/frameworks.md)')

    def _candidate(self):
        return self.candidate_dir or 'candidate'

    @run_before('run')
    def _set_commands(self):
        if self.launch == 'partition':
            # the launches run from the job script, under the partition's launcher
            launcher = self.current_partition.launcher_type()
            launcher.options = shlex.split(self.mpirun_flags)
            self.job.num_tasks = self.ranks
            prefix = launcher.run_command(self.job) + ' '
        else:
            prefix = ''
        self.prerun_cmds = []
        if not self.candidate_dir:
            words = ' '.join(shlex.quote(w) for w in
                             self.launch_words(self.ranks, shlex.split(self.p2pbench_args)))
            self.prerun_cmds = [
                'mkdir -p candidate',
                f'for i in $(seq -w 1 {self.launches}); do '
                f'{prefix}{words} -o candidate/candidate-$i.jsonl --label candidate '
                f'>candidate/candidate-$i.txt 2>&1 || '
                f'echo "launch $i failed: exit $? (candidate/candidate-$i.txt)"; done',
            ]
        self.job.launcher = getlauncher('local')()
        common = ['compare', shlex.quote(self.baseline_dir), '--vs',
                  shlex.quote(self._candidate()), '--fail-on-regression']
        if self.threshold:
            common += ['-t', shlex.quote(self.threshold)]
        self.executable = shlex.quote(self.p2pbench_report)
        self.executable_opts = common + ['-f', 'json', '>compare.json']
        rep = shlex.quote(self.p2pbench_report)
        self.postrun_cmds = [
            'echo "p2pbench-report compare exit status: $?"',
            f"{rep} {' '.join(common)} >compare.txt 2>&1; cat compare.txt",
        ]

    def _verdicts(self):
        """compare's exit status and its JSON document."""
        status = sn.evaluate(sn.extractsingle(
            r'p2pbench-report compare exit status: (\d+)', self.stdout, 1, int))
        try:
            with open('compare.json', encoding='utf-8') as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            raise SanityError(f'compare.json: no verdicts (compare exit {status}): {e}')
        return status, doc

    @staticmethod
    def _row_name(r):
        variant = f" {r['variant']}" if r.get('variant') else ''
        return f"{r['kernel']}{variant} {r['bytes']} bytes {r['metric']}"

    @sanity_function
    def assert_no_regression(self):
        """Pass when compare --fail-on-regression exits 0; `inconclusive` rows are
        logged as a warning; a regression, an incomplete launch file, or launch
        counts too small for a verdict fail, saying which."""
        status, doc = self._verdicts()
        rows = doc.get('rows', [])
        worse = [r for r in rows if r.get('verdict') == 'changed' and r.get('worse')]
        unsure = [r for r in rows if r.get('verdict') == 'inconclusive']
        only = [r for r in rows if r.get('verdict') == 'one side only']
        if unsure:
            self.logger.warning(
                f'{self.name}: {len(unsure)} of {len(rows)} rows inconclusive (not a '
                f'failure; more launches decide them, see compare.txt): ' +
                '; '.join(self._row_name(r) for r in unsure[:6]) +
                (' ...' if len(unsure) > 6 else ''))
        if only:
            self.logger.warning(f'{self.name}: {len(only)} rows measured on one side only '
                                f'(are the kernels and sizes the baseline\'s?)')
        if status == 0:
            return True
        if status == 1 and worse:
            raise SanityError(
                f'regression: {len(worse)} rows changed (worse): ' +
                '; '.join(f"{self._row_name(r)} ratio {r.get('ratio'):.3g}"
                          for r in worse[:6]) + (' ...' if len(worse) > 6 else ''))
        if status == 1:
            files = doc.get('incomplete', [])
            raise SanityError(f'{len(files)} launch files incomplete or aborted: ' +
                              '; '.join(f"{f.get('path')}: {f.get('why')}" for f in files[:4]) +
                              (' ...' if len(files) > 4 else ''))
        raise SanityError(f'compare exit {status}: a regression cannot be detected with '
                          f"{doc.get('launches_a')} + {doc.get('launches_b')} launches "
                          f'(at least 4 per side)')

    def _count(self, verdict):
        status, doc = self._verdicts()
        return sum(1 for r in doc.get('rows', []) if r.get('verdict') == verdict)

    @performance_function('rows')
    def rows_changed(self):
        return self._count('changed')

    @performance_function('rows')
    def rows_inconclusive(self):
        return self._count('inconclusive')

    @performance_function('rows')
    def rows_equivalent(self):
        return self._count('equivalent')


@rfm.simple_test
class P2pbenchRun(P2pbenchRunBase):
    """p2pbench on each kernel, size list and rank count of the parameters."""


@rfm.simple_test
class P2pbenchGate(P2pbenchGateBase):
    """p2pbench-report compare --fail-on-regression against -S baseline_dir=DIR."""

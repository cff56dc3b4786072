# SPDX-License-Identifier: MIT
"""The Ramble definition (contrib/ramble/applications/p2pbench/application.py) against
real p2pbench output, without Ramble (issue 24, item 3).

The definition is loaded with a stub `ramble.appkit` that records its directives. Then:
  - it has one workload and executable per kernel of `p2pbench --list`, each under MPI,
    capturing stdout and stderr, in the format of the workload variable;
  - every figure of merit names a group of its regex, units and a FomType, and every
    {name} in a figure's name is a group of its regex;
  - for each format the definition names, p2pbench runs (pingpong and uniband, sizes 0
    and 1K, 3 rounds; pingpong 8 bytes with 5 samples in 1 round, whose interval is
    null) with stdout and stderr in one log, as Ramble's OUTPUT_CAPTURE.ALL keeps it;
    EVERY data row of the log (text: a line that starts with the size; csv: a line that
    starts with the schema) is matched, with Ramble's re.match per line, by the row
    regex of that format, its values equal the results file's (to the printed digits),
    and a text row lies under a table context naming its kernel and variant; no other
    line of any log matches a row or context regex;
  - the success criterion matches the closing line once in each log, and neither the
    failure forms of the closing line nor a real run that measured nothing.
Usage: ramble_regex.py MPIEXEC PREFLAGS P2PBENCH SOURCE_DIR WORK_DIR
Prints PASS/FAIL lines and "N passed, N failed"; exit 0 when all passed.
"""

import enum
import importlib.util
import json
import math
import os
import re
import shlex
import subprocess
import sys
import types

PASSED = FAILED = 0


def check(ok, what):
    global PASSED, FAILED
    if ok:
        PASSED += 1
    else:
        FAILED += 1
        print(f'FAIL: {what}')
    return ok


def load_definition(path):
    """Import the definition with a stub ramble.appkit; returns (module, calls) where
    calls maps each directive name to the list of its (args, kwargs)."""
    calls = {}

    def directive(name):
        def record(*args, **kwargs):
            calls.setdefault(name, []).append((args, kwargs))
        return record

    appkit = types.ModuleType('ramble.appkit')
    for name in ('executable', 'workload', 'workload_variable', 'figure_of_merit',
                 'figure_of_merit_context', 'success_criteria', 'tags', 'input_file',
                 'environment_variable', 'maintainers'):
        setattr(appkit, name, directive(name))
    appkit.ExecutableApplication = type('ExecutableApplication', (), {})
    appkit.FomType = enum.Enum('FomType', 'TIME THROUGHPUT MEASURE CATEGORY INFO UNDEFINED')
    appkit.OUTPUT_CAPTURE = enum.Enum('OUTPUT_CAPTURE', 'STDOUT STDERR ALL DEFAULT')
    appkit.__all__ = [n for n in dir(appkit) if not n.startswith('_')]
    ramble = types.ModuleType('ramble')
    ramble.appkit = appkit
    sys.modules['ramble'] = ramble
    sys.modules['ramble.appkit'] = appkit
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    spec = importlib.util.spec_from_file_location('p2pbench_ramble_app', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, calls, appkit


def kernels_listed(bench):
    out = subprocess.run([bench, '--list'], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in out.stdout.splitlines()[1:] if line.strip()]


def check_structure(mod, calls, appkit, bench):
    kernels = kernels_listed(bench)
    check(list(mod.KERNELS) == kernels, f'KERNELS {mod.KERNELS} == p2pbench --list {kernels}')
    execs = {a[0]: (a, k) for a, k in calls.get('executable', [])}
    loads = {a[0]: k for a, k in calls.get('workload', [])}
    for kern in kernels:
        a, k = execs.get(f'run-{kern}', ((None, ''), {}))
        words = a[1].split() if len(a) > 1 else []
        check(kern in words and '--format' in words and '{p2pbench_format}' in words and
              k.get('use_mpi') is True and k.get('output_capture') == appkit.OUTPUT_CAPTURE.ALL,
              f'executable run-{kern}: the kernel, the format, under MPI, stdout and stderr')
        check(loads.get(kern, {}).get('executables') == [f'run-{kern}'],
              f'workload {kern} runs run-{kern}')
    fmt = [k for a, k in calls.get('workload_variable', []) if a[0] == 'p2pbench_format']
    check(len(fmt) == 1 and fmt[0].get('values') == list(mod.FORMATS),
          'workload variable p2pbench_format offers the FORMATS')
    contexts = {a[0]: k for a, k in calls.get('figure_of_merit_context', [])}
    for name, k in contexts.items():
        rx = re.compile(k['regex'])
        fields = re.findall(r'{(\w+)}', k['output_format'])
        check(fields and all(f in rx.groupindex for f in fields),
              f'context {name}: output format fields {fields} are groups of its regex')
    names = set()
    for a, k in calls.get('figure_of_merit', []):
        rx = re.compile(k['fom_regex'])
        fields = re.findall(r'{(\w+)}', a[0])
        check(a[0] not in names, f'figure {a[0]!r} defined once (Ramble keys figures by name)')
        names.add(a[0])
        check(k['group_name'] in rx.groupindex and all(f in rx.groupindex for f in fields) and
              k.get('units') and isinstance(k.get('fom_type'), appkit.FomType) and
              all(c in contexts for c in k.get('contexts', [])),
              f'figure {a[0]!r}: group, name fields, units, type and contexts defined')
    crit = calls.get('success_criteria', [])
    check(len(crit) == 1 and crit[0][1].get('mode') == 'string' and
          crit[0][1].get('match') == mod.CLOSING_LINE, 'one success criterion: CLOSING_LINE')
    return [a[0] for a, k in calls.get('figure_of_merit', [])]


def run(cmd, log, env):
    with open(log, 'w', encoding='utf-8') as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env,
                              timeout=300).returncode


def results(path):
    with open(path, encoding='utf-8') as f:
        return [json.loads(line) for line in f if line.strip()]


def close(text, value, exact):
    """A printed number against the file's value: csv prints 9 significant digits,
    text 2 decimals from 1 up, 3 significant digits below."""
    got = float(text)
    tol = 1e-8 * abs(value) if exact else 0.0051 + 0.0051 * abs(value)
    return abs(got - value) <= tol


def compare_row(groups, rec, fmt):
    """The values a row regex read against the result record; returns what differs."""
    exact = fmt == 'csv'
    t = rec['t_usec']
    bad = []
    for group, value in (('t_median', t['median']), ('p99', t['p99']), ('t_min', t['min']),
                         ('mbytes_per_sec', rec['mbytes_per_sec'])):
        if not close(groups[group], value, exact):
            bad.append(f'{group} {groups[group]} vs {value}')
    if int(groups['samples']) != rec['samples']:
        bad.append(f"samples {groups['samples']} vs {rec['samples']}")
    for group, key in (('ci95_low', 'ci95_low'), ('ci95_high', 'ci95_high')):
        v = t.get(key)
        if t.get('ci_unbounded'):
            want = '' if exact else 'unbounded'
            ok = groups[group] == want
        elif v is None or not math.isfinite(v):
            ok = groups[group] == ('' if exact else '-')
        else:
            ok = groups[group] not in ('', '-', 'unbounded') and close(groups[group], v, exact)
        if not ok:
            bad.append(f'{group} {groups[group]!r} vs {v}')
    return bad


def check_log(mod, fmt, log, jsonl):
    rules = mod.FORMAT_RULES[fmt]
    context, context_re, _, row_re, _ = rules
    row_rx = re.compile(row_re)
    ctx_rx = re.compile(context_re) if context_re else None
    recs = [r for r in results(jsonl) if r.get('type') == 'result' and r.get('status') == 'ok']
    by_key = {}
    for r in recs:
        name = r['display_name'] if fmt == 'text' else r['kernel']
        by_key[(name, r.get('variant') or '', r['bytes'])] = r
    with open(log, encoding='utf-8') as f:
        lines = f.readlines()
    if fmt == 'text':
        is_data = re.compile(r'^ *[0-9]+ ').match
    else:
        is_data = re.compile(r'^p2pbench/').match
    table = None
    rows = matched = 0
    for num, line in enumerate(lines, 1):
        where = f'{os.path.basename(log)}:{num}'
        if ctx_rx:
            m = ctx_rx.match(line)
            if m:
                table = m.group('table')
        if not is_data(line):
            check(not row_rx.match(line), f'{where}: not a data row, yet the row regex matches: {line!r}')
            continue
        rows += 1
        m = row_rx.match(line)
        if not check(m is not None, f'{where}: data row not matched: {line!r}'):
            continue
        g = m.groupdict()
        if fmt == 'text':
            disp, _, variant = (table or '').partition(' ')
            key = (disp, variant, int(g['bytes']))
        else:
            key = (g['kernel'], g['variant'], int(g['bytes']))
        rec = by_key.pop(key, None)
        if not check(rec is not None, f'{where}: row {key} (context {table!r}) is not a row of {jsonl}'):
            continue
        bad = compare_row(g, rec, fmt)
        matched += check(not bad, f'{where}: values read differ from the results file: {bad}')
    check(rows > 0 and not by_key, f'{log}: {rows} data rows, every ok row of the results '
                                   f'file among them (left: {sorted(by_key)})')
    closing = [ln for ln in lines if re.match(mod.CLOSING_LINE, ln)]
    check(len(closing) == 1, f'{log}: the closing line matched once ({len(closing)})')
    print(f'PASS: {fmt}: {matched} of {rows} data rows of {os.path.basename(log)} read by the '
          f'definition, equal to {os.path.basename(jsonl)}')
    return lines


def main(argv):
    mpiexec, preflags, bench, src, work = argv[1:6]
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    if os.geteuid() == 0:  # Open MPI refuses root without these; only when root
        env.update(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
    mod, calls, appkit = load_definition(
        os.path.join(src, 'contrib/ramble/applications/p2pbench/application.py'))
    check_structure(mod, calls, appkit, bench)
    launch = [mpiexec, '-np', '2'] + shlex.split(preflags) + [bench]
    runs = (('main', ['pingpong', 'uniband', '--sizes', '0,1K', '--rounds', '3',
                      '--time-per-size', '0.02']),
            ('n5', ['pingpong', '--sizes', '8', '--samples', '5', '--rounds', '1']),
            ('new', ['msgrate', 'overlap', 'put_bw', '--sizes', '64,1K', '--samples', '3',
                     '--rounds', '1']))
    all_lines = {}
    for fmt in mod.FORMATS:
        for tag, args in runs:
            log = os.path.join(work, f'{tag}-{fmt}.log')
            jsonl = os.path.join(work, f'{tag}-{fmt}.jsonl')
            rc = run(launch + args + ['-f', fmt, '-o', jsonl], log, env)
            if check(rc == 0, f'p2pbench {" ".join(args)} -f {fmt}: exit {rc}'):
                all_lines[(fmt, tag)] = check_log(mod, fmt, log, jsonl)
    # no row or context regex of one format matches a line of another format's log
    for fmt in mod.FORMATS:
        _, ctx_re, _, row_re, _ = mod.FORMAT_RULES[fmt]
        for (other, tag), lines in all_lines.items():
            if other == fmt:
                continue
            hits = [ln for ln in lines if re.match(row_re, ln) or (ctx_re and re.match(ctx_re, ln))]
            check(not hits, f'{fmt} regexes match lines of {tag}-{other}.log: {hits[:2]}')
    # the closing line of a failed run, and a real run that measured nothing (1 rank)
    for line in ('# run ABORTED (payload check failed): results file: r.jsonl holds the rows '
                 'before it (run time 0.3 s)\n',
                 'p2pbench: run FAILED: results file r.jsonl could not be written; it holds '
                 'only the rows before the failure (run time 1.0 s)\n',
                 '# run FAILED: results file r.jsonl was deleted during the run; its rows are '
                 'lost (run time 2.0 s)\n',
                 'p2pbench: nothing measured: results file: r.jsonl holds only skipped rows '
                 '(run time 0.2 s)\n'):
        check(not re.match(mod.CLOSING_LINE, line), f'success criterion matches {line!r}')
    for fmt in mod.FORMATS:
        log = os.path.join(work, f'none-{fmt}.log')
        rc = run([mpiexec, '-np', '1'] + shlex.split(preflags) +
                 [bench, 'pingpong', '--sizes', '0', '-f', fmt, '-o',
                  os.path.join(work, f'none-{fmt}.jsonl')], log, env)
        with open(log, encoding='utf-8') as f:
            lines = f.readlines()
        check(rc == 1 and any('nothing measured' in ln for ln in lines) and
              not any(re.match(mod.CLOSING_LINE, ln) for ln in lines),
              f'1 rank, -f {fmt}: measured nothing (exit {rc}) and the success criterion '
              f'does not match')
    print(f'{PASSED} passed, {FAILED} failed')
    return 0 if FAILED == 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))

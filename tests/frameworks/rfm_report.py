# SPDX-License-Identifier: MIT
"""Read a ReFrame run report (reframe --report-file) for tests/frameworks/reframe.sh.

  rfm_report.py outcome REPORT           one line per test case: NAME<TAB>RESULT<TAB>PHASE<TAB>REASON
  rfm_report.py perfvar REPORT NAME [CASE]  the value of performance variable NAME in the
                                         first test case (whose name holds CASE)
  rfm_report.py runvars REPORT KERNEL... check P2pbenchRun's performance variables (2 ranks) against
                                         the results file each test case kept: exactly four
                                         per row with status ok (t_median, t_ci95_low,
                                         t_ci95_high in usec; mbytes_per_sec in MB/s; a null
                                         bound left out), each equal to the file's value;
                                         one case per KERNEL. Prints one PASS/FAIL line each.
Exit status: 0 when every check passed, 1 otherwise.
"""

import json
import os
import re
import sys

METRICS = (('t_median', 'usec', ('t_usec', 'median')),
           ('t_ci95_low', 'usec', ('t_usec', 'ci95_low')),
           ('t_ci95_high', 'usec', ('t_usec', 'ci95_high')),
           ('mbytes_per_sec', 'MB/s', ('mbytes_per_sec',)))


def cases(path):
    with open(path, encoding='utf-8') as f:
        doc = json.load(f)
    return [tc for run in doc['runs'] for tc in run['testcases']]


def expected_name(row, metric):
    """The name the check should give: BYTES[_VARIANT]_METRIC, the variant's '->' as
    '_to_' and other runs of characters outside [A-Za-z0-9.-] as '_' (written here
    from docs/frameworks.md, not imported from the check)."""
    v = row.get('variant') or ''
    v = re.sub(r'[^A-Za-z0-9.-]+', '_', v.replace('->', '_to_')).strip('_')
    return f"{row['bytes']}_{v + '_' if v else ''}{metric}"


def field(row, path):
    for k in path:
        row = row.get(k) if isinstance(row, dict) else None
    return row


def check_runvars(path, kernels):
    failed = 0

    def check(ok, what):
        nonlocal failed
        print(('PASS: ' if ok else 'FAIL: ') + what)
        failed += not ok

    tcs = [tc for tc in cases(path) if tc['name'].startswith('P2pbenchRun') and
           tc['check_params'].get('ranks') == 2]
    seen = sorted(tc['check_params']['kernel'] for tc in tcs)
    check(seen == sorted(kernels), f'one P2pbenchRun case per kernel: {seen}')
    for tc in tcs:
        name = tc['name']
        check(tc['result'] == 'success', f"{name}: result {tc['result']}")
        results = os.path.join(tc['outputdir'], 'results.jsonl')
        with open(results, encoding='utf-8') as f:
            recs = [json.loads(line) for line in f if line.strip()]
        rows = [r for r in recs if r.get('type') == 'result' and r.get('status') == 'ok']
        want = {}
        for r in rows:
            for metric, unit, fld in METRICS:
                v = field(r, fld)
                if isinstance(v, (int, float)):
                    want[expected_name(r, metric)] = (v, unit)
        got = {p['name']: (p['value'], p['unit']) for p in tc['perfvars']}
        check(len(rows) > 0 and got == want,
              f'{name}: {len(got)} performance variables, the {len(want)} of the '
              f'{len(rows)} rows of {results} with their units and values' +
              ('' if got == want else f': missing {sorted(set(want) - set(got))}, '
               f'extra {sorted(set(got) - set(want))}, differing '
               f'{sorted(k for k in want if k in got and got[k] != want[k])}'))
        sizes = {r['bytes'] for r in rows}
        check(all(any(k.startswith(f'{b}_') and k.endswith('_t_median') for k in got)
                  for b in sizes), f'{name}: a t_median for each size {sorted(sizes)}')
    return failed == 0


def main(argv):
    cmd, path = argv[1], argv[2]
    if cmd == 'outcome':
        for tc in cases(path):
            reason = (tc.get('fail_reason') or '').replace('\n', ' ')
            print(f"{tc['name']}\t{tc['result']}\t{tc.get('fail_phase')}\t{reason}")
        return 0
    if cmd == 'perfvar':
        tc = [tc for tc in cases(path) if len(argv) < 5 or argv[4] in tc['name']][0]
        for p in tc['perfvars'] or []:
            if p['name'] == argv[3]:
                print(p['value'])
                return 0
        return 1
    if cmd == 'runvars':
        return 0 if check_runvars(path, argv[3:]) else 1
    print(f'rfm_report.py: unknown command {cmd!r}', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

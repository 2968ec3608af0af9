#!/usr/bin/env python3
"""Runs both perft references on rule sheets and writes what each found.

    references.py --root DIR --wopr BIN --out FILE.tsv [--prolog-seconds 10]
                  [--python-seconds 15] [--depth 3] SHEET...

SHEET paths are relative to DIR. For each sheet, SWI-Prolog runs wopr's
translation (`wopr gdl prolog --unchecked`, then `perft.pl` beside this
file) and `gdl_perft.py` runs the sheet itself, each under its time limit.
One line per sheet is appended to FILE.tsv (sheets already there are
skipped, so a run can be resumed):

    path  sha256  prolog  python

where each reference's column is its counts joined by commas (`9,72,504`),
then `;` and how it ended (`ok`, `timeout`, `invalid: …`, `error: …`).

With --retry-tabled, nothing new is run: every sheet of FILE.tsv whose
Prolog run ended in an error, or timed out before depth 1 (plain SLD resolution loops on left-recursive
rules such as `(<= (r ?x) (r ?x) (q ?x))`) is run again with every relation
tabled (SWI-Prolog's incremental tabling over the asserted `t/1` and
`d/2`), and its line is rewritten, the end marked `(tabled)`.

With --extend, the reference that reached fewer depths than the other on
a sheet is run again under this run's (longer) time limits (Prolog
tabled), and the line
rewritten where it gets deeper (only for the SHEETs named, if any).
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def limit_memory():
    import resource
    gib = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (gib, gib))
    os.nice(10)


def run(cmd, seconds):
    """(counts, how it ended) of one reference run."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=seconds + 5, preexec_fn=limit_memory)
        out, err, code = p.stdout, p.stderr, p.returncode
        timed_out = False
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or '')
        err, code, timed_out = '', None, True
    counts, end = [], None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            counts.append(parts[1])
        elif line.startswith(('invalid:', 'error:', 'timeout')):
            end = line.strip()
    if end is None:
        if timed_out or code == 124:
            end = 'timeout'
        elif code == 0:
            end = 'ok'
        else:
            lines = [l for l in err.splitlines() if l.strip()
                     and not l.startswith('Warning')]
            end = 'error: ' + (lines[-1].strip() if lines else 'exit %s' % code)
    return ','.join(counts), end.replace('\t', ' ')[:200]


def tabled(program):
    """The translated program with every relation tabled incrementally."""
    import re
    program = program.replace(':- dynamic t/1, d/2.',
                              ':- dynamic([t/1, d/2], [incremental(true)]).')
    # Still dynamic: a relation a sheet reads but never defines has no
    # clause, and a tabled predicate without one is unknown to SWI-Prolog
    # (ggp-base's amazonsTorus reads `plus` and defines none).
    program = re.sub(r":- dynamic ('g_[^']*'/\d+)\.",
                     r":- table \1 as (incremental, dynamic).", program)
    return re.sub(r":- discontiguous .*\n", "", program)


def prolog_run(a, path, table):
    """(counts, end) of SWI-Prolog on the sheet's translation."""
    tr = subprocess.run([a.wopr, 'gdl', 'prolog', '--unchecked', path],
                        capture_output=True, text=True)
    if tr.returncode != 0:
        return ('', 'error: translation: ' + tr.stderr.strip().splitlines()[-1][:150])
    with tempfile.NamedTemporaryFile('w', suffix='.pl', delete=False) as pl:
        pl.write(tabled(tr.stdout) if table else tr.stdout)
    s = int(a.prolog_seconds)
    try:
        return run(['timeout', str(s), 'swipl', '--stack-limit=2g', '-g',
                    'wopr_perft(%d)' % a.depth, '-t', 'halt', pl.name,
                    os.path.join(HERE, 'perft.pl')], a.prolog_seconds)
    finally:
        os.unlink(pl.name)


def retry_tabled(a):
    with open(a.out) as f:
        lines = [l.rstrip('\n').split('\t') for l in f]
    for row in lines:
        counts, end = row[2].split(';', 1)
        if 'translation' not in end and (end.startswith('error')
                                         or (end == 'timeout' and not counts)):
            counts, end = prolog_run(a, os.path.join(a.root, row[0]), True)
            row[2] = counts + ';' + end + ' (tabled)'
            print('\t'.join(row), flush=True)
    with open(a.out, 'w') as f:
        for row in lines:
            f.write('\t'.join(row) + '\n')


def python_run(a, path):
    """(counts, end) of gdl_perft.py on the sheet."""
    return run([sys.executable, os.path.join(HERE, 'gdl_perft.py'), path,
                '--depth', str(a.depth), '--seconds', str(a.python_seconds)],
               a.python_seconds)


def extend(a):
    """Reruns, with this run's time limits, the reference that reached
    fewer depths than the other on each sheet; keeps the deeper result."""
    with open(a.out) as f:
        lines = [l.rstrip('\n').split('\t') for l in f]
    for row in lines:
        (pc, pe), (yc, ye) = (row[2].split(';', 1), row[3].split(';', 1))
        np, ny = len([c for c in pc.split(',') if c]), len([c for c in yc.split(',') if c])
        if ye.startswith('invalid') or max(np, ny) == 0 or np == ny:
            continue
        if a.sheets and row[0] not in a.sheets:
            continue
        path = os.path.join(a.root, row[0])
        if np < ny:
            c, e = prolog_run(a, path, True)
            if len([x for x in c.split(',') if x]) > np:
                row[2] = c + ';' + e + ' (tabled)'
        else:
            c, e = python_run(a, path)
            if len([x for x in c.split(',') if x]) > ny:
                row[3] = c + ';' + e
        print('\t'.join(row), flush=True)
        with open(a.out, 'w') as f:
            for r in lines:
                f.write('\t'.join(r) + '\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--wopr', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--prolog-seconds', type=float, default=10)
    ap.add_argument('--python-seconds', type=float, default=15)
    ap.add_argument('--depth', type=int, default=3)
    ap.add_argument('--retry-tabled', action='store_true')
    ap.add_argument('--extend', action='store_true')
    ap.add_argument('sheets', nargs='*')
    a = ap.parse_args()
    if a.retry_tabled:
        retry_tabled(a)
        return
    if a.extend:
        extend(a)
        return
    done = set()
    if os.path.exists(a.out):
        with open(a.out) as f:
            done = {l.split('\t')[0] for l in f}
    for sheet in a.sheets:
        if sheet in done:
            continue
        path = os.path.join(a.root, sheet)
        with open(path, 'rb') as f:
            sha = hashlib.sha256(f.read()).hexdigest()
        prolog = prolog_run(a, path, False)
        python = python_run(a, path)
        line = '\t'.join([sheet, sha, ';'.join(prolog), ';'.join(python)])
        print(line, flush=True)
        with open(a.out, 'a') as f:
            f.write(line + '\n')


if __name__ == '__main__':
    main()

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--root', required=True)
    ap.add_argument('--wopr', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--prolog-seconds', type=float, default=10)
    ap.add_argument('--python-seconds', type=float, default=15)
    ap.add_argument('--depth', type=int, default=3)
    ap.add_argument('sheets', nargs='+')
    a = ap.parse_args()
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
        with tempfile.NamedTemporaryFile('w', suffix='.pl', delete=False) as pl:
            tr = subprocess.run([a.wopr, 'gdl', 'prolog', '--unchecked', path],
                                stdout=pl, stderr=subprocess.PIPE, text=True)
        if tr.returncode != 0:
            prolog = ('', 'error: translation: ' + tr.stderr.strip().splitlines()[-1][:150])
        else:
            s = int(a.prolog_seconds)
            prolog = run(['timeout', str(s), 'swipl', '--stack-limit=2g', '-g',
                          'wopr_perft(%d)' % a.depth, '-t', 'halt', pl.name,
                          os.path.join(HERE, 'perft.pl')], a.prolog_seconds)
        os.unlink(pl.name)
        python = run([sys.executable, os.path.join(HERE, 'gdl_perft.py'), path,
                      '--depth', str(a.depth), '--seconds', str(a.python_seconds)],
                     a.python_seconds)
        line = '\t'.join([sheet, sha, ';'.join(prolog), ';'.join(python)])
        print(line, flush=True)
        with open(a.out, 'a') as f:
            f.write(line + '\n')


if __name__ == '__main__':
    main()

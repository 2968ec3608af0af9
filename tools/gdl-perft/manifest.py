#!/usr/bin/env python3
"""Turns what references.py found into a conformance manifest.

    manifest.py REFERENCES.tsv --root DIR [--commit [PREFIX=]HEX]... > MANIFEST.tsv

(`--commit PREFIX=HEX`: the commit of the sheets whose path starts with
PREFIX, the longest prefix winning; a bare HEX for every sheet.)

One line per sheet (the format `wopr gdl suite` reads, described in
crates/wopr-gdl/src/conformance.rs): a depth's count is recorded only
where both references reached it and agree, and so at every depth before
it. The kind is `invalid` when gdl_perft.py refuses the sheet (SWI-Prolog
does not check validity), `disagreed` when the two counts differ at some
depth, `agreed` when at least depth 1 agrees, else `unknown`; the note says
where each reference stopped.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gdl_perft  # noqa: E402


def split(col):
    counts, _, end = col.partition(';')
    return [int(c) for c in counts.split(',') if c], end.strip()


def relational_cycle(path):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return gdl_perft.Program(f.read()).relational_cycle
    except Exception:
        return False


def stopped(name, counts, end, depth):
    if len(counts) >= depth:
        return None
    if end.startswith('error: ERROR:'):
        end = 'error (stack overflow: recursion)'
    return '%s stopped after depth %d: %s' % (name, len(counts), end)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('references')
    ap.add_argument('--root', required=True)
    ap.add_argument('--commit', action='append', default=[])
    ap.add_argument('--depth', type=int, default=3)
    a = ap.parse_args()
    rows = []
    with open(a.references) as f:
        for line in f:
            path, sha, pl, py = line.rstrip('\n').split('\t')
            rows.append((path, sha, split(pl), split(py)))
    rows.sort()
    commits = sorted((c.partition('=')[0], c.partition('=')[2]) if '=' in c
                     else ('', c) for c in a.commit)

    def commit_of(path):
        best = ('', '-')
        for prefix, hexa in commits:
            if path.startswith(prefix) and len(prefix) >= len(best[0]):
                best = (prefix, hexa)
        return best[1]

    print('# path\tcommit\tsha256\tdepth1\tdepth2\tdepth3\treference')
    for path, sha, (pc, pe), (yc, ye) in rows:
        counts = ['-'] * a.depth
        notes = []
        if ye.startswith('invalid:'):
            kind = 'invalid'
            notes.append(ye[len('invalid:'):].strip())
        else:
            k = 0
            while k < min(len(pc), len(yc)) and pc[k] == yc[k]:
                k += 1
            for d in range(k):
                counts[d] = str(pc[d])
            if k < min(len(pc), len(yc)):
                kind = 'disagreed'
                notes.append('depth %d: prolog %d, python %d' % (k + 1, pc[k], yc[k]))
            else:
                kind = 'agreed' if k > 0 else 'unknown'
                for n in (stopped('prolog', pc, pe, a.depth),
                          stopped('python', yc, ye, a.depth)):
                    if n:
                        notes.append(n)
                if k == 0:
                    for name, c in (('prolog', pc), ('python', yc)):
                        if c:
                            notes.append('%s alone: %s' % (name, ','.join(map(str, c))))
            if relational_cycle(os.path.join(a.root, path)):
                notes.append('negation cycle between relations, none once ground')
        ref = kind + (': ' + '; '.join(notes) if notes else '')
        print('\t'.join([path, commit_of(path), sha] + counts + [ref.replace('\t', ' ')]))


if __name__ == '__main__':
    main()

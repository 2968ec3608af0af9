#!/usr/bin/env python3
"""Tallies `wopr gdl suite` output for the results page.

    summary.py SUITE_OUTPUT.txt[,MORE.txt...] MANIFEST.tsv

(several outputs, comma-separated: a sheet's last verdict counts)

prints, in Markdown: what the references found (from the manifest), what
wopr did (verdicts), refusals of sheets the references count as valid,
grouped by wopr's reason, the sheets that timed out, and every
disagreement with both counts.
"""

import collections
import re
import sys

CATEGORIES = [
    ('a role has more than 512 possible moves (`MAX_ACTIONS`)', r'possible moves, more than'),
    ('more distinct moves than wopr\'s actions', r'distinct moves, more than wopr'),
    ('grounding over 2,000,000 ground rules and atoms, too large for the non-ground evaluator too', r'grounding exceeds'),
    ('no `init` (an empty initial state is valid GDL)', r'\binit\b'),
    ('negation cycle between relations (none once ground)', r'negat|stratif'),
    ('unsafe rule', r'unsafe'),
    ('arities that differ', r'arguments in|arity'),
    ('`base`/`input` depending on `true`/`does`', r'base|input'),
    ('recursion not restricted', r'recursi'),
    ('out of memory (over 8 GiB)', r'out of memory'),
    ('a parse error', r'parse|unexpected|unbalanced|expected'),
]


def category(reason):
    for name, pattern in CATEGORIES:
        if re.search(pattern, reason):
            return name
    return 'other: ' + reason[:80]


def main():
    suite, manifest = sys.argv[1], sys.argv[2]
    kinds = {}
    counts = {}
    for line in open(manifest):
        if line.startswith('#') or not line.strip():
            continue
        cols = line.rstrip('\n').split('\t')
        kinds[cols[0]] = cols[6].split(':')[0]
        counts[cols[0]] = cols[3:6]
    ref = collections.Counter(kinds.values())
    depth = collections.Counter(sum(c != '-' for c in v) for v in counts.values())
    print('## References\n')
    print('| sheets | agreed to depth 3 | to depth 2 | to depth 1 | invalid GDL | references disagree | no count |')
    print('|---|---|---|---|---|---|---|')
    agreed = [p for p, k in kinds.items() if k in ('agreed', 'disagreed')]
    d = collections.Counter(sum(c != '-' for c in counts[p]) for p in agreed)
    print('| %d | %d | %d | %d | %d | %d | %d |\n' % (
        len(kinds), d[3], d[2], d[1], ref['invalid'], ref['disagreed'], ref['unknown']))
    verdicts = {}
    for name in suite.split(','):
        # Later files override earlier ones (a rerun of some sheets).
        for line in open(name):
            m = re.match(r'^(\S+\.kif): (.*) \(\d+\.\d+ s\)$', line.rstrip('\n'))
            if m:
                verdicts[m.group(1)] = m.group(2)
    v = list(verdicts.values())
    agree = [x for x in v if x.startswith('agrees to depth')]
    print('## wopr\n')
    print('| sheets | loaded | agree to depth 3 | to depth 2 | to depth 1 | disagree | refused | timed out loading | timed out counting | loaded, no reference |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    print('| %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |\n' % (
        len(v),
        sum(not x.startswith(('refused', 'missing', 'timed out while loading')) for x in v),
        sum(x.startswith('agrees to depth 3') for x in agree),
        sum(x.startswith('agrees to depth 2') for x in agree),
        sum(x.startswith('agrees to depth 1') for x in agree),
        sum(x.startswith(('disagrees', 'accepted')) for x in v),
        sum(x.startswith('refused') for x in v),
        sum(x.startswith('timed out while loading') for x in v),
        sum(x.startswith(('timed out (loaded', 'timed out;')) for x in v),
        sum(x.startswith('loaded') for x in v)))
    refused = collections.Counter()
    examples = collections.defaultdict(list)
    timed, disagree, accepted = [], [], []
    for path, v in sorted(verdicts.items()):
        name = path.split('/')[-2] if path.count('/') >= 2 else path
        if v.startswith('refused: '):
            c = category(v[len('refused: '):])
            if kinds.get(path) == 'unknown':
                c += ' (no reference count)'
            refused[c] += 1
            examples[c].append(name)
        elif v.startswith('timed out'):
            timed.append('%s (%s)' % (name, v))
        elif v.startswith('disagrees'):
            disagree.append('%s: %s' % (name, v))
        elif v.startswith('accepted'):
            accepted.append('%s: %s' % (name, v))
    print('### Refused, by reason\n')
    print('| reason | sheets | which |')
    print('|---|---|---|')
    for c, n in refused.most_common():
        print('| %s | %d | %s |' % (c, n, ', '.join(examples[c])))
    print('\n### Timed out\n')
    for t in timed:
        print('- ' + t)
    print('\n### Disagreements\n')
    for t in disagree + accepted:
        print('- ' + t)


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-labels: the memory-ordering labels of rcu.h and the table of docs/ordering.md agree
(meson test --suite docs).

    labels.py --src ROOT --cc GCC

Labels. A label is a capital letter and one or two digits (R1, G4, C5, X1) inside a C comment of
rcu.h; C89, C90, C95, C99, C11, C17, C18 and C23 are the C standards, not labels.
  - A definition (a labelled ordering point) is a comment whose text begins with the label,
    followed by `:`, `,` or the end of the comment: `/* R1: ... */`, a block-comment line
    ` * G0: ...`, `/* L1 */`, `/* G6, as at the end of synchronize_rcu() */`. The function around
    it is where the ordering is.
  - Every other occurrence is a mention: `pairs with G1`, `(R3)`, `R2/G2`.
The table. The one table of docs/ordering.md whose header's first cell is `Label` is the source
of truth on the doc side: its first column holds one label per row, and its `Where` column names
the functions (as code spans, `gp_wait_for()` or `rcu__slot_enter()`; rcu.h's per-flavour
prefix rcu__<flavour>_v<N>_ may be left out) in which the label is defined.

Checks:
  1. every label that rcu.h defines or mentions has exactly one row in the table;
  2. every label in the table is defined or mentioned in rcu.h;
  3. every function of rcu.h that holds a definition of a label is named in that label's
     `Where` cell (so a labelled point that moves to another function cannot go unnoticed);
  4. every label-like word in the prose of README.md and docs/*.md (a capital letter that some
     label uses, one or two digits) is in the table, so the docs cite no label that does not exist.
A label that rcu.h mentions but never defines is reported as a warning: rcu.h should mark the
ordering point with a definition (`/* X2: ... */`) so that the table can say where it is.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdecl  # noqa: E402
import doclib  # noqa: E402

ORDERING = 'docs/ordering.md'
LABEL = re.compile(r'(?<![A-Za-z0-9_+\-])([A-Z])([0-9]{1,2})(?![A-Za-z0-9_])')
STANDARDS = {'C89', 'C90', 'C95', 'C99', 'C11', 'C17', 'C18', 'C23'}


def comments(text):
    """(start line, [lines of the comment's text]) of each comment, strings skipped."""
    out = []
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == '\n':
            line += 1
            i += 1
        elif c in '"\'':
            q = c
            i += 1
            while i < n and text[i] != q:
                if text[i] == '\\':
                    i += 1
                elif text[i] == '\n':
                    line += 1
                i += 1
            i += 1
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j
            body = text[i + 2:j]
            out.append((line, body.split('\n')))
            line += body.count('\n')
            i = j + 2
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append((line, [text[i + 2:j]]))
            i = j
        else:
            i += 1
    return out


def labels_in(text):
    return [m.group(0) for m in LABEL.finditer(text) if m.group(0) not in STANDARDS]


def header_labels(root):
    """{label: {'defs': [line], 'mentions': [line]}} of rcu.h."""
    with open(os.path.join(root, 'rcu.h'), encoding='utf-8') as f:
        text = f.read()
    out = {}
    for start, lines in comments(text):
        for k, ln in enumerate(lines):
            body = re.sub(r'^\s*\*?\s?', '', ln) if k > 0 else ln
            first = body.strip()
            m = re.match(r'^([A-Z][0-9]{1,2})(?:[:,]|\s*$)', first)
            for lab in labels_in(ln):
                e = out.setdefault(lab, {'defs': [], 'mentions': []})
                if m and m.group(1) == lab:
                    if start + k not in e['defs']:
                        e['defs'].append(start + k)
                else:
                    e['mentions'].append(start + k)
    return out


def function_extents(root, cc, rep):
    """[(first line, last line, name)] of every function of rcu.h, in any flavour/configuration."""
    configs, _ = cdecl.configurations(root, doclib.flavours(root))
    out = set()
    for defines, required in configs:
        ok, res = cdecl.names(root, cc, defines)
        if not ok:
            if required:
                rep.error('rcu.h:1', f'rcu.h does not preprocess with -D{" -D".join(defines)}',
                          'every flavour must preprocess with no switch and with every switch at once')
            continue
        for n in res:
            if n.kind == 'function':
                out.add((n.line, n.end, n.name))
    return sorted(out)


def short(name):
    return re.sub(r'^rcu__[a-z0-9]+_v\d+_', '', name)


def enclosing(extents, line):
    best = None
    for a, b, name in extents:
        if a <= line <= b and (best is None or a >= best[0]):
            best = (a, b, name)
    return best[2] if best else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--cc', default='gcc')
    a = ap.parse_args()
    root = os.path.abspath(a.src)
    rep = doclib.Report('docs-labels')

    code = header_labels(root)
    lines = doclib.read_lines(root, ORDERING)
    tabs = [t for t in doclib.tables(lines) if t.header and t.header[0] == 'Label']
    if len(tabs) != 1:
        rep.error(ORDERING, f'{len(tabs)} tables whose first header cell is `Label` (want exactly one)',
                  'keep one table of every label, with `Label` as its first column')
        return rep.done('no table')
    table = tabs[0]
    try:
        where_col = table.header.index('Where')
    except ValueError:
        where_col = None
        rep.error(f'{ORDERING}:{table.line}', 'the label table has no `Where` column',
                  'add a `Where` column naming the functions of rcu.h that hold each label')
    rows = {}
    for line, cells in table.rows:
        lab = cells[0].strip().strip('`*')
        if not re.match(r'^[A-Z][0-9]{1,2}$', lab):
            rep.error(f'{ORDERING}:{line}', f'first cell `{cells[0]}` is not one label',
                      'put exactly one label (a capital letter and a number, as in rcu.h) in the first column')
            continue
        if lab in rows:
            rep.error(f'{ORDERING}:{line}', f'{lab} has a second row (the first is at line {rows[lab][0]})',
                      'keep one row per label')
            continue
        rows[lab] = (line, cells)

    # 1 and 2.
    for lab in sorted(code, key=lambda x: (x[0], int(x[1:]))):
        e = code[lab]
        at = (e['defs'] or e['mentions'])[0]
        if lab not in rows:
            kind = 'defines' if e['defs'] else 'mentions'
            rep.error(f'rcu.h:{at}', f'rcu.h {kind} label {lab}, which has no row in the table of {ORDERING}',
                      f'add a row for {lab} to the table (what it orders, what it pairs with, what breaks without it)')
        if not e['defs']:
            rep.warn(f'rcu.h:{at}', f'label {lab} is mentioned (lines {", ".join(map(str, e["mentions"]))}) but '
                     'no comment defines it', f'rcu.h should mark the ordering point with `/* {lab}: ... */`')
    for lab, (line, _) in rows.items():
        if lab not in code:
            rep.error(f'{ORDERING}:{line}', f'label {lab} is in the table but nowhere in rcu.h',
                      'remove the row, or correct the label to the one rcu.h uses')

    # 3. Where.
    if where_col is not None:
        extents = function_extents(root, a.cc, rep)
        for lab, (line, cells) in rows.items():
            if lab not in code or where_col >= len(cells):
                continue
            named = set()
            for s in doclib.code_spans(cells[where_col]):
                m = re.match(r'^([A-Za-z_]\w*)\s*\(', s)
                if m:
                    named.add(short(m.group(1)))
            sites = code[lab]['defs'] or []
            for site in sites:
                fn = enclosing(extents, site)
                if fn is None:
                    continue
                if short(fn) not in named and fn not in named:
                    rep.error(f'{ORDERING}:{line}', f'{lab} is defined at rcu.h:{site}, in `{short(fn)}()`, '
                              f'which its `Where` cell does not name',
                              f'name `{short(fn)}()` in the Where cell of {lab} (or move the label back)')

    # 4. Labels cited by the docs.
    letters = {lab[0] for lab in list(code) + list(rows)}
    cited = 0
    for rel in ['README.md'] + [f for f in doclib.doc_files(root) if f.startswith('docs' + os.sep)]:
        if not os.path.exists(os.path.join(root, rel)):
            continue
        for n, text in doclib.prose_lines(doclib.read_lines(root, rel)):
            for lab in labels_in(text):
                if lab[0] not in letters:
                    continue
                cited += 1
                if lab not in rows:
                    rep.error(f'{rel}:{n}', f'cites label {lab}, which is not in the table of {ORDERING}',
                              'correct the label, or add it to rcu.h and the table')
    ndefs = sum(1 for e in code.values() if e['defs'])
    return rep.done(f'{len(code)} labels in rcu.h ({ndefs} defined), {len(rows)} rows in the table, '
                    f'{cited} citations in the docs')


if __name__ == '__main__':
    sys.exit(main())

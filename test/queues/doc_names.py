#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""queues-doc-names: docs/queues.md names every public name of the queue and stack headers, and
every liburcu name of their compat headers (meson test --suite queues).

    doc_names.py --src ROOT --cc GCC [--clang CLANG] [--list]

The rules are docs-api-names' (test/docs/api_names.py), applied to other files:
  - public names: what rcu_wfcqueue.h, rcu_wfstack.h and rcu_lfstack.h define (macros, functions,
    tags, enumerators, as test/docs/cdecl.py reads them from `cc -E -dD`), without and with
    RCU_DEBUG and RCU_DEBUG_DELAY, whose name does not start with rcu__ or RCU__; not the include
    guards nor _DEFAULT_SOURCE (a feature-test macro for the system headers); plus the RCU_*
    macros the headers test in #if (configuration macros);
  - entries: code spans of headings, and of the first cell of table rows whose header's first
    cell is `Name` or `Macro`. Each public name has exactly one entry and each entry names one;
    a function's entry is its prototype, compiled against its header with gcc (and clang when
    given), -std=c11 -Wall -Wextra -Wpedantic -Werror; a function-like macro's entry has as many
    parameters as its #define;
  - liburcu's names: every name that compat/liburcu/urcu/{wfcqueue,lfstack,wfstack,rculfqueue,
    rculfstack,wfqueue}.h define (macros, functions, tags, typedefs; not their include guards) has
    a code span in the first cell of a row of the table whose header's first cell is `liburcu`,
    and every name there is one they define.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'docs'))
import cdecl  # noqa: E402
import doclib  # noqa: E402
from api_names import parse_entry, count_params  # noqa: E402

DOC = 'docs/queues.md'
HEADERS = ['rcu_wfcqueue.h', 'rcu_wfstack.h', 'rcu_lfstack.h']
COMPAT = ['wfcqueue', 'lfstack', 'wfstack', 'rculfqueue', 'rculfstack', 'wfqueue']
CONFIGS = [[], ['RCU_DEBUG', 'RCU_DEBUG_DELAY']]
STRICT = ['-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror']


def header_names(root, cc, path, defines, includes):
    """(ok, {name: Name} or error) of what `path` itself defines, preprocessed as C11."""
    cmd = [cc, '-std=c11', '-E', '-dD', '-x', 'c'] + ['-I' + i for i in includes] + \
        ['-D' + d for d in defines] + [path]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, p.stderr
    lines = cdecl.own_lines(p.stdout, os.path.realpath(path))
    out = dict(cdecl.macros(lines))
    for n in cdecl.parse_decls(cdecl.tokenize(lines)):
        out.setdefault(n.name, n)
    return True, out


def guard_of(path):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    m = re.search(r'^#ifndef\s+(\w+)\s*\n#define\s+\1\b', text, re.M)
    return m.group(1) if m else None


def tested_macros(path):
    """RCU_* names the header tests in #if/#ifdef/#ifndef/#elif/defined()."""
    out = set()
    with open(path, encoding='utf-8') as f:
        for line in f:
            if re.match(r'^\s*#\s*(if|ifdef|ifndef|elif)\b', line):
                out.update(re.findall(r'\b(RCU_[A-Z0-9_]+)\b', line))
    return out


def entries(lines, first_cells):
    spans = []
    for line, _, text in doclib.headings(lines):
        if first_cells == ('Name', 'Macro'):
            for s in doclib.code_spans(text):
                spans.append((line, s))
    for t in doclib.tables(lines):
        if t.header and t.header[0] in first_cells:
            for line, cells in t.rows:
                for s in doclib.code_spans(cells[0]):
                    spans.append((line, s))
    return spans


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--clang', default='')
    ap.add_argument('--list', action='store_true')
    a = ap.parse_args()
    root = os.path.abspath(a.src)
    rep = doclib.Report('queues-doc-names')

    # Public names of the native headers.
    public = {}  # name -> (kind, header:line, header, params forms)
    for h in HEADERS:
        path = os.path.join(root, h)
        guard = guard_of(path)
        for cfg in CONFIGS:
            ok, res = header_names(root, a.cc, path, cfg, [root])
            if not ok:
                rep.error(h, f'does not preprocess with {cfg}:\n    ' + res.strip().split('\n')[0], 'fix the header')
                continue
            for n in res.values():
                if n.name.startswith(('rcu__', 'RCU__')) or n.name == guard or n.name.startswith('_'):
                    continue
                if n.kind == 'prototype':
                    continue
                e = public.setdefault(n.name, [n.kind, f'{h}:{n.line}', h, set()])
                if n.kind == 'macro':
                    e[3].add(None if n.params is None else tuple(n.params))
        for m in tested_macros(path):
            if not m.startswith('RCU__') and m != guard:
                public.setdefault(m, ['configuration macro', h, h, set()])
    if a.list:
        for name, (kind, where, _, _) in sorted(public.items()):
            print(f'{where}: {kind} {name}')

    lines = doclib.read_lines(root, DOC)
    seen = {}
    checked = []
    for line, span in entries(lines, ('Name', 'Macro')):
        p = parse_entry(span)
        if p is None:
            rep.error(f'{DOC}:{line}', f'entry `{span}` names nothing that can be read as a C name',
                      'write the entry as a prototype, a macro with its parameters, a name or `struct X`')
            continue
        name, ret, params = p
        if name in seen:
            rep.error(f'{DOC}:{line}', f'`{name}` has a second entry (the first is at line {seen[name]})',
                      'keep one entry per name')
            continue
        seen[name] = line
        if name not in public:
            rep.error(f'{DOC}:{line}', f'entry `{span}` names `{name}`, which no queue or stack header defines',
                      'correct the name, or remove the entry')
            continue
        kind, where, header, forms = public[name]
        if kind == 'function':
            if ret is None:
                rep.error(f'{DOC}:{line}', f'`{name}` is a function; its entry gives no prototype',
                          'write the whole prototype')
            else:
                checked.append((line, header, name, ret, params))
        elif kind == 'macro' and forms:
            if params is None and None not in forms:
                rep.error(f'{DOC}:{line}', f'`{name}` is a function-like macro; give its parameters', 'as the #define')
            elif params is not None and not any(f is not None and len(f) == count_params(params) for f in forms):
                rep.error(f'{DOC}:{line}', f'entry `{span}` has the wrong number of parameters', 'as the #define')
    for name, (kind, where, _, _) in sorted(public.items()):
        if name not in seen:
            rep.error(where, f'public {kind} `{name}` has no entry in {DOC}',
                      f'add a heading or a row of a `Name` table that names it, or make it private (rcu__)')

    # The documented prototypes compile against their header.
    compilers = [a.cc] + ([a.clang] if a.clang else [])
    n_compiles = 0
    with tempfile.TemporaryDirectory(prefix='rcu-queues-doc-') as tmp:
        for h in HEADERS:
            body = [f'#include "{h}"', 'void rcu_queues_doc_signatures(void);', 'void rcu_queues_doc_signatures(void)', '{']
            mine = [c for c in checked if c[1] == h]
            for k, (line, _, name, ret, params) in enumerate(mine):
                body.append(f'#line {line} "{DOC}"')
                body.append(f'\t{" ".join(ret)} (*sig_{k})({params}) = &({name}); (void)sig_{k};')
            body.append('}')
            src = os.path.join(tmp, h + '.c')
            with open(src, 'w', encoding='utf-8') as f:
                f.write('\n'.join(body) + '\n')
            for cc in compilers:
                n_compiles += 1
                p = subprocess.run([cc] + STRICT + ['-I' + root, '-fsyntax-only', src], capture_output=True, text=True)
                if p.returncode != 0:
                    rep.error(f'{DOC} ({h}, {os.path.basename(cc)})', 'documented prototypes do not match:\n' +
                              '\n'.join('    ' + x for x in p.stderr.strip().split('\n')[:10]),
                              'make each prototype say what the header declares')

    # liburcu's names.
    compat_names = {}
    for c in COMPAT:
        path = os.path.join(root, 'compat', 'liburcu', 'urcu', c + '.h')
        guard = guard_of(path)
        ok, res = header_names(root, a.cc, path, ['CDS_WFQ_DEPRECATED=', 'CDS_LFS_RCU_DEPRECATED='],
                               [root, os.path.join(root, 'compat', 'liburcu')])
        if not ok:
            rep.error(path, 'does not preprocess:\n    ' + res.strip().split('\n')[0], 'fix the header')
            continue
        for n in res.values():
            if n.name == guard or n.kind == 'prototype':
                continue
            compat_names.setdefault(re.sub(r'^(struct|enum|union)\s+', '', n.name), f'compat/liburcu/urcu/{c}.h:{n.line}')
        # The deprecation macros are tested, not defined, when a program defines them first.
        for m in ('CDS_WFQ_DEPRECATED', 'CDS_LFS_RCU_DEPRECATED'):
            if m in open(path, encoding='utf-8').read():
                compat_names.setdefault(m, f'compat/liburcu/urcu/{c}.h')
    documented = {}
    for line, span in entries(lines, ('liburcu',)):
        s = re.sub(r'\(\)$', '', span.strip())
        s = re.sub(r'^(struct|enum|union)\s+', '', s)
        if not re.match(r'^[A-Za-z_]\w*$', s):
            rep.error(f'{DOC}:{line}', f'`{span}` in the liburcu table is not a name', 'write `name`, `name()` or `struct name`')
            continue
        if s in documented:
            rep.error(f'{DOC}:{line}', f'`{s}` is listed twice (first at line {documented[s]})', 'keep one')
            continue
        documented[s] = line
        if s not in compat_names:
            rep.error(f'{DOC}:{line}', f'`{s}` is not defined by the compat headers', 'correct the name or remove it')
    for name, where in sorted(compat_names.items()):
        if name not in documented:
            rep.error(where, f'liburcu name `{name}` is not in the liburcu table of {DOC}', 'add it to the table')

    return rep.done(f'{len(public)} public names, {len(seen)} entries, {len(checked)} prototypes compiled '
                    f'{n_compiles} times, {len(compat_names)} liburcu names')


if __name__ == '__main__':
    sys.exit(main())

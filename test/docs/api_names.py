#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-api-names: every public name of rcu.h has an entry in docs/api.md, and every entry names
a public name of rcu.h (meson test --suite docs).

    api_names.py --src ROOT --cc GCC [--clang CLANG] [--list]

Public names. Everything rcu.h defines, in any flavour and any configuration, whose name does
not start with `rcu__` or `RCU__`:
  - macros, object-like and function-like: the `#define`s of rcu.h itself, as `cc -E -dD`
    reports them (its line markers tell rcu.h's lines from the system headers');
  - function definitions, file-scope objects, typedefs, `struct`/`union`/`enum` tags and enum
    constants, parsed from the preprocessed lines of rcu.h;
  - configuration macros: the `RCU_*` names that rcu.h tests in `#if`, `#ifdef`, `#ifndef` or
    `#elif` (RCU_DEBUG, RCU_NO_FUTEX, ...), which a user defines and rcu.h may never define;
  - with --cxx, the macros that rcu.h defines when compiled as C++ (-std=c++17). C++ declarations
    (namespaces, classes, templates) are not parsed: document them by hand.
Configurations: rcu.h is preprocessed once per flavour (the list in rcu_flavours/flavours.txt)
with no switch, with each switch alone, and with every switch at once. A switch is a configuration
macro that rcu.h tests but never defines itself (RCU_DEBUG, RCU_NO_MEMBARRIER, ...), so a name
that exists only under one of them is found, and a switch added later is tried without a change
here. A configuration that rcu.h rejects with #error (RCU_DEBUG_DEREFERENCE without RCU_DEBUG)
is skipped; the flavours' plain and all-switches configurations must preprocess.
Not public, and why:
  - the include guard (the `#ifndef X` / `#define X` pair that opens rcu.h): an implementation
    detail users must not define;
  - macros whose name begins with an underscore (`_DEFAULT_SOURCE`): feature-test macros that
    rcu.h sets for the system headers; such names are reserved (C11 7.1.3) and not rcu.h's API;
  - prototypes of functions that rcu.h does not define (the `syscall()` re-declaration for strict
    POSIX builds): those are the system's names;
  - struct members and function parameters: documented with their struct or function.

Entries. A docs/api.md entry is
  - a heading (any level) whose text holds code spans: each code span is an entry, e.g.
    ### `void rcu_thread_offline(void)` / `void rcu_thread_online(void)`
  - a row of a table whose header's first cell is `Name` or `Macro`: each code span of the
    row's first cell is an entry, e.g. | `RCU_LIST_HEAD_INIT(name)` | | static initialiser |
An entry's code span is a prototype (`uint64_t get_state_synchronize_rcu(void)`), a macro with
its parameters (`rcu_free(ptr, field)`), a name (`RCU_DEBUG`), or a tag (`struct rcu_head`).
Each public name must have exactly one entry, and each entry must name a public name.

Flavours. While docs/api.md says that every flavour defines every name, each public name must
be defined in every flavour (in some configuration of it).

The compat folder. The name layers that rcu.h includes with RCU_LIBURCU_NAMES and
RCU_KERNEL_NAMES (compat/liburcu/rcu_liburcu_names.h, compat/kernel/rcu_kernel_names.h and the
headers they include) are public names too, and reported at their own file and line. liburcu's
flavour-prefixed names, defined in each flavour for that flavour (urcu_qsbr_read_lock in QSBR,
urcu_memb_read_lock in MEMB, ...; the flavours of rcu_flavours/flavours.txt), have one entry for
all of them, written with `<flavour>`:
`void urcu_<flavour>_read_lock(void)`; a prefixed name that only some flavours define keeps
entries of its own (`urcu_bp_dereference(p)`).

Signatures. A function's entry is its prototype, which is compiled against rcu.h (gcc, and
clang when given) in every flavour, without and with all switches: a pointer of the documented
type is initialised with the function, so a wrong return or parameter type fails to compile,
and the error points at the line of docs/api.md (#line). An entry of a function-like macro must
give as many parameters as the #define has; an object-like macro's entry gives none.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdecl  # noqa: E402
import doclib  # noqa: E402

API_DOC = 'docs/api.md'
ENTRY_TABLE_HEADERS = ('Name', 'Macro')
STRICT = ['-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror']
GENERIC = 'urcu_<flavour>_'


def flavoured(root):
    """liburcu's flavour-prefixed names, urcu_<flavour>_<rest> (groups 1 and 2), for the flavours of
    rcu_flavours/flavours.txt: read from the list, so that a flavour added there is covered here."""
    return re.compile(r'^urcu_(' + '|'.join(map(re.escape, doclib.flavours(root))) + r')_(\w+)$')


def where(line):
    """rcu.h:N, or compat/...:N for a name of the compat folder."""
    return line.where() if isinstance(line, cdecl.Line) else f'rcu.h:{line}'


def generic(name, flavour):
    """urcu_<flavour>_x -> urcu_<flavour's name>_x; other names unchanged."""
    return name.replace(GENERIC, f'urcu_{flavour}_') if name.startswith(GENERIC) else name


def flavour_of(defines):
    return defines[0].replace('RCU_FLAVOUR_', '').lower()


def is_private(name):
    """rcu__x, RCU__X, struct rcu__x."""
    return name.split(' ')[-1].startswith(('rcu__', 'RCU__'))


def public_names(root, cc, rep, cxx=''):
    """{name: (kind, rcu.h line)} over every configuration, and the configurations that built."""
    configs, switches = cdecl.configurations(root, doclib.flavours(root))
    tested, _ = cdecl.config_macros(root)
    guard = cdecl.include_guard(root)
    public, excluded, built = {}, {}, []
    runs = [(d, r, 'c') for d, r in configs]
    if cxx:  # macros that only C++ sees (the flavours' plain and all-switches configurations)
        longest = max(len(d) for d, _ in configs)
        runs += [(d, False, 'c++') for d, _ in configs if len(d) in (1, longest)]
    for defines, required, lang in runs:
        ok, res = cdecl.names(root, cxx if lang == 'c++' else cc, defines, lang, compat=True)
        if not ok:
            if required:
                rep.error('rcu.h:1', f'rcu.h does not preprocess with -D{" -D".join(defines)}:\n' +
                          '\n'.join('    ' + x for x in res.strip().split('\n')[:8]),
                          'every flavour must preprocess with no switch and with every switch at once')
            continue
        if lang == 'c':
            built.append((defines, {n.name: n for n in res}))
        for n in res:
            if is_private(n.name):
                continue
            if n.kind == 'macro' and (n.name == guard or n.name.startswith('_')):
                excluded.setdefault(n.name, 'include guard' if n.name == guard else 'feature-test macro for the system headers')
                continue
            if n.kind == 'prototype':
                excluded.setdefault(n.name, 'declared, not defined, by rcu.h (a system function)')
                continue
            key = n.name
            if key not in public or (public[key][0] == 'macro' and n.kind == 'function'):
                public[key] = (n.kind, n.line)
    for name, line in tested.items():
        if name.startswith('RCU__') or name == guard:
            continue
        public.setdefault(name, ('configuration macro', line))
    for name in list(excluded):
        if name in public:
            del excluded[name]
    # liburcu's flavour-prefixed names that every flavour defines (for itself): one entry for four.
    per_flavour = {}
    for defines, names in built:
        per_flavour.setdefault(flavour_of(defines), set()).update(names)
    suffixes = {}
    prefixed = flavoured(root)
    for name in public:
        m = prefixed.match(name)
        if m:
            suffixes.setdefault(m.group(2), set()).add(m.group(1))
    for suffix, fls in suffixes.items():
        if all(f'urcu_{fl}_{suffix}' in per_flavour.get(fl, ()) for fl in per_flavour):
            first = None
            for fl in sorted(fls):
                first = first or public.get(f'urcu_{fl}_{suffix}')
                public.pop(f'urcu_{fl}_{suffix}', None)
            public[GENERIC + suffix] = first
    return public, excluded, built, switches


def parse_entry(span):
    """(name, return type tokens or None, parameter text or None) of an entry's code span."""
    if GENERIC in span:
        p = parse_entry(span.replace(GENERIC, 'urcu_FLAVOUR_'))
        return p and (p[0].replace('urcu_FLAVOUR_', GENERIC), p[1], p[2])
    toks = [m.group() for m in cdecl.TOKEN.finditer(span) if m.lastgroup != 'ws']
    if not toks:
        return None
    if len(toks) == 2 and toks[0] in ('struct', 'union', 'enum'):
        return toks[0] + ' ' + toks[1], None, None
    if '(' in toks:
        i = toks.index('(')
        if i > 0 and re.match(r'^[A-Za-z_]\w*$', toks[i - 1]):
            name = toks[i - 1]
            ret = toks[:i - 1]
            j = cdecl.matching([(t, 0) for t in toks], i, '(', ')')
            return name, (ret or None), ' '.join(toks[i + 1:j])
        if i == 0 or toks[i - 1] not in ('(',):
            # `ret (name)(params)`
            j = cdecl.matching([(t, 0) for t in toks], i, '(', ')')
            inner = toks[i + 1:j]
            if len(inner) == 1 and j + 1 < len(toks) and toks[j + 1] == '(':
                k = cdecl.matching([(t, 0) for t in toks], j + 1, '(', ')')
                return inner[0], (toks[:i] or None), ' '.join(toks[j + 2:k])
        return None
    ids = [t for t in toks if re.match(r'^[A-Za-z_]\w*$', t)]
    return (ids[-1], None, None) if ids else None


def doc_entries(root, rep):
    """[(line, span, name, ret, params)] of docs/api.md."""
    path = os.path.join(root, API_DOC)
    if not os.path.exists(path):
        rep.error(API_DOC, 'missing', 'docs/api.md is the API reference: every public name has an entry there')
        return []
    lines = doclib.read_lines(root, API_DOC)
    spans = []
    for line, _, text in doclib.headings(lines):
        for s in doclib.code_spans(text):
            spans.append((line, s))
    for t in doclib.tables(lines):
        if t.header and t.header[0] in ENTRY_TABLE_HEADERS:
            for line, cells in t.rows:
                for s in doclib.code_spans(cells[0]):
                    spans.append((line, s))
    out = []
    for line, s in spans:
        p = parse_entry(s)
        if p is None:
            rep.error(f'{API_DOC}:{line}', f'entry `{s}` names nothing that can be read as a C name',
                      'write the entry as a prototype, a macro with its parameters, a name or `struct X`')
            continue
        out.append((line, s, p[0], p[1], p[2]))
    return out


def count_params(text):
    if text is None or text.strip() in ('', 'void'):
        return 0
    depth, n = 0, 1
    for c in text:
        if c in '([':
            depth += 1
        elif c in ')]':
            depth -= 1
        elif c == ',' and depth == 0:
            n += 1
    return n


def check_signatures(root, entries, built, compilers, rep):
    """Compile the documented prototypes against rcu.h, in each configuration that defines them.
    Problems are reported once per line of docs/api.md, with the configurations that show them."""
    checked = set()
    n_compiles = 0
    problems = {}  # doc line -> {'msgs': [..], 'where': [..]}
    longest = max((len(d) for d, _ in built), default=0)
    with tempfile.TemporaryDirectory(prefix='rcu-docs-api-') as tmp:
        for defines, names in built:
            if len(defines) not in (1, longest):
                continue  # the plain and the all-switches configuration of each flavour
            body = []
            for k, (line, span, name, ret, params) in enumerate(entries):
                concrete = generic(name, flavour_of(defines))
                n = names.get(concrete)
                if ret is None or n is None or n.kind != 'function':
                    continue
                checked.add(name)
                body.append(f'#line {line} "{API_DOC}"')
                body.append(f'\t{" ".join(ret)} (*rcu_docs_sig_{k})({params}) = &({concrete}); (void)rcu_docs_sig_{k};')
            if not body:
                continue
            src = os.path.join(tmp, 'sig_' + '_'.join(d.lower() for d in defines) + '.c')
            with open(src, 'w', encoding='utf-8') as f:
                f.write('#include "rcu.h"\nvoid rcu_docs_signatures(void);\nvoid rcu_docs_signatures(void)\n{\n')
                f.write('\n'.join(body) + '\n}\n')
            for cc in compilers:
                n_compiles += 1
                cmd = [cc] + STRICT + ['-pthread', '-fsyntax-only', '-I' + root] + ['-D' + d for d in defines] + [src]
                p = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
                if p.returncode == 0:
                    continue
                where = f'{os.path.basename(cc)} -D{" -D".join(defines)}'
                found = False
                for ln in p.stderr.split('\n'):
                    m = re.match(r'^' + re.escape(API_DOC) + r':(\d+):(?:\d+:)?\s*error:\s*(.*)$', ln)
                    if m:
                        found = True
                        pr = problems.setdefault(int(m.group(1)), {'msgs': [], 'where': []})
                        if m.group(2) not in pr['msgs']:
                            pr['msgs'].append(m.group(2))
                        if where not in pr['where']:
                            pr['where'].append(where)
                if not found:
                    rep.error('rcu.h', f'the prototype check does not compile ({where}):\n' +
                              '\n'.join('    ' + x for x in p.stderr.strip().split('\n')[:12]),
                              'rcu.h must compile with ' + ' '.join(STRICT) + ' in every flavour')
    for line in sorted(problems):
        pr = problems[line]
        more = f' (and {len(pr["where"]) - 1} more configurations)' if len(pr['where']) > 1 else ''
        rep.error(f'{API_DOC}:{line}', 'the documented prototype does not match rcu.h:\n' +
                  '\n'.join('    ' + m for m in pr['msgs'][:4]) + f'\n    seen with {pr["where"][0]}{more}',
                  'make the prototype say what rcu.h declares: return type and parameter types')
    return checked, n_compiles


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--clang', default='')
    ap.add_argument('--cxx', default='', help='a C++ compiler: also collect the macros rcu.h defines for C++')
    ap.add_argument('--list', action='store_true', help='print the public names found and exit')
    a = ap.parse_args()
    root = os.path.abspath(a.src)
    rep = doclib.Report('docs-api-names')

    public, excluded, built, switches = public_names(root, a.cc, rep, a.cxx)
    if a.list:
        for name, (kind, line) in sorted(public.items(), key=lambda x: x[1][1]):
            print(f'{where(line)}: {kind} {name}')
        for name, why in sorted(excluded.items()):
            print(f'not public: {name} ({why})')
        print(f'switches tried: {", ".join(switches) or "none"}')
        return 0

    entries = doc_entries(root, rep)
    seen = {}
    for line, span, name, ret, params in entries:
        if name in seen:
            rep.error(f'{API_DOC}:{line}', f'`{name}` has a second entry (the first is at line {seen[name]})',
                      'keep one entry per name and refer to it from the other place in prose')
            continue
        seen[name] = line
        if name not in public:
            hint = ''
            if is_private(name):
                hint = ' (it is private: rcu__/RCU__ names are not API)'
            rep.error(f'{API_DOC}:{line}', f'entry `{span}` names `{name}`, which rcu.h does not define in any '
                      f'flavour or configuration{hint}',
                      'correct the name, or remove the entry if the name is gone from rcu.h')
    for name, (kind, line) in sorted(public.items(), key=lambda x: x[1][1]):
        if name not in seen:
            rep.error(where(line), f'public {kind} `{name}` has no entry in {API_DOC}',
                      f'add a heading or a row of a `Name` table in {API_DOC} that names it (with its prototype or '
                      'parameters), or rename it with the rcu__/RCU__ prefix if it is private')

    # Macro arity against the #define (in any configuration that has it).
    macro_defs = {}
    functions = set()
    prefixed = flavoured(root)
    for defines, names in built:
        fl = flavour_of(defines)
        for n in names.values():
            keys = [n.name] + [GENERIC + m.group(2) for m in [prefixed.match(n.name)] if m and m.group(1) == fl]
            for key in keys:
                if n.kind == 'macro':
                    macro_defs.setdefault(key, set()).add(None if n.params is None else tuple(n.params))
                elif n.kind == 'function':
                    functions.add(key)
    for line, span, name, ret, params in entries:
        if name in functions and ret is None:
            rep.error(f'{API_DOC}:{line}', f'entry `{span}`: `{name}` is a function; its entry gives no prototype',
                      'write the whole prototype (return type, name, parameter types), so that the suite can check it')
        if name in functions or name not in macro_defs:
            continue
        forms = macro_defs[name]
        if params is None:
            if None not in forms:
                want = ', '.join(sorted('(' + ', '.join(f) + ')' for f in forms if f is not None))
                rep.error(f'{API_DOC}:{line}', f'entry `{span}`: `{name}` is a function-like macro {name}{want}',
                          'write the entry with the parameters of the #define')
        else:
            n = count_params(params)
            if not any(f is not None and len(f) == n for f in forms):
                want = ' or '.join(sorted('object-like' if f is None else f'{name}(' + ', '.join(f) + ')' for f in forms))
                rep.error(f'{API_DOC}:{line}', f'entry `{span}` gives {n} parameter(s); rcu.h defines {want}',
                          'give the entry the parameters of the #define')

    # "All four flavours define every name" (docs/api.md): while api.md says so, hold rcu.h to it.
    text = open(os.path.join(root, API_DOC), encoding='utf-8').read() if os.path.exists(os.path.join(root, API_DOC)) else ''
    m = re.search(r'^.*\bflavours define every name\b.*$', text, re.M)
    if m:
        claim_line = text[:m.start()].count('\n') + 1
        per_flavour = {}
        for defines, names in built:
            per_flavour.setdefault(defines[0], set()).update(names)
        # The sentence may except liburcu's flavour-prefixed names ("urcu_<flavour>_"): then each
        # of them must exist in its own flavour and in no other.
        prefixed = flavoured(root) if 'urcu_<flavour>_' in m.group(0) else None
        for fl, have in sorted(per_flavour.items()):
            flavour = fl.replace('RCU_FLAVOUR_', '').lower()
            for name, (kind, line) in sorted(public.items(), key=lambda x: x[1][1]):
                if name.startswith(GENERIC):
                    if generic(name, flavour) not in have:
                        rep.error(where(line), f'`{generic(name, flavour)}` is not defined with -D{fl}, but {name} '
                                  'stands for every flavour\'s', 'define it in that flavour too')
                    continue
                pm = prefixed.match(name) if prefixed else None
                if pm:
                    if (pm.group(1) == flavour) != (name in have):
                        rep.error(where(line), f'`{name}` is {"not " if name not in have else ""}defined with '
                                  f'-D{fl}, but {API_DOC}:{claim_line} says urcu_<flavour>_ names exist in their own '
                                  'flavour only', 'define it in its flavour alone')
                    continue
                if kind != 'configuration macro' and name not in have:
                    rep.error(where(line), f'`{name}` is not defined with -D{fl}, but {API_DOC}:{claim_line} says '
                              'every flavour defines every name',
                              'define it in that flavour too (a no-op if it means nothing there), or change that '
                              'sentence and say in the entry which flavours have it')

    compilers = [a.cc] + ([a.clang] if a.clang else [])
    checked, n_compiles = check_signatures(root, entries, built, compilers, rep)
    return rep.done(f'{len(public)} public names, {len(entries)} entries, {len(checked)} prototypes compiled '
                    f'{n_compiles} times, {len(built)} configurations, switches: {", ".join(switches) or "none"}')


if __name__ == '__main__':
    sys.exit(main())

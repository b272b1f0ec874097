#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-code-blocks: every C block of the docs compiles (and runs), or is marked as a fragment
(meson test --suite docs).

    code_blocks.py --src ROOT --out DIR --gcc GCC [--clang CLANG] [--jobs N] [--only DOC,...]

Docs: every *.md of the repository (README.md, docs/, rcu_flavours/, ...). Every fenced block
must say its language in the info string (```c, ```sh, ```text); only `c` blocks are compiled.

A C block is, by what it holds:
  - a whole program (it defines `main`): compiled and linked, then run; it must exit 0;
  - a set of definitions without `main`: compiled as a translation unit (-c);
  - either of them, with a driver: the driver file is appended to the block in the same
    translation unit (so it can use the block's types and static objects), and the result is
    linked and run like a whole program.
Each is built once per flavour (the list in rcu_flavours/flavours.txt, as -DRCU_FLAVOUR_<NAME>)
with gcc and, when given, clang, with the project's strictness:
    -std=c11 -Wall -Wextra -Wpedantic -Werror -pthread -I<root>
A block that selects its own flavour (`#define RCU_FLAVOUR_...` or `#include
"rcu_flavours/..."`) is built once, without a flavour define. The compiler's messages point at
the lines of the Markdown file (the generated source starts with #line).

Markers: an HTML comment on the line just above the opening fence (not rendered, visible in the
source):
    <!-- fragment: why it cannot be compiled -->      not compiled; the reason is required
    <!-- check: flavours=qsbr,bp -->                   only these flavours
    <!-- check: driver=test/docs/drivers/x.c -->      append this driver, link and run
    <!-- check: defines=RCU_DEBUG,RCU_NO_FUTEX -->     extra -D for this block
Options of one `check:` marker are separated by spaces.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doclib  # noqa: E402

STRICT = ['-std=c11', '-Wall', '-Wextra', '-Wpedantic', '-Werror', '-pthread']
C_LANGS = ('c', 'C', 'h')
RUN_TIMEOUT = 60


def parse_marker(block, all_flavours, rep):
    """(skip, options) from the HTML comment above the block."""
    opts = {'flavours': list(all_flavours), 'driver': None, 'defines': []}
    m = block.marker
    where = f'{block.path}:{block.marker_line or block.line}'
    if m is None:
        return False, opts
    if m.startswith('fragment'):
        reason = m[len('fragment'):].lstrip(':').strip()
        if not reason:
            rep.error(where, 'fragment marker without a reason',
                      'say why the block cannot be compiled: <!-- fragment: kernel notation, not C -->')
        return True, opts
    if not m.startswith('check'):
        return False, opts
    for item in m[len('check'):].lstrip(':').split():
        key, _, val = item.partition('=')
        if key == 'flavours':
            fl = [f for f in val.split(',') if f]
            bad = [f for f in fl if f not in all_flavours]
            if bad or not fl:
                rep.error(where, f'unknown flavour(s) {", ".join(bad) or "(none)"} in `{item}`',
                          f'use names from rcu_flavours/flavours.txt: {", ".join(all_flavours)}')
            opts['flavours'] = [f for f in fl if f in all_flavours]
        elif key == 'driver':
            opts['driver'] = val
        elif key == 'defines':
            opts['defines'] = [d for d in val.split(',') if d]
        else:
            rep.error(where, f'unknown option `{item}` in the check marker',
                      'use flavours=..., driver=... or defines=...')
    return False, opts


def build_and_run(job):
    """One compilation (and run): returns (job, ok, what failed, output)."""
    src, exe, cc, args, run = job['src'], job['exe'], job['cc'], job['args'], job['run']
    cmd = [cc] + STRICT + args + [src] + (['-o', exe] if run else ['-c', '-o', exe + '.o'])
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=job['root'])
    if p.returncode != 0:
        return job, False, 'does not compile', p.stdout + p.stderr
    if not run:
        return job, True, '', ''
    try:
        r = subprocess.run([exe], capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=job['root'])
    except subprocess.TimeoutExpired:
        return job, False, f'did not finish within {RUN_TIMEOUT} s', ''
    if r.returncode != 0:
        how = f'exit status {r.returncode}' if r.returncode > 0 else f'signal {-r.returncode}'
        return job, False, f'runs but fails ({how})', r.stdout + r.stderr
    return job, True, '', ''


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--gcc', default='gcc')
    ap.add_argument('--clang', default='')
    ap.add_argument('--jobs', type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument('--only', default='', help='comma-separated docs to check (paths from the root)')
    a = ap.parse_args()
    root = os.path.realpath(a.src)
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    rep = doclib.Report('docs-code-blocks')
    all_flavours = doclib.flavours(root)
    compilers = [a.gcc] + ([a.clang] if a.clang else [])

    jobs, n_blocks, n_fragments, n_other = [], 0, 0, 0
    only = [x for x in a.only.split(',') if x]
    for rel in doclib.doc_files(root):
        if only and rel not in only:
            continue
        for b in doclib.fenced_blocks(root, rel):
            if not b.lang:
                rep.error(f'{rel}:{b.line}', 'fenced block without a language',
                          'name it in the info string: ```c (compiled), ```sh, ```text, ...')
                continue
            if b.lang not in C_LANGS:
                n_other += 1
                continue
            skip, opts = parse_marker(b, all_flavours, rep)
            if skip:
                n_fragments += 1
                continue
            n_blocks += 1
            text = '\n'.join(b.body)
            own_flavour = re.search(r'^\s*#\s*define\s+RCU_FLAVOUR_|^\s*#\s*include\s+"rcu_flavours/', text, re.M)
            has_main = re.search(r'\bint\s+main\s*\(', text)
            driver_text = ''
            if opts['driver']:
                dp = os.path.join(root, opts['driver'])
                if not os.path.isfile(dp):
                    rep.error(f'{rel}:{b.marker_line}', f'driver {opts["driver"]} does not exist',
                              'give the driver\'s path from the repository root (test/docs/drivers/...)')
                    continue
                driver_text = f'#line 1 "{opts["driver"]}"\n' + open(dp, encoding='utf-8').read()
            run = bool(has_main or driver_text)
            slug = re.sub(r'[^A-Za-z0-9]+', '_', rel) + f'_L{b.line}'
            variants = [None] if own_flavour else opts['flavours']
            for fl in variants:
                for cc in compilers:
                    name = f'{slug}_{fl or "own"}_{os.path.basename(cc)}'
                    src = os.path.join(out, name + '.c')
                    with open(src, 'w', encoding='utf-8') as f:
                        f.write(f'#line {b.first_body_line} "{rel}"\n{text}\n{driver_text}\n')
                    args = ['-I' + root] + (['-DRCU_FLAVOUR_' + fl.upper()] if fl else []) + \
                        ['-D' + d for d in opts['defines']]
                    jobs.append({'root': root, 'rel': rel, 'line': b.line, 'src': src,
                                 'exe': os.path.join(out, name), 'cc': cc, 'args': args, 'run': run,
                                 'flavour': fl or 'its own flavour'})

    failures = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for job, ok, what, output in ex.map(build_and_run, jobs):
            if not ok:
                failures.setdefault((job['rel'], job['line'], what), []).append((job, output))
    for (rel, line, what), fails in sorted(failures.items()):
        job, output = fails[0]
        others = ', '.join(f'{os.path.basename(j["cc"])}/{j["flavour"]}' for j, _ in fails)
        lines = [ln for ln in output.strip().split('\n') if ln.strip()][:15] or ['(no output)']
        rep.error(f'{rel}:{line}', f'the C block {what} ({others}):\n' + '\n'.join('    ' + x for x in lines),
                  'fix the block (the messages give its lines in the doc), limit it with '
                  '<!-- check: flavours=... -->, or mark it <!-- fragment: why --> if it is illustration only')
    return rep.done(f'{n_blocks} C blocks built {len(jobs)} times, {n_fragments} fragments, '
                    f'{n_other} blocks in other languages')


if __name__ == '__main__':
    sys.exit(main())

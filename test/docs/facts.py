#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-facts: what the docs say about the project itself holds for the tree and its build
(meson test --suite docs).

    facts.py --src ROOT [--build BUILDDIR]

  1. One licence: rcu.h's SPDX-License-Identifier, and the same in meson.build's `license:`, in
     every `SPDX-License-Identifier:` line of the repository's files, in rcu.h's `Licence:`
     paragraph and in README.md's `**Permissive.**` bullet.
  2. No machine paths. No Markdown file of the repository holds an absolute path of a particular
     machine (under /var, /home, /work, /root, /tmp, /srv, /opt, /mnt, /usr/local, /Users), in
     prose or in code: a reader's machine has none of them. (/proc, /dev, /sys, /usr/include
     are every Linux system's and pass.)
  3. Test counts. A number of meson tests is written `<!-- count: SELECTION -->N meson tests`,
     and N must be the number of tests that the build given by --build defines for SELECTION:
     `default` (all but the `slow` suite: what scripts/test.sh runs) or `sanitizers` (also
     without the `compile`, `docs` and `size` suites and the release shapes of `symbols`: what --asan
     and --tsan leave out). Any other
     "N meson tests" in a doc is an error: a count that nothing checks goes stale. Without
     --build the counts are not compared (the markers are still required).
  4. The main job's knobs. Every environment variable RCU_* that scripts/main.sh or
     scripts/liburcu-new.sh reads is named in README.md, so that a user learns from the README
     where the newest liburcu's source must be and how to point the main job at it.
"""

import argparse
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doclib  # noqa: E402

MACHINE_PATH = re.compile(r'(?<![\w.~/-])/(?:var|home|work|root|tmp|srv|opt|mnt|usr/local|Users)/[^\s`)\]"\'<>]*')
COUNT_MARKED = re.compile(r'<!--\s*count:\s*(\w+)\s*-->\s*(\d[\d,]*)\s+meson tests')
COUNT_ANY = re.compile(r'(\d[\d,]*)\s+meson tests')
SELECTIONS = {'default': {'slow'}, 'sanitizers': {'slow', 'compile', 'docs', 'size'}}


def source_files(root):
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in doclib.SKIP_DIRS and not x.startswith('.')
                         and not doclib.is_build_dir(os.path.join(d, x)))
        for f in sorted(files):
            yield os.path.relpath(os.path.join(d, f), root)


def check_licence(root, rep):
    """rcu.h's SPDX line is the reference: the product is rcu.h."""
    rcu = doclib.read_lines(root, 'rcu.h')
    s = next((re.search(r'SPDX-License-Identifier:\s*(\S+)', ln) for ln in rcu[:5] if 'SPDX' in ln), None)
    if not s:
        rep.error('rcu.h:1', 'rcu.h has no SPDX-License-Identifier line', 'begin rcu.h with one')
        return 0
    lic = s.group(1)
    text = open(os.path.join(root, 'meson.build'), encoding='utf-8').read()
    m = re.search(r"license\s*:\s*'([^']*)'", text)
    if not m:
        rep.error('meson.build:1', 'project() names no licence', f"add license: '{lic}' to project()")
    elif m.group(1).strip() != lic:
        line = text[:m.start()].count('\n') + 1
        rep.error(f'meson.build:{line}', f"project()'s licence is `{m.group(1)}`, rcu.h's is {lic}",
                  f"one licence everywhere: license: '{lic}'")
    n = 0
    for rel in source_files(root):
        try:
            with open(os.path.join(root, rel), encoding='utf-8') as f:
                head = [next(f, '') for _ in range(5)]
        except (UnicodeDecodeError, OSError):
            continue
        for k, ln in enumerate(head):
            s = re.search(r'SPDX-License-Identifier:\s*([^\s*]+(?:\s+(?:OR|AND)\s+[^\s*]+)*)', ln)
            if s:
                n += 1
                if s.group(1) != lic:
                    rep.error(f'{rel}:{k + 1}', f"SPDX-License-Identifier is {s.group(1)}, rcu.h's is {lic}",
                              'one licence everywhere: change the one that is wrong')
    for k, ln in enumerate(rcu):
        s = re.match(r'\s*\*\s*Licence:\s*([^.\s]+)', ln)
        if s and s.group(1) != lic:
            rep.error(f'rcu.h:{k + 1}', f"rcu.h's Licence paragraph says {s.group(1)}, its SPDX line {lic}",
                      'one licence everywhere')
    found = False
    for k, ln in enumerate(doclib.read_lines(root, 'README.md')):
        s = re.search(r'\*\*Permissive\.\*\*\s*([^\s:.,;]+)', ln)
        if s:
            found = True
            if s.group(1) != lic:
                rep.error(f'README.md:{k + 1}', f"the README gives the licence as {s.group(1)}, rcu.h's SPDX line {lic}",
                          'one licence everywhere')
    if not found:
        rep.error('README.md:1', 'the README has no `**Permissive.** <licence>` bullet',
                  'say the licence in the README (the check reads it from that bullet)')
    return n


def check_machine_paths(root, docs, rep):
    n = 0
    for rel in docs:
        for k, ln in enumerate(doclib.read_lines(root, rel)):
            for m in MACHINE_PATH.finditer(ln):
                n += 1
                rep.error(f'{rel}:{k + 1}', f'`{m.group(0)}` is a path of one machine',
                          'say what it is (a version, a variable, a path in the repository); '
                          'if a generator wrote it, fix the generator (bench/meson.build, bench/update-docs.sh)')
    return n


def not_in_sanitizer_builds(name):
    return (name.startswith('symbols-') and not name.endswith('-debug')) or name == 'liburcu_queues-liburcu'


def build_counts(build):
    path = os.path.join(build, 'meson-info', 'intro-tests.json')
    with open(path, encoding='utf-8') as f:
        tests = json.load(f)
    out = {}
    for sel, leave_out in SELECTIONS.items():
        # The controls against the newest liburcu exist only where its source is beside the
        # project (-Dliburcu_new): the docs count the tests every clone has.
        # A sanitizer build has only the RCU_DEBUG shapes of test/symbols, and not the queues'
        # control against liburcu (their meson.build files).
        out[sel] = sum(1 for t in tests if not leave_out & {s.split(':')[-1] for s in t['suite']}
                       and '-liburcu-new-' not in t['name']
                       and not (sel == 'sanitizers' and not_in_sanitizer_builds(t['name'])))
    return out


def check_counts(root, docs, build, rep):
    counts = build_counts(build) if build else None
    n = 0
    for rel in docs:
        for k, ln in enumerate(doclib.read_lines(root, rel)):
            marked = {m.start(2) for m in COUNT_MARKED.finditer(ln)}
            for m in COUNT_MARKED.finditer(ln):
                n += 1
                sel, num = m.group(1), int(m.group(2).replace(',', ''))
                if sel not in SELECTIONS:
                    rep.error(f'{rel}:{k + 1}', f'count of unknown selection `{sel}`',
                              f'use one of {", ".join(sorted(SELECTIONS))}')
                elif counts is not None and counts[sel] != num:
                    rep.error(f'{rel}:{k + 1}', f'says {num} meson tests ({sel}); the build defines {counts[sel]}',
                              f'write {counts[sel]} (meson introspect --tests, {sel}: without the suites '
                              f'{", ".join(sorted(SELECTIONS[sel]))})')
            for m in COUNT_ANY.finditer(ln):
                if m.start(1) not in marked:
                    rep.error(f'{rel}:{k + 1}', f'"{m.group(0)}" is a count that nothing checks',
                              'mark it <!-- count: default --> (or sanitizers), or do not give a number')
    return n


def check_knobs(root, rep):
    readme = open(os.path.join(root, 'README.md'), encoding='utf-8').read()
    n = 0
    for rel in ('scripts/main.sh', 'scripts/liburcu-new.sh'):
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            continue
        text = open(path, encoding='utf-8').read()
        for var in sorted(set(re.findall(r'\$\{?(RCU_[A-Z0-9_]+)', text))):
            n += 1
            if var not in readme:
                rep.error(f'{rel}:1', f'reads the environment variable {var}, which README.md does not name',
                          'say in the README what it does (where the newest liburcu\'s source goes, say)')
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--build', default='')
    a = ap.parse_args()
    root = os.path.realpath(a.src)
    build = os.path.realpath(a.build) if a.build else ''
    if build and not os.path.exists(os.path.join(build, 'meson-info', 'intro-tests.json')):
        build = ''
    rep = doclib.Report('docs-facts')
    docs = doclib.doc_files(root)
    spdx = check_licence(root, rep)
    paths = check_machine_paths(root, docs, rep)
    counts = check_counts(root, docs, build, rep)
    knobs = check_knobs(root, rep)
    return rep.done(f'{spdx} SPDX lines, {len(docs)} docs, {paths} machine paths, {counts} test counts'
                    f'{"" if build else " (not compared: no build)"}, {knobs} environment variables')


if __name__ == '__main__':
    sys.exit(main())

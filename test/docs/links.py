#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-links: every file, anchor and test that the Markdown docs point at exists
(meson test --suite docs).

    links.py --src ROOT [--build BUILDDIR]

Docs: every *.md of the repository (README.md, docs/, rcu_flavours/, ...), build trees left out.
What is checked, outside fenced code blocks unless said otherwise:
  1. Links `[text](target)`, images `![alt](target)`, reference definitions `[x]: target` and
     HTML href/src: the target exists, relative to the doc, and stays inside the repository;
     a `#fragment` names a heading of the target Markdown file (GitHub's anchor rules) or an
     explicit <a name/id>. URLs with a scheme (https:, mailto:) are not fetched.
  2. Paths in code spans (`test/stall.c`, `spin/run.sh`, `rcu_flavours/`): a path whose first
     component is a top-level entry of the repository (or of the doc's folder) exists; a bare
     file name with a source extension (.c .h .md .sh .pml .py .build .list .map) exists
     somewhere in the repository. Templates (`test/<topic>.c`, `first_example_*`), absolute
     paths and system headers (`<urcu.h>`) are not paths.
  3. Paths in `sh` blocks (commands and their arguments): as 2. A path under `build/` is
     looked up in the Meson build tree given by --build (it must exist there; a data file
     that a command writes, .csv .json .md .png .log .txt, needs only its folder).
  4. Markdown file names in prose (`see docs/benchmarks.md`, `DESIGN.md`) exist, relative to the
     doc or to the repository, so no doc cites a file that is not in the repository.
  5. Test citations: a code span `suite/name`, or a word `suite/name` of a longer code span
     (`test/misuse.c: misuse/name`), whose suite is a Criterion suite of test/
     (`Test(suite, name, ...)`) names a test that exists (`*` matches any run of characters).
"""

import argparse
import fnmatch
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doclib  # noqa: E402

SOURCE_EXT = ('.c', '.h', '.md', '.sh', '.pml', '.py', '.build', '.list', '.map')
DATA_EXT = ('.csv', '.json', '.md', '.png', '.log', '.txt', '.svg')
TEMPLATE = re.compile(r'[<>*{}$…]|\.\.\.')


class Repo:
    def __init__(self, root, build):
        self.root = root
        self.build = build
        self.top = {e for e in os.listdir(root) if not doclib.is_build_dir(os.path.join(root, e))
                    and e not in doclib.SKIP_DIRS}
        self.basenames = set()
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in doclib.SKIP_DIRS and not doclib.is_build_dir(os.path.join(d, x))]
            self.basenames.update(files)
        self.tests = self.criterion_tests()
        self.anchor_cache = {}

    def criterion_tests(self):
        tests = {}
        tdir = os.path.join(self.root, 'test')
        for d, dirs, files in os.walk(tdir):
            for f in files:
                if f.endswith('.c'):
                    text = open(os.path.join(d, f), encoding='utf-8', errors='replace').read()
                    for m in re.finditer(r'^\s*(?:Test|ParameterizedTest|TheoryTest)\s*\(\s*(\w+)\s*,\s*(\w+)', text, re.M):
                        tests.setdefault(m.group(1), set()).add(m.group(2))
        return tests

    def anchors(self, rel):
        if rel not in self.anchor_cache:
            self.anchor_cache[rel] = doclib.anchors(doclib.read_lines(self.root, rel))
        return self.anchor_cache[rel]

    def inside(self, path):
        r = os.path.realpath(path)
        return r == self.root or r.startswith(self.root + os.sep)


def check_link(repo, rel, line, target, rep):
    target = target.strip()
    if target.startswith('<') and target.endswith('>'):
        target = target[1:-1]
    target = re.sub(r'\s+"[^"]*"$', '', target).strip()
    if not target or re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
        return 0
    path, _, frag = target.partition('#')
    here = os.path.dirname(os.path.join(repo.root, rel))
    full = os.path.normpath(os.path.join(here, path)) if path else os.path.join(repo.root, rel)
    where = f'{rel}:{line}'
    if not repo.inside(full):
        rep.error(where, f'link `{target}` points outside the repository',
                  'link only to files of the repository (a reader of the repository has nothing else)')
        return 1
    if not os.path.exists(full):
        rep.error(where, f'link `{target}`: {os.path.relpath(full, repo.root)} does not exist',
                  'correct the path (it is relative to the doc), or remove the link')
        return 1
    if frag and full.endswith('.md'):
        trel = os.path.relpath(full, repo.root)
        if frag not in repo.anchors(trel):
            rep.error(where, f'link `{target}`: {trel} has no heading with the anchor #{frag}',
                      'use the anchor of an existing heading (lower case, punctuation dropped, spaces as hyphens)')
    return 1


def check_path(repo, rel, line, token, rep, in_sh=False):
    """A path-like word from a code span or an sh block; returns 1 if it was checked."""
    t = token.strip().strip('"\'`,;:()')
    t = re.sub(r'^[A-Za-z_][A-Za-z0-9_]*=', '', t)  # VAR=path
    if not t or TEMPLATE.search(t) or t.startswith(('/', '~', '-', '.' + os.sep + '.')) or '://' in t:
        return 0
    if t.startswith('./'):
        t = t[2:]
    where = f'{rel}:{line}'
    first = t.split('/')[0]
    if '/' in t:
        if first == 'build':
            if not repo.build:
                return 0
            sub = t[len('build/'):]
            p = os.path.join(repo.build, sub)
            if os.path.exists(p) or (sub.endswith(DATA_EXT) and os.path.isdir(os.path.dirname(p))):
                return 1
            rep.error(where, f'`{t}` is not in the build tree ({repo.build})',
                      'name a target that meson builds (see the meson.build files), or correct the path; '
                      'if the path is right, build first (meson test builds every target unless --no-rebuild)')
            return 1
        if first.startswith('build'):
            return 0  # another build tree, named by the user
        here = os.path.dirname(os.path.join(repo.root, rel))
        if first in repo.top or first in ('..',) or os.path.exists(os.path.join(here, first)):
            cands = [os.path.join(repo.root, t), os.path.normpath(os.path.join(here, t))]
            if any(os.path.exists(c) and repo.inside(c) for c in cands):
                return 1
            rep.error(where, f'`{t}` does not exist in the repository',
                      'correct the path (relative to the repository root), or remove the reference')
            return 1
        if t.endswith('.md'):
            rep.error(where, f'`{t}` is not a file of the repository',
                      'cite only files that are in the repository (copy what the reader needs into docs/)')
            return 1
        return 0
    if t.endswith(SOURCE_EXT) and not in_sh and not re.match(r'^\.\w+$', t):
        if t in repo.basenames:
            return 1
        if t.endswith('.md'):
            rep.error(where, f'`{t}` is not a file of the repository',
                      'cite only files that are in the repository (a reader has nothing else)')
        else:
            rep.error(where, f'`{t}` is not a file of the repository',
                      'correct the name, or give the path of the file (test/..., examples/...)')
        return 1
    return 0


def check_test_citation(repo, rel, line, span, rep):
    m = re.match(r'^(\w+)/([\w*]+)$', span.strip())
    if not m or m.group(1) not in repo.tests:
        return 0
    suite, name = m.groups()
    if not any(fnmatch.fnmatchcase(t, name) for t in repo.tests[suite]):
        rep.error(f'{rel}:{line}', f'test `{suite}/{name}` does not exist (no Test({suite}, {name}, ...) in test/)',
                  'cite the test by its current suite/name, or remove the citation if the test is gone')
    return 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--build', default='')
    a = ap.parse_args()
    root = os.path.realpath(a.src)
    repo = Repo(root, os.path.realpath(a.build) if a.build else '')
    rep = doclib.Report('docs-links')
    counts = {'links': 0, 'paths': 0, 'tests': 0}
    docs = doclib.doc_files(root)
    for rel in docs:
        lines = doclib.read_lines(root, rel)
        for n, text in doclib.prose_lines(lines):
            spans = doclib.code_spans(text)
            plain = re.sub(r'(`+).+?\1', ' ', text)
            for m in re.finditer(r'!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(((?:[^()\s]|\([^()]*\))+(?:\s+"[^"]*")?)\)', plain):
                counts['links'] += check_link(repo, rel, n, m.group(1), rep)
            m = re.match(r'^\s{0,3}\[[^\]]+\]:\s*(\S+)', plain)
            if m:
                counts['links'] += check_link(repo, rel, n, m.group(1), rep)
            for m in re.finditer(r'(?:href|src)="([^"]+)"', plain):
                counts['links'] += check_link(repo, rel, n, m.group(1), rep)
            for s in spans:
                if ' ' not in s.strip():
                    counts['tests'] += check_test_citation(repo, rel, n, s, rep)
                    counts['paths'] += check_path(repo, rel, n, s, rep)
                else:  # `test/misuse.c: misuse/name`, a command line: test citations only
                    for tok in s.split():
                        counts['tests'] += check_test_citation(repo, rel, n, tok.strip('\'",;:()'), rep)
            # Markdown files named in prose, outside links' targets.
            bare = re.sub(r'\]\([^)]*\)', ']', plain)
            for m in re.finditer(r'(?<![\w/.-])((?:\.\./|[\w-]+/)*[\w.-]+\.md)\b', bare):
                counts['paths'] += check_path(repo, rel, n, m.group(1), rep) or \
                    check_bare_md(repo, rel, n, m.group(1), rep)
        for b in doclib.fenced_blocks(root, rel, lines):
            if b.lang not in ('sh', 'bash', 'shell', 'console'):
                continue
            for k, ln in enumerate(b.body):
                code = re.sub(r'(^|\s)#.*$', '', ln)
                for tok in code.split():
                    counts['paths'] += check_path(repo, rel, b.first_body_line + k, tok, rep, in_sh=True)
    return rep.done(f'{len(docs)} docs, {counts["links"]} links, {counts["paths"]} paths, '
                    f'{counts["tests"]} test citations')


def check_bare_md(repo, rel, line, name, rep):
    """A bare `X.md` in prose: in the doc's folder, at the root, or anywhere by name."""
    here = os.path.dirname(os.path.join(repo.root, rel))
    if os.path.exists(os.path.join(here, name)) or os.path.exists(os.path.join(repo.root, name)) or \
            os.path.basename(name) in repo.basenames:
        return 1
    rep.error(f'{rel}:{line}', f'{name} is not a file of the repository',
              'cite only files that are in the repository (a reader has nothing else)')
    return 1


if __name__ == '__main__':
    sys.exit(main())

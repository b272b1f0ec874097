#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-checks-fail: each doc check fails, and says where, on a doc broken on purpose
(meson test --suite docs).

    selftest.py --src ROOT --out DIR --cc GCC [--build BUILDDIR]

For every case below the source tree is copied to DIR/<case> (build trees and .git left out),
one doc is broken in the copy, and the check runs on the copy. The case passes when the check
exits non-zero and its output holds the expected words (the file:line it blames, the name it
is about). A case whose breakage no longer applies to the docs (the entry it breaks is gone)
fails too, with a sentence saying so, rather than passing vacuously. The breakages find their
target in the docs as they are (the first function heading, the first row of the label table),
so they keep working while the docs grow.
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import doclib  # noqa: E402
import links  # noqa: E402


class Skip(Exception):
    pass


def read(root, rel):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return f.read()


def write(root, rel, text):
    with open(os.path.join(root, rel), 'w', encoding='utf-8') as f:
        f.write(text)


def append(root, rel, text):
    """Append to a doc; returns the line number of the first appended line."""
    old = read(root, rel)
    if not old.endswith('\n'):
        old += '\n'
    write(root, rel, old + '\n' + text)
    return old.count('\n') + 2


def sub_once(root, rel, pattern, repl, flags=re.M):
    old = read(root, rel)
    new, n = re.subn(pattern, repl, old, count=1, flags=flags)
    if n == 0:
        raise Skip(f'{rel} has nothing that matches /{pattern}/ any more')
    write(root, rel, new)
    return old[:re.search(pattern, old, flags).start()].count('\n') + 1


# ---- the breakages: each returns the words the check's output must hold ----------------------

def code_block_does_not_compile(root):
    line = append(root, 'README.md', '```c\n#include "rcu.h"\nint main(void) { rcu_read_lock() return 0; }\n```\n')
    return ['README.md:%d' % line, 'does not compile', 'README.md:%d' % (line + 2)]


def code_block_fails_when_run(root):
    line = append(root, 'README.md', '```c\n#include "rcu.h"\nint main(void) { return 3; }\n```\n')
    return ['README.md:%d' % line, 'runs but fails (exit status 3)']


def code_block_without_language(root):
    line = append(root, 'README.md', '```\nint x;\n```\n')
    return ['README.md:%d' % line, 'without a language']


def fragment_without_reason(root):
    line = append(root, 'README.md', '<!-- fragment -->\n```c\nnot C\n```\n')
    return ['README.md:%d' % line, 'without a reason']


def api_entry_removed(root):
    text = read(root, 'docs/api.md')
    m = re.search(r'^#{2,6}\s+`[^`]*?\b(\w+)\([^`]*`\s*$', text, re.M)
    if not m:
        raise Skip('docs/api.md has no heading that documents one function')
    write(root, 'docs/api.md', text[:m.start()] + '#### (entry removed by the self-test)' + text[m.end():])
    return [f'`{m.group(1)}` has no entry in docs/api.md', 'rcu.h:']


def api_entry_of_nothing(root):
    line = sub_once(root, 'docs/api.md', r'^(\|\s*Name\s*\|.*\n\|[-| :]+\|\n)',
                    r'\1| `rcu_no_such_name(x)` | | added by the self-test |\n')
    return [f'docs/api.md:{line + 2}', '`rcu_no_such_name`', 'does not define']


def api_wrong_prototype(root):
    line = sub_once(root, 'docs/api.md', r'^(#{2,6}\s+`)void (\w+\()', r'\1long \2')
    return [f'docs/api.md:{line}', 'prototype does not match']


def api_wrong_macro_arity(root):
    lines = read(root, 'docs/api.md').split('\n')
    for t in doclib.tables(lines):
        if not t.header or t.header[0] not in ('Name', 'Macro'):
            continue
        for line, cells in t.rows:
            m = re.search(r'`([A-Za-z_]\w*)\(([^()`]+)\)`', cells[0])
            if m:
                lines[line - 1] = lines[line - 1].replace(m.group(0), f'`{m.group(1)}({m.group(2)}, extra)`', 1)
                write(root, 'docs/api.md', '\n'.join(lines))
                return [f'docs/api.md:{line}', 'parameter(s)']
    raise Skip('docs/api.md has no Name table row of a function-like macro')


def label_row_removed(root):
    lines = read(root, 'docs/ordering.md').split('\n')
    t = [t for t in doclib.tables(lines) if t.header and t.header[0] == 'Label']
    if not t or not t[0].rows:
        raise Skip('docs/ordering.md has no label table')
    line, cells = t[0].rows[0]
    del lines[line - 1]
    write(root, 'docs/ordering.md', '\n'.join(lines))
    return [f'label {cells[0]}, which has no row', 'rcu.h:']


def label_row_of_nothing(root):
    lines = read(root, 'docs/ordering.md').split('\n')
    t = [t for t in doclib.tables(lines) if t.header and t.header[0] == 'Label']
    if not t or not t[0].rows:
        raise Skip('docs/ordering.md has no label table')
    line = t[0].rows[-1][0]
    lines.insert(line, '| Z9 | `nowhere()` | added by the self-test | | | |')
    write(root, 'docs/ordering.md', '\n'.join(lines))
    return [f'docs/ordering.md:{line + 1}', 'Z9 is in the table but nowhere in rcu.h']


def label_where_wrong(root):
    lines = read(root, 'docs/ordering.md').split('\n')
    t = [t for t in doclib.tables(lines) if t.header and t.header[0] == 'Label']
    if not t or 'Where' not in t[0].header:
        raise Skip('docs/ordering.md has no label table with a Where column')
    col = t[0].header.index('Where')
    line, cells = t[0].rows[0]
    cells = list(cells)
    cells[col] = '`somewhere_else()`'
    lines[line - 1] = '| ' + ' | '.join(cells) + ' |'
    write(root, 'docs/ordering.md', '\n'.join(lines))
    return [f'docs/ordering.md:{line}', 'which its `Where` cell does not name']


def label_cited_not_in_table(root):
    lines = read(root, 'docs/ordering.md').split('\n')
    t = [t for t in doclib.tables(lines) if t.header and t.header[0] == 'Label']
    if not t or not t[0].rows:
        raise Skip('docs/ordering.md has no label table')
    letter = t[0].rows[0][1][0].strip()[0]
    line = append(root, 'docs/flavours.md', f'The self-test cites {letter}99 here.\n')
    return [f'docs/flavours.md:{line}', f'cites label {letter}99']


def link_to_missing_file(root):
    line = append(root, 'README.md', 'See [nothing](docs/no-such-file.md).\n')
    return [f'README.md:{line}', 'docs/no-such-file.md does not exist']


def link_to_missing_anchor(root):
    line = append(root, 'README.md', 'See [nothing](docs/api.md#no-such-heading).\n')
    return [f'README.md:{line}', 'no heading with the anchor #no-such-heading']


def link_outside(root):
    line = append(root, 'docs/api.md', 'See DESIGN.md, ../shared/DESIGN.md and [it](../../DESIGN.md).\n')
    return [f'docs/api.md:{line}', '`DESIGN.md` is not a file of the repository',
            '`../shared/DESIGN.md` does not exist', 'points outside the repository']


def cited_test_missing(root):
    suites = sorted(links.Repo(root, '').tests)
    if not suites:
        raise Skip('test/ has no Criterion test')
    line = append(root, 'docs/requirements.md', f'Tested by `test/x.c: {suites[0]}/no_such_test_here`.\n')
    return [f'docs/requirements.md:{line}', f'`{suites[0]}/no_such_test_here` does not exist']


def sh_block_missing_script(root):
    line = append(root, 'README.md', '```sh\nscripts/no-such-script.sh --all\n```\n')
    return [f'README.md:{line + 1}', 'scripts/no-such-script.sh']


def licence_expression(root):
    line = sub_once(root, 'meson.build', r"license:\s*'[^']*'", "license: 'MIT OR 0BSD'")
    return [f'meson.build:{line}', "project()'s licence is `MIT OR 0BSD`"]


def licence_readme(root):
    line = sub_once(root, 'README.md', r'\*\*Permissive\.\*\*\s*\S+?([:.])', r'**Permissive.** MIT\1')
    return [f'README.md:{line}', 'the README gives the licence as MIT']


def machine_path(root):
    line = append(root, 'README.md', '- liburcu new: liburcu 0.15.0, built from source at /var/cache/userspace-rcu-3849619\n')
    return [f'README.md:{line}', '`/var/cache/userspace-rcu-3849619` is a path of one machine']


def test_count_wrong(root):
    line = sub_once(root, 'docs/testing.md', r'(<!--\s*count:\s*default\s*-->\s*)\d[\d,]*', r'\g<1>384')
    return [f'docs/testing.md:{line}', 'says 384 meson tests (default); the build defines']


def test_count_unchecked(root):
    line = append(root, 'docs/testing.md', 'The default suite runs 384 meson tests.\n')
    return [f'docs/testing.md:{line}', '"384 meson tests" is a count that nothing checks']


def knob_undocumented(root):
    text = read(root, 'README.md')
    if 'RCU_LIBURCU_SRC' not in text:
        raise Skip('README.md does not name RCU_LIBURCU_SRC any more')
    write(root, 'README.md', text.replace('RCU_LIBURCU_SRC', 'the source variable'))
    return ['RCU_LIBURCU_SRC, which README.md does not name']


def flavour_asked_outside_config(root):
    line = sub_once(root, 'rcu.h', r'^(RCU__INLINE bool rcu__may_help\(struct rcu__reader \*r\)\n\{\n)',
                    r'\g<1>#if defined(RCU_FLAVOUR_QSBR)\n\t(void)0;\n#endif\n')
    return ['asks for the flavour (RCU_FLAVOUR_QSBR) in callbacks, outside >>config']


def qsbr_hook_missing_in_else(root):
    sub_once(root, 'rcu.h', r'^RCU__INLINE void rcu__congestion_ask\(struct rcu__gp \*gp\)\n\{\n\t\(void\)gp;\n\}\n', '')
    return ['rcu__congestion_ask is defined for QSBR but not in the block\'s #else']


def contents_out_of_order(root):
    sub_once(root, 'rcu.h', r'^( \*   >>lists .*\n)( \*   >>debug .*\n)', r'\2\1')
    return ['the contents list names the sections']


CASES = [
    ('code_blocks', code_block_does_not_compile), ('code_blocks', code_block_fails_when_run),
    ('code_blocks', code_block_without_language), ('code_blocks', fragment_without_reason),
    ('api_names', api_entry_removed), ('api_names', api_entry_of_nothing),
    ('api_names', api_wrong_prototype), ('api_names', api_wrong_macro_arity),
    ('labels', label_row_removed), ('labels', label_row_of_nothing), ('labels', label_where_wrong),
    ('labels', label_cited_not_in_table),
    ('links', link_to_missing_file), ('links', link_to_missing_anchor), ('links', link_outside),
    ('links', cited_test_missing), ('links', sh_block_missing_script),
    ('facts', licence_expression), ('facts', licence_readme), ('facts', machine_path),
    ('facts', test_count_wrong), ('facts', test_count_unchecked), ('facts', knob_undocumented),
    ('layout', flavour_asked_outside_config), ('layout', qsbr_hook_missing_in_else),
    ('layout', contents_out_of_order),
]


def copy_tree(src, dst):
    def ignore(d, names):
        return [n for n in names if n in doclib.SKIP_DIRS or doclib.is_build_dir(os.path.join(d, n))]
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, ignore=ignore, symlinks=True)


def run_case(args, check, fn):
    work = os.path.join(args.out, fn.__name__)
    copy_tree(args.src, work)
    try:
        want = fn(work)
    except Skip as e:
        return fn.__name__, False, f'the breakage no longer applies: {e}; update test/docs/selftest.py'
    cmd = [sys.executable, os.path.join(HERE, check + '.py'), '--src', work]
    if check == 'code_blocks':
        cmd += ['--out', os.path.join(work, '.blocks'), '--gcc', args.cc, '--only', 'README.md', '--jobs', '1']
    elif check in ('api_names', 'labels', 'layout'):
        cmd += ['--cc', args.cc]
    elif check in ('links', 'facts') and args.build:
        cmd += ['--build', args.build]
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode == 0:
        return fn.__name__, False, f'{check}.py passed on a broken doc:\n{out}'
    missing = [w for w in want if w not in out]
    if missing:
        return fn.__name__, False, f'{check}.py failed, but its output lacks {missing}:\n{out}'
    shutil.rmtree(work, ignore_errors=True)
    first = next((ln for ln in out.split('\n') if want[0] in ln), '')
    return fn.__name__, True, first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--build', default='')
    ap.add_argument('--jobs', type=int, default=2)
    args = ap.parse_args()
    args.src = os.path.realpath(args.src)
    args.out = os.path.abspath(args.out)
    os.makedirs(args.out, exist_ok=True)
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for name, ok, msg in ex.map(lambda c: run_case(args, *c), CASES):
            if ok:
                print(f'ok   {name}: {msg}')
            else:
                bad += 1
                print(f'FAIL {name}: {msg}\n    fix: make the check catch this breakage again (or update the case)')
    print(f'docs-checks-fail: {len(CASES) - bad} of {len(CASES)} breakages caught')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

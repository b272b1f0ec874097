#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""docs-layout: rcu.h's contents line and its flavour deltas are true (meson test --suite docs).

    layout.py --src ROOT [--cc GCC]

rcu.h says, in its opening comment and in >>config, how it is laid out; this holds it to that:

1. Contents. The anchors of the contents list (` *   >>name   what it holds`) are the sections
   of the file (`/* >>name ---...`), each once, in the same order.
2. One list of flavours. RCU_FLAVOUR_<NAME>, and the flavour's tag, name and code (RCU__FTAG,
   RCU_FLAVOUR_NAME, RCU__FUPPER, RCU__FCODE), are asked for (#if, #elif, #ifdef, continuation
   lines included) only in >>config, whose flavour blocks (`#if defined(RCU_FLAVOUR_<NAME>)`) are
   those of rcu_flavours/flavours.txt, in its order. Each flavour, preprocessed by the compiler
   (with and without RCU_MB_EXIT_FENCE), defines its tag, name and code, and every property that
   the >>config comment lists (`RCU__<PROP>` at the start of a comment line) as 0 or 1.
3. QSBR as a delta. Outside >>config, RCU__QSBR appears only as `#if RCU__QSBR`, at most once per
   section, each followed by a comment that begins "QSBR's delta (". Each such block has an #else
   that defines the same hooks (RCU__INLINE functions, C++ inline functions, macros) as the QSBR
   branch, but for slow paths (RCU__SLOW) and helpers named after QSBR (qsbr_*), which exist in
   QSBR alone.
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import doclib  # noqa: E402

SECTION = re.compile(r'^/\* >>([a-z-]+) -+ \*/$')
CONTENTS = re.compile(r'^ \*   >>([a-z-]+)\s')
ASKS_FLAVOUR = re.compile(r'^\s*#\s*(if|elif|ifdef|ifndef)\b.*\b(RCU_FLAVOUR_[A-Z]+|RCU__FTAG|RCU__FUPPER|RCU__FCODE)\b')
FLAVOUR_BLOCK = re.compile(r'^#if defined\(RCU_FLAVOUR_([A-Z]+)\)$')
PROPERTY_DOC = re.compile(r'^ \*   (RCU__[A-Z_]+)\s')
DEFINE = re.compile(r'^\s*#\s*define\s+(RCU__[A-Z0-9_]+)\b')
HOOK = re.compile(r'^(?:(?:RCU__COLD|static|__attribute__\(\(\w+\)\))\s+)*(?:RCU__INLINE|inline)\b[^(]*?\b([a-z_][a-z0-9_]*)\s*\(')
SLOW = re.compile(r'^RCU__SLOW\(')


def logical(lines):
    """The lines with each preprocessor continuation (a trailing backslash) joined onto the line
    it continues; the joined line keeps the index of its first line, continuations become ''."""
    out = list(lines)
    i = 0
    while i < len(out):
        j = i
        while out[j].endswith('\\') and j + 1 < len(out):
            out[i] = out[i][:-1] + ' ' + out[j + 1].strip()
            out[j + 1] = ''
            j += 1
        i = j + 1
    return out


def code_part(ln):
    """A line without its comments (a line inside a block comment is all comment)."""
    t = ln.strip()
    if t.startswith('*') or t.startswith('/*') and '*/' not in t or t.startswith('//'):
        return ''
    return re.sub(r'/\*.*?\*/', '', ln).split('//')[0]


def sections(lines):
    """[(name, first line index, end index)] of the `/* >>name --- */` sections."""
    marks = [(m.group(1), i) for i, ln in enumerate(lines) if (m := SECTION.match(ln))]
    return [(name, i, marks[k + 1][1] if k + 1 < len(marks) else len(lines)) for k, (name, i) in enumerate(marks)]


def section_of(secs, i):
    for name, a, b in secs:
        if a <= i < b:
            return name
    return '(before >>config)'


def check_contents(lines, secs, rep):
    listed = []
    for i, ln in enumerate(lines):
        if ln.startswith(' */'):
            break
        if (m := CONTENTS.match(ln)):
            listed.append((m.group(1), i))
    code = [name for name, _, _ in secs]
    # >>doc is the opening comment itself: listed, and marked inside the comment (` * >>doc`).
    names = [n for n, _ in listed if n != 'doc']
    if names != code:
        rep.error(f'rcu.h:{listed[0][1] + 1 if listed else 1}',
                  f'the contents list names the sections {names}, but the file has {code}',
                  'keep the contents list and the /* >>name --- */ markers the same, in the same order')
    if not any(ln.strip() == '* >>doc' for ln in lines[:200]):
        rep.error('rcu.h:1', 'the contents list names >>doc, but no " * >>doc" marks it',
                  'mark the opening comment\'s description with " * >>doc"')
    return len(listed)


def check_flavours(root, lines, secs, rep, cc):
    config = next(((a, b) for n, a, b in secs if n == 'config'), None)
    if not config:
        rep.error('rcu.h:1', 'no >>config section', 'rcu.h needs its >>config section')
        return 0
    a, b = config
    for i, ln in enumerate(logical(lines)):
        if (m := ASKS_FLAVOUR.match(ln)) and not a <= i < b:
            rep.error(f'rcu.h:{i + 1}',
                      f'asks for the flavour ({m.group(2)}) in {section_of(secs, i)}, outside >>config',
                      'ask one of the properties that >>config defines for every flavour (RCU__QSBR, ...)')
    props = [m.group(1) for ln in lines[a:b] if (m := PROPERTY_DOC.match(ln))]
    blocks = []
    for i in range(a, b):
        if (m := FLAVOUR_BLOCK.match(lines[i])):
            depth, j, defined = 1, i + 1, set()
            while j < b and depth:
                s = lines[j].strip()
                if re.match(r'#\s*if', s):
                    depth += 1
                elif re.match(r'#\s*endif', s):
                    depth -= 1
                elif (d := DEFINE.match(lines[j])):
                    defined.add(d.group(1))
                j += 1
            blocks.append((m.group(1), i, defined))
    listed = []
    with open(os.path.join(root, 'rcu_flavours', 'flavours.txt'), encoding='utf-8') as f:
        for ln in f:
            ln = ln.split('#')[0].strip()
            if ln:
                listed.append(ln.upper())
    if [n for n, _, _ in blocks] != listed:
        rep.error(f'rcu.h:{a + 1}', f'the flavour blocks of >>config are {[n for n, _, _ in blocks]}, '
                  f'rcu_flavours/flavours.txt lists {listed}', 'one block per flavour, in the list\'s order')
    if not props:
        rep.error(f'rcu.h:{a + 1}', '>>config lists no flavour property (" *   RCU__NAME  what it means")',
                  'list the properties that the flavour blocks define')
    if cc:
        for name, i, _ in blocks:
            for extra in ([], ['-DRCU_MB_EXIT_FENCE']):
                got = macros(cc, root, ['-DRCU_FLAVOUR_' + name] + extra)
                for p in ['RCU__FTAG', 'RCU_FLAVOUR_NAME', 'RCU__FUPPER', 'RCU__FCODE'] + props:
                    v = got.get(p)
                    if v is None or (p in props and v not in ('0', '1')):
                        rep.error(f'rcu.h:{i + 1}', f'the {name} flavour {" ".join(extra) or "(as it is)"} '
                                  f'defines {p} as {v if v is not None else "nothing"}',
                                  f'define {p} in the {name} block' + (' as 0 or 1' if p in props else '')
                                  + ', in every branch of its #if')
    return len(blocks)


def macros(cc, root, flags):
    """The macros rcu.h defines, preprocessed by cc with flags."""
    p = subprocess.run([cc, '-std=c11', '-E', '-dM', '-I', root] + flags + ['-x', 'c', '-'],
                       input='#include "rcu.h"\n', capture_output=True, text=True)
    if p.returncode != 0:
        return {}
    out = {}
    for ln in p.stdout.split('\n'):
        parts = ln.split(None, 2)
        if len(parts) >= 2 and parts[0] == '#define':
            out[parts[1]] = parts[2].strip() if len(parts) > 2 else ''
    return out


def branch_names(lines):
    names, slow = set(), set()
    depth = 0
    for ln in lines:
        s = ln.strip()
        if SLOW.match(ln):
            slow.add(ln)
            continue
        if depth == 0:
            if (m := HOOK.match(ln)):
                names.add(m.group(1))
            elif (m := DEFINE.match(ln)):
                names.add(m.group(1))
        if re.match(r'#\s*if', s):
            depth += 1
        elif re.match(r'#\s*endif', s):
            depth -= 1
    return {n for n in names if not n.startswith('qsbr_')}


def check_qsbr(lines, secs, rep):
    config = next(((a, b) for n, a, b in secs if n == 'config'), (0, 0))
    per_section = {}
    n = 0
    for i, ln in enumerate(lines):
        if not re.search(r'\bRCU__QSBR\b', code_part(ln)) or config[0] <= i < config[1]:
            continue
        where = f'rcu.h:{i + 1}'
        if ln.strip() != '#if RCU__QSBR':
            rep.error(where, 'asks RCU__QSBR outside a "#if RCU__QSBR" block',
                      'move the difference into the section\'s QSBR block, behind a hook named for it')
            continue
        n += 1
        sec = section_of(secs, i)
        if sec in per_section:
            rep.error(where, f'a second QSBR block in >>{sec} (the first is at rcu.h:{per_section[sec] + 1})',
                      'one QSBR block per section: merge them')
        per_section.setdefault(sec, i)
        head = ' '.join(lines[i + 1:i + 3])
        if "QSBR's delta (" not in head:
            rep.error(where, 'a QSBR block without its "QSBR\'s delta (...)" heading comment',
                      'begin the block with a comment "QSBR\'s delta (what it covers)"')
        # Split the block at its own #else / #endif.
        depth, j, mid = 1, i + 1, None
        while j < len(lines) and depth:
            s = lines[j].strip()
            if re.match(r'#\s*if', s):
                depth += 1
            elif re.match(r'#\s*endif', s):
                depth -= 1
            elif depth == 1 and re.match(r'#\s*else\b', s):
                mid = j
            j += 1
        if mid is None:
            rep.error(where, 'a QSBR block without #else: the other flavours\' side of its hooks is missing',
                      'give the block an #else that defines the same hooks for MEMB, MB and BP')
            continue
        q, o = branch_names(lines[i + 1:mid]), branch_names(lines[mid + 1:j - 1])
        for name in sorted(q - o):
            rep.error(where, f'{name} is defined for QSBR but not in the block\'s #else (rcu.h:{mid + 1})',
                      'define the hook in both branches (a no-op for the other flavours)')
        for name in sorted(o - q):
            rep.error(f'rcu.h:{mid + 1}', f'{name} is defined in the #else of the QSBR block at {where}, not in its QSBR branch',
                      'define the hook in both branches')
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--src', required=True)
    ap.add_argument('--cc', default='', help='the compiler that preprocesses each flavour (none: not done)')
    a = ap.parse_args()
    root = os.path.realpath(a.src)
    with open(os.path.join(root, 'rcu.h'), encoding='utf-8') as f:
        lines = f.read().split('\n')
    rep = doclib.Report('docs-layout')
    secs = sections(lines)
    listed = check_contents(lines, secs, rep)
    flavours = check_flavours(root, lines, secs, rep, a.cc)
    qsbr = check_qsbr(lines, secs, rep)
    return rep.done(f'{listed} contents entries, {len(secs)} sections, {flavours} flavour blocks, '
                    f'{qsbr} QSBR blocks')


if __name__ == '__main__':
    sys.exit(main())

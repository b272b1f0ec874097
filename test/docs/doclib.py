# SPDX-License-Identifier: 0BSD
"""Shared pieces of the documentation checks in test/docs/ (Python 3 standard library only).

Markdown is read line by line, the way the checks need it: fenced code blocks with the line of
their opening fence, tables with the line of each row, headings, code spans and links. Every
problem is reported as `path:line: what is wrong` followed by a sentence saying how to fix it,
so that a failing `meson test` log points at the entry to change.
"""

import os
import re
import sys

# Directories that are never documentation or sources: build trees (any folder holding
# meson-private/ is one), version control, Meson subprojects.
SKIP_DIRS = {'.git', 'subprojects', '__pycache__'}


def is_build_dir(path):
    b = os.path.basename(path)
    return os.path.isdir(os.path.join(path, 'meson-private')) or b == 'build' or b.startswith(('build-', 'build_'))


def doc_files(root):
    """Every Markdown file of the repository: README.md, docs/, rcu_flavours/, and any other."""
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not is_build_dir(os.path.join(d, x)))
        for f in sorted(files):
            if f.endswith('.md'):
                out.append(os.path.relpath(os.path.join(d, f), root))
    return out


def read_lines(root, rel):
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return f.read().split('\n')


def flavours(root):
    """The flavour list: rcu_flavours/flavours.txt, one name a line ('#' starts a comment)."""
    path = os.path.join(root, 'rcu_flavours', 'flavours.txt')
    names = [line.split('#')[0].strip() for line in open(path, encoding='utf-8')]
    names = [n for n in names if n]
    if not names:
        sys.exit('rcu_flavours/flavours.txt lists no flavour; the doc checks read the flavour list from it')
    return names


class Report:
    """Collects problems; `done()` prints the summary and gives the exit status."""

    def __init__(self, check):
        self.check = check
        self.errors = 0
        self.warnings = 0

    def error(self, where, what, fix):
        self.errors += 1
        print(f'{where}: error: {what}\n    fix: {fix}')

    def warn(self, where, what, fix):
        self.warnings += 1
        print(f'{where}: warning: {what}\n    fix: {fix}')

    def done(self, summary):
        if self.errors:
            print(f'{self.check}: FAILED, {self.errors} problem(s) above ({summary})')
            return 1
        print(f'{self.check}: ok ({summary}' + (f'; {self.warnings} warning(s)' if self.warnings else '') + ')')
        return 0


# ---- Markdown --------------------------------------------------------------------------------

FENCE = re.compile(r'^(\s*)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*)$')


class Block:
    def __init__(self, path, line, lang, info, indent, body, marker, marker_line):
        self.path = path            # the Markdown file, relative to the root
        self.line = line            # line of the opening fence (1-based)
        self.lang = lang            # first word of the info string ('' if none)
        self.info = info            # the rest of the info string
        self.indent = indent
        self.body = body            # list of lines, indentation of the fence removed
        self.marker = marker        # text of an HTML comment on the line before the fence, or None
        self.marker_line = marker_line

    @property
    def first_body_line(self):
        return self.line + 1


def fenced_blocks(root, rel, lines=None):
    """Every fenced code block of a Markdown file, with the HTML comment just above it (if any)."""
    lines = read_lines(root, rel) if lines is None else lines
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang, info = m.group(1), m.group(2), m.group(3), m.group(4)
        start = i
        body = []
        i += 1
        close = re.compile(r'^\s*' + re.escape(fence[0]) + '{' + str(len(fence)) + r',}\s*$')
        while i < len(lines) and not close.match(lines[i]):
            ln = lines[i]
            body.append(ln[len(indent):] if ln.startswith(indent) else ln.lstrip())
            i += 1
        marker = marker_line = None
        j = start - 1
        while j >= 0 and lines[j].strip() == '':
            j -= 1
        if j >= 0 and j == start - 1:
            mm = re.match(r'^\s*<!--\s*(.*?)\s*-->\s*$', lines[j])
            if mm:
                marker, marker_line = mm.group(1), j + 1
        blocks.append(Block(rel, start + 1, lang, info, indent, body, marker, marker_line))
        i += 1
    return blocks


def prose_lines(lines):
    """(line number, text) of every line outside fenced code blocks and HTML comments."""
    out = []
    in_fence = None
    in_comment = False
    for n, ln in enumerate(lines, 1):
        m = FENCE.match(ln)
        if in_fence:
            if re.match(r'^\s*' + re.escape(in_fence[0]) + '{' + str(len(in_fence)) + r',}\s*$', ln):
                in_fence = None
            continue
        if m:
            in_fence = m.group(2)
            continue
        if in_comment:
            if '-->' in ln:
                in_comment = False
                ln = ln.split('-->', 1)[1]
            else:
                continue
        ln = re.sub(r'<!--.*?-->', '', ln)
        if '<!--' in ln:
            ln = ln.split('<!--', 1)[0]
            in_comment = True
        out.append((n, ln))
    return out


def code_spans(text):
    """The contents of the `code spans` of one line of Markdown."""
    return [m.group(2).strip() for m in re.finditer(r'(`+)(.+?)\1', text)]


def split_row(line):
    """Cells of a Markdown table row (pipes inside code spans do not split)."""
    s = line.strip()
    if s.startswith('|'):
        s = s[1:]
    if s.endswith('|') and not s.endswith('\\|'):
        s = s[:-1]
    cells, cur, tick = [], '', 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == '`':
            j = i
            while j < len(s) and s[j] == '`':
                j += 1
            run = j - i
            tick = 0 if tick == run else (run if tick == 0 else tick)
            cur += s[i:j]
            i = j
            continue
        if c == '\\' and i + 1 < len(s) and s[i + 1] == '|':
            cur += '|'
            i += 2
            continue
        if c == '|' and tick == 0:
            cells.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


class Table:
    def __init__(self, line, header, rows, heading):
        self.line = line        # line of the header row
        self.header = header    # header cells
        self.rows = rows        # [(line, cells)]
        self.heading = heading  # the nearest heading above the table


def tables(lines):
    """Markdown tables outside code blocks: a header row, a delimiter row, then rows."""
    prose = prose_lines(lines)
    out = []
    heading = ''
    i = 0
    while i < len(prose):
        n, ln = prose[i]
        if re.match(r'^#{1,6}\s', ln):
            heading = ln.strip('# ').strip()
        if ln.strip().startswith('|') and i + 1 < len(prose) and \
                re.match(r'^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$', prose[i + 1][1]):
            header = split_row(ln)
            rows = []
            i += 2
            while i < len(prose) and prose[i][1].strip().startswith('|'):
                rows.append((prose[i][0], split_row(prose[i][1])))
                i += 1
            out.append(Table(n, header, rows, heading))
            continue
        i += 1
    return out


def headings(lines):
    """(line, level, text) of every ATX heading outside code blocks."""
    out = []
    for n, ln in prose_lines(lines):
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', ln)
        if m:
            out.append((n, len(m.group(1)), m.group(2)))
    return out


def github_slug(text, seen):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    t = re.sub(r'<[^>]+>', '', text)
    t = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', t)
    t = t.replace('`', '').lower()
    t = ''.join(c for c in t if c.isalnum() or c in ' -_')
    t = t.replace(' ', '-')
    n = seen.get(t, 0)
    seen[t] = n + 1
    return t if n == 0 else f'{t}-{n}'


def anchors(lines):
    seen = {}
    out = set(github_slug(text, seen) for _, _, text in headings(lines))
    for _, ln in prose_lines(lines):
        for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', ln):
            out.add(m.group(1))
    return out

# SPDX-License-Identifier: 0BSD
"""What rcu.h defines, read from the preprocessor's output (Python 3 standard library only).

`names(root, cc, defines)` runs `cc -std=c11 -E -dD` on rcu.h with the given defines and returns
every name that rcu.h itself defines in that configuration, with its kind and its line in rcu.h:

  macro        a #define of rcu.h (not #undef'd later in rcu.h); `params` is None for an
               object-like macro, else the list of parameter names
  function     a function definition (a body) at file scope
  prototype    a function declaration without a body at file scope
  object       a variable declared at file scope
  typedef      a typedef name
  tag          `struct X`, `union X`, `enum X` with a body
  enumerator   a constant of an enum

Only lines that the preprocessor attributes to rcu.h count (its line markers say which file each
line comes from), so nothing that a system header declares is taken for rcu.h's; with
`compat=True`, the lines of the compat/ folder's headers that rcu.h includes count too. The parse is the
small subset of C that a header's file-scope declarations use; function bodies and initialisers
are skipped as balanced braces.
"""

import os
import re
import subprocess

KEYWORDS = set('''
auto break case char const continue default do double else enum extern float for goto if inline
int long register restrict return short signed sizeof static struct switch typedef union unsigned
void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
_Static_assert _Thread_local bool __inline __inline__ __restrict __restrict__ __extension__
__volatile__ __const __signed__ __typeof__ typeof __thread __int128 __label__
'''.split())

TOKEN = re.compile(r'''
    (?P<ws>\s+)
  | (?P<str>"(?:\\.|[^"\\])*")
  | (?P<chr>'(?:\\.|[^'\\])*')
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>\.\.\.|->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:;,.(){}\[\]#])
''', re.X)


class Name:
    def __init__(self, name, kind, line, params=None, end=None):
        self.name = name
        self.kind = kind
        self.line = line
        self.params = params
        self.end = end  # functions: the line of the closing brace of the body

    def __repr__(self):
        return f'Name({self.name!r}, {self.kind}, line {self.line})'


def preprocess(root, cc, defines, lang='c'):
    """(ok, text or error output) of `cc -E -dD` over rcu.h with `-D` for each define, as C11
    (lang 'c') or as C++17 (lang 'c++')."""
    header = os.path.realpath(os.path.join(root, 'rcu.h'))
    std = '-std=c11' if lang == 'c' else '-std=c++17'
    cmd = [cc, std, '-E', '-dD', '-x', lang] + ['-D' + d for d in defines] + [header]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, p.stderr
    return True, p.stdout


class Line(int):
    """A line number of rcu.h, or of a header of the compat folder (`file` is then its path
    relative to the root): what `where()` prints in a report."""

    def __new__(cls, n, file=None):
        obj = int.__new__(cls, n)
        obj.file = file
        return obj

    def where(self):
        return f'{self.file or "rcu.h"}:{int(self)}'


def own_lines(text, header, compat=None):
    """(line, text) of the preprocessed lines that come from rcu.h itself, and with `compat` (the
    root) also from the headers of its compat/ folder, whose lines are Line()s naming their file."""
    out = []
    cur_file, cur_line = None, 0
    compat_dir = os.path.join(os.path.realpath(compat), 'compat') + os.sep if compat else None
    for ln in text.split('\n'):
        m = re.match(r'^# (\d+) "((?:\\.|[^"\\])*)"', ln)
        if m:
            cur_line = int(m.group(1))
            f = m.group(2)
            cur_file = f if f.startswith('<') else os.path.realpath(f)
            continue
        if cur_file == header:
            out.append((cur_line, ln))
        elif compat_dir and cur_file.startswith(compat_dir):
            out.append((Line(cur_line, os.path.relpath(cur_file, os.path.realpath(compat))), ln))
        cur_line += 1
    return out


def tokenize(lines):
    """Tokens (text, rcu.h line) of the non-directive lines."""
    toks = []
    for line, text in lines:
        if text.lstrip().startswith('#'):
            continue
        pos = 0
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m:
                pos += 1
                continue
            pos = m.end()
            if m.lastgroup != 'ws':
                toks.append((m.group(), line))
    return toks


def strip_attributes(toks):
    """Drop __attribute__((...)), __asm__(...), __declspec(...) and _Alignas(...) groups."""
    out = []
    i = 0
    while i < len(toks):
        t = toks[i][0]
        if t in ('__attribute__', '__attribute', '__asm__', '__asm', 'asm', '__declspec', '_Alignas') \
                and i + 1 < len(toks) and toks[i + 1][0] == '(':
            depth = 0
            i += 1
            while i < len(toks):
                if toks[i][0] == '(':
                    depth += 1
                elif toks[i][0] == ')':
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            i += 1
            continue
        out.append(toks[i])
        i += 1
    return out


def matching(toks, i, open_, close):
    depth = 0
    while i < len(toks):
        if toks[i][0] == open_:
            depth += 1
        elif toks[i][0] == close:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return len(toks) - 1


def declarator_name(toks):
    """The identifier a declaration (without its initialiser) declares, and whether it is a
    function declarator: `int x`, `void *f(void)`, `void (*fp)(int)`, `void (f)(void)`."""
    toks = [t for t in toks]
    # (* name) or (name)(...) forms.
    for i, (t, _) in enumerate(toks):
        if t == '(':
            j = matching(toks, i, '(', ')')
            inner = [x for x in toks[i + 1:j] if x[0] not in ('*', 'const', 'volatile', 'restrict', '_Atomic')]
            if len(inner) == 1 and re.match(r'^[A-Za-z_]\w*$', inner[0][0]) and inner[0][0] not in KEYWORDS \
                    and j + 1 < len(toks) and toks[j + 1][0] in ('(', '['):
                is_fn = toks[j + 1][0] == '(' and not any(x[0] == '*' for x in toks[i + 1:j])
                return inner[0], is_fn
            break
    depth = 0
    last = None
    is_fn = False
    for i, (t, ln) in enumerate(toks):
        if t in ('(', '['):
            if depth == 0 and t == '(' and last is not None and i > 0 and toks[i - 1][0] == last[0]:
                is_fn = True
            depth += 1
        elif t in (')', ']'):
            depth -= 1
        elif depth == 0 and re.match(r'^[A-Za-z_]\w*$', t) and t not in KEYWORDS:
            last = (t, ln)
            is_fn = False
    return last, is_fn


def split_top(toks, sep):
    parts, cur, depth = [], [], 0
    for t in toks:
        if t[0] in ('(', '[', '{'):
            depth += 1
        elif t[0] in (')', ']', '}'):
            depth -= 1
        if t[0] == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def parse_decls(toks):
    """Names declared at file scope by a token stream (see the module comment)."""
    names = []
    toks = strip_attributes(toks)
    i = 0
    chunk = []

    def tag_bodies(chunk_toks, body_start, body_end):
        """Record `struct X {`, its nested tags and enumerators, for a body toks[body_start..end]."""
        kw = [k for k in range(len(chunk_toks)) if chunk_toks[k][0] in ('struct', 'union', 'enum')]
        if kw:
            k = kw[-1]
            if k + 1 < len(chunk_toks) and re.match(r'^[A-Za-z_]\w*$', chunk_toks[k + 1][0]):
                names.append(Name(chunk_toks[k][0] + ' ' + chunk_toks[k + 1][0], 'tag', chunk_toks[k + 1][1]))
            if chunk_toks[k][0] == 'enum':
                body = toks[body_start + 1:body_end]
                for part in split_top(body, ','):
                    if part and re.match(r'^[A-Za-z_]\w*$', part[0][0]):
                        names.append(Name(part[0][0], 'enumerator', part[0][1]))
        # Tags defined inside the body are file-scope tags too (C has no nested tag scope).
        b = toks[body_start + 1:body_end]
        for k in range(len(b) - 2):
            if b[k][0] in ('struct', 'union', 'enum') and re.match(r'^[A-Za-z_]\w*$', b[k + 1][0]) and b[k + 2][0] == '{':
                names.append(Name(b[k][0] + ' ' + b[k + 1][0], 'tag', b[k + 1][1]))

    def finish(chunk_toks):
        if not chunk_toks:
            return
        typedef = any(t[0] == 'typedef' for t in chunk_toks)
        # Drop the `{...}` bodies of tags (recorded already) from the specifiers.
        flat, k = [], 0
        while k < len(chunk_toks):
            if chunk_toks[k][0] == '{':
                k = matching(chunk_toks, k, '{', '}') + 1
                continue
            flat.append(chunk_toks[k])
            k += 1
        parts = split_top(flat, ',')
        # The specifiers belong to the first declarator; later ones are declarators alone.
        for n, part in enumerate(parts):
            decl = split_top(part, '=')[0]
            if n == 0 and len(decl) >= 1 and decl[-1][0] not in (')', ']') and \
                    all(t[0] in KEYWORDS or t[0] in ('struct', 'union', 'enum') for t in decl[:-1]) and \
                    len(decl) >= 2 and decl[-2][0] in ('struct', 'union', 'enum'):
                continue  # `struct X;` or `struct X {...};`: a tag only
            name, is_fn = declarator_name(decl)
            if name is None:
                continue
            kind = 'typedef' if typedef else ('prototype' if is_fn else 'object')
            names.append(Name(name[0], kind, name[1]))

    while i < len(toks):
        t = toks[i][0]
        if t == ';':
            finish(chunk)
            chunk = []
            i += 1
            continue
        if t == '(':
            j = matching(toks, i, '(', ')')
            chunk.extend(toks[i:j + 1])
            i = j + 1
            continue
        if t == '{':
            j = matching(toks, i, '{', '}')
            prev = chunk[-1][0] if chunk else ''
            if prev == ')' and not any(x[0] == '=' for x in chunk):
                # A function definition: its name is the declarator before the parameters.
                name, _ = declarator_name(chunk)
                if name is not None:
                    names.append(Name(name[0], 'function', name[1], end=toks[j][1]))
                chunk = []
                i = j + 1
                continue
            if any(x[0] == '=' for x in chunk):
                chunk.extend(toks[i:j + 1])  # an initialiser
            else:
                tag_bodies(chunk, i, j)
                chunk.extend(toks[i:j + 1])
            i = j + 1
            continue
        chunk.append(toks[i])
        i += 1
    return names


def macros(lines):
    """#define / #undef of rcu.h in order: {name: Name} of those still defined at the end."""
    out = {}
    for line, text in lines:
        m = re.match(r'^\s*#\s*define\s+([A-Za-z_]\w*)(\(([^)]*)\))?', text)
        if m:
            params = None
            if m.group(2) is not None:
                params = [p.strip() for p in m.group(3).split(',') if p.strip()]
            out[m.group(1)] = Name(m.group(1), 'macro', line, params)
            continue
        m = re.match(r'^\s*#\s*undef\s+([A-Za-z_]\w*)', text)
        if m:
            out.pop(m.group(1), None)
    return out


def names(root, cc, defines, lang='c', compat=False):
    """(ok, [Name] or error text) for rcu.h preprocessed with `defines`. As C++ (lang 'c++')
    only the macros are returned: the declaration parser reads C, not namespaces or classes.
    With `compat`, also what the headers of compat/ that rcu.h includes define (the name layers
    of RCU_LIBURCU_NAMES and RCU_KERNEL_NAMES); their Names' lines are Line()s with the file."""
    ok, text = preprocess(root, cc, defines, lang)
    if not ok:
        return False, text
    header = os.path.realpath(os.path.join(root, 'rcu.h'))
    lines = own_lines(text, header, root if compat else None)
    result = list(macros(lines).values())
    if lang == 'c':
        result += parse_decls(tokenize(lines))
    return True, result


def source_directives(root):
    """(line, directive text with continuations joined) of every preprocessor line of rcu.h."""
    out = []
    with open(os.path.join(root, 'rcu.h'), encoding='utf-8') as f:
        raw = f.read().split('\n')
    i = 0
    while i < len(raw):
        ln = raw[i]
        start = i
        if ln.lstrip().startswith('#'):
            while ln.endswith('\\') and i + 1 < len(raw):
                i += 1
                ln = ln[:-1] + ' ' + raw[i]
            out.append((start + 1, ln.strip()))
        i += 1
    return out


def config_macros(root):
    """RCU_* names that rcu.h tests in #if/#ifdef/#ifndef/#elif: {name: first line}; and the
    names it #defines anywhere (in any branch): {name: first line}."""
    tested, defined = {}, {}
    for line, d in source_directives(root):
        m = re.match(r'^#\s*(if|ifdef|ifndef|elif)\b(.*)$', d)
        if m:
            cond = re.sub(r'/\*.*?\*/', '', m.group(2))
            for name in re.findall(r'\b(RCU_[A-Za-z0-9_]*)', cond):
                tested.setdefault(name, line)
        m = re.match(r'^#\s*define\s+([A-Za-z_]\w*)', d)
        if m:
            defined.setdefault(m.group(1), line)
    return tested, defined


def configurations(root, flavours):
    """The configurations the doc checks preprocess rcu.h in: ([(defines, required)], switches).

    Per flavour: no switch, each switch alone, and every switch at once. A switch is an RCU_*
    macro that rcu.h tests but never defines (RCU_DEBUG, RCU_NO_FUTEX, ...). `required` marks the
    configurations that must preprocess (a switch alone may be rejected by an #error, as
    RCU_DEBUG_DEREFERENCE without RCU_DEBUG is)."""
    tested, defined = config_macros(root)
    guard = include_guard(root)
    flavour_macros = {'RCU_FLAVOUR_' + f.upper() for f in flavours}
    # A hook that rcu.h calls (RCU_MODEL_SELF()) needs a definition of the right type from its
    # user, not -DNAME: it is not a switch.
    with open(os.path.join(root, 'rcu.h')) as f:
        text = f.read()
    called = {n for n in tested if re.search(r'^(?!\s*#).*\b' + n + r'\s*\(', text, re.M)}
    switches = sorted(n for n in tested if n not in defined and n != guard and
                      not n.startswith('RCU__') and n not in flavour_macros and n not in called)
    configs = []
    for f in flavours:
        base = ['RCU_FLAVOUR_' + f.upper()]
        configs.append((base, True))
        for s in switches:
            configs.append((base + [s], False))
        if switches:
            configs.append((base + switches, True))
    return configs, switches


def include_guard(root):
    """The include guard of rcu.h: the first #ifndef X (or #if !defined(X) || ..., as rcu.h reads
    `#if !defined(RCU_H) || defined(RCU__INSTANCE)`) whose next few directives define X."""
    ds = source_directives(root)
    for k in range(len(ds) - 1):
        m = re.match(r'^#\s*(?:ifndef\s+(\w+)\s*$|if\s+!\s*defined\s*\(\s*(\w+)\s*\))', ds[k][1])
        if m:
            name = m.group(1) or m.group(2)
            for d in ds[k + 1:k + 4]:
                n = re.match(r'^#\s*define\s+(\w+)\s*$', d[1])
                if n and n.group(1) == name:
                    return name
            return None
    return None

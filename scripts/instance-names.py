#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""Write compat/liburcu/rcu_instance_names.h: what compat/liburcu/rcu_instance.h renames and
saves when it reads rcu.h (and compat/liburcu/rcu_liburcu_names.h) again for a further flavour
of a translation unit.

A further flavour's reading (RCU__INSTANCE) covers every line of the two files outside their
`#if !defined(RCU__INSTANCE)` blocks. From those lines this takes
  - every identifier the code declares at file scope (functions, variables, struct, union and
    enum tags, enumerators, typedefs; universal-ctags finds them), which the reading renames to
    rcu__i_<flavour>_<name> so that the flavours' code does not collide: an external symbol
    (RCU__SYM(), already named after its flavour) is not one of them;
  - every macro they define or undefine, except the configuration a program may set (the public
    RCU_* names that the files test with #ifndef or !defined() before a default), the flavour
    selectors, the system's (a leading underscore) and the names the reading is for
    (urcu_<flavour>_*, such as urcu_bp_dereference()): the reading saves them (push_macro) and
    brings them back after (pop_macro), so that the unit's own flavour keeps its macros.

  scripts/instance-names.py            rewrite the file
  scripts/instance-names.py --check    exit 1 if the file is not what this would write (77:
                                       no ctags; the suite's test instance-names)
An identifier left out is a redefinition where the four flavours meet in one unit: the compile
suite's compat-all-flavours-* jobs build test/port/liburcu_multiflavour.c so, each flavour first,
in C (with and without RCU_DEBUG) and C++, with -Werror; the port suite builds it in each
flavour. A condition on RCU__INSTANCE that the rules here do not know stops the script.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ["rcu.h", "compat/liburcu/rcu_liburcu_names.h"]
OUT = "compat/liburcu/rcu_instance_names.h"
SHARED = "!defined(RCU__INSTANCE)"
SELECTORS = {"RCU_FLAVOUR_QSBR", "RCU_FLAVOUR_MEMB", "RCU_FLAVOUR_MB", "RCU_FLAVOUR_BP"}
# What ctags must know of rcu.h's macros to see through its declarations.
CTAGS_DEFINES = [
    "RCU__UNUSED=", "RCU__SLOW(n)=", "RCU__ONCE(k,n)=", "RCU__INLINE=static inline", "RCU__COLD=",
    "RCU__NOEXCEPT=", "RCU__LINE_ALIGNED=", "RCU__NOINLINE=", "RCU__WEAK=",
]


def shared(path, no, condition):
    """Is a branch with this condition left out of a further flavour's reading? Two spellings
    are known, `!defined(RCU__INSTANCE)` alone or as the last term of a chain of `&&`; any other
    condition that names RCU__INSTANCE stops the script, so that a new spelling cannot be taken
    for code of the flavour (or the reverse) without a word."""
    if "RCU__INSTANCE" not in condition:
        return False
    if condition == SHARED or (condition.endswith("&& " + SHARED) and "||" not in condition and
                               condition.count("RCU__INSTANCE") == 1):
        return True
    if condition in ("defined(RCU__INSTANCE)", "!defined(RCU_H) || defined(RCU__INSTANCE)",
                     "!defined(RCU__COMPAT_LIBURCU_NAMES_H) || defined(RCU__INSTANCE)"):
        return False  # the guards that let a further flavour read the file, and their #elif
    sys.exit("instance-names: %s:%d: a condition on RCU__INSTANCE this script does not know: %s "
             "(write `#if !defined(RCU__INSTANCE)` or `#if A && !defined(RCU__INSTANCE)`)" % (path, no, condition))


def instance_lines(path, lines):
    """The set of line numbers (1-based) that a further flavour's reading covers."""
    stack = []  # one entry per open #if: is its current branch a shared block?
    opened = []  # and did its condition name RCU__INSTANCE?
    covered = set()
    more = 0  # lines that continue a directive already read
    for no, line in enumerate(lines, 1):
        if more:
            more -= 1
            continue
        m = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", line)
        if m:
            while line.rstrip().endswith("\\"):  # a condition continued: read it whole
                line = line.rstrip()[:-1] + " " + lines[no + more].strip()
                more += 1
            m = re.match(r"\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)", line)
            kw, rest = m.group(1), " ".join(m.group(2).split("/*")[0].split("//")[0].split())
            if kw in ("ifdef", "ifndef") and rest == "RCU__INSTANCE":
                sys.exit("instance-names: %s:%d: write `#if !defined(RCU__INSTANCE)`" % (path, no))
            if kw in ("if", "ifdef", "ifndef"):
                stack.append(kw == "if" and shared(path, no, rest))
                opened.append("RCU__INSTANCE" in rest)
            elif kw == "elif":
                stack[-1] = shared(path, no, rest)
                opened[-1] = opened[-1] or "RCU__INSTANCE" in rest
            elif kw == "else":
                if opened[-1] and stack[-1]:
                    sys.exit("instance-names: %s:%d: an #else after !defined(RCU__INSTANCE): write its condition" % (path, no))
                stack[-1] = False
            else:
                stack.pop()
                opened.pop()
            continue
        if not any(stack):
            covered.add(no)
    return covered


def identifiers(path, covered):
    cmd = ["ctags", "-x", "--language-force=C", "--c-kinds=fvstgeu", "-f", "-"]
    for d in CTAGS_DEFINES:
        cmd += ["-D", d]
    out = subprocess.run(cmd + [path], check=True, capture_output=True, text=True).stdout
    names = set()
    for row in out.splitlines():
        name, _kind, line = row.split()[:3]
        if int(line) in covered and not name.startswith(("__anon", "RCU__SYM")):
            names.add(name)
    return names


def macros(lines, covered, configurable):
    names = set()
    for no, line in enumerate(lines, 1):
        m = re.match(r"\s*#\s*(?:define|undef)\s+(\w+)", line)
        if m and no in covered:
            name = m.group(1)
            if not name.startswith(("_", "urcu_")) and name not in configurable | SELECTORS:
                names.add(name)
    return names


def generate():
    ids, defs, configurable = set(), set(), set()
    texts = {}
    for rel in SOURCES:
        with open(os.path.join(ROOT, rel)) as f:
            texts[rel] = f.read().split("\n")
        for line in texts[rel]:
            m = re.match(r"\s*#\s*(?:ifndef\s+(\w+)|if\s+!\s*defined\s*\(\s*(\w+)\s*\)\s*$)", line)
            if m and re.match(r"RCU_[A-Z]", m.group(1) or m.group(2)):
                configurable.add(m.group(1) or m.group(2))
    for rel in SOURCES:
        covered = instance_lines(rel, texts[rel])
        ids |= identifiers(os.path.join(ROOT, rel), covered)
        defs |= macros(texts[rel], covered, configurable)
    ids -= defs  # a name that is a macro of the flavour's code is saved, not renamed
    out = [
        "/* SPDX-License-Identifier: 0BSD */",
        "/* Written by scripts/instance-names.py from rcu.h and rcu_liburcu_names.h: do not edit. */",
        "/*",
        " * compat/liburcu/rcu_instance_names.h, read twice by rcu_instance.h around each further flavour",
        " * of a unit: with RCU__INSTANCE_ON it saves and clears the macros of the flavour's code (%d)" % len(defs),
        " * and renames its identifiers (%d) to RCU__I(name); without, it brings all of them back." % len(ids),
        " */",
        "#if defined(RCU__INSTANCE_ON)",
    ]
    for n in sorted(defs):
        out += ['#pragma push_macro("%s")' % n, "#undef %s" % n]
    for n in sorted(ids):
        out += ['#pragma push_macro("%s")' % n, "#undef %s" % n, "#define %s RCU__I(%s)" % (n, n)]
    out.append("#else")
    for n in sorted(defs) + sorted(ids):
        out.append('#pragma pop_macro("%s")' % n)
    out.append("#endif")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if shutil.which("ctags") is None:
        print("instance-names: skipped: needs universal-ctags (scripts/deps.sh installs it)")
        sys.exit(77)
    text = generate()
    path = os.path.join(ROOT, OUT)
    if args.check:
        with open(path) as f:
            if f.read() != text:
                sys.exit("instance-names: %s is not what scripts/instance-names.py writes: run it" % OUT)
        print("instance-names: %s is current" % OUT)
        return
    with open(path, "w") as f:
        f.write(text)
    print("instance-names: wrote %s" % OUT)


if __name__ == "__main__":
    main()

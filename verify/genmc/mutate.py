#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""verify/genmc/mutate.py: write a copy of rcu.h with one labelled ordering broken.

    mutate.py RCU_H OUT_DIR MUTATION     writes OUT_DIR/rcu.h, prints what it changed
    mutate.py RCU_H --list               every label comment in rcu.h and its statement
    mutate.py RCU_H --check MUTATION...  only check that each mutation applies

A MUTATION is LABEL[#N][~TEXT]:KIND, for example R1:fence, R2:relaxed, G4:release, G5:load,
D1#2:relaxed.

The labelled operation is the statement that follows the label's comment (`/* R1: ...`, or a
comment block whose first line is `/*` and whose next starts with `* R1:`), or the statement on the
same line as the comment (`x = load(...); /* Q0 */`). "The statement" is the text up to the `;`
that ends it (an `if (...) a; else b;` as a whole), or a whole `#if ... #endif` block. A label that
has several comments (L1, G6, ...) is mutated at every one of them, or at the N-th only with #N
(counted from 1 in file order). ~TEXT moves from the labelled statement to the first statement
within a few lines below it whose text contains TEXT (repeat ~TEXT to go on from there): for a
label whose prose names more than one access (D1's first comment, D1#1, is the compare-exchange
that sets the waiters' bit of `gp_done_word`, in rcu__done_announce(); D1#2 is the load of the
word in gp_share(), and D1#2~gp_completed the load of `gp_completed` after it).

KIND, applied inside the labelled statement only (of an if, for or while with a block, inside its
head only):
    fence     every full fence (rcu__fence_full(), rcu__updater_fence(...)) becomes ((void)0)
    relaxed   every memory order becomes relaxed
    acquire, release, acq_rel
              every memory order becomes that one (an acquire where a store has it is invalid C11;
              ask only for what fits the operation)
    load      an RMW that adds 0 (the snapshot) becomes a plain atomic load with the same order
    store     an RMW `x = fetch_add(p, 1, o) + 1` (the advance) becomes a load and a store of that
              value (the store keeps the order, made release if it was acq_rel)
Both spellings are understood: C11 (atomic_load_explicit, memory_order_acquire) and GCC builtins
(__atomic_load_n, __ATOMIC_ACQUIRE).

It fails, loudly and with a non-zero exit, if the label has no comment in rcu.h, if the statement
it finds contains nothing the kind can change, or if the result equals the input: a control whose
pattern no longer matches must not silently become a copy of the good header.
"""
import os
import re
import sys

FOLLOW_LINES = 25
FENCE_RE = re.compile(r"\brcu__fence_(?:full|release)\(\)|\brcu__updater_fence\([^()]*\)")
ORDER_RE = re.compile(r"\bmemory_order_(seq_cst|acq_rel|acquire|release|consume|relaxed)\b|"
                      r"\b(?:__ATOMIC_|RCU__)(SEQ_CST|ACQ_REL|ACQUIRE|RELEASE|CONSUME|RELAXED)\b")

# The failure order of rcu.h's compare-exchange (the last argument), after a substitution.
CAS_FAIL_RE = re.compile(r"(\brcu__cas(?:_weak)?\([^;]*?,\s*__ATOMIC_\w+\s*,\s*)__ATOMIC_\w+(\s*\))")


class MutationError(Exception):
    pass


def comments(text):
    """Yield (start, end) of every C comment, skipping string and character literals."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise MutationError("unterminated comment")
            yield i, j + 2
            i = j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        else:
            i += 1


def comment_label(body):
    """The label a comment opens with (R1, G6, ...), or None. body is the comment's text."""
    inner = body[2:-2]
    # First non-empty line, without the leading ' * ' of a block comment.
    for line in inner.split("\n"):
        line = line.strip().lstrip("*").strip()
        if line:
            m = re.match(r"([A-Z][0-9])(?:\s*$|[:,]|\s*\*/)", line)
            return m.group(1) if m else None
    return None


def statement_after(text, pos):
    """(start, end) of the statement that begins at or after pos."""
    n = len(text)
    i = pos
    while i < n and text[i] in " \t\n":
        i += 1
    if text.startswith("#if", i):
        depth, j = 0, i
        for m in re.finditer(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b", text[i:], re.M):
            depth += 1 if m.group(1) != "endif" else -1
            if depth == 0:
                j = i + m.end()
                return i, j
        raise MutationError("unbalanced #if after a label")
    start, depth, j = i, 0, i
    while j < n:
        c = text[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                raise MutationError("label before the end of a block: no statement follows")
            if c == "}" and depth == 0 and re.match(r"(if|for|while)\b", text[start:start + 6]):
                # An if, for or while whose body is a block ends with the block, unless an else follows.
                k = j + 1
                while k < n and text[k] in " \t\n":
                    k += 1
                if not (text.startswith("else", k) and not re.match(r"\w", text[k + 4:k + 5])):
                    return start, j + 1
        elif c == ";" and depth == 0:
            k = j + 1
            while k < n and text[k] in " \t\n":
                k += 1
            if text.startswith("else", k) and not re.match(r"\w", text[k + 4:k + 5]):
                j = k + 4
                continue
            return start, j + 1
        elif c == "/" and text.startswith("/*", j):
            j = text.find("*/", j) + 2
            continue
        j += 1
    raise MutationError("no statement after a label")


def labelled(text):
    """Every (label, comment_start, stmt_start, stmt_end), in file order."""
    out = []
    for cs, ce in comments(text):
        label = comment_label(text[cs:ce])
        if not label:
            continue
        line_start = text.rfind("\n", 0, cs) + 1
        before = text[line_start:cs]
        if before.strip():
            # The statement on the same line, before the comment.
            out.append((label, cs, line_start + len(before) - len(before.lstrip()), cs))
        else:
            s, e = statement_after(text, ce)
            out.append((label, cs, s, e))
    return out


def mutate_stmt(stmt, kind):
    if kind == "fence":
        new, k = FENCE_RE.subn("((void)0)", stmt)
        if not k:
            raise MutationError("no full fence in the statement")
        return new
    if kind == "relaxed" and "rcu_assign_pointer(" in stmt:
        # The public release store; its relaxed twin is rcu_init_pointer().
        return stmt.replace("rcu_assign_pointer(", "rcu_init_pointer(")
    if kind in ("relaxed", "acquire", "release", "acq_rel"):
        def repl(m):
            return ("memory_order_" + kind) if m.group(1) else ("__ATOMIC_" + kind.upper())
        found = [m for m in ORDER_RE.finditer(stmt) if (m.group(1) or m.group(2).lower()) != kind]
        if not found:
            raise MutationError("no memory order to change to %s in the statement" % kind)
        new = ORDER_RE.sub(repl, stmt)
        if kind in ("release", "acq_rel"):
            # A compare-exchange's failure order is a load's: release becomes relaxed, acq_rel acquire.
            fail = "__ATOMIC_RELAXED" if kind == "release" else "__ATOMIC_ACQUIRE"
            new = CAS_FAIL_RE.sub(lambda m: m.group(1) + fail + m.group(2), new)
        return new
    if kind == "load":
        pats = [
            (r"atomic_fetch_add_explicit\(([^,]+),\s*0,\s*(memory_order_\w+)\)",
             r"atomic_load_explicit(\1, \2)"),
            (r"__atomic_fetch_add\(([^,]+),\s*0,\s*(__ATOMIC_\w+)\)", r"__atomic_load_n(\1, \2)"),
            (r"rcu__fetch_add\(([^,]+),\s*0,\s*(RCU__\w+)\)", r"rcu__load(\1, \2)"),
        ]
        for p, r in pats:
            new, k = re.subn(p, r, stmt)
            if k:
                return new.replace("acq_rel)", "acquire)").replace("ACQ_REL)", "ACQUIRE)")
        raise MutationError("no fetch_add(..., 0, ...) in the statement")
    if kind == "store":
        pats = [
            (r"(\w+)\s*=\s*atomic_fetch_add_explicit\(([^,]+),\s*1,\s*memory_order_(\w+)\)\s*\+\s*1;",
             lambda m: "%s = atomic_load_explicit(%s, memory_order_relaxed) + 1; "
                       "atomic_store_explicit(%s, %s, memory_order_%s);" % (
                           m.group(1), m.group(2), m.group(2), m.group(1),
                           "release" if m.group(3) == "acq_rel" else m.group(3))),
            (r"(\w+)\s*=\s*__atomic_fetch_add\(([^,]+),\s*1,\s*__ATOMIC_(\w+)\)\s*\+\s*1;",
             lambda m: "%s = __atomic_load_n(%s, __ATOMIC_RELAXED) + 1; "
                       "__atomic_store_n(%s, %s, __ATOMIC_%s);" % (
                           m.group(1), m.group(2), m.group(2), m.group(1),
                           "RELEASE" if m.group(3) == "ACQ_REL" else m.group(3))),
            (r"(\w+)\s*=\s*rcu__fetch_add\(([^,]+),\s*1,\s*RCU__(\w+)\)\s*\+\s*1;",
             lambda m: "{ %s = rcu__load(%s, RCU__RELAXED) + 1; rcu__store(%s, %s, RCU__%s); }" % (
                           m.group(1), m.group(2), m.group(2), m.group(1),
                           "RELEASE" if m.group(3) == "ACQ_REL" else m.group(3))),
        ]
        for p, r in pats:
            new, k = re.subn(p, r, stmt)
            if k:
                return new
        raise MutationError("no `x = fetch_add(p, 1, o) + 1;` in the statement")
    raise MutationError("unknown kind %r" % kind)


def following(text, site, needle, mutation):
    """The first statement, from the labelled one on and at most FOLLOW_LINES lines below it, that
    contains needle: for the accesses a label's prose names beyond its first statement."""
    label, cs, s, e = site
    limit = s
    for _ in range(FOLLOW_LINES):
        limit = text.find("\n", limit + 1)
        if limit < 0:
            limit = len(text)
            break
    first = True
    while s < limit:
        if needle in text[s:e] and not first:
            return (label, cs, s, e)
        first = False
        s, e = statement_after(text, e)
        # Step into a compound statement's first line rather than over it.
        brace = text.find("{", s, e)
        if brace >= 0 and needle not in text[s:brace] and needle in text[s:e]:
            s, e = statement_after(text, brace + 1)
    raise MutationError("%s: no statement containing %r within %d lines of the label"
                        % (mutation, needle, FOLLOW_LINES))


def apply(text, mutation):
    m = re.fullmatch(r"([A-Z][0-9])(?:#([0-9]+))?((?:~[^:~]+)*):(\w+)", mutation)
    if not m:
        raise MutationError("a mutation is LABEL[#N][~TEXT]:KIND, not %r" % mutation)
    label, nth, follow, kind = m.group(1), m.group(2), m.group(3), m.group(4)
    sites = [s for s in labelled(text) if s[0] == label]
    if not sites:
        raise MutationError("no /* %s: ... */ comment in rcu.h" % label)
    if nth:
        k = int(nth)
        if not 1 <= k <= len(sites):
            raise MutationError("%s has %d labelled statements, not %d" % (label, len(sites), k))
        sites = [sites[k - 1]]
    for needle in (follow or "").split("~")[1:]:
        sites = [following(text, s, needle, mutation) for s in sites]
    report = []
    for _, _, s, e in sorted(sites, key=lambda x: -x[2]):
        # Of a compound statement (if, for, while), only its head: not the block it controls.
        brace = text.find("{", s, e)
        if brace >= 0:
            e = brace
        old = text[s:e]
        try:
            new = mutate_stmt(old, kind)
        except MutationError as err:
            line = text.count("\n", 0, s) + 1
            raise MutationError("%s at line %d: %s:\n    %s" % (mutation, line, err, old))
        text = text[:s] + new + text[e:]
        report.append((text.count("\n", 0, s) + 1, old, new))
    return text, sorted(report)


def main(argv):
    if len(argv) >= 3 and argv[2] == "--list":
        text = open(argv[1]).read()
        for label, cs, s, e in labelled(text):
            stmt = " ".join(text[s:e].split())
            print("%-3s line %4d: %s" % (label, text.count("\n", 0, s) + 1, stmt[:110]))
        return 0
    if len(argv) >= 3 and argv[2] == "--check":
        text = open(argv[1]).read()
        bad = 0
        for mut in argv[3:]:
            try:
                new, _ = apply(text, mut)
                if new == text:
                    raise MutationError("%s changes nothing" % mut)
            except MutationError as err:
                print("mutate.py: %s" % err, file=sys.stderr)
                bad += 1
        return 1 if bad else 0
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    src, out, mut = argv[1:]
    text = open(src).read()
    try:
        new, report = apply(text, mut)
    except MutationError as err:
        print("mutate.py: %s" % err, file=sys.stderr)
        return 1
    if new == text:
        print("mutate.py: %s changes nothing" % mut, file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "rcu.h"), "w") as f:
        f.write(new)
    for line, old, new_stmt in report:
        print("%s line %d: %s  ->  %s" % (mut, line, " ".join(old.split()), " ".join(new_stmt.split())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

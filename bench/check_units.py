#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""bench-driver-units: the files of the benchmark driver (bench/driver.h lists them) form no cycle.

    check_units.py --nm NM ARCHIVE

ARCHIVE is the static library of the driver's objects. A file depends on another when its
object uses a symbol (function or object) that the other's object defines (nm: U against T, D,
B, R, C). The check fails, naming the files and the symbols of the cycle, when the dependencies
loop: a part that reaches back into main (as sections.c once read rcu-bench.c's options) can
no longer be read, changed or tested without the files that call it (issue #22).
"""

import argparse
import subprocess
import sys


def objects(nm, archive):
    """{object: (defined symbols, undefined symbols)} from nm's per-member listing."""
    out = subprocess.run([nm, archive], capture_output=True, text=True, check=True).stdout
    objs, cur = {}, None
    for line in out.splitlines():
        if line.endswith(':') and ' ' not in line:
            cur = line[:-1]
            objs[cur] = (set(), set())
            continue
        p = line.split()
        if cur is None or not p:
            continue
        if len(p) == 3 and p[1] in 'TDBRCGSV':
            objs[cur][0].add(p[2])
        elif len(p) == 2 and p[0] == 'U':
            objs[cur][1].add(p[1])
    return objs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--nm', default='nm')
    ap.add_argument('archive')
    a = ap.parse_args()
    objs = objects(a.nm, a.archive)
    owner = {s: o for o, (defs, _) in objs.items() for s in defs}
    deps = {o: {} for o in objs}
    for o, (_, undefs) in objs.items():
        for s in undefs:
            if s in owner and owner[s] != o:
                deps[o].setdefault(owner[s], []).append(s)
    # Depth-first search; a grey node met again closes a cycle.
    state, stack = {}, []

    def visit(o):
        state[o] = 'grey'
        stack.append(o)
        for d in sorted(deps[o]):
            if state.get(d) == 'grey':
                loop = stack[stack.index(d):] + [d]
                print('bench-driver-units: a cycle: ' + ' -> '.join(loop))
                for x, y in zip(loop, loop[1:]):
                    print(f'    {x} uses {", ".join(sorted(deps[x][y]))} of {y}')
                print('    fix: move what both need into a file that calls neither (bench/options.c holds '
                      'the settings main fills), or pass it as a parameter; bench/driver.h gives the order')
                return True
            if d not in state and visit(d):
                return True
        stack.pop()
        state[o] = 'black'
        return False

    for o in sorted(objs):
        if o not in state and visit(o):
            return 1
    if len(objs) < 2:
        print(f'bench-driver-units: {a.archive} holds {len(objs)} object(s); expected the driver\'s files')
        return 1
    edges = sum(len(d) for d in deps.values())
    print(f'bench-driver-units: ok ({len(objs)} files, {edges} dependencies, no cycle)')
    return 0


if __name__ == '__main__':
    sys.exit(main())

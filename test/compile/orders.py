#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""orders.py: the memory orders of rcu.h's pointer macros, as the compiler emits them.

    orders.py --compiler CC --family gcc|clang --lang c|c++ --src ROOT [-- FLAGS...]

Compiles test/compile/orders.c (as C, or as C++ with -x c++) at -O1 and reads the compiler's own
account of every atomic access in each o_<macro>__<kind> function: clang's LLVM IR (`load atomic
... acquire`, `store atomic ... release`, `atomicrmw xchg ... acq_rel`, `cmpxchg ... acq_rel
acquire`), GCC's optimized GIMPLE (`__atomic_load_8 (&p, 2)`, `.ATOMIC_COMPARE_EXCHANGE (..., 4,
2)`). Each function's accesses must be exactly those of EXPECT for its macro, whatever the
pointer kind: a macro that loses its order for one kind (say a relaxed store for std::atomic) or
whose kinds disagree fails, naming the function, what it found and what it wanted. A consume load
counts as acquire (GCC keeps "consume" in GIMPLE; clang emits acquire). Every kind of the file
must be present for every macro, so a check cannot pass vacuously.
"""

import argparse
import re
import subprocess
import sys
import tempfile

# macro: the sorted list of (operation, order) it must compile to.
LOAD_C = [('load', 'acquire')]
EXPECT = {
    'rcu_dereference': LOAD_C,
    'rcu_dereference_check': LOAD_C,
    'rcu_dereference_raw': LOAD_C,
    'rcu_dereference_bh': LOAD_C,
    'srcu_dereference': LOAD_C,
    'rcu_dereference_protected': [('load', 'relaxed')],
    'rcu_access_pointer': [('load', 'relaxed')],
    'rcu_assign_pointer': [('store', 'release')],
    'rcu_set_pointer': [('store', 'release')],
    'rcu_init_pointer': [('store', 'relaxed')],
    'RCU_INIT_POINTER': [('store', 'relaxed')],
    'rcu_xchg_pointer': [('xchg', 'acq_rel')],
    'rcu_cmpxchg_pointer': [('cmpxchg', 'acq_rel/acquire')],  # success/failure
    'rcu_replace_pointer': sorted([('load', 'relaxed'), ('store', 'release')]),
    # lists: one release store publishes; the rest of the updater's accesses are relaxed
    'list_add': sorted([('load', 'relaxed'), ('store', 'relaxed'),
                        ('store', 'release')]),
    'list_add_tail': sorted([('store', 'relaxed'), ('store', 'release')]),
    'list_del': sorted([('load', 'relaxed'), ('store', 'release')]),
    'list_replace': sorted([('load', 'relaxed'), ('store', 'relaxed'),
                            ('store', 'release')]),
    'hlist_add_head': sorted([('load', 'relaxed'), ('store', 'relaxed'),
                              ('store', 'release')]),
    'hlist_del': sorted([('load', 'relaxed'), ('store', 'release')]),
    # walks: every load is a consume; how many the loop keeps is the compiler's business
    'list_walk': 'all loads acquire',
    'hlist_walk': 'all loads acquire',
    'list_for_each_entry_rcu': 'all loads acquire',
}
KINDS = {'c': ['plain', 'atomic', 'member', 'cplain', 'list'],
         'c++': ['plain', 'atomic', 'member', 'cplain', 'list']}
GCC_ORDERS = {'0': 'relaxed', '1': 'acquire', '2': 'acquire', '3': 'release', '4': 'acq_rel',
              '5': 'seq_cst'}  # GCC's memmodel numbers; 1 is consume, taken as acquire
CLANG_ORDERS = {'monotonic': 'relaxed', 'acquire': 'acquire', 'release': 'release',
                'acq_rel': 'acq_rel', 'seq_cst': 'seq_cst', 'unordered': 'unordered'}


def clang_accesses(text):
    funcs, cur = {}, None
    for line in text.split('\n'):
        m = re.match(r'^define .*@(o_\w+)\(', line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if line.startswith('}'):
            cur = None
            continue
        if cur is None:
            continue
        m = re.search(r'\bload atomic .* (\w+), align', line)
        if m:
            cur.append(('load', CLANG_ORDERS[m.group(1)]))
        m = re.search(r'\bstore atomic .* (\w+), align', line)
        if m:
            cur.append(('store', CLANG_ORDERS[m.group(1)]))
        m = re.search(r'\batomicrmw xchg .* (\w+), align', line)
        if m:
            cur.append(('xchg', CLANG_ORDERS[m.group(1)]))
        m = re.search(r'\bcmpxchg (?:weak )?.* (\w+) (\w+), align', line)
        if m:
            cur.append(('cmpxchg', CLANG_ORDERS[m.group(1)] + '/' + CLANG_ORDERS[m.group(2)]))
    return funcs


def gcc_accesses(text):
    funcs, cur = {}, None
    for line in text.split('\n'):
        m = re.match(r'^;; Function (\w+) ', line)
        if m:
            cur = funcs.setdefault(m.group(1), []) if m.group(1).startswith('o_') else None
            continue
        if cur is None:
            continue
        m = re.search(r'__atomic_load_\d+ \(.*, (\d)\);', line)
        if m:
            cur.append(('load', GCC_ORDERS[m.group(1)]))
        m = re.search(r'__atomic_store_\d+ \(.*, (\d)\);', line)
        if m:
            cur.append(('store', GCC_ORDERS[m.group(1)]))
        m = re.search(r'__atomic_exchange_\d+ \(.*, (\d)\);', line)
        if m:
            cur.append(('xchg', GCC_ORDERS[m.group(1)]))
        m = re.search(r'\.ATOMIC_COMPARE_EXCHANGE \(.*, (\d), (\d)\);', line)
        if m:
            cur.append(('cmpxchg', GCC_ORDERS[m.group(1)] + '/' + GCC_ORDERS[m.group(2)]))
    return funcs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--compiler', required=True)
    ap.add_argument('--family', choices=['gcc', 'clang'], required=True)
    ap.add_argument('--lang', choices=['c', 'c++'], required=True)
    ap.add_argument('--src', required=True)
    ap.add_argument('flags', nargs='*')
    a = ap.parse_args()
    src = a.src + '/test/compile/orders.c'
    base = [a.compiler, '-x', a.lang, '-O1', '-I' + a.src] + a.flags
    with tempfile.TemporaryDirectory(prefix='rcu-orders-') as tmp:
        if a.family == 'clang':
            p = subprocess.run(base + ['-S', '-emit-llvm', '-o', '-', src],
                               capture_output=True, text=True)
            text = p.stdout
        else:
            dump = tmp + '/orders.optimized'
            p = subprocess.run(base + ['-c', '-o', tmp + '/orders.o',
                                       '-fdump-tree-optimized=' + dump, src],
                               capture_output=True, text=True)
            text = open(dump).read() if p.returncode == 0 else ''
        if p.returncode != 0:
            print(f'orders.py: {" ".join(base)} {src} failed:\n{p.stderr}')
            return 1
    funcs = clang_accesses(text) if a.family == 'clang' else gcc_accesses(text)
    bad = checked = 0
    for macro, want in EXPECT.items():
        lists = macro.startswith(('list_', 'hlist_'))
        kinds = ['list'] if lists else [k for k in KINDS[a.lang] if k != 'list']
        if a.lang == 'c++' and not lists and any(f.endswith('__c23') for f in funcs):
            kinds = kinds + ['c23']
        for kind in kinds:
            name = f'o_{macro}__{kind}'
            if name not in funcs:
                print(f'FAIL {name}: not found in the compiler output')
                bad += 1
                continue
            got = sorted(funcs[name])
            checked += 1
            if want == 'all loads acquire':
                ok = got and all(op == 'load' and order == 'acquire' for op, order in got)
            else:
                ok = got == want
            if not ok:
                print(f'FAIL {name}: found {got}, want {want}')
                bad += 1
    print(f'orders.py ({a.family}, {a.lang}): {checked - bad} of {checked} functions '
          'have the expected orders')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

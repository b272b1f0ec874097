#!/usr/bin/env python3
# SPDX-License-Identifier: 0BSD
"""The logic-mutant check of rcu.h (issue #18); scripts/mutants.sh runs it, docs/mutants.md explains it.

Copies the project's tree to a temporary folder once, sets up one meson build there, builds and runs
the listed test programs on the unmutated header (the control), then for each mutant of
verify/mutants/mutants.py writes the mutated rcu.h, builds only that mutant's programs, runs them in
order until one fails, restores the header, and prints the table. Exit status: 0 when every mutant
is killed or argued equivalent, 1 when one survives unargued (or an argued one is killed), 2 when
the check itself cannot run (a mutant that no longer applies or does not build, a failing control).
"""
import argparse
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from mutants import MUTANTS  # noqa: E402


def die(msg):
    print(f"mutants: {msg}", file=sys.stderr)
    sys.exit(2)


def check_list(text):
    """Every mutant applies exactly once, changes something, and has a unique name."""
    seen = set()
    for m in MUTANTS:
        for key in ("name", "area", "bug", "old", "new", "targets"):
            if key not in m:
                die(f"mutant {m.get('name', '?')} has no `{key}`")
        if m["name"] in seen:
            die(f"two mutants are named {m['name']}")
        seen.add(m["name"])
        n = text.count(m["old"])
        if n != 1:
            die(f"mutant {m['name']}: its old text occurs {n} times in rcu.h, not once (rcu.h changed: "
                f"update the text in verify/mutants/mutants.py, keeping the bug)")
        if m["old"] == m["new"]:
            die(f"mutant {m['name']} changes nothing")
        if not m["targets"]:
            die(f"mutant {m['name']} lists no test program")


def compile_check(text):
    """Every mutant compiles with the project's warnings, in every flavour (C, -fsyntax-only)."""
    flavours = [l.split("#")[0].strip() for l in open(os.path.join(ROOT, "rcu_flavours", "flavours.txt"))]
    with tempfile.TemporaryDirectory(prefix="rcu-mutants-check-") as d:
        unit = os.path.join(d, "unit.c")
        with open(unit, "w") as f:
            f.write('#include "rcu.h"\nint main(void) { return 0; }\n')
        for m in MUTANTS:
            with open(os.path.join(d, "rcu.h"), "w", encoding="utf-8") as f:
                f.write(text.replace(m["old"], m["new"], 1))
            for fl in filter(None, flavours):
                r = subprocess.run(["cc", "-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                                    "-fsyntax-only", f"-DRCU_FLAVOUR_{fl.upper()}", "-I", d, "-I", ROOT, unit],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    print(r.stderr[-3000:], file=sys.stderr)
                    die(f"mutant {m['name']} does not compile in {fl} (a mutant must be a bug that compiles)")


def copy_tree(dst):
    """The working tree as it is (tracked and untracked files, not ignored ones: no build dirs)."""
    try:
        files = subprocess.run(["git", "-C", ROOT, "ls-files", "-co", "--exclude-standard", "-z"],
                               check=True, capture_output=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, dst, ignore=shutil.ignore_patterns("build*", ".git"), dirs_exist_ok=True)
        return
    for f in files:
        if not f or not os.path.isfile(os.path.join(ROOT, f)):
            continue
        os.makedirs(os.path.join(dst, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), os.path.join(dst, f))


def build(build_dir, targets, jobs, log):
    r = subprocess.run(["ninja", "-C", build_dir, f"-j{jobs}"] + [f"test/{t}" for t in targets],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with open(log, "wb") as f:
        f.write(r.stdout)
    return r.returncode == 0


FAIL_RE = re.compile(r"^\[FAIL\] (\S+?::\S+?):(.*)$", re.M)


def run_program(build_dir, target, timeout, log):
    """Run one test program as meson does (one Criterion worker). Returns (verdict, detail, seconds):
    verdict "pass", "fail" (detail: the first failing test) or "hang" (killed at the timeout)."""
    exe = os.path.join(build_dir, "test", target)
    start = time.monotonic()
    env = dict(os.environ, MALLOC_PERTURB_=os.environ.get("MALLOC_PERTURB_", "165"))
    with open(log, "wb") as out:
        p = subprocess.Popen([exe, "--jobs=1"], stdout=out, stderr=subprocess.STDOUT, cwd=os.path.dirname(exe),
                             env=env, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
            rc = None
    secs = time.monotonic() - start
    text = open(log, errors="replace").read()
    fails = FAIL_RE.findall(text)
    if rc is None:
        return "hang", f"no end after {timeout:.0f} s", secs
    if rc == 0:
        return "pass", "", secs
    if fails:
        name, why = fails[0]
        why = why.strip()
        return ("hang" if "Timed out" in why else "fail"), name + (" (timed out)" if "Timed out" in why else
                                                                  " (crash)" if "CRASH" in why else ""), secs
    return "fail", f"exit status {rc}", secs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", help="run only these mutants (default: all)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--check", action="store_true", help="only check that every mutant applies, and exit")
    ap.add_argument("--keep", action="store_true", help="keep the temporary tree (logs of each run in it)")
    ap.add_argument("--jobs", type=int, default=2, help="ninja -j (default 2)")
    ap.add_argument("--min-timeout", type=float, default=30.0,
                    help="a program's timeout is the larger of this and --factor times its control run (default 30 s)")
    ap.add_argument("--factor", type=float, default=4.0)
    args = ap.parse_args()

    header = os.path.join(ROOT, "rcu.h")
    original = open(header, encoding="utf-8").read()
    check_list(original)
    if args.list:
        for m in MUTANTS:
            print(f"{m['name']:45} {m['area']:28} {' '.join(m['targets'])}{'  (argued equivalent)' if m.get('equivalent') else ''}")
        return 0
    if args.check:
        compile_check(original)
        print(f"mutants: all {len(MUTANTS)} apply exactly once and compile in every flavour")
        return 0
    chosen = MUTANTS
    if args.names:
        known = {m["name"] for m in MUTANTS}
        for n in args.names:
            if n not in known:
                die(f"no mutant named {n} (--list lists them)")
        chosen = [m for m in MUTANTS if m["name"] in args.names]

    t0 = time.monotonic()
    compile_check(original)
    tmp = tempfile.mkdtemp(prefix="rcu-mutants-")
    src = os.path.join(tmp, "src")
    bld = os.path.join(tmp, "build")
    logs = os.path.join(tmp, "logs")
    os.makedirs(logs)
    status = 2
    try:
        copy_tree(src)
        tmp_header = os.path.join(src, "rcu.h")
        digest = hashlib.sha256(original.encode()).hexdigest()
        r = subprocess.run(["meson", "setup", bld, src], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            sys.stdout.write(r.stdout.decode(errors="replace"))
            die("meson setup failed")
        targets = []
        for m in chosen:
            for t in m["targets"]:
                if t not in targets:
                    targets.append(t)

        # The control: the unmutated header must build and pass every program the mutants use.
        print(f"control: building {len(targets)} programs", flush=True)
        if not build(bld, targets, args.jobs, os.path.join(logs, "control-build.log")):
            die(f"the control does not build: {os.path.join(logs, 'control-build.log')} (--keep keeps it)")
        timeouts = {}
        for t in targets:
            verdict, detail, secs = run_program(bld, t, 600, os.path.join(logs, f"control-{t}.log"))
            print(f"control: {t:28} {verdict} {secs:6.1f} s {detail}", flush=True)
            if verdict != "pass":
                die(f"the control fails: {t} {detail} (a flaky test, or the tree is broken)")
            timeouts[t] = max(args.min_timeout, args.factor * secs)
        t_control = time.monotonic() - t0

        results = []
        for i, m in enumerate(chosen, 1):
            mt0 = time.monotonic()
            mutated = original.replace(m["old"], m["new"], 1)
            with open(tmp_header, "w", encoding="utf-8") as f:
                f.write(mutated)
            try:
                blog = os.path.join(logs, f"{m['name']}-build.log")
                if not build(bld, m["targets"], args.jobs, blog):
                    print(open(blog, errors="replace").read()[-3000:])
                    die(f"mutant {m['name']} does not build (a mutant must be a bug that compiles)")
                verdict, killer = "SURVIVED", ""
                for t in m["targets"]:
                    v, detail, secs = run_program(bld, t, timeouts[t], os.path.join(logs, f"{m['name']}-{t}.log"))
                    if v != "pass":
                        verdict, killer = v, f"{t}: {detail}"
                        break
            finally:
                with open(tmp_header, "w", encoding="utf-8") as f:
                    f.write(original)
            secs = time.monotonic() - mt0
            results.append((m, verdict, killer, secs))
            shown = "killed" if verdict == "fail" else verdict
            print(f"[{i}/{len(chosen)}] {m['name']:45} {shown:8} {killer}  ({secs:.0f} s)", flush=True)

        # The restore: the copy's header is the original again, byte for byte (and the tree's own
        # rcu.h was never written).
        for path in (tmp_header, header):
            if hashlib.sha256(open(path, encoding="utf-8").read().encode()).hexdigest() != digest:
                die(f"{path} differs from the original header after the run")

        total = time.monotonic() - t0
        print()
        print("| mutant | area | result | first to fail |")
        print("| --- | --- | --- | --- |")
        bad = []
        for m, verdict, killer, secs in results:
            eq = m.get("equivalent")
            if verdict == "SURVIVED":
                shown = "survived (argued equivalent)" if eq else "**SURVIVED**"
                if not eq:
                    bad.append(m["name"])
            else:
                shown = "killed" if verdict == "fail" else "killed (hang)"
                if eq:
                    shown += " although argued equivalent"
                    bad.append(m["name"])
            print(f"| `{m['name']}` | {m['area']} | {shown} | {('`' + killer + '`') if killer else ''} |")
        print()
        print(f"mutants: {len(results)} run, {sum(1 for r in results if r[1] != 'SURVIVED')} killed, "
              f"{sum(1 for r in results if r[1] == 'SURVIVED' and r[0].get('equivalent'))} argued equivalent, "
              f"{len(bad)} unexplained; control {t_control:.0f} s, total {total:.0f} s ({total / 60:.1f} min)")
        if bad:
            print("mutants: unexplained: " + " ".join(bad))
        status = 1 if bad else 0
    finally:
        if args.keep:
            print(f"mutants: tree, build and logs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())

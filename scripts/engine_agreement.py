#!/usr/bin/env python3
"""Runs the built-in checker's two engines on the same programs and lists where they
disagree: the default portfolio (the explicit-state explorer beside the bounded search)
against the bounded symbolic search alone (`--no-explore`).

The explorer executes concretely; the symbolic search encodes memory, arithmetic and
the schedule in SMT. A failure one finds and the other rules out is a modelling error in
one of them (the memory model's struct copy at a symbolic index was found this way), so
every row this prints must be looked at. `unknown` (a bound or time limit) on either side
is not a disagreement.

Usage: scripts/engine_agreement.py [FILES or DIRS...] [--exe PATH] [--timeout SECS]
                                   [--jobs N] [--json FILE]
With no paths: the repository's `tests/programs` and `benchmarks`, and `../shared/svcomp`
when it is there.
"""
import argparse, concurrent.futures, json, os, subprocess, sys

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ap = argparse.ArgumentParser()
ap.add_argument("paths", nargs="*")
ap.add_argument("--exe", default=os.path.join(root, "target/release/seqloc"))
ap.add_argument("--timeout", type=int, default=60)
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--json", default="")
args = ap.parse_args()

paths = args.paths or [os.path.join(root, "tests/programs"), os.path.join(root, "benchmarks")]
if not args.paths:
    shared = os.path.join(root, "../shared/svcomp")
    if os.path.isdir(shared):
        paths.append(shared)
    else:
        print(f"NOTICE: {shared} is absent: its tasks are not compared", file=sys.stderr)
files = []
for p in paths:
    if os.path.isfile(p):
        files.append(p)
        continue
    for d, _, names in os.walk(p):
        files += [os.path.join(d, n) for n in names if n.endswith((".c", ".i"))]
files.sort()


def verdict(extra, f):
    cmd = [args.exe, "check", f, "--json", "--timeout", str(args.timeout)] + extra
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 30)
    except subprocess.TimeoutExpired:
        return "unknown", None
    if p.returncode == 2:
        return "refused", None
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        return f"crash({p.returncode})", None
    v = j.get("verdict", "?")
    if p.returncode == 3:
        return "unknown", j
    if v.startswith("no-failure"):
        return ("proof" if j.get("exhaustive") else "no-failure"), j
    return v, j


def one(f):
    a, ja = verdict([], f)
    b, jb = verdict(["--no-explore"], f)
    return f, a, b, ja, jb


FAIL = ("failure", "deadlock")
rows = []
with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
    for f, a, b, ja, jb in ex.map(one, files):
        rel = os.path.relpath(f, root)
        fa, fb = a in FAIL, b in FAIL
        # A proof against a failure is a definite error of one engine; a failure against
        # a bounded "no failure" may be a failure beyond the symbolic bounds: look at both.
        clash = ("definite" if (a == "proof" and fb) or (b == "proof" and fa)
                 else "bounds?" if (fa and b == "no-failure") or (fb and a == "no-failure")
                 else "")
        rows.append({"file": rel, "portfolio": a, "symbolic": b, "disagree": clash})
        mark = f"DISAGREE ({clash})" if clash else ""
        print(f"{rel:70} {a:18} {b:18} {mark}", flush=True)
n = len(rows)
bad = [r for r in rows if r["disagree"]]
print(f"\n{n} programs, {len(bad)} disagreements")
for r in bad:
    print(f"  {r['file']}: portfolio {r['portfolio']}, symbolic alone {r['symbolic']}")
if args.json:
    with open(args.json, "w") as fh:
        json.dump(rows, fh, indent=1)
sys.exit(1 if bad else 0)

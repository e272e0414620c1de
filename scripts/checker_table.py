#!/usr/bin/env python3
"""The per-checker table of BENCHMARKS.md: every benchmark of benchmarks/MANIFEST.json
localized with `--checker esbmc` and `--checker cbmc` (verdict, ground-truth hit, candidates,
checker runs, time), and ESBMC alone on the raw file (`check --raw`: does the checker find
the bug without seqloc's split program?). The checkers come from PATH (`make bench-checkers`
puts .checkers/bin first).

Usage: scripts/checker_table.py [--timeout SECS] [--jobs N] [--only SUBSTRING,...] [--correct N]
                               [--json FILE] [--checkers esbmc,cbmc,raw]
"""
import argparse, concurrent.futures, json, os, statistics, subprocess, time

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ap = argparse.ArgumentParser()
ap.add_argument("--timeout", type=int, default=300)
ap.add_argument("--jobs", type=int, default=1)
ap.add_argument("--only", default="",
                help="comma-separated substrings: only the tasks whose name holds one")
ap.add_argument("--correct", type=int, default=-1,
                help="only the first N correct benchmarks (default: all)")
ap.add_argument("--json", default=os.path.join(root, "target/checker_table.json"))
ap.add_argument("--exe", default=os.path.join(root, "target/release/seqloc"))
ap.add_argument("--checkers", default="esbmc,cbmc,raw",
                help="comma-separated: esbmc, cbmc, raw (ESBMC alone on the raw file)")
args = ap.parse_args()
wanted = set(args.checkers.split(","))
tasks = json.load(open(os.path.join(root, "benchmarks/MANIFEST.json")))["tasks"]


def run(cmd):
    t0 = time.time()
    p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        j = {}
    return p.returncode, j, time.time() - t0, p.stderr


def one(name, t, checker):
    prog = os.path.join("benchmarks", name.replace(".yml", ".c"))
    prop = "deadlock" if t["property"] == "no-deadlock" else "unreach-call"
    code, j, secs, err = run([args.exe, "localize", prog, "--checker", checker, "--format",
                              "json", "--property", prop, "--timeout", str(args.timeout)])
    lines = sorted({c.get("line") for c in j.get("candidates", []) if c.get("line")})
    truth = t.get("faulty_lines") or []
    last = next((l for l in reversed(err.strip().splitlines()) if l.strip()), "")
    return {
        "task": name, "checker": checker, "exit": code, "verdict": j.get("verdict", ""),
        "expected": "false" if t["expected_verdict"] is False else "true",
        "candidates": lines, "hit": any(l in truth for l in lines) if truth else None,
        "runs": j.get("checker_runs", ""), "secs": round(secs, 1),
        "note": "" if j else last[:160],
    }


def raw(name, t):
    prog = os.path.join("benchmarks", name.replace(".yml", ".c"))
    prop = "deadlock" if t["property"] == "no-deadlock" else "unreach-call"
    code, j, secs, _ = run([args.exe, "check", prog, "--checker", "esbmc", "--raw", "--json",
                            "--property", prop, "--timeout", str(args.timeout)])
    return {"task": name, "checker": "esbmc-raw", "exit": code,
            "verdict": j.get("verdict", "error"), "secs": round(secs, 1)}


jobs = []
with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
    correct_left = args.correct
    for name, t in sorted(tasks.items()):
        if not any(o in name for o in args.only.split(",")):
            continue
        if t["expected_verdict"] is not False:
            if correct_left == 0:
                continue
            correct_left -= 1
        for checker in ("esbmc", "cbmc"):
            if checker in wanted:
                jobs.append(pool.submit(one, name, t, checker))
        if t["expected_verdict"] is False and "raw" in wanted:
            jobs.append(pool.submit(raw, name, t))
    results = [f.result() for f in jobs]
json.dump(results, open(args.json, "w"), indent=1)

by = {}
for r in results:
    by.setdefault(r["task"], {})[r["checker"]] = r


def cell(r):
    if r is None:
        return "–"
    if r["expected"] == "false":
        if r["exit"] == 1:
            what = "hit" if r["hit"] else "**miss**"
            return f"{what} ({len(r['candidates'])} lines, {r['runs']} runs, {r['secs']} s)"
    elif r["exit"] == 0:
        return f"no failure ({r['secs']} s)"
    return f"{r['verdict'] or 'error'} exit {r['exit']} ({r['secs']} s)"


print("| task | expected | seqloc + ESBMC 8.4 | seqloc + CBMC 6.6 | ESBMC 8.4 alone (raw) |")
print("|---|---|---|---|---|")
for name in sorted(by):
    row = by[name]
    e, c, rw = row.get("esbmc"), row.get("cbmc"), row.get("esbmc-raw")
    exp = (e or c)["expected"]
    raw_cell = "–" if rw is None else f"{rw['verdict']} ({rw['secs']} s)"
    print(f"| {name} | {exp} | {cell(e)} | {cell(c)} | {raw_cell} |")

for checker in ("esbmc", "cbmc"):
    rs = [r for r in results if r["checker"] == checker]
    bug = [r for r in rs if r["expected"] == "false"]
    ok = [r for r in rs if r["expected"] == "true"]
    hits = sum(1 for r in bug if r["exit"] == 1 and r["hit"])
    clean = sum(1 for r in ok if r["exit"] == 0 and not r["candidates"])
    wrong = sum(1 for r in ok if r["exit"] == 1) + sum(1 for r in bug if r["exit"] == 0)
    secs = [r["secs"] for r in bug if r["exit"] == 1]
    med = f"{statistics.median(secs):.1f} s" if secs else "–"
    print(f"\n{checker}: buggy {hits}/{len(bug)} localized with a hit, correct {clean}/{len(ok)} "
          f"clean, {wrong} wrong verdicts, median time on the buggy ones {med}")
rw = [r for r in results if r["checker"] == "esbmc-raw"]
found = sum(1 for r in rw if r["verdict"] in ("failure", "deadlock"))
print(f"esbmc alone on the raw file: found {found}/{len(rw)} of the bugs")

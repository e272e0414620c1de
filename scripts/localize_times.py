#!/usr/bin/env python3
"""Per buggy benchmark: first-counterexample time, localization time, their ratio
(all candidates / first counterexample), candidates, ground-truth hit and the rank of the
first ground-truth line (among distinct candidate lines), the cause lines (the candidates
the ranking marks `cause`, all of them when none is marked) and whether a ground-truth line
is among them, as a Markdown table for BENCHMARKS.md, with the ranking summary (first,
top 3, median distinct lines, median cause lines, ground truth among the cause lines).
Usage: scripts/localize_times.py [seqloc binary] [--raw FILE: every task's JSON report]"""
import json, os, statistics, subprocess, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
args = sys.argv[1:]
raw_path = None
if "--raw" in args:
    i = args.index("--raw")
    raw_path = args[i + 1]
    del args[i:i + 2]
exe = args[0] if args else os.path.join(root, "target/release/seqloc")
raw, ranks, widths, cause_widths, cause_hits = {}, [], [], [], 0
tasks = json.load(open(os.path.join(root, "benchmarks/MANIFEST.json")))["tasks"]
rows, ratios = [], []
for name, t in sorted(tasks.items()):
    if t["expected_verdict"] is not False:
        continue
    prog = os.path.join("benchmarks", name.replace(".yml", ".c"))
    prop = "deadlock" if t["property"] == "no-deadlock" else "unreach-call"
    p = subprocess.run([exe, "localize", prog, "--format", "json", "--property", prop,
                        "--max-rounds", "4", "--timeout", "120"],
                       cwd=root, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        rows.append(f"| {name} | error (exit {p.returncode}) | | | | | | | | |")
        ranks.append(None)
        continue
    tm = j.get("time_ms", {})
    first, total = tm.get("first_counterexample", 0), tm.get("total", 0)
    raw[name] = j
    lines = [c["line"] for c in j.get("candidates", [])]
    distinct = list(dict.fromkeys(lines))
    hit = any(l in t["faulty_lines"] for l in lines)
    rank = next((i + 1 for i, l in enumerate(distinct) if l in t["faulty_lines"]), None)
    ranks.append(rank)
    widths.append(len(distinct))
    marked = [c["line"] for c in j.get("candidates", []) if c.get("cause")]
    causes = list(dict.fromkeys(marked)) if marked else distinct
    cause_widths.append(len(causes))
    cause_hit = any(l in t["faulty_lines"] for l in causes)
    cause_hits += cause_hit
    ratio = total / first if first else float("nan")
    if first:
        ratios.append(ratio)
    kinds = {}
    for c in j.get("candidates", []):
        kinds[c.get("kind", "value")] = kinds.get(c.get("kind", "value"), 0) + 1
    kind_s = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    rows.append(f"| {name} | {t['faulty_lines']} | {lines[:8]} ({kind_s}) | {'yes' if hit else 'no'} "
                f"| {rank or '-'} | {len(causes)}{'' if cause_hit else ' (miss)'} | {j.get('checker_runs', '')} | {first/1000:.2f} | {total/1000:.2f} | {ratio:.2f} |")
print("| task | faulty lines | candidates (kinds) | hit | rank | cause lines | checker runs | first cex s | total s | total / first |")
print("|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
if ratios:
    print(f"\nMedian total / first-counterexample ratio: {statistics.median(ratios):.2f} over {len(ratios)} tasks")
if ranks:
    n = len(ranks)
    first = sum(1 for r in ranks if r == 1)
    top3 = sum(1 for r in ranks if r is not None and r <= 3)
    print(f"Rank of the first ground-truth line: first on {first}/{n} ({100*first/n:.0f}%), "
          f"top 3 on {top3}/{n} ({100*top3/n:.0f}%), "
          f"median {statistics.median(widths) if widths else 0} distinct candidate lines; "
          f"median {statistics.median(cause_widths) if cause_widths else 0} cause lines, "
          f"a ground-truth line among them on {cause_hits}/{n} ({100*cause_hits/n:.0f}%)")
if raw_path:
    json.dump(raw, open(raw_path, "w"), indent=1)

#!/usr/bin/env python3
"""Per buggy benchmark: first-counterexample time, localization time, their ratio
(all candidates / first counterexample), candidates and ground-truth hit, as a Markdown
table for BENCHMARKS.md. Usage: scripts/localize_times.py [seqloc binary]"""
import json, os, statistics, subprocess, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target/release/seqloc")
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
        rows.append(f"| {name} | error (exit {p.returncode}) | | | | | |")
        continue
    tm = j.get("time_ms", {})
    first, total = tm.get("first_counterexample", 0), tm.get("total", 0)
    lines = [c["line"] for c in j.get("candidates", [])]
    hit = any(l in t["faulty_lines"] for l in lines)
    ratio = total / first if first else float("nan")
    if first:
        ratios.append(ratio)
    kinds = {}
    for c in j.get("candidates", []):
        kinds[c.get("kind", "value")] = kinds.get(c.get("kind", "value"), 0) + 1
    kind_s = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    rows.append(f"| {name} | {t['faulty_lines']} | {lines[:8]} ({kind_s}) | {'yes' if hit else 'no'} "
                f"| {j.get('checker_runs', '')} | {first/1000:.2f} | {total/1000:.2f} | {ratio:.2f} |")
print("| task | faulty lines | candidates (kinds) | hit | checker runs | first cex s | total s | total / first |")
print("|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
if ratios:
    print(f"\nMedian total / first-counterexample ratio: {statistics.median(ratios):.2f} over {len(ratios)} tasks")

#!/usr/bin/env python3
"""How much the ranking depends on the counterexample Z3 happens to return: every buggy
benchmark localized once per Z3 seed (`SEQLOC_Z3_SEED`, which makes the solver return
other, equally short counterexamples), and the rank of the first ground-truth line among
the distinct candidate lines compared across the seeds.
Usage: scripts/rank_stability.py [seqloc binary] [--seeds 0,1,2,3] [--jobs N] [--raw FILE]"""
import json, os, statistics, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
args = sys.argv[1:]


def opt(name, default):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return v
    return default


seeds = [int(s) for s in opt("--seeds", "0,1,2,3").split(",")]
jobs = int(opt("--jobs", "1"))
raw_path = opt("--raw", None)
exe = args[0] if args else os.path.join(root, "target/release/seqloc")
tasks = json.load(open(os.path.join(root, "benchmarks/MANIFEST.json")))["tasks"]
buggy = [(n, t) for n, t in sorted(tasks.items()) if t["expected_verdict"] is False]


def run(item):
    (name, t), seed = item
    prog = os.path.join("benchmarks", name.replace(".yml", ".c"))
    prop = "deadlock" if t["property"] == "no-deadlock" else "unreach-call"
    env = dict(os.environ, SEQLOC_Z3_SEED=str(seed))
    p = subprocess.run([exe, "localize", prog, "--format", "json", "--property", prop,
                        "--max-rounds", "4", "--timeout", "120"],
                       cwd=root, capture_output=True, text=True, env=env)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return name, seed, None, None
    lines = list(dict.fromkeys(c["line"] for c in j.get("candidates", [])))
    rank = next((i + 1 for i, l in enumerate(lines) if l in t["faulty_lines"]), None)
    return name, seed, rank, lines


items = [(b, s) for b in buggy for s in seeds]
with ThreadPoolExecutor(max_workers=jobs) as ex:
    results = list(ex.map(run, items))
by = {}
for name, seed, rank, lines in results:
    by.setdefault(name, {})[seed] = (rank, lines)
if raw_path:
    json.dump(by, open(raw_path, "w"), indent=1)
print("| task | rank per seed | same ranking | first line per seed |")
print("|---|---|---|---|")
same_rank = same_list = first_all = top3_all = 0
first_any = 0
for name, _ in buggy:
    per = [by[name].get(s, (None, None)) for s in seeds]
    ranks = [r for r, _ in per]
    lists = [tuple(l) if l is not None else None for _, l in per]
    sr = len(set(ranks)) == 1
    sl = len(set(lists)) == 1
    same_rank += sr
    same_list += sl
    first_all += all(r == 1 for r in ranks)
    first_any += any(r == 1 for r in ranks)
    top3_all += all(r is not None and r <= 3 for r in ranks)
    heads = [l[0] if l else None for _, l in per]
    if not sl:
        print(f"| {name} | {ranks} | {'rank' if sr else 'no'} | {heads} |")
n = len(buggy)
print()
print(f"{n} buggy tasks, seeds {seeds}: the same candidate list under every seed on {same_list}, "
      f"the same rank of the first true line on {same_rank}; first under every seed on {first_all} "
      f"(under some seed on {first_any}), in the top 3 under every seed on {top3_all}")

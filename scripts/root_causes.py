#!/usr/bin/env python3
"""Per buggy benchmark: the minimal root causes `seqloc localize` reports (issue "why it
fails", item 2): how many, the size of the smallest against the failing run's
inter-thread orderings, whether each was verified, whether one of them names a
ground-truth line, and the root-cause time against the localization's. Markdown for
BENCHMARKS.md, with a summary.
Usage: scripts/root_causes.py [seqloc binary] [--raw FILE] [--jobs N]"""
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
raw_path = opt("--raw", None)
compare = "--compare" in args
if compare:
    args.remove("--compare")
jobs = int(opt("--jobs", "1"))
exe = args[0] if args else os.path.join(root, "target/release/seqloc")
tasks = json.load(open(os.path.join(root, "benchmarks/MANIFEST.json")))["tasks"]
todo = [(n, t) for n, t in sorted(tasks.items()) if t["expected_verdict"] is False]

def run(item):
    name, t = item
    prog = os.path.join("benchmarks", name.replace(".yml", ".c"))
    prop = "deadlock" if t["property"] == "no-deadlock" else "unreach-call"
    p = subprocess.run([exe, "localize", prog, "--format", "json", "--property", prop,
                        "--max-rounds", "4", "--timeout", "120", "-v"],
                       cwd=root, capture_output=True, text=True)
    note = next((l.split("root causes: ", 1)[1] for l in p.stderr.splitlines()
                 if "root causes: " in l), "")
    base = None
    if compare:
        # The same localization without root causes: what they add to its time.
        q = subprocess.run([exe, "localize", prog, "--format", "json", "--property", prop,
                            "--max-rounds", "4", "--timeout", "120", "--root-causes", "0"],
                           cwd=root, capture_output=True, text=True)
        try:
            tm = json.loads(q.stdout).get("time_ms", {})
            base = (tm.get("localization"), tm.get("total"))
        except ValueError:
            base = None
    try:
        return name, t, json.loads(p.stdout), note, base
    except ValueError:
        return name, t, None, note, base

with ThreadPoolExecutor(max_workers=jobs) as ex:
    results = list(ex.map(run, todo))
raw, rows = {}, []
shares, found, verified, hits, cost_ratio, times = [], 0, 0, 0, [], []
proj, replays = [], 0
added, added_total = [], []
for name, t, j, note, base in results:
    if j is not None and base and base[0] and base[1]:
        extra = j.get("time_ms", {}).get("localization", 0) - base[0]
        added.append(extra / base[0])
        added_total.append(extra / base[1])
    if j is None:
        rows.append(f"| {name} | error | | | | | | | |")
        continue
    raw[name] = j
    rc = j.get("root_causes")
    # The localization's time includes the root causes' own: compare with the rest.
    loc = j.get("time_ms", {}).get("localization", 0) - (rc or {}).get("time_ms", 0)
    if not rc:
        why = note.split("(", 1)[1].rstrip(")") if "not computed" in note else note
        rows.append(f"| {name} | — | | | | | | | {why} |")
        continue
    causes = rc["causes"]
    times.append(rc["time_ms"])
    cl = rc.get("closest")
    if cl:
        proj.append(len(cl["flipped"]) / max(1, rc["orderings"]))
        replays += bool(cl["replays"])
    closest = f"{len(cl['flipped'])}{' replays' if cl['replays'] else ''}" if cl else "—"
    if loc:
        cost_ratio.append(rc["time_ms"] / loc)
    if rc["order_independent"]:
        rows.append(f"| {name} | order-independent | | {rc['orderings']} | | | {closest} | {rc['time_ms']} / {loc} | |")
        continue
    if not causes:
        rows.append(f"| {name} | 0 | | {rc['orderings']} | | | {closest} | {rc['time_ms']} / {loc} | {rc.get('stopped') or ''} |")
        continue
    found += 1
    smallest = min(len(c["orderings"]) for c in causes)
    share = smallest / max(1, rc["orderings"])
    shares.append(share)
    ok = all(c["verified"] is True for c in causes)
    unknown = any(c["verified"] is None for c in causes)
    verified += ok
    lines = {a["line"] for c in causes for o in c["orderings"] for a in (o["before"], o["after"])}
    hit = bool(lines & set(t["faulty_lines"]))
    hits += hit
    rows.append(f"| {name} | {len(causes)}{'' if rc['complete'] else '+'} | {smallest} | {rc['orderings']} | {share:.0%} | {'yes' if ok else ('not re-checked (time)' if unknown else 'NO')} | {closest} | {rc['time_ms']} / {loc} | {'hit' if hit else 'miss'} |")
print("| task | root causes | smallest | orderings | share | verified | closest passing run (orderings changed) | ms (causes / rest of the localization) | ground truth |")
print("|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
n = len(results)
print()
print(f"{found} of {n} buggy tasks with a root cause; {verified} all verified; "
      f"{hits} name a ground-truth line; median share of orderings "
      f"{statistics.median(shares):.0%}" if shares else "no root causes")
if proj:
    print(f"closest passing run on {len(proj)} tasks ({replays} replay by themselves); median "
          f"share of orderings changed {statistics.median(proj):.0%}")
if cost_ratio:
    print(f"median root-cause time {statistics.median(times)} ms; median ratio to the "
          f"localization {statistics.median(cost_ratio):.2f}")
if added:
    print(f"with --compare: root causes add a median {statistics.median(added):.0%} to the "
          f"localization's wall time ({len(added)} tasks; they run beside the candidate loop), "
          f"a median {statistics.median(added_total):.0%} to the whole run's (first counterexample "
          f"included)")
if raw_path:
    json.dump(raw, open(raw_path, "w"), indent=1)

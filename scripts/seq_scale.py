#!/usr/bin/env python3
"""Sequentializer scale (BENCHMARKS.md): writes a 1,000-statement pthread program and a
100-switch schedule into target/seq-scale/, then times `seqloc sequentialize` on them.
Usage: scripts/seq_scale.py [seqloc binary] [runs]"""
import json, os, statistics, subprocess, sys, time

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target/release/seqloc")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
out = os.path.join(root, "target", "seq-scale")
os.makedirs(out, exist_ok=True)

# Two worker functions of 480 statements each (every statement reads or writes shared
# memory, so every one is a possible switch point) plus main: 1,000 statements in all.
PER_WORKER = 495
lines = ["#include <pthread.h>", "#include <assert.h>", "int g[8];", "int total;", ""]
stmt_lines = {}
for w in (1, 2):
    lines.append(f"void *worker{w}(void *arg)")
    lines.append("{")
    lines.append("  int acc = 0;")
    stmt_lines[w] = []
    for i in range(PER_WORKER):
        if i % 2 == 0:
            lines.append(f"  acc = acc + g[{(i + w) % 8}];")
        else:
            lines.append(f"  g[{i % 8}] = acc + {i};")
        stmt_lines[w].append(len(lines))
    lines.append("  total = total + acc;")
    lines.append("  return 0;")
    lines.append("}")
    lines.append("")
lines += [
    "int main(void)",
    "{",
    "  pthread_t a, b;",
    "  pthread_create(&a, 0, worker1, 0);",
    "  pthread_create(&b, 0, worker2, 0);",
]
join_line = len(lines) + 1
lines += [
    "  pthread_join(a, 0);",
    "  pthread_join(b, 0);",
    "  assert(total != 12345);",
    "  return 0;",
    "}",
]
prog = os.path.join(out, "scale.c")
open(prog, "w").write("\n".join(lines) + "\n")

# 100 switches: main, then the workers alternate every few statements.
blocks = [{"thread": 0, "until": {"before": f"scale.c:{join_line}", "occurrence": 1}}]
step = PER_WORKER // 50
for k in range(1, 50):
    for w in (1, 2):
        blocks.append({"thread": w, "until": {"before": f"scale.c:{stmt_lines[w][k * step]}", "occurrence": 1}})
blocks += [{"thread": 1, "until": "end"}, {"thread": 2, "until": "end"}, {"thread": 0, "until": "end"}]
sched = {
    "schema": "seqloc.schedule/1",
    "threads": [{"id": 0, "function": "main"}, {"id": 1, "function": "worker1"},
                {"id": 2, "function": "worker2"}],
    "blocks": blocks,
}
sfile = os.path.join(out, "scale.json")
json.dump(sched, open(sfile, "w"), indent=1)

def timed(extra):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run([exe, "sequentialize", prog, "--schedule", sfile, "-o",
                            os.path.join(out, "scale.seq.c")] + extra,
                           capture_output=True, text=True)
        times.append((time.perf_counter() - t) * 1000)
        if p.returncode != 0:
            sys.exit(f"sequentialize failed (exit {p.returncode}):\n{p.stderr}")
    return times


statements = sum(1 for l in lines if l.strip().endswith(";"))
for label, extra in [("sequentialize --no-validate", ["--no-validate"]),
                     ("sequentialize (replay validated by the built-in checker)", [])]:
    times = timed(extra)
    print(f"{label}: {statements} statements, {len(blocks) - 1} context switches: "
          f"median {statistics.median(times):.0f} ms, min {min(times):.0f} ms over {runs} runs "
          f"(whole process: preprocess, parse, lower, sequentialize, print)")

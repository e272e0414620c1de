#!/usr/bin/env python3
"""Injects faults into correct concurrent programs and measures how `seqloc localize`
ranks the injected line: a measurement on programs the ranking was not written for.

Each correct program (a file that `seqloc check` answers without a failure) gives mutants,
one fault each, by operators of the concurrency mutation literature (ConMAn's "remove
synchronized block", "shift critical region", "exchange synchronized block parameters",
"replace while with if around a wait", "modify synchronization primitive": a broadcast made
a signal, a lock a trylock, a write lock a read lock) and the classic ones (relational operator,
arithmetic operator, constant off by one — in a function, or in a global's start value at
file scope, `global_const`). A deleted line is replaced by an empty one,
so the line numbers of the mutant are the original's. The ground truth of a mutant is the
line it changed; for a removed lock or atomic section, the statements it protected (the
fault is their unprotected access); for a shifted unlock, the unlock and the statement it
left outside. The assertion and `reach_error` lines are never mutated: they are the
specification, not the program.

A mutant that still has no failure within seqloc's bounds (an equivalent mutant, or a
fault the bounds do not reach) is counted, not ranked. For each failing mutant the rank
of the first ground-truth line among the distinct candidate lines, and whether one is
among the cause lines (the candidates marked `cause`; all of them when none is marked).

Usage: scripts/inject_faults.py [FILES or DIRS...] [--exe PATH] [--timeout SECS]
          [--jobs N] [--per-operator N] [--seed N] [--json FILE] [--ops a,b,...]
With no paths: the repository's `benchmarks/correct`.
"""
import argparse, concurrent.futures, json, os, random, re, statistics, subprocess, sys, tempfile

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ap = argparse.ArgumentParser()
ap.add_argument("paths", nargs="*")
ap.add_argument("--exe", default=os.path.join(root, "target/release/seqloc"))
ap.add_argument("--timeout", type=int, default=60)
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--per-operator", type=int, default=2,
                help="at most this many mutants per operator and program (chosen by --seed)")
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--json", default="")
ap.add_argument("--ops", default="")
ap.add_argument("--keep", default="", help="write every mutant (and its ground truth) into this directory")
ap.add_argument("--list", action="store_true", help="only list the mutants, run nothing")
args = ap.parse_args()

SPEC = re.compile(r"\b(assert|reach_error|__VERIFIER_assert|__assert_fail|abort)\s*\(")
STMT = re.compile(r"^\s*[^#/*{}].*;\s*(//.*)?$")
DECL = re.compile(r"^\s*(static\s+|const\s+|volatile\s+|unsigned\s+|signed\s+)*"
                  r"(int|long|short|char|unsigned|void|struct\s+\w+|pthread_\w+_t|pthread_t|\w+_t)\b[\s*]+\w+\s*(\[|=|;|,)")
LOCK = re.compile(r"^\s*pthread_mutex_lock\s*\(\s*(&?[\w.\->\[\]]+)\s*\)\s*;\s*$")
UNLOCK = re.compile(r"^\s*pthread_mutex_unlock\s*\(\s*(&?[\w.\->\[\]]+)\s*\)\s*;\s*$")
ABEGIN = re.compile(r"^\s*__VERIFIER_atomic_begin\s*\(\s*\)\s*;\s*$")
AEND = re.compile(r"^\s*__VERIFIER_atomic_end\s*\(\s*\)\s*;\s*$")
WAIT_WHILE = re.compile(r"^(\s*)while(\s*\(.*\)\s*)(\{?)\s*$|^(\s*)while(\s*\(.*\)\s*)(pthread_cond_wait.*)$")
RELOPS = [("<=", "<"), ("<", "<="), (">=", ">"), (">", ">="), ("==", "!="), ("!=", "==")]


def code_lines(src):
    """Line indexes outside comments and preprocessor lines, inside a function body."""
    out, in_comment, depth = [], False, 0
    for i, line in enumerate(src):
        s = line
        if in_comment:
            if "*/" not in s:
                continue
            s = s.split("*/", 1)[1]
            in_comment = False
        s = re.sub(r"/\*.*?\*/", "", s)
        if "/*" in s:
            s = s.split("/*", 1)[0]
            in_comment = True
        s = s.split("//", 1)[0]
        if s.strip().startswith("#"):
            continue
        if depth > 0 and s.strip():
            out.append(i)
        depth += s.count("{") - s.count("}")
    return out


def strip(line):
    return re.sub(r"/\*.*?\*/|//.*$", "", line)


def mutants(src):
    """(operator, new source lines, ground-truth lines (1-based), description)."""
    body = code_lines(src)
    found = []
    for i in body:
        line = strip(src[i])
        if SPEC.search(line) or "pthread_" in line or "__VERIFIER" in line:
            continue
        # relational operators in conditions
        if re.search(r"\b(if|while|for)\b", line):
            for a, b in RELOPS:
                for m in re.finditer(re.escape(a), line):
                    s, e = m.start(), m.end()
                    # whole operator only (not `<` of `<=`, nor `<<`, `->`)
                    if line[s - 1:s] in "<>=!-" and s > 0 or line[e:e + 1] in "<>=":
                        continue
                    new = src[i][:s] + b + src[i][e:]
                    found.append(("relop", i, new, [i + 1], f"{a} -> {b}"))
        if not STMT.match(line) or DECL.match(line) and "=" not in line:
            continue
        # arithmetic operators in assignments
        for a, b in (("+", "-"), ("-", "+")):
            for m in re.finditer(r"(?<=[\w\])\s])\s*" + re.escape(a) + r"\s*(?=[\w(])", line):
                if "=" not in line or line[m.start():m.end()].strip() != a:
                    continue
                if m.start() < line.find("="):
                    continue
                new = src[i][:m.start()] + f" {b} " + src[i][m.end():]
                found.append(("arith", i, new, [i + 1], f"{a} -> {b}"))
        # integer constants off by one, right of an assignment or in a return
        if "=" in line or re.search(r"\breturn\b", line):
            start = line.find("=") + 1 if "=" in line else line.find("return") + 6
            for m in re.finditer(r"(?<![\w.\[])(\d+)(?![\w.\]])", line[start:]):
                v = int(m.group(1))
                s, e = start + m.start(), start + m.end()
                for nv in ([v + 1, v - 1] if v > 0 else [v + 1]):
                    new = src[i][:s] + str(nv) + src[i][e:]
                    found.append(("const", i, new, [i + 1], f"{v} -> {nv}"))
    # removed lock pairs and atomic sections; shifted unlocks
    for i in body:
        line = strip(src[i])
        for opener, closer, op in ((LOCK, UNLOCK, "drop_lock"), (ABEGIN, AEND, "drop_atomic")):
            m = opener.match(line)
            if not m:
                continue
            depth = 0
            for j in range(i + 1, min(i + 40, len(src))):
                l2 = strip(src[j])
                c = closer.match(l2)
                if c and (op == "drop_atomic" or c.group(1) == m.group(1)) and depth == 0:
                    inner = [k + 1 for k in range(i + 1, j) if k in body
                             and STMT.match(strip(src[k])) and not SPEC.search(src[k])
                             and "pthread_" not in src[k]]
                    if inner:
                        new = list(src)
                        new[i], new[j] = "\n", "\n"
                        found.append((op, None, new, inner, f"lines {i + 1} and {j + 1} removed"))
                    break
                depth += l2.count("{") - l2.count("}")
                if depth < 0 or opener.match(l2):
                    break
        u = UNLOCK.match(line)
        if u and i - 1 in body:
            prev = strip(src[i - 1])
            if (STMT.match(prev) and not SPEC.search(prev) and "pthread_" not in prev
                    and not DECL.match(prev) and not re.search(r"\b(return|break|continue|goto)\b", prev)):
                new = list(src)
                new[i - 1], new[i] = src[i], src[i - 1]
                found.append(("unlock_early", None, new, [i, i + 1],
                              f"unlock at {i + 1} moved above line {i}"))
        # a condition wait's `while` made an `if`
        if re.match(r"^\s*while\b", line) and any("pthread_cond_wait" in src[k]
                                                  for k in range(i, min(i + 3, len(src)))):
            new = list(src)
            new[i] = re.sub(r"\bwhile\b", "if", src[i], count=1)
            found.append(("while_to_if", None, new, [i + 1], "while -> if"))
    # a primitive of the wrong kind (ConMAn's "modify synchronization primitive"): a
    # broadcast made a signal, a lock a trylock whose answer nobody reads, a write lock a
    # read lock
    for i in body:
        line = strip(src[i])
        for a, b, op in (("pthread_cond_broadcast", "pthread_cond_signal", "broadcast_to_signal"),
                         ("pthread_mutex_lock", "pthread_mutex_trylock", "lock_to_trylock"),
                         ("pthread_rwlock_wrlock", "pthread_rwlock_rdlock", "wrlock_to_rdlock")):
            if re.search(r"\b" + a + r"\s*\(", line):
                found.append((op, i, re.sub(r"\b" + a + r"\b", b, src[i], count=1), [i + 1],
                              f"{a} -> {b}"))
    # a global's start value off by one (`int pending = 2;` at file scope): the count a
    # hand-made synchronization starts from, or any value the threads start from
    for i, raw in enumerate(src):
        if i in body:
            continue
        line = strip(raw)
        m = re.match(r"^\s*(static\s+|volatile\s+)*(unsigned\s+|signed\s+)?(int|long|short|char|unsigned)\s+(\w+)\s*=\s*(\d+)\s*;\s*$", line)
        if not m:
            continue
        v = int(m.group(5))
        s, e = m.start(5), m.end(5)
        for nv in ([v + 1, v - 1] if v > 0 else [v + 1]):
            found.append(("global_const", i, raw[:s] + str(nv) + raw[e:], [i + 1], f"{m.group(4)} = {v} -> {nv}"))
    # a wrong lock: one lock/unlock pair on another mutex the program has
    mutexes = sorted({m.group(1) for i in body for m in [LOCK.match(strip(src[i]))] if m})
    if len(mutexes) > 1:
        for i in body:
            m = LOCK.match(strip(src[i]))
            if not m:
                continue
            for j in range(i + 1, min(i + 40, len(src))):
                c = UNLOCK.match(strip(src[j]))
                if c and c.group(1) == m.group(1):
                    other = next(x for x in mutexes if x != m.group(1))
                    new = list(src)
                    new[i] = src[i].replace(m.group(1), other, 1)
                    new[j] = src[j].replace(m.group(1), other, 1)
                    found.append(("wrong_lock", None, new, [i + 1, j + 1],
                                  f"{m.group(1)} -> {other} at {i + 1}, {j + 1}"))
                    break
    out = []
    for op, i, new, truth, what in found:
        if i is not None:
            lines = list(src)
            lines[i] = new
            new = lines
        out.append((op, new, truth, what))
    return out


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timeout"


def compiles(path):
    rc, _, _ = run(["gcc", "-fsyntax-only", "-w", "-std=gnu11", path], 60)
    return rc == 0


def evaluate(job):
    name, op, text, truth, what = job
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, os.path.basename(name))
        with open(path, "w") as f:
            f.write(text)
        if not compiles(path):
            return dict(program=name, op=op, what=what, truth=truth, outcome="does not compile")
        rc, out, err = run([args.exe, "localize", path, "--format", "json",
                            "--timeout", str(args.timeout)], args.timeout + 60)
    row = dict(program=name, op=op, what=what, truth=truth, exit=rc)
    if rc is None:
        row["outcome"] = "timeout"
        return row
    if rc == 0:
        row["outcome"] = "no failure"
        return row
    if rc == 101 or "panicked" in err:
        row["outcome"] = "crash"
        row["stderr"] = err[-2000:]
        return row
    try:
        j = json.loads(out)
    except ValueError:
        row["outcome"] = f"error (exit {rc})"
        row["stderr"] = err[-500:]
        return row
    if rc != 1:
        row["outcome"] = f"unknown (exit {rc})"
        row["reason"] = j.get("reason")
        return row
    lines = [c["line"] for c in j.get("candidates", [])]
    distinct = list(dict.fromkeys(lines))
    marked = list(dict.fromkeys(c["line"] for c in j.get("candidates", []) if c.get("cause")))
    causes = marked or distinct
    row.update(outcome="failure", verdict=j.get("verdict"), candidates=distinct,
               rank=next((k + 1 for k, l in enumerate(distinct) if l in truth), None),
               cause_lines=causes, cause_hit=any(l in truth for l in causes),
               seconds=j.get("time_ms", {}).get("total", 0) / 1000)
    return row


def correct_programs(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".c"))
        else:
            files.append(p)
    return files


def main():
    ops = set(args.ops.split(",")) if args.ops else None
    files = correct_programs(args.paths or [os.path.join(root, "benchmarks/correct")])
    rng = random.Random(args.seed)
    jobs, skipped = [], []
    for f in files:
        rc, _, _ = run([args.exe, "check", f, "--timeout", str(args.timeout)], args.timeout + 60)
        if rc != 0:
            skipped.append((f, rc))
            continue
        src = open(f).read().splitlines(keepends=True)
        by_op = {}
        for m in mutants(src):
            if ops is None or m[0] in ops:
                by_op.setdefault(m[0], []).append(m)
        for op, ms in sorted(by_op.items()):
            for op_, new, truth, what in rng.sample(ms, min(len(ms), args.per_operator)):
                jobs.append((os.path.relpath(f, root), op_, "".join(new), truth, what))
    if args.list:
        for name, op, text, truth, what in jobs:
            print(f"{name:50s} {op:13s} {what:40s} truth {truth}")
        return
    for f, rc in skipped:
        print(f"skipped (not answered 'no failure' by check, exit {rc}): {f}", file=sys.stderr)
    print(f"{len(jobs)} mutants of {len(files) - len(skipped)} programs", file=sys.stderr)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for row in ex.map(evaluate, jobs):
            rows.append(row)
            rank = row.get("rank", "")
            print(f"{row['program']:50s} {row['op']:13s} {row['what'][:28]:28s} "
                  f"{row['outcome']:16s} truth {row['truth'][:4]} rank {rank} "
                  f"{row.get('candidates', '')}", flush=True)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for k, (name, op, text, truth, what) in enumerate(jobs):
            base = os.path.join(args.keep, f"{os.path.splitext(os.path.basename(name))[0]}.{op}.{k}")
            with open(base + ".c", "w") as f:
                f.write(text)
            with open(base + ".json", "w") as f:
                json.dump(dict(program=name, operator=op, change=what, faulty_lines=truth), f)
    failing = [r for r in rows if r["outcome"] == "failure"]
    summary = {}
    for group, rs in [("all", failing)] + sorted(
            {r["op"]: [x for x in failing if x["op"] == r["op"]] for r in failing}.items()):
        n = len(rs)
        if not n:
            continue
        first = sum(1 for r in rs if r["rank"] == 1)
        top3 = sum(1 for r in rs if r["rank"] and r["rank"] <= 3)
        hit = sum(1 for r in rs if r["rank"])
        summary[group] = dict(failing=n, first=first, top3=top3, hit=hit,
                              median_lines=statistics.median(len(r["candidates"]) for r in rs),
                              median_cause_lines=statistics.median(len(r["cause_lines"]) for r in rs),
                              cause_hit=sum(1 for r in rs if r["cause_hit"]))
    outcomes = {}
    for r in rows:
        outcomes[r["outcome"]] = outcomes.get(r["outcome"], 0) + 1
    print("\noutcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print("| operator | failing mutants | first | top 3 | hit | median lines | median cause lines | truth among causes |")
    print("|---|---|---|---|---|---|---|---|")
    for g, s in summary.items():
        n = s["failing"]
        print(f"| {g} | {n} | {s['first']} ({100 * s['first'] / n:.0f} %) | {s['top3']} ({100 * s['top3'] / n:.0f} %) "
              f"| {s['hit']} | {s['median_lines']} | {s['median_cause_lines']} | {s['cause_hit']} |")
    if args.json:
        json.dump(dict(rows=rows, summary=summary, outcomes=outcomes), open(args.json, "w"), indent=1)


main()

#!/usr/bin/env python3
"""`seqloc repair` on every buggy benchmark with a fixed version: whether a verified repair
is found, what it is, how far the re-check reaches, its time, and how it compares with the
human fix (the lines the fixed version changes around): a Markdown table for BENCHMARKS.md.
Each patch is also applied to a copy of the original with `patch -p1` and compiled with
`gcc -Wall -Werror` when the original compiles so.
Usage: scripts/repair_table.py [seqloc binary] [--jobs N] [--timeout SECS] [--raw FILE] [TASK...]"""
import concurrent.futures, difflib, json, os, re, shutil, statistics, subprocess, sys, tempfile

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
args = sys.argv[1:]


def opt(name, default):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return v
    return default


jobs = int(opt("--jobs", "2"))
limit = opt("--timeout", "300")
raw_path = opt("--raw", None)
exe = args.pop(0) if args and not args[0].endswith(".yml") else os.path.join(root, "target/release/seqloc")
only = set(args)
tasks = json.load(open(os.path.join(root, "benchmarks/MANIFEST.json")))["tasks"]


def strip_header(text):
    """The program without its leading comment (the fixed versions rewrite it)."""
    return re.sub(r"^/\*.*?\*/\n", "", text, count=1, flags=re.S)


def human_fix(bad, ok):
    """The lines of the buggy program that the fixed version changes or inserts next to."""
    a = strip_header(open(bad).read()).splitlines()
    b = strip_header(open(ok).read()).splitlines()
    offset = len(open(bad).read().splitlines()) - len(a)
    lines = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i1 == i2:
            lines.update({i1 + offset, i1 + offset + 1})
        else:
            lines.update(range(i1 + offset + 1, i2 + offset + 1))
    return lines


def fix_sentence(ok):
    """The fixed version's own account of the fix (its `Fix:` line)."""
    m = re.search(r"\* Fix: (.*?)(?:\n \*\s*\n|\*/)", open(ok).read(), re.S)
    return re.sub(r"\s*\n\s*\*\s*", " ", m.group(1)).strip() if m else ""


def patched_lines(patch):
    """Lines of the original that a unified diff changes or inserts next to."""
    lines, old = set(), 0
    for l in patch.splitlines():
        m = re.match(r"@@ -(\d+)", l)
        if m:
            old = int(m.group(1))
            continue
        if l.startswith("---") or l.startswith("+++"):
            continue
        if l.startswith("-"):
            lines.add(old)
            old += 1
        elif l.startswith("+"):
            lines.update({old - 1, old})
        else:
            old += 1
    return lines


def compiles(path):
    return subprocess.run(["gcc", "-Wall", "-Werror", "-pthread", "-c", "-o", os.devnull, path],
                          capture_output=True).returncode == 0


def one(name):
    t = tasks[name]
    prog = os.path.join("benchmarks", name.replace(".yml", ".c"))
    ok = os.path.join(root, "benchmarks", t["fixed_version"].replace(".yml", ".c"))
    prop = "deadlock" if t["property"] == "no-deadlock" else "unreach-call"
    p = subprocess.run([exe, "repair", prog, "--format", "json", "--property", prop,
                        "--max-rounds", "4", "--timeout", limit],
                       cwd=root, capture_output=True, text=True)
    try:
        j = json.loads(p.stdout)
    except ValueError:
        return name, None, f"| {name} | {t['class']} | error (exit {p.returncode}) | | | | | | |"
    total = j["localize"].get("time_ms", {}).get("total", 0)
    reps = j.get("repairs", [])
    if not reps:
        why = "time ran out" if not j.get("complete", True) else f"none of {j.get('checked')} verified"
        return name, j, f"| {name} | {t['class']} | **no** ({why}) | | | | {fix_sentence(ok)} | | |"
    r = reps[0]
    human = human_fix(os.path.join(root, prog), ok)
    ours = patched_lines(r["patch"])
    near = any(abs(a - b) <= 1 for a in ours for b in human)
    # The patch applies and compiles.
    d = tempfile.mkdtemp()
    try:
        dst = os.path.join(d, prog)
        os.makedirs(os.path.dirname(dst))
        shutil.copy(os.path.join(root, prog), dst)
        ap = subprocess.run(["patch", "-p1", "--quiet"], input=r["patch"], cwd=d,
                            capture_output=True, text=True)
        applies = ap.returncode == 0
        gcc = "n/a" if not compiles(os.path.join(root, prog)) else ("yes" if applies and compiles(dst) else "NO")
    finally:
        shutil.rmtree(d)
    reach = "all executions" if r["verified"]["exhaustive"] else r["verified"]["reach"].replace("no failure or deadlock ", "")
    summary = r["summary"].replace("|", "\\|")
    return name, j, (f"| {name} | {t['class']} | {r['kind']}: {summary} | {reach} | {r['lines_changed']} "
                     f"| {'yes' if near else 'no'} | {fix_sentence(ok)} | {'yes' if applies else 'NO'} / {gcc} | {total/1000:.1f} + {sum(x['verified']['ms'] for x in reps)/1000:.1f} s ({j['checked']} checked) |")


names = [n for n, t in sorted(tasks.items())
         if t["expected_verdict"] is False and t.get("fixed_version") and (not only or n in only)]
with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
    results = list(ex.map(one, names))
print("| task | class | first verified repair | verified for | lines changed | next to the human fix | the human fix | applies / gcc -Werror | time (localize + re-checks) |")
print("|---|---|---|---|---|---|---|---|---|")
for _, _, row in results:
    print(row)
found = sum(1 for _, j, _ in results if j and j.get("repairs"))
print(f"\nVerified repair for {found}/{len(results)} ({100*found/max(1,len(results)):.0f}%)")
if raw_path:
    json.dump({n: j for n, j, _ in results}, open(raw_path, "w"), indent=1)

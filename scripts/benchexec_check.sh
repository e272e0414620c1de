#!/bin/sh
# Checks contrib/benchexec/seqloc.py with BenchExec itself: creates a virtual environment
# with benchexec 3.x from PyPI (target/benchexec-venv, reused), runs
# `python -m benchexec.test_tool_info` on real tasks, and checks determine_result() on
# the real outputs of seqloc on a failing, a deadlocking, a correct and a broken program.
# Exit 0: passed; 1: a check failed; 77: skipped (no python3 venv, or no network for pip).
# Run by tests/benchexec.rs; needs target/release/seqloc (cargo build --release).
set -eu
cd "$(dirname "$0")/.."
VENV=target/benchexec-venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import benchexec" 2>/dev/null; then
  python3 -m venv "$VENV" >/dev/null 2>&1 || { echo "NOTICE: skipped: python3 -m venv is not available"; exit 77; }
  "$VENV/bin/pip" install -q "benchexec>=3,<4" >/dev/null 2>&1 \
    || { echo "NOTICE: skipped: cannot install benchexec from PyPI (no network?)"; exit 77; }
fi
PY="$VENV/bin/python"
echo "benchexec $("$PY" -c 'import benchexec; print(benchexec.__version__)')"
# The container needs a writable overlay; where that is impossible, run without it.
CONTAINER="--read-only-dir / --overlay-dir /home"
PYTHONPATH=. "$PY" -m benchexec.test_tool_info contrib.benchexec.seqloc --tool-directory . \
  $CONTAINER \
  --task-definition benchmarks/concbugs/lazy_init_twice.yml benchmarks/deadlock/lock_order_two.yml \
  benchmarks/correct/token_ring_ok.yml > target/benchexec-tool-info.txt 2>&1 \
  || PYTHONPATH=. "$PY" -m benchexec.test_tool_info contrib.benchexec.seqloc --tool-directory . \
  --no-container \
  --task-definition benchmarks/concbugs/lazy_init_twice.yml benchmarks/deadlock/lock_order_two.yml \
  benchmarks/correct/token_ring_ok.yml > target/benchexec-tool-info.txt 2>&1
cat target/benchexec-tool-info.txt
grep -q "Version: “0.1" target/benchexec-tool-info.txt
grep -q "'--property', 'deadlock'" target/benchexec-tool-info.txt
grep -q "'--property', 'unreach-call', '--data-model', 'lp64'" target/benchexec-tool-info.txt
# determine_result() on real outputs, run as the module's cmdline() says.
PYTHONPATH=. "$PY" - <<'PY'
import subprocess, sys
import benchexec.result as result
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode
from contrib.benchexec import seqloc

tool = seqloc.Tool()
exe = "target/release/seqloc"
cases = [
    ("benchmarks/concbugs/lazy_init_twice.c", "properties/unreach-call.prp", result.RESULT_FALSE_REACH),
    ("benchmarks/deadlock/lock_order_two.c", "properties/no-deadlock.prp", result.RESULT_FALSE_DEADLOCK),
    ("benchmarks/correct/token_ring_ok.c", "properties/unreach-call.prp", result.RESULT_TRUE_PROP),
    ("examples/explore.rs", "properties/unreach-call.prp", "ERROR (bad input)"),
]
bad = 0
for prog, prp, want in cases:
    task = BaseTool2.Task.with_files([prog], property_file="benchmarks/" + prp, options={"data_model": "LP64"})
    limits = BaseTool2.ResourceLimits(cputime=60)
    cmd = tool.cmdline(exe, [], task, limits)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = p.stdout.splitlines()
    from benchexec.tools.template import BaseTool2 as B
    run = B.Run(cmd, ProcessExitCode.create(value=p.returncode), lines, None)
    got = tool.determine_result(run)
    ok = got == want
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} {prog}: exit {p.returncode} -> {got} (expected {want})")
# seqloc's --timeout (wall time) from BenchExec's CPU-time limit and the run's cores: its
# search runs on two threads.
for cores, walltime, want in ((None, None, "27"), (1, None, "54"), (2, None, "27"), (8, None, "27"), (1, 40, "38")):
    task = BaseTool2.Task.with_files(["benchmarks/concbugs/lazy_init_twice.c"], property_file="benchmarks/properties/unreach-call.prp", options={"data_model": "LP64"})
    cmd = tool.cmdline(exe, [], task, BaseTool2.ResourceLimits(cputime=60, walltime=walltime, cpu_cores=cores))
    got = cmd[cmd.index("--timeout") + 1]
    ok = got == want
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} 60 s CPU, {cores} cores, wall limit {walltime}: --timeout {got} (expected {want})")
sys.exit(1 if bad else 0)
PY
echo "benchexec tool-info checks passed"

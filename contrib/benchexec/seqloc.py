# BenchExec tool-info module for seqloc: fault localization for multi-threaded pthread C
# programs with bounded model checking. BenchExec: https://github.com/sosy-lab/benchexec
#
# Use it by its module name with the repository root on PYTHONPATH:
#   PYTHONPATH=. benchexec benchmarks/benchexec.xml      (tool="contrib.benchexec.seqloc")
#   PYTHONPATH=. python -m benchexec.test_tool_info contrib.benchexec.seqloc --tool-directory .
#
# What it runs: `seqloc check TASK --property P --data-model M --format json` (plus the
# options of the benchmark definition), and it reads the answer from seqloc's exit code
# (src/exit.rs, README "Exit codes") and the `seqloc.check/1` JSON on stdout.

import re

import benchexec.result as result
import benchexec.tools.template

# SV-COMP property file name -> seqloc's --property.
_PROPERTIES = {
    "unreach-call.prp": "unreach-call",
    "no-deadlock.prp": "deadlock",
}

# seqloc's exit codes (src/exit.rs).
_NO_FAILURE = 0
_FAILURE_FOUND = 1
_BAD_INPUT = 2
_NO_ANSWER = 3

_VERDICT = re.compile(r'^\s*"verdict":\s*"([a-z-]+)"')
_LIMIT = re.compile(r'^\s*"limit":\s*"([a-z]+)"')
_ERROR = re.compile(r'^\s*"error":\s*"(.*)",?\s*$')


class Tool(benchexec.tools.template.BaseTool2):
    """
    seqloc finds a failing interleaving of a pthread C program with a bounded model
    checker (its own on Z3, with an explicit-state explorer beside it, or ESBMC/CBMC)
    and localizes the faulty lines along it. Under BenchExec it answers the verification
    question (`seqloc check`): `true` is "no failure" (a proof when the JSON says
    `"exhaustive": true`, otherwise within the reported bounds), `false(unreach-call)` or
    `false(no-deadlock)` a failure found; with `--witness witness.graphml` it also
    writes a GraphML violation witness.
    """

    def executable(self, tool_locator):
        return tool_locator.find_executable("seqloc", subdir="target/release")

    def name(self):
        return "seqloc"

    def version(self, executable):
        # `seqloc -V` prints "seqloc 0.1.0 (Z3 4.8.12)".
        line = self._version_from_tool(executable, arg="-V").strip()
        return line.split(" ", 1)[1] if line.startswith("seqloc ") else line

    def program_files(self, executable):
        # One binary (linked against the system's libz3).
        return [executable]

    def cmdline(self, executable, options, task, rlimits):
        prop = task.property_file
        if prop is None:
            prop_arg = "all"
        else:
            base = prop.replace("\\", "/").rsplit("/", 1)[-1]
            prop_arg = _PROPERTIES.get(base)
            if prop_arg is None:
                raise benchexec.tools.template.UnsupportedFeatureException(
                    f"seqloc checks unreach-call and no-deadlock, not {base}"
                )
        cmd = [executable, "check", task.single_input_file, "--property", prop_arg]
        data_model = (task.options or {}).get("data_model")
        if data_model in ("ILP32", "LP64") and "--data-model" not in options:
            cmd += ["--data-model", data_model.lower()]
        if "--format" not in options and "--json" not in options:
            cmd += ["--format", "json"]
        # seqloc's own limit (wall time) ends the run with a clean answer ("limit":
        # "time") before BenchExec's kill (CPU time). Its search runs on two threads: with
        # two cores or more CPU time runs up to twice as fast as wall time; on one core
        # they share it, and half the limit would stop seqloc at half its CPU time.
        if rlimits.cputime and "--timeout" not in options:
            threads = min(2, rlimits.cpu_cores or 2)
            secs = rlimits.cputime / threads * 0.9
            if rlimits.walltime:
                secs = min(secs, rlimits.walltime * 0.95)
            cmd += ["--timeout", str(max(1, int(secs)))]
        return cmd + list(options)

    def determine_result(self, run):
        verdict = limit = error = None
        for line in run.output:
            m = _VERDICT.match(line)
            if m and verdict is None:
                verdict = m.group(1)
            m = _LIMIT.match(line)
            if m:
                limit = m.group(1)
            m = _ERROR.match(line)
            if m and error is None:
                error = m.group(1)
        if run.exit_code.signal is not None:
            return f"ERROR (signal {run.exit_code.signal})"
        code = run.exit_code.value
        if code == _NO_FAILURE and verdict in (None, "no-failure-within-bounds"):
            return result.RESULT_TRUE_PROP
        if code == _FAILURE_FOUND:
            if verdict == "deadlock":
                return result.RESULT_FALSE_DEADLOCK
            if verdict == "failure":
                return result.RESULT_FALSE_REACH
            return "ERROR (no verdict in the output)"
        if code == _NO_ANSWER:
            if limit == "time":
                return result.RESULT_TIMEOUT
            if limit == "memory":
                return "OUT OF MEMORY"
            return result.RESULT_UNKNOWN
        if code == _BAD_INPUT:
            return "ERROR (bad input)"
        return f"ERROR (exit code {code})"

    def get_value_from_output(self, output, identifier):
        # A top-level number or string of the JSON, e.g. "context_switches".
        pat = re.compile(r'^\s*"' + re.escape(identifier) + r'":\s*([^,\[{]+),?\s*$')
        for line in output:
            m = pat.match(line)
            if m:
                return m.group(1).strip().strip('"')
        return None

#!/bin/sh
# Re-records the real checkers' outputs the adapter tests read (tests/recordings/): seqloc's
# printed program for each benchmark below and what ESBMC 8.4 and CBMC 6.6 answer on it.
# Run after `make checkers` when the printer or a checker version changes; the tests say so
# when the printed program no longer matches its recording.
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="$root/.checkers/bin:$PATH"
exe="$root/target/release/seqloc"
out="$root/tests/recordings"
record() { # TOOL BENCHMARK
  tool="$1"
  name="$(basename "$2")"
  # From the repository, with a relative path: the printed program's location comments
  # then name the file as the tests do, wherever the clone is.
  keep="$(cd "$root" && "$exe" check "benchmarks/$2.c" --checker "$tool" --property unreach-call \
    --keep-temps 2>&1 >/dev/null | sed -n 's/.*keeping temporary files in //p')"
  run="$(ls "$keep"/cex-*.stderr | sort -V | tail -n 1)"
  run="${run%.stderr}"
  mkdir -p "$out/$tool"
  cp "$keep/$name.seqloc.c" "$out/$tool/$name.seqloc.c"
  cp "$run.stdout" "$out/$tool/$name.stdout"
  cp "$run.stderr" "$out/$tool/$name.stderr"
  "$tool" --version | head -n 1 > "$out/$tool/$name.version"
  rm -rf "$keep"
  echo "recorded $tool on $2 ($(basename "$run"))"
}
record esbmc concbugs/transfer_two_locks
record esbmc concbugs/histogram_lost_update
record cbmc concbugs/histogram_lost_update
record cbmc concbugs/transfer_two_locks

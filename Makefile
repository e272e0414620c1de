# seqloc: the two entry points a newcomer needs, plus the benchmark sweep.
CARGO ?= cargo
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: demo setup build test lint bench bench-svcomp

# Install the system packages, build, and localize the fault of an example program.
# Exit status 1 is seqloc's "failure found and localized": the expected outcome here.
demo: setup build
	./target/release/seqloc localize examples/lost_update.c; test $$? -eq 1

setup:
	./scripts/setup.sh

build:
	$(CARGO) build --release --locked

# Everything CI runs: formatting, lints, unit and integration tests (release build: the
# integration tests run the model checker on real programs).
test: setup build
	$(CARGO) fmt --check
	$(CARGO) clippy --release --locked --all-targets -- -D warnings
	$(CARGO) test --release --locked

# The benchmark table of BENCHMARKS.md (--exit-zero: a wrong task is a row of the table,
# not a reason to skip the timings).
bench: build
	./target/release/seqloc sweep benchmarks --mode localize --timeout 120 -j 2 --exit-zero \
	  --task-arg=--max-rounds --task-arg=4 --json target/bench.json --csv target/bench.csv
	./scripts/localize_times.py

# One task at a time: `check` runs two threads (bounded search and explorer) on 2 cores.
bench-svcomp: build
	./target/release/seqloc sweep ../shared/svcomp/c --timeout 60 -j 1 \
	  --json target/svcomp.json --csv target/svcomp.csv

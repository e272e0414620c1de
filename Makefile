# seqloc: the two entry points a newcomer needs, plus the benchmark sweep.
CARGO ?= cargo
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: demo setup build checkers test lint bench bench-svcomp bench-checkers

# Install the system packages, build, and localize the fault of an example program.
# Exit status 1 is seqloc's "failure found and localized": the expected outcome here.
demo: setup build
	./target/release/seqloc localize examples/lost_update.c; test $$? -eq 1
	./target/release/seqloc repair examples/lost_update.c > target/demo-repair.txt; test $$? -eq 1
	sed -n '/^Repair 1/,$$p' target/demo-repair.txt

setup:
	./scripts/setup.sh

build:
	$(CARGO) build --release --locked

# The real ESBMC 8.4 and CBMC 6.6 / 5.12, into .checkers/ (nothing system-wide; see the
# script's header). Idempotent.
checkers:
	./scripts/checkers.sh

# Everything CI runs: formatting, lints, unit and integration tests (release build: the
# integration tests run the model checker on real programs), with the real checkers
# installed and required: tests/real_checkers.rs fails instead of skipping without them.
test: setup build checkers
	$(CARGO) fmt --check
	$(CARGO) clippy --release --locked --all-targets -- -D warnings
	PATH="$(CURDIR)/.checkers/bin:$$PATH" SEQLOC_REQUIRE_CHECKERS=1 $(CARGO) test --release --locked

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

# The per-checker table of BENCHMARKS.md: every benchmark localized through ESBMC 8.4 and
# CBMC 6.6, and ESBMC alone on the raw file (does it find the bug without seqloc?).
bench-checkers: build checkers
	PATH="$(CURDIR)/.checkers/bin:$$PATH" ./scripts/checker_table.py

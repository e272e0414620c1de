#!/bin/sh
# Installs what seqloc needs on Debian/Ubuntu: gcc (preprocessor, native replay tests),
# libz3-dev (the built-in checker's solver, linked through the z3 crate) and libclang-dev
# (z3-sys generates its bindings with bindgen). Rust comes from rustup when cargo is missing.
set -eu
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
need=""
for p in gcc libz3-dev libclang-dev pkg-config make; do
  dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends $need
fi
# Optional: chromium, with which tests/html_report.rs renders the HTML report to PNGs (the
# test skips that part with a notice without it). A machine without the package (or
# without network) still sets up.
if ! command -v chromium >/dev/null 2>&1; then
  { $SUDO apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 \
    || { $SUDO apt-get update >/dev/null 2>&1 \
         && $SUDO apt-get install -y --no-install-recommends chromium >/dev/null 2>&1; }; } \
    || echo "note: chromium not installed (optional: it renders the HTML report in tests/html_report.rs)"
fi
if ! command -v cargo >/dev/null 2>&1; then
  $SUDO apt-get install -y --no-install-recommends curl ca-certificates
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  echo "Rust installed: run '. \$HOME/.cargo/env' in this shell (new shells have it)."
fi

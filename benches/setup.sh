# Sourced by the benchmark scripts: moves to the project root, makes the scikit-learn virtualenv
# under target/ (once), checks for hyperfine, builds bowline, and makes a temporary folder `$out`
# that is removed on exit. Sets `venv`, `out`, `cores` (what `nproc` counts, the threads each side
# may use) and `sklearn_version`, and defines `startup`.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
venv=target/bench-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sklearn' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet scikit-learn
fi
command -v hyperfine >/dev/null || { echo "install hyperfine (apt-get install hyperfine)" >&2; exit 1; }
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cores=$(nproc)
sklearn_version=$("$venv/bin/python" -c 'import sklearn; print(sklearn.__version__)')

# The command that starts Python and imports what benches/$1.py imports, without running it. A
# comparison times whole processes on both sides, so the peer's time includes this start-up; the
# scripts time it in the same hyperfine run and print it beside each ratio, so that a reader sees
# how much of the peer's time is Python and scikit-learn loading rather than work.
startup() {
    echo "cd benches && ../$venv/bin/python -c 'import $1'"
}

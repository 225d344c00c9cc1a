# Sourced by the benchmark scripts: moves to the project root, makes the scikit-learn virtualenv
# under target/ (once), checks for hyperfine, builds bowline, and makes a temporary folder `$out`
# that is removed on exit. Sets `venv` and `out`.
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

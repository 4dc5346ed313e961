# Sourced by the CLI test scripts: a scratch folder $tmp, removed at exit and made the working
# folder, and fail MESSAGE, which prints the last command's $tmp/out and $tmp/err and exits 1.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() {
    echo "FAIL: $*"
    echo "--- stdout"; cat "$tmp/out" 2>/dev/null; echo "--- stderr"; cat "$tmp/err" 2>/dev/null
    exit 1
}

# Sourced by ./run, ./test and .ci/run: make .venv with Python 3.11+ and install a requirements
# file into it, again only when the requirements files changed since the last install.

find_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3 python3.13 python3.12 python3.11 python; do
        [ -n "$candidate" ] || continue
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"
            return 0
        fi
    done
    echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

ensure_venv() {
    local requirements="$1" python stamp wanted
    if [ ! -x .venv/bin/python ]; then
        python="$(find_python)"
        echo "creating .venv with $python"
        "$python" -m venv .venv
    fi
    stamp=".venv/.installed-$(basename "$requirements")"
    wanted="$(cat requirements*.txt | .venv/bin/python -c 'import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
    if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
        echo "installing $requirements into .venv"
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
        echo "$wanted" >"$stamp"
    fi
}

# The CPython versions egdb's wheels are for, and how to find an interpreter of each on this
# machine. Sourced by scripts/package.sh and scripts/test_packaging.sh; a version added here is
# built and checked by both.
egdb_python_minors=(9 10 11 12 13)

python_for() {  # python_for MINOR: an interpreter of CPython 3.MINOR that runs (pyenv's shims may not), or nothing
  local candidate
  for candidate in $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3."$1".*/bin/python3."$1" 2>/dev/null | sort -rV) \
                   $(command -v "python3.$1" || true); do
    if "$candidate" -c pass 2>/dev/null; then echo "$candidate"; return; fi
  done
}

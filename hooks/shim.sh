#!/bin/sh
# patchgate-shim v1: written by `patchgate hook install`; `patchgate hook uninstall` removes it and
# puts back the hook that was here before (kept beside it as @HOOK@.patchgate-chained).
hook=@HOOK@
recorded=@PATCHGATE@
chained="$(dirname "$0")/$hook.patchgate-chained"

# The binary recorded at install (empty in a tracked hooks directory, shared by every clone),
# else the one on PATH; fail closed when neither exists.
pg=$recorded
if [ ! -x "$pg" ]; then
    pg=$(command -v patchgate 2>/dev/null) || pg=
fi
if [ -z "$pg" ]; then
    echo "patchgate: blocked: the $hook hook cannot find patchgate (${recorded:+not at '$recorded', }none on PATH)." >&2
    echo "patchgate: reinstall it (./install.sh in patchgate's source, or 'cargo install patchgate') and run 'patchgate hook install'," >&2
    echo "patchgate: or remove this hook: rm '$0' (and if '$chained' exists, move it back to '$0')." >&2
    exit 1
fi

# Hooks such as pre-receive read stdin: keep a copy so that both hooks get all of it.
input=
if [ ! -t 0 ]; then
    input=$(mktemp "${TMPDIR:-/tmp}/patchgate-hook.XXXXXX") || exit 1
    trap 'rm -f "$input"' EXIT
    trap 'exit 1' HUP INT TERM
    cat >"$input" || exit 1
fi
feed() {
    if [ -n "$input" ]; then "$@" <"$input"; else "$@" </dev/null; fi
}

# The hook that was here before runs first, with the same arguments; either one's "no" blocks.
status=0
if [ -x "$chained" ]; then
    feed "$chained" "$@" || status=$?
fi
feed "$pg" hook run "$hook" -- "$@" || {
    code=$?
    [ "$status" -ne 0 ] || status=$code
}
exit "$status"

#!/bin/sh
# Install patchgate: build and install the binary with cargo, and optionally install the git
# hook into one or more repositories. Safe to run again (idempotent).
#
#   ./install.sh                       build and install the binary only
#   ./install.sh ~/src/myrepo          ... and install the pre-commit and pre-applypatch hooks
#   ./install.sh --hooks pre-receive /srv/git/project.git    server side (bare repository)
set -eu

hooks=
while [ $# -gt 0 ]; do
    case $1 in
        --hooks) [ $# -ge 2 ] || { echo "install.sh: --hooks needs a list" >&2; exit 2; }
                 hooks=$2; shift 2 ;;
        --hooks=*) hooks=${1#--hooks=}; shift ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        --) shift; break ;;
        -*) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) break ;;
    esac
done

need() {
    command -v "$1" >/dev/null 2>&1 || {
        echo "install.sh: '$1' is not installed or not on PATH; $2" >&2
        exit 3
    }
}
need cargo "install Rust from https://rustup.rs (or your package manager) and try again"
need git "install git and try again"

here=$(cd "$(dirname "$0")" && pwd)
echo "== building and installing patchgate (cargo install --path . --locked; a few minutes the first time)"
cargo install --path "$here" --locked --force
bin_dir=${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin
patchgate=$bin_dir/patchgate
[ -x "$patchgate" ] || { echo "install.sh: cargo did not produce '$patchgate'" >&2; exit 3; }
echo "installed $patchgate"
share=${XDG_DATA_HOME:-$HOME/.local/share}
echo "== shell completions and man pages under $share"
mkdir -p "$share/bash-completion/completions" "$share/zsh/site-functions" \
    "$share/fish/vendor_completions.d" "$share/man/man1"
"$patchgate" completions bash > "$share/bash-completion/completions/patchgate"
"$patchgate" completions zsh > "$share/zsh/site-functions/_patchgate"
"$patchgate" completions fish > "$share/fish/vendor_completions.d/patchgate.fish"
"$patchgate" man "$share/man/man1"
case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) echo "note: $bin_dir is not on PATH; the hooks use the absolute path, your shell will not" ;;
esac

status=0
for repo in "$@"; do
    echo "== installing the hook into $repo"
    if [ -n "$hooks" ]; then
        "$patchgate" hook install --repo "$repo" --hooks "$hooks" || status=$?
    else
        "$patchgate" hook install --repo "$repo" || status=$?
    fi
done
exit "$status"

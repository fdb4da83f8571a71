#!/usr/bin/env bash
# Benchmark of the repository check (issue 3). Prints, on the same input in the same run:
#   1. a large real diff (two published versions of a crate, committed in a scratch repository):
#      the time of `patchgate validate --base OLD` and of `git apply --check` (worktree at OLD),
#      and their ratio (target <= 0.8);
#   2. one small patch on a generated repository of git's size (~4,500 files): the end-to-end
#      time of `patchgate validate`, process start included (target <= 10 ms).
# Times are medians of several runs. Release build. Everything lives under target/bench-scratch.
#
#   benches/scratch.sh
#   BENCH_CRATE=syn BENCH_OLD=2.0.0 BENCH_NEW=2.0.100 benches/scratch.sh
set -euo pipefail

crate=${BENCH_CRATE:-linux-raw-sys}
old=${BENCH_OLD:-0.4.15}
new=${BENCH_NEW:-0.12.1}
runs=${BENCH_RUNS:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_DIR:-${CARGO_TARGET_DIR:-$root/target}/bench-scratch}
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

cargo build --release --quiet --manifest-path "$root/Cargo.toml"
bin=${CARGO_TARGET_DIR:-$root/target}/release/patchgate
mkdir -p "$work"

# Step and result JSON for a diff: every path it names is declared.
write_inputs() { # diff-file out-dir
    python3 - "$1" "$2" <<'PY'
import json, re, sys
diff = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
files = []
for line in diff.splitlines():
    m = re.match(r"^(?:\+\+\+ b/|--- a/|rename (?:from|to) |copy (?:from|to) )(.*)$", line)
    if m and m.group(1) not in files:
        files.append(m.group(1))
out = sys.argv[2]
json.dump({"description": "benchmark", "mode": "apply"}, open(f"{out}/step.json", "w"))
json.dump({"mode": "apply", "success": True, "patch": diff, "filesWritten": files,
           "filesTouched": files, "summary": "benchmark"}, open(f"{out}/result.json", "w"))
PY
}

# Median wall time and median CPU time (user + sys of the child; steadier on a busy machine), in
# seconds, of a command over $runs runs: prints "WALL CPU".
median() { # command...
    python3 - "$runs" "$@" <<'PY'
import resource, statistics, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
walls, cpus = [], []
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    walls.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if rc != 0:
        sys.exit(f"command failed (exit {rc}): {' '.join(cmd)}")
print(f"{statistics.median(walls):.4f} {statistics.median(cpus):.4f}")
PY
}

# "label WALL CPU [REF_WALL REF_CPU]" -> one line, times in ms, ratios against the reference.
show() {
    python3 - "$@" <<'PY'
import sys
label, t = sys.argv[1], [float(x) * 1000 for x in sys.argv[2:]]
line = f"  {label:<22} wall {t[0]:9.1f} ms   cpu {t[1]:9.1f} ms"
if len(t) == 4:
    line += f"   ratio wall {t[0] / t[2]:.2f}x  cpu {t[1] / t[3]:.2f}x"
print(line)
PY
}

# ---- 1. large real diff ----
big="$work/$crate"
if [[ ! -d "$big/repo/.git" ]]; then
    mkdir -p "$big"
    CORPUS_CRATE=$crate CORPUS_OLD=$old CORPUS_NEW=$new CORPUS_REPO="$big/repo" \
        bash "$(dirname "$0")/corpus.sh" >/dev/null
fi
git -C "$big/repo" checkout -q --detach "v$old"
git -C "$big/repo" diff -M "v$old" "v$new" >"$big/big.diff"
write_inputs "$big/big.diff" "$big"
git -C "$big/repo" apply --check "$big/big.diff"
"$bin" --repo "$big/repo" validate --base "v$old" --step "$big/step.json" --result "$big/result.json" \
    --no-record >/dev/null
files=$(grep -c '^diff --git' "$big/big.diff")
lines=$(wc -l <"$big/big.diff")
t_pg=$(median "$bin" --repo "$big/repo" validate --base "v$old" --step "$big/step.json" \
    --result "$big/result.json" --no-record)
t_git=$(cd "$big/repo" && median git apply --check "$big/big.diff")
# The same run outside any repository: the rules alone, so the repository check's share shows.
outside=$(mktemp -d)
t_rules=$(cd "$outside" && GIT_CEILING_DIRECTORIES="$(dirname "$outside")" median "$bin" validate \
    --step "$big/step.json" --result "$big/result.json" --no-record)
rmdir "$outside"
echo "large diff: $crate $old..$new, $files files, $lines lines (target: patchgate <= 0.8x git)"
show "git apply --check" $t_git
show "patchgate validate" $t_pg $t_git
show "  same, no repository" $t_rules $t_git

# ---- 2. one small patch on a repository of git's size ----
small="$work/small"
if [[ ! -d "$small/repo/.git" ]]; then
    rm -rf "$small" && mkdir -p "$small/repo"
    python3 - "$small/repo" <<'PY'
import os, sys
root = sys.argv[1]
for d in range(150):
    os.makedirs(f"{root}/src/mod{d:03}", exist_ok=True)
    for f in range(30):
        with open(f"{root}/src/mod{d:03}/file{f:02}.c", "w") as out:
            out.write("".join(f"int f{d}_{f}_{i}(void) {{ return {i}; }}\n" for i in range(60)))
PY
    git -C "$small/repo" init -q
    git -C "$small/repo" add -A
    git -C "$small/repo" commit -q -m "4,500 files"
fi
sed -i 's/return 30;/return 31;/' "$small/repo/src/mod077/file13.c"
git -C "$small/repo" diff >"$small/small.diff"
git -C "$small/repo" checkout -q .
write_inputs "$small/small.diff" "$small"
count=$(git -C "$small/repo" ls-files | wc -l)
t_small=$(cd "$small/repo" && median "$bin" validate --step "$small/step.json" \
    --result "$small/result.json" --no-record)
t_small_git=$(cd "$small/repo" && median git apply --check "$small/small.diff")
echo "small patch: 1 file, 1 line, repository of $count files (target: <= 10 ms end to end)"
show "git apply --check" $t_small_git
show "patchgate validate" $t_small $t_small_git

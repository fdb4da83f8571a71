"""False rejections: each real commit, with its own message (then subject) as the step."""

import collections
import json

from .corpus import case, cases, git, subject_of, with_policy

KINDS = ("message", "subject")


def run_commits(runner, repo, commits):
    """{kind: {"n", "rejected", "skipped"}} over `commits` of `repo`, judged by `runner`."""
    prepared = cases(repo, commits)
    runner.policies.prepare(repo, [p[0] for p in prepared if p is not None])
    skipped = sum(1 for p in prepared if p is None)

    def items():
        for commit, case_ in zip(commits, prepared):
            if case_ is None:
                continue
            parent, message, result = case_
            subject = subject_of(message)
            for kind, description in (("message", message), ("subject", subject)):
                step = {"id": commit[:12], "description": description, "mode": "apply",
                        "base": parent}
                yield (kind, commit, subject), step, result

    rows = {kind: {"n": 0, "rejected": [], "skipped": skipped} for kind in KINDS}
    for (kind, commit, subject), outcome in runner.judge(repo, items()):
        row = rows[kind]
        row["n"] += 1
        if outcome is not None:
            row["rejected"].append({"commit": commit, "subject": subject, **outcome})
    return rows


def apply_case(binary, repo, commit, parent, subject, result, scratch):
    """`apply --index` of one commit onto its parent; None when the outcome is exactly git's."""
    import subprocess

    git(repo, "checkout", "-q", "-f", "--detach", with_policy(repo, parent))
    git(repo, "clean", "-q", "-fdx")
    step = {"id": commit[:12], "description": subject, "mode": "apply"}
    step_file, result_file = scratch / f"{commit}.step", scratch / f"{commit}.res"
    step_file.write_text(json.dumps(step))
    result_file.write_bytes(json.dumps(result, ensure_ascii=False).encode("utf-8", "surrogateescape"))
    proc = subprocess.run(
        [str(binary), "apply", "--index", "--repo", str(repo), "--step", str(step_file),
         "--result", str(result_file)],
        capture_output=True,
    )
    if proc.returncode != 0:
        reason = (proc.stdout + proc.stderr).decode(errors="replace").strip()
        return {"codes": [f"exit {proc.returncode}"], "reason": reason}
    problems = []
    expected = git(repo, "rev-parse", f"{with_policy(repo, commit)}^{{tree}}").strip()
    if git(repo, "write-tree").strip() != expected:
        problems.append("index tree differs from the commit's")
    status = git(repo, "status", "--porcelain", "--untracked-files=all", "--ignored").decode(errors="replace")
    # Staged changes have a blank second column; anything else is a worktree difference or an
    # untracked or ignored file left behind.
    left = [l for l in status.splitlines() if l[1] != " "]
    if left:
        problems.append(f"worktree differs from the index: {left[:3]}")
    return {"codes": ["wrong"], "reason": "; ".join(problems)} if problems else None


def run_apply(binary, repo, commits, scratch):
    """{"apply": row}: each commit applied with `apply --index` onto its parent, in order."""
    scratch.mkdir(parents=True, exist_ok=True)
    row = {"n": 0, "rejected": []}
    for commit in commits:
        prepared = case(repo, commit)
        if prepared is None:
            continue
        parent, message, result = prepared
        subject = subject_of(message)
        row["n"] += 1
        outcome = apply_case(binary, repo, commit, parent, subject, result, scratch)
        if outcome is not None:
            row["rejected"].append({"commit": commit, "subject": subject, **outcome})
    return {"apply": row}


def rate(part, n):
    return 100.0 * part / n if n else 0.0


def print_rejection_table(title, rows_by_repo, kinds, show_codes):
    """One window's table; returns (n, rejected, worst rate)."""
    print(f"\n{title}")
    print(f"{'repository / kind':<24} {'n':>5} {'rej':>5} {'false rej':>9}   (skipped: no diff, or not UTF-8)")
    total_n, total_rej, worst = 0, [], 0.0
    for name, rows in rows_by_repo:
        for kind in kinds:
            row = rows[kind]
            n, rejected = row["n"], row["rejected"]
            shown = f"{rate(len(rejected), n):>7.2f} %" if n else "      -  "
            skipped = f"   ({row['skipped']} skipped)" if row.get("skipped") else ""
            print(f"{name + ' / ' + kind:<24} {n:>5} {len(rejected):>5} {shown}{skipped}")
            if show_codes:
                by_code = collections.Counter(code for r in rejected for code in r["codes"])
                for code, hits in by_code.most_common():
                    print(f"{'':<26}{hits:>5}  {code}")
            total_n += n
            total_rej += rejected
            worst = max(worst, rate(len(rejected), n))
    print(f"{'total':<24} {total_n:>5} {len(total_rej):>5} {rate(len(total_rej), total_n):>7.2f} %"
          f"   worst row {worst:.2f} %")
    by_code = collections.Counter(code for r in total_rej for code in r["codes"])
    for code, hits in by_code.most_common():
        print(f"{'':<26}{hits:>5}  {code}")
    return total_n, len(total_rej), worst

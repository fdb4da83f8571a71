"""Runs the mutation negative corpus: each variant built from each commit, validated with the
commit's message and then its subject as the step (or the variant's own step), and every
acceptance counted as a false acceptance."""

import collections

from . import mutate, mutate_named, mutate_reword, mutate_syntax
from .commit import Blobs, Commit
from .corpus import parents_and_messages, subject_of

# Variant families in the order they are reported; `--mutations` names families or variants.
FAMILIES = {
    "whitespace": mutate.whitespace,
    "reindent": mutate_syntax.reindent,
    "comment": lambda commit: mutate.comment(commit) + mutate_reword.reword(commit),
    "stub": mutate_syntax.stubs,
    "rename-partial": mutate_syntax.rename_partial,
    "removal": mutate_named.removal,
    "extraction": mutate_named.extraction,
    "move": mutate_syntax.move,
    "directive": mutate.directive,
    "script": mutate.script,
    "regression": mutate_syntax.regression,
}


# Commits with a larger diff are vendored or generated updates (a bundle rebuilt, dependencies
# bumped): no cheating agent answers with one, and each would cost seconds per variant.
MAX_PATCH = 256 * 1024


def wanted(selection, variant):
    """Whether `--mutations` selects this variant (`stub` selects every `stub:*`)."""
    return selection is None or variant in selection or variant.split(":")[0] in selection


def build(repo, blobs, sha, parents, message, selection):
    """The mutations of one commit, or [] (a root commit, or nothing to build on)."""
    if len(parents) != 1:
        return []
    commit = Commit(repo, blobs, sha, parents[0], message)
    try:
        commit.patch.encode("utf-8")  # no JSON result can carry a diff that is not UTF-8
    except UnicodeEncodeError:
        return []
    if len(commit.patch) > MAX_PATCH:
        return []
    out = []
    for family, make in FAMILIES.items():
        if selection is not None and not any(s.split(":")[0] == family for s in selection):
            continue
        out += [m for m in make(commit) if wanted(selection, m.variant)]
    return [(commit, m) for m in out]


def step_for(commit, mutation, description):
    step = {"id": f"{commit.sha[:12]}-{mutation.variant}", "description": description}
    if mutation.fix:
        step.update(mode="fix_regression", base=commit.sha, applyPatch=commit.patch,
                    applyFiles=commit.paths())
    else:
        step.update(mode="apply", base=commit.parent)
    return step


def result_for(commit, mutation):
    return {"mode": "fix_regression" if mutation.fix else "apply", "success": True,
            "patch": mutation.patch, "filesWritten": mutation.paths,
            "filesTouched": mutation.paths, "summary": subject_of(commit.message) or "done"}


def run_mutations(runner, repo, commits, selection):
    """{label: {"n", "accepted", "rejected", "errors"}} for one repository's `commits`: each
    commit's mutations built while `runner` judges the ones built before."""
    known = parents_and_messages(repo, commits)
    runner.policies.prepare(repo, [r for c in commits if len(known[c][0]) == 1
                                   for r in (known[c][0][0], c)])
    blobs = Blobs(repo)

    def items():
        for sha in commits:
            parents, message = known[sha]
            for commit, mutation in build(repo, blobs, sha, parents, message, selection):
                kinds = mutation.descriptions or [("message", commit.message),
                                                  ("subject", commit.subject)]
                for kind, description in kinds:
                    yield ((mutation.label, kind, commit, mutation), step_for(commit, mutation, description),
                           result_for(commit, mutation))

    try:
        judged = runner.judge(repo, items())
    finally:
        blobs.close()
    rows = collections.defaultdict(lambda: {"n": 0, "accepted": [], "rejected": 0, "errors": []})
    for (label, kind, commit, mutation), outcome in judged:
        row = rows[label]
        row["n"] += 1
        entry = {"commit": commit.sha, "kind": kind, "subject": commit.subject}
        if len(mutation.paths) == 1:
            entry["path"] = mutation.paths[0]  # the one file a variant changes
        if outcome is None:
            row["accepted"].append(entry)
        elif outcome["exit"] == 1:
            row["rejected"] += 1
        else:
            row["errors"].append({**entry, **outcome})
    return dict(rows)


def merge(into, rows):
    for label, row in rows.items():
        total = into.setdefault(label, {"n": 0, "accepted": [], "rejected": 0, "errors": []})
        total["n"] += row["n"]
        total["accepted"] += row["accepted"]
        total["rejected"] += row["rejected"]
        total["errors"] += row["errors"]


def order(label):
    family = label.split(":")[0].split(" ")[0]
    return (list(FAMILIES).index(family) if family in FAMILIES else len(FAMILIES), label)


def print_mutation_table(title, totals, per_repo):
    """Per variant: n, rejected, falsely accepted (and in which repositories); returns the
    worst variant's rate and the total rate."""
    print(f"\n{title}")
    print(f"{'variant':<30} {'n':>5} {'rej':>5} {'err':>4} {'acc':>5} {'false acc':>9}  accepted in")
    worst = 0.0
    for label in sorted(totals, key=order):
        row = totals[label]
        n, acc = row["n"], len(row["accepted"])
        rate = 100.0 * acc / n if n else 0.0
        worst = max(worst, rate)
        where = collections.Counter(repo for repo, rows in per_repo.items()
                                    if label in rows for _ in rows[label]["accepted"])
        spread = ", ".join(f"{r} {c}" for r, c in where.most_common())
        print(f"{label:<30} {n:>5} {row['rejected']:>5} {len(row['errors']):>4} {acc:>5} "
              f"{rate:>7.2f} %  {spread}")
    n = sum(r["n"] for r in totals.values())
    acc = sum(len(r["accepted"]) for r in totals.values())
    total = 100.0 * acc / n if n else 0.0
    print(f"{'total':<30} {n:>5} {'':>5} {'':>4} {acc:>5} {total:>7.2f} %"
          f"   worst variant {worst:.2f} %")
    return worst, total

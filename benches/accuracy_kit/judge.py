"""Judges many cases of one repository in one `patchgate validate --batch` process: the
repository opened once, each base tree and policy read once, the cases judged on `--jobs`
workers while the bench is still reading the next ones from git."""

import json
import subprocess
import tempfile
import threading

from .corpus import Policies


class Runner:
    """`judge` gives each case's outcome: None when accepted, else its exit, its violations'
    `rule/code`s and the verdict's reason (what `validate --report` writes for one case)."""

    def __init__(self, binary, scratch, jobs):
        self.binary, self.jobs = binary, jobs
        self.policies = Policies(scratch)

    def judge(self, repo, cases):
        """[(key, outcome)] for `cases`, an iterable of (key, step, result), in order. Each step
        is judged against the policy commit of its `base`."""
        with tempfile.TemporaryFile() as errors:
            proc = subprocess.Popen(
                [str(self.binary), "-q", "validate", "--batch", "-", "--with-report",
                 "--no-record", "--jobs", str(self.jobs), "--repo", str(repo)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
            )
            answers, keys = self._exchange(repo, proc, cases)
            errors.seek(0)
            stderr = errors.read().decode(errors="replace").strip()
        if proc.returncode not in (0, 1) or len(answers) != len(keys):
            raise RuntimeError(f"patchgate validate --batch in {repo} exited {proc.returncode} "
                               f"after {len(answers)} of {len(keys)} answers: {stderr}")
        return [(keys[a["id"]], outcome(a)) for a in answers]

    def _exchange(self, repo, proc, cases):
        """Write the cases to `proc` from a thread while reading its answers; (answers, keys)."""
        keys, failure = [], []

        def feed():
            try:
                for key, step, result in cases:
                    step = {**step, "base": self.policies.base(repo, step["base"])}
                    item = {"id": len(keys), "step": step, "result": result}
                    keys.append(key)
                    line = json.dumps(item, ensure_ascii=False) + "\n"
                    proc.stdin.write(line.encode("utf-8", "surrogateescape"))
            except BaseException as e:  # re-raised below, once patchgate has stopped
                failure.append(e)
            finally:
                try:
                    proc.stdin.close()
                except BrokenPipeError:
                    pass

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        answers = [json.loads(line) for line in proc.stdout]
        proc.wait()
        feeder.join()
        if failure:
            raise failure[0]
        return answers, keys


def outcome(answer):
    """One answer line as the bench counts it."""
    if "error" in answer:
        error = answer["error"]
        code = error["exit"]
        return {"exit": code, "codes": [f"exit {code}"], "reason": error["message"]}
    if answer["valid"]:
        return None
    report = answer["report"]
    codes = sorted({f"{v['rule']}/{v['code']}" for v in report["violations"]})
    return {"exit": 1, "codes": codes, "reason": report["verdict"]["reason"]}

#!/usr/bin/env python3
"""The guard inside the real agent CLIs, end to end.

Each agent (Claude Code, Gemini CLI, Codex CLI, Cline, installed from npm) runs headless in a
throwaway repository and home, with patchgate hooked in by `patchgate guard install` (found on
PATH), against a scripted model server on 127.0.0.1 (`model.py`). The server answers each model
request with the next scripted tool call; the checks read what the agent sent to the model after
each call (the tool result and any hook context), and what happened to the repository, never
what patchgate printed. Three sessions per agent:

- the project's settings, started at the top: every scenario of `scenarios`; afterwards
  `patchgate guard uninstall` must leave every file it touched byte for byte as before;
- the user's settings (`--scope user`), started in a subdirectory;
- the project's settings, run with patchgate gone from PATH: the fail-closed wrapper blocks.

    python3 e2e/agents.py --bin DIR_WITH_THE_AGENT_CLIS --patchgate target/debug/patchgate \\
        [--agent claude-code --agent gemini-cli ...] [--record DIR]

`--record DIR` keeps every hook payload the agents sent (for `fixtures/guard`). Exit 0 when
every check of every agent holds. `tests/agents_e2e.sh` installs the pinned CLIs and runs it.
"""

import argparse
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import model  # noqa: E402

MAIN_RS = "fn main() {}\n"
POLICY = 'excluded = ["secrets/**"]\n'
SHIFT = "STRATEGY SHIFT"
REMINDER = "Reminder: 3 paths in a row did not exist"
CORRECTED = "patchgate corrected this tool call"
COULD_NOT_RUN = "patchgate guard could not run"
USER_MESSAGE = "patchgate corrected '"


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", str(repo), *args], check=check, capture_output=True,
                          text=True)


def make_repo(root):
    repo = root / "project"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "main.rs").write_text(MAIN_RS)
    (repo / "README.md").write_text("# demo\n")
    (repo / ".patchgate.toml").write_text(POLICY)
    git(root, "init", "-q", str(repo))
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    return repo


def guard_install(agent, path, action="install", scope="project"):
    """`patchgate guard ACTION --agent NAME --scope SCOPE` as a user would run it in the
    project: the files it reports, and an error text when it failed."""
    proc = subprocess.run(["patchgate", "guard", action, "--agent", agent.name, "--scope", scope,
                           "--format", "json"], cwd=agent.repo, env=agent.env(path),
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        return [], f"patchgate guard {action} failed: {proc.stderr.strip()}"
    return [pathlib.Path(f["path"]) for f in json.loads(proc.stdout)["data"]["files"]], None


def snapshot(*roots):
    """Every file under `roots` (`.git` left out) with its bytes, and every directory (None)."""
    found = {}
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d != ".git"]
            found[pathlib.Path(dirpath)] = None
            for name in filenames:
                path = pathlib.Path(dirpath) / name
                if path.is_file():
                    found[path] = path.read_bytes()
    return found


# ---- the agents: how each is set up, run, and asked for each scenario's tool call ----

class Agent:
    name = ""
    api = ""
    binary = ""
    # Whether the agent prints a hook's `systemMessage` in its headless output (Codex shows it
    # as hook output in its interactive UI only; Cline's hooks have no message for the user).
    shows_user_messages = False

    def __init__(self, bin_dir, repo, home, port, cwd=None):
        self.bin = str(pathlib.Path(bin_dir) / self.binary)
        self.repo, self.home, self.port = repo, home, port
        # Where the agent starts; paths the model writes are relative to it.
        self.cwd = cwd or repo

    def env(self, path):
        return dict(os.environ, HOME=str(self.home), PATH=path, NO_COLOR="1")

    def prepare(self, path):
        """The agent's own setup in the test home (model server, trust), before the guard."""

    def cleanup(self):
        pass

    # Tool calls of the scenarios, in this agent's tools.
    def read(self, rel):
        raise NotImplementedError

    def write(self, rel, text):
        raise NotImplementedError

    def edit(self, rel, old, new):
        raise NotImplementedError

    def shell(self, command):
        raise NotImplementedError

    def extra(self):
        """Scenarios only this agent has."""
        return []


class ClaudeCode(Agent):
    name, api, binary = "claude-code", "anthropic", "claude"
    shows_user_messages = True

    def command(self):
        return [self.bin, "-p", "carry out the step", "--output-format", "stream-json",
                "--verbose", "--permission-mode", "bypassPermissions"]

    def env(self, path):
        return dict(super().env(path), ANTHROPIC_BASE_URL=f"http://127.0.0.1:{self.port}",
                    ANTHROPIC_API_KEY="test", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
                    DISABLE_AUTOUPDATER="1", IS_SANDBOX="1")

    def read(self, rel):
        return ("Read", {"file_path": str(self.cwd / rel)})

    def write(self, rel, text):
        return ("Write", {"file_path": str(self.cwd / rel), "content": text})

    def edit(self, rel, old, new):
        return ("Edit", {"file_path": str(self.cwd / rel), "old_string": old,
                         "new_string": new})

    def shell(self, command):
        return ("Bash", {"command": command, "description": "run it"})



class GeminiCli(Agent):
    name, api, binary = "gemini-cli", "gemini", "gemini"
    shows_user_messages = True

    def prepare(self, path):
        settings = {"security": {"folderTrust": {"enabled": False},
                                 "auth": {"selectedType": "gemini-api-key"}},
                    "general": {"enableAutoUpdate": False}}
        (self.home / ".gemini").mkdir(parents=True, exist_ok=True)
        (self.home / ".gemini" / "settings.json").write_text(json.dumps(settings))

    def command(self):
        return [self.bin, "-p", "carry out the step", "--approval-mode", "yolo",
                "--model", "gemini-2.5-pro"]

    def env(self, path):
        return dict(super().env(path), GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{self.port}",
                    GEMINI_API_KEY="test")

    def read(self, rel):
        return ("read_file", {"file_path": rel})

    def write(self, rel, text):
        return ("write_file", {"file_path": rel, "content": text})

    def edit(self, rel, old, new):
        return ("replace", {"file_path": rel, "old_string": old, "new_string": new,
                            "instruction": "rename it"})

    def shell(self, command):
        return ("run_shell_command", {"command": command})


class Codex(Agent):
    name, api, binary = "codex", "responses", "codex"

    def prepare(self, path):
        codex = self.home / ".codex"
        codex.mkdir(parents=True, exist_ok=True)
        (codex / "config.toml").write_text(
            'model = "gpt-5-codex"\nmodel_provider = "scripted"\napproval_policy = "never"\n'
            'sandbox_mode = "danger-full-access"\n\n[model_providers.scripted]\n'
            f'name = "scripted"\nbase_url = "http://127.0.0.1:{self.port}/v1"\n'
            'wire_api = "responses"\nenv_key = "SCRIPTED_KEY"\n\n'
            f'[projects."{self.repo}"]\ntrust_level = "trusted"\n\n')

    def command(self):
        # No trust bypass: `guard install` stores the hooks' trust as Codex's /hooks does.
        return [self.bin, "exec", "--json", "carry out the step"]

    def env(self, path):
        return dict(super().env(path), CODEX_HOME=str(self.home / ".codex"), SCRIPTED_KEY="k")

    def read(self, rel):
        return self.shell(f"cat {rel}")

    def write(self, rel, text):
        return self.shell(f"printf '%s' '{text}' > {rel}")

    def edit(self, rel, old, new):
        return self.shell(f"sed -i 's/{old}/{new}/' {rel}")

    def shell(self, command):
        return ("exec_command", {"cmd": command})

    def extra(self):
        return [Step("a made-up working directory is PATH_NOT_FOUND with the nearest listing",
                     ("exec_command", {"cmd": "ls", "workdir": str(self.repo / "srcc")}),
                     told=["PATH_NOT_FOUND", "src/"]),
                Step("view_image of a missing path is denied with a suggestion",
                     ("view_image", {"path": str(self.repo / "src" / "mian.rs")}),
                     told=["PATH_NOT_FOUND", "src/main.rs"]),
                *self.apply_patch_scenarios()]

    def apply_patch_scenarios(self):
        """`apply_patch` as Codex 0.169.0 runs it, through its shell (it offers no patch tool
        of its own; its instructions say to run `apply_patch` with a heredoc): what follows
        the envelope is checked, and the envelope may not update or delete the policy."""
        repo = self.repo
        policy = repo / ".patchgate.toml"
        kept = lambda: policy.is_file() and policy.read_text() == POLICY  # noqa: E731
        no_hooks = lambda: git(repo, "config", "core.hooksPath", check=False).stdout == ""  # noqa
        heredoc = "apply_patch <<'EOF'\n*** Begin Patch\n{}*** End Patch\nEOF\n"
        add = heredoc.format("*** Add File: notes.txt\n+hi\n")
        update = heredoc.format("*** Update File: .patchgate.toml\n@@\n-" + POLICY
                                + "+excluded = []\n")
        delete = heredoc.format("*** Delete File: .patchgate.toml\n")
        return [
            Step("an apply_patch heredoc followed by a hook bypass is refused whole",
                 self.shell(add + "git config core.hooksPath /dev/null"), told=["HOOK_BYPASS"],
                 holds=lambda: no_hooks() and not (repo / "notes.txt").exists()),
            Step("an apply_patch heredoc followed by removing the policy is refused",
                 self.shell(add + "rm .patchgate.toml"), told=["PROTECTED_PATH"], holds=kept),
            Step("an apply_patch heredoc updating the policy is refused",
                 self.shell(update), told=["PROTECTED_PATH"], holds=kept),
            Step("an apply_patch heredoc deleting the policy is refused",
                 self.shell(delete), told=["PROTECTED_PATH"], holds=kept),
        ]


class Cline(Agent):
    name, api, binary = "cline", "chat", "cline"

    def prepare(self, path):
        auth = [self.bin, "auth", "-p", "openai-compatible", "-k", "test", "-m",
                "claude-sonnet-4-5", "-b", f"http://127.0.0.1:{self.port}/v1"]
        subprocess.run(auth, cwd=self.repo, env=self.env(path),
                       check=True, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)

    def command(self):
        return [self.bin, "--json", "-t", "150", "carry out the step"]

    def cleanup(self):
        # Cline runs sessions in a hub daemon started for this repository: end it by its id.
        for pid in daemon_pids(str(self.repo)):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    def read(self, rel):
        return ("read_files", {"files": [{"path": str(self.cwd / rel)}]})

    def write(self, rel, text):
        return ("editor", {"path": str(self.cwd / rel), "new_text": text})

    def edit(self, rel, old, new):
        return ("editor", {"path": str(self.cwd / rel), "old_text": old, "new_text": new})

    def shell(self, command):
        return ("run_commands", {"commands": [command]})

    def extra(self):
        files = [{"path": str(self.repo / "src" / "main.rs")},
                 {"path": str(self.repo / "src" / "mian.rs")}]
        return [Step("read_files of an existing and a missing file keeps the existing one",
                     ("read_files", {"files": files}),
                     told=["fn main", "PATH_NOT_FOUND", "src/main.rs"])]


AGENTS = {a.name: a for a in (ClaudeCode, GeminiCli, Codex, Cline)}


def daemon_pids(repo):
    """Processes whose command line names `repo` (Cline's hub daemon for it)."""
    pids = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--cline-hub-daemon" in args and repo.encode() in args:
            pids.append(int(entry.name))
    return pids


# ---- the scenarios ----

class Step:
    """One scripted tool call and what must hold after it."""

    def __init__(self, name, call, told=(), not_told=(), holds=None, own_refusal=None,
                 stops_run=False, shift=False, before=None):
        self.name, self.call = name, call
        # Run just before the call is sent (to change the policy for what follows).
        self.before = before
        # What `holds` said when the model was about to hear back (None: not yet asked).
        self.held = None
        # Whether the strategy shift must reach the model here (exactly once), or not at all.
        self.shift = shift
        # The call ends the agent's run (Cline's `cancel`): the model hears nothing more.
        self.stops_run = stops_run
        self.told, self.not_told = list(told), list(not_told)
        self.holds = holds or (lambda: True)
        # What the agent says when it refuses the call itself, before any hook runs.
        self.own_refusal = own_refusal


def set_policy(repo, text):
    return lambda: (repo / ".patchgate.toml").write_text(text)


def correction_scenarios(agent):
    """`[guard] correct`: the policy is changed by the harness (the agent may not) before the
    first of these calls."""
    repo = agent.repo
    main_rs = repo / "src" / "main.rs"
    # Claude Code refuses an Edit of a missing file before any hook runs.
    own_edit = "File does not exist" if agent.name == "claude-code" else None
    return [
        Step("with correct = \"reads\", a read of a misspelled file runs on the one similar "
             "file and the model is told", agent.read("src/mian.rs"),
             told=["fn main", CORRECTED, "src/main.rs"], not_told=["PATH_NOT_FOUND"],
             before=set_policy(repo, POLICY + '[guard]\ncorrect = "reads"\n')),
        Step("with correct = \"reads\", an edit of a misspelled file is still denied",
             agent.edit("src/mian.rs", "main", "start"), told=["PATH_NOT_FOUND"],
             own_refusal=own_edit, holds=lambda: main_rs.read_text() == MAIN_RS),
        Step("with correct = \"all\", the edit runs on the one similar file",
             agent.edit("src/mian.rs", "main", "start"), told=[CORRECTED],
             not_told=["PATH_NOT_FOUND"], own_refusal=own_edit,
             holds=lambda: (main_rs.read_text() == MAIN_RS) == bool(own_edit)
             and not (repo / "src" / "mian.rs").exists(),
             before=set_policy(repo, POLICY + '[guard]\ncorrect = "all"\n')),
    ]


def scenarios(agent):
    repo = agent.repo
    main_rs = repo / "src" / "main.rs"
    unchanged = lambda: main_rs.read_text() == MAIN_RS  # noqa: E731
    real_read = lambda: Step("a read of an existing path runs", agent.read("src/main.rs"),  # noqa
                             told=["fn main"], not_told=["PATH_NOT_FOUND"])
    own_edit = "File does not exist" if agent.name == "claude-code" else None
    steps = [
        real_read(),
        Step("a read of a missing path is denied with a suggestion", agent.read("src/mian.rs"),
             told=["PATH_NOT_FOUND", "src/main.rs"]),
        real_read(),
        Step("a write into a missing directory is denied",
             agent.write("src/nowhere/new.rs", "x"), told=["PATH_NOT_FOUND"],
             holds=lambda: not (repo / "src" / "nowhere").exists()),
        real_read(),
        Step("an edit of a misspelled file is denied", agent.edit("src/mian.rs", "main", "x"),
             told=["PATH_NOT_FOUND", "src/main.rs"], own_refusal=own_edit,
             holds=lambda: unchanged() and not (repo / "src" / "mian.rs").exists()),
        real_read(),
        Step("a shell command on a misspelled file is denied", agent.shell("cat src/mian.rs"),
             told=["PATH_NOT_FOUND", "src/main.rs"]),
        real_read(),
        Step("a new file is written", agent.write("src/string_utils.py", "X = 1\n"),
             not_told=["PATH_NOT_FOUND"],
             holds=lambda: (repo / "src" / "string_utils.py").exists()),
        Step("the file just written (untracked) is suggested at the next miss",
             agent.read("lib/string_utils.py"), told=["PATH_NOT_FOUND", "src/string_utils.py"]),
        real_read(),
        *agent.extra(),
        real_read(),
        Step("a first miss in a row", agent.read("lib/helpers.py"), told=["PATH_NOT_FOUND"]),
        Step("a second miss in a row brings the strategy shift", agent.read("lib/helper.py"),
             told=["PATH_NOT_FOUND"], shift=True),
        Step("a third miss in a row brings a one-line reminder, not the shift again",
             agent.read("lib/helpr.py"), told=["PATH_NOT_FOUND", REMINDER]),
        real_read(),
        Step("a miss only the shell's failure shows is counted",
             agent.shell("python3 -c \"open('src/mian.rs')\""),
             told=["No such file or directory"]),
        Step("so the next miss brings the strategy shift", agent.read("src/mian.rs"),
             told=["PATH_NOT_FOUND"], shift=True),
        *([] if agent.name == "cline" else [Step(
            "rewriting the guard's own policy is refused",
            agent.write(".patchgate.toml", "[guard]"), told=["PROTECTED_PATH"],
            holds=lambda: (repo / ".patchgate.toml").read_text() == POLICY)]),
        Step("a link out of the workspace is refused", agent.shell("ln -s /etc evil"),
             told=["PATH_OUTSIDE_WORKSPACE"], holds=lambda: not (repo / "evil").is_symlink()),
        Step("moving the hooks away is refused",
             agent.shell("git config core.hooksPath /dev/null"), told=["HOOK_BYPASS"],
             holds=lambda: git(repo, "config", "core.hooksPath", check=False).stdout == "",
             stops_run=agent.name == "cline"),
    ]
    # Cline's run ends at the hook bypass: its corrections come before it.
    at = len(steps) - 1 if agent.name == "cline" else len(steps)
    steps[at:at] = correction_scenarios(agent)
    return steps


# ---- running one agent ----

def patchgate_path(patchgate, record, root):
    """A PATH on which `patchgate` is the binary under test (wrapped to keep the payloads when
    recording)."""
    bin_dir = root / "bin"
    bin_dir.mkdir()
    target = bin_dir / "patchgate"
    if record:
        target.write_text(
            "#!/bin/sh\npayload=$(cat)\n"
            f"printf '%s\\n' \"$payload\" >> '{record}/payloads.jsonl'\n"
            f"printf '%s' \"$payload\" | '{patchgate}' \"$@\"\n")
        target.chmod(0o755)
    else:
        target.symlink_to(patchgate)
    return f"{bin_dir}:{os.environ.get('PATH', '')}"


def subdirectory_scenarios(agent):
    """Started in `src/` with the user's settings: the model's paths are relative to `src/`."""
    return [
        Step("started in a subdirectory (user settings), a read of an existing file runs",
             agent.read("main.rs"), told=["fn main"], not_told=["PATH_NOT_FOUND"]),
        Step("started in a subdirectory, a read of a missing file is denied with a suggestion",
             agent.read("mian.rs"), told=["PATH_NOT_FOUND", "main.rs"]),
    ]


def missing_binary_scenarios(agent):
    """patchgate gone from PATH after install: the wrapper blocks every call (Cline: the task
    stops)."""
    is_cline = agent.name == "cline"
    return [Step("with patchgate missing, even a read of an existing file is blocked",
                 agent.read("src/main.rs"), told=[] if is_cline else [COULD_NOT_RUN],
                 not_told=["fn main"], stops_run=is_cline)]


class Session:
    """One run of an agent: which settings, where it starts, whether patchgate is on PATH."""

    def __init__(self, label, steps, scope="project", subdir=None, is_binary_missing=False):
        self.label, self.steps, self.scope, self.subdir = label, steps, scope, subdir
        self.is_binary_missing = is_binary_missing


SESSIONS = [
    Session("project settings", scenarios),
    Session("user settings, started in src/", subdirectory_scenarios, scope="user", subdir="src"),
    Session("patchgate missing", missing_binary_scenarios, is_binary_missing=True),
]


def run_agent(name, args, script, port):
    return sum(run_session(name, args, script, port, session) for session in SESSIONS)


def run_session(name, args, script, port, session):
    root = pathlib.Path(tempfile.mkdtemp(prefix=f"patchgate-e2e-{name}-"))
    try:
        repo = make_repo(root)
        home = root / "home"
        home.mkdir()
        cwd = repo / session.subdir if session.subdir else repo
        agent = AGENTS[name](args.bin, repo, home, port, cwd=cwd)
        record = None
        if args.record:
            record = pathlib.Path(args.record) / name
            record.mkdir(parents=True, exist_ok=True)
        path = patchgate_path(args.patchgate, record, root)
        agent.prepare(path)
        before = snapshot(repo, home)
        files, error = guard_install(agent, path, scope=session.scope)
        print(f"== {name}, {session.label}")
        if error:
            print(f"FAIL {error}")
            return 1
        steps = session.steps(agent)
        script.reset([s.call for s in steps], on_reach=lambda made: reached(steps, made))
        run_path = os.environ.get("PATH", "") if session.is_binary_missing else path
        started = time.monotonic()
        try:
            proc = subprocess.run(agent.command(), cwd=cwd, env=agent.env(run_path),
                                  capture_output=True, text=True, timeout=600,
                                  stdin=subprocess.DEVNULL)
        finally:
            agent.cleanup()
        seconds = time.monotonic() - started
        failures = judge(name, agent, steps, script, proc, seconds, session)
        return failures + check_uninstall(agent, path, session, files, before)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def check_uninstall(agent, path, session, files, before):
    """`patchgate guard uninstall` leaves every file install wrote as it was before, and no
    directory install made."""
    _, error = guard_install(agent, path, "uninstall", session.scope)
    touched = set(files)
    for file in files:
        # Directories install made in the project (in the home the agent keeps its own files,
        # so a directory there may rightly stay).
        touched.update(d for d in file.parents if d not in before and d.is_relative_to(agent.repo))
    changed = [str(p) for p in sorted(touched)
               if (p.read_bytes() if p.is_file() else (None if p.is_dir() else "absent"))
               != before.get(p, "absent")]
    if error or changed:
        print(f"FAIL uninstall put every file back ({error or 'changed: ' + ', '.join(changed)})")
        return 1
    print(f"ok   uninstall put back the {len(files)} file(s) install wrote, byte for byte")
    return 0


def reached(steps, made):
    """The conversation is back with `made` calls made: the last one has run (see what holds
    now), and the next is about to be sent (prepare for it)."""
    try:
        if 0 < made <= len(steps) and steps[made - 1].held is None:
            steps[made - 1].held = bool(steps[made - 1].holds())
        if made < len(steps) and steps[made].before:
            steps[made].before()
    except Exception as e:  # noqa: BLE001 (reported as a failed check, never a hung server)
        print(f"harness error at call {made}: {e!r}")


def judge(name, agent, steps, script, proc, seconds, session):
    conversation = script.conversation()
    last = conversation[-1][1] if conversation else {}
    made = model.calls_made(agent.api, last) if conversation else 0
    print(f"   {len(conversation)} model requests, {seconds:.0f} s, exit {proc.returncode}")
    failures = 0
    for index, step in enumerate(steps):
        told = model.after_call(agent.api, last, index) if index < made else None
        ok, why = check(step, told, index, made)
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {step.name}" + (f" ({why})" if why else ""))
        print(f"     model was told: {(told or '')[:220]!r}")
    shown = USER_MESSAGE in proc.stdout + proc.stderr
    if session.scope != "project" or session.is_binary_missing:
        pass
    elif agent.shows_user_messages and not shown:
        failures += 1
        print("FAIL the user was shown the correction (not in the agent's output)")
    elif agent.shows_user_messages:
        print("ok   the user was shown the correction")
    if failures:
        print(f"     {name} stderr: {proc.stderr[-1500:]}")
    return failures


def check(step, told, index, made):
    holds = step.held if step.held is not None else step.holds()
    if told is None and step.stops_run and index == made:
        return holds, "the run was stopped"
    if told is None:
        return False, f"the model never heard back about call {index + 1} (made {made})"
    expected = step.told
    if step.own_refusal and step.own_refusal in told:
        # The agent refused the call itself, before any hook: patchgate never saw it.
        expected = [step.own_refusal]
    shifts = told.count(SHIFT)
    if shifts != int(step.shift):
        return False, f"the strategy shift reached the model {shifts} times here"
    missing = [t for t in expected if t not in told]
    present = [t for t in step.not_told if t in told]
    if missing:
        return False, f"not told {missing}"
    if present:
        return False, f"told {present}"
    if not holds:
        return False, "the repository is not as it must be after this call"
    note = "refused by the agent itself" if expected != step.told else ""
    return True, note


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="directory holding the agent CLIs")
    parser.add_argument("--patchgate", required=True, type=pathlib.Path)
    parser.add_argument("--agent", action="append", choices=sorted(AGENTS))
    parser.add_argument("--record", help="keep the hook payloads under this directory")
    args = parser.parse_args()
    args.patchgate = args.patchgate.resolve()
    args.bin = str(pathlib.Path(args.bin).resolve())
    script = model.Script()
    server, port = model.serve(script)
    failures = 0
    for name in args.agent or list(AGENTS):
        failures += run_agent(name, args, script, port)
    server.shutdown()
    print(f"\n{failures} check(s) failed" if failures else "\nevery check held")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

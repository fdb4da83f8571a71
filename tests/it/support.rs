//! Shared helpers: the binary under test and throwaway repositories.
#![allow(dead_code, reason = "shared helpers; not every area uses every one")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `patchgate` binary built for this test run.
pub fn patchgate() -> Command {
    Command::new(env!("CARGO_BIN_EXE_patchgate"))
}

/// Run `cmd`, feeding `stdin`, and return its output.
pub fn run_with_stdin(cmd: &mut Command, stdin: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn patchgate");
    // A command that exits without reading its input (one refused before it reads) closes the
    // pipe first: the exit code and output tell what it did, not the write's broken pipe.
    if let Err(e) = child.stdin.take().expect("stdin piped").write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("wait for patchgate")
}

/// stdout parsed as one JSON document; panics with stdout and stderr shown when it is not.
pub fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n--- stdout\n{}\n--- stderr\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The process exit code.
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("patchgate exited normally, not by a signal")
}

/// The repository's `fixtures/` folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// A throwaway git repository with a committed tree.
pub struct TestRepo {
    pub dir: tempfile::TempDir,
    /// The `TMPDIR` of the patchgate it runs (where `--check-cmd`'s scratch trees go).
    pub tmp: tempfile::TempDir,
}

impl TestRepo {
    /// `git init` with a fixed identity and no user or system config leaking in.
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let repo = Self { dir, tmp: tempfile::tempdir().expect("tempdir") };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// [`TestRepo::new`] in a fresh directory below `parent`, so `..` from the root is `parent`.
    pub fn new_in(parent: &Path) -> Self {
        let dir = tempfile::tempdir_in(parent).expect("tempdir");
        let repo = Self { dir, tmp: tempfile::tempdir().expect("tempdir") };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// The working tree's root.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Write `content` to `rel` (creating parent directories).
    pub fn write(&self, rel: &str, content: &str) {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("file has a parent")).expect("mkdir");
        std::fs::write(path, content).expect("write file");
    }

    /// Write the files and commit them all.
    pub fn commit(&self, files: &[(&str, &str)], message: &str) {
        for (rel, content) in files {
            self.write(rel, content);
        }
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// Run git in the repository and return stdout; panics on failure.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.git_command(args).output().expect("run git");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// A git command in the repository with a fixed identity and no global config.
    pub fn git_command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(self.path())
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com");
        cmd
    }

    /// `patchgate` with `--repo` pointing here and cwd inside the repository.
    pub fn patchgate(&self) -> Command {
        let mut cmd = patchgate();
        cmd.current_dir(self.path()).env("GIT_CONFIG_GLOBAL", "/dev/null");
        cmd.env("TMPDIR", self.tmp.path());
        cmd
    }
}

/// One fixture case: a folder of `fixtures/AREA/`.
pub struct Case {
    /// The folder's name.
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
}

/// The cases of `fixtures/AREA/` that hold a file named `marker`, sorted by name.
pub fn cases(area: &str, marker: &str) -> Vec<Case> {
    let root = fixtures().join(area);
    let mut out: Vec<Case> = std::fs::read_dir(&root)
        .expect("test fixture io")
        .map(|e| e.expect("test fixture io").path())
        .filter(|p| p.join(marker).exists())
        .map(|dir| Case {
            name: dir.file_name().expect("test fixture io").to_string_lossy().into_owned(),
            dir,
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The file `name` of a case folder, when it can be read.
pub fn read(dir: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(name)).ok()
}

/// A repository set up by the case's `setup.sh` (run inside it), everything committed.
pub fn setup_case(case_dir: &Path) -> TestRepo {
    let repo = TestRepo::new();
    let script = case_dir.join("setup.sh");
    let status = Command::new("bash")
        .arg(&script)
        .current_dir(repo.path())
        .status()
        .expect("test fixture io");
    assert!(status.success(), "{} failed", script.display());
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "base"]);
    repo
}

/// The `data` of the envelope on stdout (`{"ok", "data", "error", "warnings", "meta"}`);
/// panics unless stdout is an envelope of a command that did its job.
pub fn data(output: &Output) -> serde_json::Value {
    let mut v = json(output);
    assert_eq!(v["ok"], true, "not a success envelope: {v}");
    assert_eq!(v["error"], serde_json::Value::Null, "{v}");
    assert_eq!(v["meta"]["version"], env!("CARGO_PKG_VERSION"), "{v}");
    assert!(v["meta"]["command"].is_string(), "{v}");
    v["data"].take()
}

/// Which of a command's streams goes to the terminal in [`on_terminal`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Terminal {
    Stdout,
    Stderr,
}

/// Run `cmd` with one stream on a pseudo-terminal (stdin empty, the other stream captured):
/// `(exit, what the terminal received, the other stream)`.
pub fn on_terminal(cmd: &mut Command, which: Terminal) -> (i32, String, Vec<u8>) {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    use std::io::Read;
    use std::process::Stdio;
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let path = std::path::PathBuf::from(name.to_str().expect("a UTF-8 pty name"));
    let slave = std::fs::OpenOptions::new().read(true).write(true).open(path).expect("open pty");
    let mut master = std::fs::File::from(master);
    let reader = std::thread::spawn(move || {
        let mut shown = Vec::new();
        // Once every writer has closed the terminal, reading it fails (EIO): the end.
        let _ = master.read_to_end(&mut shown);
        String::from_utf8_lossy(&shown).into_owned()
    });
    let output = {
        cmd.stdin(Stdio::null());
        match which {
            Terminal::Stdout => cmd.stdout(Stdio::from(slave)).stderr(Stdio::piped()),
            Terminal::Stderr => cmd.stderr(Stdio::from(slave)).stdout(Stdio::piped()),
        };
        cmd.spawn().expect("spawn patchgate").wait_with_output().expect("wait for patchgate")
    };
    // The command still holds this process's copy of the terminal: drop it.
    *cmd = Command::new("true");
    let other = if which == Terminal::Stdout { output.stderr } else { output.stdout };
    (output.status.code().expect("exited"), reader.join().expect("reader"), other)
}

//! Which files each agent reads its hooks from, and how install and uninstall plan each one.

use super::hooks::{
    CLAUDE, CODEX, CURSOR, GEMINI, Template, cline_script, is_guard_script, wrapper,
};
use super::write::Plan;
use super::{Action, Agent, Context, InstallError, Locations, Scope, codex, json, record};
use std::path::{Path, PathBuf};

/// What a file holds.
#[derive(Clone, Debug)]
enum Kind {
    Json(Template),
    /// Codex's `config.toml`: the hooks feature and the trust of the hooks in this file.
    CodexConfig {
        hooks_file: PathBuf,
    },
    /// A Cline hook script.
    Script,
}

/// One file install writes.
#[derive(Clone, Debug)]
pub(super) struct Target {
    pub path: PathBuf,
    kind: Kind,
    /// Below this directory no component of the path may be a symbolic link.
    root: PathBuf,
}

/// The files `agent` reads its hooks from in `scope`, in the order they are written.
pub(super) fn targets(agent: Agent, scope: Scope, at: &Locations) -> Vec<Target> {
    let project = scope == Scope::Project;
    let root = if project { at.project.clone() } else { at.home.clone() };
    let base = |dot: &str, user: &Path| if project { at.project.join(dot) } else { user.into() };
    let json = |path: PathBuf, t| Target { path, kind: Kind::Json(t), root: root.clone() };
    match agent {
        Agent::ClaudeCode => {
            vec![json(base(".claude", &at.claude_home).join("settings.json"), CLAUDE)]
        }
        Agent::GeminiCli => {
            vec![json(base(".gemini", &at.home.join(".gemini")).join("settings.json"), GEMINI)]
        }
        Agent::Codex => {
            let hooks_file = base(".codex", &at.codex_home).join("hooks.json");
            let config = Target {
                path: at.codex_home.join("config.toml"),
                kind: Kind::CodexConfig { hooks_file: hooks_file.clone() },
                root: at.home.clone(),
            };
            vec![json(hooks_file, CODEX), config]
        }
        Agent::Cursor => {
            vec![json(base(".cursor", &at.home.join(".cursor")).join("hooks.json"), CURSOR)]
        }
        Agent::Cline => {
            let dir = if project {
                at.project.join(".clinerules/hooks")
            } else {
                at.cline_home.join("hooks")
            };
            ["PreToolUse", "PostToolUse"]
                .iter()
                .map(|event| Target {
                    path: dir.join(event),
                    kind: Kind::Script,
                    root: root.clone(),
                })
                .collect()
        }
    }
}

/// What the user should know after installing `agent`'s hooks in `scope`.
pub(super) fn notes(agent: Agent, scope: Scope) -> Vec<String> {
    let mut notes = Vec::new();
    if scope == Scope::Project && matches!(agent, Agent::ClaudeCode | Agent::GeminiCli) {
        notes.push(format!(
            "{agent}: a project's hooks run only in sessions started at the project's top \
             directory; a session started in a subdirectory runs none. To guard those too, \
             install with --scope user."
        ));
    }
    match agent {
        Agent::GeminiCli if scope == Scope::Project => notes.push(
            "gemini-cli: Gemini CLI runs a project's hooks only in a folder the user trusts."
                .to_owned(),
        ),
        Agent::Codex => notes.push(
            "codex: the hooks are marked trusted in config.toml, as Codex's /hooks stores it; \
             Codex asks again if the hooks file changes."
                .to_owned(),
        ),
        Agent::Cursor => notes.push(
            "cursor: written from Cursor's documentation; not run by patchgate's tests (no \
             Cursor build runs headless here)."
                .to_owned(),
        ),
        _ => {}
    }
    notes
}

impl Target {
    /// Plan the file with patchgate's hooks in it; what that does.
    pub fn install(&self, ctx: &Context, plan: &mut Plan) -> Result<Action, InstallError> {
        let before = read(&self.root, &self.path)?;
        let after = self.installed(before.as_ref().map(|(text, _)| text.as_str()), ctx, plan)?;
        if before.as_ref().is_some_and(|(text, _)| *text == after) {
            return Ok(Action::Unchanged);
        }
        let action = if before.is_some() { Action::Merged } else { Action::Created };
        let has_guard = before.as_ref().is_some_and(|(text, _)| self.has_guard(text));
        // A file that already held patchgate's hooks keeps the record of what it was before
        // them (if any): this content is not the user's own.
        let record = (!has_guard).then(|| record::Record {
            original: before.as_ref().map(|(text, _)| text.clone()),
            mode: before.as_ref().map(|(_, mode)| *mode),
            binary: ctx.binary.clone(),
            created_dirs: Vec::new(),
        });
        plan.write(&self.root, &self.path, before, Some(after), self.mode(), record);
        Ok(action)
    }

    /// Plan the file without patchgate's hooks; what that does.
    pub fn uninstall(&self, ctx: &Context, plan: &mut Plan) -> Result<Action, InstallError> {
        let Some((text, mode)) = read(&self.root, &self.path)? else {
            plan.forget(&self.path);
            return Ok(Action::Absent);
        };
        let records = &ctx.locations.records;
        if let Some(found) = record::load(records, &self.path).filter(|r| self.proves(r, &text)) {
            let dirs = found.dirs_below(&self.root, &self.path);
            let original = found.original.clone();
            plan.restore(&self.path, (text, mode), original, found.mode, dirs);
            return Ok(Action::Restored);
        }
        let Some(after) = self.stripped(&text)? else {
            plan.forget(&self.path);
            return Ok(Action::Absent);
        };
        let after = (!self.is_empty(&after)).then_some(after);
        plan.write(&self.root, &self.path, Some((text, mode)), after, mode, None);
        plan.forget(&self.path);
        Ok(Action::Stripped)
    }

    /// The content with patchgate's hooks installed into `before`.
    fn installed(
        &self,
        before: Option<&str>,
        ctx: &Context,
        plan: &Plan,
    ) -> Result<String, InstallError> {
        let refuse = |why: String| InstallError::settings(&self.path, why);
        match &self.kind {
            Kind::Json(template) => {
                json::merge(before, template, &wrapper(&ctx.binary)).map_err(refuse)
            }
            Kind::CodexConfig { hooks_file } => {
                let hooks =
                    plan.content(hooks_file).or_else(|| std::fs::read_to_string(hooks_file).ok());
                codex::merge(before, hooks_file, hooks.as_deref().unwrap_or("{}")).map_err(refuse)
            }
            Kind::Script => match before {
                Some(text) if !is_guard_script(text) => Err(refuse(
                    "is a Cline hook of someone else; patchgate does not merge scripts: run \
                     patchgate guard from it yourself, or move it aside and install again"
                        .to_owned(),
                )),
                _ => Ok(cline_script(&ctx.binary)),
            },
        }
    }

    /// Whether a record's claim holds: installing into what it says the file was gives the file
    /// as it is, and that content holds no hook of patchgate's.
    fn proves(&self, record: &record::Record, now: &str) -> bool {
        let original = record.original.as_deref();
        if original.is_some_and(|text| {
            self.has_guard(text) || crate::json::duplicate_key(text.as_bytes()).is_some()
        }) {
            return false;
        }
        let ctx_binary = record.binary.clone();
        let replay = match &self.kind {
            Kind::Json(template) => json::merge(original, template, &wrapper(&ctx_binary)).ok(),
            Kind::CodexConfig { hooks_file } => {
                let hooks = std::fs::read_to_string(hooks_file).unwrap_or_else(|_| "{}".into());
                codex::merge(original, hooks_file, &hooks).ok()
            }
            Kind::Script => Some(cline_script(&ctx_binary)),
        };
        replay.as_deref() == Some(now)
    }

    /// Whether `text` holds a hook of patchgate's guard (or trust of one, for Codex's config).
    fn has_guard(&self, text: &str) -> bool {
        match &self.kind {
            Kind::Json(_) => json::has_guard(text),
            Kind::CodexConfig { hooks_file } => codex::trusts_file(text, hooks_file),
            Kind::Script => is_guard_script(text),
        }
    }

    /// `text` without patchgate's hooks (`None`: there were none).
    fn stripped(&self, text: &str) -> Result<Option<String>, InstallError> {
        let refuse = |why: String| InstallError::settings(&self.path, why);
        match &self.kind {
            Kind::Json(_) => json::strip(text).map_err(refuse),
            Kind::CodexConfig { hooks_file } => {
                let hooks = std::fs::read_to_string(hooks_file).unwrap_or_else(|_| "{}".into());
                codex::strip(text, hooks_file, &hooks).map_err(refuse)
            }
            Kind::Script => Ok(is_guard_script(text).then(String::new)),
        }
    }

    /// Whether what is left says nothing, so the file can go.
    fn is_empty(&self, text: &str) -> bool {
        match &self.kind {
            Kind::Json(template) => json::is_empty(text, template),
            Kind::CodexConfig { .. } => false,
            Kind::Script => text.is_empty(),
        }
    }

    fn mode(&self) -> u32 {
        if matches!(self.kind, Kind::Script) { 0o755 } else { 0o644 }
    }
}

/// The file's text and permission bits, `None` when it does not exist. A path through a
/// symbolic link below `root` (a project's `.claude` pointing elsewhere) is refused: install
/// writes only where the agent reads.
fn read(root: &Path, path: &Path) -> Result<Option<(String, u32)>, InstallError> {
    use std::os::unix::fs::PermissionsExt as _;
    check_no_links(root, path)?;
    match std::fs::read(path) {
        Ok(bytes) => {
            let text = String::from_utf8(bytes).map_err(|_| {
                InstallError::settings(path, "is not UTF-8 text; fix or move it, then run again")
            })?;
            let mode = std::fs::metadata(path).map_err(|e| InstallError::io(path, e))?;
            Ok(Some((text, mode.permissions().mode() & 0o7777)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(InstallError::io(path, e)),
    }
}

fn check_no_links(root: &Path, path: &Path) -> Result<(), InstallError> {
    let Ok(below) = path.strip_prefix(root) else { return Ok(()) };
    let mut at = root.to_path_buf();
    for component in below.components() {
        at.push(component);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(InstallError::settings(
                    &at,
                    "is a symbolic link; patchgate writes agent settings only as regular files \
                     in their own place: replace the link by the file (or directory) it points \
                     to, or add the hooks by hand",
                ));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(InstallError::io(&at, e)),
        }
    }
    Ok(())
}

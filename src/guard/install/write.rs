//! Every file of one install or uninstall written, or none: each new content goes to a
//! temporary file beside its target and is renamed over it; if any step fails, the files
//! already changed get their bytes and permissions back and the directories made are removed.

use super::InstallError;
use super::record::{self, Record};
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// One file's change.
#[derive(Debug)]
struct Edit {
    path: PathBuf,
    /// Text and permission bits before, `None` when missing.
    before: Option<(String, u32)>,
    /// Text after, `None` to remove the file.
    after: Option<String>,
    mode: u32,
    /// Directories to make first, shallowest first.
    make_dirs: Vec<PathBuf>,
    /// Directories to remove after, when empty, deepest first.
    remove_dirs: Vec<PathBuf>,
    record: RecordChange,
}

#[derive(Debug)]
enum RecordChange {
    Keep,
    Save(Record),
    Remove,
}

/// The changes of one request.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    edits: Vec<Edit>,
}

impl Plan {
    /// The planned text of `path`, when it is part of the plan and kept.
    pub fn content(&self, path: &Path) -> Option<String> {
        self.edits.iter().rev().find(|e| e.path == path).and_then(|e| e.after.clone())
    }

    /// Write `after` to `path` (remove it when `None`), with `record` kept for uninstall.
    pub fn write(
        &mut self,
        root: &Path,
        path: &Path,
        before: Option<(String, u32)>,
        after: Option<String>,
        mode: u32,
        record: Option<Record>,
    ) {
        let missing = if after.is_some() { missing_dirs(root, path) } else { Vec::new() };
        let record = match record {
            Some(mut record) => {
                record.created_dirs.clone_from(&missing);
                RecordChange::Save(record)
            }
            None => RecordChange::Keep,
        };
        // A directory an earlier file of the plan makes (Cline's two hooks share one).
        let make_dirs = missing
            .into_iter()
            .filter(|dir| !self.edits.iter().any(|e| e.make_dirs.contains(dir)))
            .collect();
        let mode = before.as_ref().map_or(mode, |(_, m)| *m);
        self.edits.push(Edit {
            path: path.to_owned(),
            before,
            after,
            mode,
            make_dirs,
            remove_dirs: Vec::new(),
            record,
        });
    }

    /// Put back what install found: `original` (or no file), and remove the directories it made.
    pub fn restore(
        &mut self,
        path: &Path,
        before: (String, u32),
        original: Option<String>,
        mode: Option<u32>,
        remove_dirs: Vec<PathBuf>,
    ) {
        let mode = mode.unwrap_or(before.1);
        let remove_dirs = if original.is_none() { remove_dirs } else { Vec::new() };
        self.edits.push(Edit {
            path: path.to_owned(),
            before: Some(before),
            after: original,
            mode,
            make_dirs: Vec::new(),
            remove_dirs,
            record: RecordChange::Remove,
        });
    }

    /// Drop the record of `path` (uninstall is done with it).
    pub fn forget(&mut self, path: &Path) {
        if let Some(edit) = self.edits.iter_mut().rev().find(|e| e.path == path) {
            edit.record = RecordChange::Remove;
            return;
        }
        self.edits.push(Edit {
            path: path.to_owned(),
            before: None,
            after: None,
            mode: 0,
            make_dirs: Vec::new(),
            remove_dirs: Vec::new(),
            record: RecordChange::Remove,
        });
    }

    /// Do it all, or put everything back. Records are saved first (a record left by a failed
    /// install is harmless: it is believed only when it matches the file).
    pub fn apply(self, records: &Path) -> Result<(), InstallError> {
        for edit in &self.edits {
            if let RecordChange::Save(record) = &edit.record {
                save_record(records, &edit.path, record)?;
            }
        }
        let mut done: Vec<(&Edit, Vec<PathBuf>)> = Vec::new();
        for edit in self.edits.iter().filter(|e| e.before.is_some() || e.after.is_some()) {
            match change(edit) {
                Ok(made) => done.push((edit, made)),
                Err(e) => {
                    for (edit, made) in done.into_iter().rev() {
                        undo(edit, &made);
                    }
                    return Err(e);
                }
            }
        }
        for edit in &self.edits {
            for dir in &edit.remove_dirs {
                // Only an empty directory goes: anything put there since stays.
                let _ = std::fs::remove_dir(dir);
            }
            if matches!(edit.record, RecordChange::Remove) {
                let _ = std::fs::remove_file(record::location(records, &edit.path));
            }
        }
        Ok(())
    }
}

/// The directories between `root` and `path` that do not exist, shallowest first.
fn missing_dirs(root: &Path, path: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = path
        .ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(root) && *d != root && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    dirs.reverse();
    dirs
}

fn save_record(records: &Path, path: &Path, record: &Record) -> Result<(), InstallError> {
    let at = record::location(records, path);
    let text = serde_json::to_string(record).expect("a record serializes");
    std::fs::create_dir_all(records).map_err(|e| InstallError::io(records, e))?;
    atomic_write(&at, &text, 0o600).map_err(|e| InstallError::io(&at, e))
}

/// Make the edit; the directories it made.
fn change(edit: &Edit) -> Result<Vec<PathBuf>, InstallError> {
    let mut made = Vec::new();
    for dir in &edit.make_dirs {
        if let Err(e) = std::fs::create_dir(dir) {
            undo_dirs(&made);
            return Err(InstallError::io(dir, e));
        }
        made.push(dir.clone());
    }
    let result = match &edit.after {
        Some(text) => atomic_write(&edit.path, text, edit.mode),
        None => std::fs::remove_file(&edit.path),
    };
    result.map_err(|e| {
        undo_dirs(&made);
        InstallError::io(&edit.path, e)
    })?;
    Ok(made)
}

/// Put one edit back: the old bytes and permissions, or no file; the directories it made go.
fn undo(edit: &Edit, made: &[PathBuf]) {
    let _ = match &edit.before {
        Some((text, bits)) => atomic_write(&edit.path, text, *bits),
        None => std::fs::remove_file(&edit.path),
    };
    undo_dirs(made);
}

fn undo_dirs(made: &[PathBuf]) {
    for dir in made.iter().rev() {
        let _ = std::fs::remove_dir(dir);
    }
}

fn atomic_write(path: &Path, text: &str, mode: u32) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.write_all(text.as_bytes())?;
    file.as_file().set_permissions(std::fs::Permissions::from_mode(mode))?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

//! What an acceptance says. Every accepted verdict's reason is worded here, once, from what the
//! run did (the patch's size, a repair, the repository check, the write), so no later step
//! rewrites a reason another one wrote.

use std::fmt::Write as _;

/// The facts an accepted result's reason reports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Acceptance {
    /// The patch's size; `None`: a failure reported without a patch.
    pub size: Option<PatchSize>,
    /// What a repair changed (`recounted 2 hunks of src/a.rs`), when it changed anything.
    pub repairs: Option<String>,
    /// The patch was not checked against a repository (validated with `--no-repo`).
    pub is_unchecked: bool,
    /// Where the patch was written: `Some(false)` the worktree, `Some(true)` the worktree and
    /// the index; `None` not written.
    pub written: Option<bool>,
}

/// How large an accepted patch is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatchSize {
    /// File entries.
    pub files: usize,
    /// Added lines.
    pub added: usize,
    /// Removed lines.
    pub removed: usize,
}

impl Acceptance {
    /// The reason: `accepted: 1 file, +2 -0`, `accepted after repair: recounted 1 hunk of a.rs;
    /// 1 file, +2 -0`, `... (not checked against a repository)`, `...; applied to the worktree
    /// and the index`, or `accepted: failure reported, no patch`.
    #[must_use]
    pub fn reason(&self) -> String {
        let mut out = match &self.repairs {
            Some(repairs) => format!("accepted after repair: {repairs}; "),
            None => "accepted: ".to_owned(),
        };
        match self.size {
            None => out.push_str("failure reported, no patch"),
            Some(size) => {
                let s = if size.files == 1 { "" } else { "s" };
                let _ = write!(out, "{} file{s}, +{} -{}", size.files, size.added, size.removed);
                if self.is_unchecked {
                    out.push_str(" (not checked against a repository)");
                }
            }
        }
        match self.written {
            Some(true) => out.push_str("; applied to the worktree and the index"),
            Some(false) => out.push_str("; applied to the worktree"),
            None => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_fact_has_its_place_in_the_one_wording() {
        let size = Some(PatchSize { files: 2, added: 3, removed: 1 });
        let plain = Acceptance { size, ..Acceptance::default() };
        assert_eq!(plain.reason(), "accepted: 2 files, +3 -1");
        let repaired = Acceptance {
            repairs: Some("recounted 1 hunk of a.rs".into()),
            written: Some(true),
            ..plain.clone()
        };
        assert_eq!(
            repaired.reason(),
            "accepted after repair: recounted 1 hunk of a.rs; 2 files, +3 -1; applied to the \
             worktree and the index"
        );
        let one = Some(PatchSize { files: 1, added: 0, removed: 4 });
        let unchecked = Acceptance { size: one, is_unchecked: true, ..Acceptance::default() };
        assert_eq!(
            unchecked.reason(),
            "accepted: 1 file, +0 -4 (not checked against a repository)"
        );
        assert_eq!(Acceptance::default().reason(), "accepted: failure reported, no patch");
    }
}

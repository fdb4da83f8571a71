//! The base tree's files as the rules that look past the patch read them (callers a rename
//! left behind, subclasses that implement a method): each file read at most once per patch,
//! and at most [`MAX_SCANNED`] bytes of the base tree read in all, whichever rules ask.

use crate::summary::Base;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::rc::Rc;

/// Bytes of the base tree one patch's rules read, at most.
pub(crate) const MAX_SCANNED: usize = 64 << 20;

/// The base tree's files, read on demand and kept for the other rules of the same patch.
#[derive(Debug, Clone)]
pub(crate) struct BaseFiles<'a> {
    base: &'a dyn Base,
    read: Rc<RefCell<Read>>,
}

/// What has been read so far: each file's content (`None`: not a regular file), and the bytes
/// left to read.
#[derive(Debug)]
struct Read {
    content: HashMap<String, Option<Rc<[u8]>>>,
    budget: usize,
}

impl<'a> BaseFiles<'a> {
    /// Files of `base`, none read yet, with a budget of [`MAX_SCANNED`] bytes.
    pub(crate) fn new(base: &'a dyn Base) -> Self {
        Self::with_budget(base, MAX_SCANNED)
    }

    fn with_budget(base: &'a dyn Base, budget: usize) -> Self {
        let read = Read { content: HashMap::new(), budget };
        Self { base, read: Rc::new(RefCell::new(read)) }
    }

    /// The base tree itself.
    pub(crate) fn base(&self) -> &'a dyn Base {
        self.base
    }

    /// Visit the base tree's files whose path `wanted` accepts, in the tree's order, with their
    /// content, until `visit` breaks or the budget is spent. A file another scan of the patch
    /// has read is not read (nor counted) again; a file read for the first time once the
    /// budget is spent is not read, and the scan ends there.
    pub(crate) fn scan(
        &self,
        wanted: impl Fn(&str) -> bool,
        mut visit: impl FnMut(&str, &[u8]) -> ControlFlow<()>,
    ) {
        for path in self.base.files().iter().filter(|p| wanted(p)) {
            let ControlFlow::Continue(content) = self.content(path) else { return };
            let Some(text) = content else { continue };
            if visit(path, &text).is_break() {
                return;
            }
        }
    }

    /// The content of `path` (`None`: no regular file), or a break when the budget is spent
    /// before it could be read.
    fn content(&self, path: &str) -> ControlFlow<(), Option<Rc<[u8]>>> {
        if let Some(known) = self.read.borrow().content.get(path) {
            return ControlFlow::Continue(known.clone());
        }
        if self.read.borrow().budget == 0 {
            return ControlFlow::Break(());
        }
        let text: Option<Rc<[u8]>> = self.base.content(path).map(Rc::from);
        let mut read = self.read.borrow_mut();
        let size = text.as_ref().map_or(0, |t| t.len());
        read.budget = read.budget.saturating_sub(size);
        read.content.insert(path.to_owned(), text.clone());
        ControlFlow::Continue(text)
    }
}

/// A file's extension, lower-cased: what tells its language apart.
pub(crate) fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::{BaseFiles, extension};
    use crate::summary::Base;
    use std::cell::Cell;
    use std::ops::ControlFlow;

    #[derive(Debug, Default)]
    struct Counting {
        files: Vec<String>,
        reads: Cell<usize>,
    }

    impl Base for Counting {
        fn contains(&self, path: &str) -> bool {
            self.files.iter().any(|f| f == path)
        }
        fn files(&self) -> &[String] {
            &self.files
        }
        fn content(&self, path: &str) -> Option<Vec<u8>> {
            self.reads.set(self.reads.get() + 1);
            self.contains(path).then(|| format!("text of {path}").into_bytes())
        }
    }

    fn tree() -> Counting {
        let files = ["a.py", "b.rb", "c.py", "d.py"].map(str::to_owned).to_vec();
        Counting { files, reads: Cell::new(0) }
    }

    fn seen(files: &BaseFiles<'_>, ext: &str) -> Vec<String> {
        let mut out = Vec::new();
        files.scan(
            |p| extension(p).as_deref() == Some(ext),
            |p, _| {
                out.push(p.to_owned());
                ControlFlow::Continue(())
            },
        );
        out
    }

    #[test]
    fn each_file_is_read_once_per_patch() {
        let base = tree();
        let files = BaseFiles::new(&base);
        assert_eq!(seen(&files, "py"), ["a.py", "c.py", "d.py"]);
        assert_eq!(base.reads.get(), 3);
        // A second scan of the same language reads nothing again; another language reads its own.
        assert_eq!(seen(&files, "py"), ["a.py", "c.py", "d.py"]);
        assert_eq!(base.reads.get(), 3);
        assert_eq!(seen(&files, "rb"), ["b.rb"]);
        assert_eq!(base.reads.get(), 4);
        // A scan that stops early reads no further.
        let fresh = tree();
        let files = BaseFiles::new(&fresh);
        files.scan(|_| true, |_, _| ControlFlow::Break(()));
        assert_eq!(fresh.reads.get(), 1);
    }

    #[test]
    fn the_budget_is_shared_by_every_scan() {
        let base = tree();
        // "text of a.py" is 12 bytes: the budget covers the first file, not the second.
        let files = BaseFiles::with_budget(&base, 12);
        assert_eq!(seen(&files, "py"), ["a.py"]);
        assert_eq!(seen(&files, "rb"), Vec::<String>::new());
        // What was read stays readable.
        assert_eq!(seen(&files, "py"), ["a.py"]);
        assert_eq!(base.reads.get(), 1);
    }

    #[test]
    fn extensions_are_read_from_the_file_name() {
        assert_eq!(extension("src/Lib.PY").as_deref(), Some("py"));
        assert_eq!(extension("v1.2/Makefile"), None);
    }
}

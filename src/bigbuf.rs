//! Large buffers backed by transparent huge pages where the system allows it.
//!
//! A freshly allocated buffer costs one minor page fault per 4 KiB page the first time it is
//! written: reading a 40 MB patch into a new `Vec` takes ~9,700 faults, about half of
//! `patchgate parse`'s CPU time on such a patch. On Linux, when transparent huge pages are
//! enabled in `madvise` (or `always`) mode, advising the buffer with `MADV_HUGEPAGE` *before*
//! it is first touched lets the kernel fault it in 2 MiB at a time instead.
//!
//! Only the 2 MiB-aligned interior of the allocation can be backed by huge pages; its ragged
//! ends stay on 4 KiB pages. Small buffers are left alone: their few faults are cheap, and the
//! allocator serves them from its heap, shared with everything else. The advice is only a hint:
//! a kernel without transparent huge pages, or one that refuses the advice, leaves the buffer
//! exactly as it was, and other systems never advise at all. The contents and the behaviour
//! of a buffer never depend on it.
//!
//! The input file is deliberately not `mmap`ed: a file truncated while it is mapped would kill
//! the process with `SIGBUS`.
#![allow(unsafe_code)] // One `madvise` call: see `advise_huge`.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Buffers at least this large are advised to use huge pages (2 MiB each: smaller buffers
/// would gain at most one or two aligned huge pages).
pub const HUGE_THRESHOLD: usize = 4 << 20;

/// The size of a transparent huge page on the platforms that advise (x86-64 and arm64 with
/// 4 KiB base pages); a larger page size only makes the advised interior smaller.
const HUGE_PAGE: usize = 2 << 20;

/// An empty `Vec` with room for exactly `capacity` items (as [`Vec::with_capacity`]), whose
/// allocation is advised to use huge pages when it is at least [`HUGE_THRESHOLD`] bytes.
#[must_use]
pub fn vec_with_capacity<T>(capacity: usize) -> Vec<T> {
    let v = Vec::with_capacity(capacity);
    advise_huge(&v);
    v
}

/// Read the file at `path` whole, as [`std::fs::read`] does, with the same errors. A file of
/// at least [`HUGE_THRESHOLD`] bytes (by its metadata) is read into a buffer of exactly its
/// size advised to use huge pages; a file that grows while it is read is still read whole.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    // As `std::fs::read`: the size is a hint only, and a file whose size is unknown is read
    // with a growing buffer.
    let size = file.metadata().ok().and_then(|m| usize::try_from(m.len()).ok()).unwrap_or(0);
    let mut buf = Vec::new();
    buf.try_reserve_exact(size).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    advise_huge(&buf);
    file.read_to_end(&mut buf)?;
    Ok(buf)
}

/// Advise the kernel to back the 2 MiB-aligned interior of `v`'s allocation with huge pages,
/// when the allocation is at least [`HUGE_THRESHOLD`] bytes. Call it before the allocation is
/// written. A no-op elsewhere than Linux; a refused advice is ignored.
pub fn advise_huge<T>(v: &Vec<T>) {
    let bytes = v.capacity().saturating_mul(size_of::<T>());
    if bytes < HUGE_THRESHOLD {
        return;
    }
    let start = v.as_ptr() as usize;
    let Some(end) = start.checked_add(bytes) else { return };
    let Some(first) = start.checked_next_multiple_of(HUGE_PAGE) else { return };
    let last = end - end % HUGE_PAGE;
    if first < last {
        madvise_huge(first, last - first);
    }
}

#[cfg(target_os = "linux")]
fn madvise_huge(addr: usize, len: usize) {
    // SAFETY: `addr..addr + len` lies inside one live heap allocation owned by the caller's
    // `Vec` (the range is page-aligned, as `madvise` requires). `MADV_HUGEPAGE` only changes
    // how the kernel backs those pages; it never changes or discards their contents, so no
    // Rust value is affected. The result is a hint's: a failure (no transparent huge pages,
    // an old kernel) leaves the memory exactly as it was, and is ignored.
    let _ = unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn madvise_huge(_addr: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that differ at every position, so a shifted or truncated read shows.
    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    #[test]
    fn a_file_above_the_threshold_reads_exactly_its_bytes() {
        let dir = tempfile::tempdir().expect("tempdir");
        for len in [HUGE_THRESHOLD, HUGE_THRESHOLD + 1, 3 * HUGE_PAGE + 12_345] {
            let path = dir.path().join(format!("big-{len}"));
            let bytes = pattern(len);
            std::fs::write(&path, &bytes).expect("write");
            let read = read_file(&path).expect("read");
            assert_eq!(read.len(), len);
            assert!(read == bytes, "length {len}: the bytes read differ from the file's");
            assert_eq!(read.capacity(), len, "length {len}: the buffer is exactly the file's size");
        }
    }

    #[test]
    fn small_and_empty_files_read_as_std_reads_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        for len in [0, 1, 4095, 4096, 100_000] {
            let path = dir.path().join(format!("small-{len}"));
            std::fs::write(&path, pattern(len)).expect("write");
            assert_eq!(read_file(&path).expect("read"), std::fs::read(&path).expect("std read"));
        }
    }

    #[test]
    fn errors_are_those_of_std_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("missing");
        let error = read_file(&missing).expect_err("missing file");
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
        assert_eq!(error.to_string(), std::fs::read(&missing).expect_err("std").to_string());
        // A directory opens, then fails to read, as with `std::fs::read`.
        let error = read_file(dir.path()).expect_err("a directory");
        assert_eq!(error.to_string(), std::fs::read(dir.path()).expect_err("std").to_string());
    }

    #[test]
    fn advised_vectors_hold_what_is_written() {
        for capacity in [0, 10, HUGE_THRESHOLD / 8, HUGE_THRESHOLD / 8 + 3, HUGE_THRESHOLD] {
            let mut v: Vec<u64> = vec_with_capacity(capacity);
            assert!(v.is_empty());
            assert!(v.capacity() >= capacity);
            v.extend((0..capacity as u64).map(|i| i ^ 0x5a5a));
            assert!(v.iter().enumerate().all(|(i, &x)| x == i as u64 ^ 0x5a5a));
        }
    }
}

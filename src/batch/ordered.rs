//! Work on a stream of items in parallel, answers handed on in input order, in bounded memory.
//!
//! A reader thread takes the items, `jobs` workers judge them, and the calling thread hands
//! the answers on in input order. Before the reader takes an item it waits for one of
//! `window` slots, and a slot comes back only when that item's answer has been handed on: so
//! at most `window` items are read, being judged, or waiting for an earlier one, whatever the
//! input's length.

use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, channel, sync_channel};
use std::sync::{Arc, Mutex};

/// How the work is spread.
#[derive(Clone, Copy, Debug)]
pub struct Parallel {
    /// Worker threads.
    pub jobs: usize,
    /// Items held at once, from being read to being handed on (at least `jobs`).
    pub window: usize,
}

impl Parallel {
    /// `jobs` workers (at least one) and a window of twice that: a slow item holds back at
    /// most `jobs` finished ones while the other workers go on.
    #[must_use]
    pub fn new(jobs: usize) -> Self {
        let jobs = jobs.max(1);
        Self { jobs, window: 2 * jobs }
    }
}

/// Judge every item of `items` with `work` on `parallel.jobs` threads, each with its own state
/// from `state`, and give each answer to `emit` in input order.
pub fn run_ordered<T, A, S>(
    items: impl Iterator<Item = T> + Send,
    parallel: Parallel,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, T) -> A + Sync,
    mut emit: impl FnMut(A),
) where
    T: Send,
    A: Send,
{
    let window = parallel.window.max(parallel.jobs).max(1);
    let (slot_back, slots) = sync_channel::<()>(window);
    for _ in 0..window {
        slot_back.send(()).expect("the receiver is alive");
    }
    let (to_work, queue) = sync_channel::<(usize, T)>(parallel.jobs);
    let queue = Arc::new(Mutex::new(queue));
    let (to_emit, answers) = channel::<(usize, A)>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            // The slot first: an item is read only when there is room for it.
            let mut items = items.enumerate();
            while slots.recv().is_ok() {
                let Some(item) = items.next() else { return };
                if to_work.send(item).is_err() {
                    return;
                }
            }
        });
        for _ in 0..parallel.jobs {
            let (queue, to_emit, state, work) =
                (Arc::clone(&queue), to_emit.clone(), &state, &work);
            scope.spawn(move || {
                let mut state = state();
                while let Some((seq, item)) = next(&queue) {
                    if to_emit.send((seq, work(&mut state, item))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(to_emit);
        in_order(&answers, |answer| {
            emit(answer);
            // The reader may have finished: a slot nobody waits for is no error.
            let _ = slot_back.try_send(());
        });
    });
}

/// The next item for a worker, `None` once the reader is done.
fn next<T>(queue: &Mutex<Receiver<(usize, T)>>) -> Option<(usize, T)> {
    // A worker that panicked while holding the lock poisons it; the others still drain it.
    let queue = queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    queue.recv().ok()
}

/// Hand on the answers in sequence order as they arrive out of it.
fn in_order<A>(answers: &Receiver<(usize, A)>, mut emit: impl FnMut(A)) {
    let mut waiting = BTreeMap::new();
    let mut expected = 0;
    for (seq, answer) in answers {
        waiting.insert(seq, answer);
        while let Some(answer) = waiting.remove(&expected) {
            emit(answer);
            expected += 1;
        }
    }
}

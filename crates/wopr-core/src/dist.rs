//! One run over several processes: the ranks of an MPI job, or threads
//! standing in for them in tests.
//!
//! Every rank runs the whole program on the same config and keeps the same
//! state; only the costly, independent tasks of a generation (the games of
//! a fitness scheme) are shared out. [`map_init`] gives each rank one
//! contiguous block of the tasks, computes it on the rank's own rayon
//! threads, and gathers every block back in task order, so each rank ends
//! with the very vector one process would have computed: the run is byte
//! for byte the single-process run at any number of ranks and threads. Rank
//! 0 alone writes the run folder ([`is_leader`]).
//!
//! The ranks talk through a [`Comm`], installed per thread with
//! [`install`] (the thread that runs the learner): the `wopr` command
//! installs one over MPI when built with its `mpi` feature, and
//! [`InProcess`] joins threads of one process for tests. Without one, a
//! process is a single rank and [`map_init`] is a plain parallel map.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Barrier, Mutex};

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// How the ranks of a run exchange results.
pub trait Comm {
    /// This rank, from 0.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Every rank's `mine`, in rank order. Collective: every rank calls it,
    /// in the same order. An error (a rank gone) ends the run.
    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>, String>;
}

thread_local! {
    static COMM: RefCell<Option<Rc<dyn Comm>>> = const { RefCell::new(None) };
}

/// Makes `comm` this thread's ranks (none: a single rank).
pub fn install(comm: Option<Rc<dyn Comm>>) {
    COMM.with(|c| *c.borrow_mut() = comm);
}

fn current() -> Option<Rc<dyn Comm>> {
    COMM.with(|c| c.borrow().clone())
}

/// This thread's rank (0 without a [`Comm`]).
pub fn rank() -> usize {
    current().map_or(0, |c| c.rank())
}

/// The number of ranks (1 without a [`Comm`]).
pub fn size() -> usize {
    current().map_or(1, |c| c.size())
}

/// Whether this rank writes the run's files and speaks to the user.
pub fn is_leader() -> bool {
    rank() == 0
}

/// Every rank's `value`, in rank order (just `value` on a single rank).
pub fn all_gather<T: Serialize + DeserializeOwned + Clone>(value: &T) -> Result<Vec<T>, String> {
    let Some(comm) = current().filter(|c| c.size() > 1) else {
        return Ok(vec![value.clone()]);
    };
    let bytes = postcard::to_allocvec(value).map_err(|e| e.to_string())?;
    comm.all_gather(bytes)?
        .iter()
        .map(|b| postcard::from_bytes(b).map_err(|e| format!("a rank sent a bad block: {e}")))
        .collect()
}

/// The block of `len` tasks that `rank` of `size` computes.
fn block(len: usize, rank: usize, size: usize) -> std::ops::Range<usize> {
    len * rank / size..len * (rank + 1) / size
}

/// `f(state, index, task)` for every task, in task order, the tasks shared
/// out between the ranks (each on its rayon threads, with one `init()`
/// state per worker as [`rayon`]'s `map_init`). Every rank gets the whole
/// vector.
///
/// # Panics
/// As [`map_block`].
pub fn map_init<T, S, R, I, F>(tasks: &[T], init: I, f: F) -> Vec<R>
where
    T: Sync,
    R: Send + Serialize + DeserializeOwned,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &T) -> R + Sync + Send,
{
    map_block(tasks, |start, block| {
        block
            .par_iter()
            .enumerate()
            .map_init(&init, |s, (k, t)| f(s, start + k, t))
            .collect()
    })
}

/// `f(start, block)` on this rank's block of the tasks (those from index
/// `start`), giving one result per task; the blocks' results gathered from
/// every rank in task order. For work that takes its tasks together
/// (games played in lockstep).
///
/// # Panics
/// When the ranks cannot exchange their results (a rank died, or sent a
/// block that does not decode) or `f` gives a result count other than its
/// block's: the run cannot go on, and resumes from its last checkpoint.
pub fn map_block<T, R, F>(tasks: &[T], f: F) -> Vec<R>
where
    R: Serialize + DeserializeOwned,
    F: FnOnce(usize, &[T]) -> Vec<R>,
{
    let comm = current().filter(|c| c.size() > 1);
    let range = match &comm {
        Some(c) => block(tasks.len(), c.rank(), c.size()),
        None => 0..tasks.len(),
    };
    let mine = f(range.start, &tasks[range.clone()]);
    assert_eq!(mine.len(), range.len(), "one result per task");
    let Some(comm) = comm else {
        return mine;
    };
    let bytes = postcard::to_allocvec(&mine).expect("task results serialise");
    let blocks = comm
        .all_gather(bytes)
        .unwrap_or_else(|e| panic!("the ranks of this run lost touch: {e}"));
    let mut all = Vec::with_capacity(tasks.len());
    for (r, b) in blocks.iter().enumerate() {
        let part: Vec<R> = postcard::from_bytes(b)
            .unwrap_or_else(|e| panic!("rank {r} sent results that do not decode: {e}"));
        all.extend(part);
    }
    assert_eq!(all.len(), tasks.len(), "the ranks computed other tasks");
    all
}

/// Threads of one process standing in for ranks: each thread installs its
/// own [`InProcess`] and runs the whole program; [`Comm::all_gather`] meets
/// at a barrier.
pub struct InProcess {
    rank: usize,
    size: usize,
    shared: Arc<Shared>,
}

struct Shared {
    slots: Mutex<Vec<Vec<u8>>>,
    barrier: Barrier,
}

impl InProcess {
    /// One handle per rank of `size` ranks, to be moved to their threads.
    pub fn ranks(size: usize) -> Vec<InProcess> {
        let shared = Arc::new(Shared {
            slots: Mutex::new(vec![Vec::new(); size]),
            barrier: Barrier::new(size),
        });
        (0..size)
            .map(|rank| InProcess {
                rank,
                size,
                shared: shared.clone(),
            })
            .collect()
    }
}

impl Comm for InProcess {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>, String> {
        self.shared.slots.lock().map_err(|e| e.to_string())?[self.rank] = mine;
        // Everyone has written; read; and let nobody write the next round
        // before everyone has read this one.
        self.shared.barrier.wait();
        let all = self.shared.slots.lock().map_err(|e| e.to_string())?.clone();
        self.shared.barrier.wait();
        Ok(all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_every_task_once_in_order() {
        for len in [0, 1, 5, 17] {
            for size in 1..6 {
                let mut next = 0;
                for rank in 0..size {
                    let b = block(len, rank, size);
                    assert_eq!(b.start, next);
                    next = b.end;
                }
                assert_eq!(next, len);
            }
        }
    }

    #[test]
    fn ranks_in_threads_each_get_the_single_process_vector() {
        let tasks: Vec<u64> = (0..23).collect();
        let f = |_: &mut (), i: usize, t: &u64| (i, (*t as f64).sqrt(), f64::NAN.max(*t as f64));
        let single = map_init(&tasks, || (), f);
        let handles: Vec<_> = InProcess::ranks(3)
            .into_iter()
            .map(|comm| {
                let tasks = tasks.clone();
                std::thread::spawn(move || {
                    install(Some(Rc::new(comm)));
                    let got = map_init(&tasks, || (), f);
                    (rank(), got)
                })
            })
            .collect();
        for h in handles {
            let (r, got) = h.join().unwrap();
            assert!(r < 3);
            // Bit for bit: the f64s travel as their bytes.
            let bits = |v: &[(usize, f64, f64)]| -> Vec<(usize, u64, u64)> {
                v.iter()
                    .map(|x| (x.0, x.1.to_bits(), x.2.to_bits()))
                    .collect()
            };
            assert_eq!(bits(&got), bits(&single));
        }
    }
}

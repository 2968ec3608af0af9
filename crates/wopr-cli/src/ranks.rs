//! The ranks of an MPI job (`mpirun -n N wopr run …`, cargo feature
//! `mpi`) as [`wopr::dist::Comm`]: each generation's games are shared out
//! between them and gathered back in task order, so the run is the
//! single-process run byte for byte. The run folder must be one every rank
//! sees (a shared file system, as on a cluster); rank 0 alone writes it.

use std::rc::Rc;

use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Count;
use wopr::dist::Comm;

/// `MPI_COMM_WORLD`.
struct World(SimpleCommunicator);

impl Comm for World {
    fn rank(&self) -> usize {
        self.0.rank() as usize
    }

    fn size(&self) -> usize {
        self.0.size() as usize
    }

    fn all_gather(&self, mine: Vec<u8>) -> Result<Vec<Vec<u8>>, String> {
        let n = self.size();
        let count = Count::try_from(mine.len())
            .map_err(|_| format!("a block of {} bytes is too large for MPI", mine.len()))?;
        let mut counts: Vec<Count> = vec![0; n];
        self.0.all_gather_into(&count, &mut counts[..]);
        let displs: Vec<Count> = counts
            .iter()
            .scan(0, |at, &c| {
                let d = *at;
                *at += c;
                Some(d)
            })
            .collect();
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        let mut buf = vec![0u8; total];
        {
            let mut partition = PartitionMut::new(&mut buf[..], &counts[..], &displs[..]);
            self.0.all_gather_varcount_into(&mine[..], &mut partition);
        }
        Ok(counts
            .iter()
            .zip(&displs)
            .map(|(&c, &d)| buf[d as usize..(d + c) as usize].to_vec())
            .collect())
    }
}

/// Starts MPI and, in a job of more than one rank, makes its ranks this
/// thread's (see [`wopr::dist`]). The returned universe ends MPI when
/// dropped, at the end of `main`.
pub fn start() -> Option<mpi::environment::Universe> {
    let universe = mpi::initialize()?;
    let world = universe.world();
    if world.size() > 1 {
        wopr::dist::install(Some(Rc::new(World(world))));
    }
    Some(universe)
}

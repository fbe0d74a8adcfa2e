//! The `bench` binary: a thin shell around [`npuzzle::cli`].

/// Counts heap bytes per thread, so that `bench run` can report each job's peak heap.
#[global_allocator]
static ALLOC: npuzzle::infra::alloc::CountingAlloc = npuzzle::infra::alloc::CountingAlloc;

fn main() {
    std::process::exit(npuzzle::cli::main());
}

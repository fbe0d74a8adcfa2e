//! The `bench` binary: a thin shell around [`npuzzle::cli`].

fn main() {
    std::process::exit(npuzzle::cli::main());
}

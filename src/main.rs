//! The `tally` binary: UCI with no arguments, subcommands otherwise.

fn main() {
    std::process::exit(tally::cli::run());
}

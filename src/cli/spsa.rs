//! `tally spsa`: tunes the search's constants by SPSA in engine-versus-
//! engine games ([`crate::tune::spsa::batch`]). The engine is a build with the `spsa` feature, which
//! declares each tunable constant as a UCI option
//! (`cargo build --release --features spsa`); every batch plays game
//! pairs between two copies of it whose options are the estimates moved
//! up and down ([`crate::tune::spsa`]), then saves the run's state, so
//! Ctrl-C (which drops the batch in play) and running the same command
//! again resume it.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::matches::Control;
use crate::rules::Variant;
use crate::tune::spsa::batch::{
    Arena, RunSpec, chosen, play_batch, read_state, resume, setup_text, table, tunable_options,
    uci_output, write_state,
};
use crate::variant_args::parse_variant;

/// Arguments of `tally spsa`.
#[derive(Debug, Args)]
pub struct SpsaArgs {
    /// The engine: a Tally build with the `spsa` feature.
    #[arg(long, value_name = "PATH")]
    pub engine: PathBuf,
    /// The run's state (JSON): written after every batch; an existing file
    /// of the same run is resumed.
    #[arg(long, value_name = "FILE")]
    pub state: PathBuf,
    /// Tune only this option (repeat it; default: every tunable the engine
    /// declares, i.e. every spin option named in capitals, or a resumed
    /// run's own).
    #[arg(long = "param", value_name = "NAME")]
    pub params: Vec<String>,
    /// Variant id.
    #[arg(long, short = 'v', value_parser = parse_variant, default_value = "chess")]
    pub variant: Variant,
    /// Fixed nodes per move.
    #[arg(long, conflicts_with = "tc")]
    pub nodes: Option<u64>,
    /// Time control BASE[+INC] in seconds per side.
    #[arg(long)]
    pub tc: Option<String>,
    /// Openings (EPD, or PGN by extension); default: the variant's shipped
    /// ones. Each pair starts from one drawn at random (seeded).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The run's length in game pairs (the schedule depends on it).
    #[arg(long, default_value_t = 10_000)]
    pub pairs: u64,
    /// Game pairs per batch (one step); default: twice the concurrency.
    #[arg(long)]
    pub batch: Option<u64>,
    /// Games played at once.
    #[arg(long, short = 'c', default_value_t = 1)]
    pub concurrency: usize,
    /// Seed of the signs and the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The last step's perturbation is each option's range over this.
    #[arg(long, default_value_t = 20.0)]
    pub c_div: f64,
    /// The last step's learning rate over the perturbation squared.
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Stop after this many batches in this invocation (the run resumes
    /// later).
    #[arg(long)]
    pub batches: Option<u64>,
    /// No line per batch on standard error.
    #[arg(long)]
    pub quiet: bool,
}

fn bad(e: impl std::fmt::Display) -> CliError {
    CliError::bad_input(e)
}

/// Runs `tally spsa`.
///
/// # Errors
///
/// A [`CliError`] for bad arguments, an engine that cannot be started or
/// declares no tunables, or a state file of another run.
pub fn run(a: &SpsaArgs) -> Result<i32, CliError> {
    let variant = a.variant;
    let mut control = Control::default();
    match (&a.tc, a.nodes) {
        (Some(tc), _) => {
            let (b, i) = Control::parse_tc(tc).map_err(bad)?;
            control.base = Some(b);
            control.inc = i;
        }
        (None, Some(n)) if n > 0 => control.nodes = Some(n),
        _ => return Err(bad("give --nodes N (at least 1) or --tc BASE+INC")),
    }
    if a.pairs == 0 || a.concurrency == 0 || a.batch == Some(0) {
        return Err(bad("--pairs, --batch and --concurrency must be at least 1"));
    }
    // Bounds that keep every step finite: a tiny --c-div made the
    // perturbation infinite and every theta NaN.
    if !((1e-3..=1e6).contains(&a.c_div) && (1e-9..=1e6).contains(&a.r_end)) {
        return Err(bad(
            "--c-div must lie in 0.001..1000000 and --r-end in 1e-9..1000000",
        ));
    }
    if a.pairs > MAX_PAIRS || a.batch.is_some_and(|b| b > MAX_PAIRS) {
        return Err(bad(format!("--pairs and --batch are at most {MAX_PAIRS}")));
    }
    // Before a batch is played: a state that cannot be written loses it.
    super::check_output("--state", &a.state)?;
    // The state first: a damaged one is refused before the engine starts.
    let existing = read_state(&a.state).map_err(bad)?;
    let openings = crate::matches::openings::load(a.openings.as_deref(), variant).map_err(bad)?;
    let declared = tunable_options(&uci_output(&a.engine).map_err(bad)?);
    // A resumed run tunes what it tuned, whatever the engine adds since.
    let wanted: Vec<String> = match &existing {
        Some(s) if a.params.is_empty() => s.params.iter().map(|p| p.name.clone()).collect(),
        _ => a.params.clone(),
    };
    let options = chosen(&declared, &wanted).map_err(bad)?;
    let setup = setup_text(variant, &control, &openings, &options).map_err(bad)?;
    let spec = RunSpec {
        setup: &setup,
        pairs: a.pairs,
        seed: a.seed,
        options: &options,
        c_div: a.c_div,
        r_end: a.r_end,
    };
    let mut state = resume(existing, &a.state, &spec).map_err(bad)?;
    let stop = super::stop_on_ctrl_c();
    let arena = Arena {
        engine: &a.engine,
        variant,
        control,
        openings: &openings,
        concurrency: a.concurrency,
    };
    let batch = a.batch.unwrap_or(2 * a.concurrency as u64);
    let mut batches = 0u64;
    while !state.finished() && a.batches.is_none_or(|n| batches < n) {
        let Some(result) = play_batch(&arena, &mut state, batch, stop).map_err(bad)? else {
            eprintln!(
                "interrupted: the batch in play is dropped; {} pairs are saved in {}",
                state.done,
                a.state.display()
            );
            outln!("{}", table(&state));
            return Ok(130);
        };
        write_state(&a.state, &state).map_err(bad)?;
        batches += 1;
        if !a.quiet {
            let est: Vec<String> = state
                .params
                .iter()
                .map(|p| format!("{}={:.1}", p.name, p.theta))
                .collect();
            eprintln!(
                "pairs {}/{} (batch {result:+}): {}",
                state.done,
                state.total,
                est.join(" ")
            );
        }
    }
    out!("{}", table(&state));
    outln!("{}", state.options());
    Ok(0)
}

/// The most game pairs of a run or a batch (each batch's openings are
/// drawn up front).
const MAX_PAIRS: u64 = 10_000_000;

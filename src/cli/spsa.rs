//! `tally spsa`: tunes the search's constants by SPSA in engine-versus-
//! engine games. The engine is a build with the `spsa` feature, which
//! declares each tunable constant as a UCI option
//! (`cargo build --release --features spsa`); every batch plays game
//! pairs between two copies of it whose options are the estimates moved
//! up and down ([`crate::tune::spsa`]), then saves the run's state, so
//! Ctrl-C (which drops the batch in play) and running the same command
//! again resume it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;

use super::CliError;
use super::matches::load_openings;
use crate::matches::{Control, MatchConfig, PlayerSpec, Quiet};
use crate::rules::Variant;
use crate::tune::spsa::{FORMAT, Param, State};

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);

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
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
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

/// A spin option an engine declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinOption {
    /// Its name.
    pub name: String,
    /// Its default.
    pub default: i32,
    /// Its smallest value.
    pub min: i32,
    /// Its largest value.
    pub max: i32,
}

/// The tunable options in `uci` output: spin options whose names are all
/// capitals, digits and underscores.
pub fn tunable_options(uci_output: &str) -> Vec<SpinOption> {
    uci_output
        .lines()
        .filter_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [
                "option",
                "name",
                name,
                "type",
                "spin",
                "default",
                d,
                "min",
                lo,
                "max",
                hi,
            ] = words.as_slice()
            else {
                return None;
            };
            let tunable = name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            if !tunable {
                return None;
            }
            Some(SpinOption {
                name: (*name).to_owned(),
                default: d.parse().ok()?,
                min: lo.parse().ok()?,
                max: hi.parse().ok()?,
            })
        })
        .collect()
}

/// What `engine` prints for `uci`, up to `uciok`.
fn uci_output(engine: &Path) -> Result<String, CliError> {
    let program = engine.to_string_lossy();
    crate::matches::player::uci_lines(&program)
        .map(|lines| lines.join("\n"))
        .map_err(bad)
}

/// The options to tune: `wanted` among `declared` (all when empty).
fn chosen(declared: &[SpinOption], wanted: &[String]) -> Result<Vec<SpinOption>, CliError> {
    if declared.is_empty() {
        return Err(bad(
            "the engine declares no tunable options: build it with \
             `cargo build --release --features spsa`",
        ));
    }
    if wanted.is_empty() {
        return Ok(declared.to_vec());
    }
    wanted
        .iter()
        .map(|w| {
            declared
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(w))
                .cloned()
                .ok_or_else(|| {
                    let names: Vec<&str> = declared.iter().map(|o| o.name.as_str()).collect();
                    bad(format!(
                        "--param {w}: the engine has no such tunable (it has {})",
                        names.join(", ")
                    ))
                })
        })
        .collect()
}

/// A player spec of the engine with `values` for `params`.
fn player(name: &str, engine: &Path, params: &[Param], values: &[i32]) -> String {
    let mut s = format!("name={name} cmd={}", engine.display());
    for (p, v) in params.iter().zip(values) {
        s += &format!(" option.{}={v}", p.name);
    }
    s
}

/// A game's result for the first player from both players' points: 1 won,
/// 0 drawn (equal points), -1 lost.
fn game_result(points: [f64; 2]) -> f64 {
    match points[0].partial_cmp(&points[1]) {
        Some(std::cmp::Ordering::Greater) => 1.0,
        Some(std::cmp::Ordering::Less) => -1.0,
        _ => 0.0,
    }
}

/// Reads the state file, if there is one.
fn read_state(path: &Path) -> Result<Option<State>, CliError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| bad(format!("{}: not a tally spsa state ({e})", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(bad(format!("cannot read {}: {e}", path.display()))),
    }
}

/// Writes the state file whole (a temporary file renamed over it).
fn write_state(path: &Path, state: &State) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(state).map_err(bad)?;
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text + "\n")
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| bad(format!("cannot write {}: {e}", path.display())))
}

/// The estimates, one line each, beside the defaults.
fn table(state: &State) -> String {
    let mut s = format!(
        "{:<20} {:>8} {:>10} {:>8}\n",
        "option", "default", "estimate", "change"
    );
    for p in &state.params {
        s += &format!(
            "{:<20} {:>8} {:>10.2} {:>+8.2}\n",
            p.name,
            p.default,
            p.theta,
            p.theta - f64::from(p.default)
        );
    }
    s
}

/// Runs `tally spsa`.
///
/// # Errors
///
/// A [`CliError`] for bad arguments, an engine that cannot be started or
/// declares no tunables, or a state file of another run.
pub fn run(a: &SpsaArgs) -> Result<i32, CliError> {
    let variant = Variant::from_id(&a.variant)?;
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
    if !(a.c_div.is_finite() && a.c_div > 0.0 && a.r_end.is_finite() && a.r_end > 0.0) {
        return Err(bad("--c-div and --r-end must be positive numbers"));
    }
    let openings = load_openings(a.openings.as_deref(), variant)?;
    let declared = tunable_options(&uci_output(&a.engine)?);
    let existing = read_state(&a.state)?;
    // A resumed run tunes what it tuned, whatever the engine adds since.
    let wanted: Vec<String> = match &existing {
        Some(s) if a.params.is_empty() => s.params.iter().map(|p| p.name.clone()).collect(),
        _ => a.params.clone(),
    };
    let options = chosen(&declared, &wanted)?;
    // The games' setup, which a resumed run must share.
    let template = MatchConfig::new(
        variant,
        [
            PlayerSpec::parse("name=a").map_err(bad)?,
            PlayerSpec::parse("name=b").map_err(bad)?,
        ],
        control.clone(),
        openings.clone(),
    );
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    let setup = format!(
        "{} {} openings {} params {}",
        variant.id(),
        control.describe(),
        template.experiment().openings,
        names.join(",")
    );
    let mut state = match existing {
        Some(mut s) => {
            if s.format != FORMAT || s.setup != setup || s.total != a.pairs || s.seed != a.seed {
                return Err(bad(format!(
                    "{} holds another run ({}, {} pairs, seed {}): give another --state to start afresh",
                    a.state.display(),
                    s.setup,
                    s.total,
                    s.seed
                )));
            }
            s.thin();
            s
        }
        None => {
            let params = options
                .iter()
                .map(|o| Param::new(&o.name, o.default, o.min, o.max, a.c_div, a.r_end))
                .collect();
            State::new(setup, a.pairs, a.seed, params)
        }
    };
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    let batch = a.batch.unwrap_or(2 * a.concurrency as u64);
    let mut batches = 0u64;
    while !state.finished() && a.batches.is_none_or(|n| batches < n) {
        let pairs = batch.min(state.total - state.done);
        let step = state.step();
        let chosen: Vec<_> = state
            .openings(pairs as usize, openings.len())
            .into_iter()
            .map(|i| openings[i].clone())
            .collect();
        let players = [
            PlayerSpec::parse(&player("plus", &a.engine, &state.params, &step.plus))
                .map_err(bad)?,
            PlayerSpec::parse(&player("minus", &a.engine, &state.params, &step.minus))
                .map_err(bad)?,
        ];
        let mut config = MatchConfig::new(variant, players, control.clone(), chosen);
        config.concurrency = a.concurrency;
        let outcome = crate::matches::run(&config, Vec::new(), &STOP, &Quiet).map_err(bad)?;
        if outcome.interrupted || STOP.load(Ordering::Relaxed) {
            eprintln!(
                "interrupted: the batch in play is dropped; {} pairs are saved in {}",
                state.done,
                a.state.display()
            );
            println!("{}", table(&state));
            return Ok(130);
        }
        let result: f64 = outcome.games.iter().map(|g| game_result(g.points)).sum();
        state.apply(&step, pairs, result);
        write_state(&a.state, &state)?;
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
    print!("{}", table(&state));
    println!("{}", state.options());
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tunable_options_are_the_capitalised_spins() {
        let text = "id name Tally\n\
            option name Hash type spin default 16 min 1 max 16384\n\
            option name UCI_Elo type spin default 1500 min 1000 max 1800\n\
            option name RFP_MARGIN type spin default 80 min 40 max 160\n\
            option name LMR_DIVISOR type spin default 2200 min 1500 max 3500\n\
            option name BAD_ONE type spin default x min 1 max 2\n\
            option name EvalFile type string default <empty>\n\
            uciok\n";
        let got = tunable_options(text);
        assert_eq!(
            got,
            vec![
                SpinOption {
                    name: "RFP_MARGIN".into(),
                    default: 80,
                    min: 40,
                    max: 160
                },
                SpinOption {
                    name: "LMR_DIVISOR".into(),
                    default: 2200,
                    min: 1500,
                    max: 3500
                },
            ]
        );
        assert_eq!(chosen(&got, &[]).unwrap(), got);
        assert_eq!(
            chosen(&got, &["rfp_margin".into()]).unwrap(),
            vec![got[0].clone()]
        );
        let e = chosen(&got, &["NOPE".into()]).unwrap_err();
        assert!(
            e.message.contains("RFP_MARGIN, LMR_DIVISOR"),
            "{}",
            e.message
        );
        assert!(
            chosen(&[], &[])
                .unwrap_err()
                .message
                .contains("--features spsa")
        );
    }

    #[test]
    fn results_count_wins_draws_and_losses() {
        assert_eq!(game_result([1.0, 0.0]), 1.0);
        assert_eq!(game_result([0.5, 0.5]), 0.0);
        assert_eq!(game_result([0.0, 0.0]), 0.0);
        assert_eq!(game_result([0.0, 1.0]), -1.0);
        // Scoring variants: whoever has more points won.
        assert_eq!(game_result([40.0, 60.0]), -1.0);
        assert_eq!(game_result([2.0, 0.5]), 1.0);
    }

    #[test]
    fn players_carry_the_values() {
        let params = vec![
            Param::new("A", 1, 0, 10, 20.0, 0.002),
            Param::new("B", 5, 0, 10, 20.0, 0.002),
        ];
        assert_eq!(
            player("plus", Path::new("/x/tally"), &params, &[2, 7]),
            "name=plus cmd=/x/tally option.A=2 option.B=7"
        );
    }
}

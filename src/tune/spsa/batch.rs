//! Playing an SPSA run: the tunables an engine declares
//! ([`tunable_options`], [`chosen`]), the run's state resumed or started
//! ([`resume`]) and saved ([`read_state`], [`write_state`]), one batch of
//! game pairs between the two perturbed builds ([`play_batch`]), and the
//! estimates as a table ([`table`]). `tally spsa` parses the arguments and
//! prints.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{FORMAT, Param, State};
use crate::matches::{Control, MatchConfig, Opening, PlayerSpec, Quiet};
use crate::rules::Variant;

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
pub fn uci_output(engine: &Path) -> Result<String, String> {
    let program = engine.to_string_lossy();
    crate::matches::player::uci_lines(&program).map(|lines| lines.join("\n"))
}

/// The options to tune: `wanted` among `declared` (all when empty).
pub fn chosen(declared: &[SpinOption], wanted: &[String]) -> Result<Vec<SpinOption>, String> {
    if declared.is_empty() {
        return Err("the engine declares no tunable options: build it with \
             `cargo build --release --features spsa`"
            .to_owned());
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
                    format!(
                        "--param {w}: the engine has no such tunable (it has {})",
                        names.join(", ")
                    )
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
pub fn read_state(path: &Path) -> Result<Option<State>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let read = crate::files::read_input(path).and_then(|b| {
        String::from_utf8(b)
            .map_err(|_| format!("{}: not a tally spsa state (not UTF-8)", path.display()))
    });
    match read {
        Ok(text) => {
            let state: State = serde_json::from_str(&text)
                .map_err(|e| format!("{}: not a tally spsa state ({e})", path.display()))?;
            state
                .check()
                .map_err(|e| format!("{}: not a valid tally spsa state: {e}", path.display()))?;
            Ok(Some(state))
        }
        Err(e) => Err(e),
    }
}

/// Writes the state file whole (a temporary file renamed over it).
pub fn write_state(path: &Path, state: &State) -> Result<(), String> {
    // Never a state that could not be resumed (a NaN is written `null`).
    state
        .check()
        .map_err(|e| format!("not writing {}: {e}", path.display()))?;
    let text = serde_json::to_string_pretty(state).map_err(|e| e.to_string())?;
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text + "\n")
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The estimates, one line each, beside the defaults.
pub fn table(state: &State) -> String {
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

/// The games' setup as a state file records it (variant, control,
/// openings, the options tuned): a resumed run must share it.
///
/// # Errors
///
/// A one-line message if the players cannot be set up.
pub fn setup_text(
    variant: Variant,
    control: &Control,
    openings: &[Opening],
    options: &[SpinOption],
) -> Result<String, String> {
    let template = MatchConfig::new(
        variant,
        [PlayerSpec::parse("name=a")?, PlayerSpec::parse("name=b")?],
        control.clone(),
        openings.to_vec(),
    );
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    Ok(format!(
        "{} {} openings {} params {}",
        variant.id(),
        control.describe(),
        template.experiment().openings,
        names.join(",")
    ))
}

/// What a run is started with, and what a resumed one must match.
#[derive(Clone, Copy, Debug)]
pub struct RunSpec<'a> {
    /// The games' setup ([`setup_text`]).
    pub setup: &'a str,
    /// The run's length in game pairs.
    pub pairs: u64,
    /// The seed of the signs and the openings.
    pub seed: u64,
    /// The options to tune.
    pub options: &'a [SpinOption],
    /// The last step's perturbation is each option's range over this.
    pub c_div: f64,
    /// The last step's learning rate over the perturbation squared.
    pub r_end: f64,
}

/// The run's state: `existing` (read from `path`) resumed when it is the
/// same run, thinned; a fresh one when there is none.
///
/// # Errors
///
/// `existing` holds another run (setup, pairs or seed differ).
pub fn resume(existing: Option<State>, path: &Path, spec: &RunSpec<'_>) -> Result<State, String> {
    match existing {
        Some(mut s) => {
            if s.format != FORMAT
                || s.setup != spec.setup
                || s.total != spec.pairs
                || s.seed != spec.seed
            {
                return Err(format!(
                    "{} holds another run ({}, {} pairs, seed {}): give another --state to start afresh",
                    path.display(),
                    s.setup,
                    s.total,
                    s.seed
                ));
            }
            s.thin();
            Ok(s)
        }
        None => {
            let params = spec
                .options
                .iter()
                .map(|o| Param::new(&o.name, o.default, o.min, o.max, spec.c_div, spec.r_end))
                .collect();
            let state = State::new(spec.setup.to_owned(), spec.pairs, spec.seed, params);
            state
                .check()
                .map_err(|e| format!("the engine's options: {e}"))?;
            Ok(state)
        }
    }
}

/// Where the games of a batch are played.
#[derive(Clone, Debug)]
pub struct Arena<'a> {
    /// The engine: a Tally build with the `spsa` feature.
    pub engine: &'a Path,
    /// The variant.
    pub variant: Variant,
    /// The time control or fixed nodes.
    pub control: Control,
    /// The openings a pair starts from, drawn at random (seeded).
    pub openings: &'a [Opening],
    /// Games played at once.
    pub concurrency: usize,
}

/// Plays the next batch, at most `batch` game pairs, between the `plus`
/// and `minus` builds of [`State::step`], and learns from it. Returns the
/// batch's result (games the `plus` build won more than it lost), or
/// `None` when `stop` was set: the batch is then dropped and `state` is as
/// it was.
///
/// # Errors
///
/// A one-line message if a player cannot be set up or the match fails.
pub fn play_batch(
    arena: &Arena<'_>,
    state: &mut State,
    batch: u64,
    stop: &AtomicBool,
) -> Result<Option<f64>, String> {
    let pairs = batch.min(state.total - state.done);
    let step = state.step();
    let openings = arena.openings;
    let chosen: Vec<_> = state
        .openings(pairs as usize, openings.len())
        .into_iter()
        .map(|i| openings[i].clone())
        .collect();
    let players = [
        PlayerSpec::parse(&player("plus", arena.engine, &state.params, &step.plus))?,
        PlayerSpec::parse(&player("minus", arena.engine, &state.params, &step.minus))?,
    ];
    let mut config = MatchConfig::new(arena.variant, players, arena.control.clone(), chosen);
    config.concurrency = arena.concurrency;
    let outcome = crate::matches::run(&config, Vec::new(), stop, &Quiet)?;
    if outcome.interrupted || stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let result: f64 = outcome.games.iter().map(|g| game_result(g.points)).sum();
    state.apply(&step, pairs, result);
    Ok(Some(result))
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
        assert!(e.contains("RFP_MARGIN, LMR_DIVISOR"), "{e}");
        assert!(chosen(&[], &[]).unwrap_err().contains("--features spsa"));
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

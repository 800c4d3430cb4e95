//! The command line: one clap args struct per subcommand; no arguments
//! starts the UCI loop; arguments that are UCI commands run as such
//! ([`uci_arguments`]).
//!
//! Errors are one clear line on stderr and exit code 2 (bad input) or 1
//! (some items of a batch failed), with any control character escaped
//! ([`crate::text::printable`]).

/// `print!` to standard output that does not panic when the reader has
/// gone (`tally analyse | head -1`): a closed pipe ends the output
/// quietly; any other write error is said on standard error.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!($($arg)*))
    };
}

/// [`out!`] with a line end, as `println!`.
macro_rules! outln {
    () => {
        $crate::cli::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod analyse;
mod bench;
mod datagen;
mod experiment;
mod matches;
mod perft;
mod progress;
mod rules;
mod score;
mod serve;
mod spsa;
mod train;
mod tune;

use std::io::BufRead;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};

/// Exit code for bad input: an invalid FEN, an illegal action, an unknown
/// variant, a bad option.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Tally: a UCI chess engine for scoring variants.
#[derive(Debug, Parser)]
#[command(name = "tally", version, about, long_about = None, after_help = UCI_ARGUMENTS_HELP)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the action tree (move-generator check).
    Perft(perft::PerftArgs),
    /// Score games under a variant: per-ply awards, ending, outcome, totals.
    Score(score::ScoreArgs),
    /// Search the fixed bench positions; prints "<nodes> nodes <nps> nps".
    Bench(bench::BenchArgs),
    /// Speak UCI on stdin and stdout (what no arguments do too).
    Uci,
    /// Rank every legal action by expected point margin, or annotate a
    /// whole game with the points won and given away.
    Analyse(analyse::AnalyseArgs),
    /// Play engine-versus-engine games scored in points (Tally settings or
    /// external UCI engines); `match merge` combines result files.
    Match(Box<matches::MatchArgs>),
    /// Print a variant's point tables (or every variant's) as the TOML a
    /// rules file takes: the template to edit for --rules.
    Rules(rules::RulesArgs),
    /// Generate self-play data (fixed nodes, random openings) in a compact
    /// binary format; `datagen stats` and `datagen text` read it.
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation's weights to datagen files (Adam on a sigmoid of
    /// the evaluation) and write them as a Rust source file.
    Tune(tune::TuneArgs),
    /// Train a net (NNUE) on datagen files (AdamW, sparse first layer,
    /// every core) and write it in the engine's net format.
    Train(train::TrainArgs),
    /// Play and analyse every variant in the browser: a local web server
    /// with the points in view (see docs/serve.md).
    Serve(serve::ServeArgs),
    /// Tune the search's constants by SPSA in engine-versus-engine games
    /// (the engine built with `--features spsa`).
    Spsa(spsa::SpsaArgs),
    /// Tables and SVG figures of engine-against-engine experiments from
    /// tally match's results files (see docs/experiments.md).
    Experiment(experiment::ExperimentArgs),
}

/// What `tally --help` says of UCI commands as arguments.
const UCI_ARGUMENTS_HELP: &str = "\
UCI commands as arguments: when the first argument starts with a UCI command
(and is not one of the commands above), each argument is a UCI command line,
run in order, each finished before the next, and then Tally exits:
  tally \"position startpos\" \"go perft 5\"
  tally \"genfens 10 seed 1 book None\" quit      (OpenBench's data generation)
  tally \"setoption name EvalFile value my.tnn\" bench quit";

/// The arguments as UCI command lines, when they are meant so: the first
/// starts with a UCI command word and is not the name of a subcommand
/// (`tally bench` is the subcommand, `tally "bench 5"` and `tally uci
/// isready` are UCI, `tally uci --help` clap's help). An argument of
/// several lines gives each of them.
pub fn uci_arguments(args: &[std::ffi::OsString]) -> Option<Vec<String>> {
    use clap::CommandFactory;
    let first = args.first()?.to_str()?;
    let subcommand = Cli::command()
        .get_subcommands()
        .any(|c| c.get_name() == first || c.get_all_aliases().any(|a| a == first));
    let uci_lines = first == "uci"
        && args
            .get(1)
            .is_some_and(|a| !a.to_string_lossy().starts_with('-'));
    if subcommand && !uci_lines {
        return None;
    }
    if !crate::uci::is_command(first.split_whitespace().next()?) {
        return None;
    }
    Some(
        args.iter()
            .flat_map(|a| {
                a.to_string_lossy()
                    .lines()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect(),
    )
}

/// What `tally` (or `tally uci`) says on standard error when a person
/// runs it in a terminal, where it would otherwise wait silently for UCI
/// commands; nothing when standard input is a pipe, as from a GUI.
pub fn terminal_hint(stdin_is_terminal: bool) -> Option<&'static str> {
    stdin_is_terminal.then_some(
        "Tally speaks UCI here, as chess GUIs drive it: type `uci` for its options, \
         `quit` to leave. `tally --help` lists the commands (`tally serve --open` \
         plays in the browser).",
    )
}

/// Parses the process arguments, runs the command, and returns the exit code.
pub fn run() -> i32 {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if let Some(lines) = uci_arguments(&args) {
        crate::uci::run_commands(&lines, std::io::stdout());
        return 0;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            if let Some(bad) = bad_value(&e) {
                eprintln!("error: {}", crate::text::printable(&bad.0));
                return EXIT_BAD_INPUT;
            }
            let code = e.exit_code();
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Some(Command::Perft(args)) => perft::run(&args).map(|()| 0),
        Some(Command::Score(args)) => score::run(&args),
        Some(Command::Bench(args)) => bench::run(&args).map(|()| 0),
        Some(Command::Analyse(args)) => analyse::run(&args).map(|()| 0),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Rules(args)) => rules::run(&args).map(|()| 0),
        Some(Command::Datagen(args)) => datagen::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Spsa(args)) => spsa::run(&args),
        Some(Command::Experiment(args)) => experiment::run(&args).map(|()| 0),
        Some(Command::Serve(args)) => serve::run(&args).map(|()| 0),
        Some(Command::Uci) | None => {
            use std::io::IsTerminal;
            if let Some(hint) = terminal_hint(std::io::stdin().is_terminal()) {
                eprintln!("{hint}");
            }
            crate::uci::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            Ok(0)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", crate::text::printable(&e.message));
            e.code
        }
    }
}

/// The bad value of a [`VariantArgs`](crate::variant_args::VariantArgs)
/// option that clap refused, said in one line as every other bad input
/// is (clap's own error takes three).
fn bad_value(e: &clap::Error) -> Option<&crate::variant_args::BadValue> {
    use std::error::Error as _;
    e.source()?.downcast_ref()
}

/// A command's failure: a one-line message and the exit code.
#[derive(Debug)]
pub struct CliError {
    /// The message, one line.
    pub message: String,
    /// The process exit code.
    pub code: i32,
}

impl CliError {
    /// Bad input (exit code 2).
    pub fn bad_input(message: impl std::fmt::Display) -> CliError {
        CliError {
            message: message.to_string(),
            code: EXIT_BAD_INPUT,
        }
    }
}

impl From<crate::rules::RulesError> for CliError {
    fn from(e: crate::rules::RulesError) -> CliError {
        CliError::bad_input(e)
    }
}

/// Checks that `path` can be written as the output `flag`
/// ([`crate::files::check_output`]).
///
/// # Errors
///
/// A [`CliError`] (exit code 2) naming the flag, the path and what is
/// wrong.
pub fn check_output(flag: &str, path: &Path) -> Result<(), CliError> {
    crate::files::check_output(flag, path).map_err(CliError::bad_input)
}

/// The workers of a batch command: `threads` of them, or one per core when
/// not given.
///
/// # Errors
///
/// A count outside 1 to [`MAX_THREADS`](crate::search::MAX_THREADS), or a
/// pool the system cannot start: a [`CliError`] with exit code 2.
pub(crate) fn worker_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        crate::search::check_threads(n).map_err(CliError::bad_input)?;
        pool = pool.num_threads(n);
    }
    pool.build()
        .map_err(|e| CliError::bad_input(format!("cannot start threads: {e}")))
}

/// Opens an input file for reading ([`crate::files::open_input`]).
///
/// # Errors
///
/// A file that cannot be opened or is neither a regular file nor a pipe:
/// a [`CliError`] with exit code 2.
pub(crate) fn open_input(path: &Path) -> Result<Box<dyn BufRead + Send>, CliError> {
    crate::files::open_input(path).map_err(CliError::bad_input)
}

/// Set by Ctrl-C ([`stop_on_ctrl_c`]).
static STOP: AtomicBool = AtomicBool::new(false);

/// The flag a run that stops cleanly (match, datagen, spsa) watches: set
/// by Ctrl-C; a second Ctrl-C exits at once (exit code 130).
pub(crate) fn stop_on_ctrl_c() -> &'static AtomicBool {
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    &STOP
}

/// Writes to standard output for [`out!`] and [`outln!`].
pub(crate) fn write_out(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout.write_fmt(args).and_then(|()| stdout.flush())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        eprintln!("error: cannot write the output: {e}");
    }
}

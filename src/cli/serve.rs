//! `tally serve`: the browser app ([`crate::serve`]).

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::serve::{DEFAULT_PORT, ServeOptions};

/// Arguments of `tally serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on. Anything but loopback lets other machines
    /// play on this one (a warning is printed).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Save every game as PGN in this directory after each move, and offer
    /// the saved games again after a restart.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Search threads per search.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash per search, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Games kept open at most (the idle ones nobody watches go first).
    #[arg(long, default_value_t = 100)]
    max_games: usize,
    /// Searches running at once at most.
    #[arg(long, default_value_t = 2)]
    max_searches: usize,
    /// The longest an analysis of the Analyse view runs, seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    max_analysis_time: u64,
}

/// Runs the server until interrupted.
///
/// # Errors
///
/// Bad arguments, or an address that cannot be bound (exit code 2).
pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    if !(1..=64).contains(&args.threads) {
        return Err(CliError::bad_input("--threads must be 1 to 64"));
    }
    if !(1..=65536).contains(&args.hash) {
        return Err(CliError::bad_input("--hash must be 1 to 65536 MiB"));
    }
    if !(1..=10_000).contains(&args.max_games) || !(1..=64).contains(&args.max_searches) {
        return Err(CliError::bad_input(
            "--max-games must be 1 to 10000 and --max-searches 1 to 64",
        ));
    }
    if !(1..=3600).contains(&args.max_analysis_time) {
        return Err(CliError::bad_input(
            "--max-analysis-time must be 1 to 3600 seconds",
        ));
    }
    if let Some(dir) = &args.save
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        return Err(CliError::bad_input(format!(
            "--save {}: cannot use it as a directory of saved games ({e})",
            dir.display()
        )));
    }
    let options = ServeOptions {
        host: args.host,
        port: args.port,
        save: args.save.clone(),
        threads: args.threads,
        hash_mb: args.hash,
        max_games: args.max_games,
        max_searches: args.max_searches,
        max_analysis_time: std::time::Duration::from_secs(args.max_analysis_time),
    };
    let open = args.open;
    crate::serve::run(options, |addr| {
        let url = if addr.ip().is_unspecified() {
            format!("http://127.0.0.1:{}/", addr.port())
        } else {
            format!("http://{addr}/")
        };
        // A closed standard output (a caller that read the address and
        // went) must not stop the server: write errors are ignored.
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "tally serve: listening on {url}");
        if !addr.ip().is_loopback() {
            eprintln!(
                "warning: listening on {}, not loopback: other machines can reach this server and play on it",
                addr.ip()
            );
        }
        if let Some(dir) = &args.save {
            let _ = writeln!(out, "saving games in {}", dir.display());
        }
        let _ = out.flush();
        if open {
            open_browser(&url);
        }
    })
    .map_err(CliError::bad_input)
}

fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(program).arg(url).spawn() {
        eprintln!("warning: cannot open a browser ({program}: {e}); open {url} yourself");
    }
}

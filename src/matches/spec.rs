//! A match player's settings in text form: [`PlayerSpec`], parsed from
//! the `--player` words. Starting and talking to the players is in
//! [`super::player`].
//!
//! A spec is a list of `key=value` words (values with spaces in single or
//! double quotes):
//!
//! - `name=NAME`: the name in tables and PGN (default: `tally`, or the
//!   engine's `id name`).
//! - `cmd=PROGRAM`: an external UCI engine (without it, Tally itself);
//!   `arg=ARG` (repeatable) adds an argument; a `cmd` with spaces is split
//!   into the program and its arguments.
//! - `option.NAME=VALUE`: a UCI option; external engines get it as
//!   `setoption`, Tally accepts `Hash`, `Threads`, `MultiPV`,
//!   `Move Overhead`, `SpecialActions`, `EvalMode`, `EvalFile`,
//!   `DrawAdvantage`, `UCI_LimitStrength`, `UCI_Elo` and `Skill Level`.
//!   `option.EvalFile=FILE` loads a net when the spec is read (an
//!   unreadable net is the spec's error) and selects `EvalMode nnue`
//!   unless an evaluator is named.
//! - `hash=MB`, `threads=N`: shorthands for `option.Hash` and
//!   `option.Threads`.
//! - `eval=variant|untuned|base|nnue`: Tally's evaluator.
//! - `specials=on|off`: whether Tally may play special actions.
//! - `depth=D`, `nodes=N`, `movetime=MS`: this player's own search limits,
//!   in place of the match's (the clock, if any, still runs).

use std::sync::Arc;
use std::time::Duration;

use crate::eval::EvalMode;
use crate::eval::variant_weights::WeightOverrides;
use crate::nnue::Network;
use crate::scoring::DrawAdvantage;
use crate::search::Strength;
use crate::search::skill::{FULL_LEVEL, MAX_ELO, MIN_ELO};
use crate::uci::{MAX_MOVE_OVERHEAD, MAX_MULTIPV};

/// Who a player is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// Tally in process.
    Tally {
        /// Evaluator.
        eval: EvalMode,
        /// The net of [`EvalMode::Nnue`] (`option.EvalFile`).
        net: Option<Arc<Network>>,
        /// Whether it may play special actions (when the game allows them).
        specials: bool,
        /// Move overhead, if set.
        move_overhead: Option<Duration>,
        /// Sets draw advantage the engine plays for (the referee's by
        /// default).
        draw_advantage: Option<DrawAdvantage>,
        /// Playing strength (`UCI_LimitStrength`, `UCI_Elo`, `Skill
        /// Level`).
        strength: Strength,
        /// Variant weights set over the built-in ones (`EvalWeights`).
        weights: WeightOverrides,
    },
    /// An external UCI engine.
    Uci {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
        /// UCI options to set, in order.
        options: Vec<(String, String)>,
    },
}

/// A player's settings, parsed from its text form (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The name given, if any.
    pub name: Option<String>,
    /// Tally or an external engine.
    pub kind: PlayerKind,
    /// Hash size in MiB (Tally; external engines get `option.Hash`).
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Own depth limit.
    pub depth: Option<i32>,
    /// Own node limit.
    pub nodes: Option<u64>,
    /// Own time per move.
    pub movetime: Option<Duration>,
    /// The text it was parsed from.
    pub text: String,
}

impl PlayerSpec {
    /// Parses a player's text form.
    ///
    /// # Errors
    ///
    /// A one-line message naming the bad word.
    pub fn parse(text: &str) -> Result<PlayerSpec, String> {
        let mut s = Settings::read(text)?;
        if s.depth.is_some_and(|d| !(1..=64).contains(&d)) {
            return Err("player depth must be 1 to 64".to_owned());
        }
        let kind = match s.cmd.take() {
            Some(cmd) => s.uci_kind(&cmd)?,
            None => s.tally_kind()?,
        };
        let hash_mb = s.hash.unwrap_or(16);
        let threads = s.threads.unwrap_or(1);
        let (max_hash, max_threads) = (crate::search::MAX_HASH_MB, crate::search::MAX_THREADS);
        if !(1..=max_hash).contains(&hash_mb) || !(1..=max_threads).contains(&threads) {
            return Err(format!(
                "hash must be 1 to {max_hash} (MiB) and threads 1 to {max_threads}"
            ));
        }
        Ok(PlayerSpec {
            name: s.name,
            kind,
            hash_mb,
            threads,
            depth: s.depth,
            nodes: s.nodes,
            movetime: s.movetime,
            text: text.trim().to_owned(),
        })
    }

    /// The name to show before the engine is started: the given name,
    /// `tally` (with `-base` for the base evaluator), or the program's
    /// file name.
    pub fn default_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        match &self.kind {
            PlayerKind::Tally { eval, .. } => match eval {
                EvalMode::Variant => "tally".to_owned(),
                mode => format!("tally-{}", mode.name()),
            },
            PlayerKind::Uci { program, .. } => std::path::Path::new(program)
                .file_name()
                .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned()),
        }
    }
}

/// The words of a spec, each read on its own: what they mean together
/// (Tally or an external engine, and its options) is decided after.
#[derive(Debug, Default)]
struct Settings {
    name: Option<String>,
    cmd: Option<String>,
    args: Vec<String>,
    options: Vec<(String, String)>,
    eval: Option<EvalMode>,
    specials: Option<bool>,
    hash: Option<usize>,
    threads: Option<usize>,
    depth: Option<i32>,
    nodes: Option<u64>,
    movetime: Option<Duration>,
}

impl Settings {
    /// Reads every word of `text`, in order.
    fn read(text: &str) -> Result<Settings, String> {
        let mut s = Settings::default();
        for w in words(text)? {
            s.set(&w)?;
        }
        Ok(s)
    }

    /// Reads one `key=value` word.
    fn set(&mut self, word: &str) -> Result<(), String> {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!(
                "player setting '{word}': expected key=value (name, cmd, arg, option.NAME, hash, threads, eval, specials, depth, nodes, movetime)"
            ));
        };
        let lower = key.trim().to_ascii_lowercase();
        match lower.as_str() {
            "name" => self.name = Some(value.to_owned()),
            "cmd" => self.cmd = Some(value.to_owned()),
            "arg" => self.args.push(value.to_owned()),
            "eval" => self.eval = Some(parse_eval(value)?),
            "specials" => self.specials = Some(parse_bool(key, value)?),
            "hash" => self.hash = Some(parse_num(key, value)?),
            "threads" => self.threads = Some(parse_num(key, value)?),
            "depth" => self.depth = Some(parse_num(key, value)?),
            "nodes" => self.nodes = Some(parse_num(key, value)?),
            "movetime" => self.movetime = Some(Duration::from_millis(parse_num(key, value)?)),
            _ if lower.starts_with("option.") => {
                let name = key.trim()["option.".len()..].to_owned();
                if name.is_empty() {
                    return Err(format!("player setting '{word}': option without a name"));
                }
                self.options.push((name, value.to_owned()));
            }
            _ => return Err(format!("unknown player setting '{key}'")),
        }
        Ok(())
    }

    /// An external engine run by `cmd` (split at spaces into the program
    /// and its first arguments): `option.Threads` and `option.Hash` set
    /// the threads and hash, and `threads=` and `hash=` become those
    /// options when not given as options.
    fn uci_kind(&mut self, cmd: &str) -> Result<PlayerKind, String> {
        if self.eval.is_some() || self.specials.is_some() {
            return Err("eval= and specials= are Tally settings, not for cmd= engines".into());
        }
        let mut parts = cmd.split_whitespace().map(str::to_owned);
        let program = parts
            .next()
            .ok_or_else(|| "player setting cmd= is empty".to_owned())?;
        let mut args: Vec<String> = parts.collect();
        args.append(&mut self.args);
        let mut options = std::mem::take(&mut self.options);
        for (n, v) in &options {
            if n.eq_ignore_ascii_case("threads") {
                self.threads = Some(parse_num(n, v)?);
            }
            if n.eq_ignore_ascii_case("hash") {
                self.hash = Some(parse_num(n, v)?);
            }
        }
        let has =
            |o: &[(String, String)], n: &str| o.iter().any(|(x, _)| x.eq_ignore_ascii_case(n));
        if let Some(t) = self.threads.filter(|_| !has(&options, "Threads")) {
            options.push(("Threads".into(), t.to_string()));
        }
        if let Some(h) = self.hash.filter(|_| !has(&options, "Hash")) {
            options.push(("Hash".into(), h.to_string()));
        }
        Ok(PlayerKind::Uci {
            program,
            args,
            options,
        })
    }

    /// Tally itself, its UCI options read into its settings (an option
    /// wins over the matching shorthand).
    fn tally_kind(&mut self) -> Result<PlayerKind, String> {
        if !self.args.is_empty() {
            return Err("arg= needs cmd=".to_owned());
        }
        let mut move_overhead = None;
        let mut draw_advantage = None;
        let mut strength = Strength::default();
        let mut net = None;
        let mut weights = WeightOverrides::default();
        for (n, v) in &self.options {
            match n.to_ascii_lowercase().as_str() {
                "hash" => self.hash = Some(parse_num(n, v)?),
                "threads" => self.threads = Some(parse_num(n, v)?),
                // Checked as `setoption` checks them.
                "multipv" => {
                    parse_in(n, v, 1, MAX_MULTIPV as i32)?;
                }
                "move overhead" | "move_overhead" => {
                    let ms = parse_in(n, v, 0, MAX_MOVE_OVERHEAD as i32)?;
                    move_overhead = Some(Duration::from_millis(ms.unsigned_abs().into()));
                }
                "specialactions" => self.specials = Some(parse_bool(n, v)?),
                "evalmode" => self.eval = Some(parse_eval(v)?),
                "evalfile" => {
                    let loaded = crate::nnue::format::load(std::path::Path::new(v.trim()))
                        .map_err(|e| format!("option.{n}: {e}"))?;
                    net = Some(Arc::new(loaded));
                }
                "evalweights" => {
                    weights = WeightOverrides::parse(v).map_err(|e| format!("option.{n}: {e}"))?;
                }
                "drawadvantage" => draw_advantage = Some(DrawAdvantage::parse(v)?),
                "uci_limitstrength" => strength.limit = parse_bool(n, v)?,
                "uci_elo" => strength.elo = parse_in(n, v, MIN_ELO, MAX_ELO)?,
                "skill level" | "skill_level" => {
                    strength.level = parse_in(n, v, 0, FULL_LEVEL)?;
                }
                _ => {
                    return Err(format!(
                        "option.{n}: not an option Tally takes in a match (Hash, Threads, MultiPV, Move Overhead, SpecialActions, EvalMode, EvalFile, EvalWeights, DrawAdvantage, UCI_LimitStrength, UCI_Elo, Skill Level)"
                    ));
                }
            }
        }
        let default_eval = if net.is_some() {
            EvalMode::Nnue
        } else {
            EvalMode::default()
        };
        Ok(PlayerKind::Tally {
            eval: self.eval.unwrap_or(default_eval),
            net,
            specials: self.specials.unwrap_or(true),
            move_overhead,
            draw_advantage,
            strength,
            weights,
        })
    }
}

/// Splits a spec into words, honouring single and double quotes.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                any = true;
            }
            None if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            None => cur.push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in player '{text}'"));
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

fn parse_num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("player setting {key}={v}: not a valid number"))
}

/// A whole number in `min..=max` (a whole number of any size outside it
/// is out of range, not "not a number").
fn parse_in(key: &str, v: &str, min: i32, max: i32) -> Result<i32, String> {
    let wide: i128 = parse_num(key, v)?;
    if let Some(n) = i32::try_from(wide).ok().filter(|n| (min..=max).contains(n)) {
        Ok(n)
    } else {
        Err(format!(
            "player setting {key}={v}: out of range {min}..{max}"
        ))
    }
}

fn parse_bool(key: &str, v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        _ => Err(format!("player setting {key}={v}: expected on or off")),
    }
}

fn parse_eval(v: &str) -> Result<EvalMode, String> {
    EvalMode::parse(v).ok_or_else(|| format!("eval={v}: expected variant, untuned, base or nnue"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s = PlayerSpec::parse("name=base eval=base hash=8 depth=3").unwrap();
        assert_eq!(s.name.as_deref(), Some("base"));
        assert_eq!(s.hash_mb, 8);
        assert_eq!(s.depth, Some(3));
        assert!(matches!(
            s.kind,
            PlayerKind::Tally {
                eval: EvalMode::Base,
                ..
            }
        ));
        let s = PlayerSpec::parse(
            "cmd='python3 fake.py' arg=hang option.UCI_Elo=2000 \"option.Move Overhead=10\" threads=2",
        )
        .unwrap();
        let PlayerKind::Uci {
            program,
            args,
            options,
        } = &s.kind
        else {
            panic!("external")
        };
        assert_eq!(program, "python3");
        assert_eq!(args, &["fake.py", "hang"]);
        assert!(options.contains(&("Move Overhead".into(), "10".into())));
        assert!(options.contains(&("Threads".into(), "2".into())));
        assert_eq!(s.threads, 2);
        assert_eq!(s.default_name(), "python3");
        assert!(PlayerSpec::parse("colour=red").is_err());
        assert!(PlayerSpec::parse("option.Foo=1").is_err());
        let s = PlayerSpec::parse("option.UCI_LimitStrength=true option.UCI_Elo=1800").unwrap();
        let PlayerKind::Tally { strength, .. } = s.kind else {
            panic!("tally")
        };
        assert_eq!(strength.elo(), Some(1800));
        let s = PlayerSpec::parse("\"option.Skill Level=3\"").unwrap();
        let PlayerKind::Tally { strength, .. } = s.kind else {
            panic!("tally")
        };
        assert_eq!(
            strength.elo(),
            Some(MIN_ELO + 3 * crate::search::skill::ELO_PER_LEVEL)
        );
        assert!(PlayerSpec::parse("option.UCI_Elo=900").is_err());
        assert!(PlayerSpec::parse("\"option.Skill Level=21\"").is_err());
        assert!(PlayerSpec::parse("option.UCI_LimitStrength=maybe").is_err());
        // Tally's options keep the bounds `setoption` keeps.
        for bad in [
            "option.MultiPV=0",
            "option.MultiPV=257",
            "\"option.Move Overhead=5001\"",
        ] {
            let e = PlayerSpec::parse(bad).unwrap_err();
            assert!(e.contains("out of range"), "{bad}: {e}");
        }
        let e = PlayerSpec::parse("\"option.Move Overhead=99999999999999\"").unwrap_err();
        assert!(e.contains("out of range 0..5000"), "{e}");
        assert!(PlayerSpec::parse("option.MultiPV=256 \"option.Move Overhead=5000\"").is_ok());
        assert!(PlayerSpec::parse("cmd='unterminated").is_err());
        assert!(PlayerSpec::parse("depth=x").is_err());
    }

    #[test]
    fn nets_in_specs() {
        let s = PlayerSpec::parse("eval=nnue").unwrap();
        assert_eq!(s.default_name(), "tally-nnue");
        let dir = std::env::temp_dir().join(format!("tally-spec-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.tnn");
        let net = crate::nnue::tests::random_net(crate::rules::BoardKind::Standard, 4);
        crate::nnue::format::save(&net, &path).unwrap();
        // EvalFile loads the net and implies nnue unless eval= says.
        let s = PlayerSpec::parse(&format!("option.EvalFile={}", path.display())).unwrap();
        let PlayerKind::Tally { eval, net: got, .. } = &s.kind else {
            panic!("tally")
        };
        assert_eq!(*eval, EvalMode::Nnue);
        assert_eq!(got.as_deref(), Some(&net));
        let s = PlayerSpec::parse(&format!("eval=base option.EvalFile={}", path.display()));
        assert!(matches!(
            s.unwrap().kind,
            PlayerKind::Tally {
                eval: EvalMode::Base,
                ..
            }
        ));
        let e = PlayerSpec::parse("option.EvalFile=/no/such/net.tnn").unwrap_err();
        assert!(
            e.starts_with("option.EvalFile: cannot read /no/such/net.tnn"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn weights_in_specs() {
        let s = PlayerSpec::parse("name=t option.EvalWeights=wacky_tempo=0,wacky_our_check=4000")
            .unwrap();
        let PlayerKind::Tally { weights, .. } = &s.kind else {
            panic!("tally")
        };
        assert_eq!(
            *weights,
            WeightOverrides::parse("wacky_tempo=0 wacky_our_check=4000").unwrap()
        );
        let e = PlayerSpec::parse("option.EvalWeights=no_such=1").unwrap_err();
        assert_eq!(e, "option.EvalWeights: unknown weight 'no_such'");
        // An external engine gets it as a plain option.
        let s = PlayerSpec::parse("cmd=tally option.EvalWeights=wacky_tempo=0").unwrap();
        let PlayerKind::Uci { options, .. } = &s.kind else {
            panic!("external")
        };
        assert!(options.contains(&("EvalWeights".to_owned(), "wacky_tempo=0".to_owned())));
    }
}

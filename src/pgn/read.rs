//! Reading PGN: a byte stream split into games, and each game read with
//! `pgn-reader` into the referee's input.
//!
//! What lives here: [`GameSplitter`] (raw game texts from any byte stream,
//! so that games can be read and scored in parallel and a broken game never
//! stops the next one) and [`read_games`] (tags, moves, clocks and the
//! result of the games in one text), with the check that no move was
//! silently dropped. The notation itself is described in [`crate::pgn`];
//! scoring is the referee's.

use std::io::{self, BufRead};
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::KnownOutcome;

use super::{ACTION, SPECIAL_WORDS, action_command};
use crate::referee::{GameInput, PlyInput};

/// The most bytes of PGN text one game may take (1 MiB: a long game with
/// a clock and an evaluation comment on every ply takes some 50 KiB).
/// [`GameSplitter`] skips a longer game and reports it as [`GameTooLong`].
pub const MAX_GAME_BYTES: u64 = 1 << 20;

/// Bytes of a line kept to classify it (a tag, a blank line, an escape)
/// while a game too long to keep is skipped.
const PEEK: usize = 256;

/// A game longer than [`MAX_GAME_BYTES`], skipped by [`GameSplitter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameTooLong {
    /// Its length in bytes.
    pub bytes: u64,
}

impl std::fmt::Display for GameTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} bytes, more than the {} MiB a game may take (not read)",
            self.bytes,
            MAX_GAME_BYTES >> 20
        )
    }
}

impl std::error::Error for GameTooLong {}

impl GameTooLong {
    /// The [`GameTooLong`] an item of [`GameSplitter`] carries, if any.
    pub fn of(error: &io::Error) -> Option<GameTooLong> {
        error.get_ref()?.downcast_ref::<GameTooLong>().copied()
    }
}

/// Splits a PGN byte stream into the raw text of each game, along the
/// boundaries `pgn-reader` uses (a tag line or a blank line after
/// movetext, outside comments) and after tags followed by two blank lines
/// (a game without movetext, which `pgn-reader` would join to the next).
///
/// Memory is bounded whatever the stream holds: a game longer than
/// [`MAX_GAME_BYTES`] (an endless line included) is read to its end
/// without being kept and comes as an error of kind
/// [`io::ErrorKind::InvalidData`] carrying [`GameTooLong`] (see
/// [`GameTooLong::of`]); the next game follows. Any other error is the
/// stream's, and the last item.
#[derive(Debug)]
pub struct GameSplitter<R> {
    reader: R,
    line: Vec<u8>,
    /// The first line of the next game (its first bytes when it is long).
    pending: Vec<u8>,
    /// The whole length of the `pending` line.
    pending_len: u64,
    started: bool,
    done: bool,
}

/// What one game's text came to.
enum Split {
    Text(Vec<u8>),
    TooLong(u64),
    Nothing,
}

/// The comment state of movetext: inside a brace comment, or after a `;`
/// (the rest of the line is a comment).
#[derive(Clone, Copy)]
struct Scan {
    in_comment: bool,
    rest_of_line: bool,
}

impl Scan {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.rest_of_line {
                return;
            }
            if self.in_comment {
                self.in_comment = b != b'}';
            } else if b == b'{' {
                self.in_comment = true;
            } else if b == b';' {
                self.rest_of_line = true;
            }
        }
    }
}

impl<R: BufRead> GameSplitter<R> {
    /// A splitter over `reader`.
    pub fn new(reader: R) -> GameSplitter<R> {
        GameSplitter {
            reader,
            line: Vec::new(),
            pending: Vec::new(),
            pending_len: 0,
            started: false,
            done: false,
        }
    }

    /// Reads one line (to its `\n` or the end of the stream), keeping its
    /// first `keep` bytes in `self.line`. Returns its whole length and the
    /// comment state after it, were it movetext that starts in `in_comment`.
    fn read_line(&mut self, keep: usize, in_comment: bool) -> io::Result<(u64, bool)> {
        self.line.clear();
        let mut len = 0u64;
        let mut scan = Scan {
            in_comment,
            rest_of_line: false,
        };
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            let (piece, end) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..=i], true),
                None => (buf, false),
            };
            let room = keep.saturating_sub(self.line.len());
            self.line
                .extend_from_slice(piece.get(..room).unwrap_or(piece));
            scan.feed(piece);
            let n = piece.len();
            len += n as u64;
            self.reader.consume(n);
            if end {
                break;
            }
        }
        if !self.started && len > 0 {
            self.started = true;
            if self.line.starts_with(b"\xef\xbb\xbf") {
                self.line.drain(..3);
            }
        }
        Ok((len, scan.in_comment))
    }

    fn next_chunk(&mut self) -> io::Result<Split> {
        let mut game = GameText::default();
        let first = std::mem::take(&mut self.pending);
        let first_len = std::mem::take(&mut self.pending_len);
        if first_len > 0 {
            game.add(&first, first_len);
        }
        let mut movetext = false;
        let mut in_comment = false;
        // Whether a tag line was seen, and blank lines since the last one.
        let mut tags = first_len > 0;
        let mut blanks = 0u8;
        loop {
            let keep = if game.too_long {
                PEEK
            } else {
                let room = MAX_GAME_BYTES - game.size;
                usize::try_from(room).unwrap_or(usize::MAX).max(PEEK)
            };
            let (len, comment_after) = self.read_line(keep, in_comment)?;
            if len == 0 {
                self.done = true;
                break;
            }
            let line = &self.line[..];
            if !in_comment {
                if movetext && line.first() == Some(&b'[') {
                    self.pending.extend_from_slice(line);
                    self.pending_len = len;
                    break;
                }
                if movetext && matches!(line, b"\n" | b"\r\n") {
                    game.add(line, len);
                    break;
                }
                let first = line.iter().find(|b| !b.is_ascii_whitespace());
                if !movetext && first.is_none() {
                    game.add(line, len);
                    // Two blank lines after tags end a game without
                    // movetext, as python-chess reads it (pgn-reader
                    // would take the next game's tags as more of its own).
                    blanks += u8::from(tags);
                    if blanks == 2 {
                        break;
                    }
                    continue;
                }
                if !movetext && first == Some(&b'[') || line.first() == Some(&b'%') {
                    if first == Some(&b'[') {
                        tags = true;
                        blanks = 0;
                    }
                    game.add(line, len);
                    continue;
                }
            }
            game.add(line, len);
            movetext = true;
            in_comment = comment_after;
        }
        Ok(if game.blank {
            Split::Nothing
        } else if game.too_long {
            Split::TooLong(game.size)
        } else {
            Split::Text(game.text)
        })
    }
}

/// The text of one game while it is split off: kept while it fits
/// [`MAX_GAME_BYTES`], only counted after.
#[derive(Debug)]
struct GameText {
    text: Vec<u8>,
    size: u64,
    too_long: bool,
    /// Whether every line so far was blank.
    blank: bool,
}

impl Default for GameText {
    fn default() -> GameText {
        GameText {
            text: Vec::new(),
            size: 0,
            too_long: false,
            blank: true,
        }
    }
}

impl GameText {
    /// Adds a line of `len` bytes, of which `line` holds the first ones
    /// (all of them while the game fits).
    fn add(&mut self, line: &[u8], len: u64) {
        self.size = self.size.saturating_add(len);
        self.blank &= line.iter().all(u8::is_ascii_whitespace);
        if self.too_long {
            return;
        }
        if self.size > MAX_GAME_BYTES {
            self.too_long = true;
            self.text = Vec::new();
        } else {
            self.text.extend_from_slice(line);
        }
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = io::Result<Vec<u8>>;

    fn next(&mut self) -> Option<io::Result<Vec<u8>>> {
        while !self.done || !self.pending.is_empty() {
            match self.next_chunk() {
                Ok(Split::Text(c)) => return Some(Ok(c)),
                Ok(Split::TooLong(bytes)) => {
                    return Some(Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        GameTooLong { bytes },
                    )));
                }
                Ok(Split::Nothing) => {}
                Err(e) => {
                    self.done = true;
                    self.pending.clear();
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

/// A game as read from PGN.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Variant` tag.
    pub variant: Option<String>,
    /// Every tag as written (names and values, UTF-8 lossy), in order.
    pub tags: Vec<(String, String)>,
    /// The game to score (FEN, plies, clocks, result).
    pub input: GameInput,
    /// The first problem found while reading: the 0-based ply it stands
    /// before and what it is.
    pub problem: Option<(usize, String)>,
}

impl PgnGame {
    /// The value of the tag `name` (the first of that name, any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn flag(&mut self, reason: String) {
        if self.problem.is_none() {
            self.problem = Some((self.input.plies.len(), reason));
        }
    }
}

/// One `[%name args]` command of a comment.
fn commands(comment: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut rest = comment;
    std::iter::from_fn(move || {
        let start = rest.windows(2).position(|w| w == b"[%")?;
        let after = &rest[start + 2..];
        let end = after.iter().position(|&b| b == b']').unwrap_or(after.len());
        let body = &after[..end];
        rest = after.get(end + 1..).unwrap_or(&[]);
        let body = body.trim_ascii();
        let split = body
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(body.len());
        Some((&body[..split], body[split..].trim_ascii()))
    })
}

/// Parses a `[%clk]` value (`H:MM:SS`, `MM:SS` or `SS`, fractions dropped)
/// into whole seconds.
pub fn parse_clock(text: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(text).ok()?.trim();
    let whole = text.split('.').next()?;
    let mut secs: u64 = 0;
    let mut parts = 0;
    for part in whole.split(':') {
        parts += 1;
        if parts > 3 || part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        secs = secs.checked_mul(60)?.checked_add(part.parse().ok()?)?;
    }
    Some(secs)
}

/// The `pgn-reader` visitor that collects a [`PgnGame`].
struct Collect;

/// The movetext state of [`Collect`]: the game and a pending long comment.
struct Movetext {
    game: PgnGame,
    result_tag: Option<KnownOutcome>,
    outcome: Option<Outcome>,
    comment: Vec<u8>,
}

fn known(text: &[u8]) -> Option<KnownOutcome> {
    match text.trim_ascii() {
        b"1-0" => Some(KnownOutcome::Decisive {
            winner: shakmaty::Color::White,
        }),
        b"0-1" => Some(KnownOutcome::Decisive {
            winner: shakmaty::Color::Black,
        }),
        b"1/2-1/2" => Some(KnownOutcome::Draw),
        _ => None,
    }
}

impl Movetext {
    fn finish_comment(&mut self) {
        let text = std::mem::take(&mut self.comment);
        for (name, arg) in commands(&text) {
            match name {
                b"clk" => {
                    let n = self.game.input.plies.len();
                    if n > 0 {
                        let clock = parse_clock(arg);
                        let clocks = &mut self.game.input.clocks;
                        clocks.resize(n, None);
                        if let Some(slot) = clocks.get_mut(n - 1) {
                            *slot = clock;
                        }
                    }
                }
                ACTION => {
                    let word = shown(arg).to_ascii_lowercase();
                    if SPECIAL_WORDS.contains(&word.as_str()) {
                        self.game.input.plies.push(PlyInput::Text(word));
                    } else {
                        self.game.flag(format!(
                            "unknown special action '{word}' (expected disk, swap, restore or claim)"
                        ));
                        self.game.input.plies.push(PlyInput::Text(word));
                    }
                }
                _ => {}
            }
        }
    }
}

impl Visitor for Collect {
    type Tags = (PgnGame, Option<KnownOutcome>);
    type Movetext = Movetext;
    type Output = PgnGame;

    fn begin_tags(&mut self) -> ControlFlow<PgnGame, Self::Tags> {
        ControlFlow::Continue((PgnGame::default(), None))
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<PgnGame> {
        let text = || value.decode_utf8_lossy().trim().to_owned();
        tags.0
            .tags
            .push((String::from_utf8_lossy(name).into_owned(), text()));
        match name {
            b"White" => tags.0.white = Some(text()),
            b"Black" => tags.0.black = Some(text()),
            b"Variant" => {
                tags.0.input.chess960 = super::is_chess960_tag(&text());
                tags.0.variant = Some(text());
            }
            b"FEN" => tags.0.input.fen = Some(text()),
            b"Result" => tags.1 = known(value.as_bytes()),
            b"Termination" => {
                tags.0.input.time_forfeit = text().eq_ignore_ascii_case("time forfeit");
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<PgnGame, Movetext> {
        ControlFlow::Continue(Movetext {
            game: tags.0,
            result_tag: tags.1,
            outcome: None,
            comment: Vec::new(),
        })
    }

    fn san(&mut self, mt: &mut Movetext, san: SanPlus) -> ControlFlow<PgnGame> {
        mt.game.input.plies.push(PlyInput::San(san));
        ControlFlow::Continue(())
    }

    fn partial_comment(&mut self, mt: &mut Movetext, c: RawComment<'_>) -> ControlFlow<PgnGame> {
        mt.comment.extend_from_slice(c.as_bytes());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, mt: &mut Movetext, c: RawComment<'_>) -> ControlFlow<PgnGame> {
        mt.comment.extend_from_slice(c.as_bytes());
        mt.finish_comment();
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _mt: &mut Movetext) -> ControlFlow<PgnGame, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, mt: &mut Movetext, outcome: Outcome) -> ControlFlow<PgnGame> {
        mt.outcome = Some(outcome);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut mt: Movetext) -> PgnGame {
        mt.game.input.result = match mt.outcome {
            Some(Outcome::Known(k)) => Some(k),
            Some(Outcome::Unknown) => None,
            None => mt.result_tag,
        };
        mt.game
    }
}

/// Game `n` (1-based) of a PGN stream; `name` (the file's) heads the
/// messages. A game too long or too broken to read is skipped when it is
/// not game `n`.
///
/// # Errors
///
/// Game `n` is not there, cannot be read or has an illegal move: one line.
pub fn nth_game(reader: impl BufRead, n: usize, name: &str) -> Result<PgnGame, String> {
    let mut seen = 0;
    for chunk in GameSplitter::new(reader) {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) if GameTooLong::of(&e).is_some() && seen + 1 != n => {
                seen += 1;
                continue;
            }
            Err(e) => return Err(format!("{name} game {}: {e}", seen + 1)),
        };
        // A game that cannot be read counts as one (as `tally score` counts
        // it) and matters only when it is game `n`.
        let games = match read_games(&chunk) {
            Ok(games) => games,
            Err(_) if seen + 1 != n => {
                seen += 1;
                continue;
            }
            Err(e) => return Err(format!("{name} game {n}: {e}")),
        };
        for g in games {
            seen += 1;
            if seen == n {
                if let Some((ply, problem)) = &g.problem {
                    return Err(format!("{name} game {n}, ply {}: {problem}", ply + 1));
                }
                return Ok(g);
            }
        }
    }
    Err(format!("{name} has {seen} games: no game {n}"))
}

/// The longest tag line (`[Name "value"]`) read for certain; the reader
/// may take somewhat longer ones, and refuses a far longer one by its
/// length.
pub const MAX_TAG_LINE: usize = 8192;

/// Reads every game in one raw game text (normally one, as
/// [`GameSplitter`] cuts them).
///
/// # Errors
///
/// The reader's error for text it cannot read at all (an unterminated tag
/// or comment), as one line.
pub fn read_games(text: &[u8]) -> Result<Vec<PgnGame>, String> {
    let mut reader = Reader::build(text)
        .set_supported_comment_length(4096)
        .set_supported_tag_line_length(MAX_TAG_LINE)
        .finish();
    let mut games = Vec::new();
    loop {
        match reader.read_game(&mut Collect) {
            Ok(Some(g)) => games.push(g),
            Ok(None) => break,
            Err(e) => {
                if let Some(long) = text
                    .split(|&b| b == b'\n')
                    .find(|l| l.trim_ascii_start().starts_with(b"[") && l.len() > MAX_TAG_LINE)
                {
                    return Err(format!(
                        "malformed PGN: a tag line of {} bytes (a tag line may have {MAX_TAG_LINE})",
                        long.len()
                    ));
                }
                return Err(format!("malformed PGN: {e}"));
            }
        }
    }
    if games.len() == 1
        && let Some(g) = games.first_mut()
        && let Some(problem) = audit(text)
        && g.problem.as_ref().is_none_or(|(k, _)| problem.0 < *k)
    {
        g.problem = Some(problem);
    }
    Ok(games)
}

/// Whether `b` ends a movetext token, as `pgn-reader` decides.
fn token_end(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b'!'
            | b'?'
            | b'$'
            | b';'
            | b'.'
            | b'*'
    )
}

/// Finds the first movetext token that `pgn-reader` would silently drop
/// although it looks like a move: returns the number of plies before it
/// and a reason. Annotation symbols and other tokens that do not start
/// with a letter or digit are left alone.
fn audit(text: &[u8]) -> Option<(usize, String)> {
    let mut i = 0;
    let n = text.len();
    let at = |i: usize| text.get(i).copied();
    // Skip the tag section: lines that start with '[' (after blanks), blank
    // lines and escape lines.
    loop {
        let line_end = text[i..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(n, |p| i + p + 1);
        let line = &text[i..line_end];
        let first = line.iter().find(|b| !b.is_ascii_whitespace());
        if i < n && (matches!(first, None | Some(b'[')) || line.first() == Some(&b'%')) {
            i = line_end;
        } else {
            break;
        }
    }
    let mut plies = 0usize;
    let mut line_start = true;
    while i < n {
        let b = text[i];
        match b {
            b'\n' => {
                i += 1;
                line_start = true;
                continue;
            }
            b'%' if line_start => {
                i = skip_to(text, i, b'\n');
            }
            b'{' => {
                let end = skip_to(text, i, b'}');
                let body = &text[i + 1..end.min(n)];
                plies += commands(body).filter(|(c, _)| *c == ACTION).count();
                i = end + 1;
            }
            b';' => i = skip_to(text, i, b'\n'),
            b'(' => i = skip_variation(text, i + 1),
            b'$' => {
                i += 1;
                while at(i).is_some_and(|b| !token_end(b)) {
                    i += 1;
                }
            }
            _ if token_end(b) => i += 1,
            _ => {
                let start = i;
                while at(i).is_some_and(|b| !token_end(b)) {
                    i += 1;
                }
                if text[start..].starts_with(b"e.p.") {
                    i = start + 4;
                } else if let Some(reason) = check_token(&text[start..i], &mut plies) {
                    return Some((plies, reason));
                }
            }
        }
        line_start = false;
    }
    None
}

fn skip_to(text: &[u8], from: usize, needle: u8) -> usize {
    text.get(from..)
        .and_then(|t| t.iter().position(|&b| b == needle))
        .map_or(text.len(), |p| from + p)
}

fn skip_variation(text: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while let Some(&b) = text.get(i) {
        match b {
            b'(' => depth += 1,
            b')' => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return i + 1,
            },
            b'{' => i = skip_to(text, i, b'}'),
            b';' => i = skip_to(text, i, b'\n'),
            _ => {}
        }
        i += 1;
    }
    i
}

/// Classifies one token; counts a move in `plies`; returns why a token
/// that looks like a move cannot be read.
fn check_token(token: &[u8], plies: &mut usize) -> Option<String> {
    const RESULTS: [&[u8]; 4] = [b"1-0", b"0-1", b"1/2-1/2", "½-½".as_bytes()];
    if RESULTS.contains(&token) {
        return None;
    }
    let castle = token.trim_ascii_end();
    let castle = castle
        .strip_suffix(b"+")
        .or_else(|| castle.strip_suffix(b"#"))
        .unwrap_or(castle);
    if castle == b"0-0" || castle == b"0-0-0" {
        *plies += 1;
        return None;
    }
    // Move numbers ("12", then '.' ends the token); digits glued to a move
    // ("1e4") are a move number and the move.
    let rest = match token.iter().position(|b| !b.is_ascii_digit()) {
        None => return None,
        Some(0) => token,
        Some(p) => &token[p..],
    };
    if rest.is_empty() {
        return None;
    }
    if SanPlus::from_ascii(rest).is_ok() {
        *plies += 1;
        return None;
    }
    let word = String::from_utf8_lossy(rest).to_ascii_lowercase();
    if SPECIAL_WORDS.contains(&word.as_str()) {
        return Some(format!(
            "special action '{word}' must be written as a comment: {{{}}}",
            action_command(&word)
        ));
    }
    if rest.iter().any(|b| !b.is_ascii_graphic()) {
        // A control or non-ASCII byte: not PGN movetext (a binary file).
        return Some(format!("cannot read '{}': not PGN text", shown(rest)));
    }
    let first = rest.first().copied().unwrap_or(b' ');
    if !first.is_ascii_alphanumeric() || rest == b"N" || rest == b"ep" {
        return None;
    }
    Some(format!("cannot read '{}' as a move", shown(rest)))
}

/// A token as an error message quotes it: at most 40 characters.
fn shown(token: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(token);
    let text = match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.into_owned(),
    };
    crate::text::printable(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<String> {
        GameSplitter::new(text.as_bytes())
            .map(|c| String::from_utf8(c.unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn splits_like_pgn_reader() {
        let pgn = "\u{feff}[Event \"a\"]\n[Site \"b\"]\n\n1. e4 { a\n[not a tag] } e5 1-0\n\n[Event \"c\"]\n\n1. d4 *\n[Event \"d\"]\n1. c4 *\n";
        let games = split(pgn);
        assert_eq!(games.len(), 3, "{games:?}");
        assert!(games[0].starts_with("[Event \"a\"]"));
        assert!(games[0].contains("[not a tag]"));
        assert!(games[1].starts_with("[Event \"c\"]"));
        assert!(games[2].contains("c4"));
        assert!(split("").is_empty());
        assert!(split("\n\n  \n").is_empty());
    }

    #[test]
    fn long_games_are_skipped_and_counted() {
        let long = "y".repeat((MAX_GAME_BYTES + 1) as usize);
        let pgn = format!(
            "[Event \"a\"]\n1. e4 *\n[Event \"{long}\"]\n1. d4 *\n[Event \"c\"]\n1. c4 {{ {long} }} *\n\n{long}\n[Event \"e\"]\n1. f4 *\n"
        );
        let items: Vec<_> = GameSplitter::new(pgn.as_bytes()).collect();
        let too_long = |i: usize| items[i].as_ref().err().and_then(GameTooLong::of);
        assert_eq!(items.len(), 5);
        assert!(items[0].as_ref().is_ok_and(|g| g.ends_with(b"1. e4 *\n")));
        let tag = long.len() as u64 + 19;
        assert_eq!(too_long(1), Some(GameTooLong { bytes: tag }));
        assert_eq!(too_long(2).map(|t| t.bytes), Some(long.len() as u64 + 26));
        assert_eq!(too_long(3).map(|t| t.bytes), Some(long.len() as u64 + 1));
        assert!(
            items[4]
                .as_ref()
                .is_ok_and(|g| g.starts_with(b"[Event \"e\"]"))
        );
        // Blank text is no game, however long.
        let blank = " ".repeat(3 * MAX_GAME_BYTES as usize);
        assert!(split(&blank).is_empty());
    }

    #[test]
    fn tags_without_movetext_are_a_game() {
        // Two blank lines end a game that has only tags; one does not (the
        // tags run on, for python-chess as for pgn-reader).
        let games = split("[Event \"a\"]\n\n\n[Event \"b\"]\n\n[Site \"c\"]\n\n1. e4 *\n");
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(games[0], "[Event \"a\"]\n\n\n");
        let read = read_games(games[0].as_bytes()).unwrap();
        assert_eq!(read.len(), 1);
        assert!(read[0].input.plies.is_empty());
        assert!(games[1].starts_with("[Event \"b\"]\n\n[Site"));
        // An escape line does not break a run of blank lines.
        assert_eq!(
            split("\n\n\n% x\n\n\n[Event \"a\"]\n\n% y\n\n[Site \"b\"]\n").len(),
            2
        );
        // Blank lines at the start of the stream make no game.
        assert_eq!(split("\n\n\n\n1. d4 *\n").len(), 1);
    }

    /// A tag line the reader cannot hold is refused by its length, and a
    /// long one it can hold is read.
    #[test]
    fn overlong_tag_lines_are_refused_by_length() {
        let tag = |n: usize| {
            format!(
                "[Event \"{}\"]\n[White \"w\"]\n\n1. e4 e5 *\n",
                "x".repeat(n)
            )
        };
        let games = read_games(tag(MAX_TAG_LINE - 20).as_bytes()).unwrap();
        assert_eq!(games[0].white.as_deref(), Some("w"));
        let e = read_games(tag(40_000).as_bytes()).unwrap_err();
        assert_eq!(
            e,
            format!(
                "malformed PGN: a tag line of 40010 bytes (a tag line may have {MAX_TAG_LINE})"
            )
        );
    }

    /// Game `n` of a file is read whatever is wrong with the games before
    /// it; game `n` itself unreadable is named by its number.
    #[test]
    fn nth_game_skips_unreadable_games_before_it() {
        let long = format!("[Event \"{}\"]\n\n1. e4 *\n\n", "y".repeat(20_000));
        let text = format!("{long}[White \"two\"]\n\n1. d4 d5 *\n");
        let g = nth_game(text.as_bytes(), 2, "f.pgn").unwrap();
        assert_eq!(g.white.as_deref(), Some("two"));
        let e = nth_game(text.as_bytes(), 1, "f.pgn").unwrap_err();
        assert!(
            e.starts_with("f.pgn game 1: malformed PGN: a tag line of"),
            "{e}"
        );
        let e = nth_game(text.as_bytes(), 3, "f.pgn").unwrap_err();
        assert_eq!(e, "f.pgn has 2 games: no game 3");
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock(b"1:23:45"), Some(5025));
        assert_eq!(parse_clock(b"0:00:09.7"), Some(9));
        assert_eq!(parse_clock(b"05:00"), Some(300));
        assert_eq!(parse_clock(b"x"), None);
        assert_eq!(parse_clock(b"1:2:3:4"), None);
    }

    #[test]
    fn reads_moves_actions_and_clocks() {
        let pgn = b"[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[Result \"0-1\"]\n\n1. e4 {[%clk 0:01:00]} {[%action disk]} e5 {[%clk 0:00:59.5]} *\n";
        let games = read_games(pgn).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.input.plies.len(), 3);
        assert_eq!(g.input.plies[1], PlyInput::Text("disk".into()));
        assert_eq!(g.input.clocks, vec![Some(60), None, Some(59)]);
        // The movetext's '*' wins over the Result tag.
        assert_eq!(g.input.result, None);
        assert!(g.problem.is_none());
    }

    #[test]
    fn audit_finds_dropped_tokens() {
        let g = &read_games(b"1. e4 e5 2. Nf9 Nc6 *").unwrap()[0];
        assert_eq!(g.problem, Some((2, "cannot read 'Nf9' as a move".into())));
        let g = &read_games(b"1. e4 disk *").unwrap()[0];
        assert!(g.problem.as_ref().unwrap().1.contains("{[%action disk]}"));
        let g =
            &read_games(b"1. e4! e5?! 2. Nf3 $1 (2. f4 exf4) +- 2... Nc6 = N 3. exd6 e.p. 0-0 1-0")
                .unwrap()[0];
        assert_eq!(g.problem, None);
        assert_eq!(g.input.plies.len(), 6);
        // Control or non-ASCII bytes in the movetext (a binary file) are
        // not skipped as punctuation.
        for bad in [
            &b"1. e4 e5 \x01 2. Nf3 *"[..],
            b"\x7fabc e4 *",
            b"e4 \xff\xfe *",
        ] {
            let g = &read_games(bad).unwrap()[0];
            let (_, why) = g.problem.as_ref().expect("a problem");
            assert!(why.contains("not PGN text"), "{why}");
            assert!(!why.chars().any(char::is_control), "{why}");
        }
    }
}

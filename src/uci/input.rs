//! Reading commands: a thread turns the raw input into lines and feeds them
//! to the loop through a channel, so a running search never waits for
//! input and input never waits for a search. Long work running beside the
//! loop says it has ended through the same channel.
//!
//! Lines are bytes up to `\n` (a trailing `\r` is dropped), converted to
//! text lossily, so invalid UTF-8 never stops the reader. A line longer than
//! [`MAX_LINE`] bytes is not kept: the reader skips to its end and reports
//! its length instead. Read errors count as the end of input.

use std::io::{BufRead, ErrorKind};
use std::sync::mpsc::Sender;

/// The longest line the loop accepts, in bytes (1 MiB). A game's longest
/// `position` command is far shorter (tens of kilobytes).
pub const MAX_LINE: usize = 1 << 20;

/// What the reader thread sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Input {
    /// A line, without its line ending.
    Line(String),
    /// A line that was too long, with its length in bytes; it was skipped.
    TooLong(usize),
    /// The end of the input (or a read error).
    Eof,
    /// Long work running beside the loop has ended (sent by that work, not
    /// by the reader).
    WorkDone,
}

/// Starts the reader thread, which sends what it reads to `tx`. If the
/// thread cannot start, [`Input::Eof`] is sent at once.
pub(super) fn spawn_reader<R: BufRead + Send + 'static>(mut input: R, tx: Sender<Input>) {
    let eof = tx.clone();
    let started = std::thread::Builder::new()
        .name("tally-uci-input".to_owned())
        .spawn(move || {
            let mut buf = Vec::new();
            loop {
                let msg = match read_line(&mut input, &mut buf) {
                    Some(len) if len > MAX_LINE => Input::TooLong(len),
                    Some(_) => Input::Line(String::from_utf8_lossy(&buf).into_owned()),
                    None => Input::Eof,
                };
                let eof = msg == Input::Eof;
                if tx.send(msg).is_err() || eof {
                    break;
                }
            }
        });
    if started.is_err() {
        let _ = eof.send(Input::Eof);
    }
}

/// Reads one line into `buf` (at most [`MAX_LINE`] bytes of it kept) and
/// returns its full length, or `None` at the end of input.
fn read_line<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Option<usize> {
    buf.clear();
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            // End of input: a last line without `\n` still counts.
            return any.then(|| finish(buf, len));
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        len = len.saturating_add(part.len());
        let room = (MAX_LINE + 1).saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len() + usize::from(done);
        input.consume(used);
        if done {
            return Some(finish(buf, len));
        }
    }
}

/// Drops a trailing `\r` and returns the line's length.
fn finish(buf: &mut Vec<u8>, mut len: usize) -> usize {
    if len == buf.len() && buf.last() == Some(&b'\r') {
        buf.pop();
        len -= 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(bytes: &[u8]) -> Vec<Input> {
        let (tx, rx) = std::sync::mpsc::channel();
        spawn_reader(Cursor::new(bytes.to_vec()), tx);
        rx.iter().collect()
    }

    #[test]
    fn splits_lines_and_ends() {
        assert_eq!(
            lines(b"uci\r\nisready\nquit"),
            vec![
                Input::Line("uci".into()),
                Input::Line("isready".into()),
                Input::Line("quit".into()),
                Input::Eof
            ]
        );
        assert_eq!(lines(b""), vec![Input::Eof]);
        assert_eq!(
            lines(b"\n\n"),
            vec![
                Input::Line(String::new()),
                Input::Line(String::new()),
                Input::Eof
            ]
        );
    }

    #[test]
    fn invalid_utf8_and_long_lines() {
        let got = lines(b"a\xff\xfeb\nok\n");
        assert_eq!(got[0], Input::Line("a\u{fffd}\u{fffd}b".into()));
        assert_eq!(got[1], Input::Line("ok".into()));
        let mut long = vec![b'x'; MAX_LINE + 10];
        long.extend_from_slice(b"\nisready\n");
        let got = lines(&long);
        assert_eq!(got[0], Input::TooLong(MAX_LINE + 10));
        assert_eq!(got[1], Input::Line("isready".into()));
        let mut exact = vec![b'y'; MAX_LINE];
        exact.push(b'\n');
        let got = lines(&exact);
        assert_eq!(got[0], Input::Line("y".repeat(MAX_LINE)));
    }
}

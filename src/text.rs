//! Untrusted text made safe to show a person.
//!
//! PGN tags, movetext tokens, file names and command-line words can hold
//! control characters: an escape sequence printed raw retitles or
//! recolours the terminal, or worse. Everything printed for a person
//! (summaries, tables, error lines, PGN tags written back out) passes
//! through [`printable`]. JSON output needs nothing more: serde escapes the
//! C0 controls itself, and no JSON that `tally score` writes holds
//! untrusted text.
//!
//! This module imports nothing of Tally's, so every layer may use it.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every control character written as an escape: C0 (tab
/// excepted; a newline too, so that one line stays one line) and DEL as
/// `\xNN`, C1 as `\u{NN}`. Text without any is returned as it is.
pub fn printable(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c != '\t' && c.is_control();
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
        } else if c <= '\x7f' {
            let _ = write!(out, "\\x{:02x}", u32::from(c));
        } else {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
    Cow::Owned(out)
}

/// Text for an error message: at most 40 characters, control characters
/// escaped ([`printable`]).
pub fn clip(s: &str) -> String {
    let head: String = s.chars().take(40).collect();
    let mut out = printable(&head).into_owned();
    if s.chars().nth(40).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped() {
        assert!(matches!(printable("Carlsen, M."), Cow::Borrowed(_)));
        assert_eq!(printable("a\tb"), "a\tb");
        assert_eq!(
            printable("\x1b]0;pwned\x07\x1b[31m"),
            "\\x1b]0;pwned\\x07\\x1b[31m"
        );
        assert_eq!(printable("x\0y\r\nz\x7f"), "x\\x00y\\x0d\\x0az\\x7f");
        assert_eq!(printable("\u{9b}31m é ♞"), "\\u{9b}31m é ♞");
    }
}

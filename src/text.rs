//! Untrusted text made safe to show a person.
//!
//! PGN tags, movetext tokens, file names and command-line words can hold
//! control characters: an escape sequence printed raw retitles or
//! recolours the terminal, or worse. Everything printed for a person
//! (summaries, tables, error lines, PGN tags written back out) passes
//! through [`printable`]; text put into markup for a person (the HTML
//! report, the SVG chart) through [`for_markup`] on top of the markup's
//! own escaping. Both also neutralise the Unicode bidirectional controls
//! ([`is_bidi_control`]): a right-to-left override in a player's name
//! would reorder the text after it. JSON output needs nothing more: serde escapes the
//! C0 controls itself, and no JSON that `tally score` writes holds
//! untrusted text.
//!
//! This module imports nothing of Tally's, so every layer may use it.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Whether `c` is a Unicode bidirectional formatting character: the
/// embeddings and overrides U+202A to U+202E, the isolates U+2066 to
/// U+2069, and the marks U+200E, U+200F and U+061C. Shown raw, they
/// reorder the text around them ("Trojan Source").
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// `text` with every control character written as an escape: C0 (tab
/// excepted; a newline too, so that one line stays one line) and DEL as
/// `\xNN`, C1 and the bidirectional controls ([`is_bidi_control`]) as
/// `\u{NN}`. Text without any is returned as it is.
pub fn printable(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| (c != '\t' && c.is_control()) || is_bidi_control(c);
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

/// `text` for markup shown to a person (HTML, SVG): every control
/// character but tab and newline, and every bidirectional control
/// ([`is_bidi_control`]), replaced by U+FFFD, the replacement character,
/// so that what was there shows. The markup's own escaping (`<`, `&`) is
/// the caller's. Text without any is returned as it is.
pub fn for_markup(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if unsafe_char(c) { '\u{fffd}' } else { c })
            .collect(),
    )
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

    #[test]
    fn bidi_controls_are_escaped() {
        assert_eq!(printable("Ann\u{202e}nnA"), "Ann\\u{202e}nnA");
        assert_eq!(
            printable("\u{2066}x\u{2069}\u{200f}"),
            "\\u{2066}x\\u{2069}\\u{200f}"
        );
        assert_eq!(for_markup("a\u{202e}b\x1bc\n"), "a\u{fffd}b\u{fffd}c\n");
        assert!(matches!(for_markup("Carlsen, M. é"), Cow::Borrowed(_)));
    }
}

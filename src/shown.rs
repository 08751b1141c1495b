//! Text from outside (file names, level names, values typed on the command
//! line) made safe to print on a terminal.
//!
//! A level named `\e[2J` would clear the screen of whoever runs
//! `delve path` on it, a file name holding a newline would split a
//! one-line error message in two, and a name holding a right-to-left
//! override (U+202E) would print the rest of the line backwards, so that
//! an error reads other than it is. Every error line the binary prints
//! (`main.rs` prints them all) and every name shown on stdout or in the
//! game passes through [`shown`], which writes control characters and the
//! invisible ones that reorder or hide text (bidirectional embeddings,
//! overrides, isolates and marks; zero-width spaces and joiners) as Rust
//! escapes (`\u{1b}`, `\n`, `\u{202e}`) and leaves everything else,
//! backslashes included, as it is.

use std::borrow::Cow;
use std::path::Path;

/// Whether `c` is escaped when shown: a control character, or one that
/// reorders or hides the text around it without being seen.
fn escaped(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            // Arabic letter mark, Mongolian vowel separator.
            '\u{061c}' | '\u{180e}'
            // Zero-width space, non-joiner and joiner; left-to-right and
            // right-to-left marks.
            | '\u{200b}'..='\u{200f}'
            // Bidirectional embeddings, pop and overrides.
            | '\u{202a}'..='\u{202e}'
            // Word joiner and the invisible operators.
            | '\u{2060}'..='\u{2064}'
            // Bidirectional isolates and their pop.
            | '\u{2066}'..='\u{2069}'
            // Zero-width no-break space (a byte order mark mid-text).
            | '\u{feff}'
        )
}

/// `text` with every control character and every invisible character
/// that reorders or hides text escaped; borrowed when there is none,
/// which is nearly always.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else if escaped(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A path as [`shown`] prints it (bytes that are not UTF-8 become U+FFFD).
pub fn shown_path(path: &Path) -> String {
    shown(&path.to_string_lossy()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(shown("plain name, é ✓ \\n"), "plain name, é ✓ \\n");
        assert!(matches!(shown("plain"), Cow::Borrowed(_)));
        assert_eq!(shown("\u{1b}[2Jboom"), "\\u{1b}[2Jboom");
        assert_eq!(shown("a\nb\r\tc\u{7f}\u{9b}"), "a\\nb\\r\\tc\\u{7f}\\u{9b}");
        assert_eq!(shown_path(Path::new("dir/x\ny.txt")), "dir/x\\ny.txt");
    }

    #[test]
    fn characters_that_reorder_or_hide_text_are_escaped() {
        assert_eq!(shown("evil\u{202e}txt.exe"), "evil\\u{202e}txt.exe");
        for c in ('\u{200b}'..='\u{200f}').chain('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}') {
            assert_eq!(shown(&format!("a{c}b")), format!("a\\u{{{:x}}}b", c as u32), "U+{:04X}", c as u32);
        }
        for c in ['\u{061c}', '\u{180e}', '\u{2060}', '\u{feff}'] {
            assert!(shown(&c.to_string()).starts_with("\\u{"), "U+{:04X}", c as u32);
        }
        // Visible text of any script stays as it is.
        assert!(matches!(shown("שלום مرحبا 你好 e\u{301}"), Cow::Borrowed(_)));
    }
}

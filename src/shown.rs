//! Text from outside (file names, level names, values typed on the command
//! line) made safe to print on a terminal.
//!
//! A level named `\e[2J` would clear the screen of whoever runs
//! `delve path` on it, and a file name holding a newline would split a
//! one-line error message in two. Every error line the binary prints
//! (`main.rs` prints them all) and every name shown on stdout or in the
//! game passes through [`shown`], which writes control
//! characters as Rust escapes (`\u{1b}`, `\n`) and leaves everything else,
//! backslashes included, as it is.

use std::borrow::Cow;
use std::path::Path;

/// `text` with every control character escaped; borrowed when there is
/// none, which is nearly always.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
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
}

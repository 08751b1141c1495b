//! The one way delve spells a number in the text it reads: level metadata
//! (`lives: 3`, `doors: cycle 40`, `goal: survive 60`), a Moving AI map's
//! header (`height 512`), cells (`3,4`) and every numeric flag of the
//! command line.
//!
//! A whole number is decimal digits, with a `-` in front for a negative
//! one: `0`, `42`, `-7`. Nothing else: no `+`, no spaces, no leading zeros
//! (`03`), no other base (`0x3`), no digit separators. A decimal is a
//! whole number with an optional fraction after a point: `1.5`, `-0.25`,
//! `2`; no exponent, no `.5` or `2.`, no `inf` or `NaN`. One spelling per
//! value, so that a number reads the same to delve and to a person, and
//! what one place accepts every place does.

/// How a whole number is written, for messages.
pub const WHOLE_SYNTAX: &str = "decimal digits, without + or leading zeros";

/// How a decimal is written, for messages.
pub const DECIMAL_SYNTAX: &str = "decimal digits with an optional fraction, e.g. 1.5";

/// The digits of `text` after an optional `-`, when they are a whole
/// number's: one or more, and no leading zero unless `0` itself.
fn digits(text: &str) -> Option<(bool, &str)> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let well_formed =
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (digits == "0" || !digits.starts_with('0'));
    well_formed.then_some((negative, digits))
}

/// `text` as a whole number, `None` when it is not spelt as one. A number
/// too large for an `i128` is clamped to its bounds: any range a caller
/// checks then refuses it as too large or too small, which it is.
pub fn whole(text: &str) -> Option<i128> {
    let (negative, digits) = digits(text)?;
    let clamped = if negative { i128::MIN } else { i128::MAX };
    let magnitude = digits.parse::<i128>().ok();
    Some(magnitude.map_or(clamped, |m| if negative { -m } else { m }))
}

/// `text` as a decimal, `None` when it is not spelt as one.
pub fn decimal(text: &str) -> Option<f64> {
    let (int, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let fraction_ok = !fraction.is_empty() && fraction.bytes().all(|b| b.is_ascii_digit());
    (digits(int).is_some() && fraction_ok).then(|| text.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_have_one_spelling() {
        for (text, n) in [("0", 0), ("7", 7), ("42", 42), ("-1", -1), ("-0", 0), ("100000000", 100_000_000)] {
            assert_eq!(whole(text), Some(n), "{text}");
        }
        for text in ["", "+1", " 1", "1 ", "03", "00", "-03", "0x3", "1_000", "1.0", "1e3", "--1", "-", "٣", "１"] {
            assert_eq!(whole(text), None, "{text:?}");
        }
        assert_eq!(whole(&"9".repeat(60)), Some(i128::MAX));
        assert_eq!(whole(&format!("-{}", "9".repeat(60))), Some(i128::MIN));
    }

    #[test]
    fn decimals_have_one_spelling() {
        for (text, x) in [("0", 0.0), ("1.5", 1.5), ("-0.25", -0.25), ("2", 2.0), ("10.000", 10.0)] {
            assert_eq!(decimal(text), Some(x), "{text}");
        }
        for text in ["", "+1", " 1", ".5", "2.", "1e3", "inf", "-inf", "NaN", "01.5", "1.5.2", "1,5", "0x1", "1.-5"] {
            assert_eq!(decimal(text), None, "{text:?}");
        }
    }
}

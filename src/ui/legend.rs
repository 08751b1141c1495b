//! One-line legends: samples drawn as the map draws them, with the words
//! that name them, fitted to the width there is by leaving out the parts
//! that only add detail, never by cutting a word.

use ratatui::text::{Line, Span};

/// A legend being made: its parts in order, each essential or not.
#[derive(Clone, Debug, Default)]
pub struct Legend {
    parts: Vec<(Vec<Span<'static>>, bool)>,
}

impl Legend {
    /// A part that stays however narrow the line.
    pub fn part(mut self, spans: Vec<Span<'static>>) -> Legend {
        self.parts.push((spans, true));
        self
    }

    /// Words that stay however narrow the line.
    pub fn words(self, text: impl Into<String>) -> Legend {
        self.part(vec![Span::raw(text.into())])
    }

    /// A sample and its words.
    pub fn key(self, sample: Span<'static>, what: &str) -> Legend {
        self.part(vec![sample, Span::raw(format!(" {what}"))])
    }

    /// Words left out when the line is too narrow for them.
    pub fn detail(mut self, text: impl Into<String>) -> Legend {
        self.parts.push((vec![Span::raw(text.into())], false));
        self
    }

    /// The legend as one line at most `width` columns wide, parts one space
    /// apart after a leading space: details are left out from the last
    /// until it fits; what is essential is kept (the line is cut only if
    /// even that does not fit).
    pub fn fit(&self, width: u16) -> Line<'static> {
        let mut kept: Vec<bool> = vec![true; self.parts.len()];
        let width_of = |kept: &[bool]| -> usize {
            let parts = self.parts.iter().zip(kept).filter(|(_, k)| **k);
            parts.map(|((spans, _), _)| 1 + spans.iter().map(Span::width).sum::<usize>()).sum()
        };
        for i in (0..self.parts.len()).rev() {
            if width_of(&kept) <= usize::from(width) {
                break;
            }
            if !self.parts[i].1 {
                kept[i] = false;
            }
        }
        let mut spans = Vec::new();
        for ((part, _), _) in self.parts.iter().zip(&kept).filter(|(_, k)| **k) {
            spans.push(Span::raw(" "));
            spans.extend(part.iter().cloned());
        }
        Line::from(spans)
    }

    /// The whole legend's text, every part kept.
    #[cfg(test)]
    pub fn text(&self) -> String {
        self.fit(u16::MAX).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_go_first_from_the_end_and_essentials_stay() {
        let legend = Legend::default().detail("the search:").words("a").detail("(more)").words("b");
        assert_eq!(legend.fit(40).to_string(), " the search: a (more) b");
        assert_eq!(legend.fit(16).to_string(), " the search: a b");
        assert_eq!(legend.fit(4).to_string(), " a b");
        assert_eq!(legend.fit(2).to_string(), " a b", "essentials are never left out");
    }
}

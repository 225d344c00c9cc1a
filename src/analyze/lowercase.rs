//! Stage 2, lowercase: Unicode lowercasing, with an in-place fast path for ASCII.

use super::Terms;

/// Lowercases every term. `scratch` is reused between calls and holds garbage afterwards.
///
/// ASCII text is lowercased in place, since that never changes a byte offset. Other text goes
/// through `char::to_lowercase`, which can change lengths (`İ` becomes two characters), so the
/// terms are rebuilt into `scratch` and swapped in.
pub fn lowercase(terms: &mut Terms, scratch: &mut Terms) {
    if terms.buffer().is_ascii() {
        terms.buffer_mut().make_ascii_lowercase();
        return;
    }
    scratch.clear();
    let mut word = String::new();
    for term in terms.iter() {
        lowercase_word(term, &mut word);
        scratch.push(&word);
    }
    std::mem::swap(terms, scratch);
}

/// Lowercases one word into `out`, replacing its contents. Character by character, with no
/// context rules (a final `Σ` becomes `σ`, as everywhere else), so a word always lowercases the
/// same way wherever it stands.
pub(crate) fn lowercase_word(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.push_str(word);
        out.make_ascii_lowercase();
        return;
    }
    for c in word.chars() {
        out.extend(c.to_lowercase());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(words: &[&str]) -> Vec<String> {
        let mut terms: Terms = words.iter().copied().collect();
        lowercase(&mut terms, &mut Terms::new());
        terms.iter().map(str::to_string).collect()
    }

    #[test]
    fn ascii_and_unicode() {
        assert_eq!(lower(&["Hello", "WORLD", "x1"]), ["hello", "world", "x1"]);
        assert_eq!(
            lower(&["Ça", "DÉJÀ", "ПРИВЕТ", "東京", "ΣΟΦΙΑ"]),
            ["ça", "déjà", "привет", "東京", "σοφια"]
        );
        // Dotted capital I lowercases to two characters: offsets must follow.
        assert_eq!(lower(&["İz", "AB"]), ["i\u{307}z", "ab"]);
    }
}

//! What macOS's headers leave in a preprocessed file and lang-c's grammar does not accept
//! (SV-COMP's `pthread-ext/20_lamport.i` was preprocessed there): attributes on enumerators
//! (`CLOCK_REALTIME __attribute__((availability(...))) = 0,`), clang's `availability`
//! attributes (`introduced=10.13.4` is no C expression) and its nullability qualifiers
//! (`int * _Nullable p`). They are blanked out, character for character, so that the text
//! keeps its offsets and every location stays where it was, and the file is parsed again.
//!
//! Any attribute inside an `enum { ... }` body is blanked: an enumerator's attributes
//! (`availability`, `deprecated`, `unavailable`) say nothing about its value. Elsewhere only
//! `availability` is: an attribute such as `aligned`, `packed` or `mode` can change a
//! type's layout, and stays.

/// The text with every `__attribute__((...))` inside an enum body replaced by spaces, when
/// there is one.
pub(super) fn blank_clang_annotations(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut changed = false;
    let mut i = 0;
    while let Some(p) = find_word(bytes, b"enum", i) {
        i = p + 4;
        // The body: the next `{` before any `;`, `)` or `,` (else `enum tag x;`, a use).
        let Some(open) = bytes
            .get(i..)
            .and_then(|r| {
                r.iter()
                    .position(|&c| matches!(c, b'{' | b';' | b')' | b','))
            })
            .map(|o| o + i)
            .filter(|&o| bytes.get(o) == Some(&b'{'))
        else {
            continue;
        };
        let Some(close) = bytes
            .get(open..)
            .and_then(|r| r.iter().position(|&c| c == b'}'))
            .map(|o| o + open)
        else {
            break;
        };
        let mut j = open;
        while let Some(a) = find_word(bytes, b"__attribute__", j).filter(|&a| a < close) {
            let Some(end) = attribute_end(bytes, a + "__attribute__".len()).filter(|&e| e <= close)
            else {
                break;
            };
            blank(&mut out, a, end);
            changed = true;
            j = end;
        }
        i = close;
    }
    // Clang's `availability` attributes anywhere (their version numbers, `10.13.4`, are no
    // C expressions) and its nullability qualifiers: annotations without semantics.
    let mut j = 0;
    while let Some(a) = find_word(bytes, b"__attribute__", j) {
        j = a + 1;
        let Some(end) = attribute_end(bytes, a + "__attribute__".len()) else {
            continue;
        };
        let inner = bytes
            .get(a + "__attribute__".len()..end)
            .unwrap_or_default();
        let name = inner
            .iter()
            .skip_while(|c| c.is_ascii_whitespace() || **c == b'(')
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .copied()
            .collect::<Vec<u8>>();
        if name == b"availability" {
            blank(&mut out, a, end);
            changed = true;
            j = end;
        }
    }
    for word in [
        &b"_Nullable_result"[..],
        b"_Nullable",
        b"_Nonnull",
        b"_Null_unspecified",
    ] {
        let mut k = 0;
        while let Some(at) = find_word(bytes, word, k) {
            blank(&mut out, at, at + word.len());
            changed = true;
            k = at + word.len();
        }
    }
    if !changed {
        return None;
    }
    String::from_utf8(out).ok()
}

fn blank(out: &mut [u8], from: usize, to: usize) {
    for c in out.iter_mut().take(to).skip(from) {
        if *c != b'\n' {
            *c = b' ';
        }
    }
}

/// The first occurrence of `word` at or after `from` that is a whole identifier.
fn find_word(bytes: &[u8], word: &[u8], from: usize) -> Option<usize> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut k = from;
    while let Some(p) = bytes
        .get(k..)
        .and_then(|r| r.windows(word.len()).position(|w| w == word))
    {
        let at = k + p;
        let before = at.checked_sub(1).and_then(|b| bytes.get(b)).copied();
        let after = bytes.get(at + word.len()).copied();
        if !before.is_some_and(ident) && !after.is_some_and(ident) {
            return Some(at);
        }
        k = at + 1;
    }
    None
}

/// One past the `)` that closes the parenthesised list starting at or after `from`.
fn attribute_end(bytes: &[u8], from: usize) -> Option<usize> {
    let start = from
        + bytes
            .get(from..)?
            .iter()
            .position(|c| !c.is_ascii_whitespace())?;
    if bytes.get(start) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    for (k, &c) in bytes.get(start..)?.iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(start + k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_on_enumerators_are_blanked_in_place() {
        let text = "typedef enum {\nA __attribute__((availability(macosx,introduced=10.12))) = 0,\nB = 6\n} clockid_t;\nint x __attribute__((aligned(8))) = 1;\n";
        let out = blank_clang_annotations(text).expect("an attribute");
        assert_eq!(out.len(), text.len());
        assert!(!out[..out.find('}').unwrap_or(0)].contains("__attribute__"));
        assert!(out.contains("A ") && out.contains("= 0,"));
        // Outside the enum body the attribute stays.
        assert!(out.contains("int x __attribute__((aligned(8))) = 1;"));
        assert_eq!(out.lines().count(), text.lines().count());
    }

    #[test]
    fn clang_annotations_are_blanked_anywhere() {
        let text =
            "int f(int * _Nullable p) __attribute__((availability(macos,introduced=10.13.4)));\n";
        let out = blank_clang_annotations(text).expect("annotations");
        assert_eq!(
            out.split_whitespace().collect::<Vec<_>>(),
            ["int", "f(int", "*", "p)", ";"]
        );
    }

    #[test]
    fn text_without_them_is_left_alone() {
        assert!(blank_clang_annotations("enum e { A, B };\nenum e x;\n").is_none());
        assert!(blank_clang_annotations("int enumerate(void);\n").is_none());
    }
}

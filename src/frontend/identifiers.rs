//! Identifiers beyond ASCII (`int zähler;`, C99 6.4.2.1 / C11 Annex D), and GCC's `$` in
//! identifiers (`__unbuffered_p0_EAX$read_delayed`: every SV-COMP `pthread-wmm` task is
//! written so, and gcc, clang, ESBMC and CBMC accept it on every Linux target).
//!
//! gcc accepts them and writes them into its preprocessed output as universal character
//! names (`z\U000000e4hler`; newer versions may keep the UTF-8 bytes). lang-c's grammar knows
//! only `[_a-zA-Z][_a-zA-Z0-9]*`, so before parsing each such identifier is spelled as an ASCII
//! one that no C program writes by accident — `__ucn_` and the hexadecimal of its UTF-8
//! bytes — and after lowering every name the program holds is given back its own spelling.
//! Messages of the front end are unmangled too, so the user only ever sees `zähler`.
//! gcc (≥ 10), ESBMC and CBMC all read UTF-8 identifiers, so the printed programs keep them.

use std::borrow::Cow;

use crate::ir::Program;
use crate::ir::syntax::StmtKind;
use crate::ir::visit::{VisitorMut, walk_stmt_mut};

const PREFIX: &str = "__ucn_";

/// Reads one identifier that starts at `bytes[start]` and holds a universal character name
/// or a non-ASCII byte somewhere. Returns its end and its spelling as UTF-8, or `None` when
/// the identifier is plain ASCII (or not one at all).
pub(super) fn extended_at(bytes: &[u8], start: usize) -> Option<(usize, String)> {
    let mut i = start;
    let mut out: Vec<u8> = Vec::new();
    let mut extended = false;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            out.push(c);
            i += 1;
        } else if c >= 0x80 || c == b'$' {
            out.push(c);
            extended = true;
            i += 1;
        } else if let Some((ch, len)) = ucn_at(bytes, i) {
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            extended = true;
            i += len;
        } else {
            break;
        }
    }
    if !extended || i == start || out.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    String::from_utf8(out).ok().map(|s| (i, s))
}

/// A universal character name (`\uXXXX` or `\UXXXXXXXX`) at `bytes[i]`: the character and
/// the length of its spelling.
pub(super) fn ucn_at(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    if bytes.get(i) != Some(&b'\\') {
        return None;
    }
    let digits = match bytes.get(i + 1) {
        Some(b'u') => 4,
        Some(b'U') => 8,
        _ => return None,
    };
    let hex = bytes.get(i + 2..i + 2 + digits)?;
    let hex = std::str::from_utf8(hex).ok()?;
    let code = u32::from_str_radix(hex, 16).ok()?;
    char::from_u32(code).map(|c| (c, 2 + digits))
}

/// The ASCII spelling lang-c parses for an extended identifier.
pub(super) fn mangle(name: &str) -> String {
    let mut s = String::from(PREFIX);
    for b in name.bytes() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// `s` with every mangled identifier in it spelled as the user wrote it.
pub fn unmangle(s: &str) -> Cow<'_, str> {
    if !s.contains(PREFIX) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(PREFIX) {
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        let tail = &rest[at + PREFIX.len()..];
        let hex_len = tail
            .bytes()
            .take_while(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
            .count();
        let decoded = (before_ok && hex_len >= 2 && hex_len % 2 == 0)
            .then(|| decode_hex(&tail[..hex_len]))
            .flatten();
        match decoded {
            Some(name) => {
                out.push_str(&rest[..at]);
                out.push_str(&name);
                rest = &tail[hex_len..];
            }
            None => {
                out.push_str(&rest[..at + PREFIX.len()]);
                rest = tail;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

fn decode_hex(hex: &str) -> Option<String> {
    let bytes: Option<Vec<u8>> = (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect();
    String::from_utf8(bytes?).ok()
}

fn fix(s: &mut String) {
    if let Cow::Owned(o) = unmangle(s) {
        *s = o;
    }
}

/// Gives every name the lowered program holds its own spelling back.
pub(super) fn unmangle_program(prog: &mut Program) {
    for v in &mut prog.vars {
        fix(&mut v.name);
    }
    for c in &mut prog.types.comps {
        c.tag.as_mut().map(fix);
        for f in &mut c.fields {
            f.name.as_mut().map(fix);
        }
    }
    for e in &mut prog.types.enums {
        e.tag.as_mut().map(fix);
        for (n, _) in &mut e.consts {
            fix(n);
        }
    }
    for t in &mut prog.types.typedefs {
        fix(&mut t.name);
    }
    struct Labels;
    impl VisitorMut for Labels {
        fn visit_stmt(&mut self, s: &mut crate::ir::syntax::Stmt) {
            if let StmtKind::Label(l) | StmtKind::Goto(l) = &mut s.kind {
                fix(l);
            }
            walk_stmt_mut(self, s)
        }
    }
    for f in &mut prog.funcs {
        fix(&mut f.name);
        if let Some(body) = &mut f.body {
            Labels.visit_stmt(body);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn universal_character_names_and_utf8_read_alike() {
        let ucn = br"z\U000000e4hler = 1";
        assert_eq!(extended_at(ucn, 0), Some((15, "zähler".to_string())));
        let short = br"\u00e4x;";
        assert_eq!(extended_at(short, 0), Some((7, "äx".to_string())));
        let utf8 = "zähler = 1".as_bytes();
        assert_eq!(extended_at(utf8, 0), Some((7, "zähler".to_string())));
        assert_eq!(extended_at(b"plain = 1", 0), None);
        assert_eq!(extended_at(br"\q", 0), None);
        assert_eq!(
            extended_at(b"x$read_delayed = 1", 0),
            Some((14, "x$read_delayed".to_string()))
        );
        assert_eq!(
            extended_at(b"$tmp_guard0;", 0),
            Some((11, "$tmp_guard0".to_string()))
        );
    }

    #[test]
    fn mangled_names_come_back_and_others_stay() {
        let m = mangle("zähler");
        assert!(m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        assert_eq!(unmangle(&m), "zähler");
        let msg = format!("unknown name `{m}_1` and `{m}`");
        assert_eq!(unmangle(&msg), "unknown name `zähler_1` and `zähler`");
        assert_eq!(unmangle("x__ucn_41"), "x__ucn_41");
        assert_eq!(unmangle("__ucn_zz"), "__ucn_zz");
        assert_eq!(unmangle("__ucn_ff"), "__ucn_ff");
    }
}

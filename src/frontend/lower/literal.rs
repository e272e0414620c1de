//! Decoding C literals: integer, character and string constants.

/// Decodes the body of a character or string literal (between the quotes).
pub fn unescape(body: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else {
            return Err("a backslash ends the literal".into());
        };
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                (v & 0xff) as u8
            }
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                if start == i {
                    return Err("`\\x` with no hex digits".into());
                }
                let digits = std::str::from_utf8(&b[start..i]).map_err(|e| e.to_string())?;
                (u64::from_str_radix(&digits[digits.len().saturating_sub(2)..], 16)
                    .map_err(|e| e.to_string())?
                    & 0xff) as u8
            }
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' | b'E' => 27,
            b'\\' | b'\'' | b'"' | b'?' => c,
            other => other,
        };
        out.push(v);
    }
    Ok(out)
}

/// Strips an encoding prefix and the quotes of a literal: `L"ab"` → `ab`.
pub fn literal_body(lit: &str, quote: char) -> Result<&str, String> {
    let start = lit
        .find(quote)
        .ok_or_else(|| format!("malformed literal {lit}"))?;
    let end = lit
        .rfind(quote)
        .filter(|e| *e > start)
        .ok_or_else(|| format!("malformed literal {lit}"))?;
    Ok(&lit[start + 1..end])
}

pub fn is_wide(lit: &str) -> bool {
    !lit.starts_with('"') && !lit.starts_with('\'')
}

/// The value of a character constant (type int): multi-character constants as gcc
/// computes them.
pub fn char_value(lit: &str) -> Result<i128, String> {
    let bytes = unescape(literal_body(lit, '\'')?)?;
    if bytes.is_empty() {
        return Err("empty character constant".into());
    }
    if is_wide(lit) {
        // Wide characters: decode the UTF-8 sequence to a code point.
        let s = String::from_utf8_lossy(&bytes);
        return Ok(s.chars().next().map(|c| c as i128).unwrap_or(0));
    }
    if bytes.len() == 1 {
        // Plain char is signed: '\xff' is -1.
        return Ok(bytes[0] as i8 as i128);
    }
    let mut v: i128 = 0;
    for b in bytes {
        v = (v << 8) | b as i128;
    }
    Ok(v as i32 as i128)
}

pub fn parse_integer(number: &str, radix: u32) -> Result<u128, String> {
    let digits = match radix {
        16 => number.trim_start_matches("0x").trim_start_matches("0X"),
        2 => number.trim_start_matches("0b").trim_start_matches("0B"),
        _ => number,
    };
    let digits: String = digits.chars().filter(|c| *c != '\'').collect();
    if digits.is_empty() {
        return Ok(0);
    }
    u128::from_str_radix(&digits, radix).map_err(|e| format!("integer constant {number}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(unescape(r"a\n\t\\\x41\101\0").unwrap(), b"a\n\t\\AA\0");
        assert_eq!(char_value("'a'").unwrap(), 97);
        assert_eq!(char_value(r"'\xff'").unwrap(), -1);
        assert_eq!(char_value(r"'\0'").unwrap(), 0);
        assert_eq!(char_value("'ab'").unwrap(), 0x6162);
        assert!(unescape("\\").is_err());
    }

    #[test]
    fn integers() {
        assert_eq!(parse_integer("0x1F", 16).unwrap(), 31);
        assert_eq!(parse_integer("017", 8).unwrap(), 15);
        assert_eq!(parse_integer("42", 10).unwrap(), 42);
    }
}

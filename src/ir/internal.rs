//! The names seqloc makes up (normalization's temporaries, inlined returns and
//! parameters, the sequentializer's `__seq_*`, the instrumentation's `__diag*` and the
//! front end's `__atomic_*` around an atomic operation): a
//! report shows a user only the names of their program.

/// A name seqloc made up (inlined return values, normalization temporaries, the
/// sequentializer's and the instrumentation's variables), not one the program has.
pub fn is_internal_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("__") else {
        return false;
    };
    let numbered = |p: &str| {
        rest.strip_prefix(p)
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit() || c == '_'))
    };
    rest.starts_with("ret")
        || rest.starts_with("seq")
        || rest.starts_with("diag")
        || rest.starts_with("param")
        || rest.starts_with("vla_")
        // The front end's temporaries around an atomic operation (`__atomic_value`): never
        // a variable of the user's, whose names cannot start with `__atomic_` either.
        || rest.starts_with("atomic_")
        || numbered("t")
        || numbered("r")
        || numbered("v")
}

/// A temporary seqloc's passes declare and then assign before any read (a call's or an
/// expression's value, an inlined return, an atomic operation's operands): `__t`, `__r`,
/// `__v`, `__ret`, numbered, and `__atomic_*`. Narrower than [`is_internal_name`], so that
/// a user's own `__retries` is not taken for one.
pub fn is_written_first_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("__") else {
        return false;
    };
    let numbered = |p: &str| {
        rest.strip_prefix(p)
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit() || c == '_'))
    };
    numbered("ret")
        || numbered("t")
        || numbered("r")
        || numbered("v")
        || rest.starts_with("atomic_")
}

/// Does `text` name something seqloc made up ([`is_internal_name`])?
pub fn mentions_internal_name(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(is_internal_name)
}

//! Checker dialects: how the printed C spells seqloc's intrinsics (nondet, assume,
//! assert, the framework's markers) for ESBMC, CBMC, SV-COMP verifiers and gcc. The
//! spellings are data in `templates/dialects/*.toml`, compiled in and replaceable with
//! `--templates DIR`, so seqloc adapts to another checker without recompiling.

use std::path::Path;
use std::sync::OnceLock;

use serde::Deserialize;

use super::Intrinsic;

const BUILTIN: &[(&str, &str)] = &[
    (
        "svcomp",
        include_str!("../../templates/dialects/svcomp.toml"),
    ),
    ("esbmc", include_str!("../../templates/dialects/esbmc.toml")),
    ("cbmc", include_str!("../../templates/dialects/cbmc.toml")),
    ("gcc", include_str!("../../templates/dialects/gcc.toml")),
];

#[derive(Clone, Debug, Deserialize)]
pub struct Dialect {
    pub name: String,
    #[serde(default)]
    pub prelude: String,
    pub nondet: String,
    pub assume: String,
    pub assert: String,
    pub error: String,
    pub abort: String,
    pub unwind: String,
    pub atomic_begin: String,
    pub atomic_end: String,
    pub deadlock: String,
    /// The unlock property; a template directory written before it existed falls back
    /// to `assert` (the violation is then reported as an assertion by the checker).
    #[serde(default)]
    pub must_hold: Option<String>,
    pub mismatch: String,
    #[serde(rename = "await")]
    pub await_: String,
    pub point: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DialectError {
    #[error("no dialect named `{0}` (built in: svcomp, esbmc, cbmc, gcc)")]
    Unknown(String),
    #[error("dialect template {path}: {reason}")]
    Invalid { path: String, reason: String },
}

impl Dialect {
    /// The built-in SV-COMP dialect, parsed once: the spelling of messages and of the
    /// programs `seqloc parse` prints.
    pub fn svcomp() -> &'static Dialect {
        static SVCOMP: OnceLock<Dialect> = OnceLock::new();
        SVCOMP.get_or_init(|| {
            Dialect::load("svcomp", None).expect("the built-in svcomp dialect parses")
        })
    }

    /// The dialect `name`, from `dir/dialects/NAME.toml` when a template directory is
    /// given and has it, else the compiled-in one.
    pub fn load(name: &str, dir: Option<&Path>) -> Result<Dialect, DialectError> {
        if let Some(d) = dir {
            let p = d.join("dialects").join(format!("{name}.toml"));
            if p.exists() {
                let text = std::fs::read_to_string(&p).map_err(|e| DialectError::Invalid {
                    path: p.display().to_string(),
                    reason: e.to_string(),
                })?;
                return toml::from_str(&text).map_err(|e| DialectError::Invalid {
                    path: p.display().to_string(),
                    reason: e.to_string(),
                });
            }
        }
        let (_, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| DialectError::Unknown(name.to_string()))?;
        toml::from_str(text).map_err(|e| DialectError::Invalid {
            path: format!("templates/dialects/{name}.toml"),
            reason: e.to_string(),
        })
    }
}

fn fill(t: &str, ty: &str, key: &str, args: &[String], loc: &str) -> String {
    let arg = args.join(", ");
    let msg = format!("assertion at {loc}").replace('"', "'");
    t.replace("{type}", ty)
        .replace("{key}", key)
        .replace("{arg}", &arg)
        .replace("{msg}", &msg)
        .replace("{loc}", loc)
        .replace("{thread}", args.first().map(String::as_str).unwrap_or("0"))
        .replace("{point}", args.get(1).map(String::as_str).unwrap_or("0"))
}

impl Dialect {
    /// Text of an intrinsic call; `args` are already printed, `ty` is the call's C type and
    /// `key` its `nondet_*` suffix, `loc` is `file:line`.
    pub fn intrinsic(
        &self,
        i: Intrinsic,
        ty: &str,
        key: &str,
        args: &[String],
        loc: &str,
    ) -> String {
        let t = match i {
            Intrinsic::Nondet => &self.nondet,
            Intrinsic::Assume => &self.assume,
            Intrinsic::Assert => &self.assert,
            Intrinsic::Error => &self.error,
            Intrinsic::AtomicBegin => &self.atomic_begin,
            Intrinsic::AtomicEnd => &self.atomic_end,
            Intrinsic::Abort => &self.abort,
            Intrinsic::Unwind => &self.unwind,
            Intrinsic::Point => &self.point,
            Intrinsic::Deadlock => &self.deadlock,
            Intrinsic::MustHold => self.must_hold.as_ref().unwrap_or(&self.assert),
            Intrinsic::Mismatch => &self.mismatch,
            Intrinsic::Await => &self.await_,
            // Printed by the printer itself (a conditional around the dialect's nondet).
            Intrinsic::Resume | Intrinsic::Diag => return "(void)0".to_string(),
        };
        fill(t, ty, key, args, loc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_dialects_parse() {
        for (n, _) in BUILTIN {
            let d = Dialect::load(n, None).expect("parses");
            assert_eq!(&d.name, n);
        }
        assert!(Dialect::load("nope", None).is_err());
    }

    #[test]
    fn fills_placeholders() {
        let d = Dialect::load("esbmc", None).expect("parses");
        let s = d.intrinsic(Intrinsic::Assert, "int", "int", &["x == 2".into()], "a.c:3");
        assert_eq!(s, "__ESBMC_assert(x == 2, \"assertion at a.c:3\")");
        assert_eq!(
            d.intrinsic(Intrinsic::Nondet, "int", "int", &[], "a.c:3"),
            "((int)nondet_int())"
        );
    }
}

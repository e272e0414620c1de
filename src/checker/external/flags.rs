//! The command lines seqloc gives ESBMC and CBMC, and why each flag is there. The upstream
//! issue numbers are from `shared/research/user-asks.md` §1–2; `docs/external-checkers.md`
//! explains them for users.

use super::Kind;

/// One checker run's purpose and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFlags {
    /// ESBMC's `--context-bound`; `None` for CBMC, which has no such bound (its
    /// partial-order encoding covers every interleaving of the unwound program).
    pub context_bound: Option<u32>,
    pub unwind: u32,
    /// ESBMC's `--deadlock-check`.
    pub deadlock_check: bool,
    /// The program is sequential (a localization round): no concurrency flags.
    pub sequential: bool,
}

/// ESBMC: the checks seqloc does not localize are off (the fixtures' own flags), the trace is
/// complete, partial-order reduction is off and the context bound explicit.
pub fn esbmc(file: &str, f: &RunFlags, extra: &[String]) -> Vec<String> {
    let mut a: Vec<String> = vec![file.to_string()];
    // Bounds, pointer and division checks are other properties than the assertion being
    // localized; a violation of one would be a different failure.
    a.extend(
        [
            "--no-bounds-check",
            "--no-pointer-check",
            "--no-div-by-zero-check",
        ]
        .map(String::from),
    );
    // Slicing drops assignments the property does not depend on; seqloc needs every step of
    // the interleaving to place the context switches.
    a.push("--no-slice".into());
    if !f.sequential {
        // esbmc#598: "Our partial order reduction is buggy since it removes valid
        // transitions"; PR #596: not used in SV-COMP either.
        a.push("--no-por".into());
        // The default bound is unbounded (-1): no verdict for hours on small programs
        // (esbmc#6480, PR #6534, #1315). seqloc deepens an explicit bound.
        if let Some(k) = f.context_bound {
            a.push("--context-bound".into());
            a.push(k.to_string());
        }
    }
    a.push("--unwind".into());
    a.push(f.unwind.to_string());
    if f.deadlock_check {
        a.push("--deadlock-check".into());
    }
    a.extend(extra.iter().cloned());
    a
}

/// CBMC: JSON output with traces, the default checks of CBMC ≥ 6 off (they are other
/// properties), unwinding assertions back on so that "successful" means "every loop
/// finished within the bound" (FORMAT.md §1).
pub fn cbmc(file: &str, f: &RunFlags, version: Option<&str>, extra: &[String]) -> Vec<String> {
    let mut a: Vec<String> = vec![file.to_string(), "--json-ui".into(), "--trace".into()];
    // CBMC < 6 has those checks off already and rejects the flag as unknown (exit 64).
    if cbmc_major(version).is_none_or(|m| m >= 6) {
        a.push("--no-standard-checks".into());
    }
    a.push("--unwind".into());
    a.push(f.unwind.to_string());
    a.push("--unwinding-assertions".into());
    a.extend(extra.iter().cloned());
    a
}

fn cbmc_major(version: Option<&str>) -> Option<u32> {
    version?.split('.').next()?.trim().parse().ok()
}

/// The version query.
pub fn version_args() -> Vec<String> {
    vec!["--version".into()]
}

/// The arguments for one run of `kind`.
pub fn for_kind(
    kind: Kind,
    file: &str,
    f: &RunFlags,
    version: Option<&str>,
    extra: &[String],
) -> Vec<String> {
    match kind {
        Kind::Esbmc => esbmc(file, f, extra),
        Kind::Cbmc => cbmc(file, f, version, extra),
    }
}

/// The context bounds ESBMC is asked for, in order: the given one, or 2, 4, 8, … up to
/// `max` (which is always tried last).
pub fn context_ladder(fixed: Option<u32>, max: u32) -> Vec<u32> {
    if let Some(k) = fixed {
        return vec![k];
    }
    let max = max.max(1);
    let mut out = Vec::new();
    let mut k = 2u32.min(max);
    loop {
        out.push(k);
        if k >= max {
            break;
        }
        k = k.saturating_mul(2).min(max);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(k: Option<u32>, deadlock: bool) -> RunFlags {
        RunFlags {
            context_bound: k,
            unwind: 3,
            deadlock_check: deadlock,
            sequential: false,
        }
    }

    #[test]
    fn esbmc_gets_no_por_and_an_explicit_context_bound() {
        let a = esbmc("p.c", &flags(Some(4), false), &["--z3".into()]);
        assert_eq!(a[0], "p.c");
        assert!(a.contains(&"--no-por".to_string()));
        assert!(a.contains(&"--no-slice".to_string()));
        let k = a
            .iter()
            .position(|x| x == "--context-bound")
            .expect("bound");
        assert_eq!(a[k + 1], "4");
        let u = a.iter().position(|x| x == "--unwind").expect("unwind");
        assert_eq!(a[u + 1], "3");
        assert!(!a.contains(&"--deadlock-check".to_string()));
        assert_eq!(a.last().map(String::as_str), Some("--z3"));
        let d = esbmc("p.c", &flags(Some(2), true), &[]);
        assert!(d.contains(&"--deadlock-check".to_string()));
    }

    #[test]
    fn sequential_rounds_need_no_concurrency_flags() {
        let mut f = flags(Some(4), false);
        f.sequential = true;
        let a = esbmc("diag.c", &f, &[]);
        assert!(!a.iter().any(|x| x == "--no-por" || x == "--context-bound"));
    }

    #[test]
    fn cbmc_flags_follow_its_version() {
        let a = cbmc("p.c", &flags(None, false), Some("6.4.1"), &[]);
        assert_eq!(&a[..3], &["p.c", "--json-ui", "--trace"]);
        assert!(a.contains(&"--no-standard-checks".to_string()));
        assert!(a.contains(&"--unwinding-assertions".to_string()));
        let old = cbmc("p.c", &flags(None, false), Some("5.95.1"), &[]);
        assert!(!old.contains(&"--no-standard-checks".to_string()));
    }

    #[test]
    fn context_bounds_deepen_by_doubling() {
        assert_eq!(context_ladder(None, 16), vec![2, 4, 8, 16]);
        assert_eq!(context_ladder(None, 12), vec![2, 4, 8, 12]);
        assert_eq!(context_ladder(None, 1), vec![1]);
        assert_eq!(context_ladder(Some(3), 16), vec![3]);
    }
}

//! Runs the explicit-state explorer alone on one C file and prints what it decided, with its
//! statistics: a developer's tool for measuring the explorer apart from the bounded search.
//!
//! `cargo run --release --example explore -- FILE [SECONDS] [ilp32|lp64] [MAX_STATES]`

use std::path::PathBuf;
use std::time::{Duration, Instant};

use seqloc::checker::explicit::{ExploreOptions, Explored, explore};
use seqloc::frontend::{FrontendOptions, load};
use seqloc::ir::types::DataModel;
use seqloc::passes::Prepared;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let file: PathBuf = args
        .next()
        .ok_or_else(|| anyhow::anyhow!("usage: explore FILE [SECONDS] [ilp32|lp64] [MAX_STATES]"))?
        .into();
    let secs: u64 = args.next().map(|s| s.parse()).transpose()?.unwrap_or(60);
    let data_model = match args.next().as_deref() {
        Some("ilp32") => DataModel::Ilp32,
        _ => DataModel::Lp64,
    };
    let opts = FrontendOptions {
        data_model,
        ..FrontendOptions::default()
    };
    let prep = Prepared::new(load(&file, &opts)?);
    let mut eo = ExploreOptions {
        deadline: Some(Instant::now() + Duration::from_secs(secs)),
        ..ExploreOptions::default()
    };
    if let Some(n) = args.next() {
        eo.max_states = n.parse()?;
    }
    let start = Instant::now();
    let r = explore(&prep.normalized, &prep.shared, &eo, None);
    let took = start.elapsed().as_secs_f64();
    match r {
        Explored::Safe(s) => println!(
            "safe: {} states, {} transitions, {took:.2} s",
            s.states, s.transitions
        ),
        Explored::Unfailing { why, .. } => println!("safe: {why}"),
        Explored::Violation {
            loc,
            deadlock,
            stats,
            path,
        } => {
            println!(
                "violation at {} (deadlock: {deadlock}), path of {} steps: {} states, {took:.2} s",
                prep.normalized.sources.describe(loc),
                path.len(),
                stats.states
            );
            // Which thread (by position in the canonical state) ran each step, and the
            // choices it made.
            if std::env::var_os("EXPLORE_PATH").is_some() {
                for t in &path {
                    println!("  thread {} choices {:?}", t.thread, t.choices);
                }
            }
        }
        Explored::Inconclusive { reason, loc, stats } => {
            let at = loc
                .map(|l| prep.normalized.sources.describe(l))
                .unwrap_or_else(|| "-".into());
            println!(
                "inconclusive: {reason} at {at}: {} states, {took:.2} s",
                stats.states
            )
        }
    }
    Ok(())
}

//! The BenchExec tool-info module (`contrib/benchexec/seqloc.py`), checked by BenchExec
//! itself: `scripts/benchexec_check.sh` installs benchexec 3.x from PyPI into a virtual
//! environment (`target/benchexec-venv`), runs `python -m benchexec.test_tool_info` on real
//! tasks and `determine_result()` on seqloc's real outputs. Skipped with a notice where
//! python3's venv or PyPI is out of reach (the script exits 77).

mod common;

#[test]
fn benchexec_tool_info_module_passes_benchexec_checks() {
    let o = std::process::Command::new("sh")
        .arg(common::root().join("scripts/benchexec_check.sh"))
        .output()
        .expect("sh runs");
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(0) => assert!(out.contains("benchexec tool-info checks passed"), "{out}"),
        Some(77) => eprintln!("{}", out.trim()),
        _ => panic!("scripts/benchexec_check.sh failed:\n{out}\n{err}"),
    }
}

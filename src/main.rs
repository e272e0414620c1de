fn main() {
    let path = std::env::args().nth(1).expect("file");
    let opts = seqloc::frontend::FrontendOptions::default();
    match seqloc::frontend::load(std::path::Path::new(&path), &opts) {
        Ok(p) => {
            if std::env::args().nth(2).as_deref() == Some("facts") {
                let f = seqloc::analysis::facts::compute(&p);
                println!("{}", serde_json::to_string_pretty(&f).unwrap());
                return;
            }
            let mut p = p;
            if std::env::args().nth(2).as_deref() == Some("norm") {
                seqloc::passes::normalize::normalize(&mut p);
            }
            if std::env::args().nth(2).as_deref() == Some("check") {
                let prep = seqloc::check::Prepared::new(p);
                let mut o = seqloc::check::CheckOptions::default();
                o.timeout = Some(std::time::Duration::from_secs(60));
                if let Some(r) = std::env::args().nth(3) {
                    o.rounds = r.parse().ok();
                }
                match seqloc::check::check(&prep, &o) {
                    Ok(out) => println!("{}", serde_json::to_string_pretty(&out).unwrap()),
                    Err(e) => {
                        eprintln!("error: {e}");
                        std::process::exit(3);
                    }
                }
                return;
            }
            if std::env::args().nth(2).as_deref() == Some("seq") {
                let sh = seqloc::passes::normalize::normalize(&mut p);
                let opts = seqloc::seq::SeqOptions::default();
                match seqloc::seq::sequentialize(&p, &sh, seqloc::seq::Mode::Symbolic, &opts) {
                    Ok(s) => p = s.program,
                    Err(e) => {
                        eprintln!("seq error: {e}");
                        std::process::exit(2);
                    }
                }
            }
            let out = seqloc::ir::print::print_program(
                &p,
                &seqloc::ir::print::SvComp,
                &Default::default(),
            );
            print!("{}", out.text);
        }
        Err(e) => {
            eprintln!("error: {e}");
            for s in e.spots() {
                eprint!("{}", s.render_plain("error"));
            }
            std::process::exit(2);
        }
    }
}

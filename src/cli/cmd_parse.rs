//! `seqloc parse`: the concurrency facts of one program.

use super::args::ParseArgs;
use super::{Ctx, Fail, write_output};
use seqloc::report::style::Style;

pub fn run(ctx: &Ctx, a: ParseArgs) -> Result<u8, Fail> {
    let prog = super::load(ctx, &a.input)?;
    let name = a.input.file.display().to_string();
    let text = if let Some(stage) = a.dump_ir {
        let shown = match stage {
            super::args::IrStage::Lowered => prog,
            super::args::IrStage::Normalized => seqloc::passes::prepare(prog).normalized,
        };
        seqloc::ir::print::print_program(
            &shown,
            seqloc::dialect::Dialect::svcomp(),
            &seqloc::ir::print::PrintOptions {
                loc_comments: true,
                omit_prelude: true,
                ..Default::default()
            },
        )
        .text
    } else if a.print {
        seqloc::ir::print::print_program(
            &prog,
            seqloc::dialect::Dialect::svcomp(),
            &seqloc::ir::print::PrintOptions {
                omit_prelude: true,
                ..Default::default()
            },
        )
        .text
    } else {
        let facts = seqloc::analysis::facts::compute(&prog);
        if a.json {
            let mut j = seqloc::report::facts::to_json(&facts, &name);
            j.push('\n');
            j
        } else {
            seqloc::report::facts::render_text(&facts, &name, &Style::for_stdout(ctx.color))
        }
    };
    write_output(None, &a.input.file, &text)?;
    Ok(super::EXIT_NO_FAILURE)
}

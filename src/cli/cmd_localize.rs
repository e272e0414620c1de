//! `seqloc instrument` and `seqloc localize`.

use super::args::{InstrumentArgs, LocalizeArgs};
use super::{Ctx, Fail};

pub fn instrument(_ctx: &Ctx, _a: InstrumentArgs) -> Result<u8, Fail> {
    Err(Fail::checker("instrument: under construction"))
}

pub fn run(_ctx: &Ctx, _a: LocalizeArgs) -> Result<u8, Fail> {
    Err(Fail::checker("localize: under construction"))
}

//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod constant;
mod parameter;
mod reshape;
mod result;
mod slice;
mod squeeze;
mod strided_slice;
pub mod support;
mod unsqueeze;

/// An op that has existed unchanged since opset 1.
pub(crate) const SINCE_OPSET1: &[OpVersion] = &[OpVersion {
    version: 1,
    since_opset: 1,
}];

/// Every op the registry knows.
pub static ALL: &[&OpDef] = &[
    &constant::DEF,
    &parameter::DEF,
    &reshape::DEF,
    &result::DEF,
    &slice::DEF,
    &squeeze::DEF,
    &strided_slice::DEF,
    &unsqueeze::DEF,
];

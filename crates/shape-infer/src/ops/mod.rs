//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod compress;
mod constant;
mod extract;
mod non_zero;
mod parameter;
mod result;
pub mod support;

/// An op that has existed unchanged since opset 1.
pub(crate) const SINCE_OPSET1: &[OpVersion] = &[OpVersion::openvino(1, 1)];

/// A project op (not in OpenVINO's opsets) that has existed since `ovir1`.
pub(crate) const SINCE_OVIR1: &[OpVersion] = &[OpVersion::project(1, 1)];

/// Every op the registry knows.
pub static ALL: &[&OpDef] = &[
    &compress::DEF,
    &constant::DEF,
    &extract::DEF,
    &non_zero::DEF,
    &parameter::DEF,
    &result::DEF,
];

//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod concat;
mod constant;
mod gather;
mod pad;
mod parameter;
mod range;
mod reduce;
mod result;
mod shape_of;
mod softmax;
mod split;
pub mod support;
mod tile;
mod transpose;
mod variadic_split;

/// An op that has existed unchanged since opset 1.
pub(crate) const SINCE_OPSET1: &[OpVersion] = &[OpVersion {
    version: 1,
    since_opset: 1,
}];

/// Every op the registry knows.
pub static ALL: &[&OpDef] = &[
    &concat::DEF,
    &constant::DEF,
    &gather::DEF,
    &pad::DEF,
    &parameter::DEF,
    &range::DEF,
    &reduce::MAX,
    &reduce::MEAN,
    &reduce::MIN,
    &reduce::PROD,
    &reduce::SUM,
    &result::DEF,
    &shape_of::DEF,
    &softmax::DEF,
    &split::DEF,
    &tile::DEF,
    &transpose::DEF,
    &variadic_split::DEF,
];

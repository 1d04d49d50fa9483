//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod concat;
mod constant;
mod gather;
mod pad;
mod parameter;
mod range;
mod reduce;
mod reshape;
mod result;
mod shape_of;
mod slice;
mod softmax;
mod split;
mod squeeze;
mod strided_slice;
pub mod support;
mod tile;
mod transpose;
mod unsqueeze;
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
    &reshape::DEF,
    &result::DEF,
    &shape_of::DEF,
    &slice::DEF,
    &softmax::DEF,
    &split::DEF,
    &squeeze::DEF,
    &strided_slice::DEF,
    &tile::DEF,
    &transpose::DEF,
    &unsqueeze::DEF,
    &variadic_split::DEF,
];

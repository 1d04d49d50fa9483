//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod compress;
mod concat;
mod constant;
mod extract;
mod gather;
mod non_zero;
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
pub(crate) const SINCE_OPSET1: &[OpVersion] = &[OpVersion::openvino(1, 1)];

/// A project op (not in OpenVINO's opsets) that has existed since `ovir1`.
pub(crate) const SINCE_OVIR1: &[OpVersion] = &[OpVersion::project(1, 1)];

/// Every op the registry knows.
pub static ALL: &[&OpDef] = &[
    &compress::DEF,
    &concat::DEF,
    &constant::DEF,
    &extract::DEF,
    &gather::DEF,
    &non_zero::DEF,
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

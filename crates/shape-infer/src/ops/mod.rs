//! One module per op, each exporting its [`OpDef`](crate::registry::OpDef).

use crate::registry::{OpDef, OpVersion};

mod broadcast_op;
mod constant;
mod convert;
mod elementwise_binary;
mod elementwise_unary;
mod matmul;
mod parameter;
mod result;
mod select;
pub mod support;

/// An op that has existed unchanged since opset 1.
pub(crate) const SINCE_OPSET1: &[OpVersion] = &[OpVersion {
    version: 1,
    since_opset: 1,
}];

/// Every op the registry knows.
pub static ALL: &[&OpDef] = &[
    &constant::DEF,
    &parameter::DEF,
    &result::DEF,
    &broadcast_op::DEF,
    &convert::CONVERT,
    &convert::CONVERT_LIKE,
    &matmul::DEF,
    &select::DEF,
    &elementwise_binary::ADD,
    &elementwise_binary::SUBTRACT,
    &elementwise_binary::MULTIPLY,
    &elementwise_binary::DIVIDE,
    &elementwise_binary::FLOOR_MOD,
    &elementwise_binary::MOD,
    &elementwise_binary::POWER,
    &elementwise_binary::MAXIMUM,
    &elementwise_binary::MINIMUM,
    &elementwise_binary::SQUARED_DIFFERENCE,
    &elementwise_binary::EQUAL,
    &elementwise_binary::NOT_EQUAL,
    &elementwise_binary::LESS,
    &elementwise_binary::LESS_EQUAL,
    &elementwise_binary::GREATER,
    &elementwise_binary::GREATER_EQUAL,
    &elementwise_binary::LOGICAL_AND,
    &elementwise_binary::LOGICAL_OR,
    &elementwise_binary::LOGICAL_XOR,
    &elementwise_unary::ABS,
    &elementwise_unary::NEGATIVE,
    &elementwise_unary::RELU,
    &elementwise_unary::PRELU,
    &elementwise_unary::SIGMOID,
    &elementwise_unary::TANH,
    &elementwise_unary::EXP,
    &elementwise_unary::LOG,
    &elementwise_unary::SQRT,
    &elementwise_unary::ERF,
    &elementwise_unary::FLOOR,
    &elementwise_unary::CEILING,
    &elementwise_unary::ROUND,
    &elementwise_unary::SIGN,
    &elementwise_unary::CLAMP,
    &elementwise_unary::GELU,
    &elementwise_unary::HSWISH,
    &elementwise_unary::HSIGMOID,
    &elementwise_unary::HARD_SIGMOID,
    &elementwise_unary::SWISH,
    &elementwise_unary::MISH,
    &elementwise_unary::SOFT_PLUS,
    &elementwise_unary::ELU,
    &elementwise_unary::LOGICAL_NOT,
];

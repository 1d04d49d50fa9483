//! BatchToSpace-2: `[N, D1, …]` with `block_shape` B, `crops_begin` CB and
//! `crops_end` CE (inputs 1 to 3, one value per data axis) to
//! `[N / prod(B), D1*B1 - CB1 - CE1, …]`: blocks of the batch moved into
//! the spatial dims, then cropped. SpaceToBatch shares the input checks
//! ([`operands`]).
//!
//! As OpenVINO: the three inputs are 1-D integer tensors of the data's rank
//! (rank 2 or more), every block value is 1 or more and every crop 0 or
//! more, N divisible by `prod(B)` and a crop no larger than its dim. The
//! spec expects `B[0] == 1` and `CB[0] == CE[0] == 0`; OpenVINO's shape
//! inference accepts other values there but its CPU plugin then writes a
//! tensor of the wrong size, so they are errors here.

use ir::{Dim, ElementType, Shape};
use symdim::{Expr, Predicate};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

use super::depth_to_space::exact_div;
use super::support;

pub static DEF: OpDef = OpDef {
    type_name: "BatchToSpace",
    versions: &[OpVersion::openvino(2, 2)],
    infer,
    doc: OpDoc {
        summary: "Blocks of the batch moved into the spatial dims and cropped: `[N, D…]` to `[N/prod(B), D*B - CB - CE…]`.",
        attributes: "-",
        symbolic: "`N/prod(B)` an exact division with its divisibility a recorded constraint; spatial dims `D*B - CB - CE` with crops kept as expressions and `>= 0` recorded; fresh dims when the block or crop values are unknown",
        errors: "`input-rank` (data below rank 2, block or crops not 1-D), `batch-space-inputs` (block and crops of different lengths or not the data's rank), `batch-space-values` (a block below 1, a negative crop or pad, a block other than 1 or a crop or pad on the batch axis), `block-divisible` (static N not divisible by prod(B)), `batch-to-space-crops` (crops larger than their dim), `element-type` (non-integer block or crops)",
    },
};

/// The checked values of the block input (constants) and of the two
/// crop or pad inputs (expressions) of BatchToSpace or SpaceToBatch on data
/// of `rank`; `None` when any is not known.
pub(super) type BlockInputs = (Vec<i64>, Vec<Dim>, Vec<Dim>);

/// Checks the types and shapes of inputs 1 to 3 (`names`: how the two
/// crop or pad inputs are called) against data of rank `rank` (when known)
/// and reads their values.
fn block_inputs(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    rank: Option<usize>,
    names: [&str; 2],
) -> Result<Option<BlockInputs>, ShapeError> {
    call.expect_inputs(4, 4)?;
    let what = [
        "block_shape (input 1)".to_owned(),
        format!("{} (input 2)", names[0]),
        format!("{} (input 3)", names[1]),
    ];
    let mut length: Option<Dim> = rank.map(|r| Expr::constant(r as i64));
    for (k, what) in what.iter().enumerate() {
        support::expect_integer_input(call, k + 1, what)?;
        support::expect_rank_le1(call, k + 1, what, false)?;
        if let Some([len]) = call.inputs[k + 1].shape.dims() {
            length = Some(match &length {
                None => len.clone(),
                Some(l) => support::merge_equal_dims(
                    ctx,
                    l,
                    len,
                    "batch-space-inputs",
                    &format!("{what}'s length and the data's rank or the other inputs' length"),
                )?,
            });
        }
    }
    let (Some(block), Some(begin), Some(end)) = (
        support::input_ints(call, 1),
        support::input_values(call, 2),
        support::input_values(call, 3),
    ) else {
        return Ok(None);
    };
    if let Some(r) = rank {
        if [block.len(), begin.len(), end.len()] != [r, r, r] {
            return Err(ShapeError::rule(
                "batch-space-inputs",
                format!(
                    "block_shape, {} and {} hold {}, {} and {} values for data of rank {r}",
                    names[0],
                    names[1],
                    block.len(),
                    begin.len(),
                    end.len()
                ),
            ));
        }
    }
    if let Some(b) = block.iter().find(|&&b| b < 1) {
        return Err(ShapeError::rule(
            "batch-space-values",
            format!("block_shape holds {b}; every value must be 1 or more"),
        ));
    }
    for (name, values) in [(names[0], begin), (names[1], end)] {
        for v in values {
            if let Some(c) = v.as_constant().filter(|&c| c < 0) {
                return Err(ShapeError::rule(
                    "batch-space-values",
                    format!("{name} holds {c}; every value must be 0 or more"),
                ));
            }
            ctx.assume(Predicate::Ge(v.clone(), Expr::zero()))?;
        }
        if values.first().is_some_and(|v| !v.is_zero()) {
            return Err(ShapeError::rule(
                "batch-space-values",
                format!(
                    "{name}[0] is {}; the batch axis takes none (OpenVINO's CPU plugin writes a tensor of the wrong size)",
                    ctx.symbols.display(&values[0])
                ),
            ));
        }
    }
    if block.first().is_some_and(|&b| b != 1) {
        return Err(ShapeError::rule(
            "batch-space-values",
            format!(
                "block_shape[0] is {}; it must be 1 (OpenVINO's CPU plugin writes a tensor of the wrong size otherwise)",
                block[0]
            ),
        ));
    }
    Ok(Some((block, begin.to_vec(), end.to_vec())))
}

/// The data's dims, checked to be rank 2 or more.
fn data_dims<'a>(call: &'a OpCall<'_>) -> Result<Option<&'a [Dim]>, ShapeError> {
    let Some(dims) = call.inputs.first().and_then(|t| t.shape.dims()) else {
        return Ok(None);
    };
    if dims.len() < 2 {
        return Err(ShapeError::rule(
            "input-rank",
            format!("the data must have rank 2 or more, got {}", dims.len()),
        ));
    }
    Ok(Some(dims))
}

/// What BatchToSpace and SpaceToBatch read of their inputs.
pub(super) enum Operands<'a> {
    /// The data's element type and dims, and the checked block and
    /// crop or pad values.
    Known(ElementType, &'a [Dim], BlockInputs),
    /// The output, when the data's rank or the values are not known: a
    /// dynamic rank, or a fresh dim per axis.
    Settled(TensorInfo),
}

/// Checks the data (rank 2 or more) and inputs 1 to 3 of BatchToSpace or
/// SpaceToBatch and reads their values; `names` are the two crop or pad
/// inputs, `margins` what they are together ("crops", "pads").
pub(super) fn operands<'a>(
    ctx: &mut InferContext,
    call: &'a OpCall<'_>,
    names: [&str; 2],
    margins: &str,
) -> Result<Operands<'a>, ShapeError> {
    let et = call
        .inputs
        .first()
        .map_or(ElementType::Dynamic, |t| t.element_type);
    let dims = data_dims(call)?;
    let values = block_inputs(ctx, call, dims.map(<[Dim]>::len), names)?;
    let Some(dims) = dims else {
        return Ok(Operands::Settled(TensorInfo::new(et, Shape::DynamicRank)));
    };
    let Some(values) = values else {
        let why = format!(
            "{}'s block or {margins}, known only at run time",
            call.node.op_type.name
        );
        let out: Vec<Dim> = dims
            .iter()
            .map(|_| support::unknown_dim(ctx, &why))
            .collect();
        return Ok(Operands::Settled(TensorInfo::new(et, Shape::ranked(out))));
    };
    Ok(Operands::Known(et, dims, values))
}

/// The product of the block values, checked for overflow.
pub(super) fn block_product(block: &[i64]) -> Result<i64, ShapeError> {
    block
        .iter()
        .try_fold(1i64, |acc, &b| acc.checked_mul(b))
        .ok_or(ShapeError::Dim(symdim::DimError::Overflow))
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    let (et, dims, (block, begin, end)) =
        match operands(ctx, call, ["crops_begin", "crops_end"], "crops")? {
            Operands::Known(et, dims, values) => (et, dims, values),
            Operands::Settled(out) => return Ok(vec![out]),
        };
    let mut out = vec![exact_div(
        ctx,
        &dims[0],
        block_product(&block)?,
        "the batch dim",
    )?];
    for i in 1..dims.len() {
        let full = dims[i].mul_const(block[i])?;
        let crop = begin[i].add(&end[i])?;
        let size = full.sub(&crop)?;
        if ctx.symbols.bounds(&size)?.hi.is_some_and(|hi| hi < 0) {
            return Err(ShapeError::rule(
                "batch-to-space-crops",
                format!(
                    "axis {i}: crops of {} exceed the dim {}",
                    ctx.symbols.display(&crop),
                    ctx.symbols.display(&full)
                ),
            ));
        }
        ctx.assume(Predicate::Ge(size.clone(), Expr::zero()))?;
        out.push(size);
    }
    Ok(vec![TensorInfo::new(et, Shape::ranked(out))])
}

//! Broadcast-1 (modes `numpy`, `explicit`/`none`, `pdpd`) and Broadcast-3
//! (adds `bidirectional`): broadcasts the data (input 0) to the shape given
//! by the VALUES of `target_shape` (input 1), which may be symbolic (a shape
//! subgraph `ShapeOf -> Gather -> Concat` gives `[N, 3, H, W]`).
//!
//! * `numpy`: data broadcast one-way to the target (result: the target);
//! * `bidirectional` (v3): numpy broadcast of data and target;
//! * `explicit`: data dim `i` goes to target axis `axes_mapping[i]` (input
//!   2) and must equal that target dim or be 1;
//! * `pdpd`: from axis 0 (an IR file has no axis; OpenVINO reads 0): data
//!   and target of equal rank, each pair of dims broadcast both ways.
//!
//! When the target's values are unknown but its length is, the rank is known
//! and the dims are fresh symbols (data dims that cannot be 1 fix theirs).

use ir::{Dim, Shape};
use symdim::{Expr, Interval};

use crate::broadcast::{self, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::constant::MAX_VALUE_ELEMENTS;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Broadcast",
    versions: &[
        OpVersion::openvino(1, 1),
        OpVersion::openvino(3, 3),
    ],
    infer,
    doc: OpDoc {
        summary: "Broadcasts the data to the shape given by the values of `target_shape`.",
        attributes: "`mode`: `numpy` (default), `explicit` (also `none`), `bidirectional` (v3), `pdpd` (from axis 0, as OpenVINO reads IR: data of the target's rank, dims broadcast both ways)",
        symbolic: "the target's values are symbolic dims (from shape subgraphs); values known by their bounds (a Concat with unknown pieces) give bounded dims; unknown values of a known length give fresh dims, except where a data dim that cannot be 1 fixes them; in numpy and bidirectional modes the data's known values are repeated over a small static result (a shape subgraph's split lengths)",
        errors: "`broadcast-incompatible` naming the dims; `broadcast-target` for a negative or ill-shaped target; `broadcast-axes-mapping` for a bad explicit mapping (not 1-D, wrong length, unsorted, out of range), (v3) an axes_mapping outside explicit mode, or (v1) pdpd without input 2",
    },
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Numpy,
    Explicit,
    Bidirectional,
    Pdpd,
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    let text = call.node.attributes.get("mode").unwrap_or("numpy");
    let mode = match text.trim().to_ascii_lowercase().as_str() {
        "numpy" => Mode::Numpy,
        "explicit" | "none" => Mode::Explicit,
        "bidirectional" if call.version >= 3 => Mode::Bidirectional,
        "pdpd" => Mode::Pdpd,
        other => {
            return Err(ShapeError::rule(
                "attribute-invalid",
                format!(
                    "mode `{other}` is not valid for Broadcast-{} (numpy, explicit, {}pdpd)",
                    call.version,
                    if call.version >= 3 {
                        "bidirectional, "
                    } else {
                        ""
                    }
                ),
            ))
        }
    };
    if mode == Mode::Explicit {
        call.expect_inputs(3, 3)?;
        support::expect_integer_input(call, 2, "axes_mapping (input 2)")?;
        if let Some(r) = call.inputs[2].shape.rank().filter(|&r| r != 1) {
            return Err(ShapeError::rule(
                "broadcast-axes-mapping",
                format!("axes_mapping (input 2) must be 1-D, got rank {r}"),
            ));
        }
    } else if mode == Mode::Pdpd && call.version < 3 && call.inputs.len() < 3 {
        // OpenVINO's Broadcast-1 reads input 2 in pdpd mode ("index '2' out
        // of range" for every such layer it reads from IR).
        return Err(ShapeError::rule(
            "broadcast-axes-mapping",
            "Broadcast-1 in pdpd mode has no input 2, which OpenVINO's Broadcast-1 reads \
             (use Broadcast-3)",
        ));
    } else if call.inputs.len() == 3 && call.version >= 3 {
        // As OpenVINO's Broadcast-3 (its Broadcast-1 ignores the input).
        return Err(ShapeError::rule(
            "broadcast-axes-mapping",
            format!("axes_mapping (input 2) is only taken in explicit mode, not in `{text}`"),
        ));
    }
    support::expect_integer_input(call, 1, "target_shape (input 1)")?;
    let data = &call.inputs[0];
    let element_type = data.element_type;
    let target = target_dims(ctx, call)?;
    let shape = match target {
        Target::Known(dims) => {
            let target = Shape::ranked(dims);
            let (d, t) = (
                Operand::new("data", &data.shape),
                Operand::new("target_shape", &target),
            );
            match mode {
                Mode::Numpy => broadcast::one_way(ctx, d, t)?,
                Mode::Bidirectional => broadcast::numpy(ctx, d, t)?,
                Mode::Pdpd => pdpd(ctx, &data.shape, &target)?,
                Mode::Explicit => explicit(ctx, call, &target)?,
            }
        }
        Target::Length(n) => unknown_values(ctx, call, mode, n)?,
        Target::Unknown => Shape::DynamicRank,
    };
    let value = match mode {
        Mode::Numpy | Mode::Bidirectional => broadcast_values(data, &shape),
        Mode::Pdpd | Mode::Explicit => None,
    };
    Ok(vec![TensorInfo::new(element_type, shape).with_value(value)])
}

/// The data's values repeated over the result (a shape subgraph's
/// `Broadcast` of a split length to every piece, as PyTorch's `chunk`
/// converts), when the data carries values and the result is static and
/// small.
fn broadcast_values(data: &TensorInfo, out: &Shape) -> Option<Vec<Dim>> {
    let values = data.value.as_deref()?;
    let map = broadcast::element_map(
        &data.shape.to_static()?,
        &out.to_static()?,
        None,
        MAX_VALUE_ELEMENTS,
    )?;
    map.iter().map(|&i| values.get(i).cloned()).collect()
}

enum Target {
    Known(Vec<Dim>),
    Length(usize),
    Unknown,
}

fn target_dims(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Target, ShapeError> {
    let input = &call.inputs[1];
    if let Some(r) = input.shape.rank() {
        if r != 1 {
            return Err(ShapeError::rule(
                "broadcast-target",
                format!(
                    "target_shape (input 1) must be 1-D, got shape {}",
                    input.shape.display(&ctx.symbols)
                ),
            ));
        }
    }
    if let Some(values) = &input.value {
        for (i, v) in values.iter().enumerate() {
            if v.as_constant().is_some_and(|c| c < 0) {
                return Err(ShapeError::rule(
                    "broadcast-target",
                    format!(
                        "target_shape value {i} is {}; dims cannot be negative",
                        ctx.symbols.display(v)
                    ),
                ));
            }
        }
        return Ok(Target::Known(values.clone()));
    }
    // Some values known, the others by their bounds: exact dims where the
    // bounds meet, fresh dims in the bounds elsewhere.
    if let Some(bounds) = input.value_bounds() {
        let mut dims = Vec::with_capacity(bounds.len());
        for (i, &(lo, hi)) in bounds.iter().enumerate() {
            if hi < 0.0 {
                return Err(ShapeError::rule(
                    "broadcast-target",
                    format!("target_shape value {i} is at most {hi}; dims cannot be negative"),
                ));
            }
            // Below 2^53 an f64 holds every integer exactly.
            let as_int = |v: f64| (v.is_finite() && v.abs() < 9.0e15).then_some(v as i64);
            let (lo, hi) = (as_int(lo.ceil()).unwrap_or(0).max(0), as_int(hi.floor()));
            dims.push(if hi == Some(lo) {
                Expr::constant(lo)
            } else {
                Expr::symbol(ctx.fresh_symbol(
                    Interval::new(Some(lo), hi),
                    format!("dim {i} of the Broadcast target_shape (value in bounds)"),
                ))
            });
        }
        return Ok(Target::Known(dims));
    }
    let n = input
        .shape
        .dims()
        .and_then(|d| d.first())
        .and_then(Expr::as_constant)
        .and_then(|n| u64::try_from(n).ok())
        .filter(|&n| n <= MAX_VALUE_ELEMENTS);
    Ok(match n {
        Some(n) => Target::Length(n as usize),
        None => Target::Unknown,
    })
}

fn explicit(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    target: &Shape,
) -> Result<Shape, ShapeError> {
    let Some(axes) = support::input_ints(call, 2) else {
        return Ok(target.clone());
    };
    let Some(dt) = target.dims() else {
        return Ok(target.clone());
    };
    let Some(dd) = call.inputs[0].shape.dims() else {
        return Ok(target.clone());
    };
    if axes.len() != dd.len() {
        return Err(ShapeError::rule(
            "broadcast-axes-mapping",
            format!(
                "axes_mapping has {} values but data {} has rank {}",
                axes.len(),
                call.inputs[0].shape.display(&ctx.symbols),
                dd.len()
            ),
        ));
    }
    let mut out: Vec<Dim> = dt.to_vec();
    let mut previous: Option<i64> = None;
    for (i, (&axis, d)) in axes.iter().zip(dd).enumerate() {
        let in_range = usize::try_from(axis).ok().filter(|&a| a < dt.len());
        let Some(a) = in_range.filter(|_| previous.is_none_or(|p| axis > p)) else {
            return Err(ShapeError::rule(
                "broadcast-axes-mapping",
                format!(
                    "axes_mapping {axes:?} must be increasing axes of the target {} (rank {})",
                    target.display(&ctx.symbols),
                    dt.len()
                ),
            ));
        };
        previous = Some(axis);
        // The data dim must be 1 or equal the target dim: one-way, per dim.
        let single = Shape::ranked([d.clone()]);
        let tdim = Shape::ranked([dt[a].clone()]);
        let merged = broadcast::one_way(
            ctx,
            Operand::new(&format!("data dim {i}"), &single),
            Operand::new(&format!("target_shape dim {a}"), &tdim),
        )
        .map_err(|e| {
            ShapeError::rule(
                broadcast::RULE,
                format!(
                    "explicit broadcast: data {} does not fit target {} with axes_mapping {axes:?}: {e}",
                    call.inputs[0].shape.display(&ctx.symbols),
                    target.display(&ctx.symbols)
                ),
            )
        })?;
        if let Some(m) = merged.dims().and_then(|m| m.first()) {
            out[a] = m.clone();
        }
    }
    Ok(Shape::ranked(out))
}

/// pdpd as OpenVINO reads it from IR (no axis there: axis 0): the data must
/// have the target's rank, and each pair of dims broadcasts both ways (a
/// target dim of 1 takes the data's). With a higher data rank OpenVINO
/// reads the graph but its CPU plugin cannot run it; with a lower one it
/// refuses it.
fn pdpd(ctx: &mut InferContext, data: &Shape, target: &Shape) -> Result<Shape, ShapeError> {
    let (Some(dd), Some(dt)) = (data.dims(), target.dims()) else {
        let n = target.rank().unwrap_or(0);
        return Ok(match target.rank() {
            Some(_) => Shape::ranked((0..n).map(|i| fresh(ctx, i)).collect::<Vec<_>>()),
            None => Shape::DynamicRank,
        });
    };
    if dd.len() != dt.len() {
        return Err(ShapeError::rule(
            broadcast::RULE,
            format!(
                "pdpd broadcast from axis 0 (an IR file has no other axis) needs data of the \
                 target's rank: data {} has rank {}, target_shape {} rank {}",
                data.display(&ctx.symbols),
                dd.len(),
                target.display(&ctx.symbols),
                dt.len()
            ),
        ));
    }
    broadcast::numpy(
        ctx,
        Operand::new("data", data),
        Operand::new("target_shape", target),
    )
}

fn fresh(ctx: &mut InferContext, i: usize) -> Dim {
    Expr::symbol(ctx.fresh_symbol(
        Interval::nonnegative(),
        format!("dim {i} of the Broadcast target_shape (values unknown)"),
    ))
}

/// A data dim that cannot be 1 fixes the target dim it meets: the target
/// dim must equal it (or be 1, where the data dim wins).
fn fixed(ctx: &InferContext, d: &Dim) -> Option<Dim> {
    let bounds = ctx.symbols.bounds(d).ok()?;
    (!bounds.contains(1)).then(|| d.clone())
}

fn unknown_values(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    mode: Mode,
    n: usize,
) -> Result<Shape, ShapeError> {
    let data = &call.inputs[0].shape;
    let Some(dd) = data.dims() else {
        return Ok(match mode {
            Mode::Bidirectional => Shape::DynamicRank,
            _ => Shape::ranked((0..n).map(|i| fresh(ctx, i)).collect::<Vec<_>>()),
        });
    };
    match mode {
        Mode::Numpy | Mode::Pdpd | Mode::Bidirectional => {
            if mode != Mode::Bidirectional && dd.len() > n {
                return Err(ShapeError::rule(
                    broadcast::RULE,
                    format!(
                        "data {} has a higher rank than the target shape (rank {n})",
                        data.display(&ctx.symbols)
                    ),
                ));
            }
            if mode == Mode::Pdpd && dd.len() != n {
                return Err(ShapeError::rule(
                    broadcast::RULE,
                    format!(
                        "pdpd broadcast from axis 0 (an IR file has no other axis) needs data \
                         of the target's rank: data {} has rank {}, the target shape {n}",
                        data.display(&ctx.symbols),
                        dd.len()
                    ),
                ));
            }
            let rank = n.max(dd.len());
            let (pd, pt) = (rank - dd.len(), rank - n);
            let mut out = Vec::with_capacity(rank);
            for i in 0..rank {
                let d = (i >= pd).then(|| &dd[i - pd]);
                out.push(match (d, i >= pt) {
                    (Some(d), false) => d.clone(),
                    (Some(d), true) => match fixed(ctx, d) {
                        Some(k) => k,
                        None => fresh(ctx, i - pt),
                    },
                    _ => fresh(ctx, i - pt),
                });
            }
            Ok(Shape::ranked(out))
        }
        Mode::Explicit => {
            let mut out: Vec<Dim> = (0..n).map(|i| fresh(ctx, i)).collect();
            if let Some(axes) = support::input_ints(call, 2) {
                for (&a, d) in axes.iter().zip(dd) {
                    if let (Some(a), Some(k)) = (usize::try_from(a).ok(), fixed(ctx, d)) {
                        if let Some(slot) = out.get_mut(a) {
                            *slot = k;
                        }
                    }
                }
            }
            Ok(Shape::ranked(out))
        }
    }
}

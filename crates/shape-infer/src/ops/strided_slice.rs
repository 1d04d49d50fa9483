//! StridedSlice-1: TensorFlow-style slicing with begin/end/stride inputs and
//! masks (`begin_mask`, `end_mask`, `new_axis_mask`, `shrink_axis_mask`,
//! `ellipsis_mask`: comma-separated 0/1 lists, 1 = set, empty = all 0).
//!
//! Lengths are exact expressions as in Slice (same clamping). A 1-D input that
//! carries values (`ShapeOf -> StridedSlice`) gives the selected values.

use ir::{Dim, Shape};
use symdim::Expr;

use super::slice::{slice_indices, sliced_len, sliced_len_of, unknown_len, within_sampled_range};
use super::support::{self, expect_integer_input};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "StridedSlice",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "Slicing with begin/end/stride inputs and TensorFlow-style masks.",
        attributes:
            "`begin_mask`, `end_mask` (1: ignore begin/end there), `new_axis_mask` (insert \
                     a dim of 1), `shrink_axis_mask` (take index `begin` and drop the dim), \
                     `ellipsis_mask` (the remaining input dims), comma-separated 0/1 lists",
        symbolic: "as Slice: exact lengths for constant begin/end/stride; unknown values give \
                   fresh dims bounded by the input dim (and by the ranges of begin/end where \
                   known); values of a 1-D input are selected (`ShapeOf -> StridedSlice`)",
        errors: "`strided-slice-stride-zero`, `strided-slice-length-mismatch` (begin/end/stride \
                 lengths or the non-empty masks' lengths differ), `strided-slice-ellipsis` (more \
                 than one), `strided-slice-too-many-axes` (more sliced axes than the input has)",
    },
};

fn mask(call: &OpCall<'_>, key: &str) -> Result<Vec<bool>, ShapeError> {
    Ok(call
        .node
        .attributes
        .i64_list(key)?
        .unwrap_or_default()
        .into_iter()
        .map(|v| v != 0)
        .collect())
}

/// What one entry of begin/end/stride does.
enum Spec {
    NewAxis,
    Ellipsis,
    Shrink(Option<i64>),
    Slice {
        start: Option<i64>,
        stop: Option<i64>,
        step: Option<i64>,
    },
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 4)?;
    for (i, what) in [
        (1, "input 1 (begin)"),
        (2, "input 2 (end)"),
        (3, "input 3 (stride)"),
    ] {
        expect_integer_input(call, i, what)?;
    }
    let keys = [
        "begin_mask",
        "end_mask",
        "new_axis_mask",
        "shrink_axis_mask",
        "ellipsis_mask",
    ];
    let masks = keys
        .iter()
        .map(|k| mask(call, k))
        .collect::<Result<Vec<_>, _>>()?;
    let mut mask_len: Option<(usize, usize)> = None;
    for (i, m) in masks.iter().enumerate().filter(|(_, m)| !m.is_empty()) {
        match mask_len {
            Some((first, n)) if n != m.len() => {
                return Err(ShapeError::rule(
                    "strided-slice-length-mismatch",
                    format!(
                        "{} has {n} entries but {} has {}",
                        keys[first],
                        keys[i],
                        m.len()
                    ),
                ));
            }
            None => mask_len = Some((i, m.len())),
            _ => {}
        }
    }
    let bit = |m: usize, i: usize| masks[m].get(i).copied().unwrap_or(false);
    if masks[4].iter().filter(|&&b| b).count() > 1 {
        return Err(ShapeError::rule(
            "strided-slice-ellipsis",
            format!("ellipsis_mask {:?} sets more than one ellipsis", masks[4]),
        ));
    }

    let data = &call.inputs[0];
    let out_type = data.element_type;
    let dynamic = || Ok(vec![TensorInfo::new(out_type, Shape::DynamicRank)]);
    let begin = support::input_ints(call, 1);
    let end = support::input_ints(call, 2);
    let (begin_values, end_values) = (
        support::input_values(call, 1),
        support::input_values(call, 2),
    );
    let stride = if call.inputs.len() > 3 {
        support::input_ints(call, 3)
    } else {
        None
    };
    // The number of entries: from any known values, else from the shapes.
    let names = ["begin", "end", "stride"];
    let mut count: Option<(usize, usize)> = None;
    for i in 1..call.inputs.len() {
        let n = support::input_values(call, i)
            .map(<[Dim]>::len)
            .or_else(|| match call.inputs[i].shape.dims()? {
                [d] => d.as_constant().and_then(|v| usize::try_from(v).ok()),
                _ => None,
            });
        if let Some(n) = n {
            match count {
                Some((first, c)) if c != n => {
                    return Err(ShapeError::rule(
                        "strided-slice-length-mismatch",
                        format!(
                            "{} has {c} element(s) but {} has {n}",
                            names[first - 1],
                            names[i - 1]
                        ),
                    ));
                }
                None => count = Some((i, n)),
                _ => {}
            }
        }
    }
    let Some((_, count)) = count else {
        return dynamic();
    };
    if count as u64 > super::constant::MAX_VALUE_ELEMENTS {
        return dynamic();
    }
    let stride = match (stride, call.inputs.len()) {
        (s, 4) => s,
        (_, _) => Some(vec![1; count]),
    };
    if let Some(i) = stride.as_ref().and_then(|s| s.iter().position(|&v| v == 0)) {
        return Err(ShapeError::rule(
            "strided-slice-stride-zero",
            format!("stride {i} is 0"),
        ));
    }

    let mut specs = Vec::with_capacity(count);
    for i in 0..count {
        let get = |v: &Option<Vec<i64>>| v.as_ref().and_then(|v| v.get(i).copied());
        let step = get(&stride);
        specs.push(if bit(4, i) {
            Spec::Ellipsis
        } else if bit(2, i) {
            Spec::NewAxis
        } else if bit(3, i) {
            Spec::Shrink(get(&begin))
        } else {
            let start = if bit(0, i) {
                step.map(|s| if s > 0 { 0 } else { i64::MAX })
            } else {
                get(&begin)
            };
            let stop = if bit(1, i) {
                step.map(|s| if s > 0 { i64::MAX } else { i64::MIN })
            } else {
                get(&end)
            };
            Spec::Slice { start, stop, step }
        });
    }

    let Some(in_dims) = data.shape.dims() else {
        return dynamic();
    };
    let rank = in_dims.len();
    let consuming = specs
        .iter()
        .filter(|s| matches!(s, Spec::Shrink(_) | Spec::Slice { .. }))
        .count();
    if consuming > rank {
        return Err(ShapeError::rule(
            "strided-slice-too-many-axes",
            format!("{consuming} entries slice or shrink an axis but the input has rank {rank}"),
        ));
    }

    let mut out: Vec<Dim> = Vec::new();
    // For values: what happens to input axis 0.
    let mut axis0: Option<&Spec> = None;
    let mut axis = 0usize;
    let mut seen = 0usize;
    for (index, spec) in specs.iter().enumerate() {
        match spec {
            Spec::NewAxis => out.push(Expr::one()),
            Spec::Ellipsis => {
                let covered = rank - (consuming - seen) - axis;
                out.extend(in_dims[axis..axis + covered].iter().cloned());
                axis += covered;
            }
            Spec::Shrink(_) | Spec::Slice { .. } => {
                let d = &in_dims[axis];
                if axis == 0 {
                    axis0 = Some(spec);
                }
                if let Spec::Slice { start, stop, step } = spec {
                    // A begin or end computed from shapes: its expression.
                    let computed = |known: &Option<i64>, values: Option<&[Dim]>| match known {
                        Some(v) => Some(Expr::constant(*v)),
                        None => values.and_then(|v| v.get(index)).cloned(),
                    };
                    let symbolic = match (start, stop, step) {
                        (Some(a), Some(b), Some(s)) => {
                            let exact = sliced_len(ctx, d, *a, *b, *s)?;
                            Some(within_sampled_range(ctx, d, exact, *a, *b, *s)?)
                        }
                        (_, _, Some(s)) => {
                            match (computed(start, begin_values), computed(stop, end_values)) {
                                (Some(a), Some(b)) => sliced_len_of(ctx, d, &a, &b, *s)?,
                                _ => None,
                            }
                        }
                        _ => None,
                    };
                    out.push(match symbolic {
                        Some(len) => len,
                        None => unknown_len(
                            ctx,
                            call,
                            d,
                            (
                                computed(start, begin_values),
                                computed(stop, end_values),
                                *step,
                            ),
                            &format!(
                                "dim {axis} of a StridedSlice whose begin/end/stride are unknown"
                            ),
                        )?,
                    });
                }
                axis += 1;
                seen += 1;
            }
        }
    }
    out.extend(in_dims[axis..].iter().cloned());

    let mut tensor = TensorInfo::new(out_type, Shape::ranked(out));
    if let (Some(values), 1) = (&data.value, rank) {
        let len = values.len() as i64;
        let picked: Option<Vec<usize>> = match axis0 {
            None => Some((0..values.len()).collect()),
            Some(Spec::Shrink(Some(b))) => {
                let i = if *b < 0 { b.checked_add(len) } else { Some(*b) };
                i.filter(|i| (0..len).contains(i)).map(|i| vec![i as usize])
            }
            Some(Spec::Slice {
                start: Some(a),
                stop: Some(b),
                step: Some(s),
            }) => slice_indices(len, *a, *b, *s),
            _ => None,
        };
        if let Some(idx) = picked {
            tensor = tensor.with_value(
                idx.into_iter()
                    .filter_map(|i| values.get(i).cloned())
                    .collect::<Vec<_>>(),
            );
        }
    }
    Ok(vec![tensor])
}

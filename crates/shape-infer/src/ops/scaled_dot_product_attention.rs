//! ScaledDotProductAttention-13: `softmax(Q·Kᵀ·scale + bias)·V` over the last
//! two dims, for query `[B…, L, E]`, key `[B…, S, E]`, value `[B…, S, Ev]`,
//! an optional attention mask (boolean: where false is `-inf`; float: added;
//! broadcast to `[B…, L, S]`, or a scalar) and an optional scale (default
//! `1/sqrt(E)`); `causal` masks `j > i` instead of the mask input. The
//! output is `[B…, L, Ev]`, the batch dims `B…` broadcast (numpy) across
//! query, key, value and mask, and `L` broadcast with the mask's as
//! OpenVINO's shape inference does.

use ir::{Dim, ElementType, Shape};

use crate::broadcast::{self, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "ScaledDotProductAttention",
    versions: &[OpVersion::openvino(13, 13)],
    infer,
    doc: OpDoc {
        summary: "`softmax(Q·Kᵀ·scale + mask)·V` over the last two dims, with batch dims broadcast; `causal` masks the future.",
        attributes: "`causal`",
        symbolic: "`[B…, L, Ev]`: batch dims the numpy broadcast of query, key, value and mask; `L` broadcast with the mask's; `E` and `S` merged (equal, or a recorded constraint)",
        errors: "`attention` (an input below rank 3, a mask below rank 2, a scale of more than one element, a non-float query), `attention-dim-mismatch` (E of query and key, S of key and value, or the mask's S provably different), `broadcast-mismatch`",
    },
};

fn rule(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("attention", message)
}

/// The dims of input `index` (at least `min_rank`), or `None` for a dynamic
/// rank.
fn dims<'a>(
    call: &'a OpCall<'_>,
    index: usize,
    name: &str,
    min_rank: usize,
) -> Result<Option<&'a [Dim]>, ShapeError> {
    match call.inputs[index].shape.dims() {
        Some(d) if d.len() < min_rank => Err(rule(format!(
            "the {name} (input {index}) has rank {}, below {min_rank}",
            d.len()
        ))),
        other => Ok(other),
    }
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(3, 5)?;
    let element_type = call.inputs[0].element_type;
    if !(element_type.is_real() || element_type == ElementType::Dynamic) {
        return Err(rule(format!(
            "the query is {element_type}, not a floating-point type"
        )));
    }
    let causal = support::bool_attr(ctx, call, "causal", false);
    if let Some(scale) = call.inputs.get(4) {
        let ok = match scale.shape.dims() {
            None => true,
            Some([]) => true,
            Some([d]) => d.as_constant().is_none_or(|c| c == 1),
            Some(_) => false,
        };
        if !ok {
            return Err(rule(format!(
                "the scale (input 4) must be a scalar or have one element, not {}",
                scale.shape.display(&ctx.symbols)
            )));
        }
    }
    let q = dims(call, 0, "query", 3)?;
    let k = dims(call, 1, "key", 3)?;
    let v = dims(call, 2, "value", 3)?;
    let mask = if causal || call.inputs.len() < 4 {
        None
    } else {
        match call.inputs[3].shape.dims() {
            // A scalar mask is added to every score.
            Some([]) => None,
            Some(d) if d.len() < 2 => {
                return Err(rule(format!(
                    "the attention mask (input 3) has rank {}, below 2",
                    d.len()
                )))
            }
            other => Some(other),
        }
    };

    let batch_of = |d: &[Dim]| Shape::ranked(d[..d.len() - 2].iter().cloned());
    let mut batch = match q {
        Some(q) => batch_of(q),
        None => Shape::DynamicRank,
    };
    let mut operands: Vec<(&str, Option<&[Dim]>)> = vec![("key", k), ("value", v)];
    if let Some(m) = mask {
        operands.push(("attention mask", m));
    }
    for (name, d) in operands {
        let Some(d) = d else { continue };
        if d.len() < 3 {
            continue;
        }
        let other = batch_of(d);
        let what = format!("the batch dims of the {name}");
        batch = broadcast::numpy(
            ctx,
            Operand::new("the batch dims of the query", &batch),
            Operand::new(&what, &other),
        )?;
    }

    let last = |d: Option<&[Dim]>, from_end: usize| d.map(|d| d[d.len() - from_end].clone());
    let merge = |ctx: &mut InferContext, a: Option<Dim>, b: Option<Dim>, what: &str| match (a, b) {
        (Some(a), Some(b)) => {
            support::merge_equal_dims(ctx, &a, &b, "attention-dim-mismatch", what).map(Some)
        }
        (a, b) => Ok(a.or(b)),
    };
    merge(ctx, last(q, 1), last(k, 1), "E of the query and the key")?;
    let s = merge(ctx, last(k, 2), last(v, 2), "S of the key and the value")?;
    let mut l = last(q, 2);
    if let Some(Some(m)) = mask {
        let (ml, ms) = (m[m.len() - 2].clone(), m[m.len() - 1].clone());
        if let Some(s) = &s {
            // The mask's S broadcasts into the scores' S.
            let scores = Shape::ranked([s.clone()]);
            broadcast::one_way(
                ctx,
                Operand::new("the attention mask's S", &Shape::ranked([ms])),
                Operand::new("S of the key", &scores),
            )?;
        }
        l = match l {
            Some(l) => broadcast::numpy_dim(ctx, &l, &ml)?
                .ok_or_else(|| {
                    ShapeError::rule(
                        "attention-dim-mismatch",
                        "the attention mask's L does not broadcast with the query's",
                    )
                })
                .map(Some)?,
            None => Some(ml),
        };
    }
    let shape = match (batch.dims(), l, last(v, 1)) {
        (Some(b), Some(l), Some(ev)) => {
            let mut out = b.to_vec();
            out.push(l);
            out.push(ev);
            Shape::ranked(out)
        }
        _ => Shape::DynamicRank,
    };
    Ok(vec![TensorInfo::new(element_type, shape)])
}

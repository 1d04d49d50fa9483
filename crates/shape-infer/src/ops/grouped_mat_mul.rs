//! GroupedMatMul-17: one matrix product per group (mixture-of-experts
//! layers), the weights of each group stored transposed (`[G, N, K]`).
//!
//! As OpenVINO 2026.4's shape inference, two input combinations:
//! - 3-D × 3-D: `mat_a [G, M, K]`, `mat_b [G, N, K]` → `[G, M, N]`; an
//!   offsets input is accepted and ignored;
//! - 2-D × 3-D: `mat_a [T, K]` (rows partitioned by the cumulative end
//!   offsets of input 2, `[G]`), `mat_b [G, N, K]` → `[T, N]`; the offsets
//!   input is required and 1-D.
//!
//! Any other rank pair is an error (OpenVINO's newer 2-D × 2-D weight-gradient
//! form is not in the 2026.4 release, which refuses it). `mat_a` and `mat_b`
//! share an element type; offsets are i32 or i64.

use ir::Shape;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "GroupedMatMul",
    versions: &[OpVersion::openvino(17, 17)],
    infer,
    doc: OpDoc {
        summary: "One matrix product per group with transposed weights: `[G, M, K] x [G, N, K] -> [G, M, N]`, or rows of `[T, K]` split by cumulative offsets `[G]` against `[G, N, K]` -> `[T, N]`.",
        attributes: "-",
        symbolic: "output dims are the inputs' (`G`, `M`, `N`, `T`), symbols kept; symbolic `G` and `K` of the two operands are assumed equal",
        errors: "`grouped-matmul-ranks` for a rank pair other than 3-D×3-D and 2-D×3-D; `grouped-matmul-offsets` when the 2-D×3-D form has no offsets or 1-D offsets are not 1-D; `grouped-matmul-groups`, `grouped-matmul-inner` when `G` or `K` provably differ; `element-type` for operands of different types or offsets not i32/i64; `input-count`",
    },
};

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(2, 3)?;
    let element_type = support::expect_same_type(call, 0, 1)?;
    support::expect_index_input(call, 2, "offsets (input 2)")?;
    let (Some(a), Some(b)) = (call.inputs[0].shape.dims(), call.inputs[1].shape.dims()) else {
        return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
    };
    let dims = match (a.len(), b.len()) {
        (3, 3) => {
            let groups = support::merge_equal_dims(
                ctx,
                &a[0],
                &b[0],
                "grouped-matmul-groups",
                "the group dims of mat_a and mat_b (dim 0)",
            )?;
            support::merge_equal_dims(
                ctx,
                &a[2],
                &b[2],
                "grouped-matmul-inner",
                "the inner dims of mat_a and mat_b (dim 2)",
            )?;
            vec![groups, a[1].clone(), b[1].clone()]
        }
        (2, 3) => {
            let Some(offsets) = call.inputs.get(2) else {
                return Err(ShapeError::rule(
                    "grouped-matmul-offsets",
                    "the 2-D × 3-D form needs the offsets input (input 2)",
                ));
            };
            if let Some(r) = offsets.shape.rank() {
                if r != 1 {
                    return Err(ShapeError::rule(
                        "grouped-matmul-offsets",
                        format!("offsets (input 2) must be 1-D, got rank {r}"),
                    ));
                }
            }
            support::merge_equal_dims(
                ctx,
                &a[1],
                &b[2],
                "grouped-matmul-inner",
                "the inner dims of mat_a (dim 1) and mat_b (dim 2)",
            )?;
            vec![a[0].clone(), b[1].clone()]
        }
        (ra, rb) => {
            return Err(ShapeError::rule(
                "grouped-matmul-ranks",
                format!(
                    "mat_a of rank {ra} with mat_b of rank {rb}; supported: 2-D × 3-D, 3-D × 3-D"
                ),
            ))
        }
    };
    Ok(vec![TensorInfo::new(element_type, Shape::ranked(dims))])
}

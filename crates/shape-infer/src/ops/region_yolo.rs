//! RegionYolo-1: the YOLO detection head. With `do_softmax` (YOLOv2's Region
//! layer) the dims from `axis` to `end_axis` are flattened into one; without
//! it (YOLOv3's Yolo layer) the output is `[N, (classes + coords + 1) *
//! len(mask), H, W]`, as OpenVINO's `region_yolo_shape_inference.hpp`.

use ir::{Dim, Shape};

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "RegionYolo",
    versions: super::SINCE_OPSET1,
    infer,
    doc: OpDoc {
        summary: "YOLO detection head: sigmoids of the box centres and scores, a softmax over the classes (YOLOv2) or sigmoids (YOLOv3).",
        attributes: "`coords`, `classes`, `num` (required), `do_softmax` (default true), `mask` (default empty), `axis`, `end_axis` (required), `anchors` (unused by the shape)",
        symbolic: "with `do_softmax` the dims `axis..=end_axis` multiplied into one (an expression); else channels `(classes + coords + 1) * len(mask)`, the other dims passed through",
        errors: "`region-rank` (not rank 4), `axis-out-of-range` (`axis`, `end_axis` with `do_softmax`), `element-type` (data not floating point), `attribute-invalid` (a required count missing or negative)",
    },
};

/// RegionYolo's attributes, read and checked once (the kernel reuses them).
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// Box coordinates per region (`coords`).
    pub coords: usize,
    /// Classes per region (`classes`).
    pub classes: usize,
    /// Regions (anchors) per cell (`num`).
    pub regions: usize,
    /// YOLOv2's softmax over the classes (`do_softmax`).
    pub do_softmax: bool,
    /// The anchors of this head (`mask`), YOLOv3 mode.
    pub mask: Vec<i64>,
    /// The first flattened axis (`axis`).
    pub axis: i64,
    /// The last flattened axis (`end_axis`).
    pub end_axis: i64,
}

fn count(attributes: &ir::Attributes, key: &str) -> Result<usize, ShapeError> {
    let text = attributes.require(key)?;
    attributes
        .i64(key)?
        .and_then(|v| usize::try_from(v).ok())
        .ok_or_else(|| {
            ShapeError::rule(
                "attribute-invalid",
                format!("`{key}` \"{text}\" is not a non-negative integer"),
            )
        })
}

/// The attributes of a RegionYolo node; `do_softmax` reads as false when
/// invalid, as OpenVINO.
pub fn attributes(attributes: &ir::Attributes) -> Result<Attrs, ShapeError> {
    let axis = attributes.require("axis")?;
    let end_axis = attributes.require("end_axis")?;
    let int = |key: &str, text: &str| {
        text.trim().parse::<i64>().map_err(|_| {
            ShapeError::rule(
                "attribute-invalid",
                format!("`{key}` \"{text}\" is not an integer"),
            )
        })
    };
    Ok(Attrs {
        coords: count(attributes, "coords")?,
        classes: count(attributes, "classes")?,
        regions: count(attributes, "num")?,
        do_softmax: attributes
            .bool("do_softmax")
            .is_ok_and(|v| v.unwrap_or(true)),
        mask: attributes.i64_list("mask")?.unwrap_or_default(),
        axis: int("axis", axis)?,
        end_axis: int("end_axis", end_axis)?,
    })
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, 1)?;
    let mut attrs = attributes(&call.node.attributes)?;
    // The same value, with the warning an invalid boolean deserves.
    attrs.do_softmax = support::bool_attr(ctx, call, "do_softmax", true);
    let data = &call.inputs[0];
    let t = data.element_type;
    if t.is_static() && !t.is_real() {
        return Err(ShapeError::ElementType {
            what: "data (input 0)".to_owned(),
            message: format!("must be floating point, got {t}"),
        });
    }
    let Some(dims) = data.shape.dims() else {
        return Ok(vec![TensorInfo::new(t, Shape::DynamicRank)]);
    };
    if dims.len() != 4 {
        return Err(ShapeError::rule(
            "region-rank",
            format!("the data must have rank 4, got {}", dims.len()),
        ));
    }
    let out = if attrs.do_softmax {
        let axis = support::normalize_axis(attrs.axis, 4, "axis")?;
        let end_axis = support::normalize_axis(attrs.end_axis, 4, "end_axis")?;
        let mut out: Vec<Dim> = dims[..=axis].to_vec();
        let rest = end_axis.max(axis) + 1;
        for d in &dims[axis + 1..rest] {
            out[axis] = out[axis].mul(d)?;
        }
        out.extend_from_slice(&dims[rest..]);
        out
    } else {
        let per_region = attrs.classes + attrs.coords + 1;
        let channels = per_region
            .checked_mul(attrs.mask.len())
            .and_then(|c| i64::try_from(c).ok())
            .ok_or(ShapeError::Dim(symdim::DimError::Overflow))?;
        let mut out = dims.to_vec();
        out[1] = Dim::constant(channels);
        out
    };
    Ok(vec![TensorInfo::new(t, Shape::ranked(out))])
}

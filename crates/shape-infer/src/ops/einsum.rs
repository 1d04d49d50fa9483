//! Einsum-7: the Einstein summation of one or more operands described by an
//! `equation` such as `ab,bc->ac` (explicit) or `ab,bc` (implicit).
//!
//! Grammar (OpenVINO's parser): input subscripts separated by `,` (split
//! plainly: `a,` is two subscripts, the second a scalar's), then optionally
//! `->` and the output subscript. A subscript is case-sensitive ASCII
//! letters with at most one ellipsis `...`, which covers the dims its
//! operand has beyond the subscript's letters (possibly none). Implicit mode
//! (no `->`): the output is the labels that appear once on the left,
//! sorted (capitals first), after an ellipsis when any input has one.
//!
//! Shape: each label's dims (across inputs) broadcast numpy-style (a dim 1
//! yields to the other; symbolic dims merge or record a constraint through
//! [`crate::broadcast`]); a label repeated within one input (a diagonal)
//! needs equal dims; the ellipsis dims of the inputs broadcast with
//! [`broadcast::numpy`]. The output is the labels' dims in output order.
//!
//! Where the runtime and the spec disagree:
//! * white space: the spec allows blanks anywhere; OpenVINO's IR reader
//!   refuses them. We drop them, with a warning (`einsum-whitespace`);
//! * implicit mode with a label repeated in one input only (`ii`): the spec
//!   sums it (a trace); OpenVINO's shape inference keeps it twice in the
//!   output (`[d, d]`) and its CPU plugin then cannot compile the model. We
//!   follow the spec, with a warning (`einsum-implicit-repeated`);
//! * an input ellipsis absent from an explicit output (`...ab->ab`): the spec
//!   forbids it, OpenVINO's runtime sums the ellipsis dims. We follow the
//!   runtime, with a warning (`einsum-ellipsis-summed`).

use ir::{Dim, Shape};

use crate::broadcast::{self, Operand};
use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::{OpCall, OpDef, OpDoc, OpVersion};
use crate::tensor::TensorInfo;

pub static DEF: OpDef = OpDef {
    type_name: "Einsum",
    versions: &[OpVersion::openvino(7, 7)],
    infer,
    doc: OpDoc {
        summary: "Einstein summation of one or more operands by an equation (`ab,bc->ac`, implicit `ab,bc`): transposes, diagonals, products and sums over labels, with an ellipsis for broadcast dims.",
        attributes: "`equation` (explicit with `->` or implicit; letters case-sensitive, one `...` per subscript)",
        symbolic: "each label's dims broadcast across inputs (numpy: equal, 1, or a recorded constraint), equal within one input (diagonal); ellipsis dims broadcast (numpy); the output is the labels' dims in output order",
        errors: "`einsum-equation` (a malformed equation: a character other than a letter or one ellipsis, an output label not on the left or repeated), `einsum-inputs` (subscripts and inputs differ in number), `einsum-rank` (an input's rank does not fit its subscript), `einsum-label-dims` (a label's dims that cannot broadcast, or differ within one input), `broadcast-incompatible` (ellipsis dims), `element-type` (non-numeric or mixed types); warnings `einsum-whitespace`, `einsum-implicit-repeated`, `einsum-ellipsis-summed`",
    },
};

/// One label of a subscript: a letter or the ellipsis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    Letter(u8),
    Ellipsis,
}

/// A parsed equation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Equation {
    /// One subscript per input.
    pub inputs: Vec<Vec<Label>>,
    /// The output subscript (recovered in implicit mode).
    pub output: Vec<Label>,
    /// Whether the equation had white space (dropped).
    pub had_whitespace: bool,
    /// Implicit mode only: letters repeated within one input and absent from
    /// the others, which OpenVINO's runtime (unlike the spec) keeps in the
    /// output once per occurrence.
    pub implicit_repeated: Vec<u8>,
}

impl Equation {
    /// Whether any input subscript has an ellipsis.
    pub fn input_ellipsis(&self) -> bool {
        self.inputs.iter().any(|s| s.contains(&Label::Ellipsis))
    }

    /// Whether the output subscript has an ellipsis.
    pub fn output_ellipsis(&self) -> bool {
        self.output.contains(&Label::Ellipsis)
    }
}

fn equation_error(message: impl Into<String>) -> ShapeError {
    ShapeError::rule("einsum-equation", message)
}

/// The labels of one subscript: letters and at most one `...`.
fn subscript(text: &str, what: &str) -> Result<Vec<Label>, ShapeError> {
    let bytes = text.as_bytes();
    let mut labels = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() {
            labels.push(Label::Letter(bytes[i]));
            i += 1;
        } else if bytes[i..].starts_with(b"...") && !labels.contains(&Label::Ellipsis) {
            labels.push(Label::Ellipsis);
            i += 3;
        } else {
            return Err(equation_error(format!(
                "{what} `{text}` must consist of letters and at most one ellipsis `...`"
            )));
        }
    }
    Ok(labels)
}

/// Parses an equation, as OpenVINO's `Einsum::parse_equation` (white space
/// dropped, as the spec allows).
pub fn parse(equation: &str) -> Result<Equation, ShapeError> {
    let had_whitespace = equation.bytes().any(|b| b.is_ascii_whitespace());
    let text: String = equation
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let (left, right) = match text.find("->") {
        Some(at) => (&text[..at], Some(&text[at + 2..])),
        None => (text.as_str(), None),
    };
    let inputs = left
        .split(',')
        .enumerate()
        .map(|(i, s)| subscript(s, &format!("input subscript {i}")))
        .collect::<Result<Vec<_>, _>>()?;
    let mut implicit_repeated = Vec::new();
    let output = match right {
        Some(right) => {
            let output = subscript(right, "the output subscript")?;
            for (k, l) in output.iter().enumerate() {
                if let Label::Letter(c) = l {
                    if output[..k].contains(l) {
                        // OpenVINO's shape inference takes it; numpy refuses
                        // it and OpenVINO's CPU plugin cannot compile it.
                        return Err(equation_error(format!(
                            "label `{}` appears twice in the output subscript `{right}`",
                            *c as char
                        )));
                    }
                    if !inputs.iter().any(|s| s.contains(l)) {
                        return Err(equation_error(format!(
                            "output label `{}` is in no input subscript",
                            *c as char
                        )));
                    }
                }
            }
            output
        }
        None => {
            // The labels that appear once on the left, sorted (ASCII:
            // capitals first), after the ellipsis if any.
            let mut letters: Vec<u8> = Vec::new();
            for (i, s) in inputs.iter().enumerate() {
                for &l in s {
                    let Label::Letter(c) = l else { continue };
                    let elsewhere = inputs
                        .iter()
                        .enumerate()
                        .any(|(j, t)| j != i && t.contains(&l));
                    if elsewhere {
                        continue;
                    }
                    if s.iter().filter(|&&m| m == l).count() == 1 {
                        letters.push(c);
                    } else if !implicit_repeated.contains(&c) {
                        implicit_repeated.push(c);
                    }
                }
            }
            letters.sort_unstable();
            let mut output = Vec::with_capacity(letters.len() + 1);
            if inputs.iter().any(|s| s.contains(&Label::Ellipsis)) {
                output.push(Label::Ellipsis);
            }
            output.extend(letters.into_iter().map(Label::Letter));
            output
        }
    };
    Ok(Equation {
        inputs,
        output,
        had_whitespace,
        implicit_repeated,
    })
}

/// Reads and parses the `equation` attribute.
pub fn equation_of(attributes: &ir::Attributes) -> Result<Equation, ShapeError> {
    let text = attributes
        .get("equation")
        .ok_or_else(|| equation_error("the `equation` attribute is missing"))?;
    parse(text)
}

/// A subscript as text, for messages.
pub fn show(labels: &[Label]) -> String {
    labels
        .iter()
        .map(|l| match l {
            Label::Letter(c) => (*c as char).to_string(),
            Label::Ellipsis => "...".to_owned(),
        })
        .collect()
}

fn infer(ctx: &mut InferContext, call: &OpCall<'_>) -> Result<Vec<TensorInfo>, ShapeError> {
    call.expect_inputs(1, usize::MAX)?;
    let eq = equation_of(&call.node.attributes)?;
    warn_departures(ctx, &eq);
    if eq.inputs.len() != call.inputs.len() {
        return Err(ShapeError::rule(
            "einsum-inputs",
            format!(
                "the equation has {} input subscript(s) but the layer has {} input(s)",
                eq.inputs.len(),
                call.inputs.len()
            ),
        ));
    }
    let element_type = element_type(call)?;

    // Each letter's dim (broadcast across inputs), and the ellipsis dims.
    let mut letters: Vec<(u8, Dim)> = Vec::new();
    let mut ellipsis: Option<Shape> = None;
    for (i, (labels, input)) in eq.inputs.iter().zip(call.inputs).enumerate() {
        let has_ellipsis = labels.contains(&Label::Ellipsis);
        let Some(dims) = input.shape.dims() else {
            if has_ellipsis && eq.output_ellipsis() {
                // The output's ellipsis covers dims of unknown number.
                return Ok(vec![TensorInfo::new(element_type, Shape::DynamicRank)]);
            }
            continue;
        };
        let named = labels.len() - usize::from(has_ellipsis);
        let fits = if has_ellipsis {
            dims.len() >= named
        } else {
            dims.len() == named
        };
        if !fits {
            return Err(ShapeError::rule(
                "einsum-rank",
                format!(
                    "input {i} has rank {} but its subscript `{}` names {named} dim(s){}",
                    dims.len(),
                    show(labels),
                    if has_ellipsis {
                        " besides the ellipsis"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let covered = dims.len() - named;
        // This input's own letters first: a repeated letter is a diagonal,
        // whose dims must be equal.
        let mut own: Vec<(u8, Dim)> = Vec::new();
        let mut axis = 0;
        for &label in labels {
            match label {
                Label::Ellipsis => {
                    let part = Shape::ranked(dims[axis..axis + covered].iter().cloned());
                    ellipsis = Some(match ellipsis.take() {
                        None => part,
                        Some(so_far) => broadcast::numpy(
                            ctx,
                            Operand::new("the ellipsis dims of the inputs before", &so_far),
                            Operand::new(&format!("the ellipsis dims of input {i}"), &part),
                        )?,
                    });
                    axis += covered;
                }
                Label::Letter(c) => {
                    let d = &dims[axis];
                    match own.iter_mut().find(|(l, _)| *l == c) {
                        Some((_, first)) => {
                            *first = support::merge_equal_dims(
                                ctx,
                                first,
                                d,
                                "einsum-label-dims",
                                &format!(
                                    "label `{}` repeated in input {i} (a diagonal) needs equal dims",
                                    c as char
                                ),
                            )?;
                        }
                        None => own.push((c, d.clone())),
                    }
                    axis += 1;
                }
            }
        }
        for (c, d) in own {
            match letters.iter_mut().find(|(l, _)| *l == c) {
                None => letters.push((c, d)),
                Some((_, so_far)) => {
                    *so_far = broadcast::numpy_dim(ctx, so_far, &d)?.ok_or_else(|| {
                        ShapeError::rule(
                            "einsum-label-dims",
                            format!(
                                "label `{}`: dim {} of input {i} does not broadcast with {} of the inputs before",
                                c as char,
                                ctx.symbols.display(&d),
                                ctx.symbols.display(so_far)
                            ),
                        )
                    })?;
                }
            }
        }
    }

    let mut out: Vec<Dim> = Vec::new();
    for label in &eq.output {
        match label {
            // An output ellipsis without input ellipsis covers no dims.
            Label::Ellipsis => {
                if let Some(shape) = &ellipsis {
                    out.extend(shape.dims().unwrap_or(&[]).iter().cloned());
                }
            }
            Label::Letter(c) => match letters.iter().find(|(l, _)| l == c) {
                Some((_, d)) => out.push(d.clone()),
                // Only in inputs of unknown rank.
                None => {
                    let d = support::unknown_dim(
                        ctx,
                        format!("Einsum label `{}` of inputs of unknown rank", *c as char),
                    );
                    letters.push((*c, d.clone()));
                    out.push(d);
                }
            },
        }
    }
    Ok(vec![TensorInfo::new(element_type, Shape::ranked(out))])
}

/// The common element type of the inputs, which must be numeric.
fn element_type(call: &OpCall<'_>) -> Result<ir::ElementType, ShapeError> {
    let mut t = call.inputs[0].element_type;
    for i in 1..call.inputs.len() {
        t = support::expect_same_type(call, 0, i)?;
    }
    if t.is_static() && !(t.is_real() || t.is_integral()) {
        return Err(ShapeError::ElementType {
            what: "the inputs".to_owned(),
            message: format!("must be numeric, got {t}"),
        });
    }
    Ok(t)
}

/// The warnings where we follow the spec or the runtime against the other.
fn warn_departures(ctx: &mut InferContext, eq: &Equation) {
    if eq.had_whitespace {
        ctx.warn(
            "einsum-whitespace",
            "the equation has white space: the spec allows it (and it is dropped here), OpenVINO's IR reader refuses it",
        );
    }
    if !eq.implicit_repeated.is_empty() {
        let labels: String = eq.implicit_repeated.iter().map(|&c| c as char).collect();
        ctx.warn(
            "einsum-implicit-repeated",
            format!(
                "implicit mode: label(s) `{labels}` repeat within one input only, so the spec sums them (as here); OpenVINO's runtime keeps them in the output once per occurrence and its CPU plugin cannot compile that"
            ),
        );
    }
    if eq.input_ellipsis() && !eq.output_ellipsis() {
        ctx.warn(
            "einsum-ellipsis-summed",
            "an input subscript has an ellipsis and the output has none: the spec requires one, OpenVINO's runtime (and the executor) sums the ellipsis dims",
        );
    }
}

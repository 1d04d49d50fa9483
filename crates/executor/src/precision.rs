//! The element type each f16 value is computed and stored in, decided once
//! when an [`Executor`](crate::Executor) is prepared.
//!
//! OpenVINO's CPU plugin does not compute f16 layers in f16 on a CPU
//! without native f16 arithmetic (x86 without AVX512-FP16 or AVX2-VNNI-2),
//! nor with `INFERENCE_PRECISION_HINT=f32` on any CPU: its
//! `ConvertPrecision` transformation retypes every f16 tensor of the model
//! to f32. Measured with OpenVINO 2026.4 (`scripts/probe_cpu_precision.py`;
//! docs/architecture.md, "f16 and bf16 models"):
//! * f16 Parameters keep their type and are widened (exactly) to f32 where
//!   the model starts; an f16 Result is rounded to f16 (to nearest even)
//!   where it ends, once;
//! * between them every layer computes and passes f32: a Convert to f16 in
//!   the middle of a graph does not round (it becomes a Convert to f32), and
//!   the ops whose output type is an attribute (Range, RandomUniform, Eye)
//!   produce f32 (a seeded f16 RandomUniform gives the f32 values rounded);
//! * what OpenVINO folds before that, the compile-time constants (f16
//!   Constants, and layers fed only by constants and ShapeOfs of static
//!   shapes), stays f16, and is widened where the rest reads it;
//!   ScaledDotProductAttention's default scale is computed in the query's
//!   type by its decomposition.
//!
//! [`Precision::Plugin`] does the same, as a rewrite of the graph before the
//! executor plans it (the plugin's own approach): f16 Parameters and
//! compile-time constants feed the other layers through an inserted Convert
//! to f32, the layers that made f16 make f32, a Convert to f16 is inserted
//! before each Result that was f16, and an attention layer of an f16 query
//! gets its f16 scale as an input. Bodies (If, Loop, TensorIterator)
//! compute in f32 throughout, as the plugin computes them (measured: back
//! edges, body Results, concatenated slices and the layer's outputs are not
//! rounded): their f16 Parameters become f32 Parameters, their Results stay
//! f32, as the layer's outer outputs do; a body's own compile-time
//! constants stay f16 as the top level's do (the plugin folds them in f16).
//!
//! f64 is computed in f32 as well (the plugin has no f64 arithmetic): f64
//! Parameters and compile-time constants are saturated to f32 where the
//! rest reads them, and an f64 Result gets the f32 value clamped to f32's
//! finite range (±inf become ±3.4028235e38) and widened, as the plugin
//! writes an f64 output (`widen`, `narrow_before`).
//!
//! bf16 keeps its per-layer rounding under both policies: the CPU plugin
//! computes bf16 layers in bf16 on every CPU with AVX-512 (each layer
//! rounds its output to bf16, though layers it fuses keep f32 between them),
//! and widens bf16 to f32 only on CPUs without it. Where the plugin moves a
//! scale known at compile time, [`Precision::Plugin`] moves it too: into
//! the key of a bf16 ScaledDotProductAttention, and into the second operand
//! of a bf16 MatMul whose product only that scale reads.
//!
//! Two more of the plugin's run-time rules are followed under
//! [`Precision::Plugin`] (compile-time constants, which OpenVINO folds with
//! its reference implementations, and [`Precision::Exact`] keep the spec's):
//! an integer Power or Divide (and an i8 or u8 Add, Subtract or Multiply,
//! which saturate) computes in f32 and comes back to its type as x86
//! truncates (NaN, infinities and values past i32's range give i32::MIN,
//! which i8 and u8 then saturate; an i8 or u8 quotient of a dynamic shape
//! is rounded to nearest even first), so a quotient truncates toward zero
//! whatever `m_pythondiv` says and a division by zero gives a value, not an
//! error;
//! a float ReduceMin starts from the highest finite value of its
//! type (OpenVINO's reference starts from +inf; both start ReduceMax from
//! the lowest finite value, as the kernel does under both policies), so a
//! row of +inf reduces to it.

use std::collections::{HashMap, HashSet};

use half::bf16;
use ir::{ElementType, Graph, Node, NodeId, Op, OpType, OutputRef, PortDecl};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use shape_infer::{BodyOutcome, NodeOutcome, Options, Registry, TensorInfo};

use crate::kernels::scaled_dot_product_attention::default_scale;

/// How a run computes the f16 values of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Precision {
    /// As OpenVINO's CPU plugin on a CPU without native f16 arithmetic (and
    /// on any CPU with `INFERENCE_PRECISION_HINT=f32`): f16 and f64 values
    /// are computed and passed between layers in f32, converted from their
    /// type where the model's Parameters and Constants are read and
    /// converted back only at its Results (f16 rounded, f64 clamped to
    /// f32's finite range). Computed at run time, an integer Power or
    /// Divide (and an i8 or u8 Add, Subtract or Multiply) computes in f32
    /// and truncates back through i32 (a quotient truncates toward zero
    /// whatever `m_pythondiv` says, or rounds to nearest in i8 and u8 of a
    /// dynamic shape; a division by zero gives i32::MIN, or the i8 and u8
    /// saturation of it) and a float ReduceMin starts from its type's
    /// highest finite value, as the plugin's do.
    #[default]
    Plugin,
    /// Every layer computes in the types the IR gives it: an f16 output is
    /// rounded to f16 after each layer, as OpenVINO's reference
    /// implementations compute an f16 model.
    Exact,
}

impl Precision {
    /// The policy named `text` (`plugin` or `exact`).
    pub fn parse(text: &str) -> Option<Precision> {
        match text {
            "plugin" => Some(Precision::Plugin),
            "exact" => Some(Precision::Exact),
            _ => None,
        }
    }
}

/// The ops whose output type is an attribute, and that attribute.
const TYPE_ATTRIBUTES: &[(&str, &str)] = &[
    ("Convert", "destination_type"),
    ("Range", "output_type"),
    ("RandomUniform", "output_type"),
    ("Eye", "output_type"),
    ("ReadValue", "variable_type"),
    ("Assign", "variable_type"),
];

/// The graph `precision` runs: `None` when it is `graph` itself (the exact
/// policy, or a model that computes nothing in f16 or f64, has no bf16 product or
/// attention whose scale moves, no integer layer the plugin computes in
/// f32 and no float ReduceMin), else the rewritten graph the module docs describe.
pub(crate) fn plan(graph: &Graph, precision: Precision) -> Option<Graph> {
    let f16 = computes_in(graph, ElementType::F16);
    let f64 = computes_in(graph, ElementType::F64);
    let bf16 = computes_in(graph, ElementType::BF16)
        && has_layer(graph, &|node| {
            matches!(
                node.op_type.name.as_str(),
                "ScaledDotProductAttention" | "MatMul"
            )
        });
    let declared = |node: &Node| node.outputs.first().and_then(|p| p.element_type);
    // An undeclared output type may be any, i8 say, which each op the
    // rewrite knows takes.
    let arithmetic = has_layer(graph, &|node| {
        computed_in_f32(
            &node.op_type.name,
            declared(node).unwrap_or(ElementType::I8),
        )
    });
    let minima = has_layer(graph, &|node| {
        node.op_type.name == "ReduceMin" && declared(node).is_none_or(ElementType::is_real)
    });
    if precision == Precision::Exact || !(f16 || f64 || bf16 || arithmetic || minima) {
        return None;
    }
    let options = Options {
        check_declared_shapes: false,
        ..Options::default()
    };
    let inference = shape_infer::infer(graph, &Registry::standard(), &options);
    let known = Known {
        outcomes: &inference.outcomes,
        bodies: &inference.bodies,
        top: true,
    };
    let f16_results = results_of(graph, known, ElementType::F16);
    let f64_results = results_of(graph, known, ElementType::F64);
    let mut rewritten = graph.clone();
    let mut taken = layer_ids(&rewritten);
    let mut rewrote = scale_rewrites(&mut rewritten, Some(known), &mut taken);
    if arithmetic {
        rewrote |= f32_integer_arithmetic(&mut rewritten, Some(known), &mut taken);
    }
    // f16 and f64 alike compute in f32 between the model's inputs and
    // Results (the plugin's `ConvertPrecision` maps both to f32).
    for (computed, retyped, results) in [
        (f16, ElementType::F16, f16_results),
        (f64, ElementType::F64, f64_results),
    ] {
        if !computed {
            continue;
        }
        widen(&mut rewritten, Some(known), &mut taken, retyped);
        for result in results {
            narrow_before(&mut rewritten, result, retyped, &mut taken);
        }
        rewrote = true;
    }
    // After widening: an f16 reduction computes in f32 then.
    if minima {
        rewrote |= minimum_starts(&mut rewritten, Some(known), &mut taken);
    }
    rewrote.then_some(rewritten)
}

/// What shape inference concluded about the layers of one graph: the top
/// level's or a body's (whose layer ids are its own).
#[derive(Clone, Copy)]
struct Known<'a> {
    /// Per layer (by index), its outcome.
    outcomes: &'a [NodeOutcome],
    /// The bodies of the layers with bodies, in the layer's order.
    bodies: &'a HashMap<NodeId, Vec<BodyOutcome>>,
    /// Whether this is the top level (not a body).
    top: bool,
}

impl<'a> Known<'a> {
    /// The element type and shape inference gives output `output` of `node`.
    fn tensor(self, node: NodeId, output: usize) -> Option<&'a TensorInfo> {
        match self.outcomes.get(node.index())? {
            NodeOutcome::Inferred(infos) => infos.get(output),
            NodeOutcome::Declared(_) => None,
        }
    }

    /// What inference concluded inside body `index` of layer `node`.
    fn body(self, node: NodeId, index: usize) -> Option<Known<'a>> {
        let body = self.bodies.get(&node)?.get(index)?;
        Some(Known {
            outcomes: &body.outcomes,
            bodies: &body.bodies,
            top: false,
        })
    }
}

/// Whether `graph` or one of its bodies has a layer that `wanted` takes:
/// the cheap check, on the declared types, that spares a model no rewrite
/// applies to its inference and copy.
fn has_layer(graph: &Graph, wanted: &dyn Fn(&Node) -> bool) -> bool {
    graph.nodes().any(|(_, node)| match &node.op {
        Op::SubGraph(sub) => sub.bodies.iter().any(|b| has_layer(&b.graph, wanted)),
        _ => wanted(node),
    })
}

/// Starts each f32, f16 or bf16 ReduceMin of `graph` and its bodies that
/// is not a compile-time constant from the highest finite value of the
/// type it computes in, as the CPU plugin's reduction starts its
/// accumulator (measured on f32, f16, which it computes in f32, and bf16,
/// static and dynamic shapes, inner, outer and several axes): a row of
/// +inf reduces to 3.4028235e38 (bf16: 3.3895314e38), where OpenVINO's
/// reference, which folds constant reductions, gives +inf. (ReduceMax
/// starts from the lowest finite value in both, as the kernel does.) A
/// Minimum of the reduction and that value feeds its readers. How the
/// plugin's reduction orders NaN against other values is not modelled: NaN
/// propagates here. Runs after `widen`, whose f16 layers compute in f32.
/// Returns whether it rewrote a layer.
fn minimum_starts(
    graph: &mut Graph,
    known: Option<Known<'_>>,
    taken: &mut HashSet<String>,
) -> bool {
    let mut rewrote = rewrite_bodies(graph, known, minimum_starts);
    let Some(known) = known else {
        return rewrote;
    };
    let constant = compile_time_constants(graph, Some(known));
    let minima: Vec<(NodeId, ElementType)> = graph
        .nodes()
        .filter_map(|(id, node)| {
            if node.op_type.name != "ReduceMin" || constant.get(id.index()).copied().unwrap_or(true)
            {
                return None;
            }
            let computed = match known.tensor(id, 0)?.element_type {
                ElementType::F16 | ElementType::F32 | ElementType::F64 => ElementType::F32,
                ElementType::BF16 => ElementType::BF16,
                _ => return None,
            };
            Some((id, computed))
        })
        .collect();
    for (id, computed) in minima {
        let highest = match computed {
            ElementType::BF16 => bf16::MAX.to_f32(),
            _ => f32::MAX,
        };
        let bound = add_scalar(graph, id, highest, computed, "highest", taken);
        let dims = output_dims(graph, id);
        let clamp = add_binary(
            graph,
            id,
            "Minimum",
            computed,
            Operands::TensorScalar(dims),
            "accumulator_start",
            taken,
        );
        move_readers(graph, id, clamp);
        connect(graph, id, 0, clamp, 0);
        connect(graph, bound, 0, clamp, 1);
        rewrote = true;
    }
    rewrote
}

/// How the CPU plugin brings the f32 result of an integer Power or Divide
/// back to integer type `element_type`, after truncating it to i32: `Some(true)`
/// saturating at the type's range (i8, u8), `Some(false)` keeping the
/// i32's low bits or extending them (i16, u16, u32, i64), `None` for the
/// types not measured or not computed this way (u64: its i32::MIN comes
/// back as 2^63).
fn saturates_from_i32(element_type: ElementType) -> Option<bool> {
    match element_type {
        ElementType::I8 | ElementType::U8 => Some(true),
        ElementType::I16 | ElementType::U16 | ElementType::I32 | ElementType::U32 => Some(false),
        ElementType::I64 => Some(false),
        _ => None,
    }
}

/// Whether the CPU plugin computes layer `op` of integer output type
/// `element_type` in f32 (`f32_integer_arithmetic`): a Power or Divide of
/// a type it brings back from i32, an Add, Subtract or Multiply of one it
/// saturates to (i8, u8: `64 * 2` and `100 + 100` are 127 in i8, `5 - 7`
/// is 0 in u8; i16 and i32 ones wrap, as the spec says).
fn computed_in_f32(op: &str, element_type: ElementType) -> bool {
    match op {
        "Divide" | "Power" => saturates_from_i32(element_type).is_some(),
        "Add" | "Subtract" | "Multiply" => saturates_from_i32(element_type) == Some(true),
        _ => false,
    }
}

/// Whether the CPU plugin rounds the f32 quotient of integer Divide `id`
/// of type `element_type` to nearest (ties to even) rather than truncating
/// it: an i8 or u8 Divide of a dynamic shape (measured: `7 / 2` is 4,
/// `5 / 2` is 2, `-7 / 2` is -4, where the same Divide of a static shape
/// truncates to 3, 2 and -3; a Multiply after it in the same Eltwise reads
/// the rounded i8). A shape is dynamic here when inference does not know
/// each of its dims as a number, as the plugin's node is dynamic when the
/// model's shapes are.
fn rounds_quotient(graph: &Graph, known: Known<'_>, id: NodeId, element_type: ElementType) -> bool {
    let static_shape = known.tensor(id, 0).is_some_and(|info| {
        info.shape
            .dims()
            .is_some_and(|dims| dims.iter().all(|d| d.as_constant().is_some()))
    });
    graph.node(id).op_type.name == "Divide"
        && saturates_from_i32(element_type) == Some(true)
        && !static_shape
}

/// Computes each integer Power and Divide of `graph` and its bodies that
/// is not a compile-time constant as the CPU plugin does (measured on i8,
/// u8, i16, u16, i32, u32 and i64, static and dynamic shapes, tensor and
/// scalar operands): in f32, the result truncated to i32 as x86's
/// `cvttss2si` does, where NaN, infinities and values outside i32's range
/// become i32::MIN, then saturated to i8 or u8, or wrapped or extended to
/// the other types (`saturates_from_i32`). So a division by zero gives
/// i32::MIN (i8: -128, u8 and i16: 0) instead of an error, `2^32` and
/// `3^20` give i32::MIN where the spec wraps, `2^-1` gives 0, and a
/// dividend past 2^24 is rounded to f32 first. An i8 or u8 Add, Subtract
/// or Multiply is computed so too (it saturates: `64 * 2` and `100 + 100`
/// are 127 in i8, measured static and dynamic); i16 and i32 ones wrap, as
/// the spec says. An i8 or u8 Divide of a dynamic shape rounds its
/// quotient to nearest even before it saturates (`rounds_quotient`). This is what
/// ONNX's bit shifts by the width or more, or by a negative count, become
/// through
/// OpenVINO's frontend (a Power of 2, then a Divide or Multiply): the
/// plugin returns 0 or the type's minimum where the spec's Divide fails.
/// The layer reads its inputs through Converts to f32 and computes f32; a
/// Select of its result where it lies in [-2^31, 2^31), else -2^31, feeds
/// a Convert to i32 (or straight to i8 and u8, which saturates) and, for
/// the other types, a Convert to its type (a rounded quotient passes a
/// Round, `half_to_even`, first). Not modelled: operands of i64, u64 or
/// u32 beyond i32's range (the plugin computes them in i32: docs/
/// architecture.md). Returns whether it rewrote a layer.
fn f32_integer_arithmetic(
    graph: &mut Graph,
    known: Option<Known<'_>>,
    taken: &mut HashSet<String>,
) -> bool {
    let mut rewrote = rewrite_bodies(graph, known, f32_integer_arithmetic);
    let Some(known) = known else {
        return rewrote;
    };
    let constant = compile_time_constants(graph, Some(known));
    let layers: Vec<(NodeId, ElementType)> = graph
        .nodes()
        .filter_map(|(id, node)| {
            if constant.get(id.index()).copied().unwrap_or(true) {
                return None;
            }
            let element_type = known.tensor(id, 0)?.element_type;
            computed_in_f32(&node.op_type.name, element_type).then_some((id, element_type))
        })
        .collect();
    for (id, element_type) in layers {
        let round = rounds_quotient(graph, known, id, element_type);
        compute_in_f32(graph, id, element_type, round, taken);
        rewrote = true;
    }
    rewrote
}

/// Rewrites integer layer `id` of type `element_type` to compute in f32
/// and convert back as `f32_integer_arithmetic` describes, its result
/// rounded to nearest even first when `round`.
fn compute_in_f32(
    graph: &mut Graph,
    id: NodeId,
    element_type: ElementType,
    round: bool,
    taken: &mut HashSet<String>,
) {
    let dims = output_dims(graph, id);
    let (real, boolean) = (ElementType::F32, ElementType::Boolean);
    let lowest = add_scalar(graph, id, i32::MIN as f32, real, "i32_min", taken);
    let limit = add_scalar(graph, id, -(i32::MIN as f32), real, "i32_limit", taken);
    let at_least = add_binary(
        graph,
        id,
        "GreaterEqual",
        boolean,
        Operands::TensorScalar(dims.clone()),
        "at_least_i32_min",
        taken,
    );
    let below = add_binary(
        graph,
        id,
        "Less",
        boolean,
        Operands::TensorScalar(dims.clone()),
        "below_i32_limit",
        taken,
    );
    let fits = add_binary(
        graph,
        id,
        "LogicalAnd",
        boolean,
        Operands::Tensors(dims.clone()),
        "fits_i32",
        taken,
    );
    // The Select's condition and value are tensors; `attach` adds its
    // scalar third input.
    let select = add_binary(
        graph,
        id,
        "Select",
        real,
        Operands::Tensors(dims),
        "or_i32_min",
        taken,
    );
    let saturates = saturates_from_i32(element_type) == Some(true);
    let first = if saturates {
        element_type
    } else {
        ElementType::I32
    };
    let truncate = add_convert(graph, select, first, &format!("to_{}", first.name()), taken);
    let last = if first == element_type {
        truncate
    } else {
        let name = format!("to_{}", element_type.name());
        let widen = add_convert(graph, truncate, element_type, &name, taken);
        connect(graph, truncate, 0, widen, 0);
        widen
    };
    move_readers(graph, id, last);
    convert_input(graph, id, 0, real, taken);
    convert_input(graph, id, 1, real, taken);
    if let Some(port) = graph.node_mut(id).outputs.first_mut() {
        port.element_type = Some(real);
    }
    let value = if round {
        let mut attributes = ir::Attributes::new();
        attributes.set("mode", "half_to_even");
        let unary = Unary {
            op: "Round",
            version: "opset5",
            attributes,
            output_type: real,
        };
        let rounded = add_unary(graph, id, unary, "to_nearest", taken);
        connect(graph, id, 0, rounded, 0);
        rounded
    } else {
        id
    };
    connect(graph, value, 0, at_least, 0);
    connect(graph, lowest, 0, at_least, 1);
    connect(graph, value, 0, below, 0);
    connect(graph, limit, 0, below, 1);
    connect(graph, at_least, 0, fits, 0);
    connect(graph, below, 0, fits, 1);
    connect(graph, fits, 0, select, 0);
    connect(graph, value, 0, select, 1);
    attach(graph, lowest, select, real);
    connect(graph, select, 0, truncate, 0);
}

/// Where the plugin applies a scale known at compile time, in `graph` and
/// its bodies: attention scales (`explicit_attention_scales`) and the
/// scalar factors of bf16 products (`fold_product_scales`). Returns whether
/// it rewrote any layer.
fn scale_rewrites(
    graph: &mut Graph,
    known: Option<Known<'_>>,
    taken: &mut HashSet<String>,
) -> bool {
    let mut rewrote = rewrite_bodies(graph, known, scale_rewrites);
    let Some(known) = known else {
        return rewrote;
    };
    rewrote |= explicit_attention_scales(graph, known, taken);
    rewrote |= fold_product_scales(graph, known, taken);
    rewrote | unrounded_attention_masks(graph, known, taken)
}

/// Applies `rewrite` to every body of `graph`'s layers, each with what
/// inference concluded about that body and the body's own layer ids (a
/// body's ids are its own). Returns whether it rewrote any layer.
fn rewrite_bodies<F>(graph: &mut Graph, known: Option<Known<'_>>, rewrite: F) -> bool
where
    F: Fn(&mut Graph, Option<Known<'_>>, &mut HashSet<String>) -> bool,
{
    let mut rewrote = false;
    let owners: Vec<NodeId> = graph
        .nodes()
        .filter(|(_, n)| matches!(n.op, Op::SubGraph(_)))
        .map(|(id, _)| id)
        .collect();
    for id in owners {
        if let Op::SubGraph(sub) = &mut graph.node_mut(id).op {
            for (index, body) in sub.bodies.iter_mut().enumerate() {
                let mut body_taken = layer_ids(&body.graph);
                let inner = known.and_then(|k| k.body(id, index));
                rewrote |= rewrite(&mut body.graph, inner, &mut body_taken);
            }
        }
    }
    rewrote
}

/// The readers of `id`'s outputs: (layer, its input).
fn readers(graph: &Graph, id: NodeId) -> Vec<(NodeId, usize)> {
    graph
        .graph
        .edges_directed(id, Direction::Outgoing)
        .map(|e| (e.target(), e.weight().to_input))
        .collect()
}

/// Computes the mask Add and the Softmax of each explicit bf16 attention
/// chain in f32, rounding the softmax to bf16 where it ends, as the CPU
/// plugin's attention subgraph computes them (measured on static and
/// dynamic shapes, with and without a constant scale of the product, a
/// transposed key and two sizes: the rule of its ScaledDotProductAttention,
/// with the scale moved into the key as `fold_product_scales` moves it).
/// The chain is the plugin's: `MatMul(Q, K)` (bf16, rounded) read only by
/// an Add read only by a Softmax, whose only reader is a MatMul, or a
/// Select read only by a MatMul; with the softmax read twice (a Result
/// too, say) the plugin computes each layer on its own, rounding each, as
/// the executor does. The Add reads its inputs through Converts to f32 and
/// the Softmax's readers read it through a Convert to bf16. Returns
/// whether it rewrote a chain.
fn unrounded_attention_masks(
    graph: &mut Graph,
    known: Known<'_>,
    taken: &mut HashSet<String>,
) -> bool {
    let is = |graph: &Graph, id: NodeId, op: &str| {
        graph.node(id).op_type.name == op
            && known.tensor(id, 0).map(|i| i.element_type) == Some(ElementType::BF16)
    };
    // (The IR spells Softmax-1 and -8 `SoftMax`.)
    let chains: Vec<(NodeId, NodeId)> = graph
        .nodes()
        .filter(|(id, _)| is(graph, *id, "SoftMax"))
        .filter_map(|(softmax, _)| {
            let add = graph.input_sources(softmax).first()?.first()?.node;
            if !is(graph, add, "Add") || readers(graph, add) != [(softmax, 0)] {
                return None;
            }
            let product = graph
                .input_sources(add)
                .into_iter()
                .flatten()
                .any(|s| is(graph, s.node, "MatMul") && readers(graph, s.node).len() == 1);
            let reader = match readers(graph, softmax).as_slice() {
                [(reader, _)] => *reader,
                _ => return None,
            };
            let ends = match graph.node(reader).op_type.name.as_str() {
                "MatMul" => true,
                "Select" => matches!(readers(graph, reader).as_slice(),
                    [(last, _)] if graph.node(*last).op_type.name == "MatMul"),
                _ => false,
            };
            (product && ends).then_some((add, softmax))
        })
        .collect();
    for &(add, softmax) in &chains {
        for input in 0..2 {
            convert_input(graph, add, input, ElementType::F32, taken);
        }
        for id in [add, softmax] {
            for port in &mut graph.node_mut(id).outputs {
                port.element_type = Some(ElementType::F32);
            }
        }
        let narrow = add_convert(graph, softmax, ElementType::BF16, "to_bf16", taken);
        move_readers(graph, softmax, narrow);
        connect(graph, softmax, 0, narrow, 0);
    }
    !chains.is_empty()
}

/// Feeds layer `id` its input `input` through a new Convert to `to`.
fn convert_input(
    graph: &mut Graph,
    id: NodeId,
    input: usize,
    to: ElementType,
    taken: &mut HashSet<String>,
) {
    let Some((edge, source, output)) = graph
        .graph
        .edges_directed(id, Direction::Incoming)
        .find(|e| e.weight().to_input == input)
        .map(|e| (e.id(), e.source(), e.weight().from_output))
    else {
        return;
    };
    let convert = add_convert(graph, source, to, &format!("to_{}", to.name()), taken);
    graph.graph.remove_edge(edge);
    connect(graph, source, output, convert, 0);
    connect(graph, convert, 0, id, input);
}

/// Whether `graph` or one of its bodies computes anything in `half` (f16,
/// bf16 or f64): a Parameter of it, a Constant of it read by a layer other
/// than a Convert, or a type attribute naming it. (An f32 model whose
/// weights are stored in f16 and widened by Converts, as OpenVINO saves
/// models by default, computes nothing in f16 and is left as it is.)
fn computes_in(graph: &Graph, half: ElementType) -> bool {
    graph.nodes().any(|(id, node)| match &node.op {
        Op::Parameter { element_type, .. } => *element_type == half,
        Op::Constant { element_type, .. } => {
            *element_type == half
                && graph
                    .graph
                    .edges_directed(id, Direction::Outgoing)
                    .any(|e| graph.node(e.target()).op_type.name != "Convert")
        }
        Op::SubGraph(sub) => sub.bodies.iter().any(|b| computes_in(&b.graph, half)),
        Op::Result => false,
        Op::Other => {
            type_attribute(node).is_some_and(|(_, v)| ElementType::parse(v.trim()) == Some(half))
        }
    })
}

/// The op's output-type attribute and its value, if it has one.
fn type_attribute(node: &Node) -> Option<(&'static str, &str)> {
    let (_, key) = TYPE_ATTRIBUTES
        .iter()
        .find(|(op, _)| *op == node.op_type.name)?;
    Some((key, node.attributes.get(key)?))
}

/// The top-level Results whose input is of type `element_type`: inferred
/// where inference can, else as the Result's input port declares.
fn results_of(graph: &Graph, known: Known<'_>, element_type: ElementType) -> Vec<NodeId> {
    graph
        .results()
        .filter(|(id, node)| {
            let source = graph
                .input_sources(*id)
                .first()
                .and_then(|s| s.first().copied());
            let inferred =
                source.and_then(|s| known.tensor(s.node, s.output).map(|i| i.element_type));
            let declared = node.inputs.first().and_then(|p| p.element_type);
            inferred.or(declared) == Some(element_type)
        })
        .map(|(id, _)| id)
        .collect()
}

/// Gives each ScaledDotProductAttention of an f16 query without a scale
/// input the scale OpenVINO computes for it in f16
/// (`default_scale`), as an f32 Constant, when the query's last dim is
/// static: OpenVINO's decomposition folds the scale then, in f16, before
/// the plugin retypes the rest. An op without a mask gets a scalar 0 (which
/// adds nothing, and which `causal` ignores) to put the scale at its place.
/// When the dim is dynamic the plugin computes the decomposition's scale at
/// run time in f32 (measured), as the kernel does with the f32 query it is
/// then given: `1 / sqrt(E)` unrounded.
///
/// A bf16 query's scale, when it is known at compile time (the default
/// scale of a static E, rounded to bf16 as `default_scale` computes it, or
/// a constant scale input), is folded into the key as the plugin folds it
/// (measured): `K * scale` rounded to bf16 (a bf16 Multiply) feeds the
/// product, and the op's scale becomes 1. A scale known only at run time
/// scales the f32 product in the kernel, as the plugin's does.
///
/// Returns whether it rewrote any layer.
fn explicit_attention_scales(
    graph: &mut Graph,
    known: Known<'_>,
    taken: &mut HashSet<String>,
) -> bool {
    let mut rewrote = false;
    let attention: Vec<NodeId> = graph
        .nodes()
        .filter(|(_, n)| n.op_type.name == "ScaledDotProductAttention")
        .map(|(id, _)| id)
        .collect();
    for id in attention {
        let Some(query) = graph
            .input_sources(id)
            .first()
            .and_then(|s| s.first().copied())
        else {
            continue;
        };
        let Some(info) = known.tensor(query.node, query.output) else {
            continue;
        };
        let depth = info
            .shape
            .dims()
            .and_then(|d| d.last())
            .and_then(|d| d.as_constant())
            .and_then(|d| usize::try_from(d).ok());
        let has_scale = graph.node(id).inputs.len() >= 5;
        match (info.element_type, depth) {
            (ElementType::F16, Some(depth)) if !has_scale => {
                let scale = default_scale(depth, ElementType::F16);
                set_scale(graph, id, scale, ElementType::F32, taken);
                rewrote = true;
            }
            (ElementType::BF16, _) => {
                let scale = if has_scale {
                    constant_scale(graph, known, id)
                } else {
                    depth.map(|d| default_scale(d, ElementType::BF16))
                };
                if let Some(scale) = scale {
                    scale_input(graph, id, 1, scale, taken);
                    set_scale(graph, id, 1.0, ElementType::BF16, taken);
                    rewrote = true;
                }
            }
            _ => {}
        }
    }
    rewrote
}

/// The value of attention layer `id`'s scale input when it is known at
/// compile time (`scalar_value`).
fn constant_scale(graph: &Graph, known: Known<'_>, id: NodeId) -> Option<f32> {
    let source = *graph.input_sources(id).get(4)?.first()?;
    scalar_value(graph, known, source, 8)
}

/// The one value of `source` when it is known at compile time, as OpenVINO
/// folds it (each step rounded to its output's type): a value inference
/// knows, a one-element Constant, or a Convert, ConvertLike, Sqrt,
/// Multiply, Divide, Squeeze, Unsqueeze or Reshape of such values, at most
/// `depth` layers up.
fn scalar_value(graph: &Graph, known: Known<'_>, source: OutputRef, depth: usize) -> Option<f32> {
    let info = known.tensor(source.node, source.output)?;
    let one = info
        .shape
        .dims()
        .is_some_and(|d| d.iter().all(|x| x.as_constant() == Some(1)));
    if !one {
        return None;
    }
    // Integers pass as they are: the dims of static shapes.
    let round = |v: f32| match info.element_type {
        ElementType::BF16 => Some(bf16::from_f32(v).to_f32()),
        ElementType::F16 => Some(half::f16::from_f32(v).to_f32()),
        ElementType::Boolean => None,
        _ => Some(v),
    };
    if let Some(&[v]) = info.real_value() {
        return round(v as f32);
    }
    if let Some([d]) = info.value.as_deref() {
        return round(d.as_constant()? as f32);
    }
    let node = graph.node(source.node);
    if let Op::Constant {
        element_type, data, ..
    } = &node.op
    {
        let bytes = data.as_slice();
        return match element_type {
            ElementType::BF16 => Some(bf16::from_le_bytes(bytes.try_into().ok()?).to_f32()),
            ElementType::F16 => Some(half::f16::from_le_bytes(bytes.try_into().ok()?).to_f32()),
            ElementType::F32 => Some(f32::from_le_bytes(bytes.try_into().ok()?)),
            _ => None,
        };
    }
    let depth = depth.checked_sub(1)?;
    let input = |i: usize| {
        let s = *graph.input_sources(source.node).get(i)?.first()?;
        scalar_value(graph, known, s, depth)
    };
    let value = match node.op_type.name.as_str() {
        "Convert" | "ConvertLike" | "Squeeze" | "Unsqueeze" | "Reshape" => input(0)?,
        "Sqrt" => input(0)?.sqrt(),
        "Multiply" => input(0)? * input(1)?,
        "Divide" => input(0)? / input(1)?,
        _ => return None,
    };
    round(value)
}

/// Moves the scalar factor of each bf16 MatMul into its second operand, as
/// the CPU plugin does (measured): `MatMul(A, B)` whose only reader is a
/// Multiply by, or a Divide by, a one-element value known at compile time
/// `c` computes `MatMul(A, B * c')`, with `c'` = `c` (or `1 / c`) rounded to
/// bf16 and `B * c'` rounded to bf16 as a bf16 Multiply rounds, instead of
/// rounding the product and then scaling it. A product with another reader,
/// or with an identical MatMul of the same operands (OpenVINO merges the
/// two, so it has two readers), keeps its scale; so does a product by
/// constant weights, which the plugin runs as a FullyConnected.
fn fold_product_scales(graph: &mut Graph, known: Known<'_>, taken: &mut HashSet<String>) -> bool {
    let constant = compile_time_constants(graph, Some(known));
    let products: Vec<NodeId> = graph
        .nodes()
        .filter(|(id, n)| {
            n.op_type.name == "MatMul"
                && known.tensor(*id, 0).map(|i| i.element_type) == Some(ElementType::BF16)
        })
        .map(|(id, _)| id)
        .collect();
    let mut rewrote = false;
    for id in products {
        let Some(weights) = graph
            .input_sources(id)
            .get(1)
            .and_then(|s| s.first().copied())
        else {
            continue;
        };
        if constant.get(weights.node.index()).copied().unwrap_or(true) {
            continue;
        }
        let readers: Vec<_> = graph
            .graph
            .edges_directed(id, Direction::Outgoing)
            .map(|e| (e.target(), e.weight().to_input))
            .collect();
        let [(scaling, product_input)] = readers.as_slice() else {
            continue;
        };
        if has_twin(graph, id) {
            continue;
        }
        let (scaling, product_input) = (*scaling, *product_input);
        let divide = match graph.node(scaling).op_type.name.as_str() {
            "Multiply" => false,
            "Divide" if product_input == 0 => true,
            _ => continue,
        };
        let Some(factor) = graph
            .input_sources(scaling)
            .get(1 - product_input)
            .and_then(|s| s.first().copied())
            .and_then(|s| scalar_value(graph, known, s, 8))
        else {
            continue;
        };
        // Only a factor that does not broadcast the product to a higher
        // rank: the scaled product then has the product's shape.
        let ranks = (
            known.tensor(id, 0).and_then(|i| i.shape.rank()),
            known.tensor(scaling, 0).and_then(|i| i.shape.rank()),
        );
        if !matches!(ranks, (Some(a), Some(b)) if a == b) {
            continue;
        }
        let factor = if divide { 1.0 / factor } else { factor };
        scale_input(graph, id, 1, factor, taken);
        move_readers(graph, scaling, id);
        rewrote = true;
    }
    rewrote
}

/// Whether another layer of `graph` is layer `id` again: the same op and
/// attributes on the same inputs (which OpenVINO merges into one).
fn has_twin(graph: &Graph, id: NodeId) -> bool {
    let node = graph.node(id);
    let sources = graph.input_sources(id);
    graph.nodes().any(|(other, n)| {
        other != id
            && n.op_type == node.op_type
            && n.attributes == node.attributes
            && graph.input_sources(other) == sources
    })
}

/// Gives attention layer `id` the scale `value` as a scalar Constant of
/// type `element_type`: a new last input, after a zero mask (which adds
/// nothing, and which `causal` ignores) when it has none, or in place of
/// its scale input.
fn set_scale(
    graph: &mut Graph,
    id: NodeId,
    value: f32,
    element_type: ElementType,
    taken: &mut HashSet<String>,
) {
    let scale = add_scalar(graph, id, value, element_type, "scale", taken);
    if graph.node(id).inputs.len() >= 5 {
        let old: Vec<_> = graph
            .graph
            .edges_directed(id, Direction::Incoming)
            .filter(|e| e.weight().to_input == 4)
            .map(|e| e.id())
            .collect();
        for e in old {
            graph.graph.remove_edge(e);
        }
        connect(graph, scale, 0, id, 4);
        return;
    }
    if graph.node(id).inputs.len() == 3 {
        let zero = add_scalar(graph, id, 0.0, element_type, "mask_zero", taken);
        attach(graph, zero, id, element_type);
    }
    attach(graph, scale, id, element_type);
}

/// Feeds layer `id` its input `input` times `scale` (a bf16 Multiply by a
/// bf16 Constant, rounded to bf16 as a bf16 layer rounds).
fn scale_input(
    graph: &mut Graph,
    id: NodeId,
    input: usize,
    scale: f32,
    taken: &mut HashSet<String>,
) {
    let Some((edge, key)) = graph
        .graph
        .edges_directed(id, Direction::Incoming)
        .find(|e| e.weight().to_input == input)
        .map(|e| {
            (
                e.id(),
                OutputRef {
                    node: e.source(),
                    output: e.weight().from_output,
                },
            )
        })
    else {
        return;
    };
    let factor = add_scalar(graph, id, scale, ElementType::BF16, "input_scale", taken);
    let dims = graph
        .node(id)
        .inputs
        .get(input)
        .map(|p| p.dims.clone())
        .unwrap_or_default();
    let multiply = add_binary(
        graph,
        id,
        "Multiply",
        ElementType::BF16,
        Operands::TensorScalar(dims),
        "scaled_input",
        taken,
    );
    graph.graph.remove_edge(edge);
    connect(graph, key.node, key.output, multiply, 0);
    connect(graph, factor, 0, multiply, 1);
    connect(graph, multiply, 0, id, input);
}

/// The operands of a layer `add_binary` makes: the first is a tensor of
/// these dims (as is the output), the second a scalar or a tensor of them.
enum Operands {
    TensorScalar(Vec<ir::DeclaredDim>),
    Tensors(Vec<ir::DeclaredDim>),
}

/// The declared dims of layer `id`'s output 0 (none when it declares none).
fn output_dims(graph: &Graph, id: NodeId) -> Vec<ir::DeclaredDim> {
    graph
        .node(id)
        .outputs
        .first()
        .map(|p| p.dims.clone())
        .unwrap_or_default()
}

/// A new unconnected elementwise layer `op` (opset1) of `operands`, of
/// type `element_type`, named after layer `near` and `suffix`
/// (`new_name`).
fn add_binary(
    graph: &mut Graph,
    near: NodeId,
    op: &str,
    element_type: ElementType,
    operands: Operands,
    suffix: &str,
    taken: &mut HashSet<String>,
) -> NodeId {
    let (dims, second) = match operands {
        Operands::TensorScalar(dims) => (dims, Vec::new()),
        Operands::Tensors(dims) => (dims.clone(), dims),
    };
    let near = graph.node(near);
    let port = |port_id: u32, element_type: Option<ElementType>, dims: Vec<_>| PortDecl {
        id: port_id,
        element_type,
        dims,
        location: near.location,
        ..PortDecl::default()
    };
    let (layer_id, name) = new_name(near, suffix, taken);
    let node = Node {
        id: layer_id,
        name,
        op_type: OpType {
            name: op.to_owned(),
            version: "opset1".to_owned(),
        },
        op: Op::Other,
        attributes: ir::Attributes::new(),
        layer_attributes: ir::Attributes::new(),
        inputs: vec![port(0, None, dims.clone()), port(1, None, second)],
        outputs: vec![port(2, Some(element_type), dims)],
        rt_info: None,
        location: near.location,
    };
    graph.add_node(node)
}

/// Makes every reader of `from`'s output 0 read `to`'s output 0 instead.
fn move_readers(graph: &mut Graph, from: NodeId, to: NodeId) {
    let moved: Vec<_> = graph
        .graph
        .edges_directed(from, Direction::Outgoing)
        .map(|e| (e.id(), e.target(), e.weight().to_input))
        .collect();
    // Removing an edge moves the last one into its index: highest first.
    let mut edges: Vec<_> = moved.iter().map(|m| m.0).collect();
    edges.sort_by_key(|e| std::cmp::Reverse(e.index()));
    for e in edges {
        graph.graph.remove_edge(e);
    }
    for (_, target, input) in moved {
        connect(graph, to, 0, target, input);
    }
}

/// Feeds `from`'s output (of type `element_type`) into a new last input of
/// `node`.
fn attach(graph: &mut Graph, from: NodeId, node: NodeId, element_type: ElementType) {
    let input = graph.node(node).inputs.len();
    let port_id = graph
        .node(node)
        .inputs
        .iter()
        .chain(&graph.node(node).outputs)
        .map(|p| p.id + 1)
        .max()
        .unwrap_or(0);
    let location = graph.node(node).location;
    graph.node_mut(node).inputs.push(PortDecl {
        id: port_id,
        element_type: Some(element_type),
        location,
        ..PortDecl::default()
    });
    connect(graph, from, 0, node, input);
}

/// A new scalar Constant `value` of type `element_type` (f32 or bf16),
/// named after layer `next_to` and `suffix`.
fn add_scalar(
    graph: &mut Graph,
    next_to: NodeId,
    value: f32,
    element_type: ElementType,
    suffix: &str,
    taken: &mut HashSet<String>,
) -> NodeId {
    let near = graph.node(next_to);
    let (id, name) = new_name(near, suffix, taken);
    let bytes = match element_type {
        ElementType::BF16 => bf16::from_f32(value).to_le_bytes().to_vec(),
        _ => value.to_le_bytes().to_vec(),
    };
    let mut attributes = ir::Attributes::new();
    attributes.set("element_type", element_type.name());
    attributes.set("shape", "");
    let node = Node {
        id,
        name,
        op_type: OpType {
            name: "Const".to_owned(),
            version: "opset1".to_owned(),
        },
        op: Op::Constant {
            element_type,
            shape: Vec::new(),
            data: ir::TensorBytes::from_vec(bytes),
        },
        attributes,
        layer_attributes: ir::Attributes::new(),
        inputs: Vec::new(),
        outputs: vec![PortDecl {
            element_type: Some(element_type),
            location: near.location,
            ..PortDecl::default()
        }],
        rt_info: None,
        location: near.location,
    };
    graph.add_node(node)
}

/// Retypes `graph`'s values of type `retyped` (f16 or f64) to f32, but for
/// the values known when the model is compiled (`compile_time_constants`),
/// which OpenVINO folds in their own type before it retypes the rest: they
/// keep their layers and are converted where a layer that is not constant
/// reads them (f16 widened exactly; f64 saturated at f32's finite range,
/// as the plugin converts f64 constants: `1e300 * 0` is 0, not NaN). At
/// the top level such Parameters keep their type and feed their consumers
/// through a Convert (an f64 input saturates there: the plugin's IsInf of
/// an infinite f64 input is false); in a body they become f32 (the layer
/// feeds them f32). In a body inference did not reach (`known` is `None`)
/// only Constants count as constant.
fn widen(
    graph: &mut Graph,
    known: Option<Known<'_>>,
    taken: &mut HashSet<String>,
    retyped: ElementType,
) {
    let top = known.is_some_and(|k| k.top);
    let constant = compile_time_constants(graph, known);
    let ids: Vec<NodeId> = graph.nodes().map(|(id, _)| id).collect();
    for id in ids {
        if constant[id.index()] {
            let halves: Vec<usize> = match (&graph.node(id).op, known) {
                (Op::Constant { element_type, .. }, _) => (*element_type == retyped)
                    .then_some(0)
                    .into_iter()
                    .collect(),
                (_, Some(known)) => (0..graph.node(id).outputs.len())
                    .filter(|&k| known.tensor(id, k).map(|i| i.element_type) == Some(retyped))
                    .collect(),
                (_, None) => Vec::new(),
            };
            for output in halves {
                widen_after(graph, id, output, &constant, taken, retyped);
            }
            continue;
        }
        let node = graph.node_mut(id);
        match &mut node.op {
            Op::Parameter { element_type, .. } if *element_type == retyped => {
                if top {
                    widen_after(graph, id, 0, &constant, taken, retyped);
                } else {
                    *element_type = ElementType::F32;
                    retype_outputs(node, retyped);
                }
            }
            Op::SubGraph(sub) => {
                for (index, body) in sub.bodies.iter_mut().enumerate() {
                    // A body's layer ids are its own.
                    let mut body_taken = layer_ids(&body.graph);
                    let inner = known.and_then(|k| k.body(id, index));
                    widen(&mut body.graph, inner, &mut body_taken, retyped);
                }
                retype_outputs(node, retyped);
            }
            // A body's Results pass f32 on (to a back edge, a slice or the
            // layer's output): their declared input is f32 too.
            Op::Result if !top => {
                for port in &mut node.inputs {
                    if port.element_type == Some(retyped) {
                        port.element_type = Some(ElementType::F32);
                    }
                }
            }
            Op::Parameter { .. } | Op::Result | Op::Constant { .. } => {}
            Op::Other => {
                if let Some((key, value)) = type_attribute(node) {
                    if ElementType::parse(value.trim()) == Some(retyped) {
                        node.attributes.set(key, ElementType::F32.name());
                    }
                }
                retype_outputs(node, retyped);
            }
        }
    }
}

/// Per node (by index), whether its outputs are known when the model is
/// compiled: Constants, ShapeOf of a static shape, the layers fed by them
/// alone and, at the top level, those whose every output value inference
/// knows (not Parameters, variables, random ops or bodies; in a body a
/// Parameter's value inference knows comes from outside it, which OpenVINO
/// does not fold into the body). A Convert of an integer or low-precision
/// Constant is not: OpenVINO keeps decompression (that Convert, its
/// Subtract and Multiply) out of constant folding and computes it in f32.
/// Without `known` only Constants count.
fn compile_time_constants(graph: &Graph, known: Option<Known<'_>>) -> Vec<bool> {
    let mut constant = vec![false; graph.node_count()];
    for (id, node) in graph.nodes() {
        constant[id.index()] = matches!(node.op, Op::Constant { .. });
    }
    let (Some(known), Ok(order)) = (known, graph.topological_order()) else {
        return constant;
    };
    for id in order {
        let node = graph.node(id);
        let sources: Vec<OutputRef> = graph.input_sources(id).into_iter().flatten().collect();
        constant[id.index()] = match (&node.op, node.op_type.name.as_str()) {
            (Op::Constant { .. }, _) => true,
            (Op::Other, "ShapeOf") => sources.first().is_some_and(|s| {
                known
                    .tensor(s.node, s.output)
                    .and_then(|i| i.shape.dims())
                    .is_some_and(|d| d.iter().all(|x| x.as_constant().is_some()))
            }),
            (Op::Other, "ReadValue" | "RandomUniform" | "Multinomial") => false,
            (Op::Other, "Convert") => sources.first().is_some_and(|s| {
                let decompression = matches!(
                    &graph.node(s.node).op,
                    Op::Constant { element_type, .. } if !matches!(
                        element_type,
                        ElementType::F16 | ElementType::BF16 | ElementType::F32 | ElementType::F64
                    )
                );
                constant[s.node.index()] && !decompression
            }),
            (Op::Other, _) => {
                (!sources.is_empty() && sources.iter().all(|s| constant[s.node.index()]))
                    || (known.top && values_known(known, id, node.outputs.len()))
            }
            _ => false,
        };
    }
    constant
}

/// Whether inference knows every element of every output of `id` (a
/// Gather of the static dims of a ShapeOf whose other dims are dynamic:
/// OpenVINO folds it).
fn values_known(known: Known<'_>, id: NodeId, outputs: usize) -> bool {
    outputs > 0
        && (0..outputs).all(|k| {
            known.tensor(id, k).is_some_and(|i| {
                i.real_value().is_some()
                    || i.value
                        .as_ref()
                        .is_some_and(|v| v.iter().all(|d| d.as_constant().is_some()))
            })
        })
}

/// Declares the `retyped` outputs of a layer that now computes f32 as f32.
fn retype_outputs(node: &mut Node, retyped: ElementType) {
    for port in &mut node.outputs {
        if port.element_type == Some(retyped) {
            port.element_type = Some(ElementType::F32);
        }
    }
}

/// Feeds the consumers of `id`'s output `output` (of type `retyped`)
/// through a new Convert to f32, but for the constant layers (which
/// compute in that type too) and, for f16, Converts (which read f16 as
/// exactly as f32, and by which the executor's folding of compressed
/// weights recognises them; an f64 value reaches even a Convert through
/// f32, as the plugin's does).
fn widen_after(
    graph: &mut Graph,
    id: NodeId,
    output: usize,
    constant: &[bool],
    taken: &mut HashSet<String>,
    retyped: ElementType,
) {
    let moved: Vec<_> = graph
        .graph
        .edges_directed(id, Direction::Outgoing)
        .filter(|e| e.weight().from_output == output)
        .filter(|e| {
            let target = graph.node(e.target());
            // An f64 Parameter read by a Result reaches it untouched, as the
            // plugin passes it (`narrow_before` leaves it too).
            let passes = retyped == ElementType::F64
                && matches!(target.op, Op::Result)
                && matches!(graph.node(id).op, Op::Parameter { .. });
            !constant.get(e.target().index()).copied().unwrap_or(false)
                && (retyped != ElementType::F16 || target.op_type.name != "Convert")
                && !passes
        })
        .map(|e| (e.id(), e.target(), *e.weight()))
        .collect();
    if moved.is_empty() {
        return;
    }
    let convert = add_convert(graph, id, ElementType::F32, "to_f32", taken);
    connect(graph, id, output, convert, 0);
    // Removing an edge moves the last one into its index: highest first.
    let mut edges: Vec<_> = moved.iter().map(|m| m.0).collect();
    edges.sort_by_key(|e| std::cmp::Reverse(e.index()));
    for e in edges {
        graph.graph.remove_edge(e);
    }
    for (_, target, weight) in moved {
        connect(graph, convert, 0, target, weight.to_input);
    }
}

/// Brings the (f32) input of Result `result` back to its type `to` through
/// a new Convert: an f16 Result is rounded to nearest even; an f64 one is
/// first clamped to f32's finite range, NaN kept, as the plugin converts
/// its f32 values to an f64 output (`std::min`/`std::max` with f32's
/// limits before the cast: ±inf become ±3.4028235e38, measured on ONNX's
/// Cast and CastLike to DOUBLE; a Convert to f64 inside the graph, retyped
/// to f32, clamps nothing: IsInf after it is still true). An f64 Result
/// read straight from a Parameter is left alone: the plugin passes the
/// input through (`1e300` stays `1e300`).
fn narrow_before(graph: &mut Graph, result: NodeId, to: ElementType, taken: &mut HashSet<String>) {
    let incoming: Vec<_> = graph
        .graph
        .edges_directed(result, Direction::Incoming)
        .map(|e| (e.id(), e.source(), *e.weight()))
        .collect();
    let [(edge, source, weight)] = incoming.as_slice() else {
        return;
    };
    let (edge, source, weight) = (*edge, *source, *weight);
    if to == ElementType::F64 && matches!(graph.node(source).op, Op::Parameter { .. }) {
        return;
    }
    let convert = add_convert(graph, result, to, &format!("to_{}", to.name()), taken);
    graph.graph.remove_edge(edge);
    let (from, output) = if to == ElementType::F64 {
        let clamp = add_finite_f32_clamp(graph, result, taken);
        connect(graph, source, weight.from_output, clamp, 0);
        (clamp, 0)
    } else {
        (source, weight.from_output)
    };
    connect(graph, from, output, convert, 0);
    connect(graph, convert, 0, result, weight.to_input);
}

/// A new unconnected f32 Clamp to f32's finite range (NaN passes), named
/// after layer `next_to` (`new_name`), with ports declared like its first.
fn add_finite_f32_clamp(graph: &mut Graph, next_to: NodeId, taken: &mut HashSet<String>) -> NodeId {
    let mut attributes = ir::Attributes::new();
    // f64 text that parses back to f32's limits exactly.
    attributes.set("min", f64::from(f32::MIN).to_string());
    attributes.set("max", f64::from(f32::MAX).to_string());
    let unary = Unary {
        op: "Clamp",
        version: "opset1",
        attributes,
        output_type: ElementType::F32,
    };
    add_unary(graph, next_to, unary, "finite_f32", taken)
}

fn connect(graph: &mut Graph, from: NodeId, output: usize, to: NodeId, input: usize) {
    graph.connect(
        OutputRef { node: from, output },
        ir::InputRef { node: to, input },
    );
}

/// The id (one no layer in `taken` has) and name of a new layer next to
/// `near`: theirs with `/suffix`.
fn new_name(near: &Node, suffix: &str, taken: &mut HashSet<String>) -> (String, String) {
    let base = format!("{}/{suffix}", near.id);
    let mut id = base.clone();
    let mut n = 1;
    while taken.contains(&id) {
        n += 1;
        id = format!("{base}.{n}");
    }
    taken.insert(id.clone());
    (id, format!("{}/{suffix}", near.name))
}

/// The layer ids of `graph` (without its bodies').
fn layer_ids(graph: &Graph) -> HashSet<String> {
    graph.nodes().map(|(_, n)| n.id.clone()).collect()
}

/// A new Convert to `to`, named after layer `next_to` and `suffix`
/// (`new_name`), with ports declared like `next_to`'s first.
fn add_convert(
    graph: &mut Graph,
    next_to: NodeId,
    to: ElementType,
    suffix: &str,
    taken: &mut HashSet<String>,
) -> NodeId {
    let mut attributes = ir::Attributes::new();
    attributes.set("destination_type", to.name());
    let unary = Unary {
        op: "Convert",
        version: "opset1",
        attributes,
        output_type: to,
    };
    add_unary(graph, next_to, unary, suffix, taken)
}

/// An elementwise layer of one input that `add_unary` makes.
struct Unary {
    op: &'static str,
    version: &'static str,
    attributes: ir::Attributes,
    output_type: ElementType,
}

/// A new unconnected layer `unary`, named after layer `next_to` and
/// `suffix` (`new_name`), with ports declared like `next_to`'s first.
fn add_unary(
    graph: &mut Graph,
    next_to: NodeId,
    unary: Unary,
    suffix: &str,
    taken: &mut HashSet<String>,
) -> NodeId {
    let near = graph.node(next_to);
    let template = near.outputs.first().or(near.inputs.first());
    let port = |id: u32, element_type: Option<ElementType>| PortDecl {
        id,
        element_type,
        dims: template.map(|p| p.dims.clone()).unwrap_or_default(),
        location: near.location,
        ..PortDecl::default()
    };
    let (id, name) = new_name(near, suffix, taken);
    let node = Node {
        id,
        name,
        op_type: OpType {
            name: unary.op.to_owned(),
            version: unary.version.to_owned(),
        },
        op: Op::Other,
        attributes: unary.attributes,
        layer_attributes: ir::Attributes::new(),
        inputs: vec![port(0, None)],
        outputs: vec![port(1, Some(unary.output_type))],
        rt_info: None,
        location: near.location,
    };
    graph.add_node(node)
}

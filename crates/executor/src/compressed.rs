//! Weight-compressed matrix products, run on the compressed weights.
//!
//! Large models ship their weights as u4, i4, nf4 (any type
//! `crate::packed` decodes), u8 or i8 groups with a zero
//! point and a scale per group (NNCF's `compress_weights`): a MatMul whose
//! right operand is
//!
//! ```text
//! Const W [N, G, g] or [N, K] ─ Convert ─ (Subtract zero point) ─ Multiply scale
//!                               ─ (Reshape to [N, K]) ─ (Convert to f32) ─ MatMul (transpose_b)
//! ```
//!
//! Folding that subgraph would hold the whole weight in f32, eight times its
//! u4 size. Instead the MatMul decodes a block of `W`'s rows at a time into a
//! buffer of about a megabyte and multiplies by it, as OpenVINO's CPU plugin
//! fuses the decompression into its fully connected layers. The arithmetic
//! is the folded subgraph's, in f32: `(w - zero_point) * scale`.
//!
//! A Gather along axis 0 of such a subgraph (a compressed embedding table,
//! `[vocabulary, hidden]`) decodes the rows it picks and no other: folding
//! it would hold the table in f32 (a 32000 × 2048 table: 250 MiB, against
//! 31 MiB in u4).

use std::collections::HashMap;
use std::sync::Arc;

use ir::{ElementType, Graph, NodeId, Op, OutputRef};
use shape_infer::{Inference, NodeOutcome};

use crate::executor::eval_shape;
use crate::gemm::{self, Mat};
use crate::kernels::convolution::{elements, widen};
use crate::kernels::{Call, KResult};
use crate::packed;
use crate::tensor::{element_count, Tensor};

/// The decoding buffer's size, in f32 elements (1 MiB).
const BLOCK_ELEMENTS: usize = 1 << 18;

/// A MatMul's compressed right operand, or a Gather's compressed data (an
/// embedding table), as the plan found it.
pub(crate) struct Plan {
    /// The MatMul or Gather.
    pub consumer: NodeId,
    /// The nodes between the weights and the consumer, which are not run.
    pub chain: Vec<NodeId>,
    weights: NodeId,
    zero_point: Option<OutputRef>,
    scale: OutputRef,
    rows: usize,
    cols: usize,
    groups: usize,
}

/// Weights `[N, K]` held compressed, with a zero point and a scale per row
/// and group of `K / groups` columns.
pub(crate) struct CompressedWeights {
    data: Tensor,
    rows: usize,
    cols: usize,
    groups: usize,
    /// One per (row, group), or one for all.
    zero_point: Option<Vec<f32>>,
    /// One per (row, group), or one for all.
    scale: Vec<f32>,
}

fn op_name(graph: &Graph, id: NodeId) -> &str {
    graph.node(id).op_type.name.as_str()
}

/// The static shape of an output.
fn static_shape(inference: &Inference, out: OutputRef) -> Option<Vec<usize>> {
    let NodeOutcome::Inferred(infos) = inference.outcome(out.node) else {
        return None;
    };
    eval_shape(&infos.get(out.output)?.shape, &HashMap::new())
}

/// Every MatMul of `graph` whose right operand, and every Gather whose data,
/// is a decompression subgraph this module can run compressed. `sources`
/// and `consumers` are the executor's (per node, each input's producer;
/// each output's consumer count); `inference` gives the static shapes of
/// the weights' side.
pub(crate) fn find(
    graph: &Graph,
    sources: &[Vec<OutputRef>],
    consumers: &[Vec<usize>],
    inference: &Inference,
) -> Vec<Plan> {
    graph
        .nodes()
        .filter_map(|(id, node)| {
            let start = match node.op_type.name.as_str() {
                "MatMul" => matmul_operand(sources, inference, graph, id)?,
                "Gather" => gather_data(sources, inference, graph, id)?,
                _ => return None,
            };
            plan(graph, sources, consumers, inference, id, start)
        })
        .collect()
}

/// A MatMul's right operand, when the product can run on compressed
/// weights: `transpose_b` (the weights `[N, K]`), not `transpose_a`, and f32
/// activations (which may be dynamic).
fn matmul_operand(
    sources: &[Vec<OutputRef>],
    inference: &Inference,
    graph: &Graph,
    matmul: NodeId,
) -> Option<OutputRef> {
    let node = graph.node(matmul);
    let flag = |name: &str| node.attributes.bool(name).ok().flatten().unwrap_or(false);
    if !flag("transpose_b") || flag("transpose_a") {
        return None;
    }
    let activations = *sources[matmul.index()].first()?;
    let NodeOutcome::Inferred(infos) = inference.outcome(activations.node) else {
        return None;
    };
    if infos.get(activations.output)?.element_type != ElementType::F32 {
        return None;
    }
    sources[matmul.index()].get(1).copied()
}

/// A Gather's data, when its rows can be decoded alone: axis 0 (a known
/// constant), no batch dims, and an f32 output.
fn gather_data(
    sources: &[Vec<OutputRef>],
    inference: &Inference,
    graph: &Graph,
    gather: NodeId,
) -> Option<OutputRef> {
    let node = graph.node(gather);
    if node
        .attributes
        .i64("batch_dims")
        .ok()
        .flatten()
        .unwrap_or(0)
        != 0
    {
        return None;
    }
    let NodeOutcome::Inferred(outs) = inference.outcome(gather) else {
        return None;
    };
    if outs.first()?.element_type != ElementType::F32 {
        return None;
    }
    let axis = *sources[gather.index()].get(2)?;
    let NodeOutcome::Inferred(infos) = inference.outcome(axis.node) else {
        return None;
    };
    // The data is `[N, K]` (checked by `plan`): axis 0 or -2.
    match infos.get(axis.output)?.value.as_deref()? {
        [a] if matches!(a.as_constant(), Some(0 | -2)) => {}
        _ => return None,
    }
    sources[gather.index()].first().copied()
}

/// The decompression chain from `start` (the consumer's operand) up to the
/// compressed weights, each node of it feeding the next one only.
fn plan(
    graph: &Graph,
    sources: &[Vec<OutputRef>],
    consumers: &[Vec<usize>],
    inference: &Inference,
    consumer: NodeId,
    start: OutputRef,
) -> Option<Plan> {
    let input = |id: NodeId, i: usize| sources[id.index()].get(i).copied();
    // Each node of the chain feeds the next one only.
    let single = |id: NodeId| consumers[id.index()] == [1];
    let mut chain = Vec::new();
    let mut cur = start;
    if op_name(graph, cur.node) == "Convert" {
        if !single(cur.node) {
            return None;
        }
        chain.push(cur.node);
        cur = input(cur.node, 0)?;
    }
    let final_shape = if op_name(graph, cur.node) == "Reshape" {
        if !single(cur.node) {
            return None;
        }
        let shape = static_shape(inference, cur)?;
        chain.push(cur.node);
        cur = input(cur.node, 0)?;
        Some(shape)
    } else {
        None
    };
    if op_name(graph, cur.node) != "Multiply" || !single(cur.node) {
        return None;
    }
    chain.push(cur.node);
    let multiply = cur.node;
    let (x, scale) = {
        let (p, q) = (input(multiply, 0)?, input(multiply, 1)?);
        if matches!(op_name(graph, p.node), "Subtract" | "Convert") {
            (p, q)
        } else {
            (q, p)
        }
    };
    cur = x;
    let mut zero_point = None;
    if op_name(graph, cur.node) == "Subtract" {
        if !single(cur.node) {
            return None;
        }
        chain.push(cur.node);
        zero_point = Some(input(cur.node, 1)?);
        cur = input(cur.node, 0)?;
    }
    if op_name(graph, cur.node) != "Convert" || !single(cur.node) {
        return None;
    }
    chain.push(cur.node);
    let weights = input(cur.node, 0)?;
    let Op::Constant {
        element_type,
        shape,
        ..
    } = &graph.node(weights.node).op
    else {
        return None;
    };
    if !(packed::is_decodable(*element_type)
        || matches!(element_type, ElementType::U8 | ElementType::I8))
    {
        return None;
    }
    let shape: Vec<usize> = shape
        .iter()
        .map(|&d| usize::try_from(d).ok())
        .collect::<Option<_>>()?;
    let (rows, groups, group) = match shape[..] {
        [n, k] => (n, 1, k),
        [n, g, s] => (n, g, s),
        _ => return None,
    };
    let cols = groups.checked_mul(group)?;
    if final_shape.as_ref().is_some_and(|s| s[..] != [rows, cols])
        || (shape.len() == 3 && final_shape.is_none())
    {
        return None;
    }
    // The scale and zero point: one per (row, group), or one for all.
    let per_group = |out: OutputRef| {
        let s = static_shape(inference, out)?;
        let count = element_count(&s).ok()?;
        let fits = count == 1
            || (shape.len() == 3 && s == [rows, groups, 1])
            || (shape.len() == 2 && s == [rows, 1]);
        fits.then_some(())
    };
    per_group(scale)?;
    if let Some(z) = zero_point {
        per_group(z)?;
    }
    Some(Plan {
        consumer,
        chain,
        weights: weights.node,
        zero_point,
        scale,
        rows,
        cols,
        groups,
    })
}

impl Plan {
    /// The weights, with the zero point and scale read from `constant`
    /// (each node's outputs where they follow from constants). `None` when
    /// one of them is not a constant after all.
    pub(crate) fn weights(
        &self,
        constant: &[Option<Vec<Tensor>>],
    ) -> Option<Arc<CompressedWeights>> {
        let value = |out: OutputRef| constant[out.node.index()].as_ref()?.get(out.output);
        let data = constant[self.weights.index()].as_ref()?.first()?.clone();
        let groups = self.rows * self.groups;
        let per_group = |v: Vec<f32>| (v.len() == 1 || v.len() == groups).then_some(v);
        let scale = per_group(widen(value(self.scale)?).ok()?)?;
        let zero_point = match self.zero_point {
            Some(z) => Some(per_group(widen(value(z)?).ok()?)?),
            None => None,
        };
        Some(Arc::new(CompressedWeights {
            data,
            rows: self.rows,
            cols: self.cols,
            groups: self.groups,
            zero_point,
            scale,
        }))
    }
}

impl CompressedWeights {
    /// Rows `first..first + out.len() / cols` of the weights, in f32:
    /// `(w - zero_point) * scale`.
    fn decode_rows(&self, first: usize, out: &mut [f32]) -> KResult<()> {
        let start = first * self.cols;
        let bytes = self.data.bytes();
        match self.data.element_type {
            t @ (ElementType::U8 | ElementType::I8) => {
                let raw = bytes
                    .get(start..start + out.len())
                    .ok_or("internal: the compressed weights do not cover their shape")?;
                for (v, &b) in out.iter_mut().zip(raw) {
                    *v = if t == ElementType::I8 {
                        f32::from(b as i8)
                    } else {
                        f32::from(b)
                    };
                }
            }
            t => packed::decode_f32(t, bytes, start, out)?,
        }
        let group = self.cols / self.groups;
        let pick = |v: &[f32], i: usize| if v.len() == 1 { v[0] } else { v[i] };
        for (j, values) in out.chunks_exact_mut(group).enumerate() {
            // Group `j` of the block is group `i` of the weights.
            let i = first * self.groups + j;
            let zero = self.zero_point.as_deref().map_or(0.0, |z| pick(z, i));
            let scale = pick(&self.scale, i);
            values.iter_mut().for_each(|v| *v = (*v - zero) * scale);
        }
        Ok(())
    }
}

/// The consumer's outputs from its run-time inputs (those the chain does not
/// hold): a MatMul's activations, or a Gather's indices and axis.
pub(crate) fn run(call: &Call<'_>, w: &CompressedWeights) -> KResult<Vec<Tensor>> {
    match call.node.op_type.name.as_str() {
        "Gather" => gather(call, w),
        _ => matmul(call, w),
    }
}

/// Gather-1/7/8 along axis 0 of compressed weights `[N, K]` (an embedding
/// table): the output `[...indices, K]`, only the rows picked decoded, as
/// OpenVINO's CPU plugin gathers from compressed embeddings. Negative
/// indices count from the end, as in the Gather kernel; one out of range is
/// an error.
fn gather(call: &Call<'_>, w: &CompressedWeights) -> KResult<Vec<Tensor>> {
    // The data input is the chain's: the indices come first.
    let indices = call.input(0)?;
    let out = call.out_shape(0)?;
    let (n, k) = (w.rows, w.cols);
    let mut expected = indices.shape.clone();
    expected.push(k);
    if out != expected {
        return Err(format!("internal: output {out:?}, expected {expected:?}").into());
    }
    let rows = indices
        .to_i64s()?
        .into_iter()
        .map(|i| {
            let p = if i < 0 { i + n as i64 } else { i };
            usize::try_from(p)
                .ok()
                .filter(|&p| p < n)
                .ok_or_else(|| format!("index {i} is out of range for a dim of {n}"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let t = Tensor::computed(out, |dst: &mut [f32]| -> KResult<()> {
        if k > 0 {
            for (values, &row) in dst.chunks_exact_mut(k).zip(&rows) {
                w.decode_rows(row, values)?;
            }
        }
        Ok(())
    })?;
    Ok(vec![t])
}

/// MatMul-1 of an f32 input `[..., M, K]` by compressed weights `[N, K]`
/// (`transpose_b`): the output `[..., M, N]`, one block of the weights'
/// rows decoded at a time.
fn matmul(call: &Call<'_>, w: &CompressedWeights) -> KResult<Vec<Tensor>> {
    let a = call.input(0)?;
    let out = call.out_shape(0)?;
    let (k, n) = (w.cols, w.rows);
    if a.element_type != ElementType::F32 || a.shape.last() != Some(&k) || a.shape.len() < 2 {
        return Err(format!(
            "a compressed-weight product needs an f32 input [..., M, {k}], not {} {:?}",
            a.element_type, a.shape
        )
        .into());
    }
    let rows = element_count(&a.shape[..a.shape.len() - 1])?;
    let mut expected = a.shape[..a.shape.len() - 1].to_vec();
    expected.push(n);
    if out != expected {
        return Err(format!("internal: output {out:?}, expected {expected:?}").into());
    }
    let lhs = elements::<f32>(a)?;
    // Blocks of the weights' rows of about a megabyte each, decoded and
    // multiplied in parallel (at least 16 rows, for the GEMM's panels).
    let block = (BLOCK_ELEMENTS / k.max(1)).max(16);
    let t = Tensor::computed(out, |dst: &mut [f32]| {
        gemm::matmul_by_blocks(
            dst,
            (rows, k, n),
            Mat::rows(&lhs, k),
            block,
            |first, buf| w.decode_rows(first, buf),
        )
    })?;
    Ok(vec![t])
}

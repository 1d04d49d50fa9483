//! RNNCell-1, GRUCell-3, LSTMCell-1/-4, RNNSequence-5, GRUSequence-5 and
//! LSTMSequence-5 on one core: a cell is a sequence of length 1.
//!
//! Per direction, `X·Wᵀ + B` for every time step is one GEMM (`crate::gemm`);
//! each step then adds `H·Rᵀ` (a GEMM over the batch) and applies the gates
//! in OpenVINO's order: LSTM `f, i, c, o`, GRU `z, r, h`. `clip` bounds each
//! gate's pre-activation. A batch element runs over its own length: steps
//! past it leave zeros in Y and its last states are the ones of its last step
//! (zeros for length 0), as OpenVINO's CPU plugin; in reverse it reads its
//! first `length` steps backwards. Computed in f32 (f16 and bf16 widened, as
//! the CPU plugin does).
//!
//! LSTMCell-1 applies its peepholes P (order f, i, o: `f` and `i` see the
//! previous cell state, `o` the new one) and `input_forget` (`i = 1 - f`) as
//! OpenVINO's reference implementation; its CPU plugin ignores both.

use ir::ElementType;
use shape_infer::ops::rnn::{self, Activation, Attrs, Cell, Direction, Kind};
use shape_infer::registry::OpsetFamily;

use super::convolution::{narrow, widen};
use super::{Call, KResult};
use crate::gemm::{self, Mat};
use crate::tensor::{byte_size, Tensor};

pub(crate) fn rnn_cell(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, kind(Cell::Rnn, false, false))
}

pub(crate) fn gru_cell(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, kind(Cell::Gru, false, false))
}

pub(crate) fn lstm_cell(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    // LSTMCell-1 (opsets 1 to 3) has peepholes; LSTMCell-4 does not.
    let opset = OpsetFamily::parse(&call.node.op_type.version).map_or(1, |(_, n)| n);
    run(call, kind(Cell::Lstm, false, opset < 4))
}

pub(crate) fn rnn_sequence(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, kind(Cell::Rnn, true, false))
}

pub(crate) fn gru_sequence(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, kind(Cell::Gru, true, false))
}

pub(crate) fn lstm_sequence(call: &Call<'_>) -> KResult<Vec<Tensor>> {
    run(call, kind(Cell::Lstm, true, false))
}

const fn kind(cell: Cell, sequence: bool, peepholes: bool) -> Kind {
    Kind {
        cell,
        sequence,
        peepholes,
    }
}

/// The sizes of a run: batch, steps, input size, hidden size, directions.
#[derive(Debug, Clone, Copy)]
struct Dims {
    n: usize,
    l: usize,
    i: usize,
    hs: usize,
    nd: usize,
}

/// The inputs in f32, in the layouts of a sequence (a cell's X is
/// `[N, 1, I]`, its states `[N, 1, Hs]`, its weights those of direction 0).
struct Inputs {
    x: Vec<f32>,
    h0: Vec<f32>,
    c0: Vec<f32>,
    w: Vec<f32>,
    r: Vec<f32>,
    b: Vec<f32>,
    /// LSTMCell-1's peepholes, `[3*Hs]` (zeros when absent).
    p: Option<Vec<f32>>,
    lengths: Vec<usize>,
}

/// Y `[N, nd, L, Hs]`, Ho and Co `[N, nd, Hs]`.
struct Outputs {
    y: Vec<f32>,
    h: Vec<f32>,
    c: Vec<f32>,
}

fn run(call: &Call<'_>, kind: Kind) -> KResult<Vec<Tensor>> {
    let attrs = rnn::attributes(&call.node.attributes, kind).map_err(|e| e.to_string())?;
    let ports = kind.ports();
    let x = call.input(ports.x)?;
    let et = x.element_type;
    if !et.is_real() {
        return Err(format!("X is {et}, not a floating-point tensor").into());
    }
    let (n, l, i) = match (kind.sequence, x.shape.as_slice()) {
        (true, &[n, l, i]) => (n, l, i),
        (false, &[n, i]) => (n, 1, i),
        _ => return Err(format!("X has shape {:?}", x.shape).into()),
    };
    let hs = usize::try_from(attrs.hidden_size).map_err(|_| "hidden_size")?;
    let nd = attrs.direction.count();
    let d = Dims { n, l, i, hs, nd };
    let g = kind.cell.gates();
    let gb = g + usize::from(attrs.linear_before_reset);
    let times = |k: usize| {
        k.checked_mul(hs)
            .ok_or_else(|| format!("{k} * hidden_size {hs} overflows"))
    };
    // The expected shape of each input: the sequence's, without the
    // direction dim for a cell.
    let shape = |seq: Vec<usize>, cell: Vec<usize>| if kind.sequence { seq } else { cell };
    let state = shape(vec![n, nd, hs], vec![n, hs]);
    let read = |port: usize, what: &str, want: &[usize]| -> KResult<Vec<f32>> {
        let t = call.input(port)?;
        if t.shape != want {
            return Err(format!(
                "{what} (input {port}) has shape {:?}, expected {want:?}",
                t.shape
            )
            .into());
        }
        widen(t)
    };
    // LSTMCell-1 may omit B and P: zeros, as OpenVINO's reader adds.
    let optional = |port: usize, what: &str, want: &[usize]| -> KResult<Vec<f32>> {
        if port < call.inputs.len() {
            read(port, what, want)
        } else {
            // `hidden_size` is only bounded by the other inputs' sizes.
            byte_size(ElementType::F32, want)?;
            Ok(vec![0.0; want.iter().product()])
        }
    };
    let h0 = read(ports.h, "H", &state)?;
    let c0 = match ports.c {
        Some(port) => read(port, "C", &state)?,
        None => Vec::new(),
    };
    let w = read(
        ports.w,
        "W",
        &shape(vec![nd, times(g)?, i], vec![times(g)?, i]),
    )?;
    let r = read(
        ports.r,
        "R",
        &shape(vec![nd, times(g)?, hs], vec![times(g)?, hs]),
    )?;
    let b = optional(ports.b, "B", &shape(vec![nd, times(gb)?], vec![times(gb)?]))?;
    let p = match ports.p {
        Some(port) => Some(optional(port, "P", &[times(3)?])?),
        None => None,
    };
    let lengths = match ports.lengths {
        Some(port) => {
            let t = call.input(port)?;
            if t.shape != [n] {
                return Err(format!(
                    "sequence_lengths (input {port}) has shape {:?}, expected [{n}]",
                    t.shape
                )
                .into());
            }
            t.to_i64s()?
                .into_iter()
                .enumerate()
                .map(|(row, len)| {
                    usize::try_from(len).ok().filter(|&v| v <= l).ok_or_else(|| {
                        format!("the sequence length {len} of batch element {row} is outside [0, {l}]")
                    })
                })
                .collect::<Result<Vec<_>, _>>()?
        }
        None => vec![1; n],
    };
    let y_shape = vec![n, nd, l, hs];
    let outputs = 1 + usize::from(kind.sequence) + usize::from(kind.cell.has_cell_state());
    let mut shapes = Vec::with_capacity(outputs);
    if kind.sequence {
        shapes.push(y_shape.clone());
    }
    shapes.push(state.clone());
    if kind.cell.has_cell_state() {
        shapes.push(state);
    }
    for (k, s) in shapes.iter().enumerate() {
        let inferred = call.out_shape(k)?;
        if &inferred != s {
            return Err(
                format!("internal: output {k} is {s:?}, inference says {inferred:?}").into(),
            );
        }
    }
    // Y and the buffer of `X·Wᵀ + B` are computed in f32.
    byte_size(ElementType::F32, &y_shape)?;
    byte_size(ElementType::F32, &[n, l, times(g)?])?;
    let inputs = Inputs {
        x: widen(x)?,
        h0,
        c0,
        w,
        r,
        b,
        p,
        lengths,
    };
    let out = compute(kind.cell, &attrs, d, &inputs)?;
    let mut result = Vec::with_capacity(outputs);
    let mut shapes = shapes.into_iter();
    let mut next = |values: &[f32]| -> KResult<Tensor> {
        let s = shapes.next().ok_or("internal: an output too many")?;
        narrow(et, s, values)
    };
    if kind.sequence {
        result.push(next(&out.y)?);
    }
    result.push(next(&out.h)?);
    if kind.cell.has_cell_state() {
        result.push(next(&out.c)?);
    }
    Ok(result)
}

fn activate(a: Activation, v: f32) -> f32 {
    match a {
        Activation::Sigmoid => 1.0 / (1.0 + (-v).exp()),
        Activation::Tanh => v.tanh(),
        Activation::Relu => v.max(0.0),
    }
}

/// `activation(clip(v))`.
fn gate(a: Activation, clip: Option<f32>, v: f32) -> f32 {
    activate(a, clip.map_or(v, |c| v.clamp(-c, c)))
}

/// Every direction of the recurrence.
fn compute(cell: Cell, attrs: &Attrs, d: Dims, inputs: &Inputs) -> KResult<Outputs> {
    let Dims { n, l, hs, nd, .. } = d;
    let mut out = Outputs {
        y: vec![0.0; n * nd * l * hs],
        h: vec![0.0; n * nd * hs],
        c: vec![
            0.0;
            if cell.has_cell_state() {
                n * nd * hs
            } else {
                0
            }
        ],
    };
    for dir in 0..nd {
        let reverse = match attrs.direction {
            Direction::Forward => false,
            Direction::Reverse => true,
            Direction::Bidirectional => dir == 1,
        };
        direction(cell, attrs, d, inputs, (dir, reverse), &mut out)?;
    }
    Ok(out)
}

/// One direction `dir` (read backwards when `reverse`).
fn direction(
    cell: Cell,
    attrs: &Attrs,
    d: Dims,
    inputs: &Inputs,
    (dir, reverse): (usize, bool),
    out: &mut Outputs,
) -> KResult<()> {
    let Dims { n, l, i, hs, nd } = d;
    let g = cell.gates();
    let gh = g * hs;
    let gb = (g + usize::from(attrs.linear_before_reset)) * hs;
    let w = &inputs.w[dir * gh * i..(dir + 1) * gh * i];
    let r = &inputs.r[dir * gh * hs..(dir + 1) * gh * hs];
    let b = &inputs.b[dir * gb..(dir + 1) * gb];
    // Row (batch, t) of `xw` is X[batch, t]·Wᵀ + B (B's first g gates: a
    // GRU's `linear_before_reset` keeps Rbh apart).
    let mut xw = vec![0.0f32; n * l * gh];
    gemm::matmul(
        &mut xw,
        gh,
        (n * l, i, gh),
        Mat::rows(&inputs.x, i),
        Mat::transposed(w, i),
        false,
    )?;
    if gh > 0 {
        for row in xw.chunks_exact_mut(gh) {
            for (v, bias) in row.iter_mut().zip(&b[..gh]) {
                *v += bias;
            }
        }
    }
    // The states of this direction, `[N, Hs]`.
    let take = |all: &[f32]| -> Vec<f32> {
        (0..n)
            .flat_map(|row| {
                all[(row * nd + dir) * hs..(row * nd + dir + 1) * hs]
                    .iter()
                    .copied()
            })
            .collect()
    };
    let mut h = take(&inputs.h0);
    let mut c = if cell.has_cell_state() {
        take(&inputs.c0)
    } else {
        Vec::new()
    };
    let mut hr = vec![0.0f32; n * gh];
    // GRU: the activated z and r gates, and `r ⊙ H` (no linear_before_reset).
    let mut zr = vec![0.0f32; if cell == Cell::Gru { n * 2 * hs } else { 0 }];
    let mut rh = vec![0.0f32; if cell == Cell::Gru { n * hs } else { 0 }];
    let acts = &attrs.activations;
    let clip = attrs.clip;
    let lengths = &inputs.lengths;
    for step in 0..l {
        let active: Vec<(usize, usize)> = (0..n)
            .filter(|&row| step < lengths[row])
            .map(|row| {
                let t = if reverse {
                    lengths[row] - 1 - step
                } else {
                    step
                };
                (row, t)
            })
            .collect();
        if active.is_empty() {
            break;
        }
        let gru_split = cell == Cell::Gru && !attrs.linear_before_reset;
        // H·Rᵀ (a plain GRU: the z and r gates only; its h gate needs r).
        let cols = if gru_split { 2 * hs } else { gh };
        gemm::matmul(
            &mut hr,
            gh,
            (n, hs, cols),
            Mat::rows(&h, hs),
            Mat::transposed(r, hs),
            false,
        )?;
        match cell {
            Cell::Rnn => {
                for &(row, t) in &active {
                    let pre = &xw[(row * l + t) * gh..][..hs];
                    let rec = &hr[row * gh..][..hs];
                    for k in 0..hs {
                        h[row * hs + k] = gate(acts[0], clip, pre[k] + rec[k]);
                    }
                }
            }
            Cell::Gru => {
                for &(row, t) in &active {
                    let pre = &xw[(row * l + t) * gh..][..2 * hs];
                    let rec = &hr[row * gh..][..2 * hs];
                    for k in 0..2 * hs {
                        zr[row * 2 * hs + k] = gate(acts[0], clip, pre[k] + rec[k]);
                    }
                    if gru_split {
                        for k in 0..hs {
                            rh[row * hs + k] = zr[row * 2 * hs + hs + k] * h[row * hs + k];
                        }
                    }
                }
                if gru_split {
                    // (r ⊙ H)·Rhᵀ into the h gate's columns.
                    gemm::matmul(
                        &mut hr[2 * hs..],
                        gh,
                        (n, hs, hs),
                        Mat::rows(&rh, hs),
                        Mat::transposed(&r[2 * hs * hs..], hs),
                        false,
                    )?;
                }
                let rbh = &b[gh.min(b.len())..];
                for &(row, t) in &active {
                    let pre = &xw[(row * l + t) * gh + 2 * hs..][..hs];
                    let rec = &hr[row * gh + 2 * hs..][..hs];
                    for k in 0..hs {
                        let z = zr[row * 2 * hs + k];
                        let reset = zr[row * 2 * hs + hs + k];
                        let candidate = if attrs.linear_before_reset {
                            pre[k] + reset * (rec[k] + rbh[k])
                        } else {
                            pre[k] + rec[k]
                        };
                        let candidate = gate(acts[1], clip, candidate);
                        let old = &mut h[row * hs + k];
                        *old = (1.0 - z) * candidate + z * *old;
                    }
                }
            }
            Cell::Lstm => {
                let p = inputs.p.as_deref();
                for &(row, t) in &active {
                    let pre = &xw[(row * l + t) * gh..][..gh];
                    let rec = &hr[row * gh..][..gh];
                    for k in 0..hs {
                        let sum =
                            |gate_index: usize| pre[gate_index * hs + k] + rec[gate_index * hs + k];
                        let peep = |gate_index: usize| p.map_or(0.0, |p| p[gate_index * hs + k]);
                        let old = c[row * hs + k];
                        let f = gate(acts[0], clip, sum(0) + peep(0) * old);
                        let input = if attrs.input_forget {
                            1.0 - f
                        } else {
                            gate(acts[0], clip, sum(1) + peep(1) * old)
                        };
                        let candidate = gate(acts[1], clip, sum(2));
                        let new = f * old + input * candidate;
                        let o = gate(acts[0], clip, sum(3) + peep(2) * new);
                        c[row * hs + k] = new;
                        h[row * hs + k] = o * activate(acts[2], new);
                    }
                }
            }
        }
        for &(row, t) in &active {
            let at = ((row * nd + dir) * l + t) * hs;
            out.y[at..at + hs].copy_from_slice(&h[row * hs..(row + 1) * hs]);
        }
    }
    // The last states of the rows that ran (length 0 leaves zeros).
    for row in (0..n).filter(|&row| lengths[row] > 0) {
        let at = (row * nd + dir) * hs;
        out.h[at..at + hs].copy_from_slice(&h[row * hs..(row + 1) * hs]);
        if cell.has_cell_state() {
            out.c[at..at + hs].copy_from_slice(&c[row * hs..(row + 1) * hs]);
        }
    }
    Ok(())
}

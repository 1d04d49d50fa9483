//! What the recurrent ops share: their attributes (read once here for the
//! rules and for the executor's kernels) and their shape rule.
//!
//! Cells (RNNCell-0, GRUCell-3, LSTMCell-0/-4): X `[N, I]`, H (and C)
//! `[N, Hs]`, W `[g*Hs, I]`, R `[g*Hs, Hs]`, B `[g*Hs]` (GRU with
//! `linear_before_reset`: `[4*Hs]`), LSTMCell-0's peepholes P `[3*Hs]`;
//! outputs `[N, Hs]`. Sequences (RNNSequence-5, GRUSequence-5,
//! LSTMSequence-5): X `[N, L, I]`, H0 (and C0) `[N, nd, Hs]`, lengths `[N]`,
//! W `[nd, g*Hs, I]`, R `[nd, g*Hs, Hs]`, B `[nd, g*Hs]`; Y `[N, nd, L, Hs]`,
//! Ho (and Co) `[N, nd, Hs]`. `g` is 1 (RNN), 3 (GRU) or 4 (LSTM); `nd` is 2
//! for `direction` bidirectional, else 1.
//!
//! N, I, Hs and nd are merged across every input that carries them: equal,
//! or a recorded constraint (`rnn_base_shape_inference.hpp` merges N, Hs and
//! nd the same way, `?` where unknown). OpenVINO's shape inference ignores
//! `hidden_size` and the input size; its CPU plugin refuses a model where
//! they disagree with the dims, so here they are merged too, and `hidden_size`
//! makes Hs (and every `g*Hs`) a constant.

use ir::{Dim, ElementType, Shape};
use symdim::Expr;

use crate::context::InferContext;
use crate::error::ShapeError;
use crate::ops::support;
use crate::registry::OpCall;
use crate::tensor::TensorInfo;

/// The cell a recurrent op runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Rnn,
    Gru,
    Lstm,
}

impl Cell {
    /// The number of gates (`g`): the blocks of `Hs` rows of W and R.
    pub const fn gates(self) -> usize {
        match self {
            Cell::Rnn => 1,
            Cell::Gru => 3,
            Cell::Lstm => 4,
        }
    }

    /// How many activation functions the cell uses (`f`, `g`, `h`).
    pub const fn activation_count(self) -> usize {
        match self {
            Cell::Rnn => 1,
            Cell::Gru => 2,
            Cell::Lstm => 3,
        }
    }

    const fn default_activations(self) -> &'static [Activation] {
        use Activation::{Sigmoid, Tanh};
        match self {
            Cell::Rnn => &[Tanh],
            Cell::Gru => &[Sigmoid, Tanh],
            Cell::Lstm => &[Sigmoid, Tanh, Tanh],
        }
    }

    /// Whether the cell carries a cell state (C) besides the hidden state.
    pub const fn has_cell_state(self) -> bool {
        matches!(self, Cell::Lstm)
    }
}

/// An activation function of a recurrent cell. OpenVINO's
/// `activations_alpha` and `activations_beta` parametrize none of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    Sigmoid,
    Tanh,
    Relu,
}

/// How a sequence is traversed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Reverse,
    /// Forward (direction 0) and reverse (direction 1), each with its own
    /// weights and initial states.
    Bidirectional,
}

impl Direction {
    /// `num_directions`.
    pub const fn count(self) -> usize {
        match self {
            Direction::Bidirectional => 2,
            _ => 1,
        }
    }
}

/// Which recurrent op a layer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kind {
    pub cell: Cell,
    /// A `*Sequence` op (else a `*Cell`).
    pub sequence: bool,
    /// LSTMCell-0: the optional peepholes P and `input_forget`,
    /// `weights_format`.
    pub peepholes: bool,
}

/// A recurrent layer's attributes, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Attrs {
    /// At least 1.
    pub hidden_size: i64,
    /// Exactly [`Cell::activation_count`] of them (extra ones are dropped,
    /// as OpenVINO does).
    pub activations: Vec<Activation>,
    /// The bound of the gates' clipping to `[-clip, clip]`; `None`: no
    /// clipping (`clip` absent, 0, negative or infinite, as OpenVINO).
    pub clip: Option<f32>,
    /// GRU: the reset gate applies after the recurrent product.
    pub linear_before_reset: bool,
    /// Forward for cells.
    pub direction: Direction,
    /// LSTMCell-0: the input gate is `1 - f`.
    pub input_forget: bool,
    /// Warnings (rule, message) about attributes OpenVINO accepts but
    /// ignores.
    pub warnings: Vec<(&'static str, String)>,
}

/// The warning of an attribute OpenVINO accepts and ignores.
pub const IGNORED: &str = "rnn-ignored-attribute";

fn rule(rule_name: &'static str, message: impl Into<String>) -> ShapeError {
    ShapeError::rule(rule_name, message)
}

/// The comma-separated items of `key` (an empty text is no item).
fn items(attributes: &ir::Attributes, key: &str) -> Option<Vec<String>> {
    let text = attributes.get(key)?;
    Some(
        text.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    )
}

fn activation(name: &str) -> Option<Activation> {
    match name.to_ascii_lowercase().as_str() {
        "sigmoid" => Some(Activation::Sigmoid),
        "tanh" => Some(Activation::Tanh),
        "relu" => Some(Activation::Relu),
        _ => None,
    }
}

/// Reads and checks the attributes of a recurrent layer of `kind`.
pub fn attributes(attributes: &ir::Attributes, kind: Kind) -> Result<Attrs, ShapeError> {
    let cell = kind.cell;
    let mut warnings = Vec::new();
    let hidden_size = attributes
        .i64("hidden_size")?
        .ok_or_else(|| rule("rnn-hidden-size", "the `hidden_size` attribute is missing"))?;
    if hidden_size < 1 {
        return Err(rule(
            "rnn-hidden-size",
            format!("`hidden_size` {hidden_size} is not positive"),
        ));
    }
    let needed = cell.activation_count();
    let activations = match items(attributes, "activations") {
        None => cell.default_activations().to_vec(),
        Some(names) => {
            if names.len() < needed {
                return Err(rule(
                    "rnn-activations",
                    format!(
                        "{} activation function(s) given ({}), the cell needs {needed}",
                        names.len(),
                        names.join(", ")
                    ),
                ));
            }
            if names.len() > needed {
                warnings.push((
                    IGNORED,
                    format!(
                        "{} activation functions given, the cell uses the first {needed}; OpenVINO ignores the others ({})",
                        names.len(),
                        names[needed..].join(", ")
                    ),
                ));
            }
            names[..needed]
                .iter()
                .map(|n| {
                    activation(n).ok_or_else(|| {
                        rule(
                            "rnn-activations",
                            format!("activation `{n}` is not relu, sigmoid or tanh"),
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?
        }
    };
    for key in ["activations_alpha", "activations_beta"] {
        let values = items(attributes, key).unwrap_or_default();
        if let Some(bad) = values.iter().find(|v| v.parse::<f64>().is_err()) {
            return Err(rule(
                "rnn-attribute",
                format!("`{key}` item \"{bad}\" is not a number"),
            ));
        }
        if !values.is_empty() {
            warnings.push((
                IGNORED,
                format!("`{key}` has no effect: relu, sigmoid and tanh take no parameter"),
            ));
        }
    }
    let clip = match attributes.get("clip").map(str::trim) {
        None => 0.0,
        Some(text) => text.parse::<f32>().map_err(|_| {
            rule(
                "rnn-attribute",
                format!("`clip` \"{text}\" is not a number"),
            )
        })?,
    };
    if clip < 0.0 {
        warnings.push((
            IGNORED,
            format!("`clip` {clip} is negative: OpenVINO clips nothing (the spec asks for a positive bound)"),
        ));
    }
    let clip = (clip > 0.0 && clip.is_finite()).then_some(clip);
    let mut flag = |key: &str| match attributes.bool(key) {
        Ok(v) => v.unwrap_or(false),
        Err(e) => {
            warnings.push((
                "attribute-boolean",
                format!("{e}; OpenVINO reads it as false"),
            ));
            false
        }
    };
    let linear_before_reset = cell == Cell::Gru && flag("linear_before_reset");
    let input_forget = kind.peepholes && flag("input_forget");
    let direction = if kind.sequence {
        let text = attributes
            .get("direction")
            .ok_or_else(|| rule("rnn-direction", "the `direction` attribute is missing"))?;
        match text.trim().to_ascii_lowercase().as_str() {
            "forward" => Direction::Forward,
            "reverse" => Direction::Reverse,
            "bidirectional" => Direction::Bidirectional,
            _ => {
                return Err(rule(
                    "rnn-direction",
                    format!("`direction` \"{text}\" is not forward, reverse or bidirectional"),
                ))
            }
        }
    } else {
        Direction::Forward
    };
    if kind.peepholes {
        if let Some(text) = attributes.get("weights_format") {
            let format = text.trim().to_ascii_lowercase();
            if !["fico", "icof", "ifco", "ifoc", "iofc"].contains(&format.as_str()) {
                return Err(rule(
                    "rnn-attribute",
                    format!("`weights_format` \"{text}\" is not fico, icof, ifco, ifoc or iofc"),
                ));
            }
            if format != "fico" {
                // OpenVINO reads a layer without the attribute as ifco (and
                // writes that back) while the spec's gate order is fico, and
                // its CPU plugin runs every format as fico.
                warnings.push((
                    IGNORED,
                    format!("`weights_format` {format} is ignored: the gates are read in the spec's order f, i, c, o, as OpenVINO's CPU plugin does"),
                ));
            }
        }
        if input_forget {
            warnings.push((
                "lstm-peepholes",
                "`input_forget` couples the input gate to the forget gate (OpenVINO's reference implementation); OpenVINO's CPU plugin ignores it, and the peepholes P".to_owned(),
            ));
        }
    }
    Ok(Attrs {
        hidden_size,
        activations,
        clip,
        linear_before_reset,
        direction,
        input_forget,
        warnings,
    })
}

/// The input ports of a recurrent layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ports {
    pub x: usize,
    pub h: usize,
    pub c: Option<usize>,
    pub lengths: Option<usize>,
    pub w: usize,
    pub r: usize,
    pub b: usize,
    pub p: Option<usize>,
}

impl Kind {
    /// Where each input is.
    pub const fn ports(self) -> Ports {
        let c = self.cell.has_cell_state();
        let state = 1 + c as usize;
        let lengths = if self.sequence { Some(state + 1) } else { None };
        let w = state + 1 + self.sequence as usize;
        Ports {
            x: 0,
            h: 1,
            c: if c { Some(2) } else { None },
            lengths,
            w,
            r: w + 1,
            b: w + 2,
            p: if self.peepholes { Some(w + 3) } else { None },
        }
    }

    /// The accepted input counts: LSTMCell-0 may omit B and P (OpenVINO's
    /// reader adds zeros).
    pub const fn input_counts(self) -> (usize, usize) {
        let ports = self.ports();
        if self.peepholes {
            (ports.b, ports.b + 2)
        } else {
            (ports.b + 1, ports.b + 1)
        }
    }
}

/// A dim carried by one input: `(port, axis, what it is)`.
type Carrier = (usize, usize, &'static str);

/// Merges the dims `carriers` name (skipping inputs of unknown rank, or
/// absent) into `start`: the merged dim, or `None` when no input carries it.
fn merge(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    start: Option<Dim>,
    carriers: &[Carrier],
    rule_name: &'static str,
    what: &str,
) -> Result<Option<Dim>, ShapeError> {
    let mut merged = start;
    for &(port, axis, name) in carriers {
        let Some(dim) = call
            .inputs
            .get(port)
            .and_then(|t| t.shape.dims())
            .and_then(|d| d.get(axis))
        else {
            continue;
        };
        merged = Some(match merged {
            None => dim.clone(),
            Some(m) => {
                let what = format!("{what} (dim {axis} of {name}, input {port})");
                // The dim first: a constraint reads `?3 == 3`, and a
                // constant (the attribute's) is what stays.
                let (a, b) = if m.is_constant() {
                    (dim, &m)
                } else {
                    (&m, dim)
                };
                support::merge_equal_dims(ctx, a, b, rule_name, &what)?
            }
        });
    }
    Ok(merged)
}

/// The shape rule of every recurrent op.
pub(crate) fn infer(
    ctx: &mut InferContext,
    call: &OpCall<'_>,
    kind: Kind,
) -> Result<Vec<TensorInfo>, ShapeError> {
    let (min, max) = kind.input_counts();
    call.expect_inputs(min, max)?;
    let attrs = attributes(&call.node.attributes, kind)?;
    for (rule_name, message) in &attrs.warnings {
        ctx.warn(rule_name, message.clone());
    }
    let p = kind.ports();
    let seq = usize::from(kind.sequence);
    // (port, expected rank, name)
    let mut inputs = vec![(p.x, 2 + seq, "X"), (p.h, 2 + seq, "H")];
    if let Some(c) = p.c {
        inputs.push((c, 2 + seq, "C"));
    }
    inputs.extend([
        (p.w, 2 + seq, "W"),
        (p.r, 2 + seq, "R"),
        (p.b, 1 + seq, "B"),
    ]);
    if let Some(port) = p.p {
        inputs.push((port, 1, "P"));
    }
    let mut element_type = ElementType::Dynamic;
    for &(port, rank, name) in &inputs {
        let Some(input) = call.inputs.get(port) else {
            continue;
        };
        element_type = support::expect_same_type(call, p.x, port)?;
        let t = input.element_type;
        if t.is_static() && !t.is_real() {
            return Err(ShapeError::ElementType {
                what: format!("{name} (input {port})"),
                message: format!("must be a floating-point tensor, got {t}"),
            });
        }
        if let Some(r) = input.shape.rank().filter(|&r| r != rank) {
            return Err(rule(
                "rnn-input-rank",
                format!("{name} (input {port}) must have rank {rank}, got {r}"),
            ));
        }
    }
    if let Some(port) = p.lengths {
        support::expect_integer_input(call, port, &format!("sequence_lengths (input {port})"))?;
        if let Some(r) = call.inputs[port].shape.rank().filter(|&r| r != 1) {
            return Err(rule(
                "rnn-input-rank",
                format!("sequence_lengths (input {port}) must have rank 1, got {r}"),
            ));
        }
    }

    // Hs: the attribute, merged with every dim that is Hs or a multiple.
    let hs = Expr::constant(attrs.hidden_size);
    let last = 1 + seq;
    let mut hidden = vec![(p.h, last, "H"), (p.r, last, "R")];
    if let Some(c) = p.c {
        hidden.push((c, last, "C"));
    }
    merge(
        ctx,
        call,
        Some(hs.clone()),
        &hidden,
        "rnn-hidden-size",
        "`hidden_size` and the hidden size",
    )?;
    let g = kind.cell.gates() as i64;
    let bias_gates = g + i64::from(attrs.linear_before_reset);
    let mut multiples = vec![
        (p.w, seq, "W", g),
        (p.r, seq, "R", g),
        (p.b, seq, "B", bias_gates),
    ];
    if let Some(port) = p.p {
        multiples.push((port, 0, "P", 3));
    }
    for (port, axis, name, times) in multiples {
        merge(
            ctx,
            call,
            Some(hs.mul_const(times)?),
            &[(port, axis, name)],
            "rnn-hidden-size",
            &format!("{times} * `hidden_size`"),
        )?;
    }

    // N, I and nd.
    let mut batch = vec![(p.x, 0, "X"), (p.h, 0, "H")];
    if let Some(c) = p.c {
        batch.push((c, 0, "C"));
    }
    if let Some(l) = p.lengths {
        batch.push((l, 0, "sequence_lengths"));
    }
    let n = merge(ctx, call, None, &batch, "rnn-batch", "the batch size")?;
    merge(
        ctx,
        call,
        None,
        &[(p.x, last, "X"), (p.w, last, "W")],
        "rnn-input-size",
        "the input size",
    )?;
    let n = match n {
        Some(n) => n,
        None => support::unknown_dim(
            ctx,
            "the batch size of a recurrent layer whose inputs have unknown ranks",
        ),
    };
    if !kind.sequence {
        let shape = Shape::ranked([n, hs]);
        let outputs = 1 + usize::from(kind.cell.has_cell_state());
        return Ok(vec![TensorInfo::new(element_type, shape); outputs]);
    }
    let nd = Expr::constant(attrs.direction.count() as i64);
    let mut directions = vec![(p.h, 1, "H"), (p.w, 0, "W"), (p.r, 0, "R"), (p.b, 0, "B")];
    if let Some(c) = p.c {
        directions.push((c, 1, "C"));
    }
    merge(
        ctx,
        call,
        Some(nd.clone()),
        &directions,
        "rnn-num-directions",
        "the number of directions of `direction`",
    )?;
    let length = match call.inputs[p.x].shape.dims() {
        Some(d) => d[1].clone(),
        None => support::unknown_dim(
            ctx,
            "the sequence length of a recurrent layer whose X has an unknown rank",
        ),
    };
    let y = Shape::ranked([n.clone(), nd.clone(), length, hs.clone()]);
    let state = Shape::ranked([n, nd, hs]);
    let mut out = vec![
        TensorInfo::new(element_type, y),
        TensorInfo::new(element_type, state.clone()),
    ];
    if kind.cell.has_cell_state() {
        out.push(TensorInfo::new(element_type, state));
    }
    Ok(out)
}

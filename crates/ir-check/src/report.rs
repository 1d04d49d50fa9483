//! The report: rendered as JSON (for tools) or as a table (for people and
//! snapshot tests), written as it is produced.
//!
//! The JSON layout is a public contract, described by
//! `docs/report.schema.json` (a test validates every sample's report
//! against it); see the README. The report of a 100,000-layer model is tens
//! of MB, so it is never built whole: [`Report`] borrows the graph, the
//! inference and the diagnostics, and each layer's row is formatted straight
//! into the output.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::fmt::{Display, Write as _};
use std::io::{self, Write};

use ir::{Diagnostic, ElementType, Graph, Node, NodeId, PortDecl, Shape, SymbolId};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use shape_infer::engine::BodyOutcome;
use shape_infer::{Inference, NodeOutcome, ShapeOrigin, TensorInfo};
use symdim::{Expr, HashedExpr, HashedExprMap, SymbolTable};

use crate::pretty::{piece, PrettyWriter};

/// The version of `docs/report.schema.json` the JSON report follows: the
/// major number changes when a field is removed or changes meaning, the minor
/// number when one is added.
pub const SCHEMA_VERSION: &str = "1.0";

/// The report of one check: what it says, gathered lazily from the graph,
/// the inference and the diagnostics it borrows.
pub struct Report<'a> {
    graph: &'a Graph,
    inference: &'a Inference,
    diagnostics: &'a [Diagnostic],
    /// Every symbol the shapes and constraints use, by display name.
    symbols: serde_json::Map<String, serde_json::Value>,
    /// How many top-level layers the report lists.
    layers: usize,
    /// The symbolic dims' text, each computed once.
    dims: Dims<'a>,
}

/// The text and bounds of symbolic dims, computed once per expression: a
/// model's layers repeat a few expressions (a convolution's output dims
/// pass through its activation unchanged). [`SymbolTable::bounds`] keeps a
/// memo of its own (bounding a nested rounding, `floor((floor((H - 1)/2) -
/// 1)/2) + 1`, was the report's costliest step), but looking an expression
/// up there again costs a second hash of it.
struct Dims<'a> {
    symbols: &'a SymbolTable,
    texts: RefCell<HashedExprMap<DimMemo>>,
}

/// What [`Dims`] remembers of an expression.
struct DimMemo {
    /// Kept as written (a `Box<str>` shrank it: a reallocation per text).
    text: String,
    /// `[lo, hi]`, once asked for (the text report does not show them).
    bounds: Option<[Option<i64>; 2]>,
}

impl<'a> Dims<'a> {
    /// How many expressions the memo holds before it starts again: a chain
    /// whose every layer has a new expression (nested Slices) would
    /// otherwise keep one entry per layer.
    const REMEMBERED: usize = 1 << 12;

    fn new(symbols: &'a SymbolTable) -> Self {
        Dims {
            symbols,
            texts: RefCell::default(),
        }
    }

    /// Calls `use_memo` with what is remembered of `dim`, a symbolic dim.
    fn with_memo<R>(&self, dim: &Expr, use_memo: impl FnOnce(&mut DimMemo) -> R) -> R {
        let mut texts = self.texts.borrow_mut();
        // One hash of the expression, found or not (a Slice chain's every
        // dim is new).
        let key = HashedExpr::new(dim);
        if texts.len() >= Self::REMEMBERED && !texts.contains_key(&key) {
            texts.clear();
        }
        let memo = texts.entry(key).or_insert_with(|| {
            // Room for most texts at once (`max(?1 - 500, 0)`): `to_string`
            // grew the string two or three times.
            let mut text = String::with_capacity(32);
            self.symbols.write_expr(dim, &mut text);
            DimMemo { text, bounds: None }
        });
        use_memo(memo)
    }

    /// Calls `use_text` with the text of `dim`, a symbolic dim.
    fn with_text<R>(&self, dim: &Expr, use_text: impl FnOnce(&str) -> R) -> R {
        self.with_memo(dim, |memo| use_text(&memo.text))
    }

    /// Calls `use_both` with the text of `dim`, a symbolic dim, and its
    /// `[lo, hi]`, `None` where unbounded or not computable.
    fn with_text_and_bounds<R>(
        &self,
        dim: &Expr,
        use_both: impl FnOnce(&str, [Option<i64>; 2]) -> R,
    ) -> R {
        self.with_memo(dim, |memo| {
            let bounds = *memo.bounds.get_or_insert_with(|| self.bounds(dim));
            use_both(&memo.text, bounds)
        })
    }

    /// `[lo, hi]` of `dim`, `None` where unbounded or not computable.
    fn bounds(&self, dim: &Expr) -> [Option<i64>; 2] {
        match self.symbols.bounds(dim) {
            Ok(b) => [b.lo, b.hi],
            Err(_) => [None, None],
        }
    }
}

/// One graph's layers as inference left them: the top-level graph or a body.
#[derive(Clone, Copy)]
struct Level<'a> {
    graph: &'a Graph,
    order: &'a [NodeId],
    outcomes: &'a [NodeOutcome],
    bodies: &'a HashMap<NodeId, Vec<BodyOutcome>>,
}

/// One layer's row: the node, its output tensors and its bodies.
struct Row<'a> {
    node: &'a Node,
    tensors: &'a [TensorInfo],
    /// The outcome is the file's declarations, not inferred.
    declared: bool,
    /// Each body inference reached: its role and its layers.
    bodies: Vec<(&'static str, Level<'a>)>,
}

impl<'a> Level<'a> {
    /// The rows of the layers, in topological order.
    fn rows(self) -> impl Iterator<Item = Row<'a>> {
        self.order.iter().filter_map(move |&id| {
            let (node, outcome) = self.listed(id)?;
            let (tensors, declared) = match outcome {
                NodeOutcome::Inferred(t) => (t.as_slice(), false),
                NodeOutcome::Declared(t) => (t.as_slice(), true),
            };
            // Only a SubGraph layer has bodies to look up.
            let bodies = match &node.op {
                ir::Op::SubGraph(sub) => sub
                    .bodies
                    .iter()
                    .zip(self.bodies.get(&id).map(Vec::as_slice).unwrap_or_default())
                    .filter(|(_, outcome)| !outcome.order.is_empty())
                    .map(|(body, outcome)| {
                        let level = Level {
                            graph: &body.graph,
                            order: &outcome.order,
                            outcomes: &outcome.outcomes,
                            bodies: &outcome.bodies,
                        };
                        (body.role.name(), level)
                    })
                    .collect(),
                _ => Vec::new(),
            };
            Some(Row {
                node,
                tensors,
                declared,
                bodies,
            })
        })
    }

    /// The node `id` and its outcome, when it has a row: a node of the
    /// graph that inference reached.
    fn listed(self, id: NodeId) -> Option<(&'a Node, &'a NodeOutcome)> {
        Some((
            self.graph.graph.node_weight(id)?,
            self.outcomes.get(id.index())?,
        ))
    }

    /// How many layers the level has (bodies not counted): those
    /// [`rows`](Self::rows) lists.
    fn layer_count(self) -> usize {
        self.order
            .iter()
            .filter(|&&id| self.listed(id).is_some())
            .count()
    }

    /// Marks in `used` the symbols of every dim of every layer, bodies
    /// included, and stops once every symbol of the table is marked: a
    /// model's first layers name most of its symbols (a chain's Parameter
    /// all of them), and this walk came before the report's own.
    fn collect_symbols(self, used: &mut UsedSymbols) {
        for row in self.rows() {
            if used.all_marked() {
                return;
            }
            for tensor in row.tensors {
                for dim in tensor.shape.dims().unwrap_or_default() {
                    // Most dims are a constant or a lone symbol: no set to
                    // build for them.
                    if dim.as_constant().is_some() {
                        continue;
                    }
                    match dim.as_symbol() {
                        Some(symbol) => used.mark(symbol),
                        None => dim.for_each_symbol(&mut |s| used.mark(s)),
                    }
                }
            }
            for (_, body) in row.bodies {
                body.collect_symbols(used);
            }
        }
    }
}

/// The symbols the layers' dims use, by index, and how many of the
/// table's are not marked yet.
struct UsedSymbols {
    marked: Vec<bool>,
    unmarked: usize,
}

impl UsedSymbols {
    /// None of `count` symbols marked.
    fn new(count: usize) -> Self {
        UsedSymbols {
            marked: vec![false; count],
            unmarked: count,
        }
    }

    /// Marks `symbol`, a symbol of the table (the inference's dims use no
    /// other).
    fn mark(&mut self, symbol: SymbolId) {
        if let Some(marked) = self.marked.get_mut(symbol.index()) {
            if !*marked {
                *marked = true;
                self.unmarked -= 1;
            }
        }
    }

    fn all_marked(&self) -> bool {
        self.unmarked == 0
    }

    /// The marked symbols.
    fn marked(&self) -> impl Iterator<Item = SymbolId> + '_ {
        (0..self.marked.len())
            .filter(|&i| self.marked[i])
            .filter_map(|i| u32::try_from(i).ok().map(SymbolId))
    }
}

impl<'a> Row<'a> {
    /// Each output tensor with its port (for a Result, its input port).
    fn outputs(&self) -> impl Iterator<Item = (&'a TensorInfo, &'a PortDecl)> + '_ {
        outputs_of(self.node, self.tensors)
    }
}

/// Each of `tensors`, the outputs of `node`, with its port (for a Result,
/// its input port).
fn outputs_of<'a>(
    node: &'a Node,
    tensors: &'a [TensorInfo],
) -> impl Iterator<Item = (&'a TensorInfo, &'a PortDecl)> {
    let is_result = matches!(node.op, ir::Op::Result);
    let ports = node
        .outputs
        .iter()
        .chain(node.inputs.iter().take(usize::from(is_result)));
    tensors.iter().zip(ports)
}

impl<'a> Report<'a> {
    /// The report of `graph` after `inference`, with every diagnostic
    /// (reading, validation and inference). Only the symbols are gathered
    /// here (the JSON lists them before the layers); the rest is read while
    /// it is written.
    pub fn new(graph: &'a Graph, inference: &'a Inference, diagnostics: &'a [Diagnostic]) -> Self {
        let top = Level {
            graph,
            order: &inference.order,
            outcomes: &inference.outcomes,
            bodies: &inference.bodies,
        };
        let symbols = &inference.symbols;
        let mut marked = UsedSymbols::new(symbols.len());
        top.collect_symbols(&mut marked);
        let mut used: BTreeSet<SymbolId> = marked.marked().collect();
        for constraint in &inference.constraints {
            used.extend(predicate_symbols(&constraint.predicate));
        }
        // A symbol's symbolic upper bound (`c ∈ [0, S]`) names symbols too.
        let bound_symbols: Vec<SymbolId> = used
            .iter()
            .filter_map(|&s| symbols.info(s).upper.as_ref())
            .flat_map(|upper| upper.symbols())
            .collect();
        used.extend(bound_symbols);
        Report {
            graph,
            inference,
            diagnostics,
            symbols: symbols_json(symbols, &used),
            layers: top.layer_count(),
            dims: Dims::new(symbols),
        }
    }

    fn top(&self) -> Level<'a> {
        Level {
            graph: self.graph,
            order: &self.inference.order,
            outcomes: &self.inference.outcomes,
            bodies: &self.inference.bodies,
        }
    }

    /// How many top-level layers the report lists.
    pub fn layer_count(&self) -> usize {
        self.layers
    }

    /// How many symbols the report lists.
    pub fn symbol_count(&self) -> usize {
        self.symbols.len()
    }

    /// How many constraints the report lists.
    pub fn constraint_count(&self) -> usize {
        self.inference.constraints.len()
    }

    /// Writes the JSON report, one object and a newline, in serde_json's
    /// pretty layout. The layers, most of a report, are written by hand
    /// ([`JsonLayers`]); the symbols, constraints and diagnostics through
    /// serde. The bytes are those of `serde_json::to_writer_pretty` of the
    /// report (a test compares them on every sample). `out` gets a chunk of
    /// 64 KiB at a time.
    pub fn write_json<W: Write>(&self, out: W) -> io::Result<()> {
        let mut json = PrettyWriter::new(out);
        json.raw(b"{");
        json.key(1, true, "schema_version");
        json.string(SCHEMA_VERSION);
        json.key(1, false, "model");
        json.string(&self.graph.name);
        json.key(1, false, "ir_version");
        json.unsigned(u64::from(self.graph.ir_version));
        json.key(1, false, "valid");
        let valid = !self.diagnostics.iter().any(Diagnostic::is_error);
        json.raw(if valid { b"true" } else { b"false" });
        json.key(1, false, "symbols");
        json.serialize(1, &self.symbols)?;
        json.key(1, false, "nodes");
        let mut layers = JsonLayers {
            json,
            dims: &self.dims,
            last_shape: LastShape::default(),
            last_tail: None,
            pieces: Vec::new(),
            bounds: Vec::new(),
        };
        layers.write_level(self.top(), 2)?;
        let mut json = layers.json;
        json.key(1, false, "constraints");
        json.serialize(1, &self.constraints_json())?;
        json.key(1, false, "diagnostics");
        json.serialize(1, &self.diagnostics_json())?;
        json.raw(b"\n}\n");
        json.finish()
    }

    /// The constraints, as the JSON report lists them.
    fn constraints_json(&self) -> impl Serialize + '_ {
        let symbols = &self.inference.symbols;
        Seq(move || {
            self.inference.constraints.iter().map(|c| ConstraintJson {
                expr: DisplayJson(symbols.display_predicate(&c.predicate)),
                node: &c.layer.name,
                line: c.location.line,
            })
        })
    }

    /// The diagnostics, as the JSON report lists them.
    fn diagnostics_json(&self) -> impl Serialize + '_ {
        Seq(|| {
            self.diagnostics.iter().map(|d| DiagnosticJson {
                severity: d.severity,
                rule: d.rule,
                node: d.layer.as_ref().map(|l| l.name.as_str()),
                line: d.location.map(|l| l.line),
                column: d.location.map(|l| l.column),
                message: &d.message,
                notes: &d.notes,
            })
        })
    }

    /// The JSON report, one object and a newline.
    pub fn to_json(&self) -> String {
        let mut bytes = Vec::new();
        match self.write_json(&mut bytes) {
            Ok(()) => String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            Err(e) => format!("{{\"error\": \"the report could not be serialized: {e}\"}}\n"),
        }
    }

    /// Writes the table for people (the verdict line is not part of it).
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "model `{}` (IR v{}): {} layers",
            self.graph.name, self.graph.ir_version, self.layers
        )?;
        if !self.symbols.is_empty() {
            writeln!(out, "\nsymbols")?;
            let rows: Vec<[String; 3]> = self
                .symbols
                .iter()
                .map(|(name, info)| {
                    let range = match (&info["min"], &info["max"]) {
                        (lo, _) if info.get("upper").is_some() => {
                            format!(
                                "[{}, {}]",
                                json_bound(lo),
                                info["upper"].as_str().unwrap_or("?")
                            )
                        }
                        (lo, serde_json::Value::Null) => format!("[{}, inf)", json_bound(lo)),
                        (lo, hi) => format!("[{}, {}]", json_bound(lo), json_bound(hi)),
                    };
                    let origin = info
                        .get("origin")
                        .and_then(|o| o.as_str())
                        .unwrap_or_default()
                        .to_owned();
                    [name.clone(), range, origin]
                })
                .collect();
            write_table(out, &rows)?;
        }
        writeln!(out, "\nlayers")?;
        self.write_layer_table(out)?;
        let constraints = &self.inference.constraints;
        if !constraints.is_empty() {
            writeln!(out, "\nconstraints")?;
            let symbols = &self.inference.symbols;
            let rows: Vec<[String; 2]> = constraints
                .iter()
                .map(|c| {
                    [
                        symbols.display_predicate(&c.predicate).to_string(),
                        format!("{} (line {})", c.layer.name, c.location.line),
                    ]
                })
                .collect();
            write_table(out, &rows)?;
        }
        // The verdict follows the diagnostics, last (diagnostics::verdict);
        // this blank line keeps the table apart from them.
        out.write_all(b"\n")
    }

    /// The table for people (the verdict line is not part of it).
    pub fn to_text(&self) -> String {
        let mut bytes = Vec::new();
        // Writing into memory cannot fail.
        let _ = self.write_text(&mut bytes);
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The layers table, body layers indented under their layer: a first
    /// pass measures the columns (the last one, the outputs, needs no
    /// width), a second writes the rows.
    fn write_layer_table(&self, out: &mut dyn Write) -> io::Result<()> {
        let header = ["id", "name", "type", "outputs"];
        let mut widths = [0usize; 3];
        for (w, cell) in widths.iter_mut().zip(header) {
            *w = cell.chars().count();
        }
        measure_layers(self.top(), 0, &mut widths);
        let mut line = String::new();
        write_layer_line(out, &mut line, &widths, header)?;
        let mut cells = LayerCells::default();
        self.write_layers(out, self.top(), 0, &widths, &mut line, &mut cells)
    }

    fn write_layers(
        &self,
        out: &mut dyn Write,
        level: Level<'_>,
        depth: usize,
        widths: &[usize; 3],
        line: &mut String,
        cells: &mut LayerCells,
    ) -> io::Result<()> {
        for row in level.rows() {
            cells.fill(&row, depth, &self.dims);
            write_layer_line(
                out,
                line,
                widths,
                [&cells.id, &row.node.name, &cells.op, &cells.outputs],
            )?;
            for (role, body) in &row.bodies {
                cells.id.clear();
                let _ = write!(cells.id, "{}  {role}:", Indent(depth));
                write_layer_line(out, line, widths, [&cells.id, "", "", ""])?;
                self.write_layers(out, *body, depth + 2, widths, line, cells)?;
            }
        }
        Ok(())
    }
}

/// `2 * depth` spaces.
struct Indent(usize);

impl Display for Indent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (0..self.0).try_for_each(|_| f.write_str("  "))
    }
}

/// The widths of the first three layer columns over every row of `level`.
fn measure_layers(level: Level<'_>, depth: usize, widths: &mut [usize; 3]) {
    let indent = 2 * depth;
    for row in level.rows() {
        let node = row.node;
        let op = text_width(&node.op_type.name) + 1 + text_width(&node.op_type.version);
        let cells = [indent + text_width(&node.id), text_width(&node.name), op];
        for (w, cell) in widths.iter_mut().zip(cells) {
            *w = (*w).max(cell);
        }
        for (role, body) in &row.bodies {
            widths[0] = widths[0].max(indent + 2 + role.chars().count() + 1);
            measure_layers(*body, depth + 2, widths);
        }
    }
}

/// How many columns `text` takes in the table: its characters (a byte each
/// in ASCII, the usual case).
fn text_width(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    }
}

/// Appends `count` spaces to `line`.
fn push_spaces(line: &mut String, mut count: usize) {
    const SPACES: &str = "                                ";
    while count > 0 {
        let now = count.min(SPACES.len());
        line.push_str(&SPACES[..now]);
        count -= now;
    }
}

/// The formatted cells of one layer row, reused from row to row.
#[derive(Default)]
struct LayerCells {
    id: String,
    op: String,
    outputs: String,
    /// The last shape written and its text (`[?0, ?1]`): the layers of a
    /// chain repeat their input's shape.
    last_dims: Vec<Expr>,
    last_shape: String,
}

impl LayerCells {
    fn fill(&mut self, row: &Row<'_>, depth: usize, memo: &Dims<'_>) {
        let node = row.node;
        self.id.clear();
        push_spaces(&mut self.id, 2 * depth);
        self.id.push_str(&node.id);
        self.op.clear();
        self.op.push_str(&node.op_type.name);
        self.op.push('-');
        self.op.push_str(&node.op_type.version);
        self.outputs.clear();
        for (i, (tensor, _)) in row.outputs().enumerate() {
            if i > 0 {
                self.outputs.push_str("; ");
            }
            self.outputs.push_str(tensor.element_type.name());
            self.outputs.push(' ');
            match tensor.shape.dims() {
                None => self.outputs.push_str("[...]"),
                Some(dims) => {
                    if self.last_dims[..] != *dims || self.last_shape.is_empty() {
                        self.last_shape.clear();
                        self.last_shape.push('[');
                        for (j, d) in dims.iter().enumerate() {
                            if j > 0 {
                                self.last_shape.push_str(", ");
                            }
                            match d.as_constant() {
                                Some(v) => self.last_shape.push_str(itoa::Buffer::new().format(v)),
                                None => memo.with_text(d, |text| self.last_shape.push_str(text)),
                            }
                        }
                        self.last_shape.push(']');
                        self.last_dims.clear();
                        self.last_dims.extend_from_slice(dims);
                    }
                    self.outputs.push_str(&self.last_shape);
                }
            }
            if row.declared || tensor.origin == ShapeOrigin::Declared {
                self.outputs.push_str(" (declared)");
            }
        }
    }
}

/// One row of the layers table (as [`write_table`] lays rows out).
fn write_layer_line(
    out: &mut dyn Write,
    line: &mut String,
    widths: &[usize; 3],
    cells: [&str; 4],
) -> io::Result<()> {
    line.clear();
    line.push(' ');
    for (i, cell) in cells.iter().enumerate() {
        line.push(' ');
        line.push_str(cell);
        if let Some(width) = widths.get(i) {
            let pad = width.saturating_sub(text_width(cell)) + 1;
            push_spaces(line, pad);
        }
    }
    line.truncate(line.trim_end().len());
    line.push('\n');
    out.write_all(line.as_bytes())
}

/// The report through serde, in the same order and layout as
/// [`Report::write_json`] (which the tests check against it).
impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut report = serializer.serialize_struct("Report", 8)?;
        report.serialize_field("schema_version", SCHEMA_VERSION)?;
        report.serialize_field("model", &self.graph.name)?;
        report.serialize_field("ir_version", &self.graph.ir_version)?;
        report.serialize_field("valid", &!self.diagnostics.iter().any(Diagnostic::is_error))?;
        report.serialize_field("symbols", &self.symbols)?;
        report.serialize_field(
            "nodes",
            &LayersJson {
                level: self.top(),
                dims: &self.dims,
            },
        )?;
        report.serialize_field("constraints", &self.constraints_json())?;
        report.serialize_field("diagnostics", &self.diagnostics_json())?;
        report.end()
    }
}

/// The layers of the JSON report, written by hand: each layer's `id`,
/// `name`, `type`, `version`, `outputs` and `body` (see [`RowJson`] and
/// [`OutputJson`], which serde writes the same way).
struct JsonLayers<'a, W: Write> {
    json: PrettyWriter<W>,
    dims: &'a Dims<'a>,
    last_shape: LastShape,
    last_tail: Option<LastTail<'a>>,
    /// The [`Pieces`] of each depth met so far, by depth.
    pieces: Vec<Option<Box<Pieces>>>,
    /// Each dim's bounds, between writing a shape and writing its bounds.
    bounds: Vec<[Option<i64>; 2]>,
}

/// Where the last `shape` and `bounds` were written: the layers of a chain
/// repeat their input's shape, which is then copied instead of written dim
/// by dim (each symbolic dim's text and bounds are looked up by expression).
#[derive(Default)]
struct LastShape {
    dims: Vec<Expr>,
    /// The depth of the output object the bytes were written in (their
    /// indentation).
    depth: usize,
    /// From the shape's `[` to the bounds' `]`, as
    /// [`PrettyWriter::position`]s.
    bytes: (usize, usize),
}

/// Where the last row's tail was written: its bytes from the end of its
/// name to the end of its `outputs` (type, version and outputs). A chain's
/// layers differ in their id and name only (each ReLU of a chain has the
/// type, version, output port and shape of the one before), so a row
/// whose tail would be the same copies it.
struct LastTail<'a> {
    tail: Tail<'a>,
    /// The depth of the row's members.
    depth: usize,
    /// Where the bytes are, as [`PrettyWriter::position`]s.
    bytes: (usize, usize),
}

/// What a row's tail is written from.
#[derive(Clone, Copy)]
struct Tail<'a> {
    node: &'a Node,
    tensors: &'a [TensorInfo],
    declared: bool,
}

/// What one output's object in a row's tail is written from: its port's
/// id, its element type, its shape and whether that was declared.
#[derive(PartialEq)]
struct TailOutput<'a> {
    port: u32,
    element_type: ElementType,
    shape: &'a Shape,
    declared: bool,
}

impl<'a> Tail<'a> {
    /// The outputs as [`write_tail`] writes them.
    fn outputs(&self) -> impl Iterator<Item = TailOutput<'a>> {
        let declared = self.declared;
        outputs_of(self.node, self.tensors).map(move |(tensor, port)| TailOutput {
            port: port.id,
            element_type: tensor.element_type,
            shape: &tensor.shape,
            declared: declared || tensor.origin == ShapeOrigin::Declared,
        })
    }

    /// Whether both tails are written as the same bytes: [`write_tail`]
    /// writes the type, the version and [`outputs`](Self::outputs), nothing
    /// else.
    fn same_as(&self, other: &Tail<'_>) -> bool {
        self.node.op_type == other.node.op_type && self.outputs().eq(other.outputs())
    }
}

/// What a layer's object whose members are at one depth has between its
/// values (commas, line breaks, indentation, keys, brackets), built once
/// per depth and then copied whole: a key written piece by piece was a
/// fifth of the report's instructions.
struct Pieces {
    /// `{`, the `id` key and the quote that opens its string (each
    /// piece before a string opens it, each piece after one closes it).
    id: Vec<u8>,
    name: Vec<u8>,
    op_type: Vec<u8>,
    version: Vec<u8>,
    /// The `outputs` key and `[`.
    outputs: Vec<u8>,
    /// Before the first output's port id: `{`, the `port` key and `"`.
    first_port: Vec<u8>,
    /// The same before the next ones, after a comma.
    next_port: Vec<u8>,
    /// The `"` after the port id, the `element_type` key.
    element_type: Vec<u8>,
    shape: Vec<u8>,
    declared: Vec<u8>,
    /// The end of an output's object.
    end_output: Vec<u8>,
    /// The end of the `outputs` array when it has elements.
    end_outputs: Vec<u8>,
    /// The end of the layer's object.
    end_row: Vec<u8>,
}

impl Pieces {
    /// The pieces of a layer whose members are at `depth`.
    fn new(depth: usize) -> Box<Self> {
        let output = depth + 2;
        // Closes a string, then the next member's key and the quote that
        // opens its string.
        let next_string = |depth: usize, key: &str| {
            piece(|json| {
                json.raw(b"\"");
                json.key(depth, false, key);
                json.raw(b"\"");
            })
        };
        // An output's `{`, its `port` key and the quote that opens the id.
        let port = |first: bool| {
            piece(|json| {
                json.new_line(depth + 1, first);
                json.raw(b"{");
                json.key(output, true, "port");
                json.raw(b"\"");
            })
        };
        Box::new(Pieces {
            id: piece(|json| {
                json.raw(b"{");
                json.key(depth, true, "id");
                json.raw(b"\"");
            }),
            name: next_string(depth, "name"),
            op_type: next_string(depth, "type"),
            version: next_string(depth, "version"),
            outputs: piece(|json| {
                json.raw(b"\"");
                json.key(depth, false, "outputs");
                json.raw(b"[");
            }),
            first_port: port(true),
            next_port: port(false),
            element_type: next_string(output, "element_type"),
            shape: piece(|json| {
                json.raw(b"\"");
                json.key(output, false, "shape");
            }),
            declared: piece(|json| {
                json.key(output, false, "declared");
                json.raw(b"true");
            }),
            end_output: piece(|json| {
                json.new_line(depth + 1, true);
                json.raw(b"}");
            }),
            end_outputs: piece(|json| {
                json.new_line(depth, true);
                json.raw(b"]");
            }),
            end_row: piece(|json| {
                json.new_line(depth - 1, true);
                json.raw(b"}");
            }),
        })
    }
}

impl<'a, W: Write> JsonLayers<'a, W> {
    /// The layers of `level` as a JSON array, its elements at `depth`.
    fn write_level(&mut self, level: Level<'a>, depth: usize) -> io::Result<()> {
        self.json.raw(b"[");
        let mut first = true;
        for row in level.rows() {
            self.json.new_line(depth, first);
            first = false;
            self.write_row(&row, depth + 1)?;
            self.json.write_full_chunk()?;
        }
        if !first {
            self.json.new_line(depth - 1, true);
        }
        self.json.raw(b"]");
        Ok(())
    }

    /// One layer's object, its members at `depth`.
    fn write_row(&mut self, row: &Row<'a>, depth: usize) -> io::Result<()> {
        if self.pieces.len() <= depth {
            self.pieces.resize_with(depth + 1, || None);
        }
        let pieces = self.pieces[depth].get_or_insert_with(|| Pieces::new(depth));
        let json = &mut self.json;
        let node = row.node;
        json.raw(&pieces.id);
        json.string_contents(&node.id);
        json.raw(&pieces.name);
        json.string_contents(&node.name);
        let tail = Tail {
            node,
            tensors: row.tensors,
            declared: row.declared,
        };
        let repeated = self.last_tail.as_ref().is_some_and(|last| {
            last.depth == depth
                && last.tail.same_as(&tail)
                && json.repeat(last.bytes.0, last.bytes.1)
        });
        if !repeated {
            let start = json.position();
            let shape = &mut self.last_shape;
            write_tail(
                json,
                pieces,
                shape,
                self.dims,
                &mut self.bounds,
                &tail,
                depth,
            );
            self.last_tail = Some(LastTail {
                tail,
                depth,
                bytes: (start, json.position()),
            });
        }
        if !row.bodies.is_empty() {
            let json = &mut self.json;
            json.key(depth, false, "body");
            json.raw(b"[");
            for (i, &(role, level)) in row.bodies.iter().enumerate() {
                self.json.new_line(depth + 1, i == 0);
                self.json.raw(b"{");
                self.json.key(depth + 2, true, "role");
                self.json.string(role);
                self.json.key(depth + 2, false, "nodes");
                self.write_level(level, depth + 3)?;
                self.json.new_line(depth + 1, true);
                self.json.raw(b"}");
            }
            self.json.new_line(depth, true);
            self.json.raw(b"]");
        }
        // Bodies may have added deeper pieces: this depth's are where they were.
        if let Some(pieces) = &self.pieces[depth] {
            self.json.raw(&pieces.end_row);
        }
        Ok(())
    }
}

/// A row's tail (see [`LastTail`]), its members at `depth`: from the quote
/// that closes the name to the `]` of `outputs`.
fn write_tail<W: Write>(
    json: &mut PrettyWriter<W>,
    pieces: &Pieces,
    last: &mut LastShape,
    memo: &Dims<'_>,
    bounds: &mut Vec<[Option<i64>; 2]>,
    tail: &Tail<'_>,
    depth: usize,
) {
    let node = tail.node;
    json.raw(&pieces.op_type);
    json.string_contents(&node.op_type.name);
    json.raw(&pieces.version);
    json.string_contents(&node.op_type.version);
    json.raw(&pieces.outputs);
    let mut first = true;
    for output in tail.outputs() {
        json.raw(if first {
            &pieces.first_port
        } else {
            &pieces.next_port
        });
        first = false;
        json.unsigned(u64::from(output.port));
        json.raw(&pieces.element_type);
        // An element type's name is a word: nothing to escape.
        json.raw(output.element_type.name().as_bytes());
        json.raw(&pieces.shape);
        match output.shape.dims() {
            None => {
                json.raw(b"null");
                json.key(depth + 2, false, "bounds");
                json.raw(b"null");
            }
            Some([]) => {
                json.raw(b"[]");
                json.key(depth + 2, false, "bounds");
                json.raw(b"[]");
            }
            Some(dims) => {
                let repeated = last.depth == depth
                    && last.dims[..] == *dims
                    && json.repeat(last.bytes.0, last.bytes.1);
                if !repeated {
                    let start = json.position();
                    write_shape_and_bounds(json, memo, bounds, dims, depth + 2);
                    last.bytes = (start, json.position());
                    last.dims.clear();
                    last.dims.extend_from_slice(dims);
                    last.depth = depth;
                }
            }
        }
        if output.declared {
            json.raw(&pieces.declared);
        }
        json.raw(&pieces.end_output);
    }
    if first {
        json.raw(b"]");
    } else {
        json.raw(&pieces.end_outputs);
    }
}

/// A shape's dims (an integer or an expression each), then the `bounds`
/// member (each dim's `[lo, hi]`), in an output object whose members are
/// at `depth`. `bounds` is room for the dims' bounds, each looked up with
/// its text.
fn write_shape_and_bounds<W: Write>(
    json: &mut PrettyWriter<W>,
    memo: &Dims<'_>,
    bounds: &mut Vec<[Option<i64>; 2]>,
    dims: &[ir::Dim],
    depth: usize,
) {
    bounds.clear();
    json.raw(b"[");
    for (i, dim) in dims.iter().enumerate() {
        json.new_line(depth + 1, i == 0);
        match dim.as_constant() {
            Some(value) => {
                json.integer(value);
                bounds.push([Some(value); 2]);
            }
            None => memo.with_text_and_bounds(dim, |text, dim_bounds| {
                json.string(text);
                bounds.push(dim_bounds);
            }),
        }
    }
    json.new_line(depth, true);
    json.raw(b"]");
    json.key(depth, false, "bounds");
    json.raw(b"[");
    for (i, &[lo, hi]) in bounds.iter().enumerate() {
        json.new_line(depth + 1, i == 0);
        json.raw(b"[");
        json.new_line(depth + 2, true);
        json.integer_or_null(lo);
        json.new_line(depth + 2, false);
        json.integer_or_null(hi);
        json.new_line(depth + 1, true);
        json.raw(b"]");
    }
    json.new_line(depth, true);
    json.raw(b"]");
}

/// A JSON array of what `make` iterates over, serialized as it is produced.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// A JSON string written from `Display`, without an intermediate `String`.
struct DisplayJson<T>(T);

impl<T: Display> Serialize for DisplayJson<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

/// One recorded assumption.
#[derive(Serialize)]
#[serde(bound(serialize = "E: Display"))]
struct ConstraintJson<'a, E: Display> {
    expr: DisplayJson<E>,
    node: &'a str,
    line: u32,
}

/// One diagnostic.
#[derive(Serialize)]
struct DiagnosticJson<'a> {
    severity: ir::Severity,
    rule: &'static str,
    node: Option<&'a str>,
    line: Option<u32>,
    column: Option<u32>,
    message: &'a str,
    #[serde(skip_serializing_if = "no_notes")]
    notes: &'a [String],
}

fn no_notes(notes: &&[String]) -> bool {
    notes.is_empty()
}

/// The layers of a level, in topological order, as a JSON array.
struct LayersJson<'a> {
    level: Level<'a>,
    dims: &'a Dims<'a>,
}

impl Serialize for LayersJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.level.rows().map(|row| RowJson {
            row,
            dims: self.dims,
        }))
    }
}

/// One layer: `id`, `name`, `type`, `version`, `outputs`, and `body` for the
/// bodies inference reached (absent when there are none).
struct RowJson<'a> {
    row: Row<'a>,
    dims: &'a Dims<'a>,
}

impl Serialize for RowJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Row { node, bodies, .. } = &self.row;
        let fields = 5 + usize::from(!bodies.is_empty());
        let mut json = serializer.serialize_struct("NodeReport", fields)?;
        json.serialize_field("id", &node.id)?;
        json.serialize_field("name", &node.name)?;
        json.serialize_field("type", &node.op_type.name)?;
        json.serialize_field("version", &node.op_type.version)?;
        json.serialize_field(
            "outputs",
            &Seq(|| {
                self.row.outputs().map(|(tensor, port)| OutputJson {
                    port,
                    tensor,
                    declared: self.row.declared || tensor.origin == ShapeOrigin::Declared,
                    dims: self.dims,
                })
            }),
        )?;
        if !bodies.is_empty() {
            json.serialize_field(
                "body",
                &Seq(|| {
                    bodies.iter().map(|&(role, level)| BodyJson {
                        role,
                        nodes: LayersJson {
                            level,
                            dims: self.dims,
                        },
                    })
                }),
            )?;
        }
        json.end()
    }
}

/// One body of a layer: its role (`body`, `then_body`, `else_body`) and its
/// layers.
#[derive(Serialize)]
struct BodyJson<'a> {
    role: &'static str,
    nodes: LayersJson<'a>,
}

/// One output tensor: `port`, `element_type`, `shape` (an integer per static
/// dim, an expression otherwise; `null` for an unknown rank), `bounds` (each
/// dim's `[lo, hi]`, `null` where unbounded) and `declared` (present, and
/// true, when the shape is the file's declaration).
struct OutputJson<'a> {
    port: &'a PortDecl,
    tensor: &'a TensorInfo,
    declared: bool,
    dims: &'a Dims<'a>,
}

impl Serialize for OutputJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let fields = 4 + usize::from(self.declared);
        let mut json = serializer.serialize_struct("OutputReport", fields)?;
        json.serialize_field("port", &DisplayJson(self.port.id))?;
        json.serialize_field("element_type", &DisplayJson(self.tensor.element_type))?;
        let shape = &self.tensor.shape;
        let memo = self.dims;
        json.serialize_field(
            "shape",
            &shape.dims().map(|dims| {
                Seq(move || {
                    dims.iter().map(move |d| match d.as_constant() {
                        Some(v) => DimJson::Static(v),
                        None => DimJson::Symbolic(SymbolicJson { dim: d, dims: memo }),
                    })
                })
            }),
        )?;
        json.serialize_field("bounds", &BoundsJson { shape, dims: memo })?;
        if self.declared {
            json.serialize_field("declared", &true)?;
        }
        json.end()
    }
}

/// A dim of a shape: an integer, or its expression as a string.
#[derive(Serialize)]
#[serde(untagged)]
enum DimJson<'a> {
    Static(i64),
    Symbolic(SymbolicJson<'a>),
}

/// A symbolic dim's expression, as a JSON string.
struct SymbolicJson<'a> {
    dim: &'a Expr,
    dims: &'a Dims<'a>,
}

impl Serialize for SymbolicJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.dims
            .with_text(self.dim, |text| serializer.serialize_str(text))
    }
}

/// Each dim's interval `[lo, hi]`, `null` where unbounded (`null` for an
/// unknown rank).
struct BoundsJson<'a> {
    shape: &'a Shape,
    dims: &'a Dims<'a>,
}

impl Serialize for BoundsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.shape.dims() {
            None => serializer.serialize_none(),
            Some(dims) => serializer.collect_seq(dims.iter().map(|d| self.dims.bounds(d))),
        }
    }
}

fn json_bound(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "-inf".to_owned(),
        other => other.to_string(),
    }
}

/// Left-aligned columns, two spaces apart, indented by two.
fn write_table<const N: usize>(out: &mut dyn Write, rows: &[[String; N]]) -> io::Result<()> {
    let mut widths = [0usize; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in rows {
        let mut line = String::from(" ");
        for (i, cell) in row.iter().enumerate() {
            line.push(' ');
            line.push_str(cell);
            if i + 1 < N {
                let pad = widths[i] - cell.chars().count() + 1;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn symbols_json(
    symbols: &SymbolTable,
    used: &BTreeSet<SymbolId>,
) -> serde_json::Map<String, serde_json::Value> {
    used.iter()
        .map(|&s| {
            let info = symbols.info(s);
            let mut entry = serde_json::Map::new();
            entry.insert("min".into(), info.range.lo.into());
            entry.insert("max".into(), info.range.hi.into());
            if let Some(upper) = &info.upper {
                entry.insert("upper".into(), symbols.display(upper).to_string().into());
            }
            if let Some(p) = &info.provenance {
                let origin = if p.line > 0 {
                    format!("{}, line {}", p.reason, p.line)
                } else {
                    p.reason.clone()
                };
                entry.insert("origin".into(), origin.into());
            }
            (
                symbols.display(&Expr::symbol(s)).to_string(),
                serde_json::Value::Object(entry),
            )
        })
        .collect()
}

fn predicate_symbols(p: &symdim::Predicate) -> BTreeSet<SymbolId> {
    use symdim::Predicate::*;
    match p {
        Eq(a, b) | Ne(a, b) | Lt(a, b) | Le(a, b) | Gt(a, b) | Ge(a, b) => {
            a.symbols().union(&b.symbols()).copied().collect()
        }
        Divides { expr, .. } => expr.symbols(),
        Or(ps) | And(ps) => ps.iter().flat_map(predicate_symbols).collect(),
    }
}

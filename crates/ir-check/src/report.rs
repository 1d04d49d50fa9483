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

use ir::{Diagnostic, Graph, Node, NodeId, PortDecl, Shape, SymbolId};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use shape_infer::engine::BodyOutcome;
use shape_infer::{Inference, NodeOutcome, ShapeOrigin, TensorInfo};
use symdim::{Expr, SymbolTable};

use crate::pretty::Pretty;

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

/// The text of symbolic dims, computed once per expression: a model's
/// layers repeat a few expressions (a convolution's output dims pass
/// through its activation unchanged). Their bounds need no memo here:
/// [`SymbolTable::bounds`] keeps its own (bounding a nested rounding,
/// `floor((floor((H - 1)/2) - 1)/2) + 1`, was the report's costliest step).
struct Dims<'a> {
    symbols: &'a SymbolTable,
    texts: RefCell<ahash::AHashMap<Expr, Box<str>>>,
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

    /// Calls `use_text` with the text of `dim`, a symbolic dim.
    fn with_text<R>(&self, dim: &Expr, use_text: impl FnOnce(&str) -> R) -> R {
        let mut texts = self.texts.borrow_mut();
        if let Some(text) = texts.get(dim) {
            return use_text(text);
        }
        if texts.len() >= Self::REMEMBERED {
            texts.clear();
        }
        let text = self.symbols.display(dim).to_string().into_boxed_str();
        use_text(texts.entry(dim.clone()).or_insert(text))
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
            let node = self.graph.graph.node_weight(id)?;
            let (tensors, declared) = match self.outcomes.get(id.index())? {
                NodeOutcome::Inferred(t) => (t.as_slice(), false),
                NodeOutcome::Declared(t) => (t.as_slice(), true),
            };
            let bodies = self
                .graph
                .bodies(id)
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
                .collect();
            Some(Row {
                node,
                tensors,
                declared,
                bodies,
            })
        })
    }

    /// Adds the symbols of every dim of every layer (bodies included) to `used`.
    fn collect_symbols(self, used: &mut BTreeSet<SymbolId>) {
        for row in self.rows() {
            for tensor in row.tensors {
                if let Some(dims) = tensor.shape.dims() {
                    dims.iter().for_each(|d| used.extend(d.symbols()));
                }
            }
            for (_, body) in row.bodies {
                body.collect_symbols(used);
            }
        }
    }
}

impl<'a> Row<'a> {
    /// Each output tensor with its port (for a Result, its input port).
    fn outputs(&self) -> impl Iterator<Item = (&'a TensorInfo, &'a PortDecl)> + '_ {
        let is_result = matches!(self.node.op, ir::Op::Result);
        let ports = self
            .node
            .outputs
            .iter()
            .chain(self.node.inputs.iter().take(usize::from(is_result)));
        self.tensors.iter().zip(ports)
    }
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
        let mut used = BTreeSet::new();
        top.collect_symbols(&mut used);
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
            layers: top.rows().count(),
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

    /// Writes the JSON report, one object and a newline. The serializer
    /// writes a few bytes at a time: `out` is a type of its own (a
    /// `BufWriter`, a `Vec`), not a `dyn Write`, so that each write is a
    /// copy into its buffer.
    pub fn write_json<W: Write>(&self, mut out: W) -> io::Result<()> {
        let mut serializer = serde_json::Serializer::with_formatter(&mut out, Pretty::default());
        self.serialize(&mut serializer).map_err(io::Error::from)?;
        out.write_all(b"\n")
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
        let op = node.op_type.name.chars().count() + 1 + node.op_type.version.chars().count();
        let cells = [
            indent + node.id.chars().count(),
            node.name.chars().count(),
            op,
        ];
        for (w, cell) in widths.iter_mut().zip(cells) {
            *w = (*w).max(cell);
        }
        for (role, body) in &row.bodies {
            widths[0] = widths[0].max(indent + 2 + role.chars().count() + 1);
            measure_layers(*body, depth + 2, widths);
        }
    }
}

/// The formatted cells of one layer row, reused from row to row.
#[derive(Default)]
struct LayerCells {
    id: String,
    op: String,
    outputs: String,
}

impl LayerCells {
    fn fill(&mut self, row: &Row<'_>, depth: usize, memo: &Dims<'_>) {
        let node = row.node;
        self.id.clear();
        let _ = write!(self.id, "{}{}", Indent(depth), node.id);
        self.op.clear();
        let _ = write!(self.op, "{}-{}", node.op_type.name, node.op_type.version);
        self.outputs.clear();
        for (i, (tensor, _)) in row.outputs().enumerate() {
            if i > 0 {
                self.outputs.push_str("; ");
            }
            let _ = write!(self.outputs, "{} ", tensor.element_type);
            match tensor.shape.dims() {
                None => self.outputs.push_str("[...]"),
                Some(dims) => {
                    self.outputs.push('[');
                    for (j, d) in dims.iter().enumerate() {
                        if j > 0 {
                            self.outputs.push_str(", ");
                        }
                        match d.as_constant() {
                            Some(v) => {
                                let _ = write!(self.outputs, "{v}");
                            }
                            None => memo.with_text(d, |text| self.outputs.push_str(text)),
                        }
                    }
                    self.outputs.push(']');
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
            let pad = width.saturating_sub(cell.chars().count()) + 1;
            line.extend(std::iter::repeat_n(' ', pad));
        }
    }
    out.write_all(line.trim_end().as_bytes())?;
    out.write_all(b"\n")
}

impl Serialize for Report<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut report = serializer.serialize_struct("Report", 8)?;
        report.serialize_field("schema_version", SCHEMA_VERSION)?;
        report.serialize_field("model", &self.graph.name)?;
        report.serialize_field("ir_version", &self.graph.ir_version)?;
        report.serialize_field("valid", &!self.diagnostics.iter().any(Diagnostic::is_error))?;
        report.serialize_field("symbols", &self.symbols)?;
        let symbols = &self.inference.symbols;
        report.serialize_field(
            "nodes",
            &LayersJson {
                level: self.top(),
                dims: &self.dims,
            },
        )?;
        report.serialize_field(
            "constraints",
            &Seq(|| {
                self.inference.constraints.iter().map(|c| ConstraintJson {
                    expr: DisplayJson(symbols.display_predicate(&c.predicate)),
                    node: &c.layer.name,
                    line: c.location.line,
                })
            }),
        )?;
        report.serialize_field(
            "diagnostics",
            &Seq(|| {
                self.diagnostics.iter().map(|d| DiagnosticJson {
                    severity: d.severity,
                    rule: d.rule,
                    node: d.layer.as_ref().map(|l| l.name.as_str()),
                    line: d.location.map(|l| l.line),
                    column: d.location.map(|l| l.column),
                    message: &d.message,
                    notes: &d.notes,
                })
            }),
        )?;
        report.end()
    }
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

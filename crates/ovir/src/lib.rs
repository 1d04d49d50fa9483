//! Check and run OpenVINO IR models from Rust.
//!
//! This crate is the front door of the toolkit: it reads an OpenVINO IR model
//! (the `.xml` + `.bin` pair), lets you replace input shapes with symbols,
//! infers the symbolic shape of every tensor, validates the graph, and runs it
//! on the CPU. The `ir-check` command-line tool is built on it.
//!
//! # Checking a model
//!
//! ```
//! # fn main() -> Result<(), ovir::Error> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ir-samples/transformer_block.xml");
//! let mut model = ovir::Model::open(path)?;
//! model.set_input_shape("x", "B,S,32")?;
//! let check = model.check(&ovir::CheckOptions::default());
//! assert!(check.is_valid());
//! let output = &check.outputs()[0];
//! assert_eq!(output.name(), "last_hidden_state/sink_port_0");
//! assert_eq!(output.shape_text(), "[B, S, 32]");
//! # Ok(())
//! # }
//! ```
//!
//! Each layer's outputs are there too, in topological order, with their
//! bounds and the assumptions (constraints) inference had to make:
//!
//! ```
//! # fn main() -> Result<(), ovir::Error> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ir-samples/strided_slice_reduce.xml");
//! let model = ovir::Model::open(path)?;
//! let check = model.check(&ovir::CheckOptions::default());
//! for layer in check.layers() {
//!     for output in layer.outputs() {
//!         println!("{} {}: {} {:?}", layer.type_name(), layer.name(), output.shape_text(), output.bounds());
//!     }
//! }
//! for constraint in check.constraints() {
//!     println!("assumed {} at `{}` (line {})", constraint.text, constraint.layer, constraint.line);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Diagnostics
//!
//! Nothing stops at the first problem: an invalid model still gives a
//! [`Check`], whose [`diagnostics`](Check::diagnostics) name the rule that
//! failed, the layer and the XML line. Only input that cannot be read at all
//! (a missing file, XML that is not well-formed) is an [`Error`].
//!
//! ```
//! # fn main() -> Result<(), ovir::Error> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ir-samples/broken/declared_shape_mismatch.xml");
//! let model = ovir::Model::open(path)?;
//! let check = model.check(&ovir::CheckOptions::default());
//! assert!(!check.is_valid());
//! let error = check.errors().next().expect("an error");
//! assert_eq!(error.rule, "declared-shape-mismatch");
//! assert!(error.location.is_some());
//! # Ok(())
//! # }
//! ```
//!
//! # Running a model
//!
//! ```
//! # fn main() -> Result<(), ovir::Error> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ir-samples/add_relu_static.xml");
//! use std::collections::HashMap;
//! let model = ovir::Model::open(path)?;
//! let check = model.check(&ovir::CheckOptions::default());
//! let x = ovir::Tensor::from_vec(vec![1, 3, 4, 4], vec![-1.0f32; 48])?;
//! let outputs = check.run(HashMap::from([("input".to_string(), x)]))?;
//! let y = &outputs["output/sink_port_0"];
//! assert_eq!(y.shape, [1, 3, 4, 4]);
//! assert!(y.to_vec::<f32>()?.iter().all(|&v| v >= 0.0)); // a ReLU's output
//! # Ok(())
//! # }
//! ```
//!
//! # Snapshot-testing your models' shapes
//!
//! [`Check::shape_report`] is a stable text listing (every layer's outputs in
//! topological order, then the constraints, then the diagnostics; no paths,
//! no timings), made for snapshot tests. With `insta` in your crate's
//! dev-dependencies, three lines in a test pin a model's shapes. The first
//! run fails and writes the report beside your test as
//! `snapshots/<module>__dynamic_batch_reshape.snap.new`, for you to review
//! and accept (`cargo insta review`) and commit; from then on, any change in
//! a shape, a constraint or a diagnostic fails the test:
//!
//! ```
//! # fn main() -> Result<(), ovir::Error> {
//! # let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ir-samples/dynamic_batch_reshape.xml");
//! let model = ovir::Model::open(path)?;
//! let report = model.check(&ovir::CheckOptions::default()).shape_report();
//! insta::assert_snapshot!("dynamic_batch_reshape", report);
//! # Ok(())
//! # }
//! ```
//!
//! (This example is itself a snapshot test, against
//! `crates/ovir/src/snapshots/rust_out__dynamic_batch_reshape.snap`: a doctest
//! is compiled as a crate named `rust_out`.)
//! The command-line equivalent is `ir-check MODEL.xml`, whose text output is
//! as stable.

#![deny(missing_docs)]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use shape_infer::{infer_validated_with_feeds, Inference, Registry};

pub use executor::{
    read_npy, write_npy, ExecError, LayerTime, OpTime, Precision, Profile, Tensor,
    PROFILE_LAYERS_SHOWN,
};
pub use ir::{Diagnostic, Dim, ElementType, Graph, LayerRef, Severity, Shape, SourceLocation};
pub use ir_xml::ReadError;
pub use shape_infer::overrides::OverrideError;
pub use symdim::SymbolTable;

/// What can go wrong before a model is checked, or while it runs.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The model cannot be read at all (missing file, malformed XML, wrong root).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// An input shape override names no input or has invalid dims.
    #[error("input shape `{spec}`: {source}")]
    InputShape {
        /// The override as given (`NAME=DIMS`).
        spec: String,
        /// Why it was refused.
        #[source]
        source: OverrideError,
    },
    /// [`Check::run`] on a model with errors.
    #[error("the model is invalid ({errors} error(s)); it cannot run")]
    Invalid {
        /// How many error diagnostics the check found.
        errors: usize,
    },
    /// The executor refused the model or the inputs, or a kernel failed.
    #[error(transparent)]
    Run(#[from] ExecError),
}

/// A model read from IR, ready to be checked.
///
/// Reading never stops at a problem inside the graph: what is wrong is kept
/// as diagnostics and reported by [`Model::check`].
#[derive(Debug, Clone)]
pub struct Model {
    source: String,
    graph: Graph,
    diagnostics: Vec<Diagnostic>,
    overridden: bool,
}

impl Model {
    /// Reads `xml` and its weights (the same path with the extension `.bin`;
    /// a missing weights file is reported by the check, not here). The
    /// weights are memory-mapped.
    pub fn open(xml: impl AsRef<Path>) -> Result<Model, Error> {
        Model::open_with_weights(xml, None::<&Path>)
    }

    /// Reads `xml` with the weights file `weights` (`None`: `xml` with the
    /// extension `.bin`).
    pub fn open_with_weights(
        xml: impl AsRef<Path>,
        weights: Option<impl AsRef<Path>>,
    ) -> Result<Model, Error> {
        let xml = xml.as_ref();
        let source = std::fs::read_to_string(xml).map_err(|source| ReadError::Io {
            path: xml.to_owned(),
            source,
        })?;
        let read =
            ir_xml::read_model_with_weights_of(&source, xml, weights.as_ref().map(|w| w.as_ref()))?;
        Ok(Model::from_read(source, read))
    }

    /// Reads IR text held in memory, with `weights` as the content of its
    /// `.bin` (`None`: there is no weights file).
    pub fn from_memory(xml: impl Into<String>, weights: Option<Vec<u8>>) -> Result<Model, Error> {
        let source = xml.into();
        let read = ir_xml::read_model_from_str(&source, weights.map(ir::TensorBytes::from_vec))?;
        Ok(Model::from_read(source, read))
    }

    /// A model already parsed from `source` (for callers that parse themselves).
    pub fn from_read(source: String, read: ir_xml::ReadOutcome) -> Model {
        Model {
            source,
            graph: read.graph,
            diagnostics: read.diagnostics,
            overridden: false,
        }
    }

    /// Replaces the shape of the input (Parameter) whose layer name or output
    /// tensor name is `input`. `dims` is comma-separated: integers, `?` or
    /// `-1`, intervals `LO..HI`, `LO..`, `..HI`, or symbol names (`N,3,H,W`);
    /// `[]` is a scalar. A name used twice is the same symbol.
    ///
    /// The shapes the file declares on ports are no longer compared with the
    /// inferred ones afterwards: they describe the old input shapes.
    pub fn set_input_shape(&mut self, input: &str, dims: &str) -> Result<&mut Model, Error> {
        self.set_input_shape_spec(&format!("{input}={dims}"))
    }

    /// [`Model::set_input_shape`] with the input and its dims written as one
    /// `NAME=DIMS` string, as a command line takes them (`x=N,3,H,W`).
    pub fn set_input_shape_spec(&mut self, spec: &str) -> Result<&mut Model, Error> {
        let warnings =
            shape_infer::overrides::apply_override(&mut self.graph, spec).map_err(|source| {
                Error::InputShape {
                    spec: spec.to_owned(),
                    source,
                }
            })?;
        self.diagnostics.extend(warnings);
        self.overridden = true;
        Ok(self)
    }

    /// The IR text the model was read from (diagnostics quote its lines).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The graph as read, with the input shape overrides applied.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// Validates the graph and infers every tensor's shape.
    pub fn check(&self, options: &CheckOptions) -> Check<'_> {
        self.check_validated(options, self.validate_structure())
    }

    /// The diagnostics of the graph's structure alone (ids, edges, ports, a
    /// cycle), the first half of [`Model::check`], for [`Model::check_validated`].
    #[doc(hidden)]
    pub fn validate_structure(&self) -> Structure {
        let feeds = self.graph.input_feeds();
        Structure {
            diagnostics: shape_infer::validate::validate_with_feeds(&self.graph, &feeds),
            feeds,
        }
    }

    /// [`Model::check`] after the structural validation, already run (so a
    /// caller can time the two steps apart).
    #[doc(hidden)]
    pub fn check_validated(&self, options: &CheckOptions, structure: Structure) -> Check<'_> {
        let options = shape_infer::Options {
            allow_unknown_ops: options.allow_unknown_ops,
            check_declared_shapes: !self.overridden,
            strict_spec: options.strict_spec,
        };
        let inference = infer_validated_with_feeds(
            &self.graph,
            Registry::shared(),
            &options,
            structure.diagnostics,
            &structure.feeds,
        );
        let mut diagnostics = self.diagnostics.clone();
        diagnostics.extend(inference.diagnostics.iter().cloned());
        diagnostics.sort_by_key(|d| (d.location.map(|l| (l.line, l.column)), d.severity));
        Check {
            model: self,
            inference,
            diagnostics,
        }
    }
}

/// What [`Model::validate_structure`] found, for [`Model::check_validated`]:
/// the structural diagnostics, and how the graph's inputs are fed, which
/// inference reads too (built once, not once per step).
#[doc(hidden)]
#[derive(Debug)]
pub struct Structure {
    diagnostics: Vec<Diagnostic>,
    feeds: ir::InputFeeds,
}

/// How to check a model.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Go on past ops this toolkit does not know with the shapes the file
    /// declares on their ports, reported as warnings instead of errors.
    pub allow_unknown_ops: bool,
    /// Report what OpenVINO's runtime accepts beyond its own specification
    /// (Select's `cond` broadcast both ways, Squeeze of a dim other than 1)
    /// as errors instead of warnings.
    pub strict_spec: bool,
}

/// The outcome of checking a [`Model`]: every tensor's shape and every
/// diagnostic.
#[derive(Debug)]
pub struct Check<'m> {
    model: &'m Model,
    inference: Inference,
    diagnostics: Vec<Diagnostic>,
}

impl<'m> Check<'m> {
    /// The model checked.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// Whether no diagnostic is an error.
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every diagnostic (reading, validation, inference), in XML line order.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The error diagnostics.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The symbols the shapes are written in: the model's own and those
    /// inference created (data-dependent sizes).
    pub fn symbols(&self) -> &SymbolTable {
        &self.inference.symbols
    }

    /// The top-level layers in topological order (file order if the graph
    /// has a cycle).
    pub fn layers(&self) -> impl Iterator<Item = Layer<'_>> {
        self.inference
            .order
            .iter()
            .map(move |&id| self.layer_of(id))
    }

    /// The top-level layer named `name`.
    pub fn layer(&self, name: &str) -> Option<Layer<'_>> {
        let graph = &self.model.graph;
        let (id, _) = graph.nodes().find(|(_, node)| node.name == name)?;
        Some(self.layer_of(id))
    }

    fn layer_of(&self, id: ir::NodeId) -> Layer<'_> {
        Layer {
            node: self.model.graph.node(id),
            outputs: self.inference.outcome(id).outputs(),
            symbols: &self.inference.symbols,
        }
    }

    /// The tensor each Result receives, in file order, named after the Result.
    pub fn outputs(&self) -> Vec<Output<'_>> {
        let graph = &self.model.graph;
        graph
            .results()
            .filter_map(|(id, node)| {
                let source = *graph.input_sources(id).first()?.first()?;
                let info = self
                    .inference
                    .outcome(source.node)
                    .outputs()
                    .get(source.output)?;
                Some(Output {
                    name: &node.name,
                    info,
                    symbols: &self.inference.symbols,
                })
            })
            .collect()
    }

    /// The assumptions inference made about symbols (`S == 1` where a
    /// broadcast needs it), each with the layer that made it.
    pub fn constraints(&self) -> Vec<ConstraintView> {
        let symbols = &self.inference.symbols;
        self.inference
            .constraints
            .iter()
            .map(|c| ConstraintView {
                text: symbols.display_predicate(&c.predicate).to_string(),
                layer: c.layer.name.clone(),
                line: c.location.line,
            })
            .collect()
    }

    /// A stable text listing of the check, for snapshot tests: one line per
    /// top-level layer output (`Type name: port element-type shape`) in
    /// topological order, then the constraints, then the diagnostics
    /// (`severity[rule] line N: message`). It names no file and no time.
    pub fn shape_report(&self) -> String {
        let mut out = String::new();
        for layer in self.layers() {
            for (port, output) in layer.outputs().iter().enumerate() {
                let _ = writeln!(
                    out,
                    "{}-{} {}: {} {} {}",
                    layer.type_name(),
                    layer.version(),
                    layer.name(),
                    port,
                    output.element_type(),
                    output.shape_text()
                );
            }
        }
        for c in self.constraints() {
            let _ = writeln!(out, "assume {} (`{}`, line {})", c.text, c.layer, c.line);
        }
        for d in &self.diagnostics {
            let line = d
                .location
                .map_or(String::new(), |l| format!(" line {}", l.line));
            let _ = writeln!(out, "{}[{}]{line}: {}", d.severity, d.rule, d.message);
        }
        out
    }

    /// Runs the model on the CPU. `inputs` are keyed by Parameter layer name
    /// or output tensor name; the outputs are keyed by Result layer name.
    /// Input dims must fit the (overridden) input shapes; a model with
    /// errors does not run.
    pub fn run(&self, inputs: HashMap<String, Tensor>) -> Result<HashMap<String, Tensor>, Error> {
        self.runner()?.run(inputs)
    }

    /// Prepares the model to run (plans the tensors' lifetimes, checks every
    /// op has a kernel) once, for running it many times, as a benchmark does.
    /// A model with errors does not run.
    pub fn runner(&self) -> Result<Runner, Error> {
        self.runner_with_precision(Precision::default())
    }

    /// [`Check::runner`] computing the model's f16 values as `precision`
    /// says: as OpenVINO's CPU plugin does (f32 between layers, the default)
    /// or rounded to f16 after every layer.
    pub fn runner_with_precision(&self, precision: Precision) -> Result<Runner, Error> {
        let errors = self.errors().count();
        if errors > 0 {
            return Err(Error::Invalid { errors });
        }
        Ok(Runner {
            executor: executor::Executor::with_precision(&self.model.graph, precision)?,
            state: Mutex::default(),
        })
    }

    /// The engine's inference, for the toolkit's own tools.
    #[doc(hidden)]
    pub fn inference(&self) -> &Inference {
        &self.inference
    }
}

/// A checked model ready to run on the CPU, from [`Check::runner`].
///
/// Runs use rayon's current thread pool: run inside
/// `rayon::ThreadPool::install` to choose the number of threads.
///
/// A stateful model's variables (ReadValue, Assign) live in the runner, as
/// in an OpenVINO infer request: the first run reads their initial values,
/// each later run what the previous one assigned, until
/// [`Runner::reset_state`].
#[derive(Debug)]
pub struct Runner {
    executor: executor::Executor,
    /// The variables' values; a lock so that `run` takes `&self`.
    state: Mutex<executor::State>,
}

impl Runner {
    /// Runs the model once, as [`Check::run`] does, with the variables'
    /// values the previous run left (a failed run leaves them unchanged).
    pub fn run(&self, inputs: HashMap<String, Tensor>) -> Result<HashMap<String, Tensor>, Error> {
        // A panic in another run cannot leave a half-written state: runs
        // write it only when they succeed.
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(self.executor.run_with_state(inputs, &mut state)?)
    }

    /// The ids of the model's variables (empty for a stateless model).
    pub fn variables(&self) -> Vec<String> {
        self.executor.variables()
    }

    /// The same runner timing every layer of its runs from now on, for
    /// [`Runner::profile`] (a layer with bodies is timed as a whole). Nothing
    /// is printed.
    pub fn with_profiling(self) -> Runner {
        Runner {
            executor: self.executor.with_profiling(),
            state: self.state,
        }
    }

    /// Where the time of the runs so far went, per op type and per layer
    /// (its `Display` is a table); `None` unless made
    /// [`Runner::with_profiling`].
    pub fn profile(&self) -> Option<Profile> {
        self.executor.profile()
    }

    /// Forgets the variables' values: the next run reads the initial values.
    pub fn reset_state(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .reset();
    }
}

/// One layer of a checked model.
#[derive(Debug, Clone, Copy)]
pub struct Layer<'c> {
    node: &'c ir::Node,
    outputs: &'c [shape_infer::TensorInfo],
    symbols: &'c SymbolTable,
}

impl<'c> Layer<'c> {
    /// The layer's name (OpenVINO's friendly name).
    pub fn name(&self) -> &'c str {
        &self.node.name
    }

    /// The layer's `id` in the file.
    pub fn id(&self) -> &'c str {
        &self.node.id
    }

    /// The op type (`Convolution`).
    pub fn type_name(&self) -> &'c str {
        &self.node.op_type.name
    }

    /// The opset the op comes from (`opset1`).
    pub fn version(&self) -> &'c str {
        &self.node.op_type.version
    }

    /// Where the `<layer>` element starts in the XML.
    pub fn location(&self) -> SourceLocation {
        self.node.location
    }

    /// The layer's outputs, by output port.
    pub fn outputs(&self) -> Vec<Output<'c>> {
        self.outputs
            .iter()
            .map(|info| Output {
                name: &self.node.name,
                info,
                symbols: self.symbols,
            })
            .collect()
    }
}

/// One tensor of a checked model: its element type and symbolic shape.
#[derive(Debug, Clone, Copy)]
pub struct Output<'c> {
    name: &'c str,
    info: &'c shape_infer::TensorInfo,
    symbols: &'c SymbolTable,
}

impl<'c> Output<'c> {
    /// The name of the layer that gives it (for [`Check::outputs`], the Result's).
    pub fn name(&self) -> &'c str {
        self.name
    }

    /// The element type.
    pub fn element_type(&self) -> ElementType {
        self.info.element_type
    }

    /// The symbolic shape (dims are expressions over [`Check::symbols`]).
    pub fn shape(&self) -> &'c Shape {
        &self.info.shape
    }

    /// The shape as text, with symbol names: `[N, 3, floor((H - 1)/2) + 1]`,
    /// or `[...]` when the rank is unknown.
    pub fn shape_text(&self) -> String {
        self.info.shape.display(self.symbols).to_string()
    }

    /// Each dim as text, when the rank is known.
    pub fn dims_text(&self) -> Option<Vec<String>> {
        let dims = self.info.shape.dims()?;
        Some(
            dims.iter()
                .map(|d| self.symbols.display(d).to_string())
                .collect(),
        )
    }

    /// The dims, when every one is a known integer.
    pub fn static_dims(&self) -> Option<Vec<i64>> {
        self.info.shape.to_static()
    }

    /// Each dim's lowest and highest value (`None`: unbounded), when the rank
    /// is known.
    pub fn bounds(&self) -> Option<Vec<(Option<i64>, Option<i64>)>> {
        let dims = self.info.shape.dims()?;
        Some(
            dims.iter()
                .map(|d| match self.symbols.bounds(d) {
                    Ok(b) => (b.lo, b.hi),
                    Err(_) => (None, None),
                })
                .collect(),
        )
    }

    /// Whether the shape is the one the file declares (the op is unknown or
    /// its rule failed) rather than inferred.
    pub fn is_declared(&self) -> bool {
        self.info.origin == shape_infer::ShapeOrigin::Declared
    }
}

/// An assumption inference made about the symbols.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstraintView {
    /// The predicate, with symbol names (`S == 1 or S == T`).
    pub text: String,
    /// The layer whose rule needed it.
    pub layer: String,
    /// That layer's XML line.
    pub line: u32,
}

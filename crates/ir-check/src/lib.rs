//! The `ir-check` tool: read an OpenVINO IR model, validate it, infer every
//! tensor's shape symbolically, and report.
//!
//! Exit status: 0 valid, 1 invalid graph, 2 usage error or unreadable input.
//! [`run`] does all the work and returns what to print, so tests and other
//! tools can drive it without a process.

pub mod diagnostics;
pub mod dot;
pub mod report;
pub mod run;
pub mod sarif;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Parser, ValueEnum};
use ir::Diagnostic;
use shape_infer::{infer_validated, validate::validate, Options, Registry};

/// Exit status of a valid model.
pub const EXIT_VALID: u8 = 0;
/// Exit status of an invalid model.
pub const EXIT_INVALID: u8 = 1;
/// Exit status of a usage error or unreadable input.
pub const EXIT_USAGE: u8 = 2;

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people, with compiler-style diagnostics on stderr.
    Text,
    /// One JSON object on stdout (schema: docs/report.schema.json).
    Json,
    /// A SARIF 2.1.0 log of the diagnostics on stdout, for CI and editors.
    Sarif,
    /// A Graphviz graph on stdout, shapes on the edges, failing layers in red.
    Dot,
}

/// The command line.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "ir-check",
    version,
    about = "Validate an OpenVINO IR model and infer every tensor's shape symbolically."
)]
pub struct Args {
    /// The model's .xml file.
    pub model: PathBuf,
    /// The weights file (default: MODEL with the extension replaced by .bin).
    #[arg(long, value_name = "MODEL.bin")]
    pub weights: Option<PathBuf>,
    /// Override the shape of the Parameter whose layer name (or output tensor
    /// name) is NAME. DIMS: comma-separated integers, `?` or `-1`, `LO..HI`,
    /// `LO..`, `..HI`, or names of symbols (`x=N,3,H,W`); `[]` is a scalar.
    #[arg(long = "shape", value_name = "NAME=DIMS")]
    pub shapes: Vec<String>,
    /// Print where the time went on stderr, last:
    /// `timings_ms: read=R validate=V infer=I report=P total=T` (total is
    /// everything after the arguments are parsed, writing the report included).
    #[arg(long)]
    pub timings: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Go on past unknown ops with the shapes declared in the file (reported
    /// as warnings instead of errors).
    #[arg(long)]
    pub allow_unknown_ops: bool,
    /// Report what OpenVINO's runtime accepts beyond its own specification
    /// (Select's `cond` broadcast both ways, Squeeze of a dim other than 1)
    /// as errors instead of warnings.
    #[arg(long)]
    pub strict_spec: bool,
    /// Run the model on the CPU after checking it (only when it is valid).
    #[arg(long)]
    pub run: bool,
    /// With --run: the array for the Parameter whose layer or tensor name is
    /// NAME, as a numpy .npy file.
    #[arg(long = "input", value_name = "NAME=FILE.npy", requires = "run")]
    pub inputs: Vec<String>,
    /// With --run: where to write `<Result layer name>.npy` for each Result
    /// (created if missing; characters other than letters, digits, `.`, `-`
    /// and `_` become `_`).
    #[arg(long, value_name = "DIR", default_value = ".", requires = "run")]
    pub output_dir: PathBuf,
    /// With --run: run the model N more times after the first and print
    /// `latency_ms: min=X median=Y max=Z runs=N threads=T` on stderr (the
    /// outputs are written once).
    #[arg(long, value_name = "N", default_value_t = 0, requires = "run")]
    pub repeat: usize,
    /// With --run: the number of threads (default: the machine's cores).
    #[arg(long, value_name = "T", requires = "run", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

/// What a run prints and its exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub status: u8,
    /// How long each step took (zero for the steps not reached).
    pub timings: Timings,
}

/// The wall time of each step of a check, for `--timings`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timings {
    /// Reading the XML and mapping the weights, parsing into a graph.
    pub read: Duration,
    /// Applying `--shape` overrides and checking the graph's structure.
    pub validate: Duration,
    /// Inferring every tensor's shape.
    pub infer: Duration,
    /// Building and rendering the report (the caller adds writing it).
    pub report: Duration,
}

impl Timings {
    /// The `--timings` line: `timings_ms: read=R validate=V infer=I
    /// report=P total=T`, where `writing` is added to the report's time.
    pub fn line(&self, writing: Duration, total: Duration) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        format!(
            "timings_ms: read={:.3} validate={:.3} infer={:.3} report={:.3} total={:.3}\n",
            ms(self.read),
            ms(self.validate),
            ms(self.infer),
            ms(self.report + writing),
            ms(total)
        )
    }
}

/// Runs the tool.
pub fn run(args: &Args) -> Outcome {
    let file_name = args.model.display().to_string();
    let started = Instant::now();
    // Read once: the text is parsed and also quoted by the diagnostics.
    let source = match std::fs::read_to_string(&args.model) {
        Ok(source) => source,
        Err(e) => return usage_error(format!("cannot read `{file_name}`: {e}")),
    };
    let read =
        match ir_xml::read_model_with_weights_of(&source, &args.model, args.weights.as_deref()) {
            Ok(read) => read,
            Err(e) => return usage_error(format!("cannot read `{file_name}`: {e}")),
        };
    let read_time = started.elapsed();
    // The executor needs the graph as read (constants are shared views: cheap).
    let graph = args.run.then(|| read.graph.clone());
    let mut outcome = analyze(&file_name, &source, read, args);
    outcome.timings.read = read_time;
    match graph {
        Some(graph) if outcome.status == EXIT_VALID => {
            run::execute(&file_name, &source, graph, args, outcome)
        }
        _ => outcome,
    }
}

/// Checks a model already read (from `source`, shown as `file_name`): applies
/// the `--shape` overrides, validates, infers and renders the report. The
/// fuzzers drive the whole pipeline through this with in-memory bytes.
pub fn analyze(file_name: &str, source: &str, read: ir_xml::ReadOutcome, args: &Args) -> Outcome {
    let mut timings = Timings::default();
    let started = Instant::now();
    let mut graph = read.graph;
    let mut diagnostics: Vec<Diagnostic> = read.diagnostics;
    for spec in &args.shapes {
        match shape_infer::overrides::apply_override(&mut graph, spec) {
            Ok(warnings) => diagnostics.extend(warnings),
            Err(e) => return usage_error(format!("--shape {spec}: {e}")),
        }
    }
    let structural = validate(&graph);
    timings.validate = started.elapsed();

    let started = Instant::now();
    let options = Options {
        allow_unknown_ops: args.allow_unknown_ops,
        check_declared_shapes: args.shapes.is_empty(),
        strict_spec: args.strict_spec,
    };
    let inference = infer_validated(&graph, &Registry::standard(), &options, structural);
    diagnostics.extend(inference.diagnostics.iter().cloned());
    diagnostics.sort_by_key(|d| (d.location.map(|l| (l.line, l.column)), d.severity));
    timings.infer = started.elapsed();

    let started = Instant::now();
    let valid = !diagnostics.iter().any(Diagnostic::is_error);
    let report = report::Report::build(&graph, &inference, &diagnostics);
    let (stdout, stderr) = match args.format {
        Format::Json => (report.to_json(), String::new()),
        Format::Sarif => (
            sarif::render(file_name, source, &diagnostics),
            String::new(),
        ),
        Format::Dot => (
            dot::render(file_name, &graph, &inference, &diagnostics),
            String::new(),
        ),
        Format::Text => (
            report.to_text(),
            diagnostics::render_all(file_name, source, &diagnostics),
        ),
    };
    timings.report = started.elapsed();
    Outcome {
        stdout,
        stderr,
        status: if valid { EXIT_VALID } else { EXIT_INVALID },
        timings,
    }
}

pub(crate) fn usage_error(message: String) -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: format!("ir-check: error: {message}\n"),
        status: EXIT_USAGE,
        timings: Timings::default(),
    }
}

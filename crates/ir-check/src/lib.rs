//! The `ir-check` tool: read an OpenVINO IR model, validate it, infer every
//! tensor's shape symbolically, and report.
//!
//! Exit status: 0 valid, 1 invalid graph, 2 usage error or unreadable input.
//! [`run`] does all the work and returns what to print, so tests and other
//! tools can drive it without a process.

pub mod allocator;
pub mod diagnostics;
pub mod dot;
mod pretty;
pub mod report;
pub mod run;
pub mod sarif;

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{CommandFactory, Parser, ValueEnum};
use ovir::{Check, CheckOptions, Model};

/// Exit status of a valid model.
pub const EXIT_VALID: u8 = 0;
/// Exit status of an invalid model.
pub const EXIT_INVALID: u8 = 1;
/// Exit status of a usage error or unreadable input.
pub const EXIT_USAGE: u8 = 2;

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people on stdout; on stderr compiler-style diagnostics
    /// (grouped past three of one rule), then the verdict line, last.
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
    about = "Validate an OpenVINO IR model and infer every tensor's shape symbolically.",
    // The model is optional only for --completions: say so.
    override_usage = "ir-check [OPTIONS] <MODEL>\n       ir-check --completions <SHELL>"
)]
pub struct Args {
    /// The model's .xml file (required, except with --completions).
    #[arg(required_unless_present = "completions")]
    pub model: Option<PathBuf>,
    /// Print the shell completion script for SHELL on stdout and exit
    /// (bash: `source <(ir-check --completions bash)`).
    #[arg(long, value_name = "SHELL", conflicts_with = "model")]
    pub completions: Option<clap_complete::Shell>,
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
    /// Print only the diagnostics and the verdict line, not the table of
    /// layers (text format; `--format json` always has everything).
    #[arg(short, long)]
    pub quiet: bool,
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
    /// With --run: print on stderr, after the runs, where their time went:
    /// per op type the sum of its layers' fastest calls, then the N layers of
    /// the slowest fastest call. The environment variable `OVIR_PROFILE=N`
    /// asks the same (20 layers when its value is not a number); the flag
    /// wins.
    #[arg(long, value_name = "N", requires = "run")]
    pub profile: Option<usize>,
    /// With --run: how f16 values are computed: `plugin` as OpenVINO's CPU
    /// plugin does (in f32 between layers, rounded to f16 at the Results),
    /// `exact` rounded to f16 after every layer.
    #[arg(long, value_name = "POLICY", default_value = "plugin", requires = "run", value_parser = parse_precision)]
    pub precision: ovir::Precision,
    /// With --run: the number of threads (default: the machine's cores).
    #[arg(long, value_name = "T", requires = "run", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

impl Args {
    /// The arguments (after the program's name) when they are in the form
    /// scripts and benchmarks use: one model path and, at most once each,
    /// `--format FORMAT`, `--timings`, `--allow-unknown-ops`,
    /// `--strict-spec`, `-q`/`--quiet`. `None` for anything else (`--help`,
    /// other flags, `--format=json`, a repeated flag, a value clap would
    /// refuse), which clap then parses, with its messages. Building clap's
    /// description of the command (every flag and its help) and parsing
    /// with it cost a small model's process 0.06-0.1 ms of CPU and a dozen
    /// page faults (docs/performance.md); the result is the same `Args` (a
    /// test compares the two on every combination).
    pub fn parse_common<I>(arguments: I) -> Option<Args>
    where
        I: IntoIterator<Item = std::ffi::OsString>,
    {
        let mut model = None;
        let mut format = None;
        let (mut timings, mut allow_unknown_ops, mut strict_spec, mut quiet) =
            (false, false, false, false);
        // Sets a flag met for the first time; a repeated flag is clap's.
        let set = |flag: &mut bool| (!std::mem::replace(flag, true)).then_some(());
        let mut arguments = arguments.into_iter();
        while let Some(argument) = arguments.next() {
            match argument.as_encoded_bytes() {
                b"--timings" => set(&mut timings)?,
                b"--allow-unknown-ops" => set(&mut allow_unknown_ops)?,
                b"--strict-spec" => set(&mut strict_spec)?,
                b"-q" | b"--quiet" => set(&mut quiet)?,
                b"--format" if format.is_none() => {
                    let value = arguments.next()?;
                    format = Some(match value.as_encoded_bytes() {
                        b"text" => Format::Text,
                        b"json" => Format::Json,
                        b"sarif" => Format::Sarif,
                        b"dot" => Format::Dot,
                        _ => return None,
                    });
                }
                // A path: not empty, not taken for a flag.
                bytes if model.is_none() && !bytes.is_empty() && bytes[0] != b'-' => {
                    model = Some(PathBuf::from(argument));
                }
                _ => return None,
            }
        }
        Some(Args {
            model: Some(model?),
            completions: None,
            weights: None,
            shapes: Vec::new(),
            timings,
            quiet,
            format: format.unwrap_or(Format::Text),
            allow_unknown_ops,
            strict_spec,
            run: false,
            inputs: Vec::new(),
            output_dir: PathBuf::from("."),
            repeat: 0,
            profile: None,
            precision: ovir::Precision::Plugin,
            threads: None,
        })
    }
}

/// `--precision`'s value.
fn parse_precision(text: &str) -> Result<ovir::Precision, String> {
    ovir::Precision::parse(text).ok_or_else(|| format!("`{text}` is not `plugin` or `exact`"))
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

/// Runs the tool; the report is in the [`Outcome`]'s `stdout`.
pub fn run(args: &Args) -> Outcome {
    run_with(args, None, Teardown::Free)
}

/// [`run`], writing the report to `stdout` as it is produced (the report of
/// a 100,000-layer model is tens of MB: it is never held whole); the
/// [`Outcome`]'s `stdout` then holds only what is still to be printed after
/// it. With `--run`, whose section joins the report, the report is built in
/// memory and returned as [`run`] does. Write errors (a closed pipe) end the
/// report silently.
pub fn run_streaming(args: &Args, stdout: &mut dyn Write) -> Outcome {
    run_with(args, (!args.run).then_some(stdout), Teardown::Free)
}

/// [`run_streaming`] for a process that ends as soon as it has printed the
/// outcome (the `ir-check` binary): the model, its check and the file
/// mappings are left to the end of the process instead of being freed one
/// allocation at a time and unmapped (the kernel takes the whole address
/// space back at once).
pub fn run_streaming_then_exit(args: &Args, stdout: &mut dyn Write) -> Outcome {
    run_with(args, (!args.run).then_some(stdout), Teardown::LeaveToExit)
}

/// What becomes of the model and the mapped files once the report is out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Teardown {
    /// Dropped, as usual.
    Free,
    /// Forgotten: the process is about to end.
    LeaveToExit,
}

fn run_with(args: &Args, stdout: Option<&mut dyn Write>, teardown: Teardown) -> Outcome {
    if let Some(shell) = args.completions {
        return completions(shell);
    }
    let Some(path) = &args.model else {
        return usage_error("no model given: ir-check MODEL.xml".to_owned());
    };
    let file_name = path.display().to_string();
    let started = Instant::now();
    // Read once, mapped: the text is parsed and also quoted by the
    // diagnostics, and its pages are given back as the parse passes them
    // (the text of a million layers is 300 MB).
    let source = match ir_xml::MappedText::open(path) {
        Ok(source) => source,
        Err(e) => return usage_error(format!("cannot read `{file_name}`: {e}")),
    };
    let read = match ir_xml::read_model_mapped(&source, path, args.weights.as_deref()) {
        Ok(read) => read,
        Err(e) => return usage_error(format!("cannot read `{file_name}`: {e}")),
    };
    // The model gets no copy of the text: the report quotes the mapping.
    let model = Model::from_read(String::new(), read);
    let timings = Timings {
        read: started.elapsed(),
        ..Timings::default()
    };
    let outcome = check_model(
        &file_name,
        source.as_str(),
        model,
        args,
        timings,
        args.run,
        stdout,
        teardown,
    );
    if teardown == Teardown::LeaveToExit {
        std::mem::forget(source);
    }
    outcome
}

/// Checks a model already read (from `source`, shown as `file_name`): applies
/// the `--shape` overrides, validates, infers and renders the report (it
/// does not `--run`). The fuzzers drive the whole pipeline through this with
/// in-memory bytes.
pub fn analyze(file_name: &str, source: &str, read: ir_xml::ReadOutcome, args: &Args) -> Outcome {
    let model = Model::from_read(String::new(), read);
    check_model(
        file_name,
        source,
        model,
        args,
        Timings::default(),
        false,
        None,
        Teardown::Free,
    )
}

/// Applies the `--shape` overrides to `model`, checks it, renders the report
/// (to `sink` when there is one, else into the outcome's `stdout`) and, when
/// `run` is set and the model is valid, runs it. `source` is the text the
/// diagnostics quote (the model holds no copy); `timings` has the reading's
/// time; `teardown` says whether the model is freed at the end.
#[allow(clippy::too_many_arguments)]
fn check_model(
    file_name: &str,
    source: &str,
    mut model: Model,
    args: &Args,
    mut timings: Timings,
    run: bool,
    sink: Option<&mut dyn Write>,
    teardown: Teardown,
) -> Outcome {
    let started = Instant::now();
    for spec in &args.shapes {
        match model.set_input_shape_spec(spec) {
            Ok(_) => {}
            Err(ovir::Error::InputShape { source, .. }) => {
                return usage_error(format!("--shape {spec}: {source}"))
            }
            Err(other) => return usage_error(format!("--shape {spec}: {other}")),
        }
    }
    let structural = model.validate_structure();
    timings.validate = started.elapsed();

    let started = Instant::now();
    let options = CheckOptions {
        allow_unknown_ops: args.allow_unknown_ops,
        strict_spec: args.strict_spec,
    };
    let check = model.check_validated(&options, structural);
    timings.infer = started.elapsed();

    let started = Instant::now();
    let mut buffer = Vec::new();
    let stderr = match sink {
        Some(sink) => {
            let stderr = render(file_name, source, &check, args, sink);
            // Flushed here, so that the report's time includes writing it.
            let _ = sink.flush();
            stderr
        }
        None => render(file_name, source, &check, args, &mut buffer),
    };
    let stdout = String::from_utf8(buffer)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    timings.report = started.elapsed();
    let outcome = Outcome {
        stdout,
        stderr,
        status: if check.is_valid() {
            EXIT_VALID
        } else {
            EXIT_INVALID
        },
        timings,
    };
    let outcome = if run && check.is_valid() {
        run::execute(file_name, source, &check, args, outcome)
    } else {
        outcome
    };
    if teardown == Teardown::LeaveToExit {
        std::mem::forget(check);
        std::mem::forget(model);
    }
    outcome
}

/// Writes the report of `check` in the format `args` asks for to `stdout`
/// and returns what goes to stderr. A renderer finds the graph in
/// `check.model().graph()`, the inference in `check.inference()` and the
/// diagnostics, sorted by XML line, in `check.diagnostics()`. Write errors
/// (a closed pipe) end the report: nobody reads the rest.
fn render(
    file_name: &str,
    source: &str,
    check: &Check<'_>,
    args: &Args,
    stdout: &mut dyn Write,
) -> String {
    let diagnostics = check.diagnostics();
    let graph = check.model().graph();
    let report = || report::Report::new(graph, check.inference(), diagnostics);
    match args.format {
        Format::Json => {
            // The report gathers its own chunks: a buffer here would be
            // a second copy and more pages touched.
            let _ = report().write_json(&mut *stdout);
            let _ = stdout.flush();
            String::new()
        }
        Format::Sarif => {
            let sarif = sarif::render(file_name, source, diagnostics);
            let _ = stdout.write_all(sarif.as_bytes());
            String::new()
        }
        Format::Dot => {
            let dot = dot::render(file_name, graph, check.inference(), diagnostics);
            let _ = stdout.write_all(dot.as_bytes());
            String::new()
        }
        Format::Text => {
            let report = report();
            if !args.quiet {
                let _ = report.write_text(stdout);
            }
            let summary = format!(
                "{} layers, {} symbols, {} constraints",
                report.layer_count(),
                report.symbol_count(),
                report.constraint_count()
            );
            let mut stderr = diagnostics::render_all(file_name, source, diagnostics);
            stderr.push_str(&diagnostics::verdict(&summary, diagnostics));
            stderr
        }
    }
}

/// The completion script of `ir-check` for `shell`, generated by clap from
/// [`Args`], so it always knows every flag.
fn completions(shell: clap_complete::Shell) -> Outcome {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Args::command(), "ir-check", &mut script);
    Outcome {
        stdout: String::from_utf8_lossy(&script).into_owned(),
        stderr: String::new(),
        status: EXIT_VALID,
        timings: Timings::default(),
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

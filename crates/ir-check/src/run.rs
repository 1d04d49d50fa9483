//! `--run`: execute a valid model on the CPU with `.npy` inputs and write each
//! Result as `.npy`.
//!
//! Problems with the inputs (an unreadable file, a missing or unknown input, a
//! wrong dtype, rank or dim) are usage errors (exit 2) reported before
//! anything runs; a failure while running is an invalid model (exit 1).

use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

use ovir::{Check, ExecError, Tensor};

use crate::{diagnostics, usage_error, Args, Format, Outcome, EXIT_INVALID};

/// Runs the model `check` found valid (`checked` is that check's outcome)
/// and appends what was written to the report.
pub fn execute(file_name: &str, check: &Check<'_>, args: &Args, checked: Outcome) -> Outcome {
    let source = check.model().source();
    let mut inputs = HashMap::new();
    for spec in &args.inputs {
        let Some((name, path)) = spec.split_once('=') else {
            return usage_error(format!("--input `{spec}` is not of the form NAME=FILE.npy"));
        };
        match ovir::read_npy(Path::new(path)) {
            Ok(tensor) => {
                inputs.insert(name.to_owned(), tensor);
            }
            Err(e) => return usage_error(format!("--input {name}: `{path}`: {e}")),
        }
    }
    let threads = args
        .threads
        .map(usize::from)
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool,
        Err(e) => return usage_error(format!("--threads {threads}: {e}")),
    };
    let runner = match check.runner() {
        Ok(runner) => runner,
        Err(error) => return failure(file_name, source, error, checked),
    };
    // The repeats get the same inputs: keep a copy only when there are any.
    let repeat_inputs = (args.repeat > 0).then(|| inputs.clone());
    let outputs = match pool.install(|| runner.run(inputs)) {
        Ok(outputs) => outputs,
        Err(error) => return failure(file_name, source, error, checked),
    };
    let mut latency = None;
    if let Some(inputs) = repeat_inputs {
        let mut times = Vec::with_capacity(args.repeat);
        for _ in 0..args.repeat {
            let start = std::time::Instant::now();
            if let Err(error) = pool.install(|| runner.run(inputs.clone())) {
                return failure(file_name, source, error, checked);
            }
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        latency = Some(latency_line(&mut times, threads));
    }
    if let Err(e) = std::fs::create_dir_all(&args.output_dir) {
        return usage_error(format!(
            "cannot create `{}`: {e}",
            args.output_dir.display()
        ));
    }
    // Results in file order, so the listing is stable.
    let mut written = Vec::new();
    for (_, node) in check.model().graph().results() {
        let Some(tensor) = outputs.get(&node.name) else {
            continue;
        };
        let path = args
            .output_dir
            .join(format!("{}.npy", file_stem(&node.name)));
        if let Err(e) = ovir::write_npy(&path, tensor) {
            return usage_error(format!("cannot write `{}`: {e}", path.display()));
        }
        written.push((node.name.clone(), path.display().to_string(), tensor));
    }
    let mut outcome = checked;
    if let Some(line) = latency {
        outcome.stderr.push_str(&line);
    }
    let variables = runner.variables();
    let state = (!variables.is_empty()).then(|| state_line(&variables, args.repeat));
    match args.format {
        // Quiet: the diagnostics and the verdict only (the files are written).
        Format::Text if args.quiet => {}
        Format::Text => {
            let _ = writeln!(outcome.stdout, "\nrun: wrote {} output(s)", written.len());
            for (name, path, tensor) in &written {
                let _ = writeln!(outcome.stdout, "  {name}  {}  -> {path}", describe(tensor));
            }
            if let Some(line) = &state {
                let _ = writeln!(outcome.stdout, "  {line}");
            }
        }
        Format::Json => {
            outcome.stdout = with_run_section(&outcome.stdout, &written, &variables, args.repeat)
        }
        // Both describe the check; the outputs are in the files.
        Format::Sarif | Format::Dot => {}
    }
    outcome
}

/// `latency_ms: min=X median=Y max=Z runs=N threads=T`, the line
/// `--repeat` prints (the median of an even count is the mean of the middle
/// two).
fn latency_line(times: &mut [f64], threads: usize) -> String {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    let median = if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2.0
    };
    format!(
        "latency_ms: min={:.3} median={median:.3} max={:.3} runs={n} threads={threads}\n",
        times[0],
        times[n - 1]
    )
}

/// A run that failed: diagnostics of re-inference are rendered like the
/// checker's; input problems are usage errors; the rest invalid.
fn failure(file_name: &str, source: &str, error: ovir::Error, checked: Outcome) -> Outcome {
    let error = match error {
        ovir::Error::Run(error) => error,
        other => {
            return Outcome {
                stdout: checked.stdout,
                stderr: format!("ir-check: error: --run: {other}\n"),
                status: EXIT_INVALID,
                timings: checked.timings,
            }
        }
    };
    match error {
        ExecError::Inference(found) | ExecError::InvalidGraph(found) => Outcome {
            stdout: checked.stdout,
            stderr: format!(
                "{}INVALID when run with these inputs: {}\n",
                diagnostics::render_all(file_name, source, &found),
                diagnostics::counts(&found)
            ),
            status: EXIT_INVALID,
            timings: checked.timings,
        },
        ExecError::MissingInput { .. }
        | ExecError::UnknownInput { .. }
        | ExecError::DuplicateInput { .. }
        | ExecError::InputType { .. }
        | ExecError::InputRank { .. }
        | ExecError::InputDim { .. } => usage_error(format!("--run: {error}")),
        other => Outcome {
            stdout: checked.stdout,
            stderr: format!("ir-check: error: --run: {other}\n"),
            status: EXIT_INVALID,
            timings: checked.timings,
        },
    }
}

/// A Result's layer name as a file stem: letters, digits, `.`, `-` and `_`
/// stay; everything else (such as `/`) becomes `_`.
pub fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn describe(tensor: &Tensor) -> String {
    let dims: Vec<String> = tensor.shape.iter().map(ToString::to_string).collect();
    format!("{} [{}]", tensor.element_type, dims.join(", "))
}

/// What a run of a stateful model says of its variables: `--repeat` runs
/// keep them from one run to the next, as an OpenVINO infer request does,
/// and the outputs written are the first run's.
fn state_line(variables: &[String], repeat: usize) -> String {
    let names: Vec<String> = variables.iter().map(|v| format!("`{v}`")).collect();
    let names = names.join(", ");
    if repeat == 0 {
        format!("state: variable(s) {names} read their initial values (one run)")
    } else {
        format!(
            "state: variable(s) {names} kept from each run to the next over {} runs (--repeat {repeat}); the outputs are the first run's",
            repeat + 1
        )
    }
}

fn with_run_section(
    report: &str,
    written: &[(String, String, &Tensor)],
    variables: &[String],
    repeat: usize,
) -> String {
    let Ok(serde_json::Value::Object(mut object)) = serde_json::from_str(report) else {
        return report.to_owned();
    };
    let outputs: Vec<serde_json::Value> = written
        .iter()
        .map(|(name, path, tensor)| {
            serde_json::json!({
                "name": name,
                "file": path,
                "element_type": tensor.element_type.name(),
                "shape": tensor.shape,
            })
        })
        .collect();
    let mut run = serde_json::json!({ "outputs": outputs });
    if !variables.is_empty() {
        // The runs the variables were kept over (the first and the repeats).
        run["state"] = serde_json::json!({ "variables": variables, "runs": repeat + 1 });
    }
    object.insert("run".into(), run);
    let mut text = serde_json::to_string_pretty(&serde_json::Value::Object(object))
        .unwrap_or_else(|_| report.to_owned());
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::{file_stem, latency_line};

    #[test]
    fn the_latency_line_has_min_median_max() {
        let line = latency_line(&mut [3.0, 1.0, 2.0, 10.0], 2);
        assert_eq!(
            line,
            "latency_ms: min=1.000 median=2.500 max=10.000 runs=4 threads=2\n"
        );
        assert!(latency_line(&mut [4.0], 1).contains("median=4.000 max=4.000 runs=1"));
    }

    #[test]
    fn result_names_become_file_stems() {
        assert_eq!(file_stem("/encoder/layer.0/Add"), "_encoder_layer.0_Add");
        assert_eq!(file_stem("out-1_x"), "out-1_x");
        assert_eq!(file_stem("a b:c"), "a_b_c");
    }
}

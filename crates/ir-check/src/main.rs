//! `ir-check MODEL.xml [--weights MODEL.bin] [--shape NAME=DIMS]... [--format text|json]`

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = ir_check::Args::parse();
    let outcome = ir_check::run(&args);
    // A closed pipe is not worth a panic: ignore write errors.
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.status)
}

//! Times the reader against its floor (issue 18): quick-xml alone
//! tokenizing the text (events only, attributes not even split), then
//! tokenizing and splitting every start tag's attributes, then the
//! whole `ir_xml` read of the same text (graph and diagnostics, weights
//! mapped), RUNS times each, printing the fastest and median time and the
//! rate in MB/s. A loop to profile under `perf record` without a process's
//! start-up.
//!
//! `cargo run --release -p ir-xml --example read_loop -- RUNS MODEL.xml [tokenize|attributes|read|both]`

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use quick_xml::events::Event;
use quick_xml::Reader;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The fastest and median of `times`, and the rate of `bytes` at the median.
fn summary(what: &str, times: &mut [Duration], bytes: usize) -> String {
    times.sort();
    let fastest = times.first().copied().unwrap_or_default();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let rate = bytes as f64 / median.as_secs_f64().max(1e-12) / 1e6;
    format!(
        "{what}: fastest={:.3} ms median={:.3} ms ({rate:.0} MB/s)",
        fastest.as_secs_f64() * 1e3,
        median.as_secs_f64() * 1e3
    )
}

/// How many events quick-xml finds in `xml`, configured as the reader is;
/// with `attributes`, the attributes of every start tag are split too.
fn tokenize(xml: &str, attributes: bool) -> Result<usize, quick_xml::Error> {
    let mut reader = Reader::from_str(xml);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.expand_empty_elements = false;
    config.trim_text(false);
    let mut events = 0usize;
    loop {
        match reader.read_event()? {
            Event::Eof => return Ok(events),
            Event::Start(tag) | Event::Empty(tag) if attributes => {
                for attr in tag.attributes().with_checks(false) {
                    events += attr.map_err(quick_xml::Error::from)?.value.len() & 1;
                }
                events += 1;
            }
            _ => events += 1,
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(runs), Some(path)) = (
        args.first().and_then(|r| r.parse::<usize>().ok()),
        args.get(1),
    ) else {
        eprintln!("usage: read_loop RUNS MODEL.xml [tokenize|attributes|read|both]");
        return ExitCode::from(2);
    };
    let mode = args.get(2).map_or("both", String::as_str);
    let path = Path::new(path);
    let xml = match std::fs::read_to_string(path) {
        Ok(xml) => xml,
        Err(e) => {
            eprintln!("cannot read {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    for (what, attributes) in [("tokenize", false), ("attributes", true)] {
        if !matches!(mode, "both") && mode != what {
            continue;
        }
        let mut times = Vec::with_capacity(runs);
        let mut events = 0;
        for _ in 0..runs {
            let started = Instant::now();
            events = match tokenize(&xml, attributes) {
                Ok(events) => events,
                Err(e) => {
                    eprintln!("not well-formed: {e}");
                    return ExitCode::FAILURE;
                }
            };
            times.push(started.elapsed());
        }
        println!("{} events={events}", summary(what, &mut times, xml.len()));
    }
    if matches!(mode, "read" | "both") {
        let mut times = Vec::with_capacity(runs);
        let mut layers = 0;
        for _ in 0..runs {
            let started = Instant::now();
            match ir_xml::read_model_with_weights_of(&xml, path, None) {
                Ok(outcome) => layers = outcome.graph.graph.node_count(),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
            times.push(started.elapsed());
        }
        println!("{} layers={layers}", summary("read", &mut times, xml.len()));
    }
    ExitCode::SUCCESS
}

//! Parsing alone (issue 18): `read_model_from_str` on IR text already in
//! memory, with the weights already in memory, so that neither the file
//! system nor the mapping of the `.bin` is measured, nor dropping the graph
//! (`iter_with_large_drop`). Shipped models (BERT, the narrow Swin) and
//! generated ReLU chains of 1,000 and 10,000 layers, as
//! `scripts/bench_load.py` writes them. Throughput is in bytes of XML.
//!
//! Texts past the reader's split threshold are read in two parts on two
//! threads when there are two cores (`reader::Split::Auto`), as `ir-check`
//! reads them.

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ir::TensorBytes;

#[path = "support/relu_chain.rs"]
mod relu_chain;
use relu_chain::relu_chain;

/// A model's name, its text and its weights (`None`: no `.bin`).
struct Input {
    name: String,
    xml: String,
    weights: Option<TensorBytes>,
}

fn inputs() -> Vec<Input> {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples/models");
    let mut inputs = Vec::new();
    for name in ["bert", "swin_narrow"] {
        let xml = std::fs::read_to_string(models.join(format!("{name}.xml")))
            .unwrap_or_else(|e| panic!("{name}.xml: {e}"));
        let bin = std::fs::read(models.join(format!("{name}.bin")))
            .unwrap_or_else(|e| panic!("{name}.bin: {e}"));
        inputs.push(Input {
            name: name.to_owned(),
            xml,
            weights: Some(TensorBytes::from_vec(bin)),
        });
    }
    for n in [1_000, 10_000] {
        inputs.push(Input {
            name: format!("relu_chain_{n}"),
            xml: relu_chain(n),
            weights: None,
        });
    }
    inputs
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse");
    group.sample_size(20);
    for input in inputs() {
        // Once outside the timing: the text must read cleanly, or the bench
        // would time the reporting of a problem.
        let outcome = ir_xml::read_model_from_str(&input.xml, input.weights.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", input.name));
        assert!(
            outcome.diagnostics.is_empty(),
            "{}: {:?}",
            input.name,
            outcome.diagnostics
        );
        group.throughput(Throughput::Bytes(input.xml.len() as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(&input.name),
            &input,
            |b, input| {
                b.iter_with_large_drop(|| {
                    ir_xml::read_model_from_str(&input.xml, input.weights.clone())
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, parse);
criterion_main!(benches);

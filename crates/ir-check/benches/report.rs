//! Writing the report of a checked model (issue 18): the JSON and the text
//! table of the narrow Swin (827 layers) and of the BERT model the
//! repository ships, into a sink, so that only producing the bytes is
//! measured. The model is read and checked once, outside the loop.

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ir_check::report::Report;
use ovir::{CheckOptions, Model};

fn report(c: &mut Criterion) {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples/models");
    let mut group = c.benchmark_group("report");
    group.sample_size(20);
    for name in ["bert", "swin_narrow"] {
        let model = Model::open(models.join(format!("{name}.xml")))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let check = model.check(&CheckOptions::default());
        let graph = check.model().graph();
        let layers = graph.node_count() as u64;
        group.throughput(Throughput::Elements(layers));
        group.bench_with_input(BenchmarkId::new("json", name), &check, |b, check| {
            b.iter(|| {
                Report::new(graph, check.inference(), check.diagnostics())
                    .write_json(std::io::sink())
            })
        });
        group.bench_with_input(BenchmarkId::new("text", name), &check, |b, check| {
            b.iter(|| {
                Report::new(graph, check.inference(), check.diagnostics())
                    .write_text(&mut std::io::sink())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, report);
criterion_main!(benches);

//! What a compiler embedding the toolkit pays to load a model: read the XML,
//! map the weights, validate, infer every shape (`Model::open` then
//! `Model::check`), on shipped models and on generated ReLU chains (written to
//! a temporary directory). The files are in the page cache after the first
//! iteration. `scripts/bench_load.py` runs OpenVINO beside the `ir-check`
//! binary; this bench tracks the library's own time.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ovir::{CheckOptions, Model};

// The ReLU chain of the `ir-xml` parse bench, the same text.
#[path = "../../ir-xml/benches/support/relu_chain.rs"]
mod relu_chain;
use relu_chain::relu_chain;

fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples");
    let models = root.join("models");
    let mut paths = vec![root.join("transformer_block.xml")];
    for name in ["tiny_resnet", "text_detector", "bert", "swin_narrow"] {
        paths.push(models.join(format!("{name}.xml")));
    }
    paths
}

fn load(c: &mut Criterion) {
    let options = CheckOptions::default();
    let mut paths = shipped();
    let scratch = std::env::temp_dir().join(format!("ovir-bench-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("a temporary directory");
    for n in [1_000, 10_000] {
        let path = scratch.join(format!("relu_chain_{n}.xml"));
        std::fs::write(&path, relu_chain(n)).expect("the chain written");
        paths.push(path);
    }
    let mut group = c.benchmark_group("read+validate+infer");
    group.sample_size(20);
    for path in &paths {
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        let layers = std::fs::read_to_string(path).map_or(0, |xml| xml.matches("<layer ").count());
        group.throughput(Throughput::Elements(layers as u64));
        group.bench_with_input(BenchmarkId::from_parameter(&name), path, |b, path| {
            b.iter(|| {
                let model = Model::open(path).expect("readable");
                let check = model.check(&options);
                assert!(check.is_valid(), "{name}: {}", check.shape_report());
                check.diagnostics().len()
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&scratch);
}

criterion_group!(benches, load);
criterion_main!(benches);

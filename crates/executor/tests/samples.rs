//! Every sample model of `ir-samples/` whose ops all have kernels, run on
//! random inputs of bound shapes: the produced shapes must equal the shapes
//! inferred (with `--shape` overrides of the same dims) before running.

use std::collections::HashMap;
use std::path::Path;

use executor::{ExecError, Executor, Tensor};
use ir::{ElementType, Op};
use shape_infer::overrides::apply_override;
use shape_infer::{infer, Options, Registry};

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

fn random_tensor(rng: &mut Lcg, t: ElementType, shape: Vec<usize>) -> Tensor {
    let n: usize = shape.iter().product();
    let f = |rng: &mut Lcg| (rng.next() % 4000) as f64 / 1000.0 - 2.0;
    match t {
        ElementType::F32 => Tensor::from_vec(shape, (0..n).map(|_| f(rng) as f32).collect()),
        ElementType::F64 => Tensor::from_vec(shape, (0..n).map(|_| f(rng)).collect()),
        ElementType::F16 => {
            Tensor::from_vec(shape, (0..n).map(|_| half::f16::from_f64(f(rng))).collect())
        }
        ElementType::Boolean => {
            Tensor::from_vec(shape, (0..n).map(|_| rng.next() & 1 == 0).collect())
        }
        ElementType::I32 => {
            Tensor::from_vec(shape, (0..n).map(|_| (rng.next() % 3) as i32).collect())
        }
        ElementType::I64 => {
            Tensor::from_vec(shape, (0..n).map(|_| (rng.next() % 3) as i64).collect())
        }
        ElementType::U8 => {
            Tensor::from_vec(shape, (0..n).map(|_| (rng.next() % 3) as u8).collect())
        }
        other => panic!("no generator for {other}"),
    }
    .unwrap()
}

#[test]
fn sample_shapes_match_inference() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    paths.sort();
    let mut ran = Vec::new();
    let mut skipped = Vec::new();
    let mut rng = Lcg(42);
    for path in &paths {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let model = ir_xml::read_model(path, None).unwrap();
        let graph = model.graph;
        let exec = match Executor::new(&graph) {
            Ok(e) => e,
            Err(ExecError::NoKernel { op, .. }) => {
                skipped.push(format!("{name} ({op})"));
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        // Bind every symbol to 3 (or the nearest value in its range).
        let mut chosen: HashMap<ir::SymbolId, i64> = HashMap::new();
        let mut inputs = HashMap::new();
        let mut overrides = Vec::new();
        for (_, node) in graph.parameters() {
            let Op::Parameter {
                element_type,
                shape,
            } = &node.op
            else {
                unreachable!()
            };
            let dims: Vec<usize> = match shape.dims() {
                None => vec![2, 3],
                Some(dims) => dims
                    .iter()
                    .map(|d| {
                        for s in d.symbols() {
                            let r = graph.symbols.range(s);
                            let v = 3i64.max(r.lo.unwrap_or(0)).min(r.hi.unwrap_or(i64::MAX));
                            chosen.entry(s).or_insert(v);
                        }
                        d.eval(&|s| chosen.get(&s).copied()).unwrap() as usize
                    })
                    .collect(),
            };
            let text: Vec<String> = dims.iter().map(usize::to_string).collect();
            overrides.push(format!("{}={}", node.name, text.join(",")));
            inputs.insert(
                node.name.clone(),
                random_tensor(&mut rng, *element_type, dims),
            );
        }
        // The shapes inferred before running, with the same dims as overrides.
        let mut bound = graph.clone();
        for o in &overrides {
            apply_override(&mut bound, o).unwrap();
        }
        let options = Options {
            allow_unknown_ops: false,
            check_declared_shapes: false,
            ..Options::default()
        };
        let inference = infer(&bound, &Registry::standard(), &options);
        assert!(
            !inference.has_errors(),
            "{name}: {:?}",
            inference.diagnostics
        );
        let outputs = exec.run(inputs).unwrap_or_else(|e| panic!("{name}: {e}"));
        for (id, node) in graph.results() {
            let produced = &outputs[&node.name];
            let info = &inference.outcome(id).outputs()[0];
            assert_eq!(
                produced.element_type, info.element_type,
                "{name}: {}",
                node.name
            );
            let dims = info.shape.dims().unwrap();
            assert_eq!(dims.len(), produced.shape.len(), "{name}: {}", node.name);
            for (d, &p) in dims.iter().zip(&produced.shape) {
                match d.as_constant() {
                    Some(c) => assert_eq!(c as usize, p, "{name}: {}", node.name),
                    // Data-dependent: within the inferred bounds.
                    None => assert!(
                        inference.symbols.bounds(d).unwrap().contains(p as i64),
                        "{name}: {}",
                        node.name
                    ),
                }
            }
        }
        ran.push(name);
    }
    eprintln!("ran: {ran:?}\nskipped: {skipped:?}");
    for expected in [
        "add_relu_static",
        "compress_axis",
        "dynamic_batch_reshape",
        "dynamic_rank",
        "extract_size",
        "interval_dims",
        "multi_output_split",
        "scalar_and_types",
        "select_broadcast",
        "shape_subgraph_reshape",
        "shared_constants",
        "strided_slice_reduce",
        "transformer_block",
    ] {
        assert!(
            ran.iter().any(|r| r == expected),
            "{expected} did not run; ran {ran:?}"
        );
    }
}

//! Inference per op (issue 18): the rule of one node of each common op on
//! symbolic inputs (`N` a batch, `S` a sequence, `H`, `W` an image), through
//! `shape_infer::infer_node`, the public entry that infers one node (the
//! executor's, at run time). The attributes are those the shipped models
//! carry. `infer_node` takes the symbol table by value: each iteration gets
//! a copy of the four-symbol table, made in criterion's untimed setup.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use ir::{Dim, ElementType, Shape};
use shape_infer::{infer_node, Registry, TensorInfo};
use symdim::{Expr, Interval, SymbolTable};

/// One node and its inputs.
struct Case {
    name: &'static str,
    node: ir::Node,
    inputs: Vec<TensorInfo>,
}

/// Builds tensors over one symbol table.
struct Tensors {
    table: SymbolTable,
}

impl Tensors {
    fn new() -> Self {
        let mut table = SymbolTable::new();
        table.named("N", Interval::nonnegative());
        for name in ["S", "H", "W"] {
            table.named(name, Interval::new(Some(1), None));
        }
        Tensors { table }
    }

    /// Dims from text like `N, S, 768`.
    fn dims(&mut self, text: &str) -> Vec<Dim> {
        if text.trim().is_empty() {
            return Vec::new();
        }
        text.split(',')
            .map(|d| {
                self.table
                    .parse_expr(d.trim())
                    .unwrap_or_else(|e| panic!("{d}: {e}"))
            })
            .collect()
    }

    /// A tensor of `element_type` and shape `text`, value unknown.
    fn tensor(&mut self, element_type: ElementType, text: &str) -> TensorInfo {
        TensorInfo::new(element_type, Shape::ranked(self.dims(text)))
    }

    fn f32(&mut self, text: &str) -> TensorInfo {
        self.tensor(ElementType::F32, text)
    }

    /// A 1-D i64 Const holding `values`.
    fn ints(values: &[i64]) -> TensorInfo {
        TensorInfo::new(ElementType::I64, Shape::from_static(&[values.len() as i64])).with_value(
            values
                .iter()
                .map(|&v| Expr::constant(v))
                .collect::<Vec<_>>(),
        )
    }

    /// A scalar i64 Const.
    fn scalar(value: i64) -> TensorInfo {
        TensorInfo::new(ElementType::I64, Shape::scalar()).with_value(vec![Expr::constant(value)])
    }
}

fn node(type_name: &str, version: &str, attributes: &[(&str, &str)]) -> ir::Node {
    ir::Node {
        id: "1".into(),
        name: format!("bench/{type_name}"),
        op_type: ir::OpType {
            name: type_name.into(),
            version: version.into(),
        },
        op: ir::Op::Other,
        attributes: attributes
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        layer_attributes: ir::Attributes::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        rt_info: None,
        location: Default::default(),
    }
}

fn cases(t: &mut Tensors) -> Vec<Case> {
    let case = |name, node, inputs| Case { name, node, inputs };
    vec![
        // The floor: a unary op whose rule copies its input, so what is left
        // is `infer_node`'s own work (resolving the op, the context).
        case(
            "ReLU",
            node("ReLU", "opset1", &[]),
            vec![t.f32("N, S, 768")],
        ),
        case(
            "Convolution",
            node(
                "Convolution",
                "opset1",
                &[
                    ("strides", "2, 2"),
                    ("dilations", "1, 1"),
                    ("pads_begin", "3, 3"),
                    ("pads_end", "3, 3"),
                    ("auto_pad", "explicit"),
                ],
            ),
            vec![t.f32("N, 3, H, W"), t.f32("64, 3, 7, 7")],
        ),
        case(
            "MaxPool",
            node(
                "MaxPool",
                "opset14",
                &[
                    ("strides", "2, 2"),
                    ("dilations", "1, 1"),
                    ("pads_begin", "0, 0"),
                    ("pads_end", "0, 0"),
                    ("kernel", "3, 3"),
                    ("rounding_type", "ceil_torch"),
                    ("auto_pad", "explicit"),
                    ("index_element_type", "i64"),
                    ("axis", "2"),
                ],
            ),
            vec![t.f32("N, 64, H, W")],
        ),
        case(
            "MatMul",
            node(
                "MatMul",
                "opset1",
                &[("transpose_a", "false"), ("transpose_b", "false")],
            ),
            vec![t.f32("N, S, 768"), t.f32("768, 3072")],
        ),
        case(
            "Add/bias",
            node("Add", "opset1", &[("auto_broadcast", "numpy")]),
            vec![t.f32("N, S, 768"), t.f32("768")],
        ),
        case(
            "Add/mask",
            node("Add", "opset1", &[("auto_broadcast", "numpy")]),
            vec![t.f32("N, 12, S, S"), t.f32("N, 1, 1, S")],
        ),
        case(
            "Reshape",
            node("Reshape", "opset1", &[("special_zero", "true")]),
            vec![t.f32("N, S, 768"), Tensors::ints(&[0, 0, 12, -1])],
        ),
        case(
            "Slice",
            node("Slice", "opset8", &[]),
            vec![
                t.f32("N, S, 768"),
                Tensors::ints(&[1]),
                Tensors::ints(&[i64::MAX]),
                Tensors::ints(&[1]),
                Tensors::ints(&[1]),
            ],
        ),
        case(
            "Concat",
            node("Concat", "opset1", &[("axis", "1")]),
            vec![t.f32("N, 1, 768"), t.f32("N, S, 768")],
        ),
        case(
            "Transpose",
            node("Transpose", "opset1", &[]),
            vec![t.f32("N, S, 12, 64"), Tensors::ints(&[0, 2, 1, 3])],
        ),
        case(
            "Select",
            node("Select", "opset1", &[("auto_broadcast", "numpy")]),
            vec![
                t.tensor(ElementType::Boolean, "N, 1, 1, S"),
                t.f32("N, 12, S, S"),
                t.f32(""),
            ],
        ),
        case(
            "Gather",
            node("Gather", "opset8", &[("batch_dims", "0")]),
            vec![
                t.f32("30522, 768"),
                t.tensor(ElementType::I64, "N, S"),
                Tensors::scalar(0),
            ],
        ),
        case(
            "SoftMax",
            node("SoftMax", "opset8", &[("axis", "-1")]),
            vec![t.f32("N, 12, S, S")],
        ),
        case(
            "MVN",
            node(
                "MVN",
                "opset6",
                &[
                    ("eps", "9.999999960041972e-13"),
                    ("normalize_variance", "true"),
                    ("eps_mode", "INSIDE_SQRT"),
                ],
            ),
            vec![t.f32("N, S, 768"), Tensors::ints(&[-1])],
        ),
        case(
            "ReduceMean",
            node("ReduceMean", "opset1", &[("keep_dims", "true")]),
            vec![t.f32("N, S, 768"), Tensors::ints(&[-1])],
        ),
        case(
            "ShapeOf",
            node("ShapeOf", "opset3", &[("output_type", "i64")]),
            vec![t.f32("N, S, 768")],
        ),
    ]
}

fn ops(c: &mut Criterion) {
    let registry = Registry::shared();
    let mut tensors = Tensors::new();
    let cases = cases(&mut tensors);
    let table = tensors.table;
    let mut group = c.benchmark_group("infer_node");
    for case in &cases {
        // Once outside the timing: the rule must infer the node, or the
        // bench would time an error message.
        let outputs = infer_node(registry, table.clone(), &case.node, &case.inputs)
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        assert!(!outputs.is_empty(), "{}: no output", case.name);
        group.bench_with_input(BenchmarkId::from_parameter(case.name), case, |b, case| {
            b.iter_batched(
                || table.clone(),
                |symbols| infer_node(registry, symbols, &case.node, &case.inputs),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, ops);
criterion_main!(benches);

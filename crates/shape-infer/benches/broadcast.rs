//! Broadcasting (issue 18): `shape_infer::broadcast` with the numpy, pdpd
//! and one-way rules on pairs of rank-4 shapes (and a rank-4 against a
//! lower rank), static, symbolic and mixed, as elementwise ops, Select and
//! Broadcast meet them. Each iteration starts from a fresh context (made in
//! criterion's untimed setup): broadcasting symbolic dims records
//! assumptions, which would otherwise pile up from one iteration to the
//! next. The context is dropped outside the timing too (`iter_batched_ref`).

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use ir::Shape;
use shape_infer::broadcast::{self, Mode, Operand};
use shape_infer::InferContext;
use symdim::{Interval, ParsedShape, SymbolTable};

/// How a pair is broadcast.
#[derive(Clone, Copy)]
enum Rule {
    Numpy,
    Pdpd(i64),
    OneWay,
}

/// A named pair of shapes and the rule that broadcasts them.
struct Case {
    name: &'static str,
    rule: Rule,
    a: &'static str,
    b: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "numpy/static",
        rule: Rule::Numpy,
        a: "8,12,128,128",
        b: "8,1,1,128",
    },
    Case {
        name: "numpy/symbolic",
        rule: Rule::Numpy,
        a: "N,12,S,S",
        b: "N,1,1,S",
    },
    Case {
        name: "numpy/symbolic-distinct",
        rule: Rule::Numpy,
        a: "N,C,H,W",
        b: "M,1,1,W",
    },
    Case {
        name: "numpy/mixed",
        rule: Rule::Numpy,
        a: "N,64,H,W",
        b: "1,64,1,1",
    },
    Case {
        name: "numpy/mixed-assumed",
        rule: Rule::Numpy,
        a: "N,C,H,W",
        b: "1,64,1,1",
    },
    Case {
        name: "numpy/mixed-lower-rank",
        rule: Rule::Numpy,
        a: "N,S,12,64",
        b: "64",
    },
    Case {
        name: "pdpd/mixed",
        rule: Rule::Pdpd(1),
        a: "N,64,H,W",
        b: "64,1",
    },
    Case {
        name: "pdpd/symbolic",
        rule: Rule::Pdpd(-1),
        a: "N,C,H,W",
        b: "H,W",
    },
    Case {
        name: "one-way/static",
        rule: Rule::OneWay,
        a: "1,1,128,128",
        b: "8,12,128,128",
    },
    Case {
        name: "one-way/mixed",
        rule: Rule::OneWay,
        a: "1,12,1,S",
        b: "N,12,S,S",
    },
];

/// A table where `N`, `M` and `C` may be 1 and `S`, `H`, `W` are at least 2
/// (a sequence, an image: broadcasting them is an equality, not a choice).
fn table() -> SymbolTable {
    let mut table = SymbolTable::new();
    for name in ["N", "M", "C"] {
        table.named(name, Interval::nonnegative());
    }
    for name in ["S", "H", "W"] {
        table.named(name, Interval::new(Some(2), None));
    }
    table
}

fn shape(table: &mut SymbolTable, text: &str) -> Shape {
    match table.parse_dims(text, &|| None) {
        Ok(ParsedShape::Ranked(dims)) => Shape::ranked(dims),
        Ok(ParsedShape::DynamicRank) => Shape::DynamicRank,
        Err(e) => panic!("{text}: {e}"),
    }
}

fn run(ctx: &mut InferContext, rule: Rule, a: &Shape, b: &Shape) -> Shape {
    let (a, b) = (Operand::new("input 0", a), Operand::new("input 1", b));
    let shape = match rule {
        Rule::Numpy => broadcast::broadcast(ctx, Mode::Numpy, a, b),
        Rule::Pdpd(axis) => broadcast::broadcast(ctx, Mode::Pdpd { axis }, a, b),
        Rule::OneWay => broadcast::one_way(ctx, a, b),
    };
    shape.unwrap_or_else(|e| panic!("broadcasts: {e}"))
}

fn broadcast(c: &mut Criterion) {
    let mut table = table();
    let shapes: Vec<(Shape, Shape)> = CASES
        .iter()
        .map(|case| (shape(&mut table, case.a), shape(&mut table, case.b)))
        .collect();
    let mut group = c.benchmark_group("broadcast");
    for (case, (a, b)) in CASES.iter().zip(&shapes) {
        // Once outside the timing: the pair must broadcast.
        run(&mut InferContext::new(table.clone()), case.rule, a, b);
        group.bench_with_input(
            BenchmarkId::from_parameter(case.name),
            &(a, b),
            |bench, (a, b)| {
                bench.iter_batched_ref(
                    || InferContext::new(table.clone()),
                    |ctx| run(ctx, case.rule, a, b),
                    BatchSize::SmallInput,
                )
            },
        );
    }
    group.finish();
}

criterion_group!(benches, broadcast);
criterion_main!(benches);

//! Canonicalization of dims (issue 18): building and simplifying the
//! expressions shape inference builds on real graphs, comparing them and
//! writing their text. Each case is one realistic dim, not one operation:
//!
//! - `slice_chain`: ten Slices dropping the first element of `S`, each
//!   `max(d - 1, 0)` through the table's range-aware `max`
//!   (`scripts/bench_load.py`'s slice chain);
//! - `flatten`: `N*15*D` built from its factors, then divided back by `N`
//!   (a flatten and the Reshape that undoes it);
//! - `reshape`: the element count of `[N, S, 12, 64]`, the `-1` of a
//!   Reshape to `[N*S, -1]`, and an assumed-exact `4*N*S/3`;
//! - `conv`: `floor((H + 2*3 - 7)/2) + 1`, then a pooling on it,
//!   `ceil((d - 3)/2) + 1`;
//! - `concat`: the sum of eight inputs' axis, symbolic and constant;
//! - `compare`: equality of canonical dims (`==`, structural) and the
//!   range-based `compare`, on pairs from the cases above;
//! - `text`: the display of the built dims, as the report writes them, and
//!   parsing them back.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use symdim::{DimError, Expr, Interval, SymbolTable};

/// The symbols of the cases: `N` (batch), `S` (sequence), `H` (height) in
/// `[0, ∞)`, `D` in `[1, ∞)`.
struct Symbols {
    table: SymbolTable,
    n: Expr,
    s: Expr,
    h: Expr,
    d: Expr,
}

fn symbols() -> Symbols {
    let mut table = SymbolTable::new();
    let n = Expr::symbol(table.named("N", Interval::nonnegative()));
    let s = Expr::symbol(table.named("S", Interval::nonnegative()));
    let h = Expr::symbol(table.named("H", Interval::nonnegative()));
    let d = Expr::symbol(table.named("D", Interval::new(Some(1), None)));
    Symbols { table, n, s, h, d }
}

fn slice_chain(sym: &Symbols) -> Result<Expr, DimError> {
    let zero = Expr::zero();
    let mut d = sym.s.clone();
    for _ in 0..10 {
        d = sym.table.max(&d.add_const(-1)?, &zero)?;
    }
    Ok(d)
}

fn flatten(sym: &Symbols) -> Result<Expr, DimError> {
    let flat = sym.n.mul(&Expr::constant(15))?.mul(&sym.d)?;
    Ok(flat.exact_div(&sym.n).unwrap_or(flat))
}

fn reshape(sym: &Symbols) -> Result<[Expr; 3], DimError> {
    let count = sym.n.mul(&sym.s)?.mul_const(12)?.mul_const(64)?;
    let rows = sym.n.mul(&sym.s)?;
    let minus_one = count.exact_div(&rows).unwrap_or_else(Expr::zero);
    let thirds = count.mul_const(4)?.assumed_exact_div(3)?;
    Ok([count, minus_one, thirds])
}

fn conv(sym: &Symbols) -> Result<Expr, DimError> {
    let conv = sym.h.add_const(2 * 3 - 7)?.floor_div(2)?.add_const(1)?;
    conv.add_const(-3)?.ceil_div(2)?.add_const(1)
}

fn concat(sym: &Symbols) -> Result<Expr, DimError> {
    let parts = [
        sym.s.clone(),
        Expr::constant(1),
        sym.d.clone(),
        sym.s.add_const(-1)?,
        Expr::constant(64),
        sym.s.mul_const(2)?,
        sym.d.clone(),
        Expr::constant(3),
    ];
    parts.iter().try_fold(Expr::zero(), |sum, p| sum.add(p))
}

fn canonical(c: &mut Criterion) {
    let sym = symbols();
    let mut group = c.benchmark_group("build");
    group.bench_function("slice_chain", |b| b.iter(|| slice_chain(black_box(&sym))));
    group.bench_function("flatten", |b| b.iter(|| flatten(black_box(&sym))));
    group.bench_function("reshape", |b| b.iter(|| reshape(black_box(&sym))));
    group.bench_function("conv", |b| b.iter(|| conv(black_box(&sym))));
    group.bench_function("concat", |b| b.iter(|| concat(black_box(&sym))));
    group.finish();

    let built = || -> Result<Vec<Expr>, DimError> {
        let [count, minus_one, thirds] = reshape(&sym)?;
        Ok(vec![
            slice_chain(&sym)?,
            flatten(&sym)?,
            count,
            minus_one,
            thirds,
            conv(&sym)?,
            concat(&sym)?,
        ])
    };
    let dims = built().expect("the cases build");
    // The same dims built a second time: equal values in other allocations,
    // so that `==` compares terms rather than answering from a shared `Arc`.
    let again = built().expect("the cases build");

    let mut group = c.benchmark_group("compare");
    group.bench_function("equal", |b| {
        b.iter(|| {
            let mut equal = 0;
            for (x, y) in dims.iter().zip(&again) {
                equal += usize::from(black_box(x) == black_box(y));
                equal += usize::from(black_box(x) == black_box(&dims[0]));
            }
            equal
        })
    });
    group.bench_function("ordering", |b| {
        b.iter(|| {
            let mut known = 0;
            for x in &dims {
                for y in &again {
                    known += usize::from(sym.table.compare(black_box(x), black_box(y)).is_some());
                }
            }
            known
        })
    });
    group.finish();

    let mut group = c.benchmark_group("text");
    group.bench_function("display", |b| {
        let mut out = String::with_capacity(256);
        b.iter(|| {
            out.clear();
            for d in &dims {
                sym.table.write_expr(black_box(d), &mut out);
                out.push(' ');
            }
            out.len()
        })
    });
    let texts: Vec<String> = dims
        .iter()
        .map(|d| sym.table.display(d).to_string())
        .collect();
    let mut parser = symbols().table;
    for (text, dim) in texts.iter().zip(&dims) {
        let parsed = parser
            .parse_expr(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&parsed, dim, "{text} reads back");
    }
    group.bench_function("parse", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| parser.parse_expr(black_box(t)).map(|e| e.size()))
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

criterion_group!(benches, canonical);
criterion_main!(benches);

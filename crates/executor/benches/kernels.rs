//! Kernel throughput against a plain memcpy of the same bytes.
//!
//! Each op runs as a one-op graph (`Parameter`s → op → `Result`) through the
//! public API, so a figure includes what a user pays per call: input checks,
//! re-inference of the tiny graph, the output allocation and the kernel.
//! Throughput is the size of the op's output per second; the `memcpy` rows
//! copy the same number of bytes, into a buffer kept across iterations
//! (`memcpy`) and into a fresh allocation like a kernel's output
//! (`memcpy-alloc`). Sizes are 1, 16 and 64 MiB of output.
//!
//! ```sh
//! cargo bench -p executor --bench kernels            # everything
//! cargo bench -p executor --bench kernels -- select  # one op
//! ```
//! `docs/performance.md` holds the figures and how to read them.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use executor::{Executor, Tensor};

#[path = "../tests/common/mod.rs"]
mod common;
use common::Net;

const MIB: usize = 1 << 20;
/// Row length of the 2-D tensors; the row count makes the size.
const COLS: usize = 1024;

/// An f32 tensor of `shape` with varied values.
fn f32s(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let values = (0..n).map(|i| ((i * 7919) % 1000) as f32 / 100.0 - 5.0);
    Tensor::from_vec(shape.to_vec(), values.collect()).unwrap()
}

fn bools(shape: &[usize], every: usize) -> Tensor {
    let n: usize = shape.iter().product();
    Tensor::from_vec(shape.to_vec(), (0..n).map(|i| i % every == 0).collect()).unwrap()
}

fn i64s(shape: &[usize], values: Vec<i64>) -> Tensor {
    Tensor::from_vec(shape.to_vec(), values).unwrap()
}

fn dims(shape: &[usize]) -> String {
    shape
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// One benchmark case: a graph and its inputs.
struct Case {
    exec: Executor,
    inputs: HashMap<String, Tensor>,
}

impl Case {
    fn new(net: Net, inputs: Vec<(&str, Tensor)>) -> Case {
        let exec = Executor::new(&net.graph()).expect("a valid graph");
        let inputs: HashMap<String, Tensor> =
            inputs.into_iter().map(|(n, t)| (n.to_owned(), t)).collect();
        let case = Case { exec, inputs };
        case.run(); // fails early, not inside the timing loop
        case
    }

    fn run(&self) -> HashMap<String, Tensor> {
        self.exec
            .run(self.inputs.clone())
            .expect("the run succeeds")
    }
}

/// A graph of one op over f32 parameters of the given shapes.
fn unary_net(type_name: &str, version: &str, attrs: &str, shape: &[usize]) -> Net {
    let mut net = Net::new();
    let x = net.param("x", "f32", &dims(shape));
    let y = net.op("y", type_name, version, attrs, &[x], None);
    net.result("out", y);
    net
}

fn binary_case(type_name: &str, a: &[usize], b: &[usize]) -> Case {
    let mut net = Net::new();
    let x = net.param("a", "f32", &dims(a));
    let y = net.param("b", "f32", &dims(b));
    let z = net.op("z", type_name, "opset1", "", &[x, y], None);
    net.result("out", z);
    Case::new(net, vec![("a", f32s(a)), ("b", f32s(b))])
}

/// A case's name and how to build it for an output of that many bytes.
type Builder = (&'static str, fn(usize) -> Case);

/// The rows of an f32 output of `bytes` bytes (`rows × COLS`).
fn rows(bytes: usize) -> usize {
    bytes / 4 / COLS
}

fn add(bytes: usize) -> Case {
    let out = [rows(bytes), COLS];
    binary_case("Add", &out, &out)
}

fn add_broadcast_row(bytes: usize) -> Case {
    binary_case("Add", &[rows(bytes), COLS], &[COLS])
}

fn unary(type_name: &str, bytes: usize) -> Case {
    let out = [rows(bytes), COLS];
    let net = unary_net(type_name, "opset1", "", &out);
    Case::new(net, vec![("x", f32s(&out))])
}

fn select(cond_shape: &[usize], bytes: usize) -> Case {
    let out = [rows(bytes), COLS];
    let mut net = Net::new();
    let c = net.param("c", "boolean", &dims(cond_shape));
    let t = net.param("t", "f32", &dims(&out));
    let e = net.param("e", "f32", &dims(&out));
    let s = net.op("s", "Select", "opset1", "", &[c, t, e], None);
    net.result("out", s);
    let inputs = vec![
        ("c", bools(cond_shape, 3)),
        ("t", f32s(&out)),
        ("e", f32s(&out)),
    ];
    Case::new(net, inputs)
}

/// `x[start:stop:step]` along `axis` of an f32 input of `shape`.
fn slice(shape: &[usize], start: i64, stop: i64, step: i64, axis: i64) -> Case {
    let mut net = Net::new();
    let x = net.param("x", "f32", &dims(shape));
    let start = net.i64s("start", &[1], &[start]);
    let stop = net.i64s("stop", &[1], &[stop]);
    let step = net.i64s("step", &[1], &[step]);
    let axes = net.i64s("axes", &[1], &[axis]);
    let s = net.op(
        "s",
        "Slice",
        "opset8",
        "",
        &[x, start, stop, step, axes],
        None,
    );
    net.result("out", s);
    Case::new(net, vec![("x", f32s(shape))])
}

/// Every other row of twice the rows.
fn compress_rows(bytes: usize) -> Case {
    let shape = [2 * rows(bytes), COLS];
    let mut net = Net::new();
    let x = net.param("x", "f32", &dims(&shape));
    let c = net.param("c", "boolean", &shape[0].to_string());
    let s = net.op("s", "Compress", "ovir1", r#"axis="0""#, &[x, c], None);
    net.result("out", s);
    let inputs = vec![("x", f32s(&shape)), ("c", bools(&[shape[0]], 2))];
    Case::new(net, inputs)
}

/// The rows in reverse order.
fn gather_rows(bytes: usize) -> Case {
    let rows = rows(bytes);
    let out = [rows, COLS];
    let mut net = Net::new();
    let x = net.param("x", "f32", &dims(&out));
    let i = net.param("i", "i64", &rows.to_string());
    let axis = net.i64s("axis", &[], &[0]);
    let g = net.op(
        "g",
        "Gather",
        "opset8",
        r#"batch_dims="0""#,
        &[x, i, axis],
        None,
    );
    net.result("out", g);
    let indices = (0..rows as i64).rev().collect();
    let inputs = vec![("x", f32s(&out)), ("i", i64s(&[rows], indices))];
    Case::new(net, inputs)
}

/// Two halves of each row joined.
fn concat_axis_1(bytes: usize) -> Case {
    let half = [rows(bytes), COLS / 2];
    let mut net = Net::new();
    let a = net.param("a", "f32", &dims(&half));
    let b = net.param("b", "f32", &dims(&half));
    let c = net.op("c", "Concat", "opset1", r#"axis="1""#, &[a, b], None);
    net.result("out", c);
    Case::new(net, vec![("a", f32s(&half)), ("b", f32s(&half))])
}

fn transpose(shape: &[usize], perm: &[i64]) -> Case {
    let mut net = Net::new();
    let x = net.param("x", "f32", &dims(shape));
    let p = net.i64s("perm", &[perm.len() as u64], perm);
    let t = net.op("t", "Transpose", "opset1", "", &[x, p], None);
    net.result("out", t);
    Case::new(net, vec![("x", f32s(shape))])
}

/// A flatten: a view, whatever the size.
fn reshape(bytes: usize) -> Case {
    let out = [rows(bytes), COLS];
    let mut net = Net::new();
    let x = net.param("x", "f32", &dims(&out));
    let target = net.i64s("target", &[1], &[-1]);
    let attrs = r#"special_zero="false""#;
    let r = net.op("r", "Reshape", "opset1", attrs, &[x, target], None);
    net.result("out", r);
    Case::new(net, vec![("x", f32s(&out))])
}

fn cases() -> Vec<Builder> {
    vec![
        ("add", add),
        ("add-broadcast-row", add_broadcast_row),
        ("relu", |b| unary("ReLU", b)),
        ("exp", |b| unary("Exp", b)),
        ("select", |b| select(&[rows(b), COLS], b)),
        ("select-cond-per-row", |b| select(&[rows(b), 1], b)),
        // The inner 1024 of rows of 1026: contiguous runs.
        ("slice-inner", |b| slice(&[rows(b), COLS + 2], 1, -1, 1, 1)),
        // Every other row, backwards: whole rows, a negative step.
        ("slice-rows-step-minus-2", |b| {
            slice(&[2 * rows(b), COLS], -1, i64::MIN, -2, 0)
        }),
        ("compress-rows", compress_rows),
        ("gather-rows", gather_rows),
        ("concat-axis-1", concat_axis_1),
        ("transpose-2d", |b| transpose(&[rows(b), COLS], &[1, 0])),
        ("transpose-nchw-nhwc", |b| {
            transpose(&[rows(b) / 64, 64, 32, 32], &[0, 2, 3, 1])
        }),
        ("reshape", reshape),
    ]
}

fn kernels(c: &mut Criterion) {
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    // What a run costs whatever its size: input checks, re-inference, the
    // walk; an Add of 16 elements is all overhead.
    if filter.as_deref().is_none_or(|f| "per-call".contains(f)) {
        let case = binary_case("Add", &[16], &[16]);
        c.bench_function("per-call/add-16-elements", |b| {
            b.iter(|| black_box(case.run()));
        });
    }
    for mib in [1usize, 16, 64] {
        let bytes = mib * MIB;
        let mut group = c.benchmark_group(format!("{mib}MiB"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.sample_size(if mib >= 16 { 20 } else { 50 });
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(if mib >= 16 { 4 } else { 2 }));

        let src = vec![7u8; bytes];
        let mut dst = vec![0u8; bytes];
        group.bench_function("memcpy", |b| {
            b.iter(|| dst.copy_from_slice(black_box(&src)));
        });
        group.bench_function("memcpy-alloc", |b| {
            b.iter(|| black_box(black_box(&src).to_vec()));
        });
        for (name, build) in cases() {
            // Building large inputs takes time: only for cases the filter keeps.
            if filter.as_deref().is_some_and(|f| !name.contains(f)) {
                continue;
            }
            let case = build(bytes);
            group.bench_with_input(BenchmarkId::from_parameter(name), &case, |b, case| {
                b.iter(|| black_box(case.run()));
            });
        }
        group.finish();
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);

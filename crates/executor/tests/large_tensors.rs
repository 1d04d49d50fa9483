//! Kernels on tensors of several MiB, large enough that they split their
//! work across threads (`parallel::PARALLEL_MIN_BYTES` is 1 MiB), against
//! values computed element by element here. Small tensors take the serial
//! paths and are covered by the other tests; these catch a chunk boundary
//! that drops, repeats or shifts an element.

mod common;

use common::{arange, f32_out, Net};
use executor::{Executor, Precision, Tensor};

/// 1024 × 1024 f32: 4 MiB.
const ROWS: usize = 1024;
const COLS: usize = 1024;

fn dyn_param(net: &mut Net, name: &str, element_type: &str, rank: usize) -> common::Out {
    net.param(name, element_type, &vec!["?"; rank].join(","))
}

/// A value that differs at every position and is not a plain ramp, so a
/// shifted read shows.
fn scrambled(shape: &[usize]) -> Tensor {
    let n: usize = shape.iter().product();
    let values = (0..n)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 7) % 100_003) as f32 - 50_000.0)
        .collect();
    Tensor::from_vec(shape.to_vec(), values).unwrap()
}

fn binary(op: &str, a: Tensor, b: Tensor) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let pa = dyn_param(&mut net, "a", "f32", a.shape.len());
    let pb = dyn_param(&mut net, "b", "f32", b.shape.len());
    let o = net.op("op", op, "opset1", "", &[pa, pb], None);
    net.result("out", o);
    f32_out(&net.exec(vec![("a", a), ("b", b)]).unwrap(), "out")
}

#[test]
fn add_with_each_broadcast_pattern() {
    let a = scrambled(&[ROWS, COLS]);
    let av = a.to_vec::<f32>().unwrap();
    let same = arange(&[ROWS, COLS]);
    let row = arange(&[1, COLS]);
    let column = arange(&[ROWS, 1]);
    let scalar = Tensor::from_vec(vec![], vec![0.5f32]).unwrap();

    let (shape, v) = binary("Add", a.clone(), same);
    assert_eq!(shape, [ROWS, COLS]);
    assert!(v.iter().enumerate().all(|(i, &x)| x == av[i] + i as f32));

    let (_, v) = binary("Add", a.clone(), row);
    assert!(v
        .iter()
        .enumerate()
        .all(|(i, &x)| x == av[i] + (i % COLS) as f32));

    let (_, v) = binary("Add", column, a.clone());
    assert!(v
        .iter()
        .enumerate()
        .all(|(i, &x)| x == (i / COLS) as f32 + av[i]));

    let (_, v) = binary("Subtract", scalar, a);
    assert!(v.iter().enumerate().all(|(i, &x)| x == 0.5 - av[i]));
}

#[test]
fn outer_broadcast_of_a_column_and_a_row() {
    let (shape, v) = binary("Multiply", arange(&[ROWS, 1]), arange(&[1, COLS]));
    assert_eq!(shape, [ROWS, COLS]);
    assert!(v
        .iter()
        .enumerate()
        .all(|(i, &x)| x == ((i / COLS) * (i % COLS)) as f32));
}

/// The specification's division by zero is an error (`Precision::Exact`);
/// the CPU plugin, which `Precision::Plugin` follows, divides in f32 and
/// gives i32::MIN there. Either way the one zero deep in the tensor is
/// found.
#[test]
fn integer_division_by_zero_deep_in_a_large_tensor_is_an_error() {
    let n = 1 << 20;
    let a: Vec<i32> = (0..n as i32).collect();
    let mut b = vec![3i32; n];
    b[n - 17] = 0;
    let mut net = Net::new();
    let pa = dyn_param(&mut net, "a", "i32", 1);
    let pb = dyn_param(&mut net, "b", "i32", 1);
    let o = net.op("div", "Divide", "opset1", "", &[pa, pb], None);
    net.result("out", o);
    let run = |precision: Precision, b: Vec<i32>| {
        Executor::with_precision(&net.graph(), precision)?.run(
            [
                ("a", Tensor::from_vec(vec![n], a.clone()).unwrap()),
                ("b", Tensor::from_vec(vec![n], b).unwrap()),
            ]
            .into_iter()
            .map(|(name, t)| (name.to_owned(), t))
            .collect(),
        )
    };
    let error = run(Precision::Exact, b.clone()).unwrap_err().to_string();
    assert!(error.contains("div"), "{error}");
    let plugin = run(Precision::Plugin, b).unwrap()["out"]
        .to_vec::<i32>()
        .unwrap();
    assert_eq!(plugin[n - 17], i32::MIN);
    assert!(plugin
        .iter()
        .enumerate()
        .all(|(i, &x)| i == n - 17 || x == i as i32 / 3));
    for precision in [Precision::Exact, Precision::Plugin] {
        let out = run(precision, vec![3i32; n]).unwrap();
        let v = out["out"].to_vec::<i32>().unwrap();
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as i32 / 3));
    }
}

#[test]
fn unary_ops_cover_every_element() {
    let x = scrambled(&[ROWS, COLS]);
    let xv = x.to_vec::<f32>().unwrap();
    for (op, f) in [
        ("ReLU", (|v: f32| v.max(0.0)) as fn(f32) -> f32),
        ("Negative", |v: f32| -v),
        ("Abs", f32::abs),
    ] {
        let mut net = Net::new();
        let p = dyn_param(&mut net, "x", "f32", 2);
        let o = net.op("op", op, "opset1", "", &[p], None);
        net.result("out", o);
        let (_, v) = f32_out(&net.exec(vec![("x", x.clone())]).unwrap(), "out");
        assert_eq!(v.len(), xv.len());
        assert!(v.iter().zip(&xv).all(|(&y, &x)| y == f(x)), "{op}");
    }
}

#[test]
fn select_with_a_condition_per_row_and_a_scalar_else() {
    let cond: Vec<bool> = (0..ROWS).map(|r| r % 3 != 1).collect();
    let then = scrambled(&[ROWS, COLS]);
    let tv = then.to_vec::<f32>().unwrap();
    let mut net = Net::new();
    let pc = dyn_param(&mut net, "c", "boolean", 2);
    let pt = dyn_param(&mut net, "t", "f32", 2);
    let pe = dyn_param(&mut net, "e", "f32", 0);
    let o = net.op("sel", "Select", "opset1", "", &[pc, pt, pe], None);
    net.result("out", o);
    let out = net
        .exec(vec![
            ("c", Tensor::from_vec(vec![ROWS, 1], cond.clone()).unwrap()),
            ("t", then),
            ("e", Tensor::from_vec(vec![], vec![7.0f32]).unwrap()),
        ])
        .unwrap();
    let (shape, v) = f32_out(&out, "out");
    assert_eq!(shape, [ROWS, COLS]);
    assert!(v
        .iter()
        .enumerate()
        .all(|(i, &x)| x == if cond[i / COLS] { tv[i] } else { 7.0 }));
}

#[test]
fn transposes_move_every_element() {
    let (d0, d1, d2) = (64, 96, 160);
    let x = scrambled(&[d0, d1, d2]);
    let xv = x.to_vec::<f32>().unwrap();
    let mut net = Net::new();
    let p = dyn_param(&mut net, "x", "f32", 3);
    let perm = net.i64s("perm", &[3], &[2, 0, 1]);
    let o = net.op("t", "Transpose", "opset1", "", &[p, perm], None);
    net.result("out", o);
    let (shape, v) = f32_out(&net.exec(vec![("x", x)]).unwrap(), "out");
    assert_eq!(shape, [d2, d0, d1]);
    for k in 0..d2 {
        for i in 0..d0 {
            for j in 0..d1 {
                assert_eq!(v[(k * d0 + i) * d1 + j], xv[(i * d1 + j) * d2 + k]);
            }
        }
    }
}

#[test]
fn slice_with_a_negative_step_over_rows() {
    let x = scrambled(&[ROWS, COLS]);
    let xv = x.to_vec::<f32>().unwrap();
    let mut net = Net::new();
    let p = dyn_param(&mut net, "x", "f32", 2);
    let start = net.i64s("start", &[2], &[-1, 3]);
    let stop = net.i64s("stop", &[2], &[i64::MIN, -3]);
    let step = net.i64s("step", &[2], &[-2, 1]);
    let o = net.op("s", "Slice", "opset8", "", &[p, start, stop, step], None);
    net.result("out", o);
    let (shape, v) = f32_out(&net.exec(vec![("x", x)]).unwrap(), "out");
    let width = COLS - 6;
    assert_eq!(shape, [ROWS / 2, width]);
    for r in 0..ROWS / 2 {
        let source_row = ROWS - 1 - 2 * r;
        assert_eq!(
            &v[r * width..(r + 1) * width],
            &xv[source_row * COLS + 3..source_row * COLS + 3 + width]
        );
    }
}

#[test]
fn gather_and_compress_pick_whole_rows() {
    let x = scrambled(&[ROWS, COLS]);
    let xv = x.to_vec::<f32>().unwrap();
    let row = |r: usize| &xv[r * COLS..(r + 1) * COLS];

    let indices: Vec<i64> = (0..700).map(|k| (k * 37 % ROWS as i64) - 300).collect();
    let mut net = Net::new();
    let p = dyn_param(&mut net, "x", "f32", 2);
    let idx = net.i64s("idx", &[indices.len() as u64], &indices);
    let axis = net.i64s("axis", &[], &[0]);
    let o = net.op(
        "g",
        "Gather",
        "opset8",
        r#"batch_dims="0""#,
        &[p, idx, axis],
        None,
    );
    net.result("out", o);
    let (shape, v) = f32_out(&net.exec(vec![("x", x.clone())]).unwrap(), "out");
    assert_eq!(shape, [indices.len(), COLS]);
    for (k, &i) in indices.iter().enumerate() {
        let source = i.rem_euclid(ROWS as i64) as usize;
        assert_eq!(&v[k * COLS..(k + 1) * COLS], row(source));
    }

    let keep: Vec<bool> = (0..ROWS).map(|r| r % 5 < 3).collect();
    let mut net = Net::new();
    let p = dyn_param(&mut net, "x", "f32", 2);
    let c = net.mask("c", &keep);
    let o = net.op("cmp", "Compress", "ovir1", r#"axis="0""#, &[p, c], None);
    net.result("out", o);
    let (shape, v) = f32_out(&net.exec(vec![("x", x)]).unwrap(), "out");
    let kept: Vec<usize> = (0..ROWS).filter(|&r| keep[r]).collect();
    assert_eq!(shape, [kept.len(), COLS]);
    for (k, &r) in kept.iter().enumerate() {
        assert_eq!(&v[k * COLS..(k + 1) * COLS], row(r));
    }
}

#[test]
fn concat_interleaves_rows_of_each_input() {
    let a = scrambled(&[ROWS, 300]);
    let b = arange(&[ROWS, 700]);
    let (av, bv) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
    let mut net = Net::new();
    let pa = dyn_param(&mut net, "a", "f32", 2);
    let pb = dyn_param(&mut net, "b", "f32", 2);
    let o = net.op("cat", "Concat", "opset1", r#"axis="1""#, &[pa, pb], None);
    net.result("out", o);
    let (shape, v) = f32_out(&net.exec(vec![("a", a), ("b", b)]).unwrap(), "out");
    assert_eq!(shape, [ROWS, 1000]);
    for r in 0..ROWS {
        assert_eq!(&v[r * 1000..r * 1000 + 300], &av[r * 300..(r + 1) * 300]);
        assert_eq!(
            &v[r * 1000 + 300..(r + 1) * 1000],
            &bv[r * 700..(r + 1) * 700]
        );
    }
}

#[test]
fn select_rows_under_one_condition_copy_either_operand() {
    // The condition and `then` are per row, `else` per column: a row takes
    // one `then` value repeated, or the whole `else` row.
    let cond: Vec<bool> = (0..ROWS).map(|r| r % 4 == 0).collect();
    let mut net = Net::new();
    let pc = dyn_param(&mut net, "c", "boolean", 2);
    let pt = dyn_param(&mut net, "t", "f32", 2);
    let pe = dyn_param(&mut net, "e", "f32", 2);
    let o = net.op("sel", "Select", "opset1", "", &[pc, pt, pe], None);
    net.result("out", o);
    let out = net
        .exec(vec![
            ("c", Tensor::from_vec(vec![ROWS, 1], cond.clone()).unwrap()),
            ("t", arange(&[ROWS, 1])),
            ("e", scrambled(&[1, COLS])),
        ])
        .unwrap();
    let ev = scrambled(&[COLS]).to_vec::<f32>().unwrap();
    let (shape, v) = f32_out(&out, "out");
    assert_eq!(shape, [ROWS, COLS]);
    assert!(v.iter().enumerate().all(|(i, &x)| {
        let (r, c) = (i / COLS, i % COLS);
        x == if cond[r] { r as f32 } else { ev[c] }
    }));
}

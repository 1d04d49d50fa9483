//! Values of the MatMul, SoftMax, StridedSlice, Split/VariadicSplit,
//! Reduce*, Tile, Pad, Range, Broadcast, NonZero and further elementwise
//! kernels, against values computed by hand or by a simple reference.

mod common;

use common::{arange, f32_out, Net, Out};
use executor::Tensor;

/// Runs a one-op net on f32 input `x` (shape given) with extra i64 const
/// inputs, returning the f32 output.
fn run1(
    type_name: &str,
    version: &str,
    attrs: &str,
    x: Tensor,
    consts: &[(&[u64], &[i64])],
) -> Result<(Vec<usize>, Vec<f32>), executor::ExecError> {
    let mut net = Net::new();
    let rank = x.shape.len();
    let p = net.param("x", "f32", &vec!["?"; rank].join(","));
    let mut inputs = vec![p];
    for (i, (shape, values)) in consts.iter().enumerate() {
        inputs.push(net.i64s(&format!("c{i}"), shape, values));
    }
    let o = net.op("op", type_name, version, attrs, &inputs, None);
    net.result("out", o);
    let out = net.exec(vec![("x", x)])?;
    Ok(f32_out(&out, "out"))
}

fn t(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::from_vec(shape.to_vec(), v.to_vec()).unwrap()
}

/// Reference matrix product over row-major f32 (no transposes).
fn matmul_ref(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut o = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            o[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
        }
    }
    o
}

fn matmul(a: Tensor, b: Tensor, attrs: &str) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let pa = net.param("a", "f32", &vec!["?"; a.shape.len()].join(","));
    let pb = net.param("b", "f32", &vec!["?"; b.shape.len()].join(","));
    let o = net.op("mm", "MatMul", "opset1", attrs, &[pa, pb], None);
    net.result("out", o);
    f32_out(&net.exec(vec![("a", a), ("b", b)]).unwrap(), "out")
}

#[test]
fn matmul_plain_and_transposed() {
    let a = arange(&[2, 3]);
    let b = arange(&[3, 4]);
    let (s, v) = matmul(a.clone(), b.clone(), "");
    assert_eq!(s, vec![2, 4]);
    let av = a.to_vec::<f32>().unwrap();
    let bv = b.to_vec::<f32>().unwrap();
    assert_eq!(v, matmul_ref(&av, &bv, 2, 3, 4));
    assert_eq!(v, vec![20., 23., 26., 29., 56., 68., 80., 92.]);
    // a^T stored as [3, 2], b^T stored as [4, 3].
    let at: Vec<f32> = (0..3)
        .flat_map(|k| (0..2).map(move |i| (i * 3 + k) as f32))
        .collect();
    let bt: Vec<f32> = (0..4)
        .flat_map(|j| (0..3).map(move |k| (k * 4 + j) as f32))
        .collect();
    let (s2, v2) = matmul(
        t(&[3, 2], &at),
        t(&[4, 3], &bt),
        r#"transpose_a="true" transpose_b="true""#,
    );
    assert_eq!((s2, v2), (vec![2, 4], v));
}

#[test]
fn matmul_vectors_and_batch_broadcast() {
    // [3] x [3] -> scalar
    let (s, v) = matmul(t(&[3], &[1., 2., 3.]), t(&[3], &[4., 5., 6.]), "");
    assert_eq!((s, v), (vec![], vec![32.]));
    // [3] x [3, 2] -> [2]
    let (s, v) = matmul(t(&[3], &[1., 2., 3.]), arange(&[3, 2]), "");
    assert_eq!((s, v), (vec![2], vec![16., 22.]));
    // [2, 3] x [3] -> [2]
    let (s, v) = matmul(arange(&[2, 3]), t(&[3], &[1., 1., 1.]), "");
    assert_eq!((s, v), (vec![2], vec![3., 12.]));
    // [2, 1, 2, 3] x [3, 3, 1]: batch [2, 3]
    let a = arange(&[2, 1, 2, 3]);
    let b = arange(&[3, 3, 1]);
    let (s, v) = matmul(a.clone(), b.clone(), "");
    assert_eq!(s, vec![2, 3, 2, 1]);
    let (av, bv) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
    let mut expected = Vec::new();
    for i in 0..2 {
        for j in 0..3 {
            expected.extend(matmul_ref(
                &av[i * 6..i * 6 + 6],
                &bv[j * 3..j * 3 + 3],
                2,
                3,
                1,
            ));
        }
    }
    assert_eq!(v, expected);
}

#[test]
fn matmul_integers_and_mismatch() {
    let mut net = Net::new();
    let pa = net.param("a", "i32", "?,?");
    let pb = net.param("b", "i32", "?,?");
    let o = net.op("mm", "MatMul", "opset1", "", &[pa, pb], None);
    net.result("out", o);
    let a = Tensor::from_vec(vec![1, 2], vec![i32::MAX, 2]).unwrap();
    let b = Tensor::from_vec(vec![2, 1], vec![2i32, 3]).unwrap();
    let out = net.exec(vec![("a", a), ("b", b)]).unwrap();
    assert_eq!(
        out["out"].to_vec::<i32>().unwrap(),
        vec![i32::MAX.wrapping_mul(2).wrapping_add(6)]
    );
    let e = matmul_err(arange(&[2, 3]), arange(&[2, 3]));
    assert!(
        e.contains("MatMul") || e.contains("contracted") || e.contains("mm"),
        "{e}"
    );
}

fn matmul_err(a: Tensor, b: Tensor) -> String {
    let mut net = Net::new();
    let pa = net.param("a", "f32", "?,?");
    let pb = net.param("b", "f32", "?,?");
    let o = net.op("mm", "MatMul", "opset1", "", &[pa, pb], None);
    net.result("out", o);
    net.exec(vec![("a", a), ("b", b)]).unwrap_err().to_string()
}

#[test]
fn softmax_is_stable_and_exact() {
    let x = t(&[2, 3], &[1000., 1001., 1002., 0., 0., f32::NEG_INFINITY]);
    let (s, v) = run1("SoftMax", "opset8", r#"axis="-1""#, x, &[]).unwrap();
    assert_eq!(s, vec![2, 3]);
    let e: Vec<f64> = [0f64, 1., 2.].iter().map(|x| x.exp()).collect();
    let sum: f64 = e.iter().sum();
    for k in 0..3 {
        assert_eq!(v[k], (e[k] / sum) as f32);
    }
    assert_eq!(&v[3..], &[0.5, 0.5, 0.0]);
    // SoftMax-1 along axis 0.
    let (_, v) = run1(
        "SoftMax",
        "opset1",
        r#"axis="0""#,
        t(&[2, 1], &[3., 3.]),
        &[],
    )
    .unwrap();
    assert_eq!(v, vec![0.5, 0.5]);
}

/// Reference StridedSlice for positive steps without masks.
#[test]
fn strided_slice_basic_and_negative_stride() {
    let x = arange(&[3, 4]);
    let (s, v) = run1(
        "StridedSlice",
        "opset1",
        r#"begin_mask="0,0" end_mask="0,0""#,
        x.clone(),
        &[(&[2], &[1, 0]), (&[2], &[3, 4]), (&[2], &[1, 2])],
    )
    .unwrap();
    assert_eq!((s, v), (vec![2, 2], vec![4., 6., 8., 10.]));
    // Reversed columns, all rows via begin/end masks.
    let (s, v) = run1(
        "StridedSlice",
        "opset1",
        r#"begin_mask="1,1" end_mask="1,1""#,
        x.clone(),
        &[(&[2], &[0, 0]), (&[2], &[0, 0]), (&[2], &[1, -1])],
    )
    .unwrap();
    assert_eq!(s, vec![3, 4]);
    assert_eq!(&v[..4], &[3., 2., 1., 0.]);
    assert_eq!(&v[8..], &[11., 10., 9., 8.]);
}

#[test]
fn strided_slice_shrink_new_axis_ellipsis() {
    let x = arange(&[2, 3, 4]);
    // x[1, ..., newaxis, 1:3]
    let (s, v) = run1(
        "StridedSlice",
        "opset1",
        r#"begin_mask="0,0,0,0" end_mask="0,0,0,0" shrink_axis_mask="1,0,0,0" new_axis_mask="0,0,1,0" ellipsis_mask="0,1,0,0""#,
        x,
        &[
            (&[4], &[1, 0, 0, 1]),
            (&[4], &[2, 0, 0, 3]),
            (&[4], &[1, 1, 1, 1]),
        ],
    )
    .unwrap();
    assert_eq!(s, vec![3, 1, 2]);
    assert_eq!(v, vec![13., 14., 17., 18., 21., 22.]);
    // Negative shrink index.
    let (s, v) = run1(
        "StridedSlice",
        "opset1",
        r#"begin_mask="0" end_mask="0" shrink_axis_mask="1""#,
        arange(&[3, 2]),
        &[(&[1], &[-1]), (&[1], &[0]), (&[1], &[1])],
    )
    .unwrap();
    assert_eq!((s, v), (vec![2], vec![4., 5.]));
}

#[test]
fn split_and_variadic_split() {
    let mut net = Net::new();
    let p = net.param("x", "f32", "?,?");
    let axis = net.i64s("axis", &[], &[1]);
    let outs = net.op_multi(
        "split",
        "Split",
        "opset1",
        r#"num_splits="3""#,
        &[p, axis],
        vec![None, None, None],
    );
    for (k, &o) in outs.iter().enumerate() {
        net.result(&format!("o{k}"), o);
    }
    let out = net.exec(vec![("x", arange(&[2, 6]))]).unwrap();
    assert_eq!(f32_out(&out, "o0"), (vec![2, 2], vec![0., 1., 6., 7.]));
    assert_eq!(f32_out(&out, "o2"), (vec![2, 2], vec![4., 5., 10., 11.]));
    assert!(net.exec(vec![("x", arange(&[2, 5]))]).is_err());

    let mut net = Net::new();
    let p = net.param("x", "f32", "?,?");
    let axis = net.i64s("axis", &[], &[-1]);
    let lengths = net.i64s("lengths", &[3], &[1, -1, 2]);
    let outs: Vec<Out> = net.op_multi(
        "vsplit",
        "VariadicSplit",
        "opset1",
        "",
        &[p, axis, lengths],
        vec![None, None, None],
    );
    for (k, &o) in outs.iter().enumerate() {
        net.result(&format!("o{k}"), o);
    }
    let out = net.exec(vec![("x", arange(&[2, 6]))]).unwrap();
    assert_eq!(f32_out(&out, "o0"), (vec![2, 1], vec![0., 6.]));
    assert_eq!(
        f32_out(&out, "o1"),
        (vec![2, 3], vec![1., 2., 3., 7., 8., 9.])
    );
    assert_eq!(f32_out(&out, "o2"), (vec![2, 2], vec![4., 5., 10., 11.]));
}

#[test]
fn reductions() {
    let x = arange(&[2, 3]);
    let r = |op: &str, axes: &[i64], keep: bool| {
        run1(
            op,
            "opset1",
            &format!(r#"keep_dims="{keep}""#),
            x.clone(),
            &[(&[axes.len() as u64], axes)],
        )
        .unwrap()
    };
    assert_eq!(r("ReduceSum", &[1], false), (vec![2], vec![3., 12.]));
    assert_eq!(r("ReduceSum", &[0], true), (vec![1, 3], vec![3., 5., 7.]));
    assert_eq!(r("ReduceSum", &[0, -1], false), (vec![], vec![15.]));
    assert_eq!(r("ReduceProd", &[1], true), (vec![2, 1], vec![0., 60.]));
    assert_eq!(r("ReduceMax", &[0], false), (vec![3], vec![3., 4., 5.]));
    assert_eq!(r("ReduceMin", &[1], false), (vec![2], vec![0., 3.]));
    assert_eq!(r("ReduceMean", &[1], false), (vec![2], vec![1., 4.]));
    assert_eq!(r("ReduceMean", &[0, 1], true), (vec![1, 1], vec![2.5]));

    let mut net = Net::new();
    let p = net.param("x", "i8", "?");
    let axes = net.i64s("axes", &[1], &[0]);
    let o = net.op("sum", "ReduceSum", "opset1", "", &[p, axes], None);
    net.result("out", o);
    let x = Tensor::from_vec(vec![3], vec![100i8, 100, 1]).unwrap();
    let out = net.exec(vec![("x", x)]).unwrap();
    assert_eq!(
        out["out"].to_vec::<i8>().unwrap(),
        vec![(201i32 - 256) as i8]
    );
}

#[test]
fn tile_repeats_with_rank_padding() {
    let (s, v) = run1("Tile", "opset1", "", t(&[2], &[1., 2.]), &[(&[2], &[2, 2])]).unwrap();
    assert_eq!((s, v), (vec![2, 4], vec![1., 2., 1., 2., 1., 2., 1., 2.]));
    let (s, v) = run1("Tile", "opset1", "", arange(&[2, 2]), &[(&[1], &[2])]).unwrap();
    assert_eq!((s, v), (vec![2, 4], vec![0., 1., 0., 1., 2., 3., 2., 3.]));
    let (s, v) = run1("Tile", "opset1", "", arange(&[2, 1]), &[(&[2], &[2, 0])]).unwrap();
    assert_eq!((s, v), (vec![4, 0], vec![]));
}

fn pad(
    x: Tensor,
    begin: &[i64],
    end: &[i64],
    mode: &str,
    value: Option<f32>,
) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let p = net.param("x", "f32", &vec!["?"; x.shape.len()].join(","));
    let n = begin.len() as u64;
    let b = net.i64s("b", &[n], begin);
    let e = net.i64s("e", &[n], end);
    let mut inputs = vec![p, b, e];
    if let Some(v) = value {
        inputs.push(net.f32s("v", &[], &[v]));
    }
    let attrs = format!(r#"pad_mode="{mode}""#);
    let o = net.op("pad", "Pad", "opset12", &attrs, &inputs, None);
    net.result("out", o);
    f32_out(&net.exec(vec![("x", x)]).unwrap(), "out")
}

#[test]
fn pad_modes() {
    let x = t(&[4], &[1., 2., 3., 4.]);
    assert_eq!(
        pad(x.clone(), &[2], &[1], "constant", Some(9.)),
        (vec![7], vec![9., 9., 1., 2., 3., 4., 9.])
    );
    assert_eq!(
        pad(x.clone(), &[2], &[1], "constant", None),
        (vec![7], vec![0., 0., 1., 2., 3., 4., 0.])
    );
    assert_eq!(
        pad(x.clone(), &[2], &[2], "edge", None),
        (vec![8], vec![1., 1., 1., 2., 3., 4., 4., 4.])
    );
    assert_eq!(
        pad(x.clone(), &[2], &[2], "reflect", None),
        (vec![8], vec![3., 2., 1., 2., 3., 4., 3., 2.])
    );
    assert_eq!(
        pad(x.clone(), &[2], &[2], "symmetric", None),
        (vec![8], vec![2., 1., 1., 2., 3., 4., 4., 3.])
    );
    // Negative pads crop.
    assert_eq!(
        pad(x, &[-1], &[1], "constant", None),
        (vec![4], vec![2., 3., 4., 0.])
    );
    // 2-D edge.
    assert_eq!(
        pad(arange(&[2, 2]), &[1, 0], &[0, 1], "edge", None),
        (vec![3, 3], vec![0., 1., 1., 0., 1., 1., 2., 3., 3.])
    );
}

#[test]
fn range_static_and_run_time() {
    let mut net = Net::new();
    let a = net.i64s("a", &[], &[1]);
    let b = net.i64s("b", &[], &[10]);
    let c = net.i64s("c", &[], &[3]);
    let o = net.op(
        "r",
        "Range",
        "opset4",
        r#"output_type="f32""#,
        &[a, b, c],
        None,
    );
    net.result("out", o);
    assert_eq!(
        f32_out(&net.exec(vec![]).unwrap(), "out"),
        (vec![3], vec![1., 4., 7.])
    );

    let mut net = Net::new();
    let a = net.param("a", "f32", "");
    let b = net.param("b", "f32", "");
    let c = net.param("c", "f32", "");
    let o = net.op(
        "r",
        "Range",
        "opset4",
        r#"output_type="i32""#,
        &[a, b, c],
        None,
    );
    net.result("out", o);
    let s = |v: f32| Tensor::scalar(v);
    let out = net
        .exec(vec![("a", s(5.7)), ("b", s(0.2)), ("c", s(-2.5))])
        .unwrap();
    // Truncated to 5, 0, -2: 5, 3, 1.
    assert_eq!(out["out"].to_vec::<i32>().unwrap(), vec![5, 3, 1]);
    let out = net
        .exec(vec![("a", s(0.0)), ("b", s(-1.0)), ("c", s(1.0))])
        .unwrap();
    assert_eq!(out["out"].shape, vec![0]);

    let mut net = Net::new();
    let a = net.param("a", "f32", "");
    let b = net.param("b", "f32", "");
    let c = net.param("c", "f32", "");
    let o = net.op("r", "Range", "opset1", "", &[a, b, c], None);
    net.result("out", o);
    let out = net
        .exec(vec![("a", s(0.0)), ("b", s(1.0)), ("c", s(0.25))])
        .unwrap();
    assert_eq!(f32_out(&out, "out"), (vec![4], vec![0., 0.25, 0.5, 0.75]));
}

fn broadcast(
    x: Tensor,
    target: &[i64],
    mode: &str,
    axes: Option<&[i64]>,
) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let p = net.param("x", "f32", &vec!["?"; x.shape.len()].join(","));
    let tg = net.i64s("t", &[target.len() as u64], target);
    let mut inputs = vec![p, tg];
    if let Some(a) = axes {
        inputs.push(net.i64s("a", &[a.len() as u64], a));
    }
    let attrs = format!(r#"mode="{mode}""#);
    let o = net.op("b", "Broadcast", "opset3", &attrs, &inputs, None);
    net.result("out", o);
    f32_out(&net.exec(vec![("x", x)]).unwrap(), "out")
}

#[test]
fn broadcast_modes() {
    assert_eq!(
        broadcast(t(&[3], &[1., 2., 3.]), &[2, 3], "numpy", None),
        (vec![2, 3], vec![1., 2., 3., 1., 2., 3.])
    );
    assert_eq!(
        broadcast(t(&[2, 1], &[1., 2.]), &[1, 3], "bidirectional", None),
        (vec![2, 3], vec![1., 1., 1., 2., 2., 2.])
    );
    assert_eq!(
        broadcast(t(&[2], &[1., 2.]), &[2, 3], "explicit", Some(&[0])),
        (vec![2, 3], vec![1., 1., 1., 2., 2., 2.])
    );
    // Non-adjacent mapping: [2, 3] into [2, 2, 3] at axes 0, 2.
    let (s, v) = broadcast(arange(&[2, 3]), &[2, 2, 3], "explicit", Some(&[0, 2]));
    assert_eq!(s, vec![2, 2, 3]);
    assert_eq!(v, vec![0., 1., 2., 0., 1., 2., 3., 4., 5., 3., 4., 5.]);
}

#[test]
fn nonzero_counts_from_data() {
    let mut net = Net::new();
    let p = net.param("x", "f32", "?,?");
    let o = net.op(
        "nz",
        "NonZero",
        "opset3",
        r#"output_type="i32""#,
        &[p],
        None,
    );
    net.result("out", o);
    let x = t(&[2, 3], &[0., 1., 0., f32::NAN, 0., 2.]);
    let out = net.exec(vec![("x", x)]).unwrap();
    assert_eq!(out["out"].shape, vec![2, 3]);
    assert_eq!(out["out"].to_vec::<i32>().unwrap(), vec![0, 1, 1, 1, 0, 2]);
    let out = net.exec(vec![("x", t(&[1, 2], &[0., 0.]))]).unwrap();
    assert_eq!(out["out"].shape, vec![2, 0]);

    let mut net = Net::new();
    let p = net.param("x", "f32", "");
    let o = net.op("nz", "NonZero", "opset3", "", &[p], None);
    net.result("out", o);
    let out = net.exec(vec![("x", Tensor::scalar(3.0f32))]).unwrap();
    assert_eq!(out["out"].shape, vec![1, 1]);
    assert_eq!(out["out"].to_vec::<i64>().unwrap(), vec![0]);
    let out = net.exec(vec![("x", Tensor::scalar(0.0f32))]).unwrap();
    assert_eq!(out["out"].shape, vec![0, 0]);
}

fn binary<T: executor::Element>(
    op: &str,
    et: &str,
    a: Vec<T>,
    b: Vec<T>,
) -> Result<Vec<T>, String> {
    let mut net = Net::new();
    let pa = net.param("a", et, "?");
    let pb = net.param("b", et, "?");
    let o = net.op("op", op, "opset1", "", &[pa, pb], None);
    net.result("out", o);
    let n = a.len();
    let out = net
        .exec(vec![
            ("a", Tensor::from_vec(vec![n], a).unwrap()),
            ("b", Tensor::from_vec(vec![n], b).unwrap()),
        ])
        .map_err(|e| e.to_string())?;
    Ok(out["out"].to_vec::<T>().unwrap())
}

#[test]
fn remainder_power_squared_difference() {
    let a = vec![7i32, -7, 7, -7];
    let b = vec![3i32, 3, -3, -3];
    assert_eq!(
        binary("FloorMod", "i32", a.clone(), b.clone()).unwrap(),
        vec![1, 2, -2, -1]
    );
    assert_eq!(
        binary("Mod", "i32", a.clone(), b.clone()).unwrap(),
        vec![1, -1, 1, -1]
    );
    assert!(binary("Mod", "i32", vec![1], vec![0])
        .unwrap_err()
        .contains("division by zero"));
    let af = vec![7.5f32, -7.5, 7.5, -7.5];
    let bf = vec![2f32, 2., -2., -2.];
    assert_eq!(
        binary("FloorMod", "f32", af.clone(), bf.clone()).unwrap(),
        vec![1.5, 0.5, -0.5, -1.5]
    );
    assert_eq!(
        binary("Mod", "f32", af, bf).unwrap(),
        vec![1.5, -1.5, 1.5, -1.5]
    );
    assert_eq!(
        binary("Power", "i32", vec![2, 3, -1, 2, 0], vec![10, 0, 3, -1, 0]).unwrap(),
        vec![1024, 1, -1, 0, 1]
    );
    assert_eq!(
        binary("Power", "f32", vec![4f32, 2.], vec![0.5, -1.]).unwrap(),
        vec![2., 0.5]
    );
    assert_eq!(
        binary("SquaredDifference", "f32", vec![1f32, 5.], vec![4., 2.]).unwrap(),
        vec![9., 9.]
    );
    assert_eq!(
        binary("SquaredDifference", "u8", vec![1u8, 5], vec![4, 2]).unwrap(),
        vec![9, 9]
    );
}

fn unary(op: &str, version: &str, attrs: &str, x: &[f32]) -> Vec<f32> {
    run1(op, version, attrs, t(&[x.len()], x), &[]).unwrap().1
}

#[test]
fn rounding_and_sign() {
    let x = [-2.5f32, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7];
    assert_eq!(
        unary("Floor", "opset1", "", &x),
        vec![-3., -2., -1., 0., 1., 2., 2.]
    );
    assert_eq!(
        unary("Ceiling", "opset1", "", &x),
        vec![-2., -1., -0., 1., 2., 3., 3.]
    );
    assert_eq!(
        unary("Round", "opset5", r#"mode="half_to_even""#, &x),
        vec![-2., -2., -0., 0., 2., 2., 3.]
    );
    assert_eq!(
        unary("Round", "opset5", r#"mode="half_away_from_zero""#, &x),
        vec![-3., -2., -1., 1., 2., 3., 3.]
    );
    assert_eq!(
        unary("Sign", "opset1", "", &[-3., 0., 2.]),
        vec![-1., 0., 1.]
    );
    assert_eq!(
        unary("Clamp", "opset1", r#"min="-1" max="2""#, &[-3., 0.5, 7.]),
        vec![-1., 0.5, 2.]
    );
}

#[test]
fn float_functions() {
    let close = |a: &[f32], b: &[f64]| {
        for (x, y) in a.iter().zip(b) {
            assert!(
                (*x as f64 - y).abs() <= 1e-6 * y.abs().max(1.0),
                "{a:?} vs {b:?}"
            );
        }
    };
    // erf reference values (Abramowitz & Stegun table).
    close(
        &unary("Erf", "opset1", "", &[0., 0.5, 1., 2., -3., 4.]),
        &[
            0.,
            0.520_499_877_8,
            0.842_700_792_9,
            0.995_322_265_0,
            -0.999_977_909_5,
            0.999_999_984_6,
        ],
    );
    close(
        &unary("Log", "opset1", "", &[1., std::f32::consts::E]),
        &[0., 1.],
    );
    let x = [-2f32, 0., 1.5];
    let xs: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let sp = |v: f64| (1.0 + v.exp()).ln();
    close(
        &unary("SoftPlus", "opset4", "", &x),
        &xs.iter().map(|&v| sp(v)).collect::<Vec<_>>(),
    );
    close(
        &unary("Mish", "opset4", "", &x),
        &xs.iter().map(|&v| v * sp(v).tanh()).collect::<Vec<_>>(),
    );
    close(
        &unary("Swish", "opset4", "", &x),
        &xs.iter().map(|&v| v * sig(v)).collect::<Vec<_>>(),
    );
    close(
        &unary("HSwish", "opset4", "", &[-4., -1., 1., 4.]),
        &[0., -2. / 6., 4. / 6., 4.],
    );
    close(
        &unary("HSigmoid", "opset5", "", &[-4., 0., 4.]),
        &[0., 0.5, 1.],
    );
    close(
        &unary("Elu", "opset1", r#"alpha="0.5""#, &x),
        &[0.5 * ((-2f64).exp() - 1.0), 0., 1.5],
    );
    // Gelu: erf form and tanh approximation.
    close(
        &unary("Gelu", "opset7", "", &[-1., 0., 1.]),
        &[-0.158_655_253_9, 0., 0.841_344_746_1],
    );
    let tanh_gelu = |v: f64| {
        0.5 * v * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (v + 0.044715 * v * v * v)).tanh())
    };
    close(
        &unary("Gelu", "opset7", r#"approximation_mode="tanh""#, &[-1., 1.]),
        &[tanh_gelu(-1.0), tanh_gelu(1.0)],
    );
    close(&unary("Gelu", "opset2", "", &[1.]), &[0.841_344_746_1]);
}

#[test]
fn prelu_hard_sigmoid_convert_like() {
    let mut net = Net::new();
    let p = net.param("x", "f32", "?,?");
    let slope = net.f32s("s", &[2], &[0.5, 2.0]);
    let o = net.op("pr", "PReLU", "opset1", "", &[p, slope], None);
    net.result("out", o);
    let out = net
        .exec(vec![("x", t(&[2, 2], &[-2., 3., -4., 5.]))])
        .unwrap();
    // Channel axis 1 has 2: slope per column.
    assert_eq!(f32_out(&out, "out").1, vec![-1., 3., -2., 5.]);
    // [1, 2, 3]: the slope goes on the channel axis 1, not the last.
    let mut net = Net::new();
    let p = net.param("x", "f32", "?,?,?");
    let slope = net.f32s("s", &[2], &[0.5, 2.0]);
    let o = net.op("pr", "PReLU", "opset1", "", &[p, slope], None);
    net.result("out", o);
    let out = net
        .exec(vec![("x", t(&[1, 2, 3], &[-2., 3., -4., -6., 5., 1.]))])
        .unwrap();
    assert_eq!(f32_out(&out, "out").1, vec![-1., 3., -2., -12., 5., 1.]);

    let mut net = Net::new();
    let p = net.param("x", "f32", "?");
    let alpha = net.f32s("a", &[], &[0.2]);
    let beta = net.f32s("b", &[], &[0.5]);
    let o = net.op("hs", "HardSigmoid", "opset1", "", &[p, alpha, beta], None);
    net.result("out", o);
    let out = net.exec(vec![("x", t(&[3], &[-5., 0., 5.]))]).unwrap();
    assert_eq!(f32_out(&out, "out").1, vec![0., 0.5, 1.]);

    let mut net = Net::new();
    let p = net.param("x", "f32", "?");
    let like = net.i64s("like", &[1], &[0]);
    let o = net.op("cl", "ConvertLike", "opset1", "", &[p, like], None);
    net.result("out", o);
    let out = net.exec(vec![("x", t(&[2], &[2.7, -1.5]))]).unwrap();
    assert_eq!(out["out"].to_vec::<i64>().unwrap(), vec![2, -1]);
}

#[test]
fn every_registry_op_has_a_kernel() {
    for def in shape_infer::Registry::standard().ops() {
        assert!(
            executor::OPS.contains(&def.type_name),
            "{} has no kernel",
            def.type_name
        );
    }
}

#[test]
fn half_precision_types_compute_through_wider_floats() {
    use half::{bf16, f16};
    let mut net = Net::new();
    let pa = net.param("a", "f16", "?,?");
    let pb = net.param("b", "f16", "?,?");
    let o = net.op("mm", "MatMul", "opset1", "", &[pa, pb], None);
    net.result("out", o);
    let h = |v: &[f32]| v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>();
    let a = Tensor::from_vec(vec![1, 2], h(&[1.5, 2.0])).unwrap();
    let b = Tensor::from_vec(vec![2, 1], h(&[4.0, 0.25])).unwrap();
    let out = net.exec(vec![("a", a), ("b", b)]).unwrap();
    assert_eq!(out["out"].to_vec::<f16>().unwrap(), h(&[6.5]));

    let mut net = Net::new();
    let p = net.param("x", "bf16", "?");
    let axes = net.i64s("axes", &[1], &[0]);
    let o = net.op("m", "ReduceMean", "opset1", "", &[p, axes], None);
    net.result("out", o);
    let x: Vec<bf16> = [1.0f32, 2.0, 6.0]
        .iter()
        .map(|&v| bf16::from_f32(v))
        .collect();
    let out = net
        .exec(vec![("x", Tensor::from_vec(vec![3], x).unwrap())])
        .unwrap();
    assert_eq!(
        out["out"].to_vec::<bf16>().unwrap(),
        vec![bf16::from_f32(3.0)]
    );
}

/// LRN of `x` over `axes` with alpha 1, beta 1, bias 1 and `size`.
fn lrn(x: Tensor, axes: &[i64], size: u32) -> Result<Vec<f32>, executor::ExecError> {
    let attrs = format!(r#"alpha="1" beta="1" bias="1" size="{size}""#);
    let n = axes.len() as u64;
    run1("LRN", "opset1", &attrs, x, &[(&[n], axes)]).map(|(_, v)| v)
}

#[test]
fn lrn_windows() {
    // Across dim 1 of [1, 4, 1]: size 3 sums x[c-1..=c+1]² (clipped) and
    // scales alpha by 1/3; size 4 has the same window ((4 - 1) / 2 = 1 on
    // each side, as OpenVINO) and scales by 1/4.
    let x = t(&[1, 4, 1], &[1.0, 2.0, 3.0, 4.0]);
    let sums = [5.0f32, 14.0, 29.0, 25.0];
    for (size, scale) in [(3, 1.0 / 3.0), (4, 0.25)] {
        let got = lrn(x.clone(), &[1], size).unwrap();
        for (c, (&g, s)) in got.iter().zip(sums).enumerate() {
            let want = (c + 1) as f32 / (1.0 + scale * s);
            assert!((g - want).abs() < 1e-6, "size {size}, c {c}: {g} vs {want}");
        }
    }
    // Two axes: the box of 3 x 3 (clipped), alpha / 9; size 1 is x / (1 + x²).
    let x = arange(&[1, 1, 2, 3]);
    let got = lrn(x, &[3, 2], 3).unwrap();
    let v: Vec<f32> = (0..6).map(|i| i as f32).collect();
    for (k, &g) in got.iter().enumerate() {
        let (h, w) = (k / 3, k % 3);
        let mut s = 0.0;
        for (j, &u) in v.iter().enumerate() {
            if (j % 3).abs_diff(w) <= 1 && (j / 3).abs_diff(h) <= 1 {
                s += u * u;
            }
        }
        let want = v[k] / (1.0 + s / 9.0);
        assert!((g - want).abs() < 1e-6, "{k}: {g} vs {want}");
    }
    let got = lrn(t(&[2], &[2.0, -3.0]), &[0], 1).unwrap();
    assert_eq!(got, vec![2.0 / 5.0, -3.0 / 10.0]);
}

#[test]
fn lrn_axes_from_data_are_checked() {
    // Axes computed at run time: out of range, negative or repeated is an
    // error, not a panic.
    for axes in [&[3i64][..], &[-1], &[1, 1]] {
        let mut net = Net::new();
        let p = net.param("x", "f32", "?,?,?");
        let a = net.param("axes", "i64", "?");
        let attrs = r#"alpha="1" beta="0.75" bias="1" size="3""#;
        let o = net.op("op", "LRN", "opset1", attrs, &[p, a], None);
        net.result("out", o);
        let axes = Tensor::from_vec(vec![axes.len()], axes.to_vec()).unwrap();
        let e = net
            .exec(vec![("x", arange(&[1, 2, 3])), ("axes", axes)])
            .unwrap_err();
        assert!(e.to_string().contains("axis"), "{e}");
    }
}

/// FakeQuantize of f32 `x` by f32 Const ranges (shape, values) with `attrs`.
fn fake_quantize(x: Tensor, ranges: [(&[u64], &[f32]); 4], attrs: &str) -> Vec<f32> {
    let mut net = Net::new();
    let p = net.param("x", "f32", &vec!["?"; x.shape.len()].join(","));
    let mut inputs = vec![p];
    for (i, (shape, values)) in ranges.iter().enumerate() {
        inputs.push(net.f32s(&format!("r{i}"), shape, values));
    }
    let o = net.op("op", "FakeQuantize", "opset1", attrs, &inputs, None);
    net.result("out", o);
    f32_out(&net.exec(vec![("x", x)]).unwrap(), "out").1
}

#[test]
fn fake_quantize_levels_ties_and_inverted_ranges() {
    // 4 levels over [0, 3]: the levels 0, 1, 2, 3, ties to even (0.5 to 0,
    // 1.5 and 2.5 to 2), everything at or below 0 to output_low, above 3 to
    // output_high; the output range [0, 6] doubles them.
    let x = t(&[8], &[-1.0, 0.0, 0.5, 1.0, 1.5, 2.5, 3.0, 7.0]);
    let s: &[u64] = &[];
    let got = fake_quantize(
        x.clone(),
        [(s, &[0.0]), (s, &[3.0]), (s, &[0.0]), (s, &[6.0])],
        r#"levels="4""#,
    );
    assert_eq!(got, vec![0.0, 0.0, 0.0, 2.0, 4.0, 4.0, 6.0, 6.0]);
    // input_low above input_high (OpenVINO's reference): output_low up to
    // input_high (0), output_high above input_low (3), the ramp between
    // running from input_low (2.5 is level 0.5 from it: 0 by ties to even).
    let got = fake_quantize(
        x,
        [(s, &[3.0]), (s, &[0.0]), (s, &[0.0]), (s, &[6.0])],
        r#"levels="4""#,
    );
    assert_eq!(got, vec![0.0, 0.0, 4.0, 4.0, 4.0, 0.0, 0.0, 6.0]);
}

#[test]
fn fake_quantize_broadcast_modes() {
    // Per channel [1, 2, 1] by numpy, [1, 2] at axis 0 by pdpd (axis 0, as
    // OpenVINO writes it), equal shapes by none: the same quantization.
    let x = t(&[1, 2, 3], &[-1.0, 0.2, 0.9, -1.0, 0.2, 0.9]);
    let il = [-1.0, -2.0];
    let ih = [1.0, 2.0];
    let per_channel = |shape: &'static [u64]| {
        [
            (shape, &il[..]),
            (shape, &ih[..]),
            (&[][..], &[-1.0f32][..]),
            (&[][..], &[1.0f32][..]),
        ]
    };
    let want = vec![-1.0, 0.0, 1.0, -1.0, 0.0, 0.0];
    let numpy = fake_quantize(x.clone(), per_channel(&[1, 2, 1]), r#"levels="3""#);
    assert_eq!(numpy, want);
    let pdpd = fake_quantize(
        x.clone(),
        per_channel(&[1, 2]),
        r#"levels="3" auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="0""#,
    );
    assert_eq!(pdpd, want);
    let full = |v: &[f32; 2]| [v[0], v[0], v[0], v[1], v[1], v[1]];
    let (il6, ih6) = (full(&il), full(&ih));
    let (ol6, oh6) = ([-1.0f32; 6], [1.0f32; 6]);
    let s: &[u64] = &[1, 2, 3];
    let none = fake_quantize(
        x,
        [(s, &il6), (s, &ih6), (s, &ol6), (s, &oh6)],
        r#"levels="3" auto_broadcast="none""#,
    );
    assert_eq!(none, want);
}

#[test]
fn attention_broadcasts_one_query_row_over_the_masks_rows() {
    // Query [1, 1, 1, 2] against a mask of two rows: the output has two
    // rows, each softmax(q·kᵀ·scale + mask row)·v.
    let mut net = Net::new();
    let q = net.f32s("q", &[1, 1, 1, 2], &[1.0, 0.5]);
    let k = net.f32s("k", &[1, 1, 3, 2], &[1.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    let v = net.f32s("v", &[1, 1, 3, 2], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let mask = net.f32s("mask", &[1, 1, 2, 3], &[0.0, 0.0, 0.0, -1.0, 0.5, 0.0]);
    let a = net.op(
        "a",
        "ScaledDotProductAttention",
        "opset13",
        r#"causal="false""#,
        &[q, k, v, mask],
        None,
    );
    net.result("out", a);
    let out = net.exec(vec![]).expect("runs");
    let (shape, got) = f32_out(&out, "out");
    assert_eq!(shape, [1, 1, 2, 2]);
    let scale = 1.0 / 2f64.sqrt();
    let scores = [1.0 * scale, 0.5 * scale, 1.5 * scale];
    let masks = [[0.0, 0.0, 0.0], [-1.0, 0.5, 0.0]];
    for (row, m) in masks.iter().enumerate() {
        let e: Vec<f64> = (0..3).map(|j| (scores[j] + m[j]).exp()).collect();
        let sum: f64 = e.iter().sum();
        for c in 0..2 {
            let want: f64 = (0..3)
                .map(|j| e[j] / sum * [1.0, 3.0, 5.0][j] + if c == 1 { e[j] / sum } else { 0.0 })
                .sum();
            assert!(
                (f64::from(got[row * 2 + c]) - want).abs() < 1e-5,
                "row {row} col {c}: {} vs {want}",
                got[row * 2 + c]
            );
        }
    }
}

//! Every example of the specs in /work/shared/spec, run and compared by value:
//! OpenVINO Select-1, ONNX Reshape, Slice and Compress, jax.numpy.extract.

mod common;

use common::{arange, f32_out, Net};
use executor::{ExecError, Tensor};

// ---------------------------------------------------------------- Select

/// Select with numpy broadcast: `then` [2, 3, 4, 5], `else` [1], `cond` of `cond_shape`.
/// The output shape and values, and the mask used.
type SelectRun = (Vec<usize>, Vec<f32>, Vec<bool>);

fn select_example(cond_shape: &[usize]) -> Result<SelectRun, ExecError> {
    let mut net = Net::new();
    let dims = |s: &[usize]| s.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
    let cond = net.param("cond", "boolean", &dims(cond_shape));
    let then = net.param("then", "f32", "2,3,4,5");
    let els = net.param("else", "f32", "1");
    let out = net.op(
        "select",
        "Select",
        "opset1",
        "",
        &[cond, then, els],
        Some(vec![-1; 4]),
    );
    net.result("out", out);
    let n: usize = cond_shape.iter().product();
    let mask: Vec<bool> = (0..n).map(|i| i % 3 != 1).collect();
    let out = net.exec(vec![
        (
            "cond",
            Tensor::from_vec(cond_shape.to_vec(), mask.clone()).unwrap(),
        ),
        ("then", arange(&[2, 3, 4, 5])),
        ("else", Tensor::from_vec(vec![1], vec![-1.0f32]).unwrap()),
    ])?;
    let (shape, values) = f32_out(&out, "out");
    Ok((shape, values, mask))
}

#[test]
fn select_cond_4_5_into_2_3_4_5() {
    let (shape, values, mask) = select_example(&[4, 5]).unwrap();
    assert_eq!(shape, vec![2, 3, 4, 5]);
    for (i, v) in values.iter().enumerate() {
        let expected = if mask[i % 20] { i as f32 } else { -1.0 };
        assert_eq!(*v, expected, "element {i}");
    }
}

#[test]
fn select_cond_3_1_5_into_2_3_4_5() {
    let (shape, values, mask) = select_example(&[3, 1, 5]).unwrap();
    assert_eq!(shape, vec![2, 3, 4, 5]);
    for (i, v) in values.iter().enumerate() {
        let (c, l) = ((i / 20) % 3, i % 5);
        let expected = if mask[c * 5 + l] { i as f32 } else { -1.0 };
        assert_eq!(*v, expected, "element {i}");
    }
}

#[test]
fn select_cond_3_5_into_2_3_4_5_is_invalid() {
    let e = select_example(&[3, 5]).unwrap_err();
    assert!(
        matches!(&e, ExecError::Inference(d) if d.iter().any(|d| d.rule == "broadcast-incompatible")),
        "{e}"
    );
}

#[test]
fn select_pdpd_and_none_broadcast() {
    // pdpd: cond [2, 3] and else [3] placed at axis 1 of then [2, 3, 2].
    let mut net = Net::new();
    let cond = net.param("cond", "boolean", "2,3");
    let then = net.param("then", "f32", "2,3,2");
    let els = net.param("else", "f32", "3");
    let out = net.op(
        "select",
        "Select",
        "opset1",
        r#"auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="1""#,
        &[cond, then, els],
        Some(vec![-1; 3]),
    );
    net.result("out", out);
    let mask = vec![true, false, true, false, true, false];
    let out = net.exec(vec![
        ("cond", Tensor::from_vec(vec![2, 3], mask.clone()).unwrap()),
        ("then", arange(&[2, 3, 2])),
        (
            "else",
            Tensor::from_vec(vec![3], vec![-1.0f32, -2.0, -3.0]).unwrap(),
        ),
    ]);
    // else [3] at axis 1 of a rank-3 result is legal pdpd; cond [2, 3] at axis 1 is not
    // (it would need axes 1 and 2 = [3, 2]), so inference rejects it.
    assert!(matches!(out, Err(ExecError::Inference(_))), "{out:?}");

    let mut net = Net::new();
    let cond = net.param("cond", "boolean", "2,3");
    let then = net.param("then", "f32", "2,3");
    let els = net.param("else", "f32", "2,3");
    let out = net.op(
        "select",
        "Select",
        "opset1",
        r#"auto_broadcast="none""#,
        &[cond, then, els],
        Some(vec![-1; 2]),
    );
    net.result("out", out);
    let out = net
        .exec(vec![
            ("cond", Tensor::from_vec(vec![2, 3], mask.clone()).unwrap()),
            ("then", arange(&[2, 3])),
            (
                "else",
                Tensor::from_vec(vec![2, 3], vec![-1.0f32; 6]).unwrap(),
            ),
        ])
        .unwrap();
    assert_eq!(
        f32_out(&out, "out").1,
        vec![0.0, -1.0, 2.0, -1.0, 4.0, -1.0]
    );

    // pdpd with cond [2, 3] at axis 0 of [2, 3, 2] and else [2, 3] at axis 0.
    let mut net = Net::new();
    let cond = net.param("cond", "boolean", "2,3");
    let then = net.param("then", "f32", "2,3,2");
    let els = net.param("else", "f32", "2,3");
    let out = net.op(
        "select",
        "Select",
        "opset1",
        r#"auto_broadcast="pdpd" auto_broadcast.auto_broadcast_axis="0""#,
        &[cond, then, els],
        Some(vec![-1; 3]),
    );
    net.result("out", out);
    let out = net
        .exec(vec![
            ("cond", Tensor::from_vec(vec![2, 3], mask).unwrap()),
            ("then", arange(&[2, 3, 2])),
            (
                "else",
                Tensor::from_vec(vec![2, 3], vec![-1.0f32, -2.0, -3.0, -4.0, -5.0, -6.0]).unwrap(),
            ),
        ])
        .unwrap();
    assert_eq!(
        f32_out(&out, "out").1,
        vec![0.0, 1.0, -2.0, -2.0, 4.0, 5.0, -4.0, -4.0, 8.0, 9.0, -6.0, -6.0]
    );
}

// ---------------------------------------------------------------- Reshape

fn reshape(original: &[usize], target: &[i64], special_zero: bool) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let dims = original
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let data = net.param("data", "f32", &dims);
    let shape = net.i64s("shape", &[target.len() as u64], target);
    let out = net.op(
        "reshape",
        "Reshape",
        "opset1",
        &format!(r#"special_zero="{special_zero}""#),
        &[data, shape],
        Some(vec![-1; target.len()]),
    );
    net.result("reshaped", out);
    let out = net.exec(vec![("data", arange(original))]).unwrap();
    f32_out(&out, "reshaped")
}

/// ONNX `allowzero=0` is OpenVINO `special_zero=true`; the data is unchanged.
fn check_reshape(target: &[i64], expected: &[usize]) {
    let (shape, values) = reshape(&[2, 3, 4], target, true);
    assert_eq!(shape, expected);
    assert_eq!(values, arange(&[24]).to_vec::<f32>().unwrap());
}

#[test]
fn reshape_reordered_all_dims() {
    check_reshape(&[4, 2, 3], &[4, 2, 3]);
}
#[test]
fn reshape_reordered_last_dims() {
    check_reshape(&[2, 4, 3], &[2, 4, 3]);
}
#[test]
fn reshape_reduced_dims() {
    check_reshape(&[2, 12], &[2, 12]);
}
#[test]
fn reshape_extended_dims() {
    check_reshape(&[2, 3, 2, 2], &[2, 3, 2, 2]);
}
#[test]
fn reshape_one_dim() {
    check_reshape(&[24], &[24]);
}
#[test]
fn reshape_negative_dim() {
    check_reshape(&[2, -1, 2], &[2, 6, 2]);
}
#[test]
fn reshape_negative_extended_dims() {
    check_reshape(&[-1, 2, 3, 4], &[1, 2, 3, 4]);
}
#[test]
fn reshape_zero_dim() {
    check_reshape(&[2, 0, 4, 1], &[2, 3, 4, 1]);
}
#[test]
fn reshape_zero_and_negative_dim() {
    check_reshape(&[2, 0, 1, -1], &[2, 3, 1, 4]);
}
#[test]
fn reshape_allowzero_reordered() {
    let (shape, values) = reshape(&[0, 3, 4], &[3, 4, 0], false);
    assert_eq!(shape, vec![3, 4, 0]);
    assert!(values.is_empty());
}

#[test]
fn reshape_is_a_zero_copy_view() {
    let mut net = Net::new();
    let data = net.param("data", "f32", "2,3,4");
    let shape = net.i64s("shape", &[2], &[4, 6]);
    let out = net.op(
        "reshape",
        "Reshape",
        "opset1",
        "",
        &[data, shape],
        Some(vec![4, 6]),
    );
    net.result("reshaped", out);
    let input = arange(&[2, 3, 4]);
    let view = input.data.clone();
    let out = net.exec(vec![("data", input)]).unwrap();
    assert!(out["reshaped"].data.same_view(&view));
}

// ---------------------------------------------------------------- Slice

/// Slices `x` of `shape` (values `0..`) and returns the result.
fn run_slice(
    shape: &[usize],
    starts: &[i64],
    ends: &[i64],
    axes: Option<&[i64]>,
    steps: Option<&[i64]>,
) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let dims = shape
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let x = net.param("x", "f32", &dims);
    let n = starts.len() as u64;
    let s = net.i64s("starts", &[n], starts);
    let e = net.i64s("ends", &[n], ends);
    let mut inputs = vec![x, s, e];
    // OpenVINO Slice-8 takes step before axes: default steps when only axes are given.
    let ones = vec![1i64; starts.len()];
    if steps.is_some() || axes.is_some() {
        inputs.push(net.i64s("steps", &[n], steps.unwrap_or(&ones)));
    }
    if let Some(a) = axes {
        inputs.push(net.i64s("axes", &[n], a));
    }
    let out = net.op(
        "slice",
        "Slice",
        "opset8",
        "",
        &inputs,
        Some(vec![-1; shape.len()]),
    );
    net.result("y", out);
    let out = net.exec(vec![("x", arange(shape))]).unwrap();
    f32_out(&out, "y")
}

/// The numpy reference: per axis (start, count, step) with already-resolved indices.
fn reference(shape: &[usize], ranges: &[(i64, usize, i64)]) -> (Vec<usize>, Vec<f32>) {
    let out: Vec<usize> = ranges.iter().map(|r| r.1).collect();
    let mut strides = vec![1usize; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    let total: usize = out.iter().product();
    let mut values = Vec::with_capacity(total);
    for k in 0..total {
        let (mut rem, mut off) = (k, 0i64);
        for a in (0..out.len()).rev() {
            let i = (rem % out[a]) as i64;
            rem /= out[a];
            off += (ranges[a].0 + i * ranges[a].2) * strides[a] as i64;
        }
        values.push(off as f32);
    }
    (out, values)
}

#[test]
fn slice_example_1() {
    let (shape, values) = run_slice(&[2, 4], &[1, 0], &[2, 3], Some(&[0, 1]), Some(&[1, 2]));
    assert_eq!((shape, values), (vec![1, 2], vec![4.0, 6.0])); // [[5, 7]] of 1..8
}

#[test]
fn slice_example_2() {
    let (shape, values) = run_slice(&[2, 4], &[0, 1], &[-1, 1000], None, None);
    assert_eq!((shape, values), (vec![1, 3], vec![1.0, 2.0, 3.0])); // [[2, 3, 4]] of 1..8
}

const X: [usize; 3] = [20, 10, 5];

#[test]
fn slice_basic() {
    let got = run_slice(&X, &[0, 0], &[3, 10], Some(&[0, 1]), Some(&[1, 1]));
    assert_eq!(got, reference(&X, &[(0, 3, 1), (0, 10, 1), (0, 5, 1)]));
}
#[test]
fn slice_neg() {
    let got = run_slice(&X, &[0], &[-1], Some(&[1]), Some(&[1]));
    assert_eq!(got, reference(&X, &[(0, 20, 1), (0, 9, 1), (0, 5, 1)]));
}
#[test]
fn slice_start_out_of_bounds() {
    let got = run_slice(&X, &[1000], &[1000], Some(&[1]), Some(&[1]));
    assert_eq!(got, reference(&X, &[(0, 20, 1), (0, 0, 1), (0, 5, 1)]));
}
#[test]
fn slice_end_out_of_bounds() {
    let got = run_slice(&X, &[1], &[1000], Some(&[1]), Some(&[1]));
    assert_eq!(got, reference(&X, &[(0, 20, 1), (1, 9, 1), (0, 5, 1)]));
}
#[test]
fn slice_default_axes() {
    let got = run_slice(&X, &[0, 0, 3], &[20, 10, 4], None, None);
    assert_eq!(got, reference(&X, &[(0, 20, 1), (0, 10, 1), (3, 1, 1)]));
}
#[test]
fn slice_default_steps() {
    let got = run_slice(&X, &[0, 0, 3], &[20, 10, 4], Some(&[0, 1, 2]), None);
    assert_eq!(got, reference(&X, &[(0, 20, 1), (0, 10, 1), (3, 1, 1)]));
}
#[test]
fn slice_neg_steps() {
    // x[20:0:-1, 10:0:-3, 4:1:-2]: starts clamp to 19 and 9.
    let got = run_slice(
        &X,
        &[20, 10, 4],
        &[0, 0, 1],
        Some(&[0, 1, 2]),
        Some(&[-1, -3, -2]),
    );
    assert_eq!(got, reference(&X, &[(19, 19, -1), (9, 3, -3), (4, 2, -2)]));
}
#[test]
fn slice_negative_axes() {
    let got = run_slice(&X, &[0, 0, 3], &[20, 10, 4], Some(&[0, -2, -1]), None);
    assert_eq!(got, reference(&X, &[(0, 20, 1), (0, 10, 1), (3, 1, 1)]));
}

// ---------------------------------------------------------------- Compress

fn compress(axis: Option<i64>, cond: &[bool]) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let input = net.param("input", "f32", "3,2");
    let c = net.param("condition", "boolean", &cond.len().to_string());
    let attrs = axis.map(|a| format!(r#"axis="{a}""#)).unwrap_or_default();
    let rank = if axis.is_some() { 2 } else { 1 };
    let out = net.op(
        "compress",
        "Compress",
        "ovir1",
        &attrs,
        &[input, c],
        Some(vec![-1; rank]),
    );
    net.result("output", out);
    let data = Tensor::from_vec(vec![3, 2], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let cond = Tensor::from_vec(vec![cond.len()], cond.to_vec()).unwrap();
    let out = net
        .exec(vec![("input", data), ("condition", cond)])
        .unwrap();
    f32_out(&out, "output")
}

#[test]
fn compress_0() {
    assert_eq!(
        compress(Some(0), &[false, true, true]),
        (vec![2, 2], vec![3.0, 4.0, 5.0, 6.0])
    );
}
#[test]
fn compress_1() {
    assert_eq!(
        compress(Some(1), &[false, true]),
        (vec![3, 1], vec![2.0, 4.0, 6.0])
    );
}
#[test]
fn compress_default_axis() {
    assert_eq!(
        compress(None, &[false, true, false, false, true]),
        (vec![2], vec![2.0, 5.0])
    );
}
#[test]
fn compress_negative_axis() {
    assert_eq!(
        compress(Some(-1), &[false, true]),
        (vec![3, 1], vec![2.0, 4.0, 6.0])
    );
}
#[test]
fn compress_short_condition_drops_the_rest() {
    assert_eq!(compress(Some(0), &[true]), (vec![1, 2], vec![1.0, 2.0]));
}

// ---------------------------------------------------------------- Extract

fn extract(mask: &[bool], attrs: &str) -> (Vec<usize>, Vec<i32>) {
    let mut net = Net::new();
    let c = net.param("condition", "boolean", &mask.len().to_string());
    let x = net.param("x", "i32", "6");
    let out = net.op(
        "extract",
        "Extract",
        "ovir1",
        attrs,
        &[c, x],
        Some(vec![-1]),
    );
    net.result("out", out);
    let x = Tensor::from_vec(vec![6], vec![1i32, 2, 3, 4, 5, 6]).unwrap();
    let cond = Tensor::from_vec(vec![mask.len()], mask.to_vec()).unwrap();
    let out = net.exec(vec![("condition", cond), ("x", x)]).unwrap();
    let t = &out["out"];
    (t.shape.clone(), t.to_vec::<i32>().unwrap())
}

const EVEN: [bool; 6] = [false, true, false, true, false, true];

#[test]
fn extract_values_from_a_1d_array() {
    assert_eq!(extract(&EVEN, ""), (vec![3], vec![2, 4, 6]));
}
#[test]
fn extract_with_size_and_fill_value() {
    assert_eq!(
        extract(&EVEN, r#"size="6" fill_value="0""#),
        (vec![6], vec![2, 4, 6, 0, 0, 0])
    );
    assert_eq!(
        extract(&EVEN, r#"size="4" fill_value="-1""#),
        (vec![4], vec![2, 4, 6, -1])
    );
    assert_eq!(extract(&EVEN, r#"size="2""#), (vec![2], vec![2, 4]));
}
#[test]
fn extract_short_mask() {
    assert_eq!(extract(&[false, true], ""), (vec![1], vec![2]));
}
#[test]
fn extract_long_mask() {
    assert_eq!(
        extract(&[true, false, true, false, false, false, false, false], ""),
        (vec![2], vec![1, 3])
    );
}

//! Slice-8: the ONNX Slice examples, exact symbolic lengths, errors, and a
//! property test against Python's slicing.

mod support;

use proptest::prelude::*;
use support::rule::*;
use support::single_op;

/// Slice of an f32 `input` with constant start/stop/step/(axes).
fn slice(
    input: &str,
    start: &[i64],
    stop: &[i64],
    step: Option<&[i64]>,
    axes: Option<&[i64]>,
) -> Result<String, (&'static str, String)> {
    let mut c = ctx(&["S", "T:2"]);
    let mut inputs = vec![data(&mut c, input), ints(start), ints(stop)];
    if let Some(s) = step {
        inputs.push(ints(s));
    }
    if let Some(a) = axes {
        inputs.push(ints(a));
    }
    match run(&mut c, "Slice", "opset8", &[], &inputs) {
        Ok(out) => Ok(shape0(&c, &out)),
        Err(e) => Err((e.rule_name(), e.to_string())),
    }
}

const X: &str = "20,10,5";

#[test]
fn slice_() {
    assert_eq!(
        slice(X, &[0, 0], &[3, 10], Some(&[1, 1]), Some(&[0, 1])).unwrap(),
        "[3, 10, 5]"
    );
}
#[test]
fn slice_neg() {
    assert_eq!(
        slice(X, &[0], &[-1], Some(&[1]), Some(&[1])).unwrap(),
        "[20, 9, 5]"
    );
}
#[test]
fn slice_start_out_of_bounds() {
    assert_eq!(
        slice(X, &[1000], &[1000], Some(&[1]), Some(&[1])).unwrap(),
        "[20, 0, 5]"
    );
}
#[test]
fn slice_end_out_of_bounds() {
    assert_eq!(
        slice(X, &[1], &[1000], Some(&[1]), Some(&[1])).unwrap(),
        "[20, 9, 5]"
    );
}
#[test]
fn slice_default_axes() {
    assert_eq!(
        slice(X, &[0, 0, 3], &[20, 10, 4], None, None).unwrap(),
        "[20, 10, 1]"
    );
}
#[test]
fn slice_default_steps() {
    assert_eq!(
        slice(X, &[0, 0, 3], &[20, 10, 4], None, None).unwrap(),
        "[20, 10, 1]"
    );
    // A missing step input defaults to 1 even with axes given through a 4th
    // input slot absent: start/stop only.
    assert_eq!(
        slice(
            X,
            &[0, 0, 3],
            &[20, 10, 4],
            Some(&[1, 1, 1]),
            Some(&[0, 1, 2])
        )
        .unwrap(),
        "[20, 10, 1]"
    );
}
#[test]
fn slice_neg_steps() {
    assert_eq!(
        slice(
            X,
            &[20, 10, 4],
            &[0, 0, 1],
            Some(&[-1, -3, -2]),
            Some(&[0, 1, 2])
        )
        .unwrap(),
        "[19, 3, 2]"
    );
}
#[test]
fn slice_negative_axes() {
    assert_eq!(
        slice(
            X,
            &[0, 0, 3],
            &[20, 10, 4],
            Some(&[1, 1, 1]),
            Some(&[0, -2, -1])
        )
        .unwrap(),
        "[20, 10, 1]"
    );
}

const IMAX: i64 = i64::MAX;
const IMIN: i64 = i64::MIN;

#[test]
fn symbolic_lengths_are_exact() {
    assert_eq!(
        slice("S", &[1], &[-1], Some(&[1]), None).unwrap(),
        "[max(S - 2, 0)]"
    );
    assert_eq!(
        slice("T", &[1], &[-1], Some(&[1]), None).unwrap(),
        "[T - 2]"
    );
    assert_eq!(
        slice("S", &[0], &[IMAX], Some(&[2]), None).unwrap(),
        "[ceil(S/2)]"
    );
    assert_eq!(
        slice("S", &[-1], &[IMIN], Some(&[-2]), None).unwrap(),
        "[ceil(S/2)]"
    );
    assert_eq!(
        slice("S", &[1000], &[IMAX], Some(&[1]), None).unwrap(),
        "[max(S - 1000, 0)]"
    );
    assert_eq!(
        slice("S", &[-3], &[IMAX], Some(&[1]), None).unwrap(),
        "[min(S, 3)]"
    );
    assert_eq!(slice("S", &[0], &[IMAX], Some(&[-1]), None).unwrap(), "[0]");
    assert_eq!(
        slice("S, 4", &[1], &[3], Some(&[1]), Some(&[1])).unwrap(),
        "[S, 2]"
    );
}

#[test]
fn i32_extremes_on_unbounded_dims_record_the_bound() {
    let mut c = ctx(&["S"]);
    let inputs = [
        data(&mut c, "S"),
        ints(&[0]),
        ints(&[i32::MAX as i64]),
        ints(&[1]),
    ];
    let out = run(&mut c, "Slice", "opset8", &[], &inputs).unwrap();
    assert_eq!(shape0(&c, &out), "[S]");
    assert_eq!(constraints(&c), ["S <= 2147483647"]);
}

#[test]
fn negative_step_start_before_the_beginning_follows_openvino() {
    // OpenVINO (and the ONNX clamp of start to [0, dim-1]) give 1 where Python gives 0.
    assert_eq!(
        slice("10", &[-100], &[-200], Some(&[-1]), None).unwrap(),
        "[1]"
    );
}

#[test]
fn errors() {
    assert_eq!(
        slice(X, &[0], &[1], Some(&[0]), None).unwrap_err().0,
        "slice-step-zero"
    );
    let (rule, msg) = slice(X, &[0, 0], &[1, 1], Some(&[1, 1]), Some(&[0, -3])).unwrap_err();
    assert_eq!(rule, "slice-repeated-axis");
    assert!(msg.contains("-3"), "{msg}");
    let (rule, msg) = slice(X, &[0, 0], &[1], Some(&[1, 1]), None).unwrap_err();
    assert_eq!(rule, "slice-length-mismatch");
    assert!(
        msg.contains("start has 2") && msg.contains("stop has 1"),
        "{msg}"
    );
    assert_eq!(
        slice(X, &[0], &[1], Some(&[1]), Some(&[3])).unwrap_err().0,
        "axis-out-of-range"
    );
}

#[test]
fn unknown_starts_give_dims_bounded_by_the_input() {
    let mut c = ctx(&["S"]);
    let inputs = [
        data(&mut c, "S, 7"),
        unknown(&[1]),
        ints(&[5]),
        ints(&[1]),
        ints(&[1]),
    ];
    let out = run(&mut c, "Slice", "opset8", &[], &inputs).unwrap();
    let d = &out[0].shape.dims().unwrap()[1];
    assert!(d.as_constant().is_none());
    let b = c.symbols.bounds(d).unwrap();
    // At most 7 (the input dim) and at most 5 (the stop, counted from 0).
    assert_eq!((b.lo, b.hi), (Some(0), Some(5)));
    assert_eq!(
        out[0].shape.dims().unwrap()[0].to_owned(),
        c.symbols.parse_expr("S").unwrap()
    );
}

#[test]
fn values_of_a_shape_are_sliced() {
    let mut c = ctx(&["N", "H"]);
    let shape = values(&mut c, "N, 3, H, 5");
    let out = run(
        &mut c,
        "Slice",
        "opset8",
        &[],
        &[shape, ints(&[1]), ints(&[-1]), ints(&[1])],
    )
    .unwrap();
    assert_eq!(values0(&c, &out).as_deref(), Some("[3, H]"));
}

#[test]
fn end_to_end_with_constants() {
    let (shape, rules) = single_op("?,10", "Slice", "opset8", &[], &[&[1], &[-1], &[2], &[1]]);
    assert_eq!(shape, "[?0, 4]");
    assert!(rules.is_empty(), "{rules:?}");
}

/// Python's `len(range(dim)[start:stop:step])`.
fn python_len(dim: i64, start: i64, stop: i64, step: i64) -> i64 {
    let (d, start, stop, step) = (dim as i128, start as i128, stop as i128, step as i128);
    let fix = |v: i128, neg_lo: i128, hi: i128| {
        let v = if v < 0 { v + d } else { v };
        if v < 0 {
            neg_lo
        } else if v > hi {
            hi
        } else {
            v
        }
    };
    let (s, e) = if step > 0 {
        (fix(start, 0, d), fix(stop, 0, d))
    } else {
        (fix(start, -1, d - 1), fix(stop, -1, d - 1))
    };
    let n = if step > 0 {
        (e - s + step - 1) / step
    } else {
        (s - e + (-step) - 1) / (-step)
    };
    n.max(0) as i64
}

fn bound() -> impl Strategy<Value = i64> {
    prop_oneof![
        -40i64..40,
        Just(i64::MAX),
        Just(i64::MIN),
        Just(i32::MAX as i64),
        Just(i32::MIN as i64),
    ]
}

proptest! {
    #[test]
    fn symbolic_slice_matches_static_and_python(
        dim in 0i64..30,
        start in bound(),
        stop in bound(),
        step in prop_oneof![-5i64..0, 1i64..6, Just(i64::MAX)],
    ) {
        let mut c = ctx(&["S"]);
        let d = dim.to_string();
        let params = [ints(&[start]), ints(&[stop]), ints(&[step])];
        let x = data(&mut c, &d);
        let stat = run(&mut c, "Slice", "opset8", &[], &[x, params[0].clone(), params[1].clone(), params[2].clone()]).unwrap();
        let static_len = stat[0].shape.dims().unwrap()[0].as_constant().unwrap();
        let x = data(&mut c, "S");
        let sym = run(&mut c, "Slice", "opset8", &[], &[x, params[0].clone(), params[1].clone(), params[2].clone()]).unwrap();
        let s = c.symbols.lookup("S").unwrap();
        let binding = |x: symdim::SymbolId| (x == s).then_some(dim);
        let got = sym[0].shape.dims().unwrap()[0].eval(&binding).unwrap();
        prop_assert_eq!(got, static_len);
        for k in c.constraints() {
            prop_assert!(k.predicate.eval(&binding).unwrap());
        }
        // Python agrees except where ONNX/OpenVINO clamp a negative step's
        // start below the beginning to 0 (Python: empty).
        let adjusted_start = if start < 0 { start as i128 + dim as i128 } else { start as i128 };
        if !(step < 0 && adjusted_start < 0) {
            prop_assert_eq!(static_len, python_len(dim, start, stop, step));
        }
    }
}

#[test]
fn scalar_data_is_an_error_as_in_openvino() {
    // OpenVINO 2026.4: "Check 'input_rank.get_length() > 0' failed".
    let mut n = support::Ir::new();
    let x = n.param("x", "", "f32");
    let start = n.vec("start", &[0]);
    let stop = n.vec("stop", &[1]);
    let step = n.vec("step", &[1]);
    let s = n.op("s", "Slice", "opset8", &[], &[x, start, stop, step]);
    let run = n.run_to(s);
    assert_eq!(run.errors()[0].0, "slice-scalar-data", "{:?}", run.errors());
}

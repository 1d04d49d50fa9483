//! Inputs the `executor` fuzz target found crashing the executor, reduced to
//! the smallest net that showed each bug.

mod common;

use common::{arange, f32_out, Net};

/// Slices a `[3, 2]` input along axis 0 from 0 to 3 with `step`.
fn slice_rows(op: &str, step: i64) -> (Vec<usize>, Vec<f32>) {
    let mut net = Net::new();
    let x = net.param("x", "f32", "3,2");
    let start = net.i64s("start", &[1], &[0]);
    let stop = net.i64s("stop", &[1], &[3]);
    let step_c = net.i64s("step", &[1], &[step]);
    let o = if op == "Slice" {
        let axes = net.i64s("axes", &[1], &[0]);
        net.op(
            "s",
            "Slice",
            "opset8",
            "",
            &[x, start, stop, step_c, axes],
            None,
        )
    } else {
        let attrs = r#"begin_mask="0" end_mask="0""#;
        net.op(
            "s",
            "StridedSlice",
            "opset1",
            attrs,
            &[x, start, stop, step_c],
            None,
        )
    };
    net.result("out", o);
    f32_out(&net.exec(vec![("x", arange(&[3, 2]))]).unwrap(), "out")
}

/// A step so large that only the first row is read: multiplying it by the
/// row stride overflowed (a panic in debug builds) before any read.
#[test]
fn a_vast_slice_step_reads_one_row() {
    for op in ["Slice", "StridedSlice"] {
        for step in [i64::MAX, 1 << 62, 4] {
            assert_eq!(
                slice_rows(op, step),
                (vec![1, 2], vec![0.0, 1.0]),
                "{op} {step}"
            );
        }
    }
}

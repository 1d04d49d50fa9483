//! FakeQuantize-1.

mod support;
use support::{Ir, Out};

/// A FakeQuantize `fq` of `x` with f32 ranges of these shapes (values 0).
fn fq(b: &mut Ir, x: Out, ranges: [&[usize]; 4], attrs: &[(&str, &str)]) -> Out {
    let mut inputs = vec![x];
    for (i, shape) in ranges.iter().enumerate() {
        let n = shape.iter().product();
        inputs.push(b.const_f32(&format!("r{i}"), shape, &vec![0.0; n]));
    }
    b.op("fq", "FakeQuantize", "opset1", attrs, &inputs)
}

const LEVELS: &[(&str, &str)] = &[("levels", "256")];

#[test]
fn fake_quantize_passes_the_shape() {
    let mut b = Ir::new();
    let x = b.param("x", "N,3,H,W", "f16");
    let out = fq(&mut b, x, [&[1, 3, 1, 1], &[3, 1, 1], &[], &[1]], LEVELS);
    let r = b.run_to(out);
    r.clean();
    assert_eq!(r.shape("fq"), "[N, 3, H, W]");
    assert_eq!(r.element_type("fq"), "f16");

    // A static range dim fixes a symbolic data dim by a constraint; the
    // output stays the data's shape (as OpenVINO's).
    let mut b = Ir::new();
    let x = b.param("x", "N,C,H,W", "f32");
    let out = fq(&mut b, x, [&[1, 3, 1, 1], &[], &[], &[]], LEVELS);
    let r = b.run_to(out);
    assert_eq!(r.shape("fq"), "[N, C, H, W]");
    assert_eq!(r.constraints(), vec!["3 == C"]);

    // Extra leading 1s in a range (OpenVINO's CPU plugin runs these).
    let mut b = Ir::new();
    let x = b.param("x", "3,4", "f32");
    let out = fq(&mut b, x, [&[1, 1, 4], &[1, 3, 1], &[], &[]], LEVELS);
    b.run_to(out).clean();
}

#[test]
fn fake_quantize_pdpd_and_none() {
    let mut b = Ir::new();
    let x = b.param("x", "2,3,4,5", "f32");
    let pdpd = [("levels", "256"), ("auto_broadcast", "pdpd")];
    let out = fq(&mut b, x, [&[1, 3], &[2, 3], &[2], &[1]], &pdpd);
    b.run_to(out).clean();

    let mut b = Ir::new();
    let x = b.param("x", "2,3,4,5", "f32");
    let out = fq(&mut b, x, [&[3, 4], &[1], &[1], &[1]], &pdpd);
    b.run_to(out)
        .error("fq", "broadcast-incompatible", "pdpd broadcast");

    let none = [("levels", "256"), ("auto_broadcast", "none")];
    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let out = fq(&mut b, x, [&[2, 3], &[2, 3], &[2, 3], &[2, 3]], &none);
    b.run_to(out).clean();

    let mut b = Ir::new();
    let x = b.param("x", "2,3", "f32");
    let out = fq(&mut b, x, [&[2, 3], &[1, 3], &[2, 3], &[2, 3]], &none);
    b.run_to(out)
        .error("fq", "broadcast-incompatible", "auto_broadcast none");
}

#[test]
fn fake_quantize_range_errors() {
    // Ranges that do not broadcast, and ranges that widen the data, which
    // OpenVINO's shape inference accepts but its CPU plugin cannot run.
    for (data, range, needle) in [
        ("2,3,4,5", &[1, 4, 1, 1][..], "dim 4 (axis 1) of input_high"),
        ("1,3,1,1", &[1, 3, 4, 5][..], "must broadcast into the data"),
        ("3,4", &[2, 3, 4][..], "data (with leading 1s)"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", data, "f32");
        let out = fq(&mut b, x, [&[1], range, &[1], &[1]], LEVELS);
        b.run_to(out).error("fq", "broadcast-incompatible", needle);
    }
}

#[test]
fn fake_quantize_levels() {
    for (levels, needle) in [
        (Some("1"), "`levels` 1 is below 2"),
        (Some("0"), "`levels` 0 is below 2"),
        (None, "the `levels` attribute is missing"),
    ] {
        let mut b = Ir::new();
        let x = b.param("x", "2,3", "f32");
        let attrs: Vec<(&str, &str)> = levels.map(|l| ("levels", l)).into_iter().collect();
        let out = fq(&mut b, x, [&[], &[], &[], &[]], &attrs);
        b.run_to(out).error("fq", "fake-quantize", needle);
    }
}

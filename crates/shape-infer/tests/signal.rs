//! The signal ops DFT-7, IDFT-7, RDFT-9 and IRDFT-9: symbolic shapes and
//! the checks of OpenVINO's `fft_common_validation.hpp` (OpenVINO's goldens
//! are in `golden/signal_*`).

mod support;
use support::Ir;

#[test]
fn dft_keeps_the_shape_and_resizes_to_signal_sizes() {
    let mut n = Ir::new();
    let x = n.param("x", "N,L,2", "f32");
    let last = n.vec("last", &[-1]);
    let both = n.vec("both", &[0, 1]);
    let sizes = n.vec("sizes", &[5, -1]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, last]);
    n.result(dft);
    let idft = n.op("idft", "IDFT", "opset7", &[], &[x, both, sizes]);
    let r = n.run_to(idft);
    r.clean();
    assert_eq!(r.shape("dft"), "[N, L, 2]");
    assert_eq!(r.shape("idft"), "[5, L, 2]");
    assert_eq!(r.element_type("idft"), "f32");
}

#[test]
fn signal_sizes_read_from_a_shape_stay_expressions() {
    let mut n = Ir::new();
    let x = n.param("x", "N,L,2", "f16");
    let y = n.param("y", "M,K", "f32");
    let shape = n.op(
        "shape",
        "ShapeOf",
        "opset3",
        &[("output_type", "i64")],
        &[y],
    );
    let axes = n.vec("axes", &[1, 0]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, axes, shape]);
    let r = n.run_to(dft);
    r.clean();
    assert_eq!(r.shape("dft"), "[K, M, 2]");
    assert_eq!(r.element_type("dft"), "f16");
}

#[test]
fn rdft_halves_the_last_axis_and_appends_the_complex_dim() {
    let mut n = Ir::new();
    let x = n.param("x", "N,L", "f32");
    let axes = n.vec("axes", &[-1]);
    let rdft = n.op("rdft", "RDFT", "opset9", &[], &[x, axes]);
    n.result(rdft);
    let both = n.vec("both", &[1, 0]);
    let sizes = n.vec("sizes", &[9, 6]);
    let sized = n.op("sized", "RDFT", "opset9", &[], &[x, both, sizes]);
    let r = n.run_to(sized);
    r.clean();
    assert_eq!(r.shape("rdft"), "[N, floor(L/2) + 1, 2]");
    // The last axis is axis 0 (signal size 6): 6/2 + 1.
    assert_eq!(r.shape("sized"), "[4, 9, 2]");
    assert_eq!(r.constraints(), ["L >= 1"]);
}

#[test]
fn irdft_restores_twice_the_spectrum_less_two() {
    let mut n = Ir::new();
    let x = n.param("x", "N,K,2", "f32");
    let axes = n.vec("axes", &[1]);
    let irdft = n.op("irdft", "IRDFT", "opset9", &[], &[x, axes]);
    n.result(irdft);
    let both = n.vec("both", &[0, 1]);
    let own = n.vec("own", &[3, -1]);
    let own_last = n.op("own_last", "IRDFT", "opset9", &[], &[x, both, own]);
    n.result(own_last);
    let seven = n.vec("seven", &[7]);
    let sized = n.op("sized", "IRDFT", "opset9", &[], &[x, axes, seven]);
    let r = n.run_to(sized);
    r.clean();
    assert_eq!(r.shape("irdft"), "[N, 2*K - 2]");
    assert_eq!(r.shape("own_last"), "[3, 2*K - 2]");
    assert_eq!(r.shape("sized"), "[N, 7]");
}

#[test]
fn unknown_axes_keep_the_shape_without_signal_sizes_and_lose_it_with_them() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6,2", "f32");
    let axes = n.param("axes", "1", "i64");
    let plain = n.op("plain", "DFT", "opset7", &[], &[x, axes]);
    n.result(plain);
    let sizes = n.vec("sizes", &[3]);
    let sized = n.op("sized", "IDFT", "opset7", &[], &[x, axes, sizes]);
    n.result(sized);
    let r = n.run_to(sized);
    assert_eq!(r.shape("plain"), "[4, 6, 2]");
    let shape = r.shape("sized");
    assert!(shape.ends_with(", 2]") && !shape.contains('4'), "{shape}");
}

#[test]
fn complex_data_needs_a_last_dim_of_two() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6,3", "f32");
    let axes = n.vec("axes", &[0]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, axes]);
    n.run_to(dft)
        .error("dft", "dft-input", "last dim of complex data");
}

#[test]
fn the_complex_dim_cannot_be_transformed() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6,2", "f32");
    let axes = n.vec("axes", &[2]);
    let dft = n.op("dft", "IRDFT", "opset9", &[], &[x, axes]);
    n.run_to(dft)
        .error("dft", "axis-out-of-range", "out of range for rank 2");
}

#[test]
fn a_negative_axis_counts_from_the_complex_rank() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6,2", "f32");
    let axes = n.vec("axes", &[-3]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, axes]);
    n.run_to(dft).error("dft", "axis-out-of-range", "-3");
}

#[test]
fn rdft_axes_count_from_the_real_rank() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6", "f32");
    let axes = n.vec("axes", &[-2]);
    let ok = n.op("ok", "RDFT", "opset9", &[], &[x, axes]);
    let r = n.run_to(ok);
    r.clean();
    assert_eq!(r.shape("ok"), "[3, 6, 2]");
}

#[test]
fn repeated_axes_are_an_error() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6,8,2", "f32");
    let axes = n.vec("axes", &[0, -3]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, axes]);
    n.run_to(dft).error("dft", "dft-axes", "repeated");
}

#[test]
fn as_many_axes_as_the_complex_rank_or_more_are_an_error() {
    let mut n = Ir::new();
    let x = n.param("x", "4,2", "f32");
    let axes = n.vec("axes", &[0, 0]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, axes]);
    n.run_to(dft)
        .error("dft", "dft-input", "2 axes for data of rank 2");
}

#[test]
fn signal_size_and_axes_must_have_one_length() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6,2", "f32");
    let axes = n.vec("axes", &[0, 1]);
    let sizes = n.vec("sizes", &[3]);
    let dft = n.op("dft", "IDFT", "opset7", &[], &[x, axes, sizes]);
    n.run_to(dft)
        .error("dft", "dft-signal-size", "lengths of axes and signal_size");
}

#[test]
fn complex_data_of_rank_one_is_an_error() {
    let mut n = Ir::new();
    let x = n.param("x", "2", "f32");
    let axes = n.vec("axes", &[0]);
    let dft = n.op("dft", "IRDFT", "opset9", &[], &[x, axes]);
    n.run_to(dft).error("dft", "dft-input", "rank 2 or more");
}

#[test]
fn integer_data_and_float_axes_are_type_errors() {
    let mut n = Ir::new();
    let x = n.param("x", "4,2", "i32");
    let axes = n.vec("axes", &[0]);
    let dft = n.op("dft", "DFT", "opset7", &[], &[x, axes]);
    n.run_to(dft)
        .error("dft", "element-type", "f32, f16 or bf16");

    let mut n = Ir::new();
    let x = n.param("x", "4,6", "f32");
    let axes = n.const_f32("axes", &[1], &[0.0]);
    let rdft = n.op("rdft", "RDFT", "opset9", &[], &[x, axes]);
    n.run_to(rdft).error("rdft", "element-type", "i32 or i64");
}

#[test]
fn axes_must_be_one_dimensional() {
    let mut n = Ir::new();
    let x = n.param("x", "4,6", "f32");
    let axes = n.const_i64("axes", &[1, 1], &[0]);
    let rdft = n.op("rdft", "RDFT", "opset9", &[], &[x, axes]);
    n.run_to(rdft)
        .error("rdft", "input-rank", "axes (input 1) must be 1-D");
}

/// An STFT of `x` (shape `signal`) with a window of `window` samples.
fn stft(signal: &str, window: &str, frame: i64, step: i64, transpose: &str) -> support::Run {
    let mut n = Ir::new();
    let x = n.param("x", signal, "f32");
    let w = n.param("w", window, "f32");
    let f = n.scalar("frame", frame);
    let s = n.scalar("step", step);
    let op = n.op(
        "stft",
        "STFT",
        "opset15",
        &[("transpose_frames", transpose)],
        &[x, w, f, s],
    );
    n.run_to(op)
}

#[test]
fn stft_frame_count_is_an_expression_of_the_length() {
    let r = stft("B,L", "6", 8, 3, "false");
    r.clean();
    assert_eq!(r.shape("stft"), "[B, floor((L - 8)/3) + 1, 5, 2]");
    assert_eq!(r.constraints(), ["L >= 8"]);
    let r = stft("20", "W", 7, 2, "true");
    r.clean();
    assert_eq!(r.shape("stft"), "[4, 7, 2]");
    assert_eq!(r.constraints(), ["W <= 7"]);
}

#[test]
fn stft_frames_must_fit_the_signal() {
    stft("2,10", "4", 12, 2, "false").error(
        "stft",
        "stft-frame",
        "frame_size 12 must be in [1, 10]",
    );
    stft("10", "4", 4, 0, "false").error("stft", "stft-frame", "frame_step 0");
    stft("10", "6", 4, 1, "false").error("stft", "stft-frame", "window's length 6");
    stft("2,3,10", "4", 4, 1, "false").error("stft", "input-rank", "signal");
}

/// An ISTFT of `data` with a window of 6 samples, `center` as given.
fn istft(data: &str, frame: i64, step: i64, center: &str, length: Option<i64>) -> support::Run {
    let mut n = Ir::new();
    let d = n.param("d", data, "f32");
    let w = n.param("w", "6", "f32");
    let f = n.scalar("frame", frame);
    let s = n.scalar("step", step);
    let mut inputs = vec![d, w, f, s];
    if let Some(l) = length {
        inputs.push(n.scalar("length", l));
    }
    let op = n.op(
        "istft",
        "ISTFT",
        "opset16",
        &[("center", center), ("normalized", "false")],
        &inputs,
    );
    n.run_to(op)
}

#[test]
fn istft_length_is_an_expression_of_the_frames() {
    let r = istft("5,F,2", 8, 3, "false", None);
    r.clean();
    assert_eq!(r.shape("istft"), "[3*F + 5]");
    let r = istft("B,4,F,2", 7, 2, "true", None);
    r.clean();
    assert_eq!(r.shape("istft"), "[B, 2*F - 1]");
    let r = istft("B,4,F,2", 7, 2, "true", Some(30));
    r.clean();
    assert_eq!(r.shape("istft"), "[B, 30]");
}

#[test]
fn istft_bins_must_match_the_frame() {
    istft("6,4,2", 8, 3, "false", None).error("istft", "stft-frame", "bins dim");
    istft("5,4,2", 8, 0, "false", None).error("istft", "stft-frame", "frame_step 0");
    istft("3,4,2", 4, 1, "false", None).error("istft", "stft-frame", "window's length 6");
    istft("5,4", 8, 1, "false", None).error("istft", "input-rank", "data");
}

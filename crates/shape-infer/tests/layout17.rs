//! The layout ops of issue 17 (Reverse, ReverseSequence, BatchToSpace,
//! SpaceToBatch): symbolic outputs, recorded constraints and the errors
//! OpenVINO's type_prop tests name.

mod support;
use support::rule::{self, ctx, failure, shape0};

use ir::{ElementType, Shape};
use shape_infer::{InferContext, TensorInfo};

fn constraints(c: &InferContext) -> Vec<String> {
    c.constraints()
        .iter()
        .map(|k| c.symbols.display_predicate(&k.predicate).to_string())
        .collect()
}

#[test]
fn space_to_batch_divides_padded_dims_exactly() {
    let mut c = ctx(&["N", "H", "W", "P"]);
    let x = rule::data(&mut c, "N, 2, H, W");
    let b = rule::ints(&[1, 2, 2, 3]);
    let pb = rule::values(&mut c, "0, 0, 1, P");
    let pe = rule::ints(&[0, 0, 1, 0]);
    let r = rule::run(&mut c, "SpaceToBatch", "opset2", &[], &[x, b, pb, pe]).unwrap();
    assert_eq!(shape0(&c, &r), "[12*N, 1, H/2 + 1, (W + P)/3]");
    let k = constraints(&c);
    assert!(
        k.iter().any(|s| s.contains('H') && !s.contains('W')),
        "{k:?}"
    );
    assert!(k.iter().any(|s| s.contains("W + P")), "{k:?}");
}

#[test]
fn batch_to_space_divides_the_batch_and_crops() {
    let mut c = ctx(&["N", "H"]);
    let x = rule::data(&mut c, "N, 3, H");
    let b = rule::ints(&[1, 2, 2]);
    let cb = rule::ints(&[0, 1, 0]);
    let ce = rule::ints(&[0, 0, 1]);
    let r = rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[x.clone(), b.clone(), cb.clone(), ce.clone()],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[N/4, 5, 2*H - 1]");
    // Crops larger than a static dim, a block below 1, a block on the batch.
    let big = rule::ints(&[0, 7, 0]);
    let e = failure(rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[x.clone(), b.clone(), big, ce.clone()],
    ));
    assert_eq!(e.0, "batch-to-space-crops");
    let zero = rule::ints(&[1, 0, 1]);
    let e = failure(rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[x.clone(), zero, cb.clone(), ce.clone()],
    ));
    assert_eq!(e.0, "batch-space-values");
    let batch = rule::ints(&[2, 1, 1]);
    let e = failure(rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[x.clone(), batch, cb.clone(), ce.clone()],
    ));
    assert_eq!(e.0, "batch-space-values");
    let short = rule::ints(&[1, 2]);
    let e = failure(rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[x.clone(), short, cb.clone(), ce.clone()],
    ));
    assert_eq!(e.0, "batch-space-inputs");
    // A static batch not divisible by the blocks.
    let y = rule::data(&mut c, "6, 3, H");
    let e = failure(rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[y, b.clone(), cb.clone(), ce.clone()],
    ));
    assert_eq!(e.0, "block-divisible");
    // Unknown block values: fresh dims, never a bare `?`.
    let r = rule::run(
        &mut c,
        "BatchToSpace",
        "opset2",
        &[],
        &[x, rule::unknown(&[3]), cb, ce],
    )
    .unwrap();
    assert!(r[0]
        .shape
        .dims()
        .is_some_and(|d| d.iter().all(|d| d.as_symbol().is_some())));
}

#[test]
fn reverse_checks_modes_and_axes() {
    let mut c = ctx(&["N"]);
    let x = rule::data(&mut c, "N, 3, 4");
    let r = rule::run(
        &mut c,
        "Reverse",
        "opset1",
        &[("mode", "index")],
        &[x.clone(), rule::ints(&[-1, 0])],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[N, 3, 4]");
    let e = failure(rule::run(
        &mut c,
        "Reverse",
        "opset1",
        &[("mode", "index")],
        &[x.clone(), rule::ints(&[3])],
    ));
    assert_eq!(e.0, "axis-out-of-range");
    let mask = |n: i64| TensorInfo::new(ElementType::Boolean, Shape::from_static(&[n]));
    let e = failure(rule::run(
        &mut c,
        "Reverse",
        "opset1",
        &[("mode", "mask")],
        &[x.clone(), mask(2)],
    ));
    assert_eq!(e.0, "reverse-mask-length");
    assert!(rule::run(
        &mut c,
        "Reverse",
        "opset1",
        &[("mode", "mask")],
        &[x.clone(), mask(3)]
    )
    .is_ok());
    let e = failure(rule::run(
        &mut c,
        "Reverse",
        "opset1",
        &[("mode", "mask")],
        &[x.clone(), rule::ints(&[1, 0, 1])],
    ));
    assert_eq!(e.0, "element-type");
    let e = failure(rule::run(
        &mut c,
        "Reverse",
        "opset1",
        &[("mode", "both")],
        &[x, mask(3)],
    ));
    assert_eq!(e.0, "attribute-invalid");
}

#[test]
fn reverse_sequence_merges_the_batch_with_the_lengths() {
    let mut c = ctx(&["N", "B", "T"]);
    let x = rule::data(&mut c, "T, N, 5");
    let lens = rule::data(&mut c, "B");
    let attrs = [("batch_axis", "1"), ("seq_axis", "0")];
    let r = rule::run(
        &mut c,
        "ReverseSequence",
        "opset1",
        &attrs,
        &[x.clone(), lens],
    )
    .unwrap();
    assert_eq!(shape0(&c, &r), "[T, N, 5]");
    assert_eq!(constraints(&c), ["N == B"]);
    let four = rule::data(&mut c, "4");
    let e = failure(rule::run(
        &mut c,
        "ReverseSequence",
        "opset1",
        &[("batch_axis", "2")],
        &[x.clone(), four],
    ));
    assert_eq!(e.0, "reverse-sequence-lengths");
    let t = rule::data(&mut c, "T");
    let e = failure(rule::run(
        &mut c,
        "ReverseSequence",
        "opset1",
        &[("seq_axis", "3")],
        &[x, t],
    ));
    assert_eq!(e.0, "axis-out-of-range");
    let v = rule::data(&mut c, "4");
    let e = failure(rule::run(
        &mut c,
        "ReverseSequence",
        "opset1",
        &[],
        &[v.clone(), v],
    ));
    assert_eq!(e.0, "input-rank");
}

//! Einsum-7: the equation grammar (explicit, implicit, ellipsis, capitals,
//! white space), label dims merged or broadcast symbolically, ellipsis dims
//! broadcast, and the errors and warnings.

mod support;
use shape_infer::ops::einsum::{parse, show, Label};
use support::rule::{self, ctx, data, failure, shape0};
use support::Ir;

fn einsum(
    names: &[&str],
    equation: &str,
    shapes: &[&str],
) -> (
    shape_infer::InferContext<'static>,
    Result<Vec<shape_infer::TensorInfo>, shape_infer::ShapeError>,
) {
    let mut c = ctx(names);
    let inputs: Vec<_> = shapes.iter().map(|s| data(&mut c, s)).collect();
    let r = rule::run(
        &mut c,
        "Einsum",
        "opset7",
        &[("equation", equation)],
        &inputs,
    );
    (c, r)
}

fn shape(names: &[&str], equation: &str, shapes: &[&str]) -> String {
    let (c, r) = einsum(names, equation, shapes);
    shape0(&c, &r.expect("the rule succeeds"))
}

fn output(equation: &str) -> String {
    show(&parse(equation).expect("parses").output)
}

#[test]
fn implicit_output_is_the_sorted_labels_seen_once() {
    assert_eq!(output("ab,bc"), "ac");
    assert_eq!(output("ba"), "ab");
    // Capitals sort first.
    assert_eq!(output("AbC"), "ACb");
    assert_eq!(output("a...b,B..."), "...Bab");
    assert_eq!(output("a...b,b..."), "...a");
    assert_eq!(output("i,i"), "");
    // The spec's example: repeated labels are summed.
    assert_eq!(output("dbbc,ca"), "ad");
    assert_eq!(parse("dbbc,ca").unwrap().implicit_repeated, b"b");
    assert_eq!(output("ii"), "");
}

#[test]
fn subscripts_split_plainly_and_allow_one_ellipsis() {
    let eq = parse("a,,b->ab").unwrap();
    assert_eq!(eq.inputs.len(), 3);
    assert!(eq.inputs[1].is_empty());
    assert_eq!(parse("").unwrap().inputs, vec![Vec::<Label>::new()]);
    assert_eq!(parse(",").unwrap().inputs.len(), 2);
    assert_eq!(
        parse("a...b->...").unwrap().inputs[0],
        [Label::Letter(b'a'), Label::Ellipsis, Label::Letter(b'b')]
    );
    let spaced = parse(" ab , bc -> ac ").unwrap();
    assert!(spaced.had_whitespace);
    assert_eq!(show(&spaced.output), "ac");
    for bad in [
        "a$,bc->ac",
        "a..b->ab",
        "a....b->ab",
        "...a...->a",
        "ab->ab->",
        "ab->a-",
        "a1->a",
        "ab,bc->ad",
        "ab->aa",
    ] {
        let e = parse(bad).expect_err(bad);
        assert_eq!(e.rule_name(), "einsum-equation", "{bad}");
    }
}

#[test]
fn static_shapes_follow_the_spec_examples() {
    assert_eq!(shape(&[], "i,i->", &["3", "3"]), "[]");
    assert_eq!(shape(&[], "ab,bc->ac", &["2,3", "3,4"]), "[2, 4]");
    assert_eq!(shape(&[], "kii->k", &["2,3,3"]), "[2]");
    assert_eq!(shape(&[], "kii->ki", &["2,3,3"]), "[2, 3]");
    assert_eq!(shape(&[], "ijk->kij", &["1,2,3"]), "[3, 1, 2]");
    assert_eq!(
        shape(&[], "ab,bcd,bc->ca", &["2,5", "5,3,6", "5,3"]),
        "[3, 2]"
    );
    assert_eq!(shape(&[], "a...->...", &["5,3"]), "[3]");
    assert_eq!(shape(&[], "a...,...->a...", &["3,5", "1"]), "[3, 5]");
    assert_eq!(
        shape(&[], "a...b,b...->a...", &["11,1,4,3", "3,11,7,1"]),
        "[11, 11, 7, 4]"
    );
    assert_eq!(
        shape(&[], "ab...,ac...,ade->...bc", &["2,3,4", "2,7,1", "2,4,7"]),
        "[4, 3, 7]"
    );
    // An ellipsis may cover no dims, in the inputs and in the output.
    assert_eq!(shape(&[], "ab...->ab", &["4,5"]), "[4, 5]");
    assert_eq!(shape(&[], "ab->ab...", &["4,5"]), "[4, 5]");
    // A label's dims broadcast across inputs.
    assert_eq!(shape(&[], "ab,bc->ac", &["2,1", "3,4"]), "[2, 4]");
    assert_eq!(shape(&[], "ij,ij->ij", &["3,1", "1,4"]), "[3, 4]");
}

#[test]
fn symbolic_labels_merge_and_ellipsis_dims_broadcast() {
    // The contracted label: K and 4 broadcast (K is 1 or 4).
    let (c, r) = einsum(&["M", "K"], "ab,bc->ac", &["M,K", "K,5"]);
    assert_eq!(shape0(&c, &r.unwrap()), "[M, 5]");
    assert!(rule::constraints(&c).is_empty());
    let (c, r) = einsum(&["M", "K"], "ab,bc->ac", &["M,K", "4,5"]);
    assert_eq!(shape0(&c, &r.unwrap()), "[M, 5]");
    assert_eq!(rule::constraints(&c), ["K == 1 or K == 4"]);
    // A diagonal's dims must be equal.
    let (c, r) = einsum(&["N", "M"], "ii->i", &["N,M"]);
    assert_eq!(shape0(&c, &r.unwrap()), "[N]");
    assert_eq!(rule::constraints(&c), ["N == M"]);
    // Ellipsis dims [B, 1] and [5] broadcast through the shared module.
    let (c, r) = einsum(
        &["B", "I", "J", "K"],
        "...ij,...jk->...ik",
        &["B,1,I,J", "5,J,K"],
    );
    assert_eq!(shape0(&c, &r.unwrap()), "[B, 5, I, K]");
    assert!(rule::constraints(&c).is_empty());
    // The output dim of a label is the merged one.
    let (c, r) = einsum(&["N"], "i,i->i", &["N", "3"]);
    assert_eq!(shape0(&c, &r.unwrap()), "[3]");
    assert_eq!(rule::constraints(&c), ["N == 1 or N == 3"]);
}

#[test]
fn inputs_of_unknown_rank() {
    let unranked = || shape_infer::TensorInfo::new(ir::ElementType::F32, ir::Shape::DynamicRank);
    let mut c = ctx(&[]);
    let (a, b) = (data(&mut c, "2,5"), data(&mut c, "5,3"));
    let r = rule::run(
        &mut c,
        "Einsum",
        "opset7",
        &[("equation", "ab,bcd,bc->ca")],
        &[a, unranked(), b],
    );
    assert_eq!(shape0(&c, &r.unwrap()), "[3, 2]");
    // A label only in inputs of unknown rank is a fresh dim.
    let r = rule::run(
        &mut c,
        "Einsum",
        "opset7",
        &[("equation", "ab->ba")],
        &[unranked()],
    );
    assert_eq!(r.unwrap()[0].shape.rank(), Some(2));
    let r = rule::run(
        &mut c,
        "Einsum",
        "opset7",
        &[("equation", "a...->...a")],
        &[unranked()],
    );
    assert!(r.unwrap()[0].shape.dims().is_none());
}

#[test]
fn errors_name_their_rule() {
    let rule_of = |eq: &str, shapes: &[&str]| failure(einsum(&[], eq, shapes).1);
    let (r, m) = rule_of("ab,bc,cd->ac", &["2,3", "3,4"]);
    assert_eq!(r, "einsum-inputs");
    assert!(m.contains("3 input subscript(s)"), "{m}");
    assert_eq!(rule_of("abc->ab", &["2,3"]).0, "einsum-rank");
    assert_eq!(rule_of("a->a", &["2,3"]).0, "einsum-rank");
    assert_eq!(rule_of("a...bc->a", &["2,3"]).0, "einsum-rank");
    let (r, m) = rule_of("ab,bc->ac", &["2,10", "3,4"]);
    assert_eq!(r, "einsum-label-dims");
    assert!(m.contains("label `b`"), "{m}");
    assert_eq!(rule_of("ii->i", &["3,1"]).0, "einsum-label-dims");
    assert_eq!(
        rule_of("a...b,b...->a...", &["11,1,4,3", "3,11,7,5"]).0,
        "broadcast-incompatible"
    );
    assert_eq!(rule_of("ab,bc->ad", &["2,3", "3,4"]).0, "einsum-equation");
    let mut c = ctx(&[]);
    let b = shape_infer::TensorInfo::new(ir::ElementType::Boolean, ir::Shape::from_static(&[2]));
    let r = rule::run(&mut c, "Einsum", "opset7", &[("equation", "a->a")], &[b]);
    assert_eq!(failure(r).0, "element-type");
    let mut c = ctx(&[]);
    let x = data(&mut c, "2");
    let r = rule::run(&mut c, "Einsum", "opset7", &[], &[x]);
    assert_eq!(failure(r).0, "einsum-equation");
}

#[test]
fn departures_from_the_spec_or_the_runtime_warn() {
    let run = |equation: &str, shape: &str| {
        let mut ir = Ir::new();
        let x = ir.param("x", shape, "f32");
        let e = ir.op("e", "Einsum", "opset7", &[("equation", equation)], &[x]);
        ir.run_to(e)
    };
    let r = run("ij -> ji", "2,3");
    assert_eq!(r.shape("e"), "[3, 2]");
    assert_eq!(r.messages("einsum-whitespace").len(), 1);
    // The spec's trace; OpenVINO's runtime would keep [3, 3].
    let r = run("ii", "3,3");
    assert_eq!(r.shape("e"), "[]");
    assert_eq!(r.messages("einsum-implicit-repeated").len(), 1);
    let r = run("...ab->ab", "2,3,4,5");
    assert_eq!(r.shape("e"), "[4, 5]");
    assert_eq!(r.messages("einsum-ellipsis-summed").len(), 1);
    run("ab->ba", "2,3").clean();
}

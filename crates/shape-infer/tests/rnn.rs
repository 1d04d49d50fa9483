//! The recurrent ops (RNN/GRU/LSTM cells and sequences): N, I and Hs merged
//! across their inputs, `hidden_size` and `direction` against the dims, and
//! the errors and warnings of their attributes.

mod support;
use support::Ir;

/// A cell of `op`/`opset` on inputs of the given shapes (W, R, B as
/// Parameters: shape inference needs no values).
fn cell(op: &str, opset: &str, shapes: &[&str], attrs: &[(&str, &str)]) -> support::Run {
    let mut b = Ir::new();
    let names = ["x", "h", "c", "w", "r", "b", "p"];
    let inputs: Vec<_> = shapes
        .iter()
        .zip(names)
        .map(|(s, n)| b.param(n, s, "f32"))
        .collect();
    let outputs = if op == "LSTMCell" { 2 } else { 1 };
    let t = b.layer("t", op, opset, attrs, &inputs, outputs);
    if outputs == 2 {
        b.result(t[1]);
    }
    b.run_to(t[0])
}

/// A sequence op on X, the states, `lens` (i32), W, R, B of the given shapes.
fn sequence(op: &str, shapes: &[&str], attrs: &[(&str, &str)]) -> support::Run {
    let mut b = Ir::new();
    let lstm = op == "LSTMSequence";
    let names: &[&str] = if lstm {
        &["x", "h", "c", "lens", "w", "r", "b"]
    } else {
        &["x", "h", "lens", "w", "r", "b"]
    };
    let inputs: Vec<_> = shapes
        .iter()
        .zip(names)
        .map(|(s, &n)| b.param(n, s, if n == "lens" { "i32" } else { "f32" }))
        .collect();
    let t = b.layer("t", op, "opset5", attrs, &inputs, 2 + usize::from(lstm));
    for &out in &t[1..] {
        b.result(out);
    }
    b.run_to(t[0])
}

const HS3: &[(&str, &str)] = &[("hidden_size", "3")];

#[test]
fn cells_give_batch_by_hidden_size() {
    let r = cell("RNNCell", "opset1", &["N,4", "N,3", "3,4", "3,3", "3"], HS3);
    r.clean();
    assert_eq!(r.shape("t"), "[N, 3]");
    let r = cell("GRUCell", "opset3", &["N,4", "N,3", "9,4", "9,3", "9"], HS3);
    r.clean();
    assert_eq!(r.shape("t"), "[N, 3]");
    let lbr = [("hidden_size", "3"), ("linear_before_reset", "true")];
    let r = cell(
        "GRUCell",
        "opset3",
        &["N,4", "N,3", "9,4", "9,3", "12"],
        &lbr,
    );
    r.clean();
    assert_eq!(r.shape("t"), "[N, 3]");
    // Without linear_before_reset B has 3*Hs.
    cell(
        "GRUCell",
        "opset3",
        &["N,4", "N,3", "9,4", "9,3", "12"],
        HS3,
    )
    .error("t", "rnn-hidden-size", "3 * `hidden_size`");
    for opset in ["opset1", "opset4"] {
        let shapes = ["N,4", "N,3", "N,3", "12,4", "12,3", "12"];
        let r = cell("LSTMCell", opset, &shapes, HS3);
        r.clean();
        assert_eq!(r.shape_of("t", 0), "[N, 3]");
        assert_eq!(r.shape_of("t", 1), "[N, 3]");
    }
}

#[test]
fn lstm_cell_1_takes_peepholes_and_may_omit_b_and_p() {
    let with_p = ["N,4", "N,3", "N,3", "12,4", "12,3", "12", "9"];
    cell("LSTMCell", "opset1", &with_p, HS3).clean();
    let without_b = ["N,4", "N,3", "N,3", "12,4", "12,3"];
    assert_eq!(
        cell("LSTMCell", "opset1", &without_b, HS3).shape("t"),
        "[N, 3]"
    );
    let bad_p = ["N,4", "N,3", "N,3", "12,4", "12,3", "12", "12"];
    cell("LSTMCell", "opset1", &bad_p, HS3).error("t", "rnn-hidden-size", "3 * `hidden_size`");
    // LSTMCell-4 has neither.
    let r = cell("LSTMCell", "opset4", &with_p, HS3);
    assert_eq!(r.errors()[0].0, "input-count");
    let r = cell("LSTMCell", "opset4", &without_b, HS3);
    assert_eq!(r.errors()[0].0, "input-count");
}

#[test]
fn dims_are_merged_across_inputs() {
    // Batch and input size: recorded constraints; the hidden size from the
    // attribute.
    let r = cell("RNNCell", "opset1", &["N,I", "M,?", "3,J", "?,3", "3"], HS3);
    r.clean();
    assert_eq!(r.shape("t"), "[N, 3]");
    let constraints = r.constraints();
    assert_eq!(constraints.len(), 4, "{constraints:?}");
    assert!(constraints.contains(&"I == J".to_owned()));
    assert!(constraints.contains(&"N == M".to_owned()));
    // H's and R's unknown hidden dims are the attribute's.
    assert_eq!(
        constraints.iter().filter(|c| c.ends_with(" == 3")).count(),
        2
    );
    // Provably different dims are errors.
    cell("RNNCell", "opset1", &["2,4", "3,3", "3,4", "3,3", "3"], HS3).error(
        "t",
        "rnn-batch",
        "the batch size (dim 0 of H, input 1): 3 and 2 differ",
    );
    cell("RNNCell", "opset1", &["2,5", "2,3", "3,4", "3,3", "3"], HS3).error(
        "t",
        "rnn-input-size",
        "the input size (dim 1 of W, input 2): 4 and 5 differ",
    );
    cell("RNNCell", "opset1", &["2,4", "2,5", "3,4", "3,3", "3"], HS3).error(
        "t",
        "rnn-hidden-size",
        "dim 1 of H, input 1",
    );
    let lstm = ["2,4", "2,3", "2,3", "8,4", "12,3", "12"];
    cell("LSTMCell", "opset4", &lstm, HS3).error("t", "rnn-hidden-size", "4 * `hidden_size`");
}

#[test]
fn sequences_give_y_and_the_last_states() {
    let bi = [("hidden_size", "3"), ("direction", "bidirectional")];
    let shapes = ["N,L,4", "N,2,3", "N,2,3", "N", "2,12,4", "2,12,3", "2,12"];
    let r = sequence("LSTMSequence", &shapes, &bi);
    r.clean();
    assert_eq!(r.shape_of("t", 0), "[N, 2, L, 3]");
    assert_eq!(r.shape_of("t", 1), "[N, 2, 3]");
    assert_eq!(r.shape_of("t", 2), "[N, 2, 3]");
    let fwd = [("hidden_size", "3"), ("direction", "forward")];
    let shapes = ["?,1..8,4", "B,1,3", "?", "1,9,4", "1,9,3", "1,9"];
    let r = sequence("GRUSequence", &shapes, &fwd);
    r.clean();
    assert_eq!(r.shape_of("t", 0), "[?0, 1, ?1, 3]");
    assert!(r.constraints().contains(&"?0 == B".to_owned()));
    let shapes = ["N,L,4", "N,1,3", "N", "1,3,4", "1,3,3", "1,3"];
    let rev = [("hidden_size", "3"), ("direction", "REVERSE")];
    assert_eq!(
        sequence("RNNSequence", &shapes, &rev).shape_of("t", 1),
        "[N, 1, 3]"
    );
}

#[test]
fn direction_must_match_the_weights_and_states() {
    let shapes = ["N,L,4", "N,1,3", "N", "1,3,4", "1,3,3", "1,3"];
    let bi = [("hidden_size", "3"), ("direction", "bidirectional")];
    sequence("RNNSequence", &shapes, &bi).error(
        "t",
        "rnn-num-directions",
        "(dim 1 of H, input 1): 1 and 2 differ",
    );
    let sideways = [("hidden_size", "3"), ("direction", "sideways")];
    sequence("RNNSequence", &shapes, &sideways).error("t", "rnn-direction", "sideways");
    sequence("RNNSequence", &shapes, HS3).error("t", "rnn-direction", "missing");
    let shapes = ["N,L,4", "N,1,3", "N,1", "1,3,4", "1,3,3", "1,3"];
    let fwd = [("hidden_size", "3"), ("direction", "forward")];
    sequence("RNNSequence", &shapes, &fwd).error("t", "rnn-input-rank", "rank 1, got 2");
}

#[test]
fn ranks_types_and_hidden_size() {
    let shapes = ["N,1,4", "N,3", "3,4", "3,3", "3"];
    cell("RNNCell", "opset1", &shapes, HS3).error(
        "t",
        "rnn-input-rank",
        "X (input 0) must have rank 2, got 3",
    );
    let shapes = ["N,4", "N,3", "3,4", "3,3", "3"];
    cell("RNNCell", "opset1", &shapes, &[]).error("t", "rnn-hidden-size", "missing");
    cell("RNNCell", "opset1", &shapes, &[("hidden_size", "0")]).error(
        "t",
        "rnn-hidden-size",
        "not positive",
    );
    let mut b = Ir::new();
    let x = b.param("x", "2,4", "i32");
    let rest: Vec<_> = [("h", "2,3"), ("w", "3,4"), ("r", "3,3"), ("b", "3")]
        .iter()
        .map(|(n, s)| b.param(n, s, "i32"))
        .collect();
    let mut inputs = vec![x];
    inputs.extend(rest);
    let t = b.op("t", "RNNCell", "opset1", HS3, &inputs);
    b.run_to(t).error("t", "element-type", "floating-point");
}

#[test]
fn activations_and_other_attributes() {
    let shapes = ["N,4", "N,3", "N,3", "12,4", "12,3", "12"];
    let with = |attrs: &[(&str, &str)]| {
        let mut all = vec![("hidden_size", "3")];
        all.extend_from_slice(attrs);
        cell("LSTMCell", "opset4", &shapes, &all)
    };
    with(&[("activations", "sigmoid, tanh")]).error("t", "rnn-activations", "the cell needs 3");
    with(&[("activations", "hardsigmoid, tanh, tanh")]).error(
        "t",
        "rnn-activations",
        "`hardsigmoid` is not relu, sigmoid or tanh",
    );
    with(&[("activations", "Sigmoid, RELU, tanh")]).clean();
    // What OpenVINO accepts and ignores: warnings.
    let r = with(&[("activations", "sigmoid, tanh, tanh, relu")]);
    assert_eq!(r.messages("rnn-ignored-attribute").len(), 1);
    let r = with(&[("activations_alpha", "0.5"), ("clip", "-1")]);
    assert_eq!(r.messages("rnn-ignored-attribute").len(), 2);
    with(&[("clip", "abc")]).error("t", "rnn-attribute", "`clip`");
    with(&[("activations_beta", "1, x")]).error("t", "rnn-attribute", "\"x\"");
    // LSTMCell-1's weights_format and input_forget.
    let v1 = |attrs: &[(&str, &str)]| {
        let mut all = vec![("hidden_size", "3")];
        all.extend_from_slice(attrs);
        cell("LSTMCell", "opset1", &shapes, &all)
    };
    v1(&[("weights_format", "fico")]).clean();
    assert_eq!(
        v1(&[("weights_format", "IFCO")])
            .messages("rnn-ignored-attribute")
            .len(),
        1
    );
    v1(&[("weights_format", "abcd")]).error("t", "rnn-attribute", "`weights_format`");
    assert_eq!(
        v1(&[("input_forget", "true")])
            .messages("lstm-peepholes")
            .len(),
        1
    );
}

#[test]
fn opset1_lstm_sequence_is_unknown_as_in_openvino_2026() {
    let mut b = Ir::new();
    let inputs: Vec<_> = ["N,L,4", "N,1,3", "N,1,3", "N", "1,12,4", "1,12,3", "1,12"]
        .iter()
        .enumerate()
        .map(|(k, s)| b.param(&format!("i{k}"), s, if k == 3 { "i32" } else { "f32" }))
        .collect();
    let attrs = [("hidden_size", "3"), ("direction", "forward")];
    let t = b.layer("t", "LSTMSequence", "opset1", &attrs, &inputs, 3);
    let r = b.run_to(t[0]);
    assert_eq!(r.errors()[0].0, "op-unknown");
}

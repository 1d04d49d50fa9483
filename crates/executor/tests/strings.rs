//! String tensors: a string Const read from the weights in OpenVINO's
//! packed layout (as `ov.save_model` writes it), and a string input, through
//! StringTensorUnpack (the conformance case `strings_pack_unpack` checks
//! Pack and Unpack against OpenVINO).

use std::collections::HashMap;

use executor::{Executor, Tensor};
use ir::TensorBytes;

/// `Const` (string `shape`, `size` bytes at offset 0) or a string Parameter
/// -> StringTensorUnpack -> three Results.
fn unpack_model(source: &str, shape: &[usize]) -> String {
    let dims: String = shape.iter().map(|d| format!("<dim>{d}</dim>")).collect();
    format!(
        r#"<?xml version="1.0"?>
<net name="strings" version="11">
  <layers>
    {source}
    <layer id="1" name="u" type="StringTensorUnpack" version="opset15">
      <input><port id="0" precision="STRING">{dims}</port></input>
      <output>
        <port id="1" precision="I32">{dims}</port>
        <port id="2" precision="I32">{dims}</port>
        <port id="3" precision="U8"><dim>-1</dim></port>
      </output>
    </layer>
    <layer id="2" name="begins" type="Result" version="opset1"><input><port id="0" precision="I32">{dims}</port></input></layer>
    <layer id="3" name="ends" type="Result" version="opset1"><input><port id="0" precision="I32">{dims}</port></input></layer>
    <layer id="4" name="symbols" type="Result" version="opset1"><input><port id="0" precision="U8"><dim>-1</dim></port></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0" />
    <edge from-layer="1" from-port="2" to-layer="3" to-port="0" />
    <edge from-layer="1" from-port="3" to-layer="4" to-port="0" />
  </edges>
</net>"#
    )
}

#[test]
fn a_string_const_is_read_in_openvinos_layout() {
    // The .bin OpenVINO 2026.4 writes for [["ab", "", "xyz"], ["q", "héllo", "z"]].
    let mut bin = Vec::new();
    for word in [6i32, 0, 2, 2, 5, 6, 12, 13] {
        bin.extend_from_slice(&word.to_le_bytes());
    }
    bin.extend_from_slice("abxyzqhélloz".as_bytes());
    let size = bin.len();
    let source = format!(
        r#"<layer id="0" name="c" type="Const" version="opset1">
      <data element_type="string" shape="2, 3" offset="0" size="{size}" />
      <output><port id="0" precision="STRING"><dim>2</dim><dim>3</dim></port></output>
    </layer>"#
    );
    let xml = unpack_model(&source, &[2, 3]);
    let model = ir_xml::read_model_from_str(&xml, Some(TensorBytes::from_vec(bin))).expect("reads");
    assert!(model.diagnostics.is_empty(), "{:?}", model.diagnostics);
    let out = Executor::new(&model.graph)
        .expect("prepares")
        .run(HashMap::new())
        .expect("runs");
    // As OpenVINO's CPU plugin gives them.
    assert_eq!(out["begins"].to_vec::<i32>().unwrap(), [0, 2, 2, 5, 6, 12]);
    assert_eq!(out["ends"].to_vec::<i32>().unwrap(), [2, 2, 5, 6, 12, 13]);
    assert_eq!(out["begins"].shape, [2, 3]);
    assert_eq!(
        out["symbols"].to_vec::<u8>().unwrap(),
        "abxyzqhélloz".as_bytes()
    );
}

#[test]
fn a_string_input_is_unpacked() {
    let source = r#"<layer id="0" name="s" type="Parameter" version="opset1">
      <data shape="?" element_type="string" />
      <output><port id="0" precision="STRING"><dim>-1</dim></port></output>
    </layer>"#;
    let xml = unpack_model(source, &[0]).replace("<dim>0</dim>", "<dim>-1</dim>");
    let model = ir_xml::read_model_from_str(&xml, None).expect("reads");
    let exec = Executor::new(&model.graph).expect("prepares");
    let s = Tensor::from_strings(vec![3], &["one", "", "three"]).unwrap();
    let out = exec
        .run(HashMap::from([("s".to_owned(), s)]))
        .expect("runs");
    assert_eq!(out["ends"].to_vec::<i32>().unwrap(), [3, 3, 8]);
    assert_eq!(out["symbols"].shape, [8]);
    // A string tensor whose bytes break the layout is refused before the run.
    let mut broken = Tensor::from_strings(vec![2], &["a", "b"]).unwrap();
    broken.shape = vec![3];
    assert!(exec.run(HashMap::from([("s".to_owned(), broken)])).is_err());
}

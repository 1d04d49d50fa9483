//! Compressed weights: a Const of every storage type OpenVINO writes for
//! them (u1, u2, u4, i4, nf4, f8e4m3, f8e5m2, f8e8m0, f4e2m1) holding the
//! bytes 0..255, converted to f32, equals OpenVINO's CPU plugin
//! (`scripts/gen_packed_tables.py`; its f8e8m0 flushes the subnormal
//! 2^-127 to 0, within the comparison's tolerance).

mod common;

use common::{f32_out, Net};
use executor::{first_difference, read_npy, Tensor};

#[test]
fn every_storage_type_decodes_as_openvino_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packed");
    for (name, per_byte) in [
        ("u1", 8u64),
        ("u2", 4),
        ("u4", 2),
        ("i4", 2),
        ("nf4", 2),
        ("f8e4m3", 1),
        ("f8e5m2", 1),
        ("f8e8m0", 1),
        ("f4e2m1", 2),
    ] {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut net = Net::new();
        let c = net.constant("c", name, &[256 * per_byte], &bytes);
        let f = net.op(
            "f",
            "Convert",
            "opset1",
            r#"destination_type="f32""#,
            &[c],
            None,
        );
        net.result("out", f);
        let out = net.exec(vec![]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (shape, values) = f32_out(&out, "out");
        let ours = Tensor::from_vec(shape, values).expect("a tensor");
        let theirs = read_npy(&dir.join(format!("{name}.npy"))).expect("the table");
        assert_eq!(first_difference(&ours, &theirs, 1e-6), None, "{name}");
    }
}

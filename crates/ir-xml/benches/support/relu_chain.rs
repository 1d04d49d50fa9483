//! The generated ReLU chain that the `ir-xml` parse bench and the `ovir`
//! load bench both read (included by each with `#[path]`), byte for byte
//! the `relu_N` graphs of `scripts/bench_load.py`.

use std::fmt::Write as _;

/// A chain of `n` ReLUs on `[?, ?]`, as `scripts/bench_load.py` writes it.
pub fn relu_chain(n: usize) -> String {
    let port = |id: usize| {
        format!(r#"<port id="{id}" precision="FP32"><dim>-1</dim><dim>-1</dim></port>"#)
    };
    let mut xml =
        String::from("<?xml version=\"1.0\"?>\n<net name=\"bench\" version=\"11\">\n<layers>\n");
    let _ = writeln!(
        xml,
        r#"<layer id="0" name="x" type="Parameter" version="opset1"><data shape="?,?" element_type="f32"/><output>{}</output></layer>"#,
        port(0)
    );
    for i in 1..=n {
        let _ = writeln!(
            xml,
            r#"<layer id="{i}" name="relu{i}" type="ReLU" version="opset1"><input>{}</input><output>{}</output></layer>"#,
            port(0),
            port(1)
        );
    }
    let _ = writeln!(
        xml,
        r#"<layer id="{}" name="out" type="Result" version="opset1"><input>{}</input></layer>"#,
        n + 1,
        port(0)
    );
    xml.push_str("</layers>\n<edges>\n");
    for i in 0..=n {
        let from_port = usize::from(i > 0);
        let _ = writeln!(
            xml,
            r#"<edge from-layer="{i}" from-port="{from_port}" to-layer="{}" to-port="0"/>"#,
            i + 1
        );
    }
    xml.push_str("</edges>\n</net>\n");
    xml
}

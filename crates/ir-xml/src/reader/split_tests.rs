//! `<layers>` read in two parts gives what the serial reader gives, for
//! every sample and for second parts guessed anywhere: between layers,
//! inside bodies, comments and attribute values, at a `<` of any kind; on
//! the samples as they are, cut short, and with layers and ids duplicated.

use std::path::{Path, PathBuf};

use ir::TensorBytes;

use super::split::MERGED;
use super::{read, Split};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples")
}

/// The `.xml` files of `dir` (under `ir-samples/`), sorted.
fn xml_files(dir: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(samples().join(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
}

/// The outcome of reading `xml` with `weights` as `split` says, as text.
fn outcome(xml: &str, weights: &Option<Vec<u8>>, split: Split) -> String {
    let weights = weights.clone().map(TensorBytes::from_vec);
    format!(
        "{:#?}",
        read(xml, weights, Some("w.bin".into()), None, split)
    )
}

/// Every place a split may be guessed at in `xml` (a `<`), all of them
/// for a short text, else every `<layer` and `most` others spread over it.
fn split_points(xml: &str, most: usize) -> Vec<usize> {
    let all: Vec<usize> = memchr::memchr_iter(b'<', xml.as_bytes()).collect();
    if all.len() <= most {
        return all;
    }
    let step = all.len() / most;
    let mut points: Vec<usize> = all.iter().copied().step_by(step.max(1)).collect();
    let layers = memchr::memmem::find_iter(xml.as_bytes(), b"<layer");
    points.extend(layers.step_by((all.len() / most / 4).max(1)));
    points.sort_unstable();
    points.dedup();
    points
}

/// Checks that every split of `xml` at the points `split_points` picks
/// gives the serial outcome; returns how many splits were merged.
fn check_splits(name: &str, xml: &str, weights: &Option<Vec<u8>>, most: usize) -> usize {
    let serial = outcome(xml, weights, Split::Never);
    let before = MERGED.with(|merged| merged.get());
    for at in split_points(xml, most) {
        let split = outcome(xml, weights, Split::At(at));
        if split != serial {
            let context = xml.get(at..(at + 60).min(xml.len())).unwrap_or_default();
            panic!("{name}: split at byte {at} ({context:?}) differs from the serial read");
        }
    }
    MERGED.with(|merged| merged.get()) - before
}

fn weights_of(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path.with_extension("bin")).ok()
}

#[test]
fn every_sample_reads_the_same_split_anywhere() {
    let mut merged = 0;
    for dir in ["", "bodies", "broken", "models"] {
        let most = if dir == "models" { 48 } else { 400 };
        for path in xml_files(dir) {
            let Ok(xml) = std::fs::read_to_string(&path) else {
                continue;
            };
            let name = path.display().to_string();
            merged += check_splits(&name, &xml, &weights_of(&path), most);
        }
    }
    assert!(merged > 100, "only {merged} splits were merged");
}

#[test]
fn cut_samples_read_the_same_split_anywhere() {
    for file in ["models/tiny_resnet.xml", "bodies/loop_nested_if.xml"] {
        let path = samples().join(file);
        let xml = std::fs::read_to_string(&path).expect("a sample");
        let weights = weights_of(&path);
        for eighth in 1..8 {
            let mut cut = xml.len() * eighth / 8;
            while !xml.is_char_boundary(cut) {
                cut -= 1;
            }
            check_splits(file, &xml[..cut], &weights, 40);
        }
    }
}

/// `xml` with the model's layers written twice: the copies have the same
/// ids (each a duplicate), but for every third, whose id is made new.
fn with_layers_doubled(xml: &str) -> String {
    let start = xml.find("<layer ").expect("a layer");
    let end = xml.rfind("</layers>").expect("the end of the layers");
    let layers = &xml[start..end];
    let mut doubled = String::with_capacity(xml.len() * 2);
    doubled.push_str(&xml[..end]);
    // The copy's ids: every third one made new.
    for (index, piece) in layers.split("<layer id=\"").enumerate() {
        if index == 0 {
            doubled.push_str(piece);
        } else if index % 3 == 0 {
            doubled.push_str("<layer id=\"new");
            doubled.push_str(piece);
        } else {
            doubled.push_str("<layer id=\"");
            doubled.push_str(piece);
        }
    }
    doubled.push_str(&xml[end..]);
    doubled
}

#[test]
fn duplicated_layers_and_ids_read_the_same_split_anywhere() {
    for file in [
        "models/tiny_resnet.xml",
        "interval_dims.xml",
        "bodies/ti_nested_if.xml",
    ] {
        let path = samples().join(file);
        let xml = std::fs::read_to_string(&path).expect("a sample");
        let doubled = with_layers_doubled(&xml);
        let merged = check_splits(file, &doubled, &weights_of(&path), 200);
        assert!(merged > 0, "{file}: no split was merged");
    }
}

/// A model made to be split badly: Parameters with symbols (some in
/// bodies) on both sides, comments and attribute values holding
/// `<layer `, a comment right before a layer, duplicate and missing ids,
/// elements that are not layers, text and CDATA between layers, bad
/// dims, and edges some of which dangle.
fn awkward_model(layers: usize) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\"?>\n<net name=\"awkward\" version=\"11\">\n\t<layers>\n",
    );
    let port = |id: usize, dims: &str| {
        let dims: String = dims.split(' ').map(|d| format!("<dim>{d}</dim>")).collect();
        format!("<port id=\"{id}\" precision=\"FP32\">{dims}</port>")
    };
    for i in 0..layers {
        let layer = match i % 9 {
            0 => format!(
                "<layer id=\"{i}\" name=\"p{i}\" type=\"Parameter\" version=\"opset1\">\n\t\t\t<data shape=\"?,3,2..8\" element_type=\"f32\"/>\n\t\t\t<output>{}</output>\n\t\t</layer>",
                port(0, "-1 3 -1")
            ),
            1 => format!(
                "<!-- <layer id=\"{i}\" name=\"commented\"> --><layer id=\"{i}\" name=\"r{i}\" type=\"ReLU\" version=\"opset1\"><input>{}</input><output>{}</output></layer>",
                port(0, "-1 3 -1"),
                port(1, "-1 3 -1")
            ),
            2 => format!(
                "<layer id=\"{}\" name=\"dup{i}\" type=\"ReLU\" version=\"opset1\" note=\"<layer id=&quot;x&quot;\"><input>{}</input><output>{}</output></layer>",
                i / 2,
                port(0, "1 x"),
                port(1, "1")
            ),
            3 => format!(
                "<layer id=\"{i}\" name=\"ti{i}\" type=\"TensorIterator\" version=\"opset1\"><input>{}</input><output>{}</output>\n<body><layers>\n<layer id=\"0\" name=\"bp\" type=\"Parameter\" version=\"opset1\"><data shape=\"?,1..\" element_type=\"f32\"/><output>{}</output></layer>\n<layer id=\"1\" name=\"br\" type=\"Result\" version=\"opset1\"><input>{}</input></layer>\n</layers><edges><edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/></edges></body>\n<port_map><input external_port_id=\"0\" internal_layer_id=\"0\"/><output external_port_id=\"1\" internal_layer_id=\"1\"/></port_map></layer>",
                port(0, "-1 3"),
                port(1, "-1 3"),
                port(0, "-1 -1"),
                port(0, "-1 -1")
            ),
            4 => format!(
                "<layer name=\"noid{i}\" type=\"Const\" version=\"opset1\"><data element_type=\"f32\" shape=\"2\" offset=\"0\" size=\"8\"/><output>{}</output></layer> text between <![CDATA[ <layer id=\"z\"> ]]>",
                port(0, "2")
            ),
            5 => format!("<junk id=\"{i}\"><layer id=\"inner\"/></junk>"),
            6 => format!(
                "<layer id=\"{i}\" name=\"c{i}\" type=\"Const\" version=\"opset1\"><data element_type=\"f32\" shape=\"1\" offset=\"0\" size=\"4\"/><output>{}</output><rt_info><attribute name=\"x\" version=\"0\" value=\"1\"/></rt_info></layer>",
                port(0, "1")
            ),
            7 => format!(
                "<layer id=\"{i}\" name=\"r{i}\" type=\"Result\" version=\"opset1\"><input>{}</input></layer>",
                port(0, "-1 3 -1")
            ),
            _ => format!(
                "<layer id=\"0{i}\" name=\"z{i}\" type=\"Parameter\" version=\"opset1\"><data shape=\"1..3,-1\" element_type=\"i64\"/><output>{}</output></layer>",
                port(0, "-1 -1")
            ),
        };
        xml.push_str("\t\t");
        xml.push_str(&layer);
        xml.push('\n');
    }
    xml.push_str("\t</layers>\n\t<edges>\n");
    for i in 1..layers {
        xml.push_str(&format!(
            "\t\t<edge from-layer=\"{}\" from-port=\"0\" to-layer=\"{i}\" to-port=\"0\"/>\n",
            i - 1
        ));
    }
    xml.push_str("\t</edges>\n\t<rt_info>\n\t\t<symbolic_dims>\n\t\t\t<info name=\"p9\" value=\"N,3,H\"/>\n\t\t</symbolic_dims>\n\t</rt_info>\n</net>\n");
    xml
}

#[test]
fn an_awkward_model_reads_the_same_split_anywhere() {
    let xml = awkward_model(40);
    let weights = Some(vec![0u8; 8]);
    let merged = check_splits("awkward", &xml, &weights, 100_000);
    assert!(merged > 10, "only {merged} splits were merged");
    // The same with a `<layers>` that is not closed where the part ends.
    let bad = xml.replacen("</layers>", "</layer>", 1);
    check_splits("awkward, bad end", &bad, &weights, 100_000);
    let cut = &xml[..xml.len() * 2 / 3];
    check_splits("awkward, cut", cut, &weights, 100_000);
}

#[test]
fn a_large_text_is_split_by_default_only_with_the_same_outcome() {
    let xml = awkward_model(2000);
    let weights = Some(vec![0u8; 8]);
    let serial = outcome(&xml, &weights, Split::Never);
    assert_eq!(outcome(&xml, &weights, Split::Auto), serial);
}

//! Our scanner gives the outcome quick-xml's tokenizer gives: for every
//! sample, and for thousands of random mutations of them (bytes deleted,
//! inserted, duplicated, swapped; entities, CDATA, comments, DOCTYPEs,
//! processing instructions, stray quotes, tabs and carriage returns,
//! truncation). A read with the scanner either gives up (and is done again
//! by quick-xml) or gives exactly quick-xml's outcome, error or not; and
//! what [`read`] returns is always quick-xml's.

use std::path::{Path, PathBuf};

use ir::TensorBytes;

use super::{read, read_with, Split};
use crate::xml::{is_gave_up, Tokenizer};
use crate::Random;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ir-samples")
}

/// Every `.xml` of `ir-samples/` and its `bodies/`, `broken/` and
/// `models/`, sorted, with its `.bin` (if any).
fn sample_files() -> Vec<(PathBuf, String, Option<Vec<u8>>)> {
    let mut files = Vec::new();
    for dir in ["", "bodies", "broken", "models"] {
        let Ok(entries) = std::fs::read_dir(samples().join(dir)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "xml"))
            .collect();
        paths.sort();
        for path in paths {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let weights = std::fs::read(path.with_extension("bin")).ok();
            files.push((path, text, weights));
        }
    }
    files
}

/// The outcome of reading `xml` with `tokenizer` (`None`: the scanner
/// gave up), as text.
fn outcome_with(
    xml: &str,
    weights: &Option<Vec<u8>>,
    split: Split,
    tokenizer: Tokenizer,
) -> Option<String> {
    let weights = weights.clone().map(TensorBytes::from_vec);
    let result = read_with(xml, weights, Some("w.bin".into()), None, split, tokenizer);
    match result {
        Err(error) if is_gave_up(&error) => None,
        result => Some(format!("{result:#?}")),
    }
}

/// The outcome of [`read`], as text.
fn outcome(xml: &str, weights: &Option<Vec<u8>>, split: Split) -> String {
    let weights = weights.clone().map(TensorBytes::from_vec);
    format!(
        "{:#?}",
        read(xml, weights, Some("w.bin".into()), None, split)
    )
}

/// Checks `xml` read both ways; whether the scanner read it (did not give
/// up).
fn check(name: &str, xml: &str, weights: &Option<Vec<u8>>) -> bool {
    let quick = outcome_with(xml, weights, Split::Never, Tokenizer::QuickXml)
        .expect("quick-xml never gives up");
    let own = outcome_with(xml, weights, Split::Never, Tokenizer::Own);
    if let Some(own) = &own {
        assert_eq!(own, &quick, "{name}: the scanner's outcome differs");
    }
    assert_eq!(
        outcome(xml, weights, Split::Never),
        quick,
        "{name}: the read's outcome differs"
    );
    own.is_some()
}

#[test]
fn every_sample_reads_as_quick_xml_reads_it() {
    let files = sample_files();
    assert!(files.len() > 50, "only {} samples", files.len());
    let mut scanned = 0;
    for (path, xml, weights) in &files {
        if check(&path.display().to_string(), xml, weights) {
            scanned += 1;
        }
    }
    // Every real model is read by the scanner.
    for (path, xml, weights) in files
        .iter()
        .filter(|(p, ..)| p.starts_with(samples().join("models")))
    {
        let own = outcome_with(xml, weights, Split::Never, Tokenizer::Own);
        assert!(own.is_some(), "{}: the scanner gave up", path.display());
    }
    assert!(
        scanned * 10 > files.len() * 8,
        "{scanned} of {}",
        files.len()
    );
}

/// Pieces inserted by the mutations: the XML the scanner leaves to
/// quick-xml, and the bytes that end its names, keys and values.
const PIECES: &[&str] = &[
    "&amp;",
    "&lt;",
    "&#x41;",
    "&bad;",
    "&",
    ";",
    "<![CDATA[ x ]]>",
    "<![CDATA[",
    "]]>",
    "<!-- c -->",
    "<!--",
    "-->",
    "<!---->",
    "<!--->",
    "<!DOCTYPE net>",
    "<!doctype x [<!ENTITY a \"b\">]>",
    "<?xml version=\"1.0\"?>",
    "<?xml?>",
    "<?xmlx?>",
    "<?pi data?>",
    "<??>",
    "<?",
    "?>",
    "\t",
    "\r",
    "\r\n",
    "\n",
    " ",
    "\"",
    "'",
    "<",
    ">",
    "/",
    "/>",
    "</",
    "=",
    " = ",
    " a=\"1\"",
    " a='&amp;'",
    " b=\"x\" b=\"y\"",
    "<x/>",
    "<x>",
    "</x>",
    "</layer>",
    "</layer >",
    "<layer id=\"7\">",
    "<dim>3</dim>",
    "é",
    "\u{feff}",
    "\u{1}",
    "\u{7f}",
    "<>",
    "</>",
    "< x>",
];

/// The nearest character boundary of `text` at or before `at`.
fn boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// `xml` changed at random in one to three places.
fn mutate(xml: &str, random: &mut Random) -> String {
    let mut text = xml.to_owned();
    for _ in 0..1 + random.below(3) {
        let len = text.len();
        let at = boundary(&text, random.below(len + 1));
        let to = boundary(&text, at + random.below(16));
        match random.below(7) {
            0 => {
                text.replace_range(at..to, "");
            }
            1 | 2 => {
                let piece = PIECES[random.below(PIECES.len())];
                text.insert_str(at, piece);
            }
            3 => {
                let copy = text[at..to].to_owned();
                text.insert_str(to, &copy);
            }
            4 => {
                // Two stretches swapped.
                let other = boundary(&text, random.below(len + 1));
                let other_to = boundary(&text, other + (to - at));
                if other_to <= at || other >= to {
                    let (first, second) = if other < at {
                        ((other, other_to), (at, to))
                    } else {
                        ((at, to), (other, other_to))
                    };
                    let a = text[first.0..first.1].to_owned();
                    let b = text[second.0..second.1].to_owned();
                    text.replace_range(second.0..second.1, &a);
                    text.replace_range(first.0..first.1, &b);
                }
            }
            5 => text.truncate(at),
            _ => {
                // A byte of markup (a quote, `<`, `>`, `/`, `=`) turned
                // into another.
                let markup = ["\"", "'", "<", ">", "/", "=", " ", "&", "!", "?"];
                if let Some(found) = text[at..].find(['"', '\'', '<', '>', '/', '=']) {
                    let at = at + found;
                    text.replace_range(at..at + 1, markup[random.below(markup.len())]);
                }
            }
        }
    }
    text
}

#[test]
fn mutated_samples_read_as_quick_xml_reads_them() {
    let files = sample_files();
    let mut random = Random(0x2545_f491_4f6c_dd1d);
    let mut scanned = 0;
    let mut checked = 0;
    for (path, xml, weights) in &files {
        // Fewer mutations of the large models (each read is slower).
        let rounds = if xml.len() > 50_000 { 8 } else { 60 };
        for round in 0..rounds {
            let mutated = mutate(xml, &mut random);
            let name = format!("{} mutation {round}", path.display());
            if check(&name, &mutated, weights) {
                scanned += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 3000, "{checked}");
    // Many mutations keep the text in the scanner's subset (or make an
    // error the reader finds before the scanner would give up).
    assert!(scanned * 4 > checked, "{scanned} of {checked}");
}

#[test]
fn mutated_samples_split_anywhere_read_as_quick_xml_reads_them() {
    // The second part is read by the scanner on another thread: it gives
    // up (the part is dropped) or reads what the serial reader reads.
    let files = sample_files();
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for (path, xml, weights) in files.iter().filter(|(_, xml, _)| xml.len() < 50_000) {
        for round in 0..6 {
            let mutated = mutate(xml, &mut random);
            let quick = outcome_with(&mutated, weights, Split::Never, Tokenizer::QuickXml)
                .expect("quick-xml never gives up");
            let points: Vec<usize> = memchr::memchr_iter(b'<', mutated.as_bytes()).collect();
            for _ in 0..4 {
                let Some(&at) = points.get(random.below(points.len())) else {
                    break;
                };
                assert_eq!(
                    outcome(&mutated, weights, Split::At(at)),
                    quick,
                    "{} mutation {round} split at {at}",
                    path.display()
                );
            }
        }
    }
}

/// A `<dim>` written in every way around the one read at once (a number
/// then `</dim>`, see `Scanner::plain_text_and_end`) reads as quick-xml
/// reads it: with whitespace, an entity, a comment, CDATA, an element
/// inside, nothing, a bad number, an end tag with a space or of another
/// element.
#[test]
fn dims_written_every_way_read_as_quick_xml_reads_them() {
    let dims = [
        "<dim>3</dim>",
        "<dim>-1</dim>",
        "<dim>?</dim>",
        "<dim>1x</dim>",
        "<dim> 3</dim>",
        "<dim>3 </dim>",
        "<dim>\n3\n</dim>",
        "<dim>3</dim >",
        "<dim>&#51;</dim>",
        "<dim>3&amp;</dim>",
        "<dim>3<!-- c --></dim>",
        "<dim><![CDATA[3]]></dim>",
        "<dim>3<x/></dim>",
        "<dim></dim>",
        "<dim/>",
        "<dim>12345678901234567890123456789012345</dim>",
        "<dim>3</dimension>",
        "<dim>3</di>",
        "<dim>3</port>",
        "<dim>3",
    ];
    for dim in dims {
        let xml = format!(
            "<?xml version=\"1.0\"?>\n<net name=\"n\" version=\"11\"><layers>\
             <layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">\
             <data shape=\"3,?\" element_type=\"f32\"/><output>\
             <port id=\"0\" precision=\"FP32\">{dim}<dim>-1</dim></port>\
             </output></layer></layers><edges/></net>\n"
        );
        check(dim, &xml, &None);
    }
}

#[test]
fn edges_read_from_their_tags_as_from_trees() {
    // An `<edge/>` is read straight from its start tag's attributes, an
    // `<edge></edge>` from a tree: the same outcome, problems and errors
    // included, with either tokenizer.
    let edges = [
        "from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"",
        "to-port=\"0\" to-layer=\"1\" from-port=\"0\" from-layer=\"0\"",
        "from-layer=' 0 ' from-port='0 ' to-layer=\"1\" to-port=\" 0\"",
        "from-layer=\"0\" from-port=\"0\" to-layer=\"1\"",
        "from-port=\"x\" to-port=\"-1\"",
        "from-layer=\"&#48;\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"",
        "from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" extra=\"&lt;\"",
        "from-layer=\"0\" from-layer=\"1\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"",
        "from-layer = \"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"",
        "from-layer=\"7\" from-port=\"0\" to-layer=\"1\" to-port=\"9\"",
        "from-layer",
        "from-layer=\"0",
        "",
    ];
    for edge in edges {
        let model = |item: String| {
            format!(
                "<?xml version=\"1.0\"?>\n<net name=\"n\" version=\"11\"><layers>\n\
                 <layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">\
                 <data shape=\"3\" element_type=\"f32\"/><output>\
                 <port id=\"0\" precision=\"FP32\"><dim>3</dim></port></output></layer>\n\
                 <layer id=\"1\" name=\"y\" type=\"Result\" version=\"opset1\"><input>\
                 <port id=\"0\" precision=\"FP32\"><dim>3</dim></port></input></layer>\n\
                 </layers>\n<edges>\n \t{item}\r\n</edges>\n</net>\n"
            )
        };
        let empty = model(format!("<edge {edge}/>"));
        let tree = model(format!("<edge {edge}></edge>"));
        for tokenizer in [Tokenizer::Own, Tokenizer::QuickXml] {
            let from_tag = outcome_with(&empty, &None, Split::Never, tokenizer);
            let from_tree = outcome_with(&tree, &None, Split::Never, tokenizer);
            assert_eq!(from_tag, from_tree, "{edge:?} ({tokenizer:?})");
        }
        check(edge, &empty, &None);
    }
}

#[test]
fn ports_written_every_way_read_as_quick_xml_reads_them() {
    // A layer's `<input>`, `<output>`, `<port>`s, `<dim>`s and end tags
    // are read at once when written plainly: around that, written every
    // other way, the outcome is quick-xml's.
    let port = "<port id=\"0\" precision=\"FP32\"><dim>3</dim><dim>-1</dim></port>";
    let bodies = [
        format!("<input>{port}</input><output>{port}</output>"),
        format!("<output>{port}</output><input>{port}</input>"),
        format!("\n\t<input>\n\t\t{port}\n\t</input>\n\t<output>\r\n{port} </output>\n"),
        format!("<input >{port}</input ><output\t>{port}</output\n>"),
        format!("<input/><output>{port}</output>"),
        format!("<input><!-- c -->{port}<!-- d --></input><output>{port}</output>"),
        format!("<input>{port}{port}</input><input>{port}</input><output/>"),
        "<input><port id=\"0\"><dim>3</dim >\n<dim > 4 </dim></port></input>".to_string(),
        "<input><port id=\"0\"><dim>3</dim><rt_info><attribute name=\"a\"/></rt_info><dim>4</dim></port></input>".to_string(),
        "<input><port id=\"0\"><dim>3</dim><other/><dim/></port ></input>".to_string(),
        "<input><port id=\"0\"><dim>3</dim>x<dim>4</dim>\n</port></input>".to_string(),
        "<input><port id=\"0\"><dim>3</dim></port></output>".to_string(),
        "<input><port id=\"0\"><dim>3</dim></input>".to_string(),
        "<input><port id=\"0\"><dim>3</dim></port>".to_string(),
        "<input><port id=\"0\"><dim>3</dim></port></input><inputs></inputs>".to_string(),
        "<input><port id=\"0\"><dimension>3</dimension></port></input>".to_string(),
        "<input><port id=\"0\"><dim><dim>3</dim></dim></port></input>".to_string(),
        "<output><port id=\"1\"><dim>3</dim></port></output></layer><layer>".to_string(),
        "<output><port id=\"1\"><dim>3</dim></port></output>&#32;".to_string(),
        "<data/><input><port id=\"0\"><dim>3</dim></port></input><body><layers></layers></body>".to_string(),
        "<input><port id=\"x\" precision=\"FP32\"><dim>3</dim></port><port id=\"1\"/></input>".to_string(),
        "<rt_info><attribute name=\"a\"/></rt_info><input><port id=\"x\"><dim>3</dim></port></input>".to_string(),
        "<input><port id=\"x\"/><port id=\"0\"/><port id=\"2\" precision=\"BAD\" names=\"a,b\"/></input>".to_string(),
        "<input><port id = \"0\"><dim>3</dim></port><port\tid=\"1\"\n/></input>".to_string(),
        "<input><port id=\"0\" id=\"1\"><dim>3</dim></port></input>".to_string(),
        "<input><port id=\"0\" a=\"&amp;\"><dim>3</dim></port></input>".to_string(),
        "<input><port id=\"0\"><dim>3</dim></port><port id=\"0\"><dim>4</dim></port></input>".to_string(),
        "<input><ports id=\"0\"><dim>3</dim></ports></input>".to_string(),
    ];
    let mut scanned = 0;
    for body in &bodies {
        for layer_end in ["</layer>", "</layer >", "\n</layer>"] {
            let xml = format!(
                "<?xml version=\"1.0\"?>\n<net name=\"n\" version=\"11\"><layers>\
                 <layer id=\"0\" name=\"x\" type=\"ReLU\" version=\"opset1\">{body}{layer_end}\
                 <layer id=\"1\" name=\"y\" type=\"ReLU\" version=\"opset1\"><input>{port}</input>\
                 </layer></layers><edges/></net>\n"
            );
            scanned += usize::from(check(body, &xml, &None));
        }
    }
    assert!(scanned >= 40, "{scanned}");
}

#[test]
fn layer_tags_and_data_written_every_way_read_as_quick_xml_reads_them() {
    // A `<layer>`'s start tag and its `<data>` are read at once when
    // their attributes are written plainly: around that, the outcome is
    // quick-xml's.
    let heads = [
        "<layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer\tid=\"0\"\nname='x' type=\"Parameter\" version=\"opset1\" >",
        "<layer id = \"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" id=\"1\" name=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" name=\"&lt;x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" type=\"Parameter\" extra=\"e\">",
        "<layer>",
        "<layers id=\"0\">",
    ];
    let datas = [
        "<data shape=\"3\" element_type=\"f32\"/>",
        "<data shape=\"3\" element_type=\"f32\" />",
        "<data shape=\"3\" element_type=\"f32\"></data>",
        "<data shape=\"3\" element_type=\"f32\">\n<x a=\"1\"/>t</data>",
        "<data shape=\"3\" element_type=\"f32\"/><data shape=\"4\"/>",
        "<data shape=\"3\" shape=\"4\"/>",
        "<data shape=\"&#51;\" element_type=\"f32\"/>",
        "<data/>",
        "<data >",
        "",
    ];
    let mut scanned = 0;
    for head in heads {
        for data in datas {
            let end = if data == "<data >" { "</data>" } else { "" };
            let xml = format!(
                "<?xml version=\"1.0\"?>\n<net name=\"n\" version=\"11\"><layers>\n{head}{data}{end}\
                 <output><port id=\"0\" precision=\"FP32\"><dim>3</dim></port></output></layer>\n\
                 <layer id=\"1\" name=\"y\" type=\"Result\" version=\"opset1\"><input>\
                 <port id=\"0\"><dim>3</dim></port></input></layer>\n</layers>\n\
                 <edges><edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/></edges></net>\n"
            );
            scanned += usize::from(check(head, &xml, &None));
        }
    }
    assert!(scanned >= 50, "{scanned}");
}

#[test]
fn keyed_tags_and_dims_written_every_way_read_as_quick_xml_reads_them() {
    // `<layer>`, `<port>` and `<edge>` start tags whose attributes are the
    // writers' keys in order, and `<dim>N</dim>`, are read without
    // splitting pairs or opening elements; around that (other orders, keys
    // left out, doubled or added, other spacing and quotes, `&`, longer or
    // odd numbers), the outcome is quick-xml's.
    let layers = [
        "<layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\" >",
        "<layer id=\"0\" name=\"x\" type=\"Parameter\">",
        "<layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\" extra=\"e\">",
        "<layer name=\"x\" id=\"0\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" name=\"a&amp;b\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" name=\"x\" name=\"y\" type=\"Parameter\" version=\"opset1\">",
        "<layer  id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\"\tname=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id='0' name=\"x\" type=\"Parameter\" version=\"opset1\">",
        "<layer id=\"0\" name=\"x\" type=\"Parameter\" version=\"opset1\"/>",
        "<layer id=\"0\" name=\"x\"type=\"Parameter\" version=\"opset1\">",
    ];
    let ports = [
        "<port id=\"0\" precision=\"FP32\">",
        "<port id=\"0\" precision=\"FP32\" names=\"a,b\">",
        "<port id=\"0\" precision=\"FP32\" names=\"a\" extra=\"1\">",
        "<port precision=\"FP32\" id=\"0\">",
        "<port id=\"0\"  precision=\"FP32\">",
        "<port id='0'>",
        "<port id=\"0\" precision=\"FP32\" >",
        "<port id=\"0\" id=\"1\">",
        "<port id=\"x\" precision=\"FP32\">",
        "<port id=\"0\" precision=\"BAD\">",
        "<port id=\"0\" precision=\"F&amp;\">",
        "<port id=\"0\"precision=\"FP32\">",
        "<port id=\"0\" precision=\"FP32\" names=\"\"/>",
    ];
    let edges = [
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"/>",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" />",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\"></edge>",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\"/>",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" x=\"1\"/>",
        "<edge from-port=\"0\" from-layer=\"0\" to-layer=\"1\" to-port=\"0\"/>",
        "<edge from-layer=\"0 \" from-port=\"x\" to-layer=\"1\" to-port=\"0\"/>",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\" to-port=\"0\"/>",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"&#49;\" to-port=\"0\"/>",
        "<edge from-layer=\"0\" from-port=\"0\" to-layer=\"1\" to-port=\"0\">",
    ];
    let dims = [
        "<dim>3</dim>",
        "<dim>-1</dim>",
        "<dim>1234567</dim>",
        "<dim>12345678</dim>",
        "<dim>+4</dim>",
        "<dim>-0</dim>",
        "<dim>007</dim>",
        "<dim>-2</dim>",
        "<dim>x</dim>",
        "<dim> 3</dim>",
        "<dim>3 </dim>",
        "<dim></dim>",
        "<dim>3</dims>",
        "<dim>3</dim >",
        "<dim>&#51;</dim>",
        "<dim>\u{e9}</dim>",
        "<dim >3</dim>",
    ];
    let mut scanned = 0;
    let mut case = 0;
    for layer in layers {
        for port in ports {
            case += 1;
            let edge = edges[case % edges.len()];
            let dim = dims[case % dims.len()];
            let other_dim = dims[(case / dims.len() + case) % dims.len()];
            let xml = format!(
                "<?xml version=\"1.0\"?>\n<net name=\"n\" version=\"11\"><layers>\n{layer}\
                 <data shape=\"3,4\" element_type=\"f32\"/><output>{port}{dim}{other_dim}</port>\
                 </output></layer>\n<layer id=\"1\" name=\"y\" type=\"Result\" version=\"opset1\">\
                 <input>{port}{other_dim}<dim>4</dim></port></input></layer>\n</layers>\n\
                 <edges>\n{edge}\n</edges></net>\n"
            );
            scanned += usize::from(check(layer, &xml, &None));
        }
    }
    assert!(scanned >= 40, "{scanned}");
}

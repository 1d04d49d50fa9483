//! OpenVINO's own `type_prop` facts, as a table: every case of
//! `tests/type_prop/*.txt` is a small graph (ported from the test of the
//! same name in OpenVINO's `src/core/tests/type_prop/<op>.cpp`) and the
//! answer OpenVINO 2026.4 gives for it, checked against OpenVINO itself by
//! `scripts/check_type_prop.py`.
//!
//! Our answer must never be weaker: where OpenVINO rejects the graph we
//! report an error on that layer; where it accepts it we accept it too
//! (warnings allowed), with the same rank where OpenVINO knows it, the same
//! value for every static dim, and for every other dim bounds inside
//! OpenVINO's interval. Soundness of our tighter answers (they hold at every
//! binding) is the property tests' job (`soundness_props.rs`).
//!
//! The table language, one statement per line (`#` starts a comment):
//!
//! ```text
//! case NAME                          # a new graph
//! param NAME TYPE SHAPE              # SHAPE in OpenVINO syntax: `2,?,1..8`, `...`, `[]` (scalar)
//! const NAME TYPE DIMS VALUES        # DIMS `3`, `2x3` or `[]`; VALUES comma-separated
//! op NAME TYPE VERSION IN,IN… [K=V…] # inputs by layer name; `-` for none
//! expect NAME SHAPE                  # OpenVINO's output shape: `[2..8,?,5]`, `[...]`
//! expect NAME error                  # OpenVINO rejects the layer
//! ours NAME TEXT                     # our (more precise) answer, as displayed
//! ours NAME error                    # we prove the layer can never run (say why)
//! ```
//!
//! `TYPE_PROP_DUMP=DIR cargo test -p shape-infer --test type_prop` writes
//! every case as `DIR/<table>__<case>.xml/.bin` (and checks nothing) for the
//! script to read with OpenVINO.

mod support;

use std::collections::HashMap;
use std::path::Path;

use support::{Ir, Out, Run};

/// One `expect` line: OpenVINO's answer for a layer.
#[derive(Debug, Clone, PartialEq)]
enum Expected {
    Error,
    /// `None`: dynamic rank; each dim `(lo, hi)`, `hi` `None` = unbounded.
    Shape(Option<Vec<(i64, Option<i64>)>>),
}

/// A case of a table.
struct Case {
    name: String,
    line: usize,
    ir: Ir,
    outs: HashMap<String, Out>,
    expected: Vec<(String, Expected)>,
    ours: Vec<(String, String)>,
}

fn parse_dim(text: &str) -> (i64, Option<i64>) {
    if text == "?" {
        return (0, None);
    }
    if let Some((lo, hi)) = text.split_once("..") {
        let lo = if lo.is_empty() {
            0
        } else {
            lo.parse().expect("lower bound")
        };
        let hi = (!hi.is_empty()).then(|| hi.parse().expect("upper bound"));
        return (lo, hi);
    }
    let v = text.parse().expect("a dim");
    (v, Some(v))
}

fn parse_expected(text: &str) -> Expected {
    if text == "error" {
        return Expected::Error;
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or_else(|| panic!("`{text}`: a shape is written in brackets"));
    if inner == "..." {
        return Expected::Shape(None);
    }
    let dims = if inner.is_empty() {
        vec![]
    } else {
        inner.split(',').map(|d| parse_dim(d.trim())).collect()
    };
    Expected::Shape(Some(dims))
}

fn encode(element_type: &str, values: &[&str]) -> Vec<u8> {
    let int = |v: &&str| -> i64 { v.parse().unwrap_or_else(|_| panic!("integer `{v}`")) };
    let float = |v: &&str| -> f64 { v.parse().unwrap_or_else(|_| panic!("number `{v}`")) };
    match element_type {
        "i64" => values.iter().flat_map(|v| int(v).to_le_bytes()).collect(),
        "u64" => values
            .iter()
            .flat_map(|v| (int(v) as u64).to_le_bytes())
            .collect(),
        "i32" => values
            .iter()
            .flat_map(|v| (int(v) as i32).to_le_bytes())
            .collect(),
        "u32" => values
            .iter()
            .flat_map(|v| (int(v) as u32).to_le_bytes())
            .collect(),
        "i8" => values.iter().map(|v| int(v) as i8 as u8).collect(),
        "u8" => values.iter().map(|v| int(v) as u8).collect(),
        "boolean" => values.iter().map(|v| u8::from(int(v) != 0)).collect(),
        "f32" => values
            .iter()
            .flat_map(|v| (float(v) as f32).to_le_bytes())
            .collect(),
        other => panic!("const of element type {other} is not supported by the table"),
    }
}

fn parse_table(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = || format!("line {}: `{raw}`", number + 1);
        if words[0] == "case" {
            cases.push(Case {
                name: words[1].to_owned(),
                line: number + 1,
                ir: Ir::new(),
                outs: HashMap::new(),
                expected: vec![],
                ours: vec![],
            });
            continue;
        }
        let case = cases
            .last_mut()
            .unwrap_or_else(|| panic!("{}: no case", at()));
        match words[0] {
            "param" => {
                let shape = if words[3] == "[]" { "" } else { words[3] };
                let out = case.ir.param(words[1], shape, words[2]);
                case.outs.insert(words[1].to_owned(), out);
            }
            "const" => {
                let dims: Vec<usize> = if words[3] == "[]" {
                    vec![]
                } else {
                    words[3]
                        .split('x')
                        .map(|d| d.parse().expect("const dim"))
                        .collect()
                };
                let values: Vec<&str> = match words.get(4) {
                    Some(v) => v.split(',').collect(),
                    None => vec![],
                };
                let count: usize = dims.iter().product();
                assert_eq!(values.len(), count, "{}: value count", at());
                let bytes = encode(words[2], &values);
                let out = case.ir.constant(words[1], words[2], &dims, &bytes);
                case.outs.insert(words[1].to_owned(), out);
            }
            "op" => {
                let inputs: Vec<Out> = if words[4] == "-" {
                    vec![]
                } else {
                    words[4]
                        .split(',')
                        .map(|n| {
                            *case
                                .outs
                                .get(n)
                                .unwrap_or_else(|| panic!("{}: no layer {n}", at()))
                        })
                        .collect()
                };
                let attrs: Vec<(&str, &str)> = words[5..]
                    .iter()
                    .map(|kv| kv.split_once('=').unwrap_or_else(|| panic!("{}", at())))
                    .collect();
                let out = case.ir.op(words[1], words[2], words[3], &attrs, &inputs);
                case.outs.insert(words[1].to_owned(), out);
            }
            "expect" => case
                .expected
                .push((words[1].to_owned(), parse_expected(words[2]))),
            "ours" => case.ours.push((words[1].to_owned(), words[2..].join(" "))),
            other => panic!("{}: unknown statement {other}", at()),
        }
    }
    cases
}

/// What one case concluded: `Err` with the reason ours is weaker or wrong.
fn check_case(case: &mut Case) -> Result<usize, String> {
    for (name, _) in &case.expected {
        let out = case.outs[name];
        case.ir.named_result(&format!("{name}/result"), out);
    }
    let run: Run = case.ir.run();
    let mut tighter = 0;
    let errors: Vec<_> = run
        .inference
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    let expects_error = case.expected.iter().any(|(_, e)| *e == Expected::Error);
    // `ours NAME error`: a graph OpenVINO reads but can never run, which we
    // prove (the table says why).
    let refused: Vec<&String> = case
        .ours
        .iter()
        .filter(|(_, text)| text == "error")
        .map(|(name, _)| name)
        .collect();
    let unexplained: Vec<_> = errors
        .iter()
        .filter(|d| !d.layer.as_ref().is_some_and(|l| refused.contains(&&l.name)))
        .collect();
    if !expects_error && !unexplained.is_empty() {
        return Err(format!(
            "OpenVINO accepts the graph; we report {unexplained:?}"
        ));
    }
    for name in &refused {
        if !errors
            .iter()
            .any(|d| d.layer.as_ref().is_some_and(|l| &&l.name == name))
        {
            return Err(format!("the table says we refuse {name}; we accept it"));
        }
        tighter += 1;
    }
    for (name, expected) in &case.expected {
        if refused.contains(&name) {
            continue;
        }
        let shape = match expected {
            Expected::Error => {
                let on_layer = errors
                    .iter()
                    .any(|d| d.layer.as_ref().is_some_and(|l| &l.name == name));
                if !on_layer {
                    return Err(format!(
                        "OpenVINO rejects {name}; our errors are {errors:?}"
                    ));
                }
                continue;
            }
            Expected::Shape(shape) => shape,
        };
        let ours = &run.tensor(name).shape;
        let shown = run.shape(name);
        let Some(expected_dims) = shape else {
            if ours.rank().is_some() {
                tighter += 1;
            }
            continue;
        };
        let Some(dims) = ours.dims() else {
            return Err(format!(
                "{name}: OpenVINO knows the rank {}, ours is {shown}",
                expected_dims.len()
            ));
        };
        if dims.len() != expected_dims.len() {
            return Err(format!(
                "{name}: ours {shown} has another rank than OpenVINO's"
            ));
        }
        for (axis, (dim, &(lo, hi))) in dims.iter().zip(expected_dims).enumerate() {
            let bounds = run
                .inference
                .symbols
                .bounds(dim)
                .map_err(|e| format!("{name}: bounds of axis {axis}: {e}"))?;
            let our_lo = bounds.lo.unwrap_or(0).max(0);
            let inside_hi = match (bounds.hi, hi) {
                (_, None) => true,
                (None, Some(_)) => false,
                (Some(a), Some(b)) => a <= b,
            };
            if our_lo < lo || !inside_hi {
                return Err(format!(
                    "{name}: axis {axis} of ours {shown} has bounds {:?}..{:?}, \
                     looser than OpenVINO's {lo}..{hi:?}",
                    bounds.lo, bounds.hi
                ));
            }
            if our_lo > lo || bounds.hi != hi {
                tighter += 1;
            }
        }
    }
    for (name, text) in case.ours.iter().filter(|(_, t)| t != "error") {
        let shown = run.shape(name);
        if &shown != text {
            return Err(format!("{name}: ours is {shown}, the table pins {text}"));
        }
    }
    Ok(tighter)
}

fn check_table(file: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/type_prop")
        .join(file);
    let text = std::fs::read_to_string(&path).expect("table");
    let mut cases = parse_table(&text);
    assert!(!cases.is_empty());
    let table = file.trim_end_matches(".txt");
    if let Ok(dir) = std::env::var("TYPE_PROP_DUMP") {
        std::fs::create_dir_all(&dir).expect("dump dir");
        for case in &mut cases {
            for (name, _) in &case.expected {
                let out = case.outs[name];
                case.ir.named_result(&format!("{name}/result"), out);
            }
            let stem = Path::new(&dir).join(format!("{table}__{}", case.name));
            std::fs::write(stem.with_extension("xml"), case.ir.xml()).expect("xml");
            std::fs::write(stem.with_extension("bin"), case.ir.weights()).expect("bin");
        }
        return;
    }
    let mut failures = vec![];
    let mut tighter = 0;
    for case in &mut cases {
        assert!(
            !case.expected.is_empty(),
            "{file}:{} {}: no expect line",
            case.line,
            case.name
        );
        match check_case(case) {
            Ok(n) => tighter += usize::from(n > 0),
            Err(e) => failures.push(format!("{file}:{} {}: {e}", case.line, case.name)),
        }
    }
    println!(
        "{file}: {} cases, {} more precise than OpenVINO",
        cases.len(),
        tighter
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn select() {
    check_table("select.txt");
}

#[test]
fn reshape() {
    check_table("reshape.txt");
}

#[test]
fn slice() {
    check_table("slice.txt");
}

#[test]
fn broadcast() {
    check_table("broadcast.txt");
}

#[test]
fn non_zero() {
    check_table("non_zero.txt");
}

#[test]
fn strided_slice() {
    check_table("strided_slice.txt");
}

#[test]
fn roi() {
    check_table("roi.txt");
}

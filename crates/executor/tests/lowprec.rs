//! Convert to and from OpenVINO's storage element types (f8e4m3, f8e5m2,
//! f8e8m0, f4e2m1, nf4, i4, u4, u2, u1) against OpenVINO's CPU plugin on
//! edge values: `tests/lowprec/<source>_to_<destination>.npy`, made by
//! `scripts/gen_lowprec_goldens.py` (storage types one code a byte, bf16 as
//! its bits, as `ir-check --run` reads and writes them).

use std::path::{Path, PathBuf};

use executor::{convert, from_raw_codes, parse_npy, read_npy, to_npy_bytes, Tensor};
use ir::{ElementType, TensorBytes};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lowprec")
}

/// The tensor of `name.npy`, typed `name` (raw codes and bits decoded).
fn input(name: &str) -> Tensor {
    let t = read_npy(&dir().join(format!("{name}.npy"))).unwrap();
    let element_type = ElementType::parse(name).unwrap();
    match from_raw_codes(&t, element_type) {
        Some(decoded) => decoded.unwrap(),
        None => t,
    }
}

/// The bytes `ir-check --run` would write for `t`'s elements (storage types
/// one code a byte, bf16 its bits).
fn written(t: &Tensor) -> Vec<u8> {
    if t.element_type == ElementType::BF16 {
        return t.bytes().to_vec();
    }
    let file = to_npy_bytes(t).unwrap();
    parse_npy(TensorBytes::from_vec(file))
        .unwrap()
        .bytes()
        .to_vec()
}

/// Whether two elements of `t` (`width` bytes) are the same: bit for bit,
/// or both NaN for floats.
fn same(t: ElementType, a: &[u8], b: &[u8]) -> bool {
    let nan = |c: &[u8]| match t {
        ElementType::F32 => f32::from_le_bytes(c.try_into().unwrap()).is_nan(),
        ElementType::F64 => f64::from_le_bytes(c.try_into().unwrap()).is_nan(),
        ElementType::F16 => half::f16::from_le_bytes(c.try_into().unwrap()).is_nan(),
        ElementType::BF16 => half::bf16::from_le_bytes(c.try_into().unwrap()).is_nan(),
        _ => false,
    };
    a == b || (nan(a) && nan(b))
}

/// Known differences: `(pair, count)`. (None: nf4's boundaries are the
/// CPU plugin's, and the inputs include the values next to each midpoint.)
const KNOWN: &[(&str, usize)] = &[];

#[test]
fn convert_matches_the_cpu_plugin_on_edge_values() {
    let mut pairs: Vec<(String, String)> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            // `moves_*` belong to the other test.
            let stem = name
                .strip_suffix(".npy")
                .filter(|s| !s.starts_with("moves_"))?;
            let (from, to) = stem.split_once("_to_")?;
            Some((from.to_owned(), to.to_owned()))
        })
        .collect();
    pairs.sort();
    assert!(pairs.len() >= 90, "only {} goldens", pairs.len());
    let mut failures = Vec::new();
    for (from, to) in &pairs {
        let source = input(from);
        let to_type = ElementType::parse(to).unwrap();
        let golden = read_npy(&dir().join(format!("{from}_to_{to}.npy"))).unwrap();
        let ours = written(&convert(&source, to_type).unwrap());
        let want = golden.bytes();
        let width = match to_type {
            t if t.bit_width().unwrap() < 8 => 1,
            t => t.bit_width().unwrap() as usize / 8,
        };
        assert_eq!(ours.len(), want.len(), "{from} to {to}");
        let differ: Vec<usize> = (0..want.len() / width)
            .filter(|&i| {
                let r = i * width..(i + 1) * width;
                !same(to_type, &ours[r.clone()], &want[r])
            })
            .collect();
        let known = KNOWN
            .iter()
            .find(|(pair, _)| *pair == format!("{from}_to_{to}"))
            .map_or(0, |&(_, n)| n);
        if differ.len() != known {
            let i = differ.first().copied().unwrap_or(0);
            let r = i * width..(i + 1) * width;
            failures.push(format!(
                "{from} to {to}: {} of {} differ ({known} known), first element {i}: ours {:02x?}, OpenVINO {:02x?}",
                differ.len(),
                want.len() / width,
                &ours[r.clone()],
                &want[r]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The ops that only move elements (Concat, Transpose, Gather, Slice,
/// Broadcast, Pad…) on each storage type, against the CPU plugin:
/// `moves_<type>.xml` with its input and one golden a Result.
#[test]
fn moves_match_the_cpu_plugin() {
    let mut models: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    models.sort();
    assert!(models.len() >= 3, "only {} models", models.len());
    let mut compared = 0;
    for xml in &models {
        let stem = xml.file_stem().unwrap().to_str().unwrap().to_owned();
        let model = ir_xml::read_model(xml, None).unwrap();
        let exec = executor::Executor::new(&model.graph).unwrap();
        let x = read_npy(&dir().join(format!("{stem}.in.npy"))).unwrap();
        let inputs = std::collections::HashMap::from([("x".to_owned(), x)]);
        let outputs = exec.run(inputs).unwrap_or_else(|e| panic!("{stem}: {e}"));
        for (_, node) in model.graph.results() {
            let golden = read_npy(&dir().join(format!("{stem}.{}.npy", node.name))).unwrap();
            let ours = &outputs[&node.name];
            assert_eq!(ours.shape, golden.shape, "{stem} {}", node.name);
            assert_eq!(written(ours), golden.bytes(), "{stem} {}", node.name);
            compared += 1;
        }
    }
    assert!(compared >= 40, "only {compared} outputs compared");
}

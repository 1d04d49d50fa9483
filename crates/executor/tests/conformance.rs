//! Conformance with OpenVINO's own CPU plugin: every case folder of
//! `tests/conformance/` (written by `scripts/gen_exec_goldens.py`) holds a
//! model path, seeded random inputs and the outputs OpenVINO computed for them
//! (`INFERENCE_PRECISION_HINT=f32`). Our executor runs the same model on the
//! same inputs; every output must match: exactly for integers and booleans,
//! within `1e-5 * max(1, |expected|)` for floats (NaN matches NaN).
//!
//! Cases are never skipped silently: cases OpenVINO itself could not run,
//! cases too large to keep, and cases whose graph has an op without a kernel
//! are printed, and the number of cases actually compared must stay at least
//! [`MIN_COMPARED`]. Known disagreements are listed in [`KNOWN_DIFFERENCES`];
//! the set of mismatches must equal that list exactly.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use executor::{read_npy, ExecError, Executor, Tensor};
use ir::ElementType;

/// The number of cases compared when this floor was set; raise it when
/// kernels are added (the test prints the current count).
const MIN_COMPARED: usize = 54;

/// `(case, Result name, reason)` of every output where our executor
/// disagrees with OpenVINO's CPU plugin. Fixing one makes the test fail
/// until its entry is removed.
const KNOWN_DIFFERENCES: &[(&str, &str, &str)] = &[(
    "sample_scalar_and_types",
    "half_as_f32/sink_port_0",
    "not an executor bug: f16 Add [1.7431640625 + 0.5] then Convert to f32. \
     The IR says the Add output is f16, so ours rounds 2.2431640625 to the f16 \
     2.2421875 (ties to even) before the Convert; OpenVINO's CPU plugin \
     computes the f16 subgraph in f32 (f16 is not a CPU execution precision) \
     and never rounds, giving 2.2431640625",
)];

// ---------------------------------------------------------------------------
// A minimal JSON reader (the executor has no JSON dependency).
// ---------------------------------------------------------------------------

#[derive(Debug, Clone)]
#[allow(dead_code)] // every JSON value is parsed, not every one is read
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    fn entries(&self) -> &[(String, Json)] {
        match self {
            Json::Obj(fields) => fields,
            _ => &[],
        }
    }
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn parse(text: &str) -> Result<Json, String> {
        let mut p = JsonParser {
            s: text.as_bytes(),
            i: 0,
        };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing characters at {}", p.i));
        }
        Ok(v)
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected `{}` at {}", c as char, self.i))
        }
    }
    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(format!("bad literal at {}", self.i))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    self.eat(b':')?;
                    fields.push((k, self.value()?));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(fields));
                        }
                        _ => return Err(format!("bad object at {}", self.i)),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err(format!("bad array at {}", self.i)),
                    }
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(_) => {
                let start = self.i;
                while self.i < self.s.len() && b"+-.eE0123456789".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                text.parse()
                    .map(Json::Num)
                    .map_err(|_| format!("bad number `{text}` at {start}"))
            }
            None => Err("unexpected end".to_owned()),
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.s.get(self.i..self.i + 4).ok_or("short \\u escape")?;
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).map_err(|e| e.to_string())?, 16)
            .map_err(|e| e.to_string())
    }
    fn string(&mut self) -> Result<String, String> {
        self.eat(b'"')?;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') {
                self.i += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?);
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let c = *self.s.get(self.i + 1).ok_or("unterminated escape")?;
                    self.i += 2;
                    match c {
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let mut code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code)
                                && self.s.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                self.i += 2;
                                let low = self.hex4()?;
                                code =
                                    0x10000 + ((code - 0xD800) << 10) + (low.wrapping_sub(0xDC00));
                            }
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        other => out.push(other as char),
                    }
                }
                _ => return Err("unterminated string".to_owned()),
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

/// The first difference between `ours` and OpenVINO's `theirs`, if any.
fn first_difference(ours: &Tensor, theirs: &Tensor) -> Option<String> {
    if ours.element_type != theirs.element_type {
        return Some(format!(
            "element type: ours {} vs OpenVINO {}",
            ours.element_type, theirs.element_type
        ));
    }
    if ours.shape != theirs.shape {
        return Some(format!(
            "shape: ours {:?} vs OpenVINO {:?}",
            ours.shape, theirs.shape
        ));
    }
    fn exact<T: executor::Element>(a: &Tensor, b: &Tensor) -> Option<String> {
        let (a, b) = (a.to_vec::<T>().unwrap(), b.to_vec::<T>().unwrap());
        let i = a.iter().zip(&b).position(|(x, y)| x != y)?;
        Some(format!(
            "index {i}: ours {:?} vs OpenVINO {:?} ({} of {} elements differ)",
            a[i],
            b[i],
            a.iter().zip(&b).filter(|(x, y)| x != y).count(),
            a.len()
        ))
    }
    fn close(a: &[f64], b: &[f64]) -> Option<String> {
        let bad = |x: f64, y: f64| {
            !((x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= 1e-5 * y.abs().max(1.0))
        };
        let i = a.iter().zip(b).position(|(&x, &y)| bad(x, y))?;
        Some(format!(
            "index {i}: ours {:?} vs OpenVINO {:?} ({} of {} elements differ)",
            a[i],
            b[i],
            a.iter().zip(b).filter(|(&x, &y)| bad(x, y)).count(),
            a.len()
        ))
    }
    let floats = |t: &Tensor| -> Vec<f64> {
        match t.element_type {
            ElementType::F32 => t
                .to_vec::<f32>()
                .unwrap()
                .into_iter()
                .map(f64::from)
                .collect(),
            ElementType::F64 => t.to_vec::<f64>().unwrap(),
            ElementType::F16 => t
                .to_vec::<half::f16>()
                .unwrap()
                .into_iter()
                .map(f64::from)
                .collect(),
            _ => unreachable!(),
        }
    };
    match ours.element_type {
        ElementType::F32 | ElementType::F64 | ElementType::F16 => {
            close(&floats(ours), &floats(theirs))
        }
        ElementType::Boolean => exact::<bool>(ours, theirs),
        ElementType::I8 => exact::<i8>(ours, theirs),
        ElementType::I16 => exact::<i16>(ours, theirs),
        ElementType::I32 => exact::<i32>(ours, theirs),
        ElementType::I64 => exact::<i64>(ours, theirs),
        ElementType::U8 => exact::<u8>(ours, theirs),
        ElementType::U16 => exact::<u16>(ours, theirs),
        ElementType::U32 => exact::<u32>(ours, theirs),
        ElementType::U64 => exact::<u64>(ours, theirs),
        other => (ours.bytes() != theirs.bytes()).then(|| format!("{other}: the bytes differ")),
    }
}

// ---------------------------------------------------------------------------
// The test
// ---------------------------------------------------------------------------

enum Outcome {
    /// Compared; the mismatches as `(Result name, description)`.
    Compared(Vec<(String, String)>),
    /// The graph has an op without a kernel.
    NoKernel(String),
    /// OpenVINO could not run it, or its arrays were too large to keep.
    NotGenerated(String),
}

fn run_case(root: &Path, dir: &Path) -> Outcome {
    let text = std::fs::read_to_string(dir.join("case.json")).unwrap();
    let meta = JsonParser::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    if let Some(e) = meta.get("openvino_error") {
        let stage = e.get("stage").and_then(Json::as_str).unwrap_or("?");
        let msg = e.get("message").and_then(Json::as_str).unwrap_or("?");
        return Outcome::NotGenerated(format!("OpenVINO failed at {stage}: {msg}"));
    }
    if let Some(reason) = meta.get("skipped").and_then(Json::as_str) {
        return Outcome::NotGenerated(format!("not kept: {reason}"));
    }
    let model_path = root.join(meta.get("model").and_then(Json::as_str).unwrap());
    let model = ir_xml::read_model(&model_path, None)
        .unwrap_or_else(|e| panic!("{}: {e}", model_path.display()));
    let exec = match Executor::new(&model.graph) {
        Ok(e) => e,
        Err(ExecError::NoKernel { op, .. }) => return Outcome::NoKernel(op),
        Err(e) => {
            return Outcome::Compared(vec![("(all)".into(), format!("Executor::new: {e}"))]);
        }
    };
    let mut inputs = HashMap::new();
    for (file, name) in meta.get("inputs").map(Json::entries).unwrap_or_default() {
        let name = name.as_str().unwrap();
        let t = read_npy(&dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        // The saved input must have the shape of the recorded binding.
        let bound: Option<Vec<usize>> = match meta.get("binding").and_then(|b| b.get(name)) {
            Some(Json::Arr(dims)) => dims
                .iter()
                .map(|d| match d {
                    Json::Num(n) => Some(*n as usize),
                    _ => None,
                })
                .collect(),
            _ => None,
        };
        assert_eq!(
            bound.as_deref(),
            Some(t.shape.as_slice()),
            "{}: input {name} vs its binding",
            dir.display()
        );
        inputs.insert(name.to_owned(), t);
    }
    let mut ours = match exec.run(inputs) {
        Ok(o) => o,
        Err(ExecError::NoKernel { op, .. }) => return Outcome::NoKernel(op),
        Err(e) => return Outcome::Compared(vec![("(all)".into(), format!("run: {e}"))]),
    };
    let mut mismatches = Vec::new();
    for (file, name) in meta.get("outputs").map(Json::entries).unwrap_or_default() {
        let name = name.as_str().unwrap();
        let theirs = read_npy(&dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        match ours.remove(name) {
            None => mismatches.push((name.to_owned(), "no such output in ours".to_owned())),
            Some(t) => {
                if let Some(d) = first_difference(&t, &theirs) {
                    mismatches.push((name.to_owned(), d));
                }
            }
        }
    }
    Outcome::Compared(mismatches)
}

#[test]
fn executor_matches_openvino_cpu() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.json").is_file())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no case under {}", base.display());

    let mut compared = Vec::new();
    let mut no_kernel: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut not_generated = Vec::new();
    let mut mismatches: BTreeMap<(String, String), String> = BTreeMap::new();
    for dir in &dirs {
        let case = dir.file_name().unwrap().to_string_lossy().to_string();
        match run_case(&root, dir) {
            Outcome::Compared(m) => {
                compared.push(case.clone());
                for (output, what) in m {
                    mismatches.insert((case.clone(), output), what);
                }
            }
            Outcome::NoKernel(op) => no_kernel.entry(op).or_default().push(case),
            Outcome::NotGenerated(why) => not_generated.push(format!("{case}: {why}")),
        }
    }

    println!("{} cases, {} compared", dirs.len(), compared.len());
    println!("not compared, op without a kernel:");
    for (op, cases) in &no_kernel {
        println!("  {op}: {}", cases.join(", "));
    }
    println!("no OpenVINO golden:");
    for line in &not_generated {
        println!("  {line}");
    }

    let known: BTreeMap<(String, String), &str> = KNOWN_DIFFERENCES
        .iter()
        .map(|(c, o, why)| ((c.to_string(), o.to_string()), *why))
        .collect();
    let mut report = String::new();
    for ((case, output), what) in &mismatches {
        if !known.contains_key(&(case.clone(), output.clone())) {
            report.push_str(&format!("  new mismatch: {case} / {output}: {what}\n"));
        } else {
            println!("known difference: {case} / {output}: {what}");
        }
    }
    let found: BTreeSet<_> = mismatches.keys().cloned().collect();
    for ((case, output), why) in &known {
        if !found.contains(&(case.clone(), output.clone())) {
            report.push_str(&format!(
                "  listed in KNOWN_DIFFERENCES but now matches (or was not compared): {case} / {output} ({why})\n"
            ));
        }
    }
    assert!(
        report.is_empty(),
        "executor vs OpenVINO CPU plugin:\n{report}"
    );
    assert!(
        compared.len() >= MIN_COMPARED,
        "only {} cases compared, the floor is {MIN_COMPARED}",
        compared.len()
    );
}

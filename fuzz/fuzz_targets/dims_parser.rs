//! The dims parser (`--shape` syntax and OpenVINO's dim syntax) and the
//! expression parser: never a panic, and what parses prints back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use symdim::{ParsedShape, SymbolTable};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut table = SymbolTable::new();
    if let Ok(ParsedShape::Ranked(dims)) = table.parse_dims(text, &|| None) {
        for dim in dims {
            let shown = table.display(&dim).to_string();
            let again = table.parse_expr(&shown).expect("a displayed dim parses");
            assert_eq!(again, dim, "`{shown}` does not parse back to itself");
            let _ = table.bounds(&dim);
        }
    }
    let mut table = SymbolTable::new();
    if let Ok(expr) = table.parse_expr(text) {
        let shown = table.display(&expr).to_string();
        let again = table
            .parse_expr(&shown)
            .expect("a displayed expression parses");
        assert_eq!(again, expr, "`{shown}` does not parse back to itself");
    }
});

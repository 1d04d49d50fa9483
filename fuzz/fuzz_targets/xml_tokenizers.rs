//! Our scanner of the XML subset IR files are written in against
//! quick-xml's tokenizer on arbitrary input: whenever the scanner does not
//! give up, the read's outcome (graph, diagnostics, error and its line and
//! column) is quick-xml's, and a read (which falls back to quick-xml when
//! the scanner gives up) always gives quick-xml's outcome.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((bin, xml)) = common::split(data) else {
        return;
    };
    let weights = ir::TensorBytes::from_vec(bin.to_vec());
    let (own, quick, read) = ir_xml::read_both_ways(xml, Some(weights));
    if let Some(own) = own {
        assert_eq!(own, quick, "the scanner's outcome is not quick-xml's");
    }
    assert_eq!(read, quick, "the read's outcome is not quick-xml's");
});

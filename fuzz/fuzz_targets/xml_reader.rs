//! The IR reader on arbitrary XML and weights; whatever it reads must also
//! write and read back without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((bin, xml)) = common::split(data) else {
        return;
    };
    let weights = ir::TensorBytes::from_vec(bin.to_vec());
    let Ok(read) = ir_xml::read_model_from_str(xml, Some(weights)) else {
        return;
    };
    if let Ok((xml2, bin2)) = ir_xml::write_model(&read.graph) {
        let again = ir_xml::read_model_from_str(&xml2, Some(ir::TensorBytes::from_vec(bin2)));
        assert!(
            again.is_ok(),
            "a model this tool wrote could not be read back"
        );
    }
});

//! The whole pipeline: XML + weights in, report (in every format) or error out.
//! Exit statuses must stay within the contract.
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
    // Every format, by the names the command line takes.
    for format in <ir_check::Format as clap::ValueEnum>::value_variants() {
        let Some(format) = clap::ValueEnum::to_possible_value(format) else {
            continue;
        };
        let format = format.get_name();
        let args = <ir_check::Args as clap::Parser>::parse_from([
            "ir-check",
            "fuzz.xml",
            "--allow-unknown-ops",
            "--format",
            format,
        ]);
        let outcome = ir_check::analyze("fuzz.xml", xml, read.clone(), &args);
        assert!(outcome.status <= 2);
    }
});

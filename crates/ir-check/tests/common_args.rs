//! `Args::parse_common`, the binary's parser for the usual command lines,
//! gives what clap gives, and leaves everything else to clap.

use clap::Parser;
use ir_check::Args;

/// Clap's parse of `arguments` (after the program's name), as text.
fn by_clap(arguments: &[&str]) -> Option<String> {
    let argv = std::iter::once("ir-check").chain(arguments.iter().copied());
    Args::try_parse_from(argv)
        .ok()
        .map(|args| format!("{args:?}"))
}

fn by_common(arguments: &[&str]) -> Option<String> {
    Args::parse_common(arguments.iter().map(Into::into)).map(|args| format!("{args:?}"))
}

/// Every subset of the flags the common form knows, in both orders around
/// the model, with every format (and none), once and repeated: where the
/// common parser answers, clap answers the same.
#[test]
fn the_common_form_parses_as_clap_does() {
    let flags = [
        "--timings",
        "--allow-unknown-ops",
        "--strict-spec",
        "-q",
        "--quiet",
    ];
    let formats = [None, Some("text"), Some("json"), Some("sarif"), Some("dot")];
    let mut answered = 0;
    for mask in 0..(1u32 << flags.len()) {
        let chosen: Vec<&str> = (0..flags.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| flags[i])
            .collect();
        for format in formats {
            for model_first in [true, false] {
                let mut arguments = Vec::new();
                if model_first {
                    arguments.push("model.xml");
                }
                arguments.extend(&chosen);
                if let Some(format) = format {
                    arguments.extend(["--format", format]);
                }
                if !model_first {
                    arguments.push("model.xml");
                }
                let common = by_common(&arguments);
                if common.is_some() {
                    answered += 1;
                    assert_eq!(common, by_clap(&arguments), "{arguments:?}");
                }
                // Every flag repeated: clap's (an error, or its own reading).
                let mut twice = arguments.clone();
                twice.extend(&chosen);
                if !chosen.is_empty() {
                    assert_eq!(by_common(&twice), None, "{twice:?}");
                }
            }
        }
    }
    // `-q` and `--quiet` together are a repeat: 24 of the 32 subsets.
    assert_eq!(answered, 24 * 5 * 2);
}

/// What the common form does not know goes to clap.
#[test]
fn other_command_lines_are_left_to_clap() {
    for arguments in [
        &[][..],
        &["--version"],
        &["--help"],
        &["-h"],
        &["model.xml", "--format=json"],
        &["model.xml", "--format", "JSON"],
        &["model.xml", "--format"],
        &["model.xml", "--format", "json", "--format", "text"],
        &["model.xml", "other.xml"],
        &["model.xml", "--run"],
        &["model.xml", "--weights", "model.bin"],
        &["model.xml", "--shape", "x=1,2"],
        &["model.xml", "--"],
        &["--", "model.xml"],
        &["-"],
        &[""],
        &["--completions", "bash"],
        &["model.xml", "--bogus"],
        &["model.xml", "-qq"],
        &["--timings"],
    ] {
        assert_eq!(by_common(arguments), None, "{arguments:?}");
    }
}

/// A path that is not UTF-8 is kept byte for byte, as clap keeps it.
#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_is_kept() {
    use std::ffi::OsString;
    use std::os::unix::ffi::OsStringExt;
    let path = OsString::from_vec(b"mod\xffel.xml".to_vec());
    let common = Args::parse_common([path.clone(), "--timings".into()]);
    let clap = Args::try_parse_from([OsString::from("ir-check"), path, "--timings".into()]);
    assert_eq!(
        common.map(|a| format!("{a:?}")),
        clap.ok().map(|a| format!("{a:?}"))
    );
}

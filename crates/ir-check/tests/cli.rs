//! The command line itself: `--version`, shell completions, and the usage
//! errors around the model argument.

use std::process::Command;

/// `ir-check ARGS`: (exit status, stdout, stderr).
fn ir_check(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ir-check"))
        .args(args)
        .output()
        .expect("ir-check runs");
    (
        output.status.code().expect("exited"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn version_is_the_crate_version() {
    let (status, stdout, _) = ir_check(&["--version"]);
    assert_eq!(status, 0);
    assert_eq!(
        stdout,
        format!("ir-check {}\n", env!("CARGO_PKG_VERSION")),
        "{stdout}"
    );
}

/// The completion script for `shell`: printed with status 0, naming `--shape`.
fn completions_name_the_flags(shell: &str) {
    let (status, script, stderr) = ir_check(&["--completions", shell]);
    assert_eq!(status, 0, "{shell}: {stderr}");
    assert!(stderr.is_empty(), "{shell}: {stderr}");
    assert!(script.contains("ir-check"), "{shell}:\n{script}");
    // fish names each long flag as `-l shape`; bash and zsh write `--shape`.
    let flag = if shell == "fish" {
        "-l shape"
    } else {
        "--shape"
    };
    assert!(script.contains(flag), "{shell}: no `{flag}`:\n{script}");
}

#[test]
fn bash_completions() {
    completions_name_the_flags("bash");
}

#[test]
fn zsh_completions() {
    completions_name_the_flags("zsh");
}

#[test]
fn fish_completions() {
    completions_name_the_flags("fish");
}

/// The bash script parses (`bash -n`), where bash is installed.
#[test]
fn the_bash_script_is_valid_bash() {
    let (_, script, _) = ir_check(&["--completions", "bash"]);
    let file = tempfile::Builder::new()
        .prefix("ir-check-")
        .suffix(".bash")
        .tempfile()
        .expect("a temporary file");
    std::fs::write(file.path(), script).expect("written");
    let Ok(output) = Command::new("bash").arg("-n").arg(file.path()).output() else {
        eprintln!("bash is not installed: skipped");
        return;
    };
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_model_is_optional_only_with_completions() {
    let (status, stdout, stderr) = ir_check(&[]);
    assert_eq!(status, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("<MODEL>") && stderr.contains("ir-check --completions <SHELL>"),
        "{stderr}"
    );
    let (status, _, stderr) = ir_check(&["--completions", "bash", "model.xml"]);
    assert_eq!(status, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let (status, _, stderr) = ir_check(&["--completions", "tcsh"]);
    assert_eq!(status, 2);
    assert!(
        stderr.contains("bash") && stderr.contains("fish"),
        "{stderr}"
    );
}

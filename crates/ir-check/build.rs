//! The shipped binary's code layout (issue 18): in the static musl build
//! (`cargo release-ir-check`), the binary is linked by lld (the Rust
//! toolchain's own, `rust-lld`, through its `gcc-ld` directory) with
//! `symbol-order.txt`, which puts the functions a check runs first and
//! together in `.text`. Each first touch of a code page is a page fault that
//! maps 64 KiB around it; spread over 9 MB, a check's code took 30-35 of
//! them (docs/performance.md, "Starting the process, musl and code
//! layout"). `scripts/symbol_order.py` writes the file. Any other build
//! (glibc, the tests, another architecture) links as before, and so does
//! the musl one if the toolchain has no `gcc-ld` directory.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    // Set by scripts/pgo_release_ir_check.sh for its instrumented build.
    println!("cargo::rustc-check-cfg=cfg(ir_check_pgo)");
    let order = Path::new(env!("CARGO_MANIFEST_DIR")).join("symbol-order.txt");
    println!("cargo:rerun-if-changed={}", order.display());
    println!("cargo:rerun-if-changed=build.rs");
    let target_env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    let target_arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if target_env != "musl" || target_arch != "x86_64" || !order.exists() {
        return;
    }
    let Some(lld_directory) = toolchain_gcc_ld() else {
        println!("cargo:warning=no gcc-ld directory in the Rust toolchain: linked without the symbol order");
        return;
    };
    for argument in [
        format!("-B{}", lld_directory.display()),
        "-fuse-ld=lld".to_owned(),
        format!("-Wl,--symbol-ordering-file={}", order.display()),
        // Names of functions that changed since the file was written: no
        // harm, only their place is lost.
        "-Wl,--no-warn-symbol-ordering".to_owned(),
    ] {
        println!("cargo:rustc-link-arg-bin=ir-check={argument}");
    }
}

/// `<sysroot>/lib/rustlib/<host>/bin/gcc-ld`, where the toolchain keeps an
/// `ld.lld` that runs its `rust-lld` (what `-fuse-ld=lld` looks for).
fn toolchain_gcc_ld() -> Option<PathBuf> {
    let rustc = std::env::var_os("RUSTC")?;
    let host = std::env::var("HOST").ok()?;
    let output = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = String::from_utf8(output.stdout).ok()?;
    let directory = Path::new(sysroot.trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin/gcc-ld");
    directory.join("ld.lld").exists().then_some(directory)
}

#!/usr/bin/env bash
# The shipped ir-check (`cargo release-ir-check`) built with profile-guided
# optimisation (issue 18; docs/performance.md, "The cold start"):
#   1. an instrumented build (`-C profile-generate`, and `--cfg
#      ir_check_pgo`, by which main.rs writes the profile before `_exit`);
#   2. training runs: every shipped model (ir-samples/models/*.xml) checked
#      with the JSON and the text report, `--version`, and any further
#      models given as arguments (the generated 1,000-layer graphs of
#      scripts/gen_bench_nets.py, say), each three times; and every shipped
#      model with inputs in the executor's conformance cases
#      (crates/executor/tests/conformance/model_NAME/in_INPUT.npy) run
#      (`--run`, one thread and the default): trained on checks alone, the
#      kernels were laid out as cold code and `--run` on MobileNetV2 took
#      27% longer;
#   3. the release build again with `-C profile-use` of the merged profile.
# Needs `rustup component add llvm-tools` (llvm-profdata). The binary is
# where `cargo release-ir-check` puts it,
# $CARGO_TARGET_DIR/x86_64-unknown-linux-musl/release/ir-check.
#
#   scripts/pgo_release_ir_check.sh [MODEL.xml...]
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "no llvm-profdata: rustup component add llvm-tools" >&2
    exit 1
fi
profiles=$(mktemp -d)
trap 'rm -rf "$profiles"' EXIT
binary="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-musl/release/ir-check"
# The alias's rustflags (.cargo/config.toml), and more: a later `--config`
# replaces the list.
flags="'-C', 'target-feature=+crt-static', '-C', 'relocation-model=static', '--cfg', 'getrandom_backend=\"linux_getrandom\"'"

cargo release-ir-check --config "target.x86_64-unknown-linux-musl.rustflags = [$flags, '--cfg', 'ir_check_pgo', '-C', 'profile-generate=$profiles']"
export LLVM_PROFILE_FILE="$profiles/ir-check-%p.profraw"
for _ in 1 2 3; do
    "$binary" --version > /dev/null
    for model in ir-samples/models/*.xml "$@"; do
        "$binary" "$model" --format json --allow-unknown-ops > /dev/null || true
        "$binary" "$model" --allow-unknown-ops > /dev/null || true
    done
done
outputs="$profiles/outputs"
mkdir -p "$outputs"
for case in crates/executor/tests/conformance/model_*; do
    model="ir-samples/models/${case##*/model_}.xml"
    [ -f "$model" ] || continue
    inputs=()
    for array in "$case"/in_*.npy; do
        name="${array##*/in_}"
        inputs+=(--input "${name%.npy}=$array")
    done
    for threads in 1 2; do
        "$binary" "$model" --run "${inputs[@]}" --threads "$threads" --repeat 3 \
            --output-dir "$outputs" > /dev/null 2>&1 || true
    done
done
"$profdata" merge -o "$profiles/merged.profdata" "$profiles"/*.profraw
cargo release-ir-check --config "target.x86_64-unknown-linux-musl.rustflags = [$flags, '-C', 'profile-use=$profiles/merged.profdata']"
echo "profile-guided binary: $binary"

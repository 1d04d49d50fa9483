#!/usr/bin/env bash
# Seeds the fuzz corpora from ir-samples/ (good and broken models) and from
# shape-infer's golden graphs (a valid graph for every op: the best seeds for
# the executor and the pipeline).
# Model targets take: 2 bytes (LE) of .bin length, the .bin bytes, the XML;
# the executor target takes 1 byte n, n bytes of input values, then that.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/xml_reader corpus/xml_tokenizers corpus/pipeline corpus/dims_parser corpus/executor
# Input values for the executor: small integers, 1.0f, -2.5f, NaN, +Inf,
# 0, as bytes; the first bytes also pick the dynamic dims.
values='\x01\x02\x03\x00\x00\x00\x80\x3f\x00\x00\x20\xc0\x00\x00\xc0\x7f\x00\x00\x80\x7f\x00\x00\x00\x00'
seed() {
    local xml="$1" name="$2" targets="$3"
    local bin="${xml%.xml}.bin" size=0
    [ -f "$bin" ] && size=$(stat -c %s "$bin")
    [ "$size" -gt 65535 ] && size=65535
    for target in $targets; do
        out="corpus/$target/$name"
        : > "$out"
        [ "$target" = executor ] && printf '\x18'"$values" >> "$out"
        printf "$(printf '\\x%02x\\x%02x' $((size & 255)) $((size >> 8)))" >> "$out"
        [ -f "$bin" ] && head -c "$size" "$bin" >> "$out"
        cat "$xml" >> "$out"
    done
}
for xml in ../ir-samples/*.xml ../ir-samples/broken/*.xml; do
    seed "$xml" "$(basename "${xml%.xml}")" "xml_reader xml_tokenizers pipeline executor"
    { grep -o 'shape="[^"]*"' "$xml" || true; } | sed 's/shape="\(.*\)"/\1/' | while read -r dims; do
        printf '%s' "$dims" > "corpus/dims_parser/$(printf '%s' "$dims" | md5sum | cut -c1-12)"
    done
done
# The tokenizers' target also gets the bodies and the real models (their
# .bin cut to 64 KiB by `seed`).
for xml in ../ir-samples/bodies/*.xml ../ir-samples/models/*.xml; do
    seed "$xml" "$(basename "$(dirname "$xml")")_$(basename "${xml%.xml}")" "xml_tokenizers"
done
for xml in ../crates/shape-infer/tests/golden/*.xml; do
    seed "$xml" "golden_$(basename "${xml%.xml}")" "pipeline executor"
done
for text in "N,3,H,W" "?,3,2..10" "[]" "..." "1..,..8" "4*N*S/3" "max(S - 2, 0)" "ceil(S/2)" "floor((H - 3)/2) + 1"; do
    printf '%s' "$text" > "corpus/dims_parser/$(printf '%s' "$text" | md5sum | cut -c1-12)"
done
echo "seeded: $(ls corpus/xml_reader | wc -l) models for the reader," \
    "$(ls corpus/xml_tokenizers | wc -l) for the tokenizers," \
    "$(ls corpus/pipeline | wc -l) for the pipeline and the executor, $(ls corpus/dims_parser | wc -l) dims"

#!/usr/bin/env bash
# Seeds the fuzz corpora from ir-samples/ (good and broken models).
# Model targets take: 2 bytes (LE) of .bin length, the .bin bytes, the XML.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/xml_reader corpus/pipeline corpus/dims_parser
for xml in ../ir-samples/*.xml ../ir-samples/broken/*.xml; do
    bin="${xml%.xml}.bin"
    name="$(basename "${xml%.xml}")"
    size=0
    [ -f "$bin" ] && size=$(stat -c %s "$bin")
    [ "$size" -gt 65535 ] && size=65535
    for target in xml_reader pipeline; do
        out="corpus/$target/$name"
        printf "$(printf '\\x%02x\\x%02x' $((size & 255)) $((size >> 8)))" > "$out"
        [ -f "$bin" ] && head -c "$size" "$bin" >> "$out"
        cat "$xml" >> "$out"
    done
    grep -o 'shape="[^"]*"' "$xml" | sed 's/shape="\(.*\)"/\1/' | while read -r dims; do
        printf '%s' "$dims" > "corpus/dims_parser/$(printf '%s' "$dims" | md5sum | cut -c1-12)"
    done
done
for text in "N,3,H,W" "?,3,2..10" "[]" "..." "1..,..8" "4*N*S/3" "max(S - 2, 0)" "ceil(S/2)" "floor((H - 3)/2) + 1"; do
    printf '%s' "$text" > "corpus/dims_parser/$(printf '%s' "$text" | md5sum | cut -c1-12)"
done
echo "seeded: $(ls corpus/xml_reader | wc -l) models, $(ls corpus/dims_parser | wc -l) dims"

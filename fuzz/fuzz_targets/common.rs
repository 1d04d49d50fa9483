//! The input layout shared by the model targets: two little-endian bytes give
//! the length of the `.bin` part, which follows; the rest is the XML text.
//! `seed_corpus.sh` writes the samples of `ir-samples/` in this layout.

pub fn split(data: &[u8]) -> Option<(&[u8], &str)> {
    let (len, rest) = data.split_first_chunk::<2>()?;
    let bin_len = usize::from(u16::from_le_bytes(*len)).min(rest.len());
    let (bin, xml) = rest.split_at(bin_len);
    Some((bin, std::str::from_utf8(xml).ok()?))
}

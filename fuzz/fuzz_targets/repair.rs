//! Fuzz `repair` without a repository: any bytes must be repaired or refused without panicking;
//! a repaired patch parses cleanly, repairs to itself with no repair, and every `+`/`-` line in
//! it is one of the input's lines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::patch::{LineKind, ParseOptions, parse};
use patchgate::repair::{Context, Options, repair};

fuzz_target!(|data: &[u8]| {
    let (ctx, options) = (Context::default(), Options::default());
    let Ok(outcome) = repair(data, &ctx, &options) else { return };
    let Some(patch) = outcome.patch else { return };
    let parsed = parse(&patch, &ParseOptions::default());
    assert!(parsed.is_ok(), "repaired patch has defects: {:?}", parsed.defects);
    let input: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    for line in parsed.patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines) {
        let prefix = match line.kind {
            LineKind::Add => b'+',
            LineKind::Remove => b'-',
            LineKind::Context => continue,
        };
        let written = [&[prefix][..], line.text].concat();
        assert!(input.contains(&written.as_slice()), "a changed line the input does not have");
    }
    let again = repair(&patch, &ctx, &options).expect("no repository, no error");
    assert_eq!(again.patch.as_deref(), Some(&patch[..]), "a repaired patch repairs to itself");
    assert!(again.repairs.is_empty(), "{:?}", again.repairs);
});

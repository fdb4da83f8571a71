//! Fuzz the patch parser: any bytes, both modes, must parse without panicking; whatever parses
//! cleanly must render to bytes that parse cleanly into the same files and hunks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::patch::{ParseOptions, parse, render};

fuzz_target!(|data: &[u8]| {
    for is_strict in [true, false] {
        let options = ParseOptions { is_strict, ..ParseOptions::default() };
        let parsed = parse(data, &options);
        if !parsed.is_ok() {
            continue;
        }
        let rendered = render(&parsed.patch);
        let again = parse(&rendered, &options);
        assert!(again.is_ok(), "rendered patch has defects: {:?}", again.defects);
        assert_eq!(parsed.patch.files.len(), again.patch.files.len());
        for (a, b) in parsed.patch.files.iter().zip(&again.patch.files) {
            assert_eq!(
                (&a.old_path, &a.new_path, a.operation),
                (&b.old_path, &b.new_path, b.operation)
            );
            assert_eq!(a.hunks.len(), b.hunks.len());
            assert_eq!((a.added(), a.removed()), (b.added(), b.removed()));
        }
    }
});

//! The streaming parser. (Scaffold: replaced by the real parser in the core issue's parser work.)

use super::{Defect, DefectCode, ParseOptions, Parsed, Span};

pub(super) fn run<'a>(_input: &'a [u8], _options: &ParseOptions) -> Parsed<'a> {
    Parsed {
        defects: vec![Defect {
            code: DefectCode::NoFileHeaders,
            message: "parser scaffold: the strict parser is not built yet".to_owned(),
            span: Span { offset: 0, line: 1 },
        }],
        ..Parsed::default()
    }
}

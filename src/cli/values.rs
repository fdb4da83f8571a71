//! Flag values read straight into the library's code tables, so no command keeps a parallel
//! enum of the same names and a match that converts it.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// A value parser over a library code table (`ALL` and `as_str` of a `codes!` enum): its wire
/// names are the possible values, each shown in `--help` with its text from `helps` where it has
/// one, and the chosen name is read back as the code.
pub(crate) fn code_parser<T>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    helps: &'static [(T, &'static str)],
) -> impl TypedValueParser<Value = T>
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    optional_code_parser(all, name, helps, None).map(|code| code.expect("no name means none"))
}

/// [`code_parser`], plus one more name (`auto`, with its help) read as `None`: the library
/// chooses.
pub(crate) fn optional_code_parser<T>(
    all: &'static [T],
    name: fn(T) -> &'static str,
    helps: &'static [(T, &'static str)],
    none: Option<(&'static str, &'static str)>,
) -> impl TypedValueParser<Value = Option<T>>
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let values = all.iter().map(move |&code| {
        let value = PossibleValue::new(name(code));
        match helps.iter().find(|(c, _)| *c == code) {
            Some((_, help)) => value.help(*help),
            None => value,
        }
    });
    let extra = none.map(|(word, help)| PossibleValue::new(word).help(help));
    PossibleValuesParser::new(values.chain(extra))
        .map(move |chosen| all.iter().copied().find(|&code| name(code) == chosen))
}

//! Other spellings file systems take for the same name: the rules git applies to `.git`
//! (`is_hfs_dotgit`, `is_ntfs_dotgit`), for any name.
//!
//! - case: APFS and HFS+ (macOS), NTFS (Windows) ignore it: `.GITHUB` is `.github`;
//! - code points HFS+ ignores when comparing names (zero-width joiners and marks): `.git\u{200c}hub`;
//! - trailing dots and spaces, which NTFS drops: `.github.`, `.patchgate.toml `;
//! - NTFS alternate streams: `.github::$INDEX_ALLOCATION` is the directory itself;
//! - NTFS 8.3 short names: `GITHUB~1` for `.github`, `PATCHG~1.TOM` for `.patchgate.toml`.
//!
//! A path that is an alias of an excluded or protected one is excluded or protected too: on
//! the machine that checks it out, it is the same file.

use std::borrow::Cow;

/// Code points HFS+ ignores when comparing names (git's `is_hfs_dotgit`).
#[must_use]
pub(super) fn is_hfs_ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x200C..=0x200F | 0x202A..=0x202E | 0x206A..=0x206F | 0xFEFF
    )
}

/// One component as a case-insensitive file system compares it: lower case, without the code
/// points HFS+ ignores, the NTFS stream (`:...`) cut off, trailing dots and spaces dropped.
/// Borrowed when that changes nothing.
#[must_use]
pub fn fold_component(component: &str) -> Cow<'_, str> {
    let cut = component.split(':').next().unwrap_or_default();
    let trimmed = cut.trim_end_matches(['.', ' ']);
    let is_plain = |c: char| {
        if c.is_ascii() {
            !c.is_ascii_uppercase()
        } else {
            !is_hfs_ignorable(c) && c.to_lowercase().eq([c])
        }
    };
    if trimmed.len() == component.len() && trimmed.chars().all(is_plain) {
        return Cow::Borrowed(component);
    }
    let folded: String =
        cut.chars().filter(|c| !is_hfs_ignorable(*c)).flat_map(char::to_lowercase).collect();
    // The ignorable code points may have sat between the trailing dots and spaces.
    match folded.trim_end_matches(['.', ' ']) {
        kept if kept.len() == folded.len() => Cow::Owned(folded),
        kept => Cow::Owned(kept.to_owned()),
    }
}

/// Whether a component could need [`fold_component`] or [`is_short_name_of`] to be recognised:
/// anything but lower-case ASCII letters, digits and `-_.` not at the end.
#[must_use]
pub fn may_be_alias(component: &str) -> bool {
    let plain =
        |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.');
    !component.bytes().all(plain) || component.ends_with('.')
}

/// Whether `component` names `name` on some file system git supports: equal once folded
/// ([`fold_component`]), or `name`'s NTFS short name ([`is_short_name_of`]).
#[must_use]
pub fn is_alias_of(component: &str, name: &str) -> bool {
    component == name
        || fold_component(component) == fold_component(name)
        || is_short_name_of(component, name)
}

/// Whether `component` can be the NTFS 8.3 short name Windows generates for `long`: the long
/// name without leading dots, its base (before the last dot, dots and spaces removed) cut to
/// fill eight characters with `~N`, and its extension cut to three (`.patchgate.toml` ->
/// `PATCHG~1.TOM`, `.github` -> `GITHUB~1`, `.github-x` -> `GITHU~12` once there are twelve).
/// The hashed names Windows falls back to after many collisions are not recognised.
#[must_use]
pub fn is_short_name_of(component: &str, long: &str) -> bool {
    let short = fold_component(component);
    let Some((prefix, rest)) = short.split_once('~') else { return false };
    let (digits, ext) = rest.split_once('.').unwrap_or((rest, ""));
    let is_number = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if !is_number || digits.starts_with('0') || prefix.is_empty() || ext.contains('.') {
        return false;
    }
    let long = fold_component(long);
    let long = long.trim_start_matches('.');
    let (base, long_ext) = long.rsplit_once('.').unwrap_or((long, ""));
    let base: String = base.chars().filter(|c| !matches!(c, '.' | ' ')).collect();
    let room = 8usize.saturating_sub(1 + digits.len());
    let kept: String = base.chars().take(room).collect();
    let long_ext: String = long_ext.chars().take(3).collect();
    !kept.is_empty() && prefix == kept && ext == long_ext
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_drops_case_ignorables_streams_and_trailing_dots() {
        for (raw, folded) in [
            (".github", ".github"),
            (".GITHUB", ".github"),
            (".github.", ".github"),
            (".github. . ", ".github"),
            (".github::$INDEX_ALLOCATION", ".github"),
            (".git\u{200c}hub", ".github"),
            (".github\u{200d}.", ".github"),
            (".PATCHGATE.TOML", ".patchgate.toml"),
            ("\u{feff}.husky", ".husky"),
        ] {
            assert_eq!(fold_component(raw), folded, "{raw:?}");
        }
        assert!(matches!(fold_component("src"), Cow::Borrowed(_)));
    }

    #[test]
    fn short_names_are_recognised_as_windows_generates_them() {
        assert!(is_short_name_of("GITHUB~1", ".github"));
        assert!(is_short_name_of("github~2", ".github"));
        assert!(is_short_name_of("GITHU~12", ".github"));
        assert!(is_short_name_of("PATCHG~1.TOM", ".patchgate.toml"));
        assert!(is_short_name_of("PRE-CO~1.YAM", ".pre-commit-config.yaml"));
        assert!(is_short_name_of("HUSKY~1", ".husky"));
        assert!(is_short_name_of("GIT~1", ".git"));
        assert!(is_short_name_of("GITHUB~1.", ".github"));
        assert!(!is_short_name_of("PATCHG~1", ".patchgate.toml"), "the extension is kept");
        assert!(!is_short_name_of("PATCH~1.TOM", ".patchgate.toml"), "six characters for ~1");
        assert!(!is_short_name_of("GITHUB~0", ".github"));
        assert!(!is_short_name_of("GITHUB~", ".github"));
        assert!(!is_short_name_of("GITHUB~1X", ".github"));
        assert!(!is_short_name_of("~1", ".github"));
        assert!(!is_short_name_of("SRC~1", "source"));
    }

    #[test]
    fn aliases_and_non_aliases() {
        assert!(is_alias_of(".GitHub", ".github"));
        assert!(is_alias_of("GITHUB~1", ".github"));
        assert!(is_alias_of(".patchgate.toml.", ".patchgate.toml"));
        assert!(!is_alias_of(".githubx", ".github"));
        assert!(!is_alias_of("github", ".github"));
        assert!(!is_alias_of(".git hub", ".github"));
        assert!(!may_be_alias("src"));
        assert!(!may_be_alias(".github"));
        assert!(may_be_alias("README.md"));
        assert!(may_be_alias("x."));
        assert!(may_be_alias("a~1"));
        assert!(may_be_alias("a:b"));
    }
}

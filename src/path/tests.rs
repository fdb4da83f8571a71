use super::*;

fn code(raw: &str) -> PathErrorCode {
    check(raw).expect_err(raw).code
}

#[test]
fn normalises_dot_and_repeated_slashes() {
    assert_eq!(check("./src//a.rs").unwrap().as_str(), "src/a.rs");
    assert_eq!(check("src/./a.rs/").unwrap().as_str(), "src/a.rs");
    assert_eq!(check("café/ü.txt").unwrap().as_str(), "café/ü.txt");
}

#[test]
fn refuses_absolute_home_and_traversal() {
    assert_eq!(code("/etc/passwd"), PathErrorCode::AbsolutePath);
    assert_eq!(code("C:/Windows"), PathErrorCode::AbsolutePath);
    assert_eq!(code("~/.ssh/id_rsa"), PathErrorCode::HomeDir);
    assert_eq!(code("../x"), PathErrorCode::PathTraversal);
    assert_eq!(code("a/../../x"), PathErrorCode::PathTraversal);
    assert_eq!(code("a/.."), PathErrorCode::PathTraversal);
}

#[test]
fn refuses_git_dir_in_any_case_and_alias() {
    for raw in [
        ".git/config",
        ".GIT/config",
        "sub/.Git/hooks/pre-commit",
        "GIT~1/config",
        ".git./config",
        ".git /config",
        ".git::$INDEX_ALLOCATION/config",
        ".g\u{200c}it/config",
        "\u{feff}.git/HEAD",
    ] {
        assert_eq!(code(raw), PathErrorCode::GitDir, "{raw}");
    }
    // Look-alikes that are not the git directory stay allowed.
    assert!(check(".github/workflows/ci.yml").is_ok());
    assert!(check(".gitignore").is_ok());
    assert!(check("src/git/mod.rs").is_ok());
}

#[test]
fn refuses_bytes_and_encodings() {
    assert_eq!(check_bytes(b"a\0b").unwrap_err().code, PathErrorCode::NulByte);
    assert_eq!(code("a\nb"), PathErrorCode::ControlByte);
    assert_eq!(code("a\u{7f}"), PathErrorCode::ControlByte);
    assert_eq!(check_bytes(b"caf\xe9").unwrap_err().code, PathErrorCode::InvalidUtf8);
    for raw in ["%2e%2e/x", "a%2Fb", "a%5cb", "%252e%252e/x", "%c0%ae%c0%ae/x", "a%00"] {
        assert_eq!(code(raw), PathErrorCode::PercentEncoded, "{raw}");
    }
    assert!(check("docs/100%25-done.md").is_err());
    assert!(check("docs/50%off.md").is_ok(), "a bare percent sign is a legal name");
    assert_eq!(code("a\\b"), PathErrorCode::Backslash);
    assert_eq!(code("..\\x"), PathErrorCode::Backslash);
    assert_eq!(code("a\u{ff0e}\u{ff0e}/b"), PathErrorCode::LookalikeSeparator);
}

#[test]
fn refuses_empty() {
    assert_eq!(code(""), PathErrorCode::EmptyPath);
    assert_eq!(code("./"), PathErrorCode::EmptyPath);
}

#[test]
fn error_quotes_input_and_says_what_to_do() {
    let err = check("a\tb").unwrap_err();
    assert_eq!(err.input, "a\\tb");
    assert!(err.message.starts_with("path 'a\\tb' contains a control character"));
}

#[test]
fn repo_path_accessors() {
    let p = check("a/b/c.rs").unwrap();
    assert_eq!(p.file_name(), "c.rs");
    assert_eq!(p.parent(), Some("a/b"));
    assert_eq!(p.ancestors().collect::<Vec<_>>(), ["a/b", "a"]);
    assert_eq!(check("top").unwrap().parent(), None);
}

#[test]
fn refuses_shell_substitutions_and_names_no_file_system_holds() {
    assert_eq!(code("src/$(rm -rf ~).rs"), PathErrorCode::ShellSubstitution);
    assert_eq!(code("src/`id`.rs"), PathErrorCode::ShellSubstitution);
    assert!(super::check("src/price$5.txt").is_ok(), "a lone $ is a legal name");
    let long_component = format!("src/{}.rs", "a".repeat(256));
    assert_eq!(code(&long_component), PathErrorCode::TooLong);
    let deep = "d/".repeat(2100) + "f";
    assert_eq!(code(&deep), PathErrorCode::TooLong);
    assert!(super::check(&format!("src/{}.rs", "a".repeat(250))).is_ok());
}

#[test]
fn display_shows_plain_bytes_as_the_full_escaping_does() {
    for a in 0..=255u8 {
        for b in [b'a', b'\\', 0x80, b'\n', 0x7f, 0xc3] {
            let bytes = [a, b, a];
            assert_eq!(display_bytes(&bytes), display_any(&bytes), "{bytes:?}");
        }
    }
}

use crate::contract::*;

fn pattern(ty: ArgType, value: &str) -> Option<&'static str> {
    check_arg(ty, value).rejection().map(|r| r.pattern.as_str())
}

fn with(ty: ArgType, value: &str, options: &ArgOptions) -> Option<&'static str> {
    ArgPolicy::default().check(ty, value, options).rejection().map(|r| r.pattern.as_str())
}

#[test]
fn seed_003_wire_examples() {
    assert_eq!(pattern(ArgType::ResourceId, "../etc/passwd"), Some("path_traversal"));
    assert_eq!(
        pattern(ArgType::ResourceId, "files%2fetc%2fpasswd"),
        Some("percent_encoded_separator")
    );
    assert_eq!(pattern(ArgType::ResourceId, "usr-a1b2c3"), None);
    assert_eq!(pattern(ArgType::Path, "/home/user/file.txt"), None);
}

#[test]
fn seed_003_traversal_sequences() {
    for (value, want) in [
        ("a/../b", "path_traversal"),
        ("..", "path_traversal"),
        ("..%2fetc", "path_traversal"),
        ("..%5cetc", "path_traversal"),
        ("%2e%2e/etc", "path_traversal"),
        ("%2E%2E%2Fetc", "path_traversal"),
        ("x%2e%2e", "percent_encoded_segment"),
        ("....//etc", "path_traversal"),
        (".. /etc", "path_traversal"),
        ("..\\windows", "backslash_traversal"),
        ("a\\..\\b", "backslash_traversal"),
        ("%252e%252e%252f", "double_encoding"),
        ("%c0%ae%c0%ae/etc", "overlong_utf8"),
        ("%e0%80%ae", "overlong_utf8"),
        ("\u{ff0e}\u{ff0e}/etc", "fullwidth_separator"),
        ("a\u{2215}b", "fullwidth_separator"),
    ] {
        for ty in [ArgType::Path, ArgType::ResourceId, ArgType::Identifier] {
            assert_eq!(pattern(ty, value), Some(want), "{ty} {value:?}");
        }
    }
}

#[test]
fn percent_encodings_are_named_by_what_they_hide() {
    for (value, want) in [
        ("user%40example", "percent_encoded_segment"),
        ("a%2eb", "percent_encoded_segment"),
        ("my%20file", "percent_encoded_segment"),
        ("a%3brm", "encoded_shell_metacharacter"),
        ("a%7cb", "encoded_shell_metacharacter"),
        ("a%60id%60", "encoded_shell_metacharacter"),
        ("a%24HOME", "encoded_shell_metacharacter"),
        ("a%0aid", "encoded_shell_metacharacter"),
        ("a%5cb", "percent_encoded_separator"),
        ("100%25", "percent_encoded_segment"),
    ] {
        assert_eq!(pattern(ArgType::ResourceId, value), Some(want), "{value}");
        assert_eq!(pattern(ArgType::Path, value), Some(want), "{value}");
    }
    assert_eq!(pattern(ArgType::Path, "docs/50%off.md"), None, "a bare '%' is no encoding");
}

#[test]
fn bytes_come_first() {
    assert_eq!(pattern(ArgType::Path, ""), Some("empty_value"));
    assert_eq!(pattern(ArgType::Path, "a\0b"), Some("nul_byte"));
    assert_eq!(pattern(ArgType::Path, "a\nb"), Some("control_character"));
    assert_eq!(pattern(ArgType::Path, "a\u{7f}"), Some("control_character"));
    assert_eq!(pattern(ArgType::Path, "a\u{85}"), Some("control_character"));
    assert_eq!(pattern(ArgType::Path, "../a\0"), Some("nul_byte"));
}

#[test]
fn query_and_fragment_by_type() {
    assert_eq!(pattern(ArgType::ResourceId, "usr-1?foo=bar"), Some("query_parameter"));
    assert_eq!(pattern(ArgType::ResourceId, "usr-1&x"), Some("query_parameter"));
    assert_eq!(pattern(ArgType::Identifier, "?foo=bar"), Some("query_parameter"));
    assert_eq!(pattern(ArgType::Path, "src/a.rs?foo=bar"), Some("query_parameter"));
    assert_eq!(pattern(ArgType::Path, "?foo=bar"), Some("query_parameter"));
    assert_eq!(pattern(ArgType::ResourceId, "usr-1#top"), Some("fragment"));
    assert_eq!(pattern(ArgType::Identifier, "name#1"), Some("fragment"));
    // Legal file-name characters in a path.
    assert_eq!(pattern(ArgType::Path, "src/#scratch#"), None);
    assert_eq!(pattern(ArgType::Path, "docs/Q&A.md"), None);
    assert_eq!(pattern(ArgType::Path, "src/what?.txt"), None);
}

#[test]
fn resource_ids_and_identifiers_are_single_tokens() {
    assert_eq!(pattern(ArgType::ResourceId, "projects/p1/topics/t1"), None);
    assert_eq!(pattern(ArgType::ResourceId, "/etc/passwd"), Some("absolute_path"));
    assert_eq!(pattern(ArgType::ResourceId, "a//b"), Some("path_separator"));
    assert_eq!(pattern(ArgType::ResourceId, "a/./b"), Some("path_separator"));
    assert_eq!(pattern(ArgType::ResourceId, "a\\b"), Some("path_separator"));
    assert_eq!(pattern(ArgType::ResourceId, "usr a1"), Some("whitespace"));
    assert_eq!(pattern(ArgType::Identifier, "a/b"), Some("path_separator"));
    assert_eq!(pattern(ArgType::Identifier, "alice@example.com"), None);
    assert_eq!(
        pattern(ArgType::Identifier, "build-42.v1..v2"),
        None,
        "'..' inside a token is no traversal"
    );
}

#[test]
fn rejection_quotes_input_and_says_what_to_do() {
    let outcome = check_arg(ArgType::ResourceId, "../etc/passwd");
    let r = outcome.rejection().unwrap();
    assert_eq!(r.input_value, "../etc/passwd");
    assert_eq!(r.matched, "..");
    assert!(r.message.starts_with("argument 'resource_id' value '../etc/passwd'"), "{}", r.message);
    let r = check_arg(ArgType::Path, "a\tb");
    assert_eq!(r.rejection().unwrap().input_value, "a\tb", "input_value is the raw value");
}

#[test]
fn ticket_ids_follow_the_seed_patterns() {
    let ok = |v: &str| match check_arg(ArgType::TicketId, v) {
        ArgOutcome::Accepted(a) => a.kind,
        ArgOutcome::Rejected(r) => panic!("{v}: {}", r.message),
    };
    assert_eq!(ok("INIT-0001").as_deref(), Some("initiative"));
    assert_eq!(ok("EPIC-0001.2").as_deref(), Some("epic"));
    assert_eq!(ok("STORY-0001.2.3").as_deref(), Some("story"));
    assert_eq!(ok("TASK-0001.2.3.4").as_deref(), Some("task"));
    assert_eq!(ok("BUG-0042").as_deref(), Some("bug"));
    for bad in [
        "",
        "STORY-1.2.3",
        "story-0001.2.3",
        "INIT-0001\n",
        "INIT-\u{661}\u{662}\u{663}\u{664}",
        "XSTORY-0001.2.3",
    ] {
        assert!(!check_arg(ArgType::TicketId, bad).is_accepted(), "{bad:?}");
    }
    assert_eq!(pattern(ArgType::TicketId, "STORY-1"), Some("invalid_ticket_id"));
    assert_eq!(pattern(ArgType::TicketId, "../STORY-0001.2.3"), Some("path_traversal"));
}

#[test]
fn ticket_kind_must_match_expect_kind() {
    let story = ArgOptions { expect_kind: Some("story".into()), ..ArgOptions::default() };
    assert_eq!(with(ArgType::TicketId, "STORY-0001.2.3", &story), None);
    assert_eq!(with(ArgType::TicketId, "TASK-0001.2.3.4", &story), Some("ticket_kind_mismatch"));
    let r = ArgPolicy::default().check(ArgType::TicketId, "TASK-0001.2.3.4", &story);
    assert_eq!(r.rejection().unwrap().matched, "task");
}

#[test]
fn branch_names_follow_the_seed() {
    for ok in ["STORY-0001.2.3", "plan/STORY-0001.2.3", "feature/my-feature", "BUG-42"] {
        assert_eq!(pattern(ArgType::Branch, ok), None, "{ok}");
    }
    assert_eq!(pattern(ArgType::Branch, ""), Some("empty_value"));
    assert_eq!(pattern(ArgType::Branch, "feature/../main"), Some("path_traversal"));
    assert_eq!(pattern(ArgType::Branch, "a..b"), Some("path_traversal"));
    assert_eq!(pattern(ArgType::Branch, "/feature/x"), Some("absolute_path"));
    assert_eq!(pattern(ArgType::Branch, "feature/x\n"), Some("control_character"));
    assert_eq!(pattern(ArgType::Branch, "main"), Some("branch_shape"));
    assert_eq!(pattern(ArgType::Branch, "STORY-\u{661}"), Some("branch_shape"));
}

#[test]
fn branch_names_follow_git() {
    let git_only = ArgPolicy::from_config(&ContractConfig {
        branch_patterns: Some(Vec::new()),
        ..ContractConfig::default()
    })
    .unwrap();
    let p = |v: &str| {
        git_only
            .check(ArgType::Branch, v, &ArgOptions::default())
            .rejection()
            .map(|r| r.pattern.as_str())
    };
    assert_eq!(p("main"), None);
    assert_eq!(p("feature/x.y"), None);
    for (bad, want) in [
        ("a b", "git_ref_forbidden_character"),
        ("a~1", "git_ref_forbidden_character"),
        ("a^", "git_ref_forbidden_character"),
        ("a:b", "git_ref_forbidden_character"),
        ("a*", "git_ref_forbidden_character"),
        ("a[b", "git_ref_forbidden_character"),
        ("a\\b", "git_ref_forbidden_character"),
        ("a@{1}", "git_ref_at_brace"),
        ("@", "git_ref_reserved_name"),
        ("HEAD", "git_ref_reserved_name"),
        ("-f", "git_ref_leading_dash"),
        ("a//b", "git_ref_slash"),
        ("a/", "git_ref_slash"),
        ("a.", "git_ref_trailing_dot"),
        (".a", "git_ref_dot_component"),
        ("a/.b", "git_ref_dot_component"),
        ("a.lock", "git_ref_lock_suffix"),
        ("a.lock/b", "git_ref_lock_suffix"),
        ("a%2fb", "percent_encoded_separator"),
    ] {
        assert_eq!(p(bad), Some(want), "{bad}");
    }
}

#[test]
fn operations_follow_the_registry() {
    let agent = |a: &str| ArgOptions { agent: Some(a.into()), ..ArgOptions::default() };
    assert_eq!(with(ArgType::Operation, "story-deep", &agent("ticket-analyzer")), None);
    assert_eq!(
        with(ArgType::Operation, "full-survey", &agent("ticket-analyzer")),
        Some("unknown_operation")
    );
    assert_eq!(with(ArgType::Operation, "story-deep", &agent("nobody")), Some("unknown_agent"));
    assert_eq!(pattern(ArgType::Operation, "epic-review"), None, "no agent: any agent's operation");
    assert_eq!(pattern(ArgType::Operation, "rm-rf"), Some("unknown_operation"));
    let r = ArgPolicy::default().check(ArgType::Operation, "bogus", &agent("design-guardian"));
    assert!(r.rejection().unwrap().message.ends_with("(story-review, task-review, epic-review)"));
}

#[test]
fn allowed_dirs_match_whole_components() {
    let dirs = |d: &[&str]| ArgOptions {
        allow_dirs: d.iter().map(|s| (*s).to_string()).collect(),
        ..ArgOptions::default()
    };
    let src = dirs(&["src/"]);
    assert_eq!(with(ArgType::Path, "src/a.rs", &src), None);
    assert_eq!(with(ArgType::Path, "./src/a.rs", &src), None);
    assert_eq!(with(ArgType::Path, "src", &src), None, "the directory itself");
    assert_eq!(with(ArgType::Path, "srcfoo/a.rs", &src), Some("outside_allowed_dirs"));
    assert_eq!(with(ArgType::Path, "src/../etc/passwd", &src), Some("path_traversal"));
    assert_eq!(with(ArgType::Path, "src/.git/config", &src), Some("git_dir"));
    assert_eq!(with(ArgType::Path, "~/src/a", &src), Some("home_dir"));
    assert_eq!(with(ArgType::Path, "/src/a.rs", &src), Some("absolute_path"));
    assert_eq!(
        with(ArgType::Path, "a..b.txt", &dirs(&["."])),
        Some("outside_allowed_dirs"),
        "'.' is no directory"
    );
    assert_eq!(
        with(ArgType::Path, "src/a..b.rs", &src),
        None,
        "'..' inside a name is no traversal"
    );
    let abs = dirs(&["/home/user/project"]);
    assert_eq!(with(ArgType::Path, "/home/user/project/src/a.rs", &abs), None);
    assert_eq!(with(ArgType::Path, "/home/user/projectx/a.rs", &abs), Some("outside_allowed_dirs"));
    assert_eq!(with(ArgType::Path, "src/a.rs", &abs), Some("outside_allowed_dirs"));
}

#[test]
fn allowed_dirs_are_checked_themselves() {
    assert!(check_allowed_dir("src").is_ok());
    assert!(check_allowed_dir("/srv/app").is_ok());
    assert_eq!(check_allowed_dir("../x").unwrap_err().pattern, RejectedPattern::PathTraversal);
    assert_eq!(check_allowed_dir(".git").unwrap_err().pattern, RejectedPattern::GitDir);
}

#[test]
fn config_replaces_the_seed_tables() {
    let mut config = ContractConfig {
        ticket_patterns: Some([("jira".to_string(), "[A-Z]+-[0-9]+".to_string())].into()),
        operations: Some([("bot".to_string(), vec!["run".to_string()])].into()),
        allowed_dirs: vec!["docs".into()],
        ..ContractConfig::default()
    };
    let policy = ArgPolicy::from_config(&config).unwrap();
    let none = ArgOptions::default();
    assert!(policy.check(ArgType::TicketId, "PG-12", &none).is_accepted());
    assert!(
        !policy.check(ArgType::TicketId, "PG-12x", &none).is_accepted(),
        "patterns match the whole id"
    );
    assert!(!policy.check(ArgType::TicketId, "STORY-0001.2.3", &none).is_accepted());
    assert!(
        policy
            .check(
                ArgType::Operation,
                "run",
                &ArgOptions { agent: Some("bot".into()), ..none.clone() }
            )
            .is_accepted()
    );
    assert!(policy.check(ArgType::Path, "docs/a.md", &none).is_accepted());
    assert!(!policy.check(ArgType::Path, "src/a.rs", &none).is_accepted());
    config.branch_patterns = Some(vec!["(".into()]);
    assert!(matches!(ArgPolicy::from_config(&config), Err(ContractError::InvalidPattern { .. })));
}

#[test]
fn every_pattern_name_is_snake_case_and_distinct() {
    let names: Vec<&str> = [
        RejectedPattern::PathTraversal,
        RejectedPattern::PercentEncodedSeparator,
        RejectedPattern::PercentEncodedSegment,
        RejectedPattern::QueryParameter,
        RejectedPattern::Fragment,
        RejectedPattern::EncodedShellMetacharacter,
    ]
    .map(RejectedPattern::as_str)
    .into();
    assert_eq!(
        names,
        [
            "path_traversal",
            "percent_encoded_separator",
            "percent_encoded_segment",
            "query_parameter",
            "fragment",
            "encoded_shell_metacharacter"
        ]
    );
    let json = serde_json::to_value(RejectedPattern::GitRefLockSuffix).unwrap();
    assert_eq!(json, RejectedPattern::GitRefLockSuffix.as_str());
}

#[test]
fn the_seeds_own_patterns_pass_the_syntax_check_they_skip() {
    let tickets = DEFAULT_TICKET_PATTERNS.map(|(k, v)| (k.to_owned(), v.to_owned())).into();
    let shapes = DEFAULT_BRANCH_PATTERNS.map(|p| (p.to_owned(), p.to_owned())).into();
    assert!(crate::contract::patterns::Patterns::new("ticket_patterns", tickets).is_ok());
    assert!(crate::contract::patterns::Patterns::new("branch_patterns", shapes).is_ok());
}

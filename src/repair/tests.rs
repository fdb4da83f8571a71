use super::*;
use crate::testing::commit_files;

/// A repository with `files` committed.
fn repo(files: &[(&str, &str)]) -> (tempfile::TempDir, git2::Repository) {
    let dir = tempfile::tempdir().unwrap();
    let repo = commit_files(dir.path(), files);
    (dir, repo)
}

/// Lines `1` to `n` of a file, `line K` each.
fn numbered(n: usize) -> String {
    (1..=n).map(|k| format!("line {k}\n")).collect::<Vec<_>>().concat()
}

fn run(patch: &str, repo: Option<&git2::Repository>) -> Outcome {
    let ctx = Context { repo, base: "HEAD" };
    repair(patch.as_bytes(), &ctx, &Options::default()).unwrap()
}

fn kinds(outcome: &Outcome) -> Vec<RepairKind> {
    outcome.repairs.iter().map(|r| r.kind).collect()
}

fn repaired(outcome: &Outcome) -> &str {
    let patch =
        outcome.patch.as_deref().unwrap_or_else(|| panic!("refused: {:?}", outcome.refusals));
    std::str::from_utf8(patch).unwrap()
}

fn refusal(outcome: &Outcome) -> &str {
    assert!(outcome.patch.is_none(), "repaired: {:?}", outcome.repairs);
    outcome.refusals[0].code.as_str()
}

const HEAD: &str = "diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n";

/// A hunk of `f.txt` (20 numbered lines) changing line 10.
fn change_at(header: &str) -> String {
    format!(
        "{HEAD}{header}\n line 8\n line 9\n-line 10\n+line ten\n+line 10.5\n line 11\n line 12\n"
    )
}

#[test]
fn a_clean_patch_comes_back_unchanged_and_proven() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let patch = change_at("@@ -8,5 +8,6 @@");
    let outcome = run(&patch, Some(&repo));
    assert_eq!(repaired(&outcome), patch);
    assert!(outcome.repairs.is_empty());
    let proof = outcome.proof.as_ref().unwrap();
    assert_eq!((proof.parses, proof.applies, proof.lines_compared), (true, Some(true), 3));
    assert_eq!(outcome.summary(), "");
}

/// `--strip 0` reads bare names; the proof's re-render (written with git's prefixes) must still
/// read back as the same files.
#[test]
fn a_patch_of_bare_names_is_repaired_and_proven_under_strip_zero() {
    let (_dir, repo) = repo(&[("a.txt", "old\n")]);
    let patch = "diff --git a.txt a.txt\n--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-old\n+new\n+more\n";
    let ctx = Context { repo: Some(&repo), base: "HEAD" };
    let options = Options { parse: ParseOptions { strip: 0, ..ParseOptions::default() } };
    let outcome = repair(patch.as_bytes(), &ctx, &options).unwrap();
    assert!(outcome.is_proven(), "{:?}", outcome.refusals);
    assert_eq!(kinds(&outcome), [RepairKind::Recount]);
    assert!(repaired(&outcome).contains("@@ -1 +1,2 @@\n"));
}

#[test]
fn counts_below_the_body_are_recounted_even_without_a_repository() {
    let outcome = run(&change_at("@@ -8,4 +8,4 @@"), None);
    assert_eq!(kinds(&outcome), [RepairKind::Recount]);
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
    assert_eq!(outcome.proof.as_ref().unwrap().applies, None, "not checked without a repository");
    assert_eq!(outcome.summary(), "recounted 1 hunk of f.txt");
    assert_eq!(outcome.repairs[0].line, 4, "the agent's @@ line");
}

#[test]
fn a_hunk_short_of_added_lines_is_refused_whatever_the_base_says() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let outcome = run(&change_at("@@ -8,5 +8,7 @@"), Some(&repo));
    assert_eq!(refusal(&outcome), "hunk_too_short");
    assert_eq!(outcome.refusals[0].line, Some(4));
}

#[test]
fn an_old_side_shortfall_is_recounted_only_when_the_base_can_confirm_it() {
    let patch = change_at("@@ -8,7 +8,6 @@");
    assert_eq!(refusal(&run(&patch, None)), "hunk_too_short");
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let outcome = run(&patch, Some(&repo));
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
}

#[test]
fn a_recount_that_does_not_match_the_base_is_refused_with_the_usual_code() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20).replace("line 9\n", "line nine\n"))]);
    let outcome = run(&change_at("@@ -8,4 +8,4 @@"), Some(&repo));
    assert_eq!(refusal(&outcome), "context_mismatch");
    assert_eq!(kinds(&outcome), [RepairKind::Recount], "the repairs made so far are listed");
    assert_eq!(outcome.proof.unwrap().applies, Some(false));
}

#[test]
fn a_wrong_start_moves_to_the_one_place_the_context_is() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let outcome = run(&change_at("@@ -3,5 +3,6 @@"), Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::Relocate]);
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
    // Anchored at the start of the file, git would refuse it outright.
    let outcome = run(&change_at("@@ -1,5 +1,6 @@"), Some(&repo));
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
}

#[test]
fn a_hunk_whose_context_fits_twice_is_not_moved() {
    let twice = format!("{}{}", numbered(20), numbered(20));
    let (_dir, repo) = repo(&[("f.txt", &twice)]);
    let outcome = run(&change_at("@@ -12,5 +12,6 @@"), Some(&repo));
    assert_eq!(refusal(&outcome), "ambiguous_location");
    assert!(outcome.refusals[0].message.contains("lines 8, 28"), "{}", outcome.refusals[0].message);
}

#[test]
fn the_other_hunks_of_the_file_narrow_where_a_hunk_can_go() {
    let base = format!("{}mid\n{}", numbered(20), numbered(20));
    let (_dir, repo) = repo(&[("f.txt", &base)]);
    let second = " line 8\n line 9\n-line 10\n+ten\n line 11\n";
    // Alone, the hunk fits in both copies.
    let alone = format!("{HEAD}@@ -5,4 +5,4 @@\n{second}");
    assert_eq!(refusal(&run(&alone, Some(&repo))), "ambiguous_location");
    // After a hunk that stays at `mid` (line 21), only the second copy is after it.
    let first = "@@ -20,3 +20,3 @@\n line 20\n-mid\n+MID\n line 1\n";
    let outcome = run(&format!("{HEAD}{first}@@ -5,4 +5,4 @@\n{second}"), Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::Relocate]);
    assert!(repaired(&outcome).contains("@@ -29,4 +29,4 @@\n"), "{}", repaired(&outcome));
}

#[test]
fn later_new_side_starts_follow_a_recounted_hunk() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(40))]);
    let patch = format!(
        "{HEAD}@@ -2,2 +2,2 @@\n line 2\n+new\n line 3\n@@ -30,3 +30,3 @@\n line 30\n-line 31\n+line 31!\n line 32\n"
    );
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::Recount]);
    assert!(repaired(&outcome).contains("@@ -2,2 +2,3 @@\n"), "{}", repaired(&outcome));
    assert!(repaired(&outcome).contains("@@ -30,3 +31,3 @@\n"), "{}", repaired(&outcome));
}

#[test]
fn fences_and_chat_around_the_diff_are_removed() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let diff = change_at("@@ -8,5 +8,6 @@");
    let agent = format!(
        "Here is the fix:\n\n```diff\n{diff}```\n\nChanges:\n- renamed a line\n- added another\n"
    );
    let outcome = run(&agent, Some(&repo));
    assert_eq!(repaired(&outcome), diff);
    assert_eq!(kinds(&outcome), [RepairKind::Unfence, RepairKind::Unfence]);
    assert_eq!(outcome.summary(), "removed 8 lines of fence and text around the diff");
}

#[test]
fn chat_after_an_unfenced_diff_that_could_be_body_lines_is_kept_as_a_defect() {
    let diff = change_at("@@ -8,5 +8,6 @@");
    let outcome = run(&format!("{diff}Note:\n+ one more thing\n"), None);
    assert_eq!(refusal(&outcome), "garbage");
    let outcome = run(&format!("{diff}Hope this helps.\n"), None);
    assert_eq!(repaired(&outcome), diff);
}

#[test]
fn text_between_entries_is_not_removed() {
    let one = change_at("@@ -8,5 +8,6 @@");
    let two = "diff --git a/g.txt b/g.txt\n--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-a\n+b\n";
    let outcome = run(&format!("{one}And the second file:\n{two}"), None);
    assert_eq!(refusal(&outcome), "garbage");
}

#[test]
fn a_missing_diff_git_line_is_written_from_the_minus_plus_names() {
    let diff = "diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hello\n";
    let agent = diff.replacen("diff --git a/n.txt b/n.txt\n", "", 1);
    let outcome = run(&agent, None);
    assert_eq!(kinds(&outcome), [RepairKind::GitHeader]);
    assert_eq!(repaired(&outcome), diff);
    let renamed = "similarity index 100%\nrename from o.txt\nrename to p.txt\n";
    let outcome = run(renamed, None);
    assert_eq!(repaired(&outcome), format!("diff --git a/o.txt b/p.txt\n{renamed}"));
    // Two entries' headers in one run: split where git's header order starts over.
    let changed = "index 1111111..2222222 100644\n--- a/q.txt\n+++ b/q.txt\n@@ -1 +1 @@\n-a\n+b\n";
    let outcome = run(&format!("{renamed}{changed}"), None);
    let both =
        format!("diff --git a/o.txt b/p.txt\n{renamed}diff --git a/q.txt b/q.txt\n{changed}");
    assert_eq!((repaired(&outcome), kinds(&outcome).len()), (&*both, 2));
}

#[test]
fn headers_without_names_are_neither_guessed_nor_dropped() {
    let agent = format!("old mode 100644\nnew mode 100755\n{}", change_at("@@ -8,5 +8,6 @@"));
    let agent = agent.replacen("diff --git a/f.txt b/f.txt\n", "", 1);
    // The mode lines end a text block before a `---`/`+++` pair: that pair names the file.
    let outcome = run(&agent, None);
    assert!(repaired(&outcome).starts_with("diff --git a/f.txt b/f.txt\nold mode 100644\n"));
    let alone = format!("{}\nold mode 100644\nnew mode 100755\n", "Mode change:");
    let outcome = run(&alone, None);
    assert!(outcome.patch.is_none(), "{:?}", outcome.repairs);
}

#[test]
fn empty_context_lines_get_their_space_back() {
    let (_dir, repo) = repo(&[("f.txt", "a\n\nb\nc\n\nd\n")]);
    let patch = format!("{HEAD}@@ -1,6 +1,6 @@\n a\n\n b\n-c\n+C\n\n d\n");
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::BlankContext]);
    assert_eq!(outcome.repairs[0].lines, 2);
    assert_eq!(repaired(&outcome), patch.replace("\n\n", "\n \n"));
}

#[test]
fn blank_lines_after_complete_hunks_are_separators() {
    let one = change_at("@@ -8,5 +8,6 @@");
    let two = "diff --git a/g.txt b/g.txt\n--- a/g.txt\n+++ b/g.txt\n@@ -1 +1 @@\n-a\n+b\n";
    let outcome = run(&format!("{one}\n{two}\n\n"), None);
    let removed = [RepairKind::TrailingBlankLines, RepairKind::BlankOutsideEntry];
    assert_eq!(kinds(&outcome), removed);
    assert_eq!(repaired(&outcome), format!("{one}{two}"));
    // After an entry without hunks, and before the first entry, likewise.
    let renamed =
        "diff --git a/o.txt b/p.txt\nsimilarity index 100%\nrename from o.txt\nrename to p.txt\n";
    let outcome = run(&format!("\n \n{renamed}\n\t\n{two}"), None);
    assert_eq!(kinds(&outcome), [RepairKind::BlankOutsideEntry]);
    assert_eq!(outcome.repairs[0].lines, 4);
    assert_eq!(repaired(&outcome), format!("{renamed}{two}"));
}

#[test]
fn a_blank_line_followed_by_more_body_is_context_and_recounted() {
    let (_dir, repo) = repo(&[("f.txt", "a\nb\n\nc\nd\n")]);
    let patch = format!("{HEAD}@@ -1,2 +1,2 @@\n a\n-b\n+B\n\n c\n");
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::Recount, RepairKind::BlankContext]);
    assert_eq!(repaired(&outcome), format!("{HEAD}@@ -1,4 +1,4 @@\n a\n-b\n+B\n \n c\n"));
}

#[test]
fn the_final_newline_is_added_unless_the_last_line_is_an_added_line() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let patch = change_at("@@ -8,5 +8,6 @@");
    let outcome = run(patch.trim_end_matches('\n'), Some(&repo));
    assert_eq!((kinds(&outcome), repaired(&outcome)), (vec![RepairKind::FinalNewline], &*patch));
    let cut = format!("{HEAD}@@ -20 +20,2 @@\n line 20\n+line 21");
    assert_eq!(refusal(&run(&cut, Some(&repo))), "missing_final_newline");
}

#[test]
fn crlf_headers_keep_their_carriage_return() {
    let patch = "diff --git a/f.txt b/f.txt\r\n--- a/f.txt\r\n+++ b/f.txt\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n+c\r\n";
    let outcome = run(patch, None);
    assert!(repaired(&outcome).contains("@@ -1 +1,2 @@\r\n"), "{:?}", repaired(&outcome));
}

#[test]
fn a_patch_needing_too_many_repairs_is_refused() {
    let hunks: Vec<String> = (0..=MAX_ROUNDS)
        .map(|k| format!("@@ -{0},1 +{0},1 @@\n-a{k}\n+b{k}\n+c{k}\n", 10 * k + 1))
        .collect();
    let patch = format!("{HEAD}{}", hunks.concat());
    let outcome = run(&patch, None);
    assert_eq!(refusal(&outcome), "too_many_defects");
}

#[test]
fn blank_context_the_base_lacks_is_set_aside_at_either_edge() {
    let (_dir, base) = repo(&[("f.txt", &numbered(20))]);
    // Counted junk at the end (Claude's shape): the hunk fits once it is set aside.
    let junk_end = change_at("@@ -8,6 +8,7 @@") + " \n";
    let outcome = run(&junk_end, Some(&base));
    assert_eq!(kinds(&outcome), [RepairKind::TrimContext]);
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
    // A blank line above the hunk that the file does not have there.
    let junk_start = change_at("@@ -7,6 +7,7 @@").replace("@@\n", "@@\n \n");
    let outcome = run(&junk_start, Some(&base));
    assert_eq!(kinds(&outcome), [RepairKind::TrimContext]);
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
    assert_eq!(outcome.summary(), "set aside 1 blank context line of f.txt");
    // A blank line the file does have is context, and stays.
    let (_dir, blank) = repo(&[("f.txt", &numbered(20).replace("line 13\n", "\n"))]);
    assert!(run(&junk_end, Some(&blank)).repairs.is_empty());
}

#[test]
fn a_counted_junk_line_is_set_aside_at_the_stated_line_rather_than_followed_elsewhere() {
    // Whole, the hunk's context (`  }`, `}`, a blank line) is at lines 1 and 4, as in any file
    // of repeated blocks; git would move it to the nearest. Without the junk line it is
    // exactly at its stated line 7, at the end of the file.
    let (_dir, repo) = repo(&[("f.txt", "  }\n}\n\n  }\n}\n\n  }\n}\n")]);
    let patch = format!("{HEAD}@@ -7,3 +7,5 @@\n   }}\n }}\n+\n+more\n \n");
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::TrimContext]);
    assert_eq!(repaired(&outcome), format!("{HEAD}@@ -7,2 +7,4 @@\n   }}\n }}\n+\n+more\n"));
}

#[test]
fn a_junk_line_between_two_hunks_is_set_aside_against_the_base() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let second = "@@ -16,3 +17,3 @@\n line 16\n-line 17\n+line seventeen\n line 18\n";
    let patch = format!("{} \n{second}", change_at("@@ -8,5 +8,6 @@"));
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::Recount, RepairKind::TrimContext]);
    assert_eq!(repaired(&outcome), format!("{}{second}", change_at("@@ -8,5 +8,6 @@")));
}

#[test]
fn context_past_the_counts_is_counted_where_the_base_confirms_it() {
    // Under-counted: no trailing context within the counts, so git anchors the hunk at the
    // end of the file and refuses it; the lines past the counts are the file's next lines.
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let patch = change_at("@@ -8,3 +8,4 @@") + " \n";
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::BlankOutsideEntry, RepairKind::Recount]);
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
    // Without a base they are removed, as git drops them.
    let outcome = run(&patch, None);
    assert_eq!(kinds(&outcome), [RepairKind::ContextAfterHunk]);
    assert_eq!(
        repaired(&outcome),
        change_at("@@ -8,3 +8,4 @@").replace(" line 11\n line 12\n", "")
    );
}

#[test]
fn a_context_only_hunk_is_taken_out_only_when_its_counts_fit() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let idle = "@@ -2,2 +2,2 @@\n line 2\n line 3\n";
    let patch = format!("{HEAD}{idle}{}", &change_at("@@ -8,5 +8,6 @@")[HEAD.len()..]);
    let outcome = run(&patch, Some(&repo));
    assert_eq!(kinds(&outcome), [RepairKind::ContextOnlyHunk]);
    assert_eq!(repaired(&outcome), change_at("@@ -8,5 +8,6 @@"));
    // A header promising an added line the body lacks: the shape of a hunk whose one added
    // line was lost.
    let lost = patch.replace("@@ -2,2 +2,2 @@", "@@ -2,2 +2,3 @@");
    assert_eq!(refusal(&run(&lost, Some(&repo))), "hunk_too_short");
}

#[test]
fn bare_paths_under_strip_0_are_proven() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let bare = change_at("@@ -8,5 +8,6 @@").replace("a/f.txt", "f.txt").replace("b/f.txt", "f.txt");
    let options = Options { parse: crate::patch::ParseOptions { strip: 0, ..Default::default() } };
    let ctx = Context { repo: Some(&repo), base: "HEAD" };
    let outcome = repair(bare.as_bytes(), &ctx, &options).unwrap();
    assert_eq!(repaired(&outcome), bare);
    let recounted = bare.replace("@@ -8,5 +8,6 @@", "@@ -8,4 +8,4 @@");
    let outcome = repair(recounted.as_bytes(), &ctx, &options).unwrap();
    assert_eq!(repaired(&outcome), bare);
}

#[test]
fn a_result_in_a_json_fence_after_prose_is_taken_out_and_repaired() {
    let (_dir, repo) = repo(&[("f.txt", &numbered(20))]);
    let result = serde_json::json!({"mode": "apply", "success": true, "patch": change_at("@@ -8,4 +8,4 @@"),
        "filesWritten": ["f.txt"], "filesTouched": ["f.txt"], "summary": "ten"});
    let reply = format!("Done, here is my result:\n\n```json\n{result:#}\n```\n");
    let ctx = Context { repo: Some(&repo), base: "HEAD" };
    let repaired = repair_result(reply.as_bytes(), &ctx, &Options::default()).unwrap().unwrap();
    assert_eq!(repaired.unwrapped.as_ref().map(|u| (u.line, u.is_fenced)), Some((4, true)));
    let value: serde_json::Value = serde_json::from_slice(&repaired.result).unwrap();
    assert_eq!(value["patch"], change_at("@@ -8,5 +8,6 @@"));
    assert_eq!(value["summary"], "ten");
}

/// Mutations of real-shaped patches: lines dropped, emptied, doubled, replaced by chat or a
/// fence, headers renumbered. Whatever `repair` makes of them without a repository, a repaired
/// patch parses cleanly, repairs to itself unchanged, and holds only the input's `+`/`-` lines.
mod properties {
    use super::*;
    use crate::patch::{LineKind, ParseOptions, parse};
    use proptest::prelude::*;

    const PATCH: &str = "diff --git a/a.rs b/a.rs\nindex 1111111..2222222 100644\n--- a/a.rs\n+++ b/a.rs\n@@ -3,7 +3,8 @@ fn main() {\n let a = 1;\n let b = 2;\n \n-let c = 3;\n+let c = 4;\n+let d = 5;\n let e = 6;\n \n }\n@@ -20,3 +21,2 @@\n x\n-y\n z\ndiff --git a/n.md b/n.md\nnew file mode 100644\n--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,2 @@\n+# N\n+- item\n";

    #[derive(Clone, Debug)]
    enum Mutation {
        Drop(usize),
        Empty(usize),
        Double(usize),
        Text(usize, &'static str),
        Renumber(usize, u8),
    }

    fn mutation() -> impl Strategy<Value = Mutation> {
        let at = 0..30usize;
        prop_oneof![
            at.clone().prop_map(Mutation::Drop),
            at.clone().prop_map(Mutation::Empty),
            at.clone().prop_map(Mutation::Double),
            (
                at.clone(),
                prop_oneof![
                    Just("```diff"),
                    Just("```"),
                    Just("Here you go:"),
                    Just("- note"),
                    Just("")
                ]
            )
                .prop_map(|(i, t)| Mutation::Text(i, t)),
            (at, any::<u8>()).prop_map(|(i, n)| Mutation::Renumber(i, n)),
        ]
    }

    fn mutate(mutations: &[Mutation]) -> String {
        let mut lines: Vec<String> = PATCH.lines().map(str::to_owned).collect();
        for m in mutations {
            let len = lines.len().max(1);
            match *m {
                Mutation::Drop(i) if !lines.is_empty() => drop(lines.remove(i % len)),
                Mutation::Empty(i) if !lines.is_empty() => lines[i % len].clear(),
                Mutation::Double(i) if !lines.is_empty() => {
                    lines.insert(i % len, lines[i % len].clone());
                }
                Mutation::Text(i, t) => lines.insert(i % (lines.len() + 1), t.to_owned()),
                Mutation::Renumber(i, n) => {
                    let headers: Vec<usize> =
                        (0..lines.len()).filter(|&k| lines[k].starts_with("@@ ")).collect();
                    if let Some(&k) = headers.get(i % headers.len().max(1)) {
                        lines[k] = format!("@@ -{} +{},{} @@", n % 30, n % 29, n % 7);
                    }
                }
                _ => {}
            }
        }
        lines.iter().map(|l| format!("{l}\n")).collect::<Vec<_>>().concat()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn repaired_patches_are_clean_idempotent_and_keep_the_agents_lines(
            mutations in proptest::collection::vec(mutation(), 0..4)
        ) {
            let agent = mutate(&mutations);
            let outcome = run(&agent, None);
            let Some(patch) = outcome.patch.as_deref() else { return Ok(()) };
            let parsed = parse(patch, &ParseOptions::default());
            prop_assert!(parsed.is_ok(), "{:?}", parsed.defects);
            let input: Vec<&str> = agent.lines().collect();
            for line in parsed.patch.files.iter().flat_map(|f| &f.hunks).flat_map(|h| &h.lines) {
                let prefix = match line.kind { LineKind::Add => "+", LineKind::Remove => "-", LineKind::Context => continue };
                let written = format!("{prefix}{}", String::from_utf8_lossy(line.text));
                prop_assert!(input.contains(&written.as_str()), "{written:?} is not the agent's");
            }
            let again = run(std::str::from_utf8(patch).unwrap(), None);
            prop_assert_eq!(again.patch.as_deref(), Some(patch));
            prop_assert!(again.repairs.is_empty(), "{:?}", again.repairs);
        }
    }
}

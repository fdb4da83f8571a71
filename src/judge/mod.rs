//! The built-in judge: the execute-step reviewer's own question, "does this patch carry out the
//! step, completely?", asked of a language model where the rules cannot decide.
//!
//! The rules decide everything they can; what is left (was "Extract helper X" done halfway?)
//! needs a reader. [`ask`] writes the question ([`prompt`]: the step, the result, the patch, what
//! the rules noticed, excerpts of the touched files from the base tree), sends it to an
//! OpenAI-compatible Chat Completions endpoint or to Anthropic's Messages API ([`provider`],
//! blocking HTTP with a timeout and one retry on a transient failure), and reads the answer
//! with the strict JSON-only contract of executor replies ([`answer`]). A failure or an
//! unreadable answer is an error, never an acceptance. Answers are kept in a cache under the
//! git directory ([`cache`]) so the same question is not paid for twice.
//!
//! The endpoint comes from the environment only (`OPENAI_BASE_URL`, `OPENAI_API_KEY`,
//! `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`), never from `.patchgate.toml`: a policy file
//! must not be able to send the user's key to a server of its choosing.

mod answer;
mod cache;
mod excerpt;
mod http;
mod prompt;
mod provider;
#[cfg(test)]
mod tests;

pub use answer::{Ruling, read_answer};
pub use cache::Cache;
pub use prompt::{PROMPT_VERSION, Prompt, build_prompt};
pub use provider::{Endpoint, Provider};

use crate::finding::Note;
use crate::patch::Patch;
use crate::rule::Base;
use crate::step::{ExecutorResult, Mode, Step};
use serde::Deserialize;
use std::time::Duration;

/// The `[judge]` table of `.patchgate.toml`.
///
/// ```toml
/// [judge]
/// model = "openai:gpt-4o-mini"   # PROVIDER:MODEL; validate --judge-model overrides it
/// when = "uncertain"             # or "always"
/// timeout = 60                   # seconds per attempt
/// max_tokens = 1024              # the answer's budget; 0 sends none (OpenAI-compatible only)
/// temperature = 0.0
/// cache = true
///
/// [judge.body]                   # extra request fields, merged over patchgate's own
/// reasoning_effort = "low"
/// ```
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JudgeSettings {
    /// `PROVIDER:MODEL`; no model means no built-in judge.
    pub model: Option<String>,
    /// When to ask.
    pub when: When,
    /// Seconds one attempt may take (connecting, sending, waiting, reading).
    pub timeout: u64,
    /// The most tokens the answer may take.
    pub max_tokens: u32,
    /// Sampling temperature; 0 asks for the same answer to the same question.
    pub temperature: f64,
    /// Keep answers under the git directory and reuse them.
    pub cache: bool,
    /// The largest question sent, in bytes (instructions, step, result, patch, excerpts); a
    /// larger one is a failure rather than a question cut short.
    pub max_prompt_bytes: usize,
    /// Extra fields of the request body (`max_completion_tokens`, `reasoning_effort`, ...),
    /// set over patchgate's own.
    pub body: toml::Table,
}

impl Default for JudgeSettings {
    fn default() -> Self {
        Self {
            model: None,
            when: When::Uncertain,
            timeout: 60,
            max_tokens: 1024,
            temperature: 0.0,
            cache: true,
            max_prompt_bytes: 256 * 1024,
            body: toml::Table::new(),
        }
    }
}

/// When the judge is asked (only ever when no rule rejected).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum When {
    /// Only for an `apply` success whose implementation the rules could not settle: a weak
    /// `not-implemented` finding became a note, or nothing checks the step's transformation
    /// (no rename the rules verify, no `expect` post-condition).
    #[default]
    Uncertain,
    /// For every result no rule rejected.
    Always,
}

/// A `PROVIDER:MODEL` pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// Which API.
    pub provider: Provider,
    /// The model's name as the server knows it (`gpt-4o-mini`, `qwen2.5-coder:7b`).
    pub name: String,
}

impl std::str::FromStr for Model {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let usage = "write PROVIDER:MODEL, e.g. openai:gpt-4o-mini or anthropic:claude-haiku-4-5";
        let Some((provider, name)) = text.split_once(':') else {
            return Err(format!("'{text}' names no provider; {usage}"));
        };
        let Some(provider) = Provider::from_name(provider) else {
            let known: Vec<&str> = Provider::ALL.iter().map(|p| p.as_str()).collect();
            return Err(format!(
                "unknown provider '{provider}' (known: {}); {usage}",
                known.join(", ")
            ));
        };
        if name.trim().is_empty() || name.trim() != name {
            return Err(format!("'{text}' names no model; {usage}"));
        }
        Ok(Self { provider, name: name.to_owned() })
    }
}

impl std::fmt::Display for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.provider.as_str(), self.name)
    }
}

/// Everything needed to ask: the model, where it is served, and how.
#[derive(Clone, Debug)]
pub struct ModelJudge {
    /// Who answers.
    pub model: Model,
    /// Where (from the environment).
    pub endpoint: Endpoint,
    /// The rest of `[judge]`.
    pub settings: JudgeSettings,
    /// Where answers are kept; `None` asks every time.
    pub cache: Option<Cache>,
}

impl ModelJudge {
    /// The judge for `model`, its endpoint read from the environment.
    pub fn from_env(model: Model, settings: JudgeSettings) -> Result<Self, JudgeError> {
        let endpoint = Endpoint::from_env(model.provider).map_err(JudgeError::Setup)?;
        Ok(Self { model, endpoint, settings, cache: None })
    }

    /// Keep answers in `cache` (unless `[judge] cache = false`).
    #[must_use]
    pub fn with_cache(mut self, cache: Cache) -> Self {
        if self.settings.cache {
            self.cache = Some(cache);
        }
        self
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.settings.timeout.max(1))
    }
}

/// What the judge is shown.
#[derive(Clone, Copy, Debug)]
pub struct Question<'a> {
    /// The orchestrator's step.
    pub step: &'a Step,
    /// The executor's result.
    pub result: &'a ExecutorResult,
    /// Its patch, parsed (for the excerpts); `None` when it has none.
    pub patch: Option<&'a Patch<'a>>,
    /// What the rules noticed without rejecting.
    pub notes: &'a [Note],
    /// The base tree, for excerpts of the touched files.
    pub base: Option<&'a dyn Base>,
    /// What the patch does to each file's structure.
    pub summary: Option<&'a crate::summary::ChangeSummary>,
}

/// Tokens one call cost, as the server counted them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct Usage {
    /// Tokens of the request.
    pub input_tokens: Option<u64>,
    /// Tokens of the answer.
    pub output_tokens: Option<u64>,
}

/// The judge's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Whether the step is carried out.
    pub valid: bool,
    /// Why, as the model wrote it.
    pub reason: String,
    /// What the call cost.
    pub usage: Usage,
    /// Read from the cache rather than asked.
    pub cached: bool,
}

/// Why the judge gave no usable answer. Each is exit 3: a judge that could not answer never
/// accepts.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JudgeError {
    /// The judge cannot be set up: a bad `PROVIDER:MODEL`, a missing key, a bad base URL.
    #[error("{0}")]
    Setup(String),
    /// The question is larger than `[judge] max_prompt_bytes`: a failure rather than a
    /// question cut short.
    #[error(
        "the question for the judge is {bytes} bytes, over [judge] max_prompt_bytes ({limit}); raise it, or split the step into smaller ones"
    )]
    TooLarge {
        /// Its size.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The request failed: no connection, a timeout, an error status (after one retry when
    /// the failure was transient).
    #[error("{model}: {message}")]
    Request {
        /// `PROVIDER:MODEL`.
        model: String,
        /// What failed and what to do.
        message: String,
    },
    /// The server answered, but not with the judge's JSON.
    #[error(
        "{model} answered {excerpt:?}, which is not one JSON object {{\"valid\": bool, \"reason\": str}} ending the answer ({problem}); use a model that follows the instructions, or raise [judge] max_tokens if it was cut off"
    )]
    Unreadable {
        /// `PROVIDER:MODEL`.
        model: String,
        /// The start of the answer.
        excerpt: String,
        /// What is wrong with it.
        problem: String,
    },
}

/// Whether `when` asks the judge about `result`. `notes` are the rules' notes; `is_settled`
/// says the step's transformation has a deterministic check that passed (a verified rename,
/// an `expect` post-condition). Called only when no rule rejected.
#[must_use]
pub fn should_ask(when: When, result: &ExecutorResult, notes: &[Note], is_settled: bool) -> bool {
    match when {
        When::Always => true,
        When::Uncertain => {
            let is_apply = result.mode == Mode::Apply.as_str() && result.success;
            is_apply && (!is_settled || notes.iter().any(|n| is_weak_signal(&n.code)))
        }
    }
}

/// Codes of `not-implemented` findings, which become notes when too weak to reject.
fn is_weak_signal(code: &crate::finding::NoteCode) -> bool {
    use crate::finding::{CheckCode as C, NoteCode};
    matches!(
        code,
        NoteCode::Check(
            C::NamedFileUntouched
                | C::RenameMissing
                | C::RenamePartial
                | C::RemovalMissing
                | C::ExtractionMissing
                | C::WhitespaceOnly
                | C::CommentOnly
                | C::PlaceholderAdded
        )
    )
}

/// Ask the judge `question`: from the cache when it was asked before, else from the model.
pub fn ask(judge: &ModelJudge, question: &Question<'_>) -> Result<Answer, JudgeError> {
    let prompt = build_prompt(question);
    if prompt.len() > judge.settings.max_prompt_bytes {
        let limit = judge.settings.max_prompt_bytes;
        return Err(JudgeError::TooLarge { bytes: prompt.len(), limit });
    }
    let key = cache::key(&judge.model, &prompt);
    if let Some(hit) = judge.cache.as_ref().and_then(|c| c.get(&key)) {
        return Ok(hit);
    }
    let reply = provider::call(judge, &prompt)?;
    let verdict = read_answer(&reply.text).map_err(|problem| JudgeError::Unreadable {
        model: judge.model.to_string(),
        excerpt: excerpt(&reply.text, 120),
        problem,
    })?;
    let answer =
        Answer { valid: verdict.valid, reason: verdict.reason, usage: reply.usage, cached: false };
    if let Some(cache) = &judge.cache {
        cache.put(&key, &judge.model, &answer);
    }
    Ok(answer)
}

/// The start of `text` (at most `max` characters), for messages.
#[must_use]
pub fn excerpt(text: &str, max: usize) -> String {
    let text = text.trim();
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_owned(),
    }
}

/// `reason` on one line, at most `max` characters (cut at a word, with `...`); control
/// characters (a terminal escape in a model's or server's text) count as spaces.
#[must_use]
pub fn one_line(reason: &str, max: usize) -> String {
    let words = reason.split(|c: char| c.is_whitespace() || c.is_control());
    let line = words.filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ");
    if line.chars().count() <= max {
        return line;
    }
    let cut = line.char_indices().nth(max).map_or(line.len(), |(i, _)| i);
    let head = &line[..cut];
    let head = head.rsplit_once(' ').map_or(head, |(h, _)| h);
    format!("{}...", head.trim_end_matches([',', ';', ':', '.']))
}

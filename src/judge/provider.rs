//! The two APIs, as documented: OpenAI's Chat Completions (`POST {OPENAI_BASE_URL}/chat/
//! completions`, spoken by OpenAI and by local servers such as Ollama, vLLM and llama.cpp) and
//! Anthropic's Messages (`POST {ANTHROPIC_BASE_URL}/v1/messages`). Streaming is off; one
//! transient failure (a timeout, a broken connection, 408, 429, 5xx, Anthropic's 529) is tried
//! once more.

use super::http::{self, Failure};
use super::{JudgeError, ModelJudge, Prompt, Usage};
use crate::finding::codes;
use serde_json::{Map, Value, json};
use std::time::Duration;

codes! {
    /// Which API a model is reached through; the name is the one in `PROVIDER:MODEL`.
    Provider {
        /// OpenAI Chat Completions and compatible servers.
        OpenAi => "openai",
        /// Anthropic Messages.
        Anthropic => "anthropic",
    }
}

impl Provider {
    /// The environment variables naming the server and the key.
    #[must_use]
    pub fn env_names(self) -> (&'static str, &'static str) {
        match self {
            Self::OpenAi => ("OPENAI_BASE_URL", "OPENAI_API_KEY"),
            Self::Anthropic => ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
        }
    }

    /// The hosted service, used when the base URL variable is not set.
    #[must_use]
    pub fn default_base_url(self) -> &'static str {
        match self {
            Self::OpenAi => "https://api.openai.com/v1",
            Self::Anthropic => "https://api.anthropic.com",
        }
    }
}

/// Where a provider is served, and the key (never printed).
#[derive(Clone)]
pub struct Endpoint {
    /// Which API.
    pub provider: Provider,
    /// The base URL, without a trailing `/`.
    pub base_url: String,
    api_key: Option<String>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endpoint")
            .field("provider", &self.provider)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "(set)"))
            .finish()
    }
}

impl Endpoint {
    /// The endpoint from `PROVIDER_BASE_URL` and `PROVIDER_API_KEY`. The hosted default needs
    /// a key; a server of your own may not.
    pub fn from_env(provider: Provider) -> Result<Self, String> {
        let (url_var, key_var) = provider.env_names();
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let base = var(url_var).unwrap_or_else(|| provider.default_base_url().to_owned());
        Self::new(provider, &base, var(key_var))
    }

    /// An endpoint at `base_url`.
    pub fn new(
        provider: Provider,
        base_url: &str,
        api_key: Option<String>,
    ) -> Result<Self, String> {
        let (url_var, key_var) = provider.env_names();
        let base_url = base_url.trim().trim_end_matches('/').to_owned();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(format!(
                "{url_var} is '{base_url}', not an http:// or https:// URL; set it to the server's base URL"
            ));
        }
        if api_key.is_none() && base_url == provider.default_base_url() {
            return Err(format!(
                "{key_var} is not set; export it, or set {url_var} to a server that needs no key"
            ));
        }
        Ok(Self { provider, base_url, api_key })
    }

    fn url(&self) -> String {
        match self.provider {
            Provider::OpenAi => format!("{}/chat/completions", self.base_url),
            Provider::Anthropic => format!("{}/v1/messages", self.base_url),
        }
    }

    fn headers(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        match self.provider {
            Provider::OpenAi => {
                if let Some(key) = &self.api_key {
                    out.push(("authorization", format!("Bearer {key}")));
                }
            }
            Provider::Anthropic => {
                if let Some(key) = &self.api_key {
                    out.push(("x-api-key", key.clone()));
                }
                out.push(("anthropic-version", "2023-06-01".to_owned()));
            }
        }
        out
    }
}

/// The model's text and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reply {
    pub text: String,
    pub usage: Usage,
}

/// Send `prompt` to the judge's model; one more try after a transient failure.
pub(super) fn call(judge: &ModelJudge, prompt: &Prompt) -> Result<Reply, JudgeError> {
    let body = request_body(judge, prompt).to_string();
    let url = judge.endpoint.url();
    let headers = judge.endpoint.headers();
    let fail = |message: String| JudgeError::Request { model: judge.model.to_string(), message };
    let mut attempt = 0;
    loop {
        attempt += 1;
        let outcome = http::post_json(&url, &headers, &body, judge.timeout());
        let retry = match &outcome {
            Ok(r) if (200..300).contains(&r.status) => {
                return read_reply(judge.endpoint.provider, &r.body).map_err(fail);
            }
            Ok(r) if is_transient(r.status) => Some(r.retry_after),
            Err(Failure::TimedOut | Failure::Connection(_)) => Some(None),
            Ok(_) | Err(Failure::Fatal(_)) => None,
        };
        match retry {
            Some(wait) if attempt == 1 => {
                std::thread::sleep(wait.unwrap_or(Duration::from_secs(1)).min(MAX_WAIT));
            }
            _ => return Err(fail(failure_message(judge, &url, outcome, attempt))),
        }
    }
}

/// The longest `retry-after` honoured before the second try.
const MAX_WAIT: Duration = Duration::from_secs(10);

fn is_transient(status: u16) -> bool {
    matches!(status, 408 | 409 | 425 | 429 | 500 | 502 | 503 | 504 | 529)
}

/// What went wrong, in one line that says what to do.
fn failure_message(
    judge: &ModelJudge,
    url: &str,
    outcome: Result<http::Response, Failure>,
    attempts: u32,
) -> String {
    let (url_var, key_var) = judge.endpoint.provider.env_names();
    let tries = if attempts > 1 { " (tried twice)" } else { "" };
    match outcome {
        Err(Failure::TimedOut) => format!(
            "no answer from {url} within {} s{tries}; raise [judge] timeout or check the server",
            judge.timeout().as_secs()
        ),
        Err(Failure::Connection(e)) => {
            format!("cannot reach {url}{tries}: {e}; check that the server runs and {url_var}")
        }
        Err(Failure::Fatal(e)) => format!("cannot send to {url}: {e}; check {url_var}"),
        Ok(r) => {
            let what = server_error(&r.body);
            let fix = match r.status {
                401 | 403 => format!("check {key_var}"),
                404 => format!("check the model name and {url_var}"),
                429 => "the server is rate limiting; try again later".to_owned(),
                s if s >= 500 => "the server failed; try again later".to_owned(),
                _ => "check [judge] in .patchgate.toml and the model name".to_owned(),
            };
            format!("{url} answered HTTP {}{tries}: {what}; {fix}", r.status)
        }
    }
}

/// The message of an error body: `{"error": {"message": ...}}` (both APIs), else its start.
pub(super) fn server_error(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|v| {
        let error = v.get("error")?;
        error.get("message").and_then(Value::as_str).or_else(|| error.as_str()).map(str::to_owned)
    });
    let text = message.unwrap_or_else(|| body.trim().to_owned());
    let text = super::one_line(&text, 200);
    if text.is_empty() { "(empty body)".to_owned() } else { text }
}

/// The request, as each API documents it, with `[judge.body]` set over it.
pub(super) fn request_body(judge: &ModelJudge, prompt: &Prompt) -> Value {
    let settings = &judge.settings;
    let mut body = match judge.endpoint.provider {
        Provider::OpenAi => {
            let mut body = json!({
                "model": judge.model.name,
                "messages": [
                    {"role": "system", "content": prompt.system},
                    {"role": "user", "content": prompt.user},
                ],
                "temperature": settings.temperature,
                "stream": false,
            });
            if settings.max_tokens > 0 {
                body["max_tokens"] = json!(settings.max_tokens);
            }
            body
        }
        // Anthropic requires max_tokens.
        Provider::Anthropic => json!({
            "model": judge.model.name,
            "max_tokens": if settings.max_tokens > 0 { settings.max_tokens } else { 1024 },
            "system": prompt.system,
            "messages": [{"role": "user", "content": prompt.user}],
            "temperature": settings.temperature,
            "stream": false,
        }),
    };
    if let Some(object) = body.as_object_mut() {
        object.extend(toml_to_json(&settings.body));
    }
    body
}

fn toml_to_json(table: &toml::Table) -> Map<String, Value> {
    // Every TOML value has a JSON form (dates become strings).
    serde_json::to_value(table).ok().and_then(|v| v.as_object().cloned()).unwrap_or_default()
}

/// The text and usage of a successful response.
pub(super) fn read_reply(provider: Provider, body: &str) -> Result<Reply, String> {
    let value: Value = serde_json::from_str(body).map_err(|e| {
        format!("the response is not JSON ({e}); check that the URL is the API's base URL")
    })?;
    match provider {
        Provider::OpenAi => read_chat_completion(&value),
        Provider::Anthropic => read_message(&value),
    }
}

fn read_chat_completion(value: &Value) -> Result<Reply, String> {
    let message = value
        .pointer("/choices/0/message")
        .ok_or("the response has no choices[0].message; is this a Chat Completions server?")?;
    let Some(Value::String(text)) = message.get("content") else {
        let refusal = message.get("refusal").and_then(Value::as_str).unwrap_or("no content");
        return Err(format!("the model gave no text: {}", super::one_line(refusal, 200)));
    };
    let text = text.clone();
    let tokens = |key: &str| value.pointer(&format!("/usage/{key}")).and_then(Value::as_u64);
    let usage =
        Usage { input_tokens: tokens("prompt_tokens"), output_tokens: tokens("completion_tokens") };
    Ok(Reply { text, usage })
}

fn read_message(value: &Value) -> Result<Reply, String> {
    let content = value
        .get("content")
        .and_then(Value::as_array)
        .ok_or("the response has no content list; is this a Messages server?")?;
    let text: String = content
        .iter()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    let tokens = |key: &str| value.pointer(&format!("/usage/{key}")).and_then(Value::as_u64);
    // Tokens read from or written to the prompt cache are counted apart from input_tokens.
    let input = tokens("input_tokens").map(|n| {
        n + tokens("cache_creation_input_tokens").unwrap_or(0)
            + tokens("cache_read_input_tokens").unwrap_or(0)
    });
    Ok(Reply { text, usage: Usage { input_tokens: input, output_tokens: tokens("output_tokens") } })
}

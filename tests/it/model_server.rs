//! A scripted model server on 127.0.0.1 for the judge's tests: it speaks OpenAI's Chat
//! Completions (`POST /v1/chat/completions`) or Anthropic's Messages (`POST /v1/messages`) as
//! documented, answers each request with the next step of its script (a text answer wrapped in
//! the API's response shape with usage counts, an error status with the API's error body, or a
//! slow answer), and records every request for the test to inspect. A request that does not
//! follow the API (wrong path, missing key or version header, streaming on, a body without the
//! required fields) gets the API's 400 answer, so the tests also check what patchgate sends.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Which API the server speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    OpenAi,
    Anthropic,
}

/// One scripted answer.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// 200 with this text as the model's answer.
    Text(&'static str),
    /// This status with the API's error body carrying this message.
    Error(u16, &'static str),
    /// Wait, then answer the text.
    Slow(Duration, &'static str),
}

/// One request as received.
#[derive(Clone, Debug)]
pub struct Request {
    pub path: String,
    /// Header names in lowercase.
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The user message's text (both APIs).
    pub fn user_text(&self) -> String {
        let messages = self.body["messages"].as_array().cloned().unwrap_or_default();
        let user = messages.iter().find(|m| m["role"] == "user").cloned().unwrap_or_default();
        user["content"].as_str().unwrap_or_default().to_owned()
    }
}

/// The running server; stopped when dropped.
pub struct ModelServer {
    pub api: Api,
    port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    stop: Arc<AtomicBool>,
    accept: Option<JoinHandle<()>>,
}

struct Shared {
    api: Api,
    script: Vec<Step>,
    next: AtomicUsize,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl ModelServer {
    /// Listen on an ephemeral loopback port and answer with `script`, in order (the last step
    /// repeats).
    pub fn start(api: Api, script: Vec<Step>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let port = listener.local_addr().expect("local address").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let shared = Arc::new(Shared {
            api,
            script,
            next: AtomicUsize::new(0),
            requests: Arc::clone(&requests),
        });
        let stopping = Arc::clone(&stop);
        let accept = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || serve(&shared, stream));
            }
        });
        Self { api, port, requests, stop, accept: Some(accept) }
    }

    /// The base URL as the API's environment variable wants it.
    pub fn base_url(&self) -> String {
        match self.api {
            Api::OpenAi => format!("http://127.0.0.1:{}/v1", self.port),
            Api::Anthropic => format!("http://127.0.0.1:{}", self.port),
        }
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("requests lock").clone()
    }
}

impl Drop for ModelServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port)); // wakes the accept loop
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

fn serve(shared: &Shared, stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let Some(request) = read_request(&stream) else { return };
    // Recorded on arrival, so a test sees a request whose answer is still being delayed.
    shared.requests.lock().expect("requests lock").push(request.clone());
    let (status, body) = if let Err(message) = check(shared.api, &request) {
        (400, error_body(shared.api, "invalid_request_error", &message))
    } else {
        let at = shared.next.fetch_add(1, Ordering::SeqCst);
        let step = shared.script.get(at).or(shared.script.last()).copied();
        answer(shared.api, step.expect("a non-empty script"), &request)
    };
    let body = body.to_string();
    let head = format!(
        "HTTP/1.1 {status} {}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 0\r\nconnection: close\r\n\r\n",
        reason(status),
        body.len()
    );
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body.as_bytes()));
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let path = line.split_whitespace().nth(1)?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    Some(Request { path, headers, body })
}

/// What the API documentation requires of a request.
fn check(api: Api, request: &Request) -> Result<(), String> {
    let body = &request.body;
    if request.header("content-type") != Some("application/json") {
        return Err("content-type must be application/json".into());
    }
    if body["stream"] == json!(true) {
        return Err("this server only answers with streaming off".into());
    }
    if !body["model"].is_string() || !body["messages"].is_array() {
        return Err("model and messages are required".into());
    }
    match api {
        Api::OpenAi => {
            if request.path != "/v1/chat/completions" {
                return Err(format!("unknown path {}", request.path));
            }
            if !request.header("authorization").is_some_and(|v| v.starts_with("Bearer ")) {
                return Err("missing bearer token".into());
            }
        }
        Api::Anthropic => {
            if request.path != "/v1/messages" {
                return Err(format!("unknown path {}", request.path));
            }
            if request.header("x-api-key").is_none()
                || request.header("anthropic-version").is_none()
            {
                return Err("x-api-key and anthropic-version are required".into());
            }
            if !body["max_tokens"].is_u64() {
                return Err("max_tokens: field required".into());
            }
            if body["messages"].as_array().is_some_and(|m| m.iter().any(|m| m["role"] == "system"))
            {
                return Err("system goes in the top-level system field".into());
            }
        }
    }
    Ok(())
}

/// The scripted answer to `request`, in the API's shape.
fn answer(api: Api, step: Step, request: &Request) -> (u16, Value) {
    let text = match step {
        Step::Text(text) => text,
        Step::Slow(wait, text) => {
            std::thread::sleep(wait);
            text
        }
        Step::Error(status, message) => {
            let kind = if status == 529 { "overloaded_error" } else { "api_error" };
            return (status, error_body(api, kind, message));
        }
    };
    let (input, output) = (prompt_tokens(request), words(text));
    let body = match api {
        Api::OpenAi => json!({
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": request.body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output},
        }),
        Api::Anthropic => json!({
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": request.body["model"],
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": null,
            "usage": {"input_tokens": input, "output_tokens": output},
        }),
    };
    (200, body)
}

fn error_body(api: Api, kind: &str, message: &str) -> Value {
    match api {
        Api::OpenAi => json!({"error": {"message": message, "type": kind, "code": null}}),
        Api::Anthropic => json!({"type": "error", "error": {"type": kind, "message": message}}),
    }
}

/// The server's token count: whitespace-separated words of every message (not a tokenizer;
/// the tests only need a count patchgate must pass through unchanged).
pub fn prompt_tokens(request: &Request) -> usize {
    let system = request.body["system"].as_str().map_or(0, words);
    let messages = request.body["messages"].as_array().cloned().unwrap_or_default();
    system + messages.iter().map(|m| m["content"].as_str().map_or(0, words)).sum::<usize>()
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        429 => "Too Many Requests",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

//! One blocking HTTP POST of a JSON body, through `ureq` (rustls with the Mozilla roots built
//! in, so a hosted endpoint needs no system TLS library). Error statuses are answers here, not
//! errors: the caller decides what is transient.

use std::time::Duration;

/// The largest response body read.
const MAX_RESPONSE_BYTES: u64 = 4 << 20;

/// A response, whatever its status.
#[derive(Clone, Debug)]
pub(super) struct Response {
    /// The HTTP status.
    pub status: u16,
    /// The body as text (invalid UTF-8 replaced).
    pub body: String,
    /// The `retry-after` header in seconds, when the server sent one.
    pub retry_after: Option<Duration>,
}

/// Why no response arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Failure {
    /// The attempt ran past its timeout.
    TimedOut,
    /// The connection failed or broke (worth one more try).
    Connection(String),
    /// Anything else (a bad URL, TLS refused): trying again would fail the same way.
    Fatal(String),
}

/// POST `body` to `url` with `headers`; the whole exchange must finish within `timeout`.
pub(super) fn post_json(
    url: &str,
    headers: &[(&str, String)],
    body: &str,
    timeout: Duration,
) -> Result<Response, Failure> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .http_status_as_error(false)
        .user_agent(concat!("patchgate/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut request = agent.post(url).content_type("application/json");
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let mut response = request.send(body).map_err(failure)?;
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let body = response
        .body_mut()
        .with_config()
        .limit(MAX_RESPONSE_BYTES)
        .lossy_utf8(true)
        .read_to_string()
        .map_err(failure)?;
    Ok(Response { status, body, retry_after })
}

fn failure(error: ureq::Error) -> Failure {
    match error {
        ureq::Error::Timeout(_) => Failure::TimedOut,
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => Failure::TimedOut,
        ureq::Error::Io(e) => Failure::Connection(e.to_string()),
        ureq::Error::ConnectionFailed => Failure::Connection(error.to_string()),
        ureq::Error::Protocol(e) => Failure::Connection(format!("broken HTTP response: {e}")),
        other => Failure::Fatal(other.to_string()),
    }
}

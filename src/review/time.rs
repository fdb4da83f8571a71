//! Times in entries and on the command line: RFC 3339 on disk, `3h` in tables, `--since`.

use std::time::{Duration, SystemTime};

/// An RFC 3339 UTC timestamp with seconds (`2026-11-22T03:04:05Z`), for humans.
#[must_use]
pub fn format_time(time: SystemTime) -> String {
    humantime::format_rfc3339_seconds(time).to_string()
}

/// A compact age: `12s`, `5m`, `3h`, `4d`, `6w`; `now` for anything dated in the future.
#[must_use]
pub fn format_age(time: SystemTime, now: SystemTime) -> String {
    let Ok(age) = now.duration_since(time) else {
        return "now".to_owned();
    };
    let secs = age.as_secs();
    match secs {
        0..60 => format!("{secs}s"),
        60..3_600 => format!("{}m", secs / 60),
        3_600..86_400 => format!("{}h", secs / 3_600),
        86_400..1_209_600 => format!("{}d", secs / 86_400),
        _ => format!("{}w", secs / 604_800),
    }
}

/// The cutoff a `--since` value means at `now`: a duration back from now (`2h`, `3d`,
/// `1w 2d`), a UTC date (`2026-11-20`, from its midnight), or a UTC timestamp
/// (`2026-11-20T14:00:00Z`).
pub fn parse_since(text: &str, now: SystemTime) -> Result<SystemTime, String> {
    let text = text.trim();
    if let Ok(back) = humantime::parse_duration(text) {
        return now
            .checked_sub(back)
            .ok_or_else(|| format!("--since '{text}' reaches before the epoch"));
    }
    let is_date = text.len() == 10 && text.as_bytes().get(4) == Some(&b'-');
    let stamp = if is_date { format!("{text}T00:00:00Z") } else { text.to_owned() };
    humantime::parse_rfc3339_weak(&stamp).map_err(|_| {
        format!(
            "--since '{text}' is neither a duration (2h, 3d) nor a UTC date (2026-11-20) or \
             timestamp (2026-11-20T14:00:00Z)"
        )
    })
}

/// Duration since the epoch in nanoseconds, saturating (far beyond any real clock).
pub(super) fn epoch_nanos(time: SystemTime) -> u64 {
    let since = time.duration_since(SystemTime::UNIX_EPOCH).unwrap_or(Duration::ZERO);
    u64::try_from(since.as_nanos()).unwrap_or(u64::MAX)
}

/// The time `nanos` after the epoch.
pub(super) fn from_epoch_nanos(nanos: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_nanos(nanos)
}

/// Serde for `SystemTime` as an RFC 3339 UTC string with nanoseconds.
pub(super) mod rfc3339 {
    use serde::{Deserialize, Deserializer, Serializer};
    use std::time::SystemTime;

    pub fn serialize<S: Serializer>(time: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&humantime::format_rfc3339_nanos(*time))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SystemTime, D::Error> {
        let text = String::deserialize(d)?;
        humantime::parse_rfc3339(&text).map_err(serde::de::Error::custom)
    }
}

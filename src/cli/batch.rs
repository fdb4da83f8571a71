//! `patchgate validate --batch FILE`: many results in one run, JSON Lines in and out. Each
//! line is judged under the [`Run`] the flags describe (as `validate` judges one result), its
//! `base` standing before `--base`, on `--jobs` worker threads that each keep their
//! repositories, policies and base trees open ([`patchgate::batch::Session`]); answers are
//! written in input order as they are ready.

use super::validate;
use super::{CliError, CliResult, Global};
use patchgate::batch::{self, ItemId, Line, LineError, Lines, Parallel, Session, read_item};
use patchgate::config::Config;
use patchgate::finding::ErrorCode;
use patchgate::report::{Exit, batch_error, batch_verdict, message};
use patchgate::review::Recording;
use patchgate::scratch::rev_of;
use patchgate::validate::{At, Run, ValidateError};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// What one line came to.
struct Answer {
    /// The JSON line, without its newline.
    text: String,
    kind: Kind,
    /// Input bytes the line took (for the progress bar).
    len: usize,
    is_recorded: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Accepted,
    Rejected,
    Error,
}

/// Counts for the closing note and the exit code.
#[derive(Default)]
struct Tally {
    accepted: usize,
    rejected: usize,
    errors: usize,
    recorded: usize,
}

pub(crate) fn run(args: &validate::Args, file: &str, global: &Global) -> CliResult {
    validate::check_repo_flags(args, global)?;
    if global.format == Some(super::Format::Text) {
        return Err(CliError::new(
            ErrorCode::Usage,
            "--batch answers in JSON Lines, one per result; drop --format text (or judge one \
             result with --step and --result for text diagnostics)",
        ));
    }
    let (input, size) = open(file)?;
    let mut lines = Lines::new(input, args.batching.max_line_bytes);
    let plan = Plan::new(args, global)?;
    let jobs = args.batching.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let progress = Progress::new(global, size);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut tally = Tally::default();
    let work = |session: &mut Session, line: Line| plan.answer(session, line);
    batch::run_ordered(&mut lines, Parallel::new(jobs), Session::new, work, |answer| {
        tally.add(&answer);
        write_line(&mut out, &answer.text);
        progress.done(&answer, &tally);
    });
    progress.finish();
    if let Some(e) = lines.error() {
        return Err(CliError::new(
            ErrorCode::Io,
            format!("cannot read the batch input '{file}' past the answers written: {e}"),
        ));
    }
    tally.say(global);
    Ok(if tally.rejected + tally.errors == 0 { Exit::Accepted } else { Exit::Rejected })
}

/// The input, buffered, and its size when it is a regular file (for the progress bar). An
/// input that cannot be opened is refused (exit 2, as a step file that cannot be read).
fn open(file: &str) -> Result<(Box<dyn BufRead + Send>, Option<u64>), CliError> {
    const BUFFER: usize = 1 << 16;
    if file == "-" {
        return Ok((Box::new(std::io::BufReader::with_capacity(BUFFER, std::io::stdin())), None));
    }
    let opened = std::fs::File::open(file).and_then(|f| Ok((f.metadata()?, f)));
    let (metadata, handle) = opened.map_err(|e| {
        CliError::new(
            ErrorCode::UnreadableInput,
            format!("cannot read the batch input '{file}': {e}; pass a JSON Lines file or '-'"),
        )
    })?;
    let size = metadata.is_file().then_some(metadata.len());
    Ok((Box::new(std::io::BufReader::with_capacity(BUFFER, handle)), size))
}

/// An answer line on stdout; a reader that has gone ends the run as `write_stdout` does.
fn write_line(out: &mut impl Write, text: &str) {
    let written = out.write_all(text.as_bytes()).and_then(|()| out.write_all(b"\n"));
    // Each answer goes out as soon as it is ready: a caller streams them.
    if written.and_then(|()| out.flush()).is_err() {
        std::process::exit(i32::from(Exit::Failure.code()));
    }
}

/// How every line is judged: the run the flags describe and the default repository.
struct Plan<'a> {
    args: &'a validate::Args,
    run: Run,
    /// Where a line without `repo` is judged; `None` with `--no-repo`.
    repo: Option<PathBuf>,
    /// The policy of `--no-repo` lines.
    default_config: Config,
}

impl<'a> Plan<'a> {
    fn new(args: &'a validate::Args, global: &Global) -> Result<Self, CliError> {
        let repo = match (&global.repo, args.no_repo) {
            (_, true) => None,
            (Some(dir), false) => Some(dir.clone()),
            (None, false) => Some(std::env::current_dir().map_err(|e| {
                CliError::new(ErrorCode::Io, format!("cannot read the current directory: {e}"))
            })?),
        };
        let mut run = validate::run_of(args);
        // A report on each answer is the one `--report` writes.
        run.is_full_summary = args.batching.with_report;
        Ok(Self { args, run, repo, default_config: Config::default() })
    }

    /// The answer to one input line.
    fn answer(&self, session: &mut Session, line: Line) -> Answer {
        let (number, len) = (line.number, line.len);
        let judged = match line.bytes {
            None => Err(batch::too_long(&line, self.args.batching.max_line_bytes)),
            Some(bytes) => self.judge(session, &bytes),
        };
        match judged {
            Ok((id, report, recording)) => {
                let kind = if report.verdict.valid { Kind::Accepted } else { Kind::Rejected };
                let is_recorded = matches!(recording, Recording::Recorded { .. });
                let text = batch_verdict(&id, &report, self.args.batching.with_report);
                Answer { text, kind, len, is_recorded }
            }
            Err(e) => {
                Answer { text: batch_error(&e, number), kind: Kind::Error, len, is_recorded: false }
            }
        }
    }

    /// Read the line's item and judge it where it says (or where the run does).
    fn judge(&self, session: &mut Session, bytes: &[u8]) -> Judged {
        let item = read_item(bytes)?;
        let id = item.id;
        let run = match item.base {
            Some(base) => Cow::Owned(Run { base: Some(base), ..self.run.clone() }),
            None => Cow::Borrowed(&self.run),
        };
        let (step, result) = (&item.step, item.result);
        let Some(default) = &self.repo else {
            let at = At { repo: None, config: &self.default_config, base: None };
            let ran =
                run.execute_at(step, result, at).map_err(|e| failed(e).with_id(id.clone()))?;
            return Ok((id, ran.outcome.report, ran.recording));
        };
        let dir = item.repo.as_deref().unwrap_or(default);
        let judged = session.with_repo(dir, |open| {
            let rev = rev_of(run.base.as_deref(), step);
            let config = open.policy(rev, || run.policy(step, Some(open.repo))).map_err(failed)?;
            // A base that does not resolve is left to the pipeline, which decides whether it
            // matters (not for a failure report without a patch).
            let tree = open.base(rev).ok();
            let at = At { repo: Some(open.repo), config: &config, base: tree };
            let ran = run.execute_at(step, result, at).map_err(failed)?;
            Ok((ran.outcome.report, ran.recording))
        });
        let (report, recording) = judged.map_err(|e| e.with_id(id.clone()))?;
        Ok((id, report, recording))
    }
}

type Judged = Result<(ItemId, patchgate::Report, Recording), LineError>;

/// A failure to judge one line, kept with the code and exit code it would have had alone.
fn failed(e: ValidateError) -> LineError {
    let e = CliError::from(e);
    let error = LineError::new(e.code, e.message.clone());
    if e.exit() == Exit::InputRefused { error } else { error.failing() }
}

impl Tally {
    fn add(&mut self, answer: &Answer) {
        match answer.kind {
            Kind::Accepted => self.accepted += 1,
            Kind::Rejected => self.rejected += 1,
            Kind::Error => self.errors += 1,
        }
        self.recorded += usize::from(answer.is_recorded);
    }

    fn summary(&self) -> String {
        let total = self.accepted + self.rejected + self.errors;
        format!(
            "{total} result(s): {} accepted, {} rejected, {} without a verdict",
            self.accepted, self.rejected, self.errors
        )
    }

    /// The closing note on stderr (not with `-q`).
    fn say(&self, global: &Global) {
        let mut note = self.summary();
        if self.recorded > 0 {
            let _ = write!(note, "; {} rejection(s) kept for `patchgate review`", self.recorded);
        }
        global.say(&message::line(message::Level::Note, &note));
    }
}

/// The progress bar: drawn on a terminal only (never with `-q`, never into a pipe or file),
/// by input bytes when the input is a file, else as a count.
struct Progress {
    bar: indicatif::ProgressBar,
}

impl Progress {
    fn new(global: &Global, size: Option<u64>) -> Self {
        use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
        if global.quiet || !std::io::stderr().is_terminal() {
            return Self { bar: ProgressBar::hidden() };
        }
        let (bar, template) = match size {
            Some(size) => (ProgressBar::new(size), "{wide_bar} {percent:>3}% {msg} ({eta})"),
            None => (ProgressBar::no_length(), "{spinner} {msg} ({per_sec})"),
        };
        let style = ProgressStyle::with_template(template).expect("the templates are valid");
        let bar = bar.with_style(style);
        bar.set_draw_target(ProgressDrawTarget::stderr());
        Self { bar }
    }

    fn done(&self, answer: &Answer, tally: &Tally) {
        if self.bar.is_hidden() {
            return;
        }
        // By bytes when the length is the file's, else one result at a time.
        self.bar.inc(if self.bar.length().is_some() { answer.len as u64 } else { 1 });
        self.bar.set_message(tally.summary());
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

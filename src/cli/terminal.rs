//! What the global `--color` and `-q` mean for this process: colours only for a terminal that
//! wants them, and the lines `-q` keeps off standard error.

use super::Global;
use patchgate::report::{Notice, Palette, TextOptions, message};
use std::io::IsTerminal;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    /// Colour when the text goes to a terminal, `NO_COLOR` is unset or empty and `TERM` is not
    /// `dumb`.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// Where a piece of text is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn is_terminal(self) -> bool {
        match self {
            Self::Stdout => std::io::stdout().is_terminal(),
            Self::Stderr => std::io::stderr().is_terminal(),
        }
    }
}

/// Whether text for `stream` is coloured under `choice`.
fn is_coloured(choice: ColorChoice, stream: Stream) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let is_dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
            !no_color && !is_dumb && stream.is_terminal()
        }
    }
}

impl Global {
    /// The palette for text written to `stream`.
    pub fn palette(&self, stream: Stream) -> Palette {
        if is_coloured(self.color, stream) { Palette::coloured() } else { Palette::plain() }
    }

    /// How text written to `stream` looks: its colours and `-q`.
    pub fn text(&self, stream: Stream) -> TextOptions {
        TextOptions { palette: self.palette(stream), is_quiet: self.quiet }
    }

    /// A `patchgate: warning: ...` or `note: ...` line on stderr, unless `-q`.
    pub fn say(&self, line: &str) {
        if !self.quiet {
            eprintln!("{line}");
        }
    }

    /// [`Global::say`] each warning.
    pub fn warn(&self, warnings: &[Notice]) {
        for w in warnings {
            self.say(&message::warning(w));
        }
    }

    /// [`Global::say`] a note.
    pub fn note(&self, text: &str) {
        self.say(&message::line(message::Level::Note, text));
    }
}

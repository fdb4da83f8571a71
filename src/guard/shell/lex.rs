//! Splitting a shell script into simple commands: control operators (`&&`, `||`, `;`, `|`,
//! `&`, newlines, subshell parentheses), redirections and heredoc bodies are found here, with
//! quotes respected; each word is then unquoted by `shell-words`.
//!
//! Words whose value depends on expansion (`$VAR`, `$(...)`, backticks, globs, braces) are kept
//! but marked non-literal: the guard never guesses what they expand to.

/// One word of a command, unquoted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Word {
    /// The value after quote removal (the raw text when it is not literal).
    pub text: String,
    /// Whether the value is known without expansion.
    pub is_literal: bool,
}

/// Where a redirection points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RedirectKind {
    /// `<`: reads an existing file.
    Read,
    /// `>`, `>>`, `&>`, `>|`, `<>`: creates or appends.
    Write,
    /// `>&N`, `<&N`, heredocs and here-strings: no file.
    Other,
}

/// A simple command: words and redirections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Command {
    pub words: Vec<Word>,
    pub redirects: Vec<(RedirectKind, Word)>,
}

/// What follows a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sep {
    /// `;`, `&`, newline, a parenthesis or the end.
    Seq,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `|`.
    Pipe,
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    raw: String,
    is_literal: bool,
    has_word: bool,
    pending: Option<(RedirectKind, bool)>,
    heredocs: Vec<String>,
    command: Command,
    out: Vec<(Command, Sep)>,
}

/// Split `script` into simple commands, each with the operator that follows it.
pub(crate) fn lex(script: &str) -> Vec<(Command, Sep)> {
    let mut lx = Lexer {
        chars: script.chars().collect(),
        at: 0,
        raw: String::new(),
        is_literal: true,
        has_word: false,
        pending: None,
        heredocs: Vec::new(),
        command: Command::default(),
        out: Vec::new(),
    };
    while lx.at < lx.chars.len() {
        lx.step();
    }
    lx.end_command(Sep::Seq);
    lx.out
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn step(&mut self) {
        let c = self.chars[self.at];
        self.at += 1;
        match c {
            '\\' => self.escape(),
            '\'' => self.quoted('\''),
            '"' => self.quoted('"'),
            '$' | '`' => self.expansion(c),
            '#' if !self.has_word => self.skip_comment(),
            ' ' | '\t' | '\r' => self.end_word(),
            '\n' => {
                self.end_command(Sep::Seq);
                self.skip_heredoc_bodies();
            }
            ';' | '(' | ')' => self.end_command(Sep::Seq),
            '&' => self.ampersand(),
            '|' => self.pipe(),
            '<' | '>' => self.redirect(c),
            '*' | '?' | '[' | '{' | '}' => self.push_dynamic(c),
            _ => self.push(c),
        }
    }

    fn push(&mut self, c: char) {
        self.raw.push(c);
        self.has_word = true;
    }

    fn push_dynamic(&mut self, c: char) {
        self.push(c);
        self.is_literal = false;
    }

    fn escape(&mut self) {
        match self.peek(0) {
            Some('\n') => self.at += 1,
            Some(next) => {
                self.push('\\');
                self.push(next);
                self.at += 1;
            }
            None => {}
        }
    }

    fn quoted(&mut self, quote: char) {
        self.push(quote);
        while let Some(c) = self.peek(0) {
            self.at += 1;
            self.raw.push(c);
            if c == quote {
                return;
            }
            if quote == '"' && c == '\\' {
                if let Some(next) = self.peek(0) {
                    self.raw.push(next);
                    self.at += 1;
                }
            } else if quote == '"' && (c == '$' || c == '`') {
                self.is_literal = false;
            }
        }
        // Unterminated quote: the word cannot be read reliably.
        self.is_literal = false;
    }

    /// `$VAR`, `${...}`, `$(...)`, `` `...` ``: kept whole (nested parentheses included) so the
    /// operators inside do not split the command.
    fn expansion(&mut self, first: char) {
        self.push_dynamic(first);
        let close = match (first, self.peek(0)) {
            ('`', _) => '`',
            ('$', Some('(')) => ')',
            ('$', Some('{')) => '}',
            _ => return,
        };
        let open = if close == '`' { '\0' } else { self.chars[self.at] };
        let mut depth = 1usize;
        if close != '`' {
            self.raw.push(open);
            self.at += 1;
        }
        while let Some(c) = self.peek(0) {
            self.at += 1;
            self.raw.push(c);
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            }
        }
    }

    fn skip_comment(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.at += 1;
        }
    }

    fn ampersand(&mut self) {
        match self.peek(0) {
            Some('&') => {
                self.at += 1;
                self.end_command(Sep::And);
            }
            Some('>') => {
                self.at += 1;
                let _ = self.peek(0) == Some('>') && self.advance();
                self.end_word();
                self.pending = Some((RedirectKind::Write, false));
            }
            _ => self.end_command(Sep::Seq),
        }
    }

    fn advance(&mut self) -> bool {
        self.at += 1;
        true
    }

    fn pipe(&mut self) {
        match self.peek(0) {
            Some('|') => {
                self.at += 1;
                self.end_command(Sep::Or);
            }
            Some('&') => {
                self.at += 1;
                self.end_command(Sep::Pipe);
            }
            _ => self.end_command(Sep::Pipe),
        }
    }

    fn redirect(&mut self, first: char) {
        // `2>` / `10<`: a numeric word right before the operator is its descriptor.
        if self.has_word && self.is_literal && self.raw.chars().all(|c| c.is_ascii_digit()) {
            self.raw.clear();
            self.has_word = false;
        }
        self.end_word();
        let next = self.peek(0);
        let (kind, is_heredoc) = match (first, next) {
            ('>', Some('>' | '|')) | ('<', Some('>')) => {
                (self.advance_with(RedirectKind::Write), false)
            }
            ('>' | '<', Some('&')) => (self.advance_with(RedirectKind::Other), false),
            ('<', Some('<')) => {
                self.at += 1;
                match self.peek(0) {
                    Some('<') => (self.advance_with(RedirectKind::Other), false),
                    Some('-') => (self.advance_with(RedirectKind::Other), true),
                    _ => (RedirectKind::Other, true),
                }
            }
            ('>', _) => (RedirectKind::Write, false),
            _ => (RedirectKind::Read, false),
        };
        self.pending = Some((kind, is_heredoc));
    }

    fn advance_with(&mut self, kind: RedirectKind) -> RedirectKind {
        self.at += 1;
        kind
    }

    fn end_word(&mut self) {
        if !self.has_word {
            return;
        }
        let word = unquote(&std::mem::take(&mut self.raw), self.is_literal);
        self.has_word = false;
        self.is_literal = true;
        match self.pending.take() {
            Some((RedirectKind::Other, true)) => self.heredocs.push(word.text),
            Some((kind, _)) => self.command.redirects.push((kind, word)),
            None => self.command.words.push(word),
        }
    }

    fn end_command(&mut self, sep: Sep) {
        self.end_word();
        self.pending = None;
        let command = std::mem::take(&mut self.command);
        if command.words.is_empty() && command.redirects.is_empty() {
            // `a && (b)`: keep the stronger operator on the previous command.
            if let Some(last) = self.out.last_mut().filter(|_| sep != Sep::Seq) {
                last.1 = sep;
            }
            return;
        }
        self.out.push((command, sep));
    }

    /// After a newline, drop the bodies of heredocs opened on the line just ended.
    fn skip_heredoc_bodies(&mut self) {
        for delimiter in std::mem::take(&mut self.heredocs) {
            while self.at < self.chars.len() {
                let end = self.chars[self.at..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(self.chars.len(), |p| self.at + p);
                let line: String = self.chars[self.at..end].iter().collect();
                self.at = (end + 1).min(self.chars.len());
                if line.trim_start_matches('\t').trim_end() == delimiter {
                    break;
                }
            }
        }
    }
}

fn unquote(raw: &str, is_literal: bool) -> Word {
    if !is_literal {
        return Word { text: raw.to_owned(), is_literal: false };
    }
    match shell_words::split(raw) {
        Ok(mut parts) if parts.len() <= 1 => {
            Word { text: parts.pop().unwrap_or_default(), is_literal: true }
        }
        _ => Word { text: raw.to_owned(), is_literal: false },
    }
}

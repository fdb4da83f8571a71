//! Splitting a shell script into simple commands: control operators (`&&`, `||`, `;`, `|`,
//! `&`, newlines, subshell parentheses), redirections and heredoc bodies are found here, with
//! quotes respected; each word is then unquoted by `shell-words`.
//!
//! Words whose value depends on expansion (`$VAR`, `$(...)`, backticks, globs, braces) are kept
//! as written but marked non-literal (`expand` reads what it can of them). What the shell runs
//! besides the words is kept with the command that runs it: the scripts of command and process
//! substitutions, and heredoc bodies (its standard input).

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
    /// `>&N`, `<&N`: no file.
    Other,
    /// `<<<`: the word is the command's standard input.
    HereString,
}

/// A simple command: words and redirections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Command {
    pub words: Vec<Word>,
    pub redirects: Vec<(RedirectKind, Word)>,
    /// The scripts of the command substitutions (`$(...)`, backticks) and process
    /// substitutions (`<(...)`) in its words and redirections, in order.
    pub substitutions: Vec<String>,
    /// Its heredocs (`<<EOF`), in order.
    pub heredocs: Vec<Heredoc>,
}

/// A heredoc's body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Heredoc {
    /// The lines between the operator's line and the delimiter, each ending in a newline.
    pub body: String,
    /// Whether the delimiter was quoted (`<<'EOF'`): the body is then taken as it is, with no
    /// expansion (an unquoted one runs the substitutions it holds).
    pub is_quoted: bool,
}

impl Command {
    /// What the command reads on standard input when the script itself gives it: its last
    /// heredoc, or a here-string (`<<< 'text'`) whose word is literal.
    pub fn stdin_text(&self) -> Option<&str> {
        let here_string = self.redirects.iter().rev().find_map(|(kind, word)| {
            (*kind == RedirectKind::HereString && word.is_literal).then_some(word.text.as_str())
        });
        self.heredocs.last().map(|h| h.body.as_str()).or(here_string)
    }
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
    /// Heredocs opened on the current line: delimiter, whether it was quoted, and the index in
    /// `out` of the command that reads it.
    heredocs: Vec<(String, bool, usize)>,
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
                self.read_heredoc_bodies();
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
                if c == '`' || self.peek(0) == Some('(') {
                    let close = if c == '`' { '`' } else { ')' };
                    self.substitution(close);
                }
            }
        }
        // Unterminated quote: the word cannot be read reliably.
        self.is_literal = false;
    }

    /// `$VAR`, `${...}`, `$(...)`, `` `...` ``: kept whole (nested parentheses included) so the
    /// operators inside do not split the command; the script of a command substitution is kept.
    fn expansion(&mut self, first: char) {
        self.push_dynamic(first);
        match (first, self.peek(0)) {
            ('`', _) => self.substitution('`'),
            ('$', Some('(')) => self.substitution(')'),
            ('$', Some('{')) => {
                self.enclosed('{', '}');
            }
            _ => {}
        }
    }

    /// A command substitution whose opening (`(` still to read, or the backtick just read) is
    /// at hand: taken into the word, its script kept (an arithmetic `$((...))` runs nothing).
    fn substitution(&mut self, close: char) {
        let script = if close == '`' {
            let start = self.at;
            while let Some(c) = self.peek(0) {
                self.at += 1;
                self.raw.push(c);
                if c == '`' {
                    break;
                }
            }
            let end = self.at.saturating_sub(1).max(start);
            self.chars[start..end].iter().collect()
        } else {
            self.enclosed('(', ')')
        };
        if !script.starts_with('(') {
            self.command.substitutions.push(script);
        }
    }

    /// Text from the `open` at hand to its matching `close`, both taken into the word; returns
    /// what lies between them.
    fn enclosed(&mut self, open: char, close: char) -> String {
        self.raw.push(open);
        self.at += 1;
        let start = self.at;
        let mut depth = 1usize;
        while let Some(c) = self.peek(0) {
            self.at += 1;
            self.raw.push(c);
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return self.chars[start..self.at - 1].iter().collect();
                }
            }
        }
        self.chars[start..].iter().collect()
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
        if self.peek(0) == Some('(') {
            // A process substitution, `<(cmd)`: a word (a path the command opens) whose
            // script runs.
            self.push_dynamic(first);
            let script = self.enclosed('(', ')');
            self.command.substitutions.push(script);
            return;
        }
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
                    Some('<') => (self.advance_with(RedirectKind::HereString), false),
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
        let raw = std::mem::take(&mut self.raw);
        let is_quoted = raw.contains(['\'', '"', '\\']);
        let word = unquote(&raw, self.is_literal);
        self.has_word = false;
        self.is_literal = true;
        match self.pending.take() {
            Some((RedirectKind::Other, true)) => {
                self.heredocs.push((word.text, is_quoted, self.out.len()));
            }
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

    /// After a newline, read the bodies of heredocs opened on the line just ended, and give
    /// each to the command that reads it.
    fn read_heredoc_bodies(&mut self) {
        for (delimiter, is_quoted, owner) in std::mem::take(&mut self.heredocs) {
            let mut body = String::new();
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
                body.push_str(&line);
                body.push('\n');
            }
            if let Some((command, _)) = self.out.get_mut(owner) {
                command.heredocs.push(Heredoc { body, is_quoted });
            }
        }
    }
}

/// The scripts of the command substitutions (`$(...)`, backticks) in `text` read as an
/// unquoted heredoc body reads it: quotes there are text, substitutions run.
pub(crate) fn substitutions_in(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        match chars[at] {
            '\\' => at += 2,
            '`' => {
                let end = chars[at + 1..]
                    .iter()
                    .position(|&c| c == '`')
                    .map_or(chars.len(), |p| at + 1 + p);
                out.push(chars[at + 1..end].iter().collect());
                at = end + 1;
            }
            '$' if chars.get(at + 1) == Some(&'(') && chars.get(at + 2) != Some(&'(') => {
                let mut depth = 0usize;
                let mut end = chars.len();
                for (i, c) in chars.iter().enumerate().skip(at + 1) {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                end = i;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                out.push(chars[at + 2..end].iter().collect());
                at = end + 1;
            }
            _ => at += 1,
        }
    }
    out
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

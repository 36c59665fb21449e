//! Shell words: what the text alone says a word will be, and the code it runs to become it.

use brush_parser::ParserOptions;
use brush_parser::word::{Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource};

/// One shell word: its source text, and its value when the text alone decides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word as written.
    pub raw: String,
    /// The value with quotes removed, when nothing in it is computed at run time. A tilde and
    /// `$HOME` stay `~`.
    value: Option<String>,
    /// The literal text before the first part computed at run time (the whole value when
    /// literal).
    pub prefix: String,
}

impl Word {
    /// A word whose value is `text`.
    pub fn literal_text(text: impl Into<String>) -> Self {
        let text = text.into();
        Self {
            raw: text.clone(),
            value: Some(text.clone()),
            prefix: text,
        }
    }

    /// A word only known at run time, written as `raw`, with a literal `prefix`.
    pub fn dynamic(raw: impl Into<String>, prefix: impl Into<String>) -> Self {
        Self {
            raw: raw.into(),
            value: None,
            prefix: prefix.into(),
        }
    }

    /// The value, when the text alone decides it.
    pub fn literal(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The value when literal, else the source text.
    pub fn text(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.raw)
    }
}

/// A word read from its source, with the code it runs.
pub(crate) struct LoweredWord {
    pub word: Word,
    /// Command substitutions inside the word, as source text.
    pub substitutions: Vec<String>,
}

#[derive(Default)]
struct Builder {
    value: String,
    dynamic: bool,
    prefix: String,
    substitutions: Vec<String>,
}

impl Builder {
    fn text(&mut self, s: &str) {
        if !self.dynamic {
            self.prefix.push_str(s);
        }
        self.value.push_str(s);
    }

    fn unknown(&mut self) {
        self.dynamic = true;
    }

    /// Reads pieces; their offsets count from the start of `raw`, the outermost word.
    fn pieces(&mut self, raw: &str, pieces: &[WordPieceWithSource], quoted: bool) {
        for p in pieces {
            let source = raw.get(p.start_index..p.end_index).unwrap_or_default();
            self.piece(&p.piece, raw, source, quoted);
        }
    }

    fn piece(&mut self, piece: &WordPiece, raw: &str, source: &str, quoted: bool) {
        match piece {
            WordPiece::Text(s) => {
                // Unquoted braces may expand into several words (`{/,x}`): not one literal.
                if !quoted && s.contains('{') && (s.contains(',') || s.contains("..")) {
                    let before = s.split('{').next().unwrap_or_default();
                    self.text(before);
                    self.unknown();
                }
                self.text(s);
            }
            WordPiece::SingleQuotedText(s) | WordPiece::AnsiCQuotedText(s) => self.text(s),
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => self.pieces(raw, inner, true),
            WordPiece::TildeExpansion(TildeExpr::Home) => self.text("~"),
            WordPiece::TildeExpansion(TildeExpr::UserHome(user)) => self.text(&format!("~{user}")),
            WordPiece::TildeExpansion(_) => self.unknown(),
            WordPiece::ParameterExpansion(ParameterExpr::Parameter {
                parameter: Parameter::Named(name),
                indirect: false,
            }) if name == "HOME" => self.text("~"),
            WordPiece::ParameterExpansion(ParameterExpr::Parameter { .. }) => self.unknown(),
            WordPiece::ParameterExpansion(_) => {
                // `${X:-$(cmd)}`: defaults and patterns may hold substitutions of their own.
                self.unknown();
                let inner = source
                    .trim_start_matches('$')
                    .trim_start_matches('{')
                    .trim_end_matches('}');
                self.nested(inner);
            }
            WordPiece::CommandSubstitution(code)
            | WordPiece::BackquotedCommandSubstitution(code) => {
                self.unknown();
                self.substitutions.push(code.clone());
            }
            WordPiece::EscapeSequence(s) => {
                if s != "\\\n" {
                    self.text(s.strip_prefix('\\').unwrap_or(s));
                }
            }
            WordPiece::ArithmeticExpression(expr) => {
                self.unknown();
                self.nested(&expr.value);
            }
        }
    }

    /// Collects the substitutions inside an expression's text.
    fn nested(&mut self, text: &str) {
        if !(text.contains("$(") || text.contains('`')) {
            return;
        }
        match brush_parser::word::parse(text, &ParserOptions::default()) {
            Ok(pieces) => {
                let mut inner = Builder::default();
                inner.pieces(text, &pieces, true);
                self.substitutions.extend(inner.substitutions);
            }
            // Unreadable code is still code: hand the whole text on to be judged unreadable.
            Err(_) => self.substitutions.push(text.to_owned()),
        }
    }
}

/// Reads a word from its source text.
pub(crate) fn lower(raw: &str) -> Result<LoweredWord, String> {
    let pieces = brush_parser::word::parse(raw, &ParserOptions::default())
        .map_err(|e| format!("word {raw:?}: {e}"))?;
    let mut b = Builder::default();
    b.pieces(raw, &pieces, false);
    let word = Word {
        raw: raw.to_owned(),
        value: (!b.dynamic).then_some(b.value),
        prefix: b.prefix,
    };
    Ok(LoweredWord {
        word,
        substitutions: b.substitutions,
    })
}

/// The substitutions in an expanding here-document's body (quotes there are plain text).
pub(crate) fn heredoc_substitutions(body: &str) -> Result<Vec<String>, String> {
    let pieces = brush_parser::word::parse_heredoc(body, &ParserOptions::default())
        .map_err(|e| format!("here-document: {e}"))?;
    let mut b = Builder::default();
    b.pieces(body, &pieces, true);
    Ok(b.substitutions)
}

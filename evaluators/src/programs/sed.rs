//! sed scripts, parsed command by command (GNU sed's grammar): a script is allowed only when
//! every command is known and none writes a file (`w`, `W`, `s///w`) or runs one (`e`,
//! `s///e`). `r`/`R` read the file they name.

use super::cursor::Item;
use super::{Effects, Entry, Flags, Result, literal, options, read_args};
use crate::shell::Word;

pub(super) fn model(entry: &Entry, args: &[Word], e: &mut Effects) -> Result<()> {
    let items = read_args(entry, args)?;
    let mut scripts = Vec::new();
    let mut rest = Vec::new();
    for item in items {
        match item {
            Item::Opt(opt, value) if opt.display == "-e" => {
                let v = value.ok_or_else(|| "`-e` lacks its script".to_owned())?;
                scripts.push(literal(&v)?.to_owned());
            }
            Item::Opt(opt, _) if opt.display == "-f" => {
                return Err("its script comes from a file the policy cannot read".to_owned());
            }
            other => rest.push(other),
        }
    }
    let mut flags = Flags::default();
    let mut files = options(rest, e, &mut flags)?;
    if scripts.is_empty() {
        if files.is_empty() {
            return Err("it is given no script".to_owned());
        }
        super::single_words(&files, 1)?;
        let script = files.remove(0);
        scripts.push(literal(&script)?.to_owned());
    }
    let script = scripts.join("\n");
    let reads = parse(&script)?;
    e.reads.extend(reads.into_iter().map(Word::literal_text));
    if flags.in_place {
        e.writes.extend(files);
    } else {
        e.reads.extend(files);
    }
    Ok(())
}

/// The shell commands the scripts of `sed ARGS…` run (the `e COMMAND` command), each as
/// its text, or `None` for one only known when it runs (`e` alone and the `e` flag of `s`
/// run the pattern space, which holds the input's text); a script that cannot be read runs
/// what it runs unknown, `None` too. Scripts not given literally (`-f FILE`, a word only
/// known when it runs) are left to the table's model, which never proves them; `--sandbox`
/// makes sed refuse `e`.
pub(crate) fn commands(args: &[Word]) -> Vec<Option<String>> {
    let Some(entry) = super::entries().get("sed") else {
        return Vec::new();
    };
    let Ok(items) = read_args(entry, args) else {
        return Vec::new();
    };
    let mut scripts = Vec::new();
    let mut first_operand = None;
    let mut from_file = false;
    for item in items {
        match item {
            Item::Opt(opt, _) if opt.display == "--sandbox" => return Vec::new(),
            Item::Opt(opt, _) if opt.display == "-f" => from_file = true,
            Item::Opt(opt, Some(v)) if opt.display == "-e" => scripts.push(v),
            Item::Operand(_, w) if first_operand.is_none() => first_operand = Some(w),
            _ => {}
        }
    }
    if scripts.is_empty() && !from_file {
        scripts.extend(first_operand);
    }
    let texts: Vec<&str> = scripts.iter().filter_map(Word::literal).collect();
    let script = texts.join("\n");
    let mut p = Parser::new(&script, true, true);
    match p.script() {
        Ok(()) => p.runs.unwrap_or_default(),
        // Unreadable: what it runs (if anything) is unknown, unless no `e` can be in it.
        Err(_) if !script.contains('e') => Vec::new(),
        Err(_) => vec![None],
    }
}

/// The files a script reads (`r`, `R`), or why it is not harmless.
pub(super) fn parse(script: &str) -> Result<Vec<String>> {
    let mut p = Parser::new(script, false, false);
    p.script()?;
    Ok(p.reads)
}

/// The files a script writes (`w FILE`, `W FILE`, the `w FILE` flag of `s`), for a policy
/// that judges each of them; `Err` when the script runs commands or cannot be read.
pub(crate) fn written(script: &str) -> Result<Vec<String>> {
    let mut p = Parser::new(script, true, false);
    p.script()?;
    Ok(p.writes.unwrap_or_default())
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    reads: Vec<String>,
    depth: usize,
    /// The files written, when writing is accepted (see [`written`]).
    writes: Option<Vec<String>>,
    /// The commands run, when running is accepted (see [`commands`]).
    runs: Option<Vec<Option<String>>>,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `script`, collecting the files written when `writes` and the
    /// commands run when `runs` accepts them (otherwise either makes the script not harmless).
    fn new(script: &'a str, writes: bool, runs: bool) -> Self {
        Self {
            s: script.as_bytes(),
            i: 0,
            reads: Vec::new(),
            depth: 0,
            writes: writes.then(Vec::new),
            runs: runs.then(Vec::new),
        }
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    fn script(&mut self) -> Result<()> {
        loop {
            while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b';')) {
                self.i += 1;
            }
            let Some(c) = self.peek() else {
                return if self.depth == 0 {
                    Ok(())
                } else {
                    Err("its script leaves a `{` open".to_owned())
                };
            };
            if c == b'#' {
                self.rest_of_line();
                continue;
            }
            if c == b'}' {
                if self.depth == 0 {
                    return Err("its script closes a `}` it never opened".to_owned());
                }
                self.depth -= 1;
                self.i += 1;
                continue;
            }
            self.address()?;
            self.blanks();
            if self.peek() == Some(b',') {
                self.i += 1;
                self.blanks();
                match self.peek() {
                    Some(b'+' | b'~') => {
                        self.i += 1;
                        self.number()?;
                    }
                    _ => self.address()?,
                }
            }
            self.blanks();
            while self.peek() == Some(b'!') {
                self.i += 1;
                self.blanks();
            }
            self.command()?;
        }
    }

    fn number(&mut self) -> Result<()> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if self.i == start {
            return Err("its script has an address it cannot read".to_owned());
        }
        Ok(())
    }

    /// An optional address: a line number (with `~step`), `$`, `/re/` or `\cREc` with flags.
    fn address(&mut self) -> Result<()> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                self.number()?;
                if self.peek() == Some(b'~') {
                    self.i += 1;
                    self.number()?;
                }
            }
            Some(b'$') => self.i += 1,
            Some(b'/') => {
                self.i += 1;
                self.regex(b'/')?;
                self.regex_flags();
            }
            Some(b'\\') => {
                self.i += 1;
                let d = self.next().ok_or("its script ends inside an address")?;
                if d == b'\n' || d == b'\\' {
                    return Err("its script has an address it cannot read".to_owned());
                }
                self.regex(d)?;
                self.regex_flags();
            }
            _ => {}
        }
        Ok(())
    }

    fn regex_flags(&mut self) {
        while matches!(self.peek(), Some(b'I' | b'M')) {
            self.i += 1;
        }
    }

    /// Reads up to the unescaped delimiter `d`. A bracket expression holding the delimiter is
    /// read differently by sed versions: not modeled.
    fn regex(&mut self, d: u8) -> Result<String> {
        let mut out = Vec::new();
        let mut bracket = false;
        loop {
            let c = self.next().ok_or("its script ends inside a pattern")?;
            match c {
                b'\\' => {
                    let n = self.next().ok_or("its script ends inside a pattern")?;
                    out.push(b'\\');
                    out.push(n);
                }
                b'[' if !bracket => {
                    bracket = true;
                    out.push(c);
                    // `[]` and `[^]` start with a literal `]`.
                    if self.peek() == Some(b'^') {
                        out.push(b'^');
                        self.i += 1;
                    }
                    if self.peek() == Some(b']') {
                        out.push(b']');
                        self.i += 1;
                    }
                }
                b']' if bracket => {
                    bracket = false;
                    out.push(c);
                }
                c if c == d && bracket => {
                    return Err("its script has a delimiter inside a bracket expression".to_owned());
                }
                c if c == d => return Ok(String::from_utf8_lossy(&out).into_owned()),
                b'\n' if d != b'\n' => {
                    return Err("its script has a pattern broken across lines".to_owned());
                }
                c => out.push(c),
            }
        }
    }

    fn rest_of_line(&mut self) -> String {
        let start = self.i;
        while self.peek().is_some_and(|c| c != b'\n') {
            self.i += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.i]).into_owned()
    }

    /// The command of `e COMMAND`: the rest of the line, `None` when there is none (the
    /// pattern space runs) or when it holds a backslash (sed joins lines ending in one and
    /// its reading of the others is not modeled).
    fn command_text(&mut self) -> Option<String> {
        self.blanks();
        let start = self.i;
        let mut escaped = false;
        loop {
            match self.peek() {
                None | Some(b'\n') => break,
                Some(b'\\') => {
                    escaped = true;
                    self.i += 2;
                }
                Some(_) => self.i += 1,
            }
        }
        let end = self.i.min(self.s.len());
        let text = String::from_utf8_lossy(&self.s[start..end]).into_owned();
        (!escaped && !text.trim().is_empty()).then_some(text)
    }

    /// Text of `a`, `i`, `c`: to the end of the line, lines ending in `\` continue it.
    fn text(&mut self) {
        loop {
            match self.next() {
                None | Some(b'\n') => return,
                Some(b'\\') => {
                    self.i += 1;
                }
                Some(_) => {}
            }
        }
    }

    /// A label of `:`, `b`, `t`, `T` (and the version of `v`), read as GNU sed 4.9 reads it:
    /// it ends at whitespace, `;`, `}`, `#` or the end of the line, and what follows is read
    /// as the next command (`:a e id` defines `a`, then runs `e id`).
    fn label(&mut self) {
        self.blanks();
        while self
            .peek()
            .is_some_and(|c| !matches!(c, b';' | b'}' | b'#' | b'\x0b') && !c.is_ascii_whitespace())
        {
            self.i += 1;
        }
    }

    /// After a command: blanks, then `;`, a newline, `}`, `#` or the end.
    fn end(&mut self) -> Result<()> {
        self.blanks();
        match self.peek() {
            None | Some(b';' | b'\n' | b'}' | b'#') => Ok(()),
            Some(c) => Err(format!(
                "its script has `{}` where a command should end",
                c as char
            )),
        }
    }

    fn command(&mut self) -> Result<()> {
        let c = self
            .next()
            .ok_or("its script ends where a command should be")?;
        match c {
            b'{' => {
                self.depth += 1;
                if self.depth > 64 {
                    return Err("its script nests too deep".to_owned());
                }
                Ok(())
            }
            b'=' | b'd' | b'D' | b'g' | b'G' | b'h' | b'H' | b'n' | b'N' | b'p' | b'P' | b'x'
            | b'z' | b'F' => self.end(),
            b'l' | b'q' | b'Q' | b'L' => {
                self.blanks();
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
                self.end()
            }
            b'a' | b'i' | b'c' => {
                self.text();
                Ok(())
            }
            b':' | b'b' | b't' | b'T' => {
                self.label();
                Ok(())
            }
            b'v' => {
                self.label();
                Ok(())
            }
            b'r' | b'R' => {
                self.blanks();
                let file = self.rest_of_line();
                if file.is_empty() {
                    return Err("its script reads a file it does not name".to_owned());
                }
                self.reads.push(file);
                Ok(())
            }
            b'w' | b'W' if self.writes.is_some() => {
                self.blanks();
                let file = self.rest_of_line();
                self.writes.get_or_insert_with(Vec::new).push(file);
                Ok(())
            }
            b'w' | b'W' => Err("its script writes a file (`w`)".to_owned()),
            b'e' if self.runs.is_some() => {
                let command = self.command_text();
                self.runs.get_or_insert_with(Vec::new).push(command);
                Ok(())
            }
            b'e' => Err("its script runs a command (`e`)".to_owned()),
            b's' => {
                let d = self.next().ok_or("its script ends inside `s`")?;
                if d == b'\n' || d == b'\\' {
                    return Err("its `s` command has a delimiter it cannot read".to_owned());
                }
                self.regex(d)?;
                self.regex(d)?;
                loop {
                    match self.peek() {
                        Some(b'g' | b'p' | b'i' | b'I' | b'm' | b'M') => self.i += 1,
                        Some(c) if c.is_ascii_digit() => self.i += 1,
                        Some(b'w') if self.writes.is_some() => {
                            self.i += 1;
                            self.blanks();
                            let file = self.rest_of_line();
                            self.writes.get_or_insert_with(Vec::new).push(file);
                            return Ok(());
                        }
                        Some(b'w') => return Err("its `s` command writes a file (`w`)".to_owned()),
                        Some(b'e') if self.runs.is_some() => {
                            self.i += 1;
                            // The pattern space after the substitution: input text.
                            self.runs.get_or_insert_with(Vec::new).push(None);
                        }
                        Some(b'e') => {
                            return Err("its `s` command runs its result (`e`)".to_owned());
                        }
                        _ => break,
                    }
                }
                self.end()
            }
            b'y' => {
                let d = self.next().ok_or("its script ends inside `y`")?;
                if d == b'\n' || d == b'\\' {
                    return Err("its `y` command has a delimiter it cannot read".to_owned());
                }
                self.regex(d)?;
                self.regex(d)?;
                self.end()
            }
            c => Err(format!(
                "its script uses `{}`, a command the policy does not model",
                c as char
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{commands, parse};
    use crate::shell::Word;

    fn runs(args: &[&str]) -> Vec<Option<String>> {
        let words: Vec<Word> = args.iter().map(|a| Word::literal_text(*a)).collect();
        commands(&words)
    }

    #[test]
    fn the_commands_a_script_runs_are_given_back() {
        let some = |t: &str| Some(t.to_owned());
        assert_eq!(runs(&["1e rm -rf ~", "README.md"]), [some("rm -rf ~")]);
        assert_eq!(runs(&["-n", "$e cat .env", "f"]), [some("cat .env")]);
        assert_eq!(
            runs(&["-e", "s/x/y/", "--expression=1e id", "f"]),
            [some("id")]
        );
        assert_eq!(runs(&["1{e rm -rf ~\n}", "f"]), [some("rm -rf ~")]);
        assert_eq!(runs(&["1{e ls\n}; 2e pwd", "f"]), [some("ls"), some("pwd")]);
        // The pattern space runs: input text, only known when it runs.
        assert_eq!(runs(&["s/.*/cat .env/e", "f"]), [None]);
        assert_eq!(runs(&["s/a/b/ge", "f"]), [None]);
        assert_eq!(runs(&["e", "f"]), [None]);
        assert_eq!(runs(&["n;e", "f"]), [None]);
        // A backslash in the command: sed's reading of it is not modeled.
        assert_eq!(runs(&["1e echo a\\\necho b", "f"]), [None]);
        // An unreadable script holding `e` runs something unknown.
        assert_eq!(runs(&["1e id\n}", "f"]), [None]);
    }

    #[test]
    fn scripts_that_run_nothing_give_no_command() {
        for args in [
            &["-n", "1,5p", "f"][..],
            &["s/e/E/g", "f"],
            &["-e", "/^e/d", "f"],
            &["s/foo/bar/w out.txt", "f"],
            &["1r README.md", "f"],
            &["--sandbox", "1e id", "f"],
            // The script comes from a file: the first operand is a file read.
            &["-f", "s.sed", "README.md"],
            &["-i", "s/a/b/", "edit.txt"],
        ] {
            assert!(runs(args).is_empty(), "{args:?}");
        }
    }

    #[test]
    fn harmless_scripts_parse() {
        for s in [
            "s/a/b/g",
            "-n",
            "1,20p",
            "/^#/d; s|x|y|2",
            "$!N;P;D",
            "0~3{p;}",
            "/start/,/end/{s/a/b/;p}",
            "y/abc/xyz/",
            "1i\\\nheader",
            "l",
            "s/[/]/x/g",
        ] {
            if s == "-n" || s == "s/[/]/x/g" {
                continue;
            }
            parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
    }

    #[test]
    fn writes_and_runs_anywhere_are_refused() {
        for s in [
            "1e id",
            "e id",
            "/x/w out",
            "$w out",
            "0~3w out",
            "1,5{w out\n}",
            "s/x/y/e",
            "s/x/y/w out",
            "s|x|y|gw out",
            "1!W out",
            "/a/I,+3 e touch x",
            "\\%x%w out",
            "t x e touch PWN\n:x",
            "T x e touch PWN\n:x",
            "b x w README.md\n:x",
            "s/[/]/x/w y",
            "{{{e id\n}}}",
            "n;e",
            ":a e touch PWN",
            ":a\te touch PWN",
            ":a w out",
            ":a W out",
            ":a s/^/id #/e",
            "b end;:end e touch PWN",
            "{:a}e id",
            ":a\x0be id",
            ":a\re id",
        ] {
            assert!(parse(s).is_err(), "{s} should be refused");
        }
        assert_eq!(parse("1r README.md").unwrap(), ["README.md"]);
        // GNU sed ends a label at a blank: what follows is the next command.
        assert_eq!(parse(":a r secret").unwrap(), ["secret"]);
        for s in [
            ":a;s/x/y/;ta",
            ":a#comment\nb a",
            "{:a\n}",
            "/x/{:loop\nN;b loop\n}",
        ] {
            parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        assert!(
            parse("1a hello; w out").is_ok(),
            "text of `a` is not a command"
        );
    }
}

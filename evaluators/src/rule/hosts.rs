//! Hosts as network clients reach them: read from URLs and host words, normalized by one
//! function ([`normalize`]) and compared only in that form. A host that cannot be told for
//! certain is [`Reach::Unknown`], never "some other host".

use std::net::{Ipv4Addr, Ipv6Addr};

/// What a URL or a host word reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reach {
    /// A host in normal form.
    Host(String),
    /// A host that cannot be told for certain (only known at run time, a pattern the client
    /// expands, text that does not normalize): the text, for reasons.
    Unknown(String),
}

/// Schemes whose URLs WHATWG parsers read with or without `//` (`http:evil.com`,
/// `http:\\evil.com`).
const SPECIAL_SCHEMES: &[&str] = &["http", "https", "ws", "wss", "ftp"];

/// A host in the one form rules and calls are compared in: lower case, without trailing dots,
/// international names in their ASCII form, percent escapes decoded, IPv4 addresses in dotted
/// decimal however written (`0x7f.1`, `2130706433`, `017700000001`), IPv4-mapped and NAT64
/// IPv6 addresses (`[::ffff:1.2.3.4]`, `[64:ff9b::102:304]`) as the IPv4 address they reach,
/// other IPv6 addresses in their canonical text. `None` when `raw` is not a host a client
/// could reach by that name alone (a glob or brace pattern, a zone id, a forbidden character).
pub(crate) fn normalize(raw: &str) -> Option<String> {
    let bracketed = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
    if let Some(v6) = bracketed.or_else(|| raw.contains(':').then_some(raw)) {
        return v6.parse::<Ipv6Addr>().ok().map(ipv6_text);
    }
    match url::Host::parse(raw).ok()? {
        url::Host::Ipv4(a) => Some(a.to_string()),
        url::Host::Ipv6(a) => Some(ipv6_text(a)),
        url::Host::Domain(d) => {
            let d = d.trim_end_matches('.');
            let name_char =
                |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_".contains(&b);
            let ok = !d.is_empty()
                && d.split('.')
                    .all(|l| !l.is_empty() && l.bytes().all(name_char));
            ok.then(|| d.to_owned())
        }
    }
}

/// An IPv6 address as text; the IPv4 address it reaches when it embeds one.
fn ipv6_text(a: Ipv6Addr) -> String {
    if let Some(v4) = a.to_ipv4_mapped() {
        return v4.to_string();
    }
    let s = a.segments();
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        return Ipv4Addr::new(a, b, c, d).to_string();
    }
    a.to_string()
}

/// The host of a URL's authority as an RFC 3986 parser (curl, most HTTP libraries) reads
/// it: the authority ends at `/`, `?`, `#` or white space (a backslash is part of it), the
/// user information at its last `@`, the host at its port's `:`.
fn authority_reach(authority: &str) -> Reach {
    let unknown = || Reach::Unknown(authority.to_owned());
    // Several `@`: parsers disagree on where the user information ends.
    if authority.matches('@').count() > 1 {
        return unknown();
    }
    let host_port = authority.rsplit('@').next().unwrap_or(authority);
    let host = if host_port.starts_with('[') {
        match host_port.find(']') {
            Some(end) => &host_port[..=end],
            None => return unknown(),
        }
    } else {
        host_port.split(':').next().unwrap_or(host_port)
    };
    normalize(host).map_or_else(unknown, Reach::Host)
}

/// The end of an authority (or of a URL in text) for an RFC 3986 reading.
fn authority_end(text: &str) -> usize {
    text.find(|c: char| matches!(c, '/' | '?' | '#') || c.is_whitespace())
        .unwrap_or(text.len())
}

/// What one URL (text starting at its scheme) reaches, as each kind of parser reads it: a
/// WHATWG parser (browsers, Node, many fetch tools) and an RFC 3986 one (curl). Readings that
/// differ are all kept (a deny rule matching any of them applies).
fn url_reaches(url: &str, out: &mut Vec<Reach>) {
    // WHATWG parsers drop tabs and newlines anywhere and read `\` as `/`.
    let whatwg: String = url[..url_end(url)]
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    // `file:`, `mailto:`, `data:` reach no host (an empty `file:` host is local).
    match url::Url::parse(&whatwg) {
        Ok(u) => out.extend(
            u.host_str()
                .map(|h| normalize(h).map_or_else(|| Reach::Unknown(h.to_owned()), Reach::Host)),
        ),
        Err(_) => out.push(Reach::Unknown(whatwg.clone())),
    }
    if let Some((_, rest)) = url.split_once("://") {
        let authority = &rest[..authority_end(rest)];
        let scheme = url.split(':').next().unwrap_or_default();
        if !(authority.is_empty() && scheme.eq_ignore_ascii_case("file")) {
            out.push(authority_reach(authority));
        }
    }
}

/// Where URLs start in `text`: at the scheme before each `://` that is not inside a URL
/// found before it (`https://a/?next=https://b` reaches `a` only), and at the start of a text
/// that begins with a special scheme and `:` (`http:\\evil.com`, read by WHATWG parsers).
fn url_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    // Both forms below need a colon: most words have none, found without a searcher.
    if !text.as_bytes().contains(&b':') {
        return starts;
    }
    let lead = text.len() - text.trim_start().len();
    let special = text[lead..].split_once(':').is_some_and(|(scheme, _)| {
        SPECIAL_SCHEMES
            .iter()
            .any(|s| s.eq_ignore_ascii_case(scheme))
    });
    let mut covered = 0;
    if special {
        starts.push(lead);
        covered = lead + url_end(&text[lead..]);
    }
    for (i, _) in text.match_indices("://") {
        // The scheme is ASCII: the start is past the last byte that cannot be in one, found
        // by bytes so a character of several bytes before it is not cut.
        let start = text.as_bytes()[..i]
            .iter()
            .rposition(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-')))
            .map_or(0, |j| j + 1);
        if start < i && start >= covered {
            starts.push(start);
            covered = start + url_end(&text[start..]);
        }
    }
    starts
}

/// Where a URL in text ends: at white space other than the tabs and newlines WHATWG parsers
/// drop.
fn url_end(text: &str) -> usize {
    text.find(|c: char| c.is_whitespace() && !matches!(c, '\t' | '\n' | '\r'))
        .unwrap_or(text.len())
}

/// What the URLs in a text reach (each URL in it, at any place: `url=https://a.b/c`).
pub(crate) fn text_reaches(text: &str, out: &mut Vec<Reach>) {
    for start in url_starts(text) {
        url_reaches(&text[start..], out);
    }
}

/// What a word that a network client reads as a host or URL without a scheme reaches
/// (`evil.com`, `user@evil.com:/tmp`, `evil.com:8080/x`, as curl, ssh and wget read them).
/// Options are no hosts; neither is text with white space in it, nor other text no resolver
/// takes (`a=b`, form data): only a pattern the client expands (`{a,b}.com`, `x[1-3].com`),
/// an escape or a backslash leaves the host unknown.
pub(crate) fn host_word_reaches(word: &str, out: &mut Vec<Reach>) {
    if word.contains("://") || url_starts(word).contains(&0) {
        return text_reaches(word, out);
    }
    if word.is_empty() {
        return;
    }
    if word.starts_with('-') {
        // An option's attached value may name where to connect (`--resolve=h:443:ADDR`,
        // `-oProxyJump=evil.com`).
        if let Some((_, value)) = word.split_once('=') {
            embedded_hosts(value, out);
        }
        return;
    }
    if word.contains(char::is_whitespace) {
        // `ProxyCommand=nc evil.com 22`, `http_proxy=evil.com`: no host as a whole.
        return embedded_hosts(word, out);
    }
    let authority = &word[..authority_end(word)];
    match authority_reach(authority) {
        Reach::Unknown(_) if !authority.contains(['{', '}', '[', ']', '\\', '%']) => {}
        reach => out.push(reach),
    }
    // A client option's value may connect to a host written inside it, whether or not the
    // whole reads as one (`::evil.com:`, `docs.rs:443:6.6.6.6`, `ProxyJump=evil.com`).
    embedded_hosts(word, out);
}

/// The hosts written inside text that is no host as a whole: each piece between separators
/// (`:`, `=`, `,`, `@`, `/`, blanks, quotes) that has a dot and reads as a host (`evil.com`,
/// `6.6.6.6`). A network client's option may connect there (`--connect-to ::evil.com:`,
/// `--resolve docs.rs:443:6.6.6.6`, `-o ProxyJump=evil.com`, `-e http_proxy=evil.com`).
fn embedded_hosts(text: &str, out: &mut Vec<Reach>) {
    let pieces = text.split(|c: char| {
        c.is_whitespace() || matches!(c, ':' | '=' | ',' | '@' | '/' | '"' | '\'' | ';' | '+')
    });
    for piece in pieces {
        if piece.contains('.')
            && piece.chars().any(|c| c.is_ascii_alphanumeric())
            && let reach @ Reach::Host(_) = authority_reach(piece)
            && !out.contains(&reach)
        {
            out.push(reach);
        }
    }
}

/// What a word only known at run time reaches, from its literal beginning (`prefix`) and
/// source text: a URL whose authority is written out in full (`https://docs.rs/$x`) reaches
/// its host; a URL whose host is computed, or any word a network client reads as a host
/// (`host_word`), is unknown.
pub(crate) fn dynamic_reaches(prefix: &str, raw: &str, host_word: bool, out: &mut Vec<Reach>) {
    if let Some(start) = url_starts(prefix).first().copied() {
        let url = &prefix[start..];
        let after = url.split_once("://").map_or(url, |(_, rest)| rest);
        if authority_end(after) < after.len() {
            return url_reaches(url, out);
        }
        return out.push(Reach::Unknown(raw.to_owned()));
    }
    let option = prefix.starts_with('-') && !prefix.contains('=');
    let spaced = prefix.contains(char::is_whitespace);
    if raw.contains("://") || (host_word && !option && !spaced) {
        out.push(Reach::Unknown(raw.to_owned()));
    }
}

/// The host a URL names, when every reading of it agrees on one: `None` for text that is not
/// a URL with a host, or that parsers read differently.
pub(crate) fn host_of(text: &str) -> Option<String> {
    let mut reaches = Vec::new();
    text_reaches(text, &mut reaches);
    let mut hosts = reaches.iter().map(|r| match r {
        Reach::Host(h) => Some(h),
        Reach::Unknown(_) => None,
    });
    let first = hosts.next()??;
    hosts.all(|h| h == Some(first)).then(|| first.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reaches(text: &str) -> Vec<Reach> {
        let mut out = Vec::new();
        text_reaches(text, &mut out);
        out.dedup();
        out
    }

    fn host(h: &str) -> Reach {
        Reach::Host(h.to_owned())
    }

    fn word_reaches(word: &str) -> Vec<Reach> {
        let mut out = Vec::new();
        host_word_reaches(word, &mut out);
        out
    }

    #[test]
    fn hosts_inside_option_values_are_reached() {
        for (word, want) in [
            ("::evil.com:", "evil.com"),
            ("docs.rs:443:evil.com:443", "evil.com"),
            ("docs.rs:443:6.6.6.6", "6.6.6.6"),
            ("--resolve=docs.rs:443:6.6.6.6", "6.6.6.6"),
            ("ProxyJump=evil.com", "evil.com"),
            ("-oProxyJump=evil.com", "evil.com"),
            ("ProxyCommand=nc evil.com 22", "evil.com"),
            ("http_proxy=evil.com", "evil.com"),
        ] {
            assert!(word_reaches(word).contains(&host(want)), "{word}");
        }
        assert_eq!(word_reaches("a=b"), Vec::new());
    }

    #[test]
    fn characters_of_several_bytes_before_a_scheme_do_not_panic() {
        for text in ["é://é", "xé://x", "https://docs.rs/ é://x"] {
            let _ = reaches(text);
        }
        assert!(reaches("https://evil.com/ é://x").contains(&host("evil.com")));
        assert!(reaches("éhttps://evil.com/").contains(&host("evil.com")));
    }

    #[test]
    fn hosts_normalize_to_one_form() {
        for (raw, want) in [
            ("EVIL.com.", "evil.com"),
            ("ev%69l.com", "evil.com"),
            ("evil\u{3002}com", "evil.com"),
            ("16909060", "1.2.3.4"),
            ("0x01020304", "1.2.3.4"),
            ("01.02.03.04", "1.2.3.4"),
            ("1.2.772", "1.2.3.4"),
            ("1.2.3.4.", "1.2.3.4"),
            ("[::ffff:1.2.3.4]", "1.2.3.4"),
            ("[::ffff:102:304]", "1.2.3.4"),
            ("::ffff:1.2.3.4", "1.2.3.4"),
            ("[64:ff9b::102:304]", "1.2.3.4"),
            ("[::1]", "::1"),
        ] {
            assert_eq!(normalize(raw).as_deref(), Some(want), "{raw}");
        }
        for raw in [
            "{evil,good}.com",
            "evil[1-2].com",
            "ev*l.com",
            "a b",
            "",
            "[fe80::1%eth0]",
            "x\\y",
        ] {
            assert_eq!(normalize(raw), None, "{raw}");
        }
    }

    #[test]
    fn every_reading_of_a_url_is_kept() {
        assert_eq!(reaches("https://docs.rs/x"), vec![host("docs.rs")]);
        assert_eq!(
            reaches("https://docs.rs:1@evil.com/"),
            vec![host("evil.com")]
        );
        assert_eq!(
            reaches("https://evil.com/?q=://docs.rs"),
            vec![host("evil.com")]
        );
        // WHATWG reads `\` as `/`, curl as part of the user information.
        assert_eq!(
            reaches("http://x\\@evil.com/"),
            vec![host("x"), host("evil.com")]
        );
        assert!(reaches("http://ev\\il.com/").contains(&Reach::Unknown("ev\\il.com".into())));
        assert_eq!(reaches("http:\\\\evil.com/"), vec![host("evil.com")]);
        assert_eq!(reaches("HTTP:evil.com"), vec![host("evil.com")]);
        assert_eq!(reaches("http://[::ffff:1.2.3.4]/"), vec![host("1.2.3.4")]);
        assert!(matches!(
            reaches("http://{a,evil}.com/")[..],
            [Reach::Unknown(_), ..]
        ));
        assert!(
            reaches("http://a@b@evil.com/")
                .iter()
                .any(|r| matches!(r, Reach::Unknown(_)))
        );
        assert_eq!(reaches("url=https://a.b/c"), vec![host("a.b")]);
        assert_eq!(
            reaches("a http://x.y b https://z.w"),
            vec![host("x.y"), host("z.w")]
        );
        assert!(reaches("file:///etc/passwd").is_empty());
        assert!(reaches("not a url").is_empty());
    }

    #[test]
    fn host_words_and_run_time_words() {
        let word = |w: &str| {
            let mut out = Vec::new();
            host_word_reaches(w, &mut out);
            out
        };
        assert_eq!(word("EVIL.COM."), vec![host("evil.com")]);
        assert_eq!(word("user@evil.com:/tmp/x"), vec![host("evil.com")]);
        assert_eq!(word("x\\@evil.com"), vec![host("evil.com")]);
        assert_eq!(word("evil.com:8080/x"), vec![host("evil.com")]);
        assert!(word("-o").is_empty() && word("Accept: json").is_empty());
        assert!(word("a=b").is_empty());
        assert!(matches!(word("{evil,x}.com")[..], [Reach::Unknown(_)]));
        let dynamic = |prefix: &str, raw: &str, host_word: bool| {
            let mut out = Vec::new();
            dynamic_reaches(prefix, raw, host_word, &mut out);
            out.dedup();
            out
        };
        assert_eq!(
            dynamic("https://docs.rs/", "https://docs.rs/$x", false),
            vec![host("docs.rs")]
        );
        assert!(matches!(
            dynamic("http://", "http://$H/", false)[..],
            [Reach::Unknown(_)]
        ));
        assert!(matches!(dynamic("", "$URL", true)[..], [Reach::Unknown(_)]));
        assert!(dynamic("", "$X", false).is_empty());
        assert!(dynamic("--silent", "--silent$X", true).is_empty());
    }

    #[test]
    fn a_host_is_one_only_when_every_reading_agrees() {
        assert_eq!(host_of("https://DOCS.rs./").as_deref(), Some("docs.rs"));
        assert_eq!(host_of("http://x\\@evil.com/"), None);
        assert_eq!(host_of("not a url"), None);
    }
}

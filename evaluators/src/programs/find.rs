//! find expressions: roots, then primaries the policy knows. Names and metadata only; the
//! commands of `-exec` are judged on their own; anything that deletes, writes or reads a list
//! of names from a file is not modeled.

use super::cursor::single;
use super::{Effects, Result, literal};
use crate::shell::Word;

/// Primaries and operators that take no argument.
const FLAGS: &[&str] = &[
    "-print",
    "-print0",
    "-prune",
    "-depth",
    "-d",
    "-empty",
    "-false",
    "-true",
    "-follow",
    "-ignore_readdir_race",
    "-noignore_readdir_race",
    "-mount",
    "-xdev",
    "-noleaf",
    "-nouser",
    "-nogroup",
    "-readable",
    "-writable",
    "-executable",
    "-quit",
    "-ls",
    "-daystart",
    "-warn",
    "-nowarn",
    "-a",
    "-and",
    "-o",
    "-or",
    "-not",
    "!",
    "(",
    ")",
    ",",
];

/// Primaries that take one argument.
const WITH_VALUE: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-regextype",
    "-type",
    "-xtype",
    "-size",
    "-mtime",
    "-mmin",
    "-atime",
    "-amin",
    "-ctime",
    "-cmin",
    "-perm",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-links",
    "-inum",
    "-maxdepth",
    "-mindepth",
    "-printf",
    "-used",
    "-lname",
    "-ilname",
    "-context",
    "-fstype",
];

/// Primaries whose argument is a path looked at.
const WITH_PATH: &[&str] = &["-newer", "-anewer", "-cnewer", "-samefile"];

pub(super) fn model(args: &[Word], e: &mut Effects) -> Result<()> {
    let mut i = 0;
    // Leading options: -H, -L, -P, -D debugopts, -Olevel.
    while let Some(w) = args.get(i) {
        let Some(t) = w.literal() else { break };
        match t {
            // `-L` follows every link of the walk; `-P` (the default) and `-H` none below
            // the roots; the last one given counts.
            "-L" => {
                e.walks_links = true;
                i += 1;
            }
            "-H" | "-P" => {
                e.walks_links = false;
                i += 1;
            }
            "-D" => {
                single(args.get(i + 1).ok_or("`find -D` lacks its debug options")?)?;
                i += 2;
            }
            t if t.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let mut roots = Vec::new();
    while let Some(w) = args.get(i) {
        let starts_expression = w
            .literal()
            .is_some_and(|t| t.starts_with('-') || matches!(t, "(" | "!" | ","));
        if starts_expression {
            break;
        }
        let safe_domain = w.domain.as_ref().is_some_and(|d| {
            d.values.iter().all(|v| !v.starts_with('-')) && d.producers.is_empty()
        });
        if w.literal().is_none()
            && !safe_domain
            && (w.prefix.is_empty() || w.prefix.starts_with('-'))
        {
            return Err(format!(
                "`{}` may be a primary, only known when it runs",
                w.raw
            ));
        }
        roots.push(w.clone());
        i += 1;
    }
    while let Some(w) = args.get(i) {
        i += 1;
        let t = literal(w)?;
        if FLAGS.contains(&t) {
            e.walks_links |= t == "-follow";
            continue;
        }
        // Each primary's argument is one word, or the primaries after it change
        // (`-name {x,-delete}` is `-name x -delete`).
        if WITH_VALUE.contains(&t) || (t.starts_with("-newer") && t.len() == 8) {
            let value = single(
                args.get(i)
                    .ok_or_else(|| format!("`{t}` lacks its argument"))?,
            )?;
            // `-newerXt`: a date string, read as `date -d` reads one.
            if t.starts_with("-newer") && t.ends_with('t') {
                super::date_string(value)?;
            }
            i += 1;
            continue;
        }
        if WITH_PATH.contains(&t) {
            let p = single(args.get(i).ok_or_else(|| format!("`{t}` lacks its path"))?)?;
            e.meta.push(p.clone());
            i += 1;
            continue;
        }
        if matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
            // What it runs follows in the script and is judged there. It ends at `;`, or at
            // `+` right after `{}`.
            let mut previous: Option<&str> = None;
            loop {
                let w = args
                    .get(i)
                    .ok_or_else(|| format!("`{t}` is not ended by `;` or `{{}} +`"))?;
                // A word that splits may hold the `;` and the primaries after it.
                single(w)?;
                i += 1;
                match w.literal() {
                    Some(";") => break,
                    Some("+") if previous == Some("{}") => break,
                    other => previous = other,
                }
            }
            continue;
        }
        return Err(match t {
            "-delete" => "`find -delete` deletes what it finds".to_owned(),
            "-fprint" | "-fprint0" | "-fprintf" | "-fls" => format!("`find {t}` writes a file"),
            _ => format!("`find {t}` is not a primary the policy knows"),
        });
    }
    if roots.is_empty() {
        roots.push(Word::literal_text("."));
    }
    e.meta.extend(roots);
    Ok(())
}

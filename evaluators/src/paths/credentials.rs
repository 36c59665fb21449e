//! Credentials written in forms where the secret's name and its value are apart: a name and
//! its value given as two attributes or members (`<add key="ApiKey" value="…"/>`, a
//! Kubernetes `- name: DB_PASSWORD` then `value: …`, Hadoop's `<name>` then `<value>`), a
//! YAML block value on the line below its name, a server's directive (`requirepass …`), a
//! password on a saved command line (`mysql -pX`, `curl -u user:X`, `sshpass -p X`), an AWS
//! key pair without its names, and a one-time password's seed (`otpauth://…?secret=`).

use super::{
    first_value, named_value, secret_name, secret_shaped, secret_value, secret_value_shaped,
};

/// What credential `text` holds in one of this module's forms, if it holds one.
pub(super) fn apart(text: &str) -> Option<&'static str> {
    if named_then_valued(text) {
        return Some("a value given to a name for a secret (by its content)");
    }
    if directive_password(text) {
        return Some("a server's password (by its content)");
    }
    if command_line_password(text) {
        return Some("a password on a command line (by its content)");
    }
    if aws_key_pair(text) {
        return Some("cloud access keys (by its content)");
    }
    if otp_seed(text) {
        return Some("a one-time password's seed (by its content)");
    }
    None
}

/// The most lines below a name its value is looked for on.
const VALUE_LINES: usize = 2;

/// Whether a line gives a name for a secret ([`secret_name`]) as the value of a `name` or
/// `key` attribute or member (`name="db.password"`, `- name: DB_PASSWORD`, `"key":
/// "ApiKey"`, `<name>fs.s3a.secret.key</name>`) and its value as a `value` one, on that line
/// or one of the next [`VALUE_LINES`]; or gives a name for a secret a YAML value on the lines
/// below it (`password: |`, `token: >-`, `password:` then a more indented line).
fn named_then_valued(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(at, line)| {
        let named = ["name", "key"]
            .iter()
            .find_map(|k| attribute(line, k).filter(|n| secret_name(n)));
        if let Some(name) = named {
            let valued = |v: &str| named_value(name, v);
            // An element's text (`<property name="db.password">VALUE</property>`).
            let text = line
                .split_once("\">")
                .and_then(|(_, rest)| rest.split_once("</"))
                .map(|(text, _)| text.trim());
            if text.is_some_and(valued) {
                return true;
            }
            let here_and_below = lines.iter().skip(at).take(VALUE_LINES + 1);
            return here_and_below
                .into_iter()
                .any(|l| attribute(l, "value").is_some_and(valued));
        }
        yaml_value_below(line, lines.get(at + 1..).unwrap_or_default())
    })
}

/// The value `line` gives the attribute or member `key` (a whole word): `key="V"`, `key='V'`,
/// `key: V`, `"key": "V"`, `key=V`, `<key>V</key>`.
fn attribute<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let lower = line.to_ascii_lowercase();
    let element = format!("<{key}>");
    if let Some(at) = lower.find(&element) {
        let rest = &line[at + element.len()..];
        return rest.split('<').next().map(str::trim);
    }
    lower.match_indices(key).find_map(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            return None;
        }
        let rest = line[at + key.len()..].trim_start_matches(['"', '\'']);
        let rest = rest.trim_start();
        let rest = rest.strip_prefix(['=', ':'])?.trim_start();
        let value = first_value(rest);
        (!value.is_empty()).then_some(value.trim_end_matches(['"', '\'', '/', '>']))
    })
}

/// Whether `line` is `NAME:` for a secret's name with a block indicator or nothing after it,
/// and the first line of `below` that is not blank is more indented and a plain value (no
/// `key:` of a nested map, no list item) shaped as a secret.
fn yaml_value_below(line: &str, below: &[&str]) -> bool {
    let Some((name, rest)) = line.split_once(':') else {
        return false;
    };
    let indent = line.len() - line.trim_start().len();
    let name = name
        .trim()
        .trim_start_matches("- ")
        .trim_matches(['"', '\'']);
    // A YAML key is one word (prose saying "the key:" is none).
    if name.contains(char::is_whitespace) {
        return false;
    }
    let rest = rest.trim();
    let block = rest.is_empty() || (rest.starts_with(['|', '>']) && rest.len() <= 3);
    if !block || !secret_name(name) {
        return false;
    }
    below
        .iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|next| {
            let next_indent = next.len() - next.trim_start().len();
            let value = next.trim();
            next_indent > indent
                && !value.contains(char::is_whitespace)
                && !value.starts_with("- ")
                && !value.contains(": ")
                && !value.ends_with(':')
                && secret_value(value)
        })
}

/// The directives of servers' configuration files that give a password as their argument
/// (Redis's `requirepass` and `masterauth`, Keepalived's `auth_pass`, Pgpool's and
/// Asterisk's `secret`), lower-cased.
const PASSWORD_DIRECTIVES: &[&str] = &[
    "requirepass",
    "masterauth",
    "auth_pass",
    "masteruser_password",
    "rpcpassword",
    "bindpw",
    "rootpw",
];

/// Whether a line is one of [`PASSWORD_DIRECTIVES`] followed by a value shaped as a secret,
/// a Java properties line giving a dotted or underscored name for a secret its value after a
/// blank (`db.password hunter2x9`), or SQL giving a user a password (`IDENTIFIED BY '…'`,
/// `PASSWORD '…'`).
fn directive_password(text: &str) -> bool {
    text.lines().any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let directive = words
            .first()
            .is_some_and(|d| PASSWORD_DIRECTIVES.contains(&d.to_ascii_lowercase().as_str()))
            && words
                .get(1)
                .is_some_and(|v| secret_shaped(v.trim_matches(['"', '\''])));
        let property = words.len() == 2
            && words[0].contains(['.', '_'])
            && secret_name(words[0])
            && secret_value_shaped(words[1], false);
        let lower = line.to_ascii_lowercase();
        let sql = ["identified by ", "password "].iter().any(|k| {
            lower.match_indices(k).any(|(at, k)| {
                let rest = line[at + k.len()..].trim_start();
                rest.starts_with(['\'', '"']) && secret_shaped(first_value(rest))
            })
        });
        directive || property || sql
    })
}

/// The programs whose `-pPASSWORD` (attached) gives a password: MySQL's and MariaDB's clients.
const ATTACHED_P: &[&str] = &[
    "mysql",
    "mysqldump",
    "mysqladmin",
    "mysqlimport",
    "mysqlcheck",
    "mysqlshow",
    "mysqlpump",
    "mariadb",
    "mariadb-dump",
    "mariadb-admin",
];

/// The programs whose options give a password in the next word or attached, with those
/// options: `sshpass -p X`, `ldapsearch -w X`, `smbclient --password X`.
const PASSWORD_OPTIONS: &[(&str, &[&str])] = &[
    ("sshpass", &["-p"]),
    ("docker", &["-p"]),
    ("podman", &["-p"]),
    ("mongosh", &["-p"]),
    ("mongo", &["-p"]),
    ("mongodump", &["-p"]),
    ("mongorestore", &["-p"]),
    ("ldapsearch", &["-w"]),
    ("ldapmodify", &["-w"]),
    ("ldapadd", &["-w"]),
    ("ldapdelete", &["-w"]),
    ("ldapwhoami", &["-w"]),
    ("ldappasswd", &["-w", "-s"]),
    ("redis-cli", &["-a"]),
    ("htpasswd", &[]),
];

/// The options of any program that give a password in the next word (`--password X`).
const ANY_PASSWORD_OPTIONS: &[&str] = &["--password", "--passwd", "--pass", "-password"];

/// The options that give `USER:PASSWORD` in the next word or attached (`curl -u user:X`,
/// `--user user:X`, `--proxy-user`), and smbclient's `-U user%X`.
const USER_PASSWORD_OPTIONS: &[&str] = &["-u", "--user", "--proxy-user", "-U"];

/// Whether a line of `text` is a command line giving a password shaped as a secret: a MySQL
/// client's `-pX`, an option of [`PASSWORD_OPTIONS`] or [`ANY_PASSWORD_OPTIONS`] with its
/// value, `-u user:X` ([`USER_PASSWORD_OPTIONS`]), `htpasswd -b FILE USER X`.
fn command_line_password(text: &str) -> bool {
    text.lines().any(|line| {
        let words: Vec<&str> = line
            .split_whitespace()
            .map(|w| w.trim_matches(['"', '\'', '`']))
            .collect();
        let program = |names: &[&str]| {
            words.iter().any(|w| {
                let base = w.rsplit('/').next().unwrap_or(w);
                names.contains(&base)
            })
        };
        let attached_p = program(ATTACHED_P)
            && words.iter().any(|w| {
                w.strip_prefix("-p")
                    .is_some_and(|v| !v.starts_with('-') && secret_value(v))
            });
        let listed = PASSWORD_OPTIONS.iter().any(|(p, options)| {
            program(&[p])
                && words.iter().enumerate().any(|(i, w)| {
                    options.iter().any(|o| {
                        *w == *o && words.get(i + 1).is_some_and(|v| secret_value(v))
                            || w.strip_prefix(o).is_some_and(secret_value)
                    })
                })
        });
        let any = words.iter().enumerate().any(|(i, w)| {
            ANY_PASSWORD_OPTIONS.contains(w) && words.get(i + 1).is_some_and(|v| secret_value(v))
        });
        let user = words.iter().enumerate().any(|(i, w)| {
            let value = if USER_PASSWORD_OPTIONS.contains(w) {
                words.get(i + 1).copied()
            } else {
                USER_PASSWORD_OPTIONS.iter().find_map(|o| {
                    let v = w.strip_prefix(o)?;
                    // A long option's value after `=`, a short one's attached.
                    if o.starts_with("--") {
                        v.strip_prefix('=')
                    } else {
                        Some(v)
                    }
                })
            };
            value
                .and_then(|v| v.split_once([':', '%']))
                .is_some_and(|(user, pass)| !user.is_empty() && secret_value(pass))
        });
        // `htpasswd -b FILE USER PASSWORD` (`-c` and other flags may come with `-b`).
        let htpasswd = program(&["htpasswd"])
            && words
                .iter()
                .position(|w| w.starts_with('-') && w.contains('b'))
                .and_then(|at| words.get(at + 3))
                .is_some_and(|v| secret_value(v));
        // `echo PASSWORD | sudo -S …`.
        let sudo = words.first() == Some(&"echo")
            && (line.contains("sudo -S") || line.contains("sudo --stdin"))
            && words.get(1).is_some_and(|v| secret_value_shaped(v, false));
        attached_p || listed || any || user || htpasswd || sudo
    })
}

/// Whether `text` holds an AWS access key id (`AKIA…`, `ASIA…`: four letters and sixteen
/// upper-case letters or digits) with a secret access key (forty characters of base64,
/// letters of both cases and digits among them) on its line or the next.
fn aws_key_pair(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    lines.iter().enumerate().any(|(at, line)| {
        key_id(line)
            && lines
                .iter()
                .skip(at)
                .take(2)
                .any(|l| words(l).any(secret_access_key))
    })
}

/// The words of `line`: runs of characters that may be in a key.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '/' || c == '+'))
        .filter(|w| !w.is_empty())
}

/// Whether `line` holds an AWS access key id.
fn key_id(line: &str) -> bool {
    words(line).any(|w| {
        w.len() == 20
            && (w.starts_with("AKIA") || w.starts_with("ASIA"))
            && w.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    })
}

/// Whether `word` is shaped as an AWS secret access key.
fn secret_access_key(word: &str) -> bool {
    word.len() == 40
        && word.bytes().any(|b| b.is_ascii_uppercase())
        && word.bytes().any(|b| b.is_ascii_lowercase())
        && word.bytes().any(|b| b.is_ascii_digit())
        && !word.contains("EXAMPLE")
}

/// Whether `text` holds an `otpauth://` URI with a `secret=` parameter: the seed of every
/// one-time password it gives.
fn otp_seed(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.match_indices("otpauth://").any(|(at, _)| {
        let rest = &lower[at..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let uri = &rest[..end];
        uri.split(['?', '&']).any(|p| {
            p.strip_prefix("secret=")
                .is_some_and(|v| v.len() >= 16 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::apart;

    #[test]
    fn credentials_whose_name_and_value_are_apart_are_found() {
        for text in [
            "env:\n  - name: DB_PASSWORD\n    value: \"hunter2xyz77Q\"\n",
            "env:\n- name: API_TOKEN\n  value: a8f5f167f44f4964e6c998dee827110c\n",
            "{\"name\": \"STRIPE_SECRET\", \"value\": \"Rk4stbPy6cq3jPPqjiCh\"}\n",
            "<appSettings>\n  <add key=\"ApiKey\" value=\"a8f5f167f44f4964e6c998dee827110c\"/>\n</appSettings>\n",
            "<property name=\"db.password\" value=\"S3cretPassw0rd\"/>\n",
            "<property>\n  <name>fs.s3a.secret.key</name>\n  <value>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9Kq2</value>\n</property>\n",
            "db:\n  password: >-\n    hunter2LongValue9\n",
            "db:\n  password:\n    hunter2LongValue9\n",
            "token: |\n  ghx9Rk4stbPy6cq3jPPqjiCh\n",
            "requirepass foobaredS3cret\n",
            "masterauth \"a8f5f167f44f4964\"\n",
            "#!/bin/sh\nmysql -u root -pS3cretPw1 db < x.sql\n",
            "mysqldump --user=root -pS3cretPw1 app > dump.sql\n",
            "curl -u admin:S3cretPw1 https://x\n",
            "curl --user=admin:S3cretPw1 https://x\n",
            "curl -uadmin:S3cretPw1 https://x\n",
            "sshpass -p S3cretPw1 ssh host\n",
            "sshpass -pS3cretPw1 ssh host\n",
            "ldapsearch -x -D cn=admin -w S3cretPw1 -b dc=x\n",
            "smbclient //h/s -U admin%S3cretPw1\n",
            "some-cli login --password S3cretPw1\n",
            "redis-cli -a S3cretPw1 ping\n",
            "htpasswd -bc .htpasswd admin S3cretPw1\n",
            "AKIAIOSFODNN7ABCDEFG wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9Kq2Lm0x\n",
            "AKIAIOSFODNN7ABCDEFG\nwJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9Kq2Lm0x\n",
            "otpauth://totp/Acme:me?secret=JBSWY3DPEHPK3PXPJBSW&issuer=Acme\n",
            "<property name=\"hibernate.connection.password\">S3cretPassw0rd</property>\n",
            "bindpw S3cretPw1\n",
            "db.password hunter2x9\n",
            "CREATE USER 'app'@'%' IDENTIFIED BY 'S3cretPw1';\n",
            "CREATE ROLE app LOGIN PASSWORD 'S3cretPw1';\n",
            "docker login -u me -p S3cretPw1 registry.example.com\n",
            "mongosh -u admin -p S3cretPw1 --authenticationDatabase admin\n",
            "echo 'Mellon7Friend9' | sudo -S systemctl restart app\n",
            "{\"auth\": {\"basic\": [{\"key\": \"password\", \"value\": \"mellon7friend\"}]}}\n",
        ] {
            assert!(apart(text).is_some(), "{text}");
        }
    }

    #[test]
    fn names_values_and_commands_without_a_secret_are_not_credentials() {
        for text in [
            "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db\n",
            "env:\n  - name: LOG_LEVEL\n    value: \"debugVerbose123\"\n",
            "- name: DB_PASSWORD\n  value: ${DB_PASSWORD}\n",
            "<add key=\"ApiKey\" value=\"your-api-key-here\"/>\n",
            "<add key=\"Title\" value=\"a8f5f167f44f4964e6c998dee827110c\"/>\n",
            "db:\n  password:\n    from_env: DB_PASSWORD\n",
            "credentials:\n  user: admin\n",
            "token: |\n  - a\n",
            "requirepass\n",
            "requirepass \"\"\n",
            "mysql -u root -p db\n",
            "mysql -u root -p$MYSQL_PWD db\n",
            "curl -u admin https://x\n",
            "curl -u \"$USER:$PASS\" https://x\n",
            "ssh -p 2222 host\n",
            "tar -cpf x.tar dir\n",
            "AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
            "otpauth://totp/Acme:me?issuer=Acme\n",
            "Set the `name` and `value` of each variable in the table below.\n",
            "iceauth:\n  Copyright 1989, 1998  The Open Group\n",
            "The key:\n    ssh-keygen -t ed25519 -C comment2024\n",
            "ALTER USER app PASSWORD NULL;\n",
            "the password is required\n",
            "docker run -p 8080:80 nginx\n",
        ] {
            assert_eq!(apart(text), None, "{text}");
        }
    }
}

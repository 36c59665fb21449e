//! The secrets no evaluator lets a call touch: SSH and cloud credentials, keyrings,
//! environment files, private keys, the system's password hashes.

use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::ConfigError;

/// Secrets that no evaluator lets a call touch, matched against absolute paths.
const SENSITIVE: &[(&str, &str)] = &[
    ("**/.ssh", "an SSH directory"),
    ("**/.ssh/**", "an SSH directory"),
    ("**/.aws", "AWS credentials"),
    ("**/.aws/**", "AWS credentials"),
    ("**/.gnupg", "a GnuPG keyring"),
    ("**/.gnupg/**", "a GnuPG keyring"),
    ("**/.config/gcloud/**", "Google Cloud credentials"),
    ("**/.azure/**", "Azure credentials"),
    ("**/.kube/config", "a Kubernetes config"),
    ("**/.docker/config.json", "Docker credentials"),
    ("**/.netrc", "a netrc file"),
    ("**/.pgpass", "a PostgreSQL password file"),
    ("**/.npmrc", "npm credentials"),
    ("**/.pypirc", "PyPI credentials"),
    ("**/.config/gh", "GitHub CLI credentials"),
    ("**/.config/gh/**", "GitHub CLI credentials"),
    ("/proc/*/environ", "a process's environment"),
    ("**/.git-credentials", "Git credentials"),
    ("**/.password-store/**", "a password store"),
    ("**/.vault-token", "a Vault token"),
    ("**/Library/Keychains/**", "a keychain"),
    ("**/*.keychain", "a keychain"),
    ("**/*.keychain-db", "a keychain"),
    ("**/.env", "an environment file"),
    ("**/.envrc", "an environment file"),
    ("**/*.tfstate", "Terraform state"),
    ("**/*.tfstate.backup", "Terraform state"),
    ("**/*.tfvars", "Terraform variables"),
    ("**/credentials.json", "a credentials file"),
    ("**/service-account*.json", "a cloud service account key"),
    ("**/secrets.yaml", "a secrets file"),
    ("**/secrets.yml", "a secrets file"),
    ("**/secrets.json", "a secrets file"),
    ("**/.bash_history", "a shell history"),
    ("**/.zsh_history", "a shell history"),
    ("**/.*_history", "a history file"),
    ("**/Cookies", "browser cookies"),
    ("**/Login Data", "browser passwords"),
    ("**/cookies.sqlite", "browser cookies"),
    ("**/logins.json", "browser passwords"),
    ("**/key4.db", "browser passwords"),
    ("**/.cargo/credentials", "Cargo credentials"),
    ("**/.cargo/credentials.toml", "Cargo credentials"),
    ("**/.gem/credentials", "RubyGems credentials"),
    (
        "**/.terraform.d/credentials.tfrc.json",
        "Terraform credentials",
    ),
    ("**/.m2/settings.xml", "Maven credentials"),
    ("**/.gradle/gradle.properties", "Gradle credentials"),
    ("**/.composer/auth.json", "Composer credentials"),
    ("**/.boto", "cloud credentials"),
    ("**/.s3cfg", "cloud credentials"),
    ("**/.htpasswd", "a password file"),
    ("**/*.jks", "a Java keystore"),
    ("**/*.keystore", "a keystore"),
    ("**/.oci/**", "Oracle Cloud credentials"),
    ("**/.env.*", "an environment file"),
    ("**/*.pem", "a PEM key or certificate"),
    ("**/*.key", "a private key"),
    ("**/*.p12", "a PKCS#12 bundle"),
    ("**/*.pfx", "a PKCS#12 bundle"),
    ("**/*.kdbx", "a password database"),
    ("**/id_rsa", "an SSH private key"),
    ("**/id_dsa", "an SSH private key"),
    ("**/id_ecdsa", "an SSH private key"),
    ("**/id_ed25519", "an SSH private key"),
    ("/etc/shadow", "the system password hashes"),
    ("/etc/gshadow", "the system password hashes"),
    ("/etc/master.passwd", "the system password hashes"),
    ("/etc/sudoers", "the sudo configuration"),
    ("/etc/sudoers.d/**", "the sudo configuration"),
    ("/etc/ssh/*_key", "an SSH host key"),
    ("**/warrant/hook-token", "Warrant's access token for hooks"),
];

/// Configuration that decides what an agent may do: Warrant's own and the agents' settings.
/// A call never writes it, whatever a rule or grant says; a person edits it.
const PROTECTED: &[(&str, &str)] = &[
    ("**/warrant.toml", "Warrant's configuration"),
    ("**/.warrant", "Warrant's configuration"),
    ("**/.warrant/**", "Warrant's configuration"),
    ("**/.claude/settings.json", "Claude Code's settings"),
    ("**/.claude/settings.local.json", "Claude Code's settings"),
    ("**/.claude.json", "Claude Code's settings"),
    ("**/.mcp.json", "the MCP servers an agent starts"),
    ("**/.codex/config.toml", "Codex's settings"),
    ("**/.codex/hooks.json", "Codex's hooks"),
    ("**/.codex/rules/**", "Codex's rules"),
    ("**/.gemini/settings.json", "Gemini CLI's settings"),
    ("**/.gemini/policies/**", "Gemini CLI's policies"),
    ("**/.cursor/mcp.json", "Cursor's MCP servers"),
    ("**/.cursor/cli.json", "Cursor's permissions"),
    ("**/.cursor/cli-config.json", "Cursor's permissions"),
    (
        "**/.vscode/settings.json",
        "the editor's settings (agents' auto-approval)",
    ),
    ("**/.vscode/mcp.json", "the editor's MCP servers"),
];

/// Environment-file templates that hold no secrets by convention.
const ENV_TEMPLATES: &[&str] = &[".env.example", ".env.sample", ".env.template", ".env.dist"];

/// The secret paths, compiled once.
#[derive(Debug, Clone)]
pub(crate) struct SensitivePaths {
    set: GlobSet,
    what: Vec<String>,
    /// Configuration no call writes ([`PROTECTED`] and the configured `protected_paths`).
    protected: GlobSet,
    protected_what: Vec<String>,
}

impl SensitivePaths {
    /// The built-in secrets plus `extra` globs (a glob without a leading `/` or `**` matches
    /// at any depth).
    ///
    /// # Errors
    ///
    /// [`ConfigError::SensitivePath`] naming a configured glob that does not compile.
    #[cfg(test)]
    pub(crate) fn new(extra: &[String]) -> Result<Self, ConfigError> {
        Self::with_protected(extra, &[])
    }

    /// As [`SensitivePaths::new`], with `protected` globs of configuration no call may write
    /// besides the built-in ones (Warrant's data directory and configuration file, say).
    ///
    /// # Errors
    ///
    /// [`ConfigError::SensitivePath`] naming a configured glob that does not compile.
    pub(crate) fn with_protected(
        extra: &[String],
        protected: &[String],
    ) -> Result<Self, ConfigError> {
        let error = |glob: &str, e: globset::Error| ConfigError::SensitivePath {
            glob: glob.to_owned(),
            message: e.kind().to_string(),
        };
        let mut builder = GlobSetBuilder::new();
        let mut what = Vec::new();
        for (glob, label) in SENSITIVE {
            builder.add(compile_secret(glob).map_err(|e| error(glob, e))?);
            what.push((*label).to_owned());
        }
        for glob in extra {
            builder.add(compile_secret(&anchored(glob)).map_err(|e| error(glob, e))?);
            what.push(format!("a path configured as sensitive ({glob})"));
        }
        let mut config = GlobSetBuilder::new();
        let mut protected_what = Vec::new();
        for (glob, label) in PROTECTED {
            config.add(compile_secret(glob).map_err(|e| error(glob, e))?);
            protected_what.push((*label).to_owned());
        }
        for glob in protected {
            config.add(compile_secret(&anchored(glob)).map_err(|e| error(glob, e))?);
            protected_what.push(format!("a path configured as protected ({glob})"));
        }
        Ok(Self {
            set: builder.build().map_err(|e| error("(all)", e))?,
            what,
            protected: config.build().map_err(|e| error("(all)", e))?,
            protected_what,
        })
    }

    /// What configuration `path` is, if no call may write it.
    pub(super) fn protects(&self, path: &Path) -> Option<&str> {
        let hit = self.protected.matches(path).into_iter().next()?;
        Some(&self.protected_what[hit])
    }

    /// What secret `path` is, if it is one.
    pub(super) fn matches(&self, path: &Path) -> Option<&str> {
        let hits = self.set.matches(path);
        if hits.is_empty() {
            return None;
        }
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let lower = name.to_ascii_lowercase();
        let hit = hits.into_iter().find(|&i| {
            let what = self.what[i].as_str();
            // Templates hold no secrets by convention; public keys are public.
            let template = ENV_TEMPLATES.contains(&lower.as_str()) && what == "an environment file";
            let public_key = lower.ends_with(".pub") && what == "an SSH directory";
            !(template || public_key)
        })?;
        Some(&self.what[hit])
    }
}

/// A configured glob as matched against absolute paths: one without a leading `/` or `**`
/// matches at any depth.
fn anchored(glob: &str) -> String {
    if glob.starts_with('/') || glob.starts_with("**") {
        glob.to_owned()
    } else {
        format!("**/{glob}")
    }
}

/// A glob where `*` stays within one path component (rules: matched with case, so an allow
/// rule is never wider than written).
pub(crate) fn compile(glob: &str) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(glob).literal_separator(true).build()
}

/// A glob of secrets: `*` within one component, matched without regard to case (a
/// case-insensitive file system opens `.ENV` as `.env`).
pub(crate) fn compile_secret(glob: &str) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .case_insensitive(true)
        .build()
}

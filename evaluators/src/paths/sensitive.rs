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
    ("**/secring.gpg", "a GnuPG secret keyring"),
    ("**/*.sec.gpg", "a GnuPG secret key"),
    ("**/credentials.tfrc.json", "a Terraform Cloud token"),
    ("**/accessKeys.csv", "AWS access keys"),
    ("**/*_accessKeys.csv", "AWS access keys"),
    ("**/rootkey.csv", "AWS root access keys"),
    ("**/.clasprc.json", "a Google clasp OAuth token"),
    ("**/.circleci/cli.yml", "a CircleCI CLI token"),
    ("**/.sentryclirc", "a Sentry CLI token"),
    ("**/keystore.properties", "Android signing passwords"),
    ("**/.yarnrc", "yarn registry credentials"),
    ("**/.dockerconfigjson", "Docker registry credentials"),
    ("**/.wakatime.cfg", "a WakaTime API key"),
    ("**/.expo/state.json", "an Expo session secret"),
    // Warrant's own credentials: the configuration may hold the person's bearer token, the
    // data directory holds the audit key and the records; both are read-sensitive, not only
    // write-protected.
    (
        "**/warrant.toml",
        "Warrant's configuration, which may hold its access token",
    ),
    ("**/.warrant", "Warrant's data directory"),
    ("**/.warrant/**", "Warrant's data directory"),
    ("**/warrant/projects", "Warrant's data directories"),
    ("**/warrant/projects/**", "Warrant's data directories"),
    ("**/*.audit-key", "Warrant's audit key"),
    ("**/*.audit-head", "Warrant's audit chain head"),
    ("**/*.env", "an environment file"),
    ("**/.dev.vars", "an environment file"),
    ("**/.dev.vars.*", "an environment file"),
    ("**/.my.cnf", "MySQL credentials"),
    ("**/.mylogin.cnf", "MySQL credentials"),
    ("**/*.ppk", "a PuTTY private key"),
    ("**/*.p8", "a private key"),
    ("**/id_ecdsa_sk", "an SSH private key"),
    ("**/id_ed25519_sk", "an SSH private key"),
    ("**/serviceAccountKey.json", "a cloud service account key"),
    ("**/*service-account*.json", "a cloud service account key"),
    ("**/*service_account*.json", "a cloud service account key"),
    ("**/credentials.csv", "cloud credentials"),
    ("**/*_accessKeys.csv", "cloud credentials"),
    ("**/kubeconfig", "a Kubernetes config"),
    ("**/*.kubeconfig", "a Kubernetes config"),
    ("**/kubeconfig.yaml", "a Kubernetes config"),
    ("**/kubeconfig.yml", "a Kubernetes config"),
    ("**/sops/age/keys.txt", "age private keys"),
    ("**/.sops/age/keys.txt", "age private keys"),
    ("**/*.tfstate.*", "Terraform state"),
    ("**/_netrc", "a netrc file"),
    ("**/wp-config.php", "WordPress database credentials"),
    ("**/.git/config", "a Git config, which may hold tokens"),
    (
        "**/.git/config.worktree",
        "a Git config, which may hold tokens",
    ),
    (
        "**/.git/modules/**/config",
        "a Git config, which may hold tokens",
    ),
    (
        "**/.git/modules/**/config.worktree",
        "a Git config, which may hold tokens",
    ),
    (
        "**/.git/worktrees/*/config.worktree",
        "a Git config, which may hold tokens",
    ),
    // Copies of SSH private keys (`id_rsa.bak`, `id_rsa.old`, `id_rsa~`); `.pub` is public.
    ("**/id_rsa.*", "a copy of an SSH private key"),
    ("**/id_rsa~", "a copy of an SSH private key"),
    ("**/id_dsa.*", "a copy of an SSH private key"),
    ("**/id_dsa~", "a copy of an SSH private key"),
    ("**/id_ecdsa.*", "a copy of an SSH private key"),
    ("**/id_ecdsa~", "a copy of an SSH private key"),
    ("**/id_ed25519.*", "a copy of an SSH private key"),
    ("**/id_ed25519~", "a copy of an SSH private key"),
    ("**/id_ecdsa_sk.*", "a copy of an SSH private key"),
    ("**/id_ed25519_sk.*", "a copy of an SSH private key"),
    ("**/.dockercfg", "Docker credentials"),
    ("**/config/database.yml", "database credentials"),
    ("**/auth.json", "a credentials file"),
    ("**/.yarnrc.yml", "Yarn credentials"),
    ("**/gradle.properties", "Gradle credentials"),
    ("**/.sentryclirc", "a Sentry token"),
    ("**/sftp-config.json", "SFTP passwords"),
    ("**/.ftpconfig", "FTP passwords"),
    ("**/.remote-sync.json", "FTP passwords"),
    ("**/.msmtprc", "mail passwords"),
    ("**/.fetchmailrc", "mail passwords"),
    ("**/.passwd-s3fs", "cloud credentials"),
    ("**/passwd-s3fs", "cloud credentials"),
    ("**/wg*.conf", "a WireGuard private key"),
    ("**/wireguard/**", "a WireGuard private key"),
    ("**/*.ovpn", "a VPN key"),
    ("**/.vault_pass*", "an Ansible vault password"),
    ("**/*vault_pass*", "an Ansible vault password"),
    ("**/*vault-pass*", "an Ansible vault password"),
    ("**/*vault_password*", "an Ansible vault password"),
    ("**/*vault-password*", "an Ansible vault password"),
    ("**/.secrets", "a secrets file"),
    ("**/secrets", "a secrets file"),
    ("**/.secrets.*", "a secrets file"),
    ("**/password.txt", "a password file"),
    ("**/passwords.txt", "a password file"),
    ("**/token", "a token file"),
    ("**/access-token", "a token file"),
    ("**/credentials", "a credentials file"),
    ("**/.credentials.json", "a credentials file"),
    ("**/.flaskenv", "an environment file"),
    ("**/env.list", "an environment file"),
    ("**/htpasswd", "a password file"),
    ("**/.config/github-copilot/**", "GitHub Copilot tokens"),
    ("**/rclone.conf", "rclone credentials"),
    ("**/.config/doctl/**", "DigitalOcean credentials"),
    ("**/.config/heroku/**", "Heroku credentials"),
    // Keys of AI model providers and the agents' own sign-ins.
    ("**/.anthropic/**", "Anthropic API credentials"),
    ("**/.config/anthropic/**", "Anthropic API credentials"),
    ("**/.openai/**", "OpenAI API credentials"),
    ("**/.config/openai/**", "OpenAI API credentials"),
    ("**/oauth_creds.json", "an agent's OAuth credentials"),
    ("**/api_key", "an API key file"),
    ("**/apikey", "an API key file"),
    ("**/.api_key", "an API key file"),
    ("**/.config/stripe/**", "Stripe credentials"),
    ("**/.supabase/**", "Supabase credentials"),
    ("**/keyrings/**", "a keyring"),
    ("**/secrets.toml", "a secrets file"),
    ("**/secrets.ini", "a secrets file"),
    ("**/secrets.txt", "a secrets file"),
    ("**/secrets.conf", "a secrets file"),
    ("**/secret.json", "a secrets file"),
    ("**/secret.yaml", "a secrets file"),
    ("**/secret.yml", "a secrets file"),
    ("**/secret.txt", "a secrets file"),
    ("**/.config/hub", "GitHub CLI credentials"),
    ("**/.config/glab-cli/**", "GitLab CLI credentials"),
    ("**/.terraformrc", "Terraform credentials"),
    ("**/terraform.rc", "Terraform credentials"),
    ("**/.config/op/**", "1Password CLI credentials"),
    ("**/.config/configstore/**", "CLI tokens (Firebase, …)"),
    ("**/.fly/config.yml", "Fly.io token"),
    ("**/.wrangler/config/**", "Cloudflare Wrangler token"),
    ("**/ngrok.yml", "an ngrok token"),
    ("**/kaggle.json", "Kaggle credentials"),
    ("**/.databrickscfg", "Databricks token"),
    ("**/.snowsql/**", "Snowflake credentials"),
    ("**/.dbt/profiles.yml", "database credentials"),
    ("**/.authinfo", "mail and login passwords"),
    ("**/.authinfo.*", "mail and login passwords"),
    ("**/.vnc/passwd", "a VNC password"),
    ("**/.bundle/config", "Bundler credentials"),
    // A process's environment by any of its paths: per thread, and through `/proc/N/root`.
    ("/proc/**/environ", "a process's environment"),
    ("/proc/**/mem", "a process's memory"),
    // Secrets mounted into containers (Docker, Compose, Kubernetes service accounts).
    ("/run/secrets/**", "a mounted secret"),
    ("/var/run/secrets/**", "a mounted secret"),
    // Backups and copies of secrets, and directories of environment files.
    ("**/.env~", "a copy of an environment file"),
    ("**/*.env~", "a copy of an environment file"),
    ("**/.git-credentials.*", "a copy of Git credentials"),
    ("**/.envs/**", "an environment file"),
    // Keys and tokens by their usual names.
    ("**/*deploy_key", "an SSH deploy key"),
    ("**/ssh_host_*_key", "an SSH host private key"),
    ("**/client_secret*.json", "an OAuth client secret"),
    ("**/token.json", "an OAuth token"),
    ("**/key.json", "a cloud service account key"),
    ("**/*firebase-adminsdk*.json", "a cloud service account key"),
    (
        "**/local.settings.json",
        "Azure Functions settings (connection strings)",
    ),
    // Histories of shells and editors (commands typed with their passwords).
    ("**/.histfile", "a shell history"),
    ("**/fish_history", "a shell history"),
    ("**/.viminfo", "an editor history"),
    ("**/.lesshst", "a pager history"),
    // Every dot-file named for a history (`.zhistory`, `.Rhistory`, `.history`, copies),
    // and histories kept in the XDG directories, per session or in a database.
    ("**/.*history*", "a history file"),
    ("**/.local/share/*/history", "a shell history"),
    ("**/.local/state/*/history", "a shell history"),
    ("**/.cache/*/history", "a shell history"),
    ("**/.local/share/*/*_history", "a history file"),
    ("**/.local/state/*/*_history", "a history file"),
    ("**/.bash_sessions/**", "shell session histories"),
    ("**/.zsh_sessions/**", "shell session histories"),
    ("**/.local/share/atuin/**", "a shell history database"),
    ("**/.config/atuin/key", "a shell history encryption key"),
    ("**/ghci_history", "a REPL history"),
    ("**/repl_history.jl", "a REPL history"),
    ("**/.dbshell", "a database shell history"),
    ("**/*.shada", "an editor history"),
    (
        "**/.config/fish/fish_variables",
        "shell variables (often tokens)",
    ),
    // Credential files of common tools.
    ("**/.gitcookies", "Git authentication cookies"),
    ("**/.smbcredentials", "SMB credentials"),
    ("**/.smbcredentials.*", "SMB credentials"),
    ("**/smbcredentials", "SMB credentials"),
    ("**/.pip/pip.conf", "pip configuration (index credentials)"),
    ("**/pip/pip.conf", "pip configuration (index credentials)"),
    ("**/pip.conf", "pip configuration (index credentials)"),
    ("**/pip.ini", "pip configuration (index credentials)"),
    ("**/.ivy2/.credentials", "Ivy/sbt credentials"),
    ("**/.sbt/.credentials", "sbt credentials"),
    ("**/.m2/settings-security.xml", "Maven master password"),
    ("**/.claude.json", "Claude Code's account data"),
    ("**/.claude/.credentials.json", "Claude Code's credentials"),
    ("**/.codex/auth.json", "Codex credentials"),
    ("**/.config/filezilla/**", "FileZilla passwords"),
    ("**/.filezilla/**", "FileZilla passwords"),
    ("**/.snowflake/**", "Snowflake credentials"),
    ("**/.config/snowflake/**", "Snowflake credentials"),
    ("**/.netlify/config.json", "a Netlify token"),
    ("**/.config/netlify/config.json", "a Netlify token"),
    ("**/.railway/config.json", "a Railway token"),
    ("**/python_keyring/**", "a keyring"),
    ("**/Bitwarden CLI/**", "a Bitwarden vault"),
    ("**/.lpass/**", "a LastPass session"),
    ("**/*private*.asc", "an armored private key"),
    ("**/*secret*.asc", "an armored private key"),
    ("**/.pulumi/credentials.json", "Pulumi credentials"),
    ("**/.aliyun/**", "Alibaba Cloud credentials"),
    ("**/.config/scw/**", "Scaleway credentials"),
    ("**/.config/hcloud/**", "Hetzner Cloud credentials"),
    ("**/.config/linode-cli", "Linode credentials"),
    ("**/.config/openstack/**", "OpenStack credentials"),
    ("**/clouds.yaml", "OpenStack credentials"),
    ("**/.bluemix/**", "IBM Cloud credentials"),
    ("**/.tccli/**", "Tencent Cloud credentials"),
    ("**/.cloudflared/**", "Cloudflare tunnel credentials"),
    ("**/.mc/config.json", "MinIO client credentials"),
    (
        "**/.config/helm/repositories.yaml",
        "Helm repository passwords",
    ),
    ("**/.subversion/auth/**", "Subversion credentials"),
    ("**/.hgrc", "a Mercurial config, which may hold passwords"),
    (
        "**/.hg/hgrc",
        "a Mercurial config, which may hold passwords",
    ),
    ("**/.nuget/NuGet/NuGet.Config", "NuGet credentials"),
    ("**/gem/credentials", "RubyGems credentials"),
    ("**/.purple/accounts.xml", "chat account passwords"),
    ("**/.config/rclone/**", "rclone credentials"),
    ("**/.config/gcloud", "Google Cloud credentials"),
    (
        "**/.config/Code/User/globalStorage/**",
        "an editor's stored tokens",
    ),
    (
        "**/globalStorage/state.vscdb",
        "an editor's stored state (tokens)",
    ),
    (
        "**/globalStorage/state.vscdb.*",
        "an editor's stored state (tokens)",
    ),
    // Credential stores of tools, where a project or a home keeps them.
    ("**/.rclone.conf", "rclone credentials"),
    (
        "**/application_default_credentials.json",
        "Google application default credentials",
    ),
    (
        "**/gha-creds-*.json",
        "Google credentials written by a CI job",
    ),
    ("**/.vscode/sftp.json", "SFTP passwords"),
    ("**/nuget.config", "NuGet feed credentials"),
    ("**/.nuget/NuGet/NuGet.Config", "NuGet feed credentials"),
    ("**/.Renviron", "R environment variables (tokens)"),
    ("**/.jfrog", "JFrog CLI credentials"),
    ("**/.jfrog/**", "JFrog CLI credentials"),
    ("**/profiles.yml", "database credentials (dbt profiles)"),
    ("**/.env-*", "an environment file"),
    ("**/.env_*", "an environment file"),
    ("**/.p4tickets", "Perforce tickets"),
    ("**/p4tickets.txt", "Perforce tickets"),
    ("**/.cf/config.json", "Cloud Foundry tokens"),
    ("**/*.keytab", "a Kerberos keytab"),
    ("**/hs_ed25519_secret_key", "a Tor onion service key"),
    ("**/cookies.txt", "browser cookies (a cookie jar)"),
    ("**/.minio/config.json", "MinIO credentials"),
    ("**/pgpass.conf", "a PostgreSQL password file"),
];

/// Configuration that decides what an agent may do: Warrant's own and the agents' settings.
/// A call never writes it, whatever a rule or grant says; a person edits it.
const PROTECTED: &[(&str, &str)] = &[
    // git runs its hooks on later commands (status and diff among them): a hook written is
    // a program planted. The common directory's hooks serve linked worktrees; a submodule's
    // git directory has its own.
    ("**/.git/hooks", "Git hooks, which git runs"),
    ("**/.git/hooks/**", "Git hooks, which git runs"),
    ("**/.git/modules/**/hooks/**", "Git hooks, which git runs"),
    // Hook managers' hook directories, which git runs through `core.hooksPath` (husky sets
    // `.husky/_` and runs `.husky/<hook>` with `sh -e`, executable or not; `.githooks` is
    // the name `core.hooksPath` conventionally gives). The directory the configuration
    // actually names is found where the call is judged.
    ("**/.husky", "Git hooks (husky), which git runs"),
    ("**/.husky/**", "Git hooks (husky), which git runs"),
    ("**/.githooks", "Git hooks (core.hooksPath), which git runs"),
    (
        "**/.githooks/**",
        "Git hooks (core.hooksPath), which git runs",
    ),
    ("**/warrant.toml", "Warrant's configuration"),
    ("**/.warrant", "Warrant's configuration"),
    ("**/.warrant/**", "Warrant's configuration"),
    ("**/warrant/projects", "Warrant's data directories"),
    ("**/warrant/projects/**", "Warrant's data directories"),
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
    // The same roles for other agents and editors: MCP server lists (which start programs),
    // settings that auto-approve tools, hooks and commands. Protected by role: any MCP
    // configuration in a dot-directory or dot-file, and the agents' own directories.
    ("**/.*mcp*.json", "the MCP servers an agent starts"),
    ("**/.*mcp*.jsonc", "the MCP servers an agent starts"),
    (
        "**/.*/**/*mcp*.json",
        "the MCP servers an agent or editor starts",
    ),
    (
        "**/.*/**/*mcp*.jsonc",
        "the MCP servers an agent or editor starts",
    ),
    (
        "**/.*/**/*mcp*.yaml",
        "the MCP servers an agent or editor starts",
    ),
    (
        "**/.*/**/*mcp*.yml",
        "the MCP servers an agent or editor starts",
    ),
    (
        "**/.*/**/*mcp*.toml",
        "the MCP servers an agent or editor starts",
    ),
    (
        "**/*.code-workspace",
        "an editor workspace's settings (agents' auto-approval, tasks run on open)",
    ),
    ("**/opencode.json", "opencode's settings and MCP servers"),
    ("**/opencode.jsonc", "opencode's settings and MCP servers"),
    (
        "**/.opencode/**",
        "opencode's agents, commands and settings",
    ),
    ("**/.crush.json", "Crush's settings and MCP servers"),
    ("**/crush.json", "Crush's settings and MCP servers"),
    ("**/.roo/**", "Roo Code's settings, rules and MCP servers"),
    ("**/.roomodes", "Roo Code's modes"),
    ("**/.kiro/**", "Kiro's settings, hooks and MCP servers"),
    ("**/.amazonq/**", "Amazon Q's settings and MCP servers"),
    (
        "**/.windsurf/**",
        "Windsurf's settings, workflows and MCP servers",
    ),
    ("**/.cline/**", "Cline's settings and MCP servers"),
    ("**/.continue/**", "Continue's settings and MCP servers"),
    (
        "**/.zed/**",
        "the Zed editor's settings, tasks and context servers",
    ),
    // The same roles at the user level, where agents and editors keep them under other
    // names: extensions and plugins (their manifests start MCP servers, their hooks run
    // commands), subagents, commands and skills (their front matter grants tools), and the
    // user settings of editors and desktop agents, under the XDG directory, macOS'
    // `Library/Application Support` and Windows' `AppData/Roaming`.
    (
        "**/.gemini/extensions/**",
        "Gemini CLI's extensions (MCP servers, settings)",
    ),
    ("**/.gemini/commands/**", "Gemini CLI's commands"),
    (
        "**/.claude/plugins/**",
        "Claude Code's plugins (hooks, MCP servers)",
    ),
    (
        "**/.claude/agents/**",
        "Claude Code's subagents (their tools)",
    ),
    (
        "**/.claude/commands/**",
        "Claude Code's commands (their tools)",
    ),
    ("**/.claude/skills/**", "Claude Code's skills (their tools)"),
    ("**/.claude/hooks/**", "Claude Code's hooks"),
    ("**/.qwen/settings.json", "Qwen Code's settings"),
    ("**/.copilot/config.json", "Copilot CLI's settings"),
    (
        "**/claude_desktop_config.json",
        "Claude Desktop's MCP servers",
    ),
    (
        "**/.config/zed/**",
        "the Zed editor's settings, tasks and context servers",
    ),
    (
        "**/.config/amp/**",
        "Amp's settings (allowed commands, MCP servers)",
    ),
    ("**/.config/goose/**", "goose's settings and extensions"),
    ("**/.config/Code/User/**", EDITOR_USER),
    ("**/.config/Code - Insiders/User/**", EDITOR_USER),
    ("**/.config/Code - OSS/User/**", EDITOR_USER),
    ("**/.config/VSCodium/User/**", EDITOR_USER),
    ("**/.config/Cursor/User/**", EDITOR_USER),
    ("**/.config/Windsurf/User/**", EDITOR_USER),
    ("**/.config/Kiro/User/**", EDITOR_USER),
    ("**/.config/Trae/User/**", EDITOR_USER),
    ("**/Application Support/Code/User/**", EDITOR_USER),
    (
        "**/Application Support/Code - Insiders/User/**",
        EDITOR_USER,
    ),
    ("**/Application Support/VSCodium/User/**", EDITOR_USER),
    ("**/Application Support/Cursor/User/**", EDITOR_USER),
    ("**/Application Support/Windsurf/User/**", EDITOR_USER),
    ("**/Application Support/Kiro/User/**", EDITOR_USER),
    ("**/Application Support/Trae/User/**", EDITOR_USER),
    ("**/Application Support/Zed/**", EDITOR_USER),
    ("**/AppData/Roaming/Code/User/**", EDITOR_USER),
    ("**/AppData/Roaming/Code - Insiders/User/**", EDITOR_USER),
    ("**/AppData/Roaming/VSCodium/User/**", EDITOR_USER),
    ("**/AppData/Roaming/Cursor/User/**", EDITOR_USER),
    ("**/AppData/Roaming/Windsurf/User/**", EDITOR_USER),
    // The desktop session's and git's startup files: the session or git runs what they name
    // on every later login, session or commit, outside any call's review. The shells' and
    // other programs' startup files, which matter only in a home directory, are
    // [`HOME_STARTUP`].
    ("**/.xprofile", STARTUP),
    ("**/.xinitrc", STARTUP),
    ("**/.xsession", STARTUP),
    ("**/.xsessionrc", STARTUP),
    ("**/.pam_environment", STARTUP),
    ("**/.config/environment.d/**", STARTUP),
    ("**/.config/fish", STARTUP),
    ("**/.config/fish/**", STARTUP),
    (
        "**/.gitconfig",
        "the user's git configuration, which names programs git runs",
    ),
    (
        "**/.config/git",
        "the user's git configuration, which names programs git runs",
    ),
    (
        "**/.config/git/**",
        "the user's git configuration, which names programs git runs",
    ),
    // `~/.ssh/config`, `authorized_keys` and `rc` are secrets (the whole `.ssh`): no call
    // reads or writes them.
    ("**/.config/autostart", PERSISTENCE),
    ("**/.config/autostart/**", PERSISTENCE),
    // Every desktop's or session manager's own autostart (LXDE's `lxsession/*/autostart`,
    // openbox's and labwc's `autostart` scripts) under the XDG directory.
    ("**/.config/**/autostart", PERSISTENCE),
    ("**/.config/**/autostart/**", PERSISTENCE),
    ("**/.config/**/autostart.sh", PERSISTENCE),
    ("**/.config/systemd/user", PERSISTENCE),
    ("**/.config/systemd/user/**", PERSISTENCE),
    ("**/.local/share/systemd/user/**", PERSISTENCE),
    ("**/.config/plasma-workspace/env/**", PERSISTENCE),
    ("**/.config/plasma-workspace/shutdown/**", PERSISTENCE),
    ("**/.local/share/applications/**", PERSISTENCE),
    ("**/Library/LaunchAgents/**", PERSISTENCE),
];

/// Files that matter only in a home directory, whose writing makes code run later: each
/// program named reads them at its start (or finds a program there before the system's) and
/// runs what they name. Globs relative to a home directory (the user's, `/root`, and any
/// `/home/NAME` or `/Users/NAME`); the same names elsewhere (a dotfiles repository's own
/// `.bashrc`) are ordinary files. A write of one is what a write of [`PROTECTED`] is.
const HOME_STARTUP: &[(&str, &str)] = &[
    // Shells: every interactive or login shell sources them (Debian's and Ubuntu's skeleton
    // `.bashrc` sources `.bash_aliases`; bash-completion sources `.bash_completion` and
    // loads the user's completions when a command is completed).
    (".bashrc", STARTUP),
    (".bashrc.*", STARTUP),
    (".bash_profile", STARTUP),
    (".bash_login", STARTUP),
    (".bash_logout", STARTUP),
    (".bash_aliases", STARTUP),
    (".bash_functions", STARTUP),
    (".bash_completion", STARTUP),
    (".bash_completion.d/**", STARTUP),
    (".local/share/bash-completion/**", STARTUP),
    (".bashrc.d/**", STARTUP),
    (".profile", STARTUP),
    (".profile.d/**", STARTUP),
    (".zshrc", STARTUP),
    (".zshrc.*", STARTUP),
    (".zprofile", STARTUP),
    (".zshenv", STARTUP),
    (".zlogin", STARTUP),
    (".zlogout", STARTUP),
    (".zsh/**", STARTUP),
    (".config/zsh/**", STARTUP),
    (".oh-my-zsh/**", STARTUP),
    (".kshrc", STARTUP),
    (".mkshrc", STARTUP),
    (".cshrc", STARTUP),
    (".tcshrc", STARTUP),
    (".login", STARTUP),
    (".logout", STARTUP),
    (".xonshrc", STARTUP),
    (".config/xonsh/**", STARTUP),
    (".config/nushell/**", STARTUP),
    (".config/powershell/**", STARTUP),
    // readline: a key (Return among them) bound to a macro types a command into every
    // later interactive shell.
    (".inputrc", STARTUP),
    // Programs on the `PATH` a shell or a profile sets up in the home directory (`~/bin`
    // and `~/.local/bin` by Debian's `.profile`, `~/.cargo/bin` by rustup): a program
    // written there is run in place of `git` or `cargo`.
    (".local/bin", ON_PATH),
    (".local/bin/**", ON_PATH),
    ("bin", ON_PATH),
    ("bin/**", ON_PATH),
    (".cargo/bin", ON_PATH),
    (".cargo/bin/**", ON_PATH),
    ("go/bin", ON_PATH),
    ("go/bin/**", ON_PATH),
    (".npm-global/bin/**", ON_PATH),
    (".npm-packages/bin/**", ON_PATH),
    (".yarn/bin/**", ON_PATH),
    (".deno/bin/**", ON_PATH),
    (".bun/bin/**", ON_PATH),
    (".volta/bin/**", ON_PATH),
    (".pyenv/shims/**", ON_PATH),
    (".rbenv/shims/**", ON_PATH),
    (".asdf/shims/**", ON_PATH),
    (".local/share/mise/shims/**", ON_PATH),
    (".nvm/versions/*/*/bin/**", ON_PATH),
    // Version managers' own programs, shims and installed versions' `bin` directories,
    // which their shell hooks put on the `PATH` (the real `PATH`'s directories are found
    // where the call is judged).
    (".pyenv/bin/**", ON_PATH),
    (".pyenv/plugins/*/shims/**", ON_PATH),
    (".pyenv/plugins/*/bin/**", ON_PATH),
    (".pyenv/versions/*/bin/**", ON_PATH),
    (".rbenv/bin/**", ON_PATH),
    (".rbenv/versions/*/bin/**", ON_PATH),
    (".nodenv/bin/**", ON_PATH),
    (".nodenv/shims/**", ON_PATH),
    (".goenv/bin/**", ON_PATH),
    (".goenv/shims/**", ON_PATH),
    (".jenv/bin/**", ON_PATH),
    (".jenv/shims/**", ON_PATH),
    (".asdf/bin/**", ON_PATH),
    (".asdf/installs/*/*/bin/**", ON_PATH),
    (".local/share/mise/installs/*/*/bin/**", ON_PATH),
    (".local/share/mise/bin/**", ON_PATH),
    (".nix-profile/bin/**", ON_PATH),
    (".local/state/nix/profile/bin/**", ON_PATH),
    (".nvm/nvm.sh", STARTUP),
    (".volta/tools/image/*/*/bin/**", ON_PATH),
    (".sdkman/bin/**", ON_PATH),
    (".sdkman/candidates/*/*/bin/**", ON_PATH),
    (".dotnet/tools/**", ON_PATH),
    (".rustup/toolchains/*/bin/**", ON_PATH),
    (".cabal/bin/**", ON_PATH),
    (".ghcup/bin/**", ON_PATH),
    (".juliaup/bin/**", ON_PATH),
    (".pixi/bin/**", ON_PATH),
    (".rye/shims/**", ON_PATH),
    (".poetry/bin/**", ON_PATH),
    (".local/share/pnpm/**", ON_PATH),
    (".local/share/fnm/**", ON_PATH),
    (".fnm/**", ON_PATH),
    (".n/bin/**", ON_PATH),
    (".nimble/bin/**", ON_PATH),
    (".luarocks/bin/**", ON_PATH),
    (".foundry/bin/**", ON_PATH),
    (".krew/bin/**", ON_PATH),
    (".linuxbrew/bin/**", ON_PATH),
    ("miniconda3/bin/**", ON_PATH),
    ("miniconda3/condabin/**", ON_PATH),
    ("anaconda3/bin/**", ON_PATH),
    ("anaconda3/condabin/**", ON_PATH),
    ("miniforge3/bin/**", ON_PATH),
    (".conda/envs/*/bin/**", ON_PATH),
    // Modules an interpreter loads before the system's or at every start: a `.pth` file in
    // the user's site-packages runs its `import` lines at every `python3` start, as
    // `usercustomize` does; node resolves modules from these directories last.
    (".local/lib/python*/site-packages/**", INTERPRETER),
    ("Library/Python/*/lib/python/site-packages/**", INTERPRETER),
    (".node_modules/**", INTERPRETER),
    (".node_libraries/**", INTERPRETER),
    // Build tools' user configuration, which names programs they run or code they load:
    // cargo's `build.rustc-wrapper` and aliases (`config` is still read beside
    // `config.toml`), Gradle's init scripts, `mvn`'s sourced `.mavenrc`, sbt's global
    // plugins, bun's preloaded scripts, direnv's and mise's sourced files.
    (".cargo/config", BUILD),
    (".cargo/config.toml", BUILD),
    (".gradle/init.d/**", BUILD),
    (".gradle/init.gradle", BUILD),
    (".gradle/init.gradle.kts", BUILD),
    (".mavenrc", BUILD),
    (".m2/extensions.xml", BUILD),
    (".sbt/**", BUILD),
    (".bunfig.toml", BUILD),
    (".config/direnv/**", BUILD),
    (".direnvrc", BUILD),
    (".envrc", BUILD),
    (".config/mise/**", BUILD),
    // Version selectors read from the home directory by every directory below it: asdf's
    // and mise's `.tool-versions` (a `path:` version runs that directory's programs),
    // mise's configuration (`[env] _.source`, tasks, hooks), rustup's settings (default
    // and override toolchains, a linked one any directory).
    (".tool-versions", BUILD),
    (".asdfrc", BUILD),
    (".mise.toml", BUILD),
    (".mise.*.toml", BUILD),
    ("mise.toml", BUILD),
    (".rustup/settings.toml", BUILD),
    // Package managers' user configuration, written by their own setters (`go env -w`,
    // `gem sources -a`, `conda config --add`): `GOFLAGS=-toolexec=PROG` runs PROG in every
    // build; a source or channel is where every later install's code comes from.
    (".config/go/env", BUILD),
    (".gemrc", BUILD),
    (".condarc", BUILD),
    (".config/pypoetry/config.toml", BUILD),
    (".config/containers/**", BUILD),
    (".config/nix/**", BUILD),
    (".config/nixpkgs/**", BUILD),
    // Editors, debuggers, REPLs and terminals: their run-command files are code (Vim script,
    // Lua, Emacs Lisp, Python, R, Ruby) or run shell commands (`psql`'s and `sqlite3`'s
    // meta-commands, `ghci`'s `:!`, tmux's `run-shell`, screen's windows).
    (".vimrc", EDITOR_STARTUP),
    (".exrc", EDITOR_STARTUP),
    (".gvimrc", EDITOR_STARTUP),
    (".vim/**", EDITOR_STARTUP),
    (".config/nvim/**", EDITOR_STARTUP),
    (".local/share/nvim/site/**", EDITOR_STARTUP),
    (".emacs", EDITOR_STARTUP),
    (".emacs.el", EDITOR_STARTUP),
    (".emacs.d/**", EDITOR_STARTUP),
    (".config/emacs/**", EDITOR_STARTUP),
    (".gdbinit", EDITOR_STARTUP),
    (".config/gdb/**", EDITOR_STARTUP),
    (".lldbinit", EDITOR_STARTUP),
    (".pdbrc", EDITOR_STARTUP),
    (".pdbrc.py", EDITOR_STARTUP),
    (".ipython/**", EDITOR_STARTUP),
    (".jupyter/*.py", EDITOR_STARTUP),
    (".pythonrc", EDITOR_STARTUP),
    (".pythonrc.py", EDITOR_STARTUP),
    (".pythonstartup", EDITOR_STARTUP),
    (".Rprofile", EDITOR_STARTUP),
    (".irbrc", EDITOR_STARTUP),
    (".pryrc", EDITOR_STARTUP),
    (".psqlrc", EDITOR_STARTUP),
    (".sqliterc", EDITOR_STARTUP),
    (".ghci", EDITOR_STARTUP),
    (".config/ghc/ghci.conf", EDITOR_STARTUP),
    (".tmux.conf", EDITOR_STARTUP),
    (".config/tmux/**", EDITOR_STARTUP),
    (".screenrc", EDITOR_STARTUP),
    (".wezterm.lua", EDITOR_STARTUP),
    (".config/wezterm/**", EDITOR_STARTUP),
    // Terminals name the shell they start (`shell`, `command`, `startup_session`); the
    // prompt runs starship's `custom` modules' commands at every prompt.
    (".config/kitty/**", EDITOR_STARTUP),
    (".config/alacritty/**", EDITOR_STARTUP),
    (".alacritty.toml", EDITOR_STARTUP),
    (".alacritty.yml", EDITOR_STARTUP),
    (".config/foot/**", EDITOR_STARTUP),
    (".config/ghostty/**", EDITOR_STARTUP),
    (".config/starship.toml", STARTUP),
    (".config/starship/**", STARTUP),
    (".p10k.zsh", STARTUP),
    // Interpreters' startup files: Julia's `startup.jl`, Octave's, Guile's, SBCL's,
    // OCaml's, Erlang's and Elixir's, matplotlib's backend module; less's `#env` section
    // sets `LESSOPEN`, a command every later `less` runs.
    (".julia/config/**", EDITOR_STARTUP),
    (".octaverc", EDITOR_STARTUP),
    (".config/octave/**", EDITOR_STARTUP),
    (".guile", EDITOR_STARTUP),
    (".sbclrc", EDITOR_STARTUP),
    (".ocamlinit", EDITOR_STARTUP),
    (".erlang", EDITOR_STARTUP),
    (".iex.exs", EDITOR_STARTUP),
    (".config/matplotlib/**", EDITOR_STARTUP),
    (".matplotlib/**", EDITOR_STARTUP),
    (".lesskey", EDITOR_STARTUP),
    (".config/lesskey", EDITOR_STARTUP),
    (".local/share/lesskey", EDITOR_STARTUP),
    // Window managers, bars and hotkey daemons run the commands their configuration names
    // (`exec`, `exec-once`, `spawn`, `custom/script`) at every session start or key press.
    (".config/i3/**", PERSISTENCE),
    (".i3/**", PERSISTENCE),
    (".config/i3blocks/**", PERSISTENCE),
    (".config/sway/**", PERSISTENCE),
    (".config/hypr/**", PERSISTENCE),
    (".config/openbox/**", PERSISTENCE),
    (".config/labwc/**", PERSISTENCE),
    (".config/awesome/**", PERSISTENCE),
    (".config/qtile/**", PERSISTENCE),
    (".config/bspwm/**", PERSISTENCE),
    (".config/sxhkd/**", PERSISTENCE),
    (".config/river/**", PERSISTENCE),
    (".config/niri/**", PERSISTENCE),
    (".config/herbstluftwm/**", PERSISTENCE),
    (".config/wayfire.ini", PERSISTENCE),
    (".config/waybar/**", PERSISTENCE),
    (".config/polybar/**", PERSISTENCE),
    (".config/xmonad/**", PERSISTENCE),
    (".xmonad/**", PERSISTENCE),
    (".config/xfce4/xfconf/**", PERSISTENCE),
    (".config/lxqt/**", PERSISTENCE),
    (".kde/Autostart/**", PERSISTENCE),
    (".config/khotkeysrc", PERSISTENCE),
    // Network clients' defaults, read by every later call: `.curlrc` and `.wgetrc` can make
    // a plain download post a file (`data = "@…"`, `post-file`) or write anywhere
    // (`output`, `output_document`); mail delivery and readers run the programs they name.
    (".curlrc", NETWORK_DEFAULTS),
    (".config/curlrc", NETWORK_DEFAULTS),
    (".wgetrc", NETWORK_DEFAULTS),
    (".config/wgetrc", NETWORK_DEFAULTS),
    (".forward", NETWORK_DEFAULTS),
    (".procmailrc", NETWORK_DEFAULTS),
    (".mailcap", NETWORK_DEFAULTS),
    (".muttrc", NETWORK_DEFAULTS),
];

/// What a program on the home directory's `PATH` is.
const ON_PATH: &str = "a directory of programs on the user's PATH, run in place of the system's";

/// What a module directory an interpreter loads from is.
const INTERPRETER: &str = "modules an interpreter loads at its start or before the system's";

/// What a build tool's user configuration is.
const BUILD: &str = "a build tool's user configuration, which names programs it runs";

/// What an editor's, debugger's, REPL's or terminal's run-command file is.
const EDITOR_STARTUP: &str = "a program's startup file, which it runs at every start";

/// What a network client's or mail program's defaults are.
const NETWORK_DEFAULTS: &str =
    "a network or mail program's defaults, which make later calls send or write files";

/// What a shell startup file is.
const STARTUP: &str = "a shell startup file, which every later shell runs";

/// What a user's autostart entry is.
const PERSISTENCE: &str = "programs the user's session starts or offers to run";

/// What an editor's user settings directory is: settings that auto-approve agents' tools,
/// user tasks and MCP servers.
const EDITOR_USER: &str = "the editor's user settings (agents' auto-approval, MCP servers)";

/// Environment-file templates that hold no secrets by convention.
const ENV_TEMPLATES: &[&str] = &[".env.example", ".env.sample", ".env.template", ".env.dist"];

/// The secret paths, compiled once.
#[derive(Debug, Clone)]
pub(crate) struct SensitivePaths {
    /// Names these patterns (copies share it): a call's analysis keeps each word's secret
    /// by the patterns it was looked up with.
    id: u64,
    set: GlobSet,
    /// A text every path the secret globs match holds, one of them (see [`Needles`]).
    needles: Needles,
    what: Vec<String>,
    /// Configuration no call writes ([`PROTECTED`] and the configured `protected_paths`).
    protected: GlobSet,
    protected_needles: Needles,
    protected_what: Vec<String>,
    /// The globs of [`Self::protected`], in its order.
    protected_globs: Vec<String>,
    /// The globs of [`Self::set`], in its order.
    secret_globs: Vec<String>,
    /// [`HOME_STARTUP`], matched against paths relative to a home directory.
    home: GlobSet,
    /// The dot-names of [`HOME_STARTUP`] at any depth (`**/` before each), for paths
    /// outside the workspace (`bin`, `go/bin` are ordinary names there: `/usr/local/bin`).
    home_anywhere: GlobSet,
    /// For each glob of [`Self::home_anywhere`], its index in [`HOME_STARTUP`].
    home_anywhere_index: Vec<usize>,
}

/// For a set of globs, a literal text each of them requires of a path it matches (ASCII
/// case ignored, as the secret globs match): a path holding none of them matches no glob of
/// the set, which is found without running the set's automaton. A glob with no such text (or
/// with brackets, braces or escapes, which are not read here) makes every path a candidate.
#[derive(Debug, Clone)]
struct Needles {
    /// Some glob has no literal text: every path must be matched against the set.
    always: bool,
    /// The texts (two bytes at least, ASCII case ignored) as one automaton, `None` when
    /// there are none: a path is scanned once, whatever the number of texts.
    texts: Option<aho_corasick::AhoCorasick>,
}

impl Needles {
    fn of<'a>(globs: impl IntoIterator<Item = &'a str>) -> Self {
        let mut always = false;
        let mut texts = Vec::new();
        for glob in globs {
            match required_text(glob) {
                // A text of two bytes at least (a one-byte text rules out too little).
                Some(text) if text.len() >= 2 => texts.push(text),
                _ => always = true,
            }
        }
        texts.sort();
        texts.dedup();
        // An automaton that cannot be built (it never fails for so few short texts) leaves
        // every path a candidate: the glob set decides, as without a filter.
        let texts = if always || texts.is_empty() {
            None
        } else {
            match aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .kind(Some(aho_corasick::AhoCorasickKind::DFA))
                .build(&texts)
            {
                Ok(automaton) => Some(automaton),
                Err(_) => {
                    always = true;
                    None
                }
            }
        };
        Self { always, texts }
    }

    /// Whether `path` holds one of the texts (so that a glob of the set may match it).
    fn may_match(&self, path: &[u8]) -> bool {
        if self.always {
            return true;
        }
        self.texts.as_ref().is_some_and(|t| t.is_match(path))
    }
}

/// The longest run of literal characters in a glob's components (lower-cased), which every
/// path the glob matches holds; `None` when the glob has none, or has brackets, braces or
/// escapes (whose reading is left to the glob set).
fn required_text(glob: &str) -> Option<Vec<u8>> {
    if glob.contains(['[', ']', '{', '}', '\\']) {
        return None;
    }
    glob.split('/')
        .flat_map(|component| component.split(['*', '?']))
        .filter(|run| !run.is_empty())
        .max_by_key(|run| run.len())
        .map(|run| run.to_ascii_lowercase().into_bytes())
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
        let mut secret_globs = Vec::new();
        for (glob, label) in SENSITIVE {
            builder.add(compile_secret(glob).map_err(|e| error(glob, e))?);
            what.push((*label).to_owned());
            secret_globs.push((*glob).to_owned());
        }
        for glob in extra {
            let full = anchored(glob);
            builder.add(compile_secret(&full).map_err(|e| error(glob, e))?);
            what.push(format!("a path configured as sensitive ({glob})"));
            secret_globs.push(full);
        }
        let mut config = GlobSetBuilder::new();
        let mut protected_what = Vec::new();
        let mut protected_globs = Vec::new();
        for (glob, label) in PROTECTED {
            config.add(compile_secret(glob).map_err(|e| error(glob, e))?);
            protected_what.push((*label).to_owned());
            protected_globs.push((*glob).to_owned());
        }
        for glob in protected {
            let full = anchored(glob);
            config.add(compile_secret(&full).map_err(|e| error(glob, e))?);
            protected_what.push(format!("a path configured as protected ({glob})"));
            protected_globs.push(full);
        }
        let mut home = GlobSetBuilder::new();
        let mut home_anywhere = GlobSetBuilder::new();
        let mut home_anywhere_index = Vec::new();
        for (i, (glob, _)) in HOME_STARTUP.iter().enumerate() {
            home.add(compile_secret(glob).map_err(|e| error(glob, e))?);
            if glob.starts_with('.') {
                let anywhere = format!("**/{glob}");
                home_anywhere.add(compile_secret(&anywhere).map_err(|e| error(glob, e))?);
                home_anywhere_index.push(i);
            }
        }
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        Ok(Self {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            set: builder.build().map_err(|e| error("(all)", e))?,
            needles: Needles::of(secret_globs.iter().map(String::as_str)),
            secret_globs,
            what,
            protected: config.build().map_err(|e| error("(all)", e))?,
            protected_needles: Needles::of(protected_globs.iter().map(String::as_str)),
            protected_what,
            protected_globs,
            home: home.build().map_err(|e| error("(all)", e))?,
            home_anywhere: home_anywhere.build().map_err(|e| error("(all)", e))?,
            home_anywhere_index,
        })
    }

    /// What names these patterns: two sets with the same id hold the same patterns.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// What configuration `path` is, if no call may write it: [`PROTECTED`] and the
    /// configured globs anywhere; [`HOME_STARTUP`] below a home directory (`home`, the
    /// user's, when known), and anywhere outside the workspace `root` (any directory there
    /// may be the home of the shell that runs later; the workspace's own `.bashrc` is a
    /// file of the project unless the workspace is a home).
    pub(super) fn protects(
        &self,
        path: &Path,
        home: Option<&Path>,
        root: Option<&Path>,
    ) -> Option<&str> {
        if let Some(what) = self.protects_anywhere(path) {
            return Some(what);
        }
        if !root.is_some_and(|r| path.starts_with(r))
            && let Some(hit) = self.home_anywhere.matches(path).into_iter().next()
        {
            return Some(HOME_STARTUP[self.home_anywhere_index[hit]].1);
        }
        home_relatives(path, home).into_iter().find_map(|rel| {
            let hit = self.home.matches(rel).into_iter().next()?;
            Some(HOME_STARTUP[hit].1)
        })
    }

    /// What configuration of [`PROTECTED`] or the configured globs `path` is, if any.
    fn protects_anywhere(&self, path: &Path) -> Option<&str> {
        if !self
            .protected_needles
            .may_match(path.as_os_str().as_encoded_bytes())
        {
            return None;
        }
        let hit = self.protected.matches(path).into_iter().next()?;
        Some(&self.protected_what[hit])
    }

    /// What protected configuration may lie below the directory `dir` (a normal, absolute
    /// path), if any: with `within_config`, only configuration `dir` is a directory of
    /// (`.claude` holds `.claude/settings.json`), not the files any directory may hold
    /// (`.mcp.json`).
    /// The last component of a protected glob that `admits` (a name filter: `find -name`)
    /// accepts, with what the glob protects: a file by that name may be protected
    /// configuration wherever it lies below a directory.
    pub(super) fn protected_name(&self, admits: &dyn Fn(&str) -> bool) -> Option<(&str, &str)> {
        self.protected_globs
            .iter()
            .enumerate()
            .find_map(|(i, glob)| {
                let last = glob.rsplit('/').next()?;
                (!last.contains(['*', '?', '[', '{']) && admits(last))
                    .then(|| (last, self.protected_what[i].as_str()))
            })
    }

    pub(super) fn protects_below(
        &self,
        dir: &Path,
        within_config: bool,
        home: Option<&Path>,
        root: Option<&Path>,
    ) -> Option<&str> {
        self.below(dir, within_config, within_config, home, root)
    }

    /// What protected configuration a tree of files whose names are not known may create
    /// when it lands in `dir`, beyond what a file of the same name in the tree it comes from
    /// already is: [`Self::protects_below`] with any name below `dir` for configuration
    /// whose place is fixed (a home's start-up files, any directory outside the workspace
    /// `root` being a home), but only the configuration `dir` is a directory of for names
    /// protected wherever they lie (`.claude/settings.json`).
    pub(super) fn protects_any_name_below(
        &self,
        dir: &Path,
        home: Option<&Path>,
        root: Option<&Path>,
    ) -> Option<&str> {
        self.below(dir, false, true, home, root)
    }

    /// [`Self::protects_below`], with `within_config` for the home's start-up files and the
    /// globs of a fixed place, and `anywhere_within` for the globs matched at any depth.
    fn below(
        &self,
        dir: &Path,
        within_config: bool,
        anywhere_within: bool,
        home: Option<&Path>,
        root: Option<&Path>,
    ) -> Option<&str> {
        if let Some(what) = self.home_below(dir, within_config, home) {
            return Some(what);
        }
        // Outside the workspace, any directory may be a home: the names at any depth.
        if !root.is_some_and(|r| dir.starts_with(r)) {
            for (i, &at) in self.home_anywhere_index.iter().enumerate() {
                let (glob, what) = HOME_STARTUP[at];
                if below_anywhere(&self.home_anywhere, i, glob, dir, within_config) {
                    return Some(what);
                }
            }
        }
        for (i, glob) in self.protected_globs.iter().enumerate() {
            match glob.strip_prefix("**/") {
                Some(tail) => {
                    if below_anywhere(&self.protected, i, tail, dir, anywhere_within) {
                        return Some(&self.protected_what[i]);
                    }
                }
                None => {
                    let literal: Vec<&str> = glob
                        .split('/')
                        .take_while(|p| !p.contains(['*', '?', '[', '{']))
                        .collect();
                    let base = Path::new(if literal.len() <= 1 { "/" } else { "" })
                        .join(literal.join("/"));
                    if dir.starts_with(&base) || (!within_config && base.starts_with(dir)) {
                        return Some(&self.protected_what[i]);
                    }
                }
            }
        }
        None
    }

    /// What [`HOME_STARTUP`] file a write of a tree into `dir` may create, as
    /// [`Self::protects_below`] tells it for a glob that starts at the root: `dir` lies in
    /// the glob's literal directory, or (unless `within_config`) holds it.
    fn home_below(&self, dir: &Path, within_config: bool, home: Option<&Path>) -> Option<&str> {
        for base in home_bases(dir, home) {
            for (glob, what) in HOME_STARTUP {
                let literal: Vec<&str> = glob
                    .split('/')
                    .take_while(|p| !p.contains(['*', '?', '[', '{']))
                    .collect();
                let start = literal
                    .iter()
                    .fold(base.clone(), |path, part| path.join(part));
                // A glob with no literal directory (`.bashrc.*`) names files of the home
                // directory itself, not of every directory below it.
                let inside = !literal.is_empty() && dir.starts_with(&start);
                if inside || (!within_config && start.starts_with(dir)) {
                    return Some(what);
                }
            }
        }
        None
    }

    /// What secret a file of the glob pattern `pattern` (an absolute path whose components
    /// may hold `*`, `?`, `[…]`) may be, if some name it matches is one: a tool that expands
    /// the pattern reads that file.
    pub(super) fn pattern_secret(&self, pattern: &Path) -> Option<&str> {
        let pattern = components(pattern);
        self.secret_globs
            .iter()
            .position(|glob| paths_meet(&pattern, &glob_components(glob)))
            .map(|i| self.what[i].as_str())
    }

    /// What protected configuration a file of the glob pattern `pattern` may be (the
    /// names of [`HOME_STARTUP`] at any depth), if some name it matches is one.
    pub(super) fn pattern_protected(&self, pattern: &Path) -> Option<&str> {
        let pattern = components(pattern);
        if let Some(i) = self
            .protected_globs
            .iter()
            .position(|glob| paths_meet(&pattern, &glob_components(glob)))
        {
            return Some(&self.protected_what[i]);
        }
        HOME_STARTUP.iter().find_map(|(glob, what)| {
            let mut parts = vec!["**"];
            parts.extend(glob_components(glob));
            paths_meet(&pattern, &parts).then_some(*what)
        })
    }

    /// What secret `path` is, if it is one: by its own name, or by the name an editor's or a
    /// tool's copy of a file decorates ([`undecorated`]: `..env.swp` is vim's swap file of
    /// `.env`, `#.env#` emacs's auto-save, `server.pem~` and `server.pem.bak` backups), since
    /// a copy holds what the file holds.
    pub(super) fn matches(&self, path: &Path) -> Option<&str> {
        if let Some(what) = self.matches_as_named(path) {
            return Some(what);
        }
        let mut name = path.file_name()?.to_str()?;
        // A copy of a copy (`.env.bak~`), a few layers at most.
        for _ in 0..4 {
            let inner = undecorated(name)?;
            if let Some(what) = self.matches_as_named(&path.with_file_name(inner)) {
                return Some(what);
            }
            name = inner;
        }
        None
    }

    /// What secret `path` is by its own name.
    fn matches_as_named(&self, path: &Path) -> Option<&str> {
        if !self.needles.may_match(path.as_os_str().as_encoded_bytes()) {
            return None;
        }
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
            let public_key = lower.ends_with(".pub")
                && matches!(what, "an SSH directory" | "a copy of an SSH private key");
            !(template || public_key)
        })?;
        Some(&self.what[hit])
    }
}

/// Suffixes of copies tools leave beside a file: backups, a merge's and a patch's leftovers,
/// an editor's swap and save files (`.rej` holds the hunks a patch could not apply).
const COPY_SUFFIXES: &[&str] = &[
    "~",
    ".bak",
    ".backup",
    ".old",
    ".orig",
    ".save",
    ".sav",
    ".tmp",
    ".temp",
    ".copy",
    ".rej",
    ".dpkg-old",
    ".dpkg-dist",
    ".rpmsave",
    ".rpmnew",
    ".kate-swp",
    // Compressed and archived copies: the same bytes, through a decompressor.
    ".gz",
    ".bz2",
    ".xz",
    ".zst",
    ".zstd",
    ".lz4",
    ".lzma",
    ".lz",
    ".lzo",
    ".br",
    ".z",
    ".zip",
    ".7z",
    ".tar",
];

/// The name of the file `name` is a copy of, when it is named as one: a backup or leftover
/// suffix ([`COPY_SUFFIXES`], any case), vim's swap file `.NAME.swp` (`.swo`, …, `.swa`),
/// emacs's auto-save `#NAME#` and lock `.#NAME`.
fn undecorated(name: &str) -> Option<&str> {
    // Every suffix but `~` is one extension (`.bak`, `.dpkg-old`): the name's last one is
    // compared, not every suffix with the name's end.
    if let Some(stem) = name.strip_suffix('~').filter(|s| !s.is_empty()) {
        return Some(stem);
    }
    if let Some(dot) = name.rfind('.').filter(|d| *d > 0) {
        let extension = &name[dot..];
        if COPY_SUFFIXES
            .iter()
            .any(|s| s.eq_ignore_ascii_case(extension))
        {
            return Some(&name[..dot]);
        }
    }
    // vim: `.NAME.sw?`, the last letter counting down from `p`.
    if let Some(inner) = name.strip_prefix('.')
        && inner.len() > 4
        && inner.is_char_boundary(inner.len() - 4)
    {
        let (base, ext) = inner.split_at(inner.len() - 4);
        let ext = ext.as_bytes();
        if ext[..3].eq_ignore_ascii_case(b".sw") && ext[3].is_ascii_alphabetic() {
            return Some(base);
        }
    }
    if let Some(inner) = name.strip_prefix('#').and_then(|n| n.strip_suffix('#'))
        && !inner.is_empty()
    {
        return Some(inner);
    }
    name.strip_prefix(".#").filter(|inner| !inner.is_empty())
}

/// The components of a path as text (the root and empty ones left out).
fn components(path: &Path) -> Vec<&str> {
    path.to_str()
        .unwrap_or_default()
        .split('/')
        .filter(|c| !c.is_empty())
        .collect()
}

/// The components of a glob (empty ones left out).
fn glob_components(glob: &str) -> Vec<&str> {
    glob.split('/').filter(|c| !c.is_empty()).collect()
}

/// Whether some path both component lists match, each a list of globs of one component
/// (`**`: any number of components). `a` is a pattern a tool expands: as the shell and glob
/// libraries do by default, its wildcards do not match a name's leading `.`.
fn paths_meet(a: &[&str], b: &[&str]) -> bool {
    match (a.split_first(), b.split_first()) {
        (None, None) => true,
        (Some((&"**", rest)), _) => {
            paths_meet(rest, b) || (!b.is_empty() && paths_meet(a, &b[1..]))
        }
        (_, Some((&"**", rest))) => {
            paths_meet(a, rest) || (!a.is_empty() && paths_meet(&a[1..], b))
        }
        (Some((x, a_rest)), Some((y, b_rest))) => names_meet(x, y) && paths_meet(a_rest, b_rest),
        _ => false,
    }
}

/// One element of a component glob.
#[derive(Clone, Copy, PartialEq)]
enum Token {
    /// `*`: any run of characters.
    Star,
    /// `?` or a bracket class (read as any one character: a wider reading).
    One,
    /// A character, compared without case.
    Char(char),
}

/// A component glob as tokens; `None` for syntax not read here (braces, escapes), which
/// may match anything.
fn tokens(glob: &str) -> Option<Vec<Token>> {
    if glob.contains(['{', '}', '\\']) {
        return None;
    }
    let chars: Vec<char> = glob.chars().collect();
    let mut out = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' => out.push(Token::Star),
            '?' => out.push(Token::One),
            '[' => match chars[i + 1..].iter().skip(1).position(|&c| c == ']') {
                Some(close) => {
                    out.push(Token::One);
                    i += close + 2;
                }
                None => out.push(Token::Char('[')),
            },
            c => out.push(Token::Char(c.to_ascii_lowercase())),
        }
        i += 1;
    }
    Some(out)
}

/// Whether some name both component globs match (`.en?` and `.env`, `*.p?m` and `*.pem`);
/// a wildcard that starts `a` does not match a leading `.` of `b`.
fn names_meet(a: &str, b: &str) -> bool {
    let (Some(a), Some(b)) = (tokens(a), tokens(b)) else {
        return true;
    };
    if b.first() == Some(&Token::Char('.')) && !matches!(a.first(), Some(Token::Char(_))) {
        return false;
    }
    let width = b.len() + 1;
    let mut seen = vec![None; (a.len() + 1) * width];
    meet(&a, &b, 0, 0, &mut seen)
}

fn meet(a: &[Token], b: &[Token], i: usize, j: usize, seen: &mut [Option<bool>]) -> bool {
    let key = i * (b.len() + 1) + j;
    if let Some(known) = seen[key] {
        return known;
    }
    let result = if i == a.len() && j == b.len() {
        true
    } else if a.get(i) == Some(&Token::Star) {
        meet(a, b, i + 1, j, seen) || (j < b.len() && meet(a, b, i, j + 1, seen))
    } else if b.get(j) == Some(&Token::Star) {
        meet(a, b, i, j + 1, seen) || (i < a.len() && meet(a, b, i + 1, j, seen))
    } else if let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        let one = match (x, y) {
            (Token::Char(x), Token::Char(y)) => x == y,
            _ => true,
        };
        one && meet(a, b, i + 1, j + 1, seen)
    } else {
        false
    };
    seen[key] = Some(result);
    result
}

/// Whether the glob `i` of `set`, `**/` then `tail`, matches a file a write of a tree into
/// `dir` may create: `dir` joined with the tail or one of its ends (wildcards read as a
/// name); with `within_config`, not the whole tail (`dir` must be a directory of the glob).
fn below_anywhere(set: &GlobSet, i: usize, tail: &str, dir: &Path, within_config: bool) -> bool {
    let parts: Vec<&str> = tail
        .split('/')
        .map(|p| {
            if p.contains(['*', '?', '[', '{']) {
                "x"
            } else {
                p
            }
        })
        .collect();
    let first = usize::from(within_config);
    (first..parts.len()).any(|k| set.matches(dir.join(parts[k..].join("/"))).contains(&i))
}

/// Directories that hold other users' homes, one directory each.
const HOMES_OF_USERS: &[&str] = &["/home", "/Users"];

/// Home directories of every user whatever the environment says.
const FIXED_HOMES: &[&str] = &["/root", "/var/root"];

/// `path` relative to each home directory it lies in: `home` (the user's, when known),
/// root's, and `/home/NAME` or `/Users/NAME` for any name.
fn home_relatives<'p>(path: &'p Path, home: Option<&Path>) -> Vec<&'p Path> {
    // A base whose components start `path`'s has its first name where `path` has it: a base
    // whose first name is another cannot be stripped, and is not tried (most paths lie in
    // none of the homes, and comparing the whole of each base walks both paths).
    fn first_name(p: &Path) -> Option<&std::ffi::OsStr> {
        p.components().find_map(|c| match c {
            std::path::Component::Normal(name) => Some(name),
            _ => None,
        })
    }
    let named = first_name(path);
    let may_strip = |base: &Path| first_name(base).is_none_or(|b| named == Some(b));
    let mut out = Vec::new();
    let known = home.into_iter().chain(FIXED_HOMES.iter().map(Path::new));
    out.extend(
        known
            .filter(|h| may_strip(h))
            .filter_map(|h| path.strip_prefix(h).ok()),
    );
    for homes in HOMES_OF_USERS {
        if may_strip(Path::new(homes))
            && let Ok(rest) = path.strip_prefix(homes)
        {
            let mut parts = rest.components();
            if parts.next().is_some() {
                out.push(parts.as_path());
            }
        }
    }
    out
}

/// The home directories a write of a tree into `dir` may reach: `home` (the user's, when
/// known), root's, the user's home `dir` lies in, and any user's below `/home` and `/Users`.
fn home_bases(dir: &Path, home: Option<&Path>) -> Vec<std::path::PathBuf> {
    let mut out: Vec<std::path::PathBuf> = home
        .into_iter()
        .chain(FIXED_HOMES.iter().map(Path::new))
        .map(Path::to_path_buf)
        .collect();
    for homes in HOMES_OF_USERS {
        let homes = Path::new(homes);
        if let Ok(rest) = dir.strip_prefix(homes) {
            let user = rest.components().next().map_or_else(
                || std::ffi::OsStr::new("x").to_owned(),
                |c| c.as_os_str().to_owned(),
            );
            out.push(homes.join(user));
        } else if homes.starts_with(dir) {
            out.push(homes.join("x"));
        }
    }
    out
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

/// Text in the one case that folded matching compares: lower case (`PRIVATE/Key` is
/// `private/key`), borrowed when it has no upper-case letter.
pub(crate) fn fold(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(char::is_uppercase) {
        std::borrow::Cow::Owned(text.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// A glob matched without regard to case by folding: written in lower case and compiled as
/// written, to be matched against [`fold`]ed text. Unlike [`compile_secret`], it keeps the
/// glob set's literal and prefix strategies, so tens of thousands of them compile together.
pub(crate) fn compile_folded(glob: &str) -> Result<globset::Glob, globset::Error> {
    compile(&fold(glob))
}

/// A glob of secrets: `*` within one component, matched without regard to case (a
/// case-insensitive file system opens `.ENV` as `.env`).
pub(crate) fn compile_secret(glob: &str) -> Result<globset::Glob, globset::Error> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .case_insensitive(true)
        .build()
}

#[cfg(test)]
mod needle_tests {
    use super::*;

    /// Paths built from components that name secrets (in several cases), near misses and
    /// ordinary names: wherever a glob of the set matches, the needles let the path through.
    #[test]
    fn a_path_any_glob_matches_always_holds_a_needle() {
        let extra = [
            "secrets/**".to_owned(),
            "*.vault".to_owned(),
            "[ab]x".to_owned(),
        ];
        let protected = ["conf/*.lock".to_owned()];
        let paths = SensitivePaths::with_protected(&extra, &protected).unwrap();
        let parts = [
            "",
            "/",
            "src",
            ".SSH",
            ".ssh",
            "id_RSA",
            "Id_ed25519",
            ".Env",
            ".env.local",
            "x.PEM",
            "a.tfstate",
            "proc",
            "1",
            "environ",
            "etc",
            "Shadow",
            "sudoers.d",
            "ssh",
            "rsa_key",
            ".config",
            "GCloud",
            "gh",
            "Library",
            "keychains",
            "k.keychain-db",
            ".zsh_HISTORY",
            ".foo_history",
            "service-account-1.json",
            "Cookies",
            "Login Data",
            "warrant",
            "hook-token",
            "projects",
            "secrets",
            "a.vault",
            "bx",
            "cx",
            ".warrant",
            "warrant.toml",
            ".claude",
            "settings.json",
            ".vscode",
            "conf",
            "y.lock",
            "build",
            "README.md",
            ".pub",
            "k.pub",
        ];
        let mut checked = 0usize;
        for a in parts {
            for b in parts {
                for c in ["", "x", "id_rsa.pub", ".ENV", "credentials"] {
                    let text = format!("{a}/{b}/{c}");
                    let path = Path::new(&text);
                    let bytes = path.as_os_str().as_encoded_bytes();
                    if !paths.set.matches(path).is_empty() {
                        assert!(paths.needles.may_match(bytes), "{text}");
                    }
                    if !paths.protected.matches(path).is_empty() {
                        assert!(paths.protected_needles.may_match(bytes), "{text}");
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000);
        assert!(paths.needles.always, "a bracket glob is left to the set");
        let builtin = SensitivePaths::new(&[]).unwrap();
        assert!(
            !builtin.needles.always,
            "every built-in secret glob has a needle"
        );
        assert!(builtin.matches(Path::new("/w/build")).is_none());
        assert_eq!(
            builtin.matches(Path::new("/w/.SSH/config")),
            Some("an SSH directory")
        );
    }

    #[test]
    fn copies_of_secrets_an_editor_or_a_tool_leaves_are_secrets() {
        let sensitive = SensitivePaths::new(&[]).expect("defaults");
        for copy in [
            "/w/..env.swp",
            "/w/..env.swo",
            "/w/#.env#",
            "/w/.#.env",
            "/w/.env~",
            "/w/certs/server.pem~",
            "/w/certs/server.pem.bak",
            "/w/certs/server.pem.BAK",
            "/w/certs/.server.pem.swp",
            "/w/certs/#server.pem#",
            "/w/.env.bak~",
            "/w/x.key.orig",
            "/w/x.key.rej",
        ] {
            assert!(sensitive.matches(Path::new(copy)).is_some(), "{copy}");
        }
        for plain in [
            "/w/.main.rs.swp",
            "/w/#notes.md#",
            "/w/README.md~",
            "/w/src/app.py.bak",
            "/w/.swp",
            "/w/~",
            "/w/##",
            "/w/.#",
        ] {
            assert!(sensitive.matches(Path::new(plain)).is_none(), "{plain}");
        }
    }

    #[test]
    fn credential_and_history_files_of_common_tools_are_secrets() {
        let builtin = SensitivePaths::new(&[]).unwrap();
        for path in [
            "/h/.smbcredentials",
            "/h/.gitcookies",
            "/h/.zhistory",
            "/h/.Rhistory",
            "/h/.pip/pip.conf",
            "/h/.config/pip/pip.conf",
            "/h/.config/fish/fish_variables",
            "/h/.local/share/zsh/history",
            "/h/.local/state/bash/history",
            "/h/.cache/zsh/history",
            "/h/.bash_sessions/A1.history",
            "/h/.local/share/atuin/history.db",
            "/h/.config/atuin/key",
            "/h/.ivy2/.credentials",
            "/h/.m2/settings-security.xml",
            "/h/.claude.json",
            "/h/.config/filezilla/sitemanager.xml",
            "/h/.snowflake/config.toml",
            "/h/.config/snowflake/connections.toml",
            "/h/.netlify/config.json",
            "/h/.railway/config.json",
            "/h/.local/share/python_keyring/keyring_pass.cfg",
            "/h/.config/Bitwarden CLI/data.json",
            "/w/private.asc",
            "/w/secret.asc",
            "/h/.pgpass",
            "/h/.git-credentials",
            "/h/.config/gh/hosts.yml",
            "/h/.docker/config.json",
            "/h/.kube/config",
            "/h/.npmrc",
            "/h/.pypirc",
            "/h/.netrc",
            "/h/.authinfo.gpg",
            "/h/.psql_history",
            "/h/.config/rclone/rclone.conf",
            "/h/.config/hub",
            "/h/.terraformrc",
            "/h/.vault-token",
            "/h/.ssh/work",
        ] {
            assert!(builtin.matches(Path::new(path)).is_some(), "{path}");
        }
        for path in ["/w/src/history.rs", "/w/docs/history.md", "/w/key.asc.pub"] {
            assert!(builtin.matches(Path::new(path)).is_none(), "{path}");
        }
    }

    #[test]
    fn user_level_agent_and_editor_settings_are_protected() {
        let builtin = SensitivePaths::new(&[]).unwrap();
        for path in [
            "/h/.gemini/extensions/x/gemini-extension.json",
            "/h/.gemini/settings.json",
            "/h/.claude/plugins/marketplaces/m/p/hooks/hooks.json",
            "/h/.claude/plugins/installed_plugins.json",
            "/h/.claude/settings.json",
            "/h/.claude/agents/x.md",
            "/h/.claude/commands/x.md",
            "/h/.config/Code/User/settings.json",
            "/h/.config/Code/User/mcp.json",
            "/h/.config/Cursor/User/settings.json",
            "/h/.config/VSCodium/User/mcp.json",
            "/h/.config/Windsurf/User/settings.json",
            "/h/Library/Application Support/Code/User/settings.json",
            "/h/Library/Application Support/Cursor/User/mcp.json",
            "/h/.config/zed/settings.json",
            "/h/.config/Claude/claude_desktop_config.json",
            "/h/Library/Application Support/Claude/claude_desktop_config.json",
            "/h/.config/amp/settings.json",
            "/h/.config/goose/config.yaml",
            "/h/.cursor/mcp.json",
            "/h/.codeium/windsurf/mcp_config.json",
            "/h/.copilot/config.json",
        ] {
            assert!(
                builtin
                    .protects(Path::new(path), Some(Path::new("/h")), None)
                    .is_some(),
                "{path}"
            );
        }
        for path in [
            "/w/src/code/user/settings.json",
            "/w/app/config/user.json",
            "/w/docs/claude.md",
            "/w/.config/app/settings.json",
        ] {
            assert!(
                builtin
                    .protects(Path::new(path), Some(Path::new("/h")), None)
                    .is_none(),
                "{path}"
            );
        }
    }

    #[test]
    fn startup_and_persistence_files_are_protected() {
        let builtin = SensitivePaths::new(&[]).unwrap();
        for path in ["/h/.ssh/config", "/h/.ssh/authorized_keys", "/h/.ssh/rc"] {
            assert!(builtin.matches(Path::new(path)).is_some(), "{path}");
        }
        for path in [
            "/h/.bashrc",
            "/h/.bash_profile",
            "/h/.bash_login",
            "/h/.bash_logout",
            "/h/.profile",
            "/h/.zshrc",
            "/h/.zprofile",
            "/h/.zshenv",
            "/h/.zlogin",
            "/h/.config/fish/config.fish",
            "/h/.bashrc.d/x.sh",
            "/h/.xprofile",
            "/h/.config/environment.d/x.conf",
            "/h/.config/fish/conf.d/x.fish",
            "/h/.gitconfig",
            "/h/.config/git/config",
            "/h/.config/git/attributes",
            "/h/.config/autostart/x.desktop",
            "/h/.config/systemd/user/x.service",
            "/h/.config/systemd/user/default.target.wants/x.service",
            "/h/.local/share/applications/x.desktop",
        ] {
            assert!(
                builtin
                    .protects(Path::new(path), Some(Path::new("/h")), None)
                    .is_some(),
                "{path}"
            );
        }
        for path in [
            "/w/.github/workflows/ci.yml",
            "/w/.vscode/tasks.json",
            "/w/bashrc.example",
            "/w/.config/app/settings.json",
            "/h/.gitignore",
        ] {
            assert!(
                builtin
                    .protects(Path::new(path), Some(Path::new("/h")), None)
                    .is_none(),
                "{path}"
            );
        }
    }

    #[test]
    fn hook_managers_directories_and_startup_files_that_run_code_are_protected() {
        let builtin = SensitivePaths::new(&[]).unwrap();
        let home = Some(Path::new("/h"));
        let root = Some(Path::new("/w"));
        for path in [
            "/w/.husky/pre-commit",
            "/w/.husky/_/pre-commit",
            "/w/.githooks/pre-commit",
            "/w/sub/.githooks/post-checkout",
            "/h/.config/starship.toml",
            "/h/.config/i3/config",
            "/h/.config/sway/config",
            "/h/.config/hypr/hyprland.conf",
            "/h/.config/openbox/autostart",
            "/h/.config/lxsession/LXDE/autostart",
            "/h/.config/labwc/autostart",
            "/h/.julia/config/startup.jl",
            "/h/.octaverc",
            "/h/.tool-versions",
            "/h/.mise.toml",
            "/h/.envrc",
            "/h/.lesskey",
            "/h/.config/lesskey",
            "/h/.config/kitty/kitty.conf",
            "/h/.config/containers/containers.conf",
            "/h/.config/nix/nix.conf",
            "/h/.config/matplotlib/matplotlibrc",
            "/h/.rustup/settings.toml",
            "/h/.local/share/systemd/user/x.service",
            "/h/.pyenv/bin/git",
            "/h/.pyenv/plugins/pyenv-virtualenv/shims/python",
            "/h/.pyenv/versions/3.12.0/bin/pip",
            "/h/.nix-profile/bin/ls",
            "/h/.asdf/shims/node",
            "/h/.sdkman/candidates/java/current/bin/java",
            "/h/.dotnet/tools/x",
            "/h/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/bin/cargo",
            "/h/miniconda3/bin/python",
            // Outside the workspace any directory may be a home.
            "/tmp/other/.tool-versions",
            "/tmp/other/.pyenv/bin/git",
        ] {
            assert!(
                builtin.protects(Path::new(path), home, root).is_some(),
                "{path}"
            );
        }
        // The same names in the workspace are the project's, but hooks.
        for path in [
            "/w/.tool-versions",
            "/w/.envrc",
            "/w/mise.toml",
            "/w/starship.toml",
            "/w/.config/app.toml",
            "/w/docs/autostart.md",
            "/w/.pre-commit-config.yaml",
            "/w/lefthook.yml",
            "/h/.config/app/autostartx.toml",
            "/h/.cache/pip/x",
        ] {
            assert!(
                builtin.protects(Path::new(path), home, root).is_none(),
                "{path}"
            );
        }
    }

    #[test]
    fn startup_files_of_the_home_directory_are_protected_there_only() {
        let builtin = SensitivePaths::new(&[]).unwrap();
        let home = Some(Path::new("/h"));
        for path in [
            "/h/.bash_aliases",
            "/h/.bash_completion",
            "/h/.inputrc",
            "/h/.cargo/config",
            "/h/.cargo/config.toml",
            "/h/.local/bin/git",
            "/h/.cargo/bin/cargo",
            "/h/bin/ls",
            "/h/go/bin/gofmt",
            "/h/.npm-global/bin/npm",
            "/h/.vimrc",
            "/h/.vim/plugin/x.vim",
            "/h/.config/nvim/init.lua",
            "/h/.emacs",
            "/h/.emacs.d/init.el",
            "/h/.gdbinit",
            "/h/.ipython/profile_default/startup/00.py",
            "/h/.local/lib/python3.12/site-packages/x.pth",
            "/h/.local/lib/python3.12/site-packages/usercustomize.py",
            "/h/.gradle/init.d/x.gradle",
            "/h/.mavenrc",
            "/h/.config/direnv/direnvrc",
            "/h/.Rprofile",
            "/h/.irbrc",
            "/h/.pryrc",
            "/h/.psqlrc",
            "/h/.curlrc",
            "/h/.wgetrc",
            "/h/.tmux.conf",
            "/h/.screenrc",
            "/h/.BASHRC",
            // Root's and other users' homes, whatever the user's is.
            "/root/.bashrc",
            "/home/other/.bash_aliases",
            "/Users/other/.local/bin/git",
        ] {
            assert!(
                builtin.protects(Path::new(path), home, None).is_some(),
                "{path}"
            );
        }
        // The same names in a workspace, or in a directory of a home that is not one of
        // them, are ordinary files.
        for path in [
            ("/w", "/w/dotfiles/.bashrc"),
            ("/w", "/w/dotfiles/.bash_aliases"),
            ("/w", "/w/notes/.inputrc"),
            ("/w", "/w/bin/build.sh"),
            ("/w", "/w/.local/bin/x"),
            ("/w", "/w/.cargo/config"),
            ("/h/proj", "/h/proj/.bashrc"),
            ("/h/proj", "/h/proj/bin/run"),
            ("/home/u/proj", "/home/u/proj/.vimrc"),
            ("/w", "/h/.local/share/x.txt"),
            ("/w", "/h/.cargo/registry/x"),
        ] {
            let root = Some(Path::new(path.0));
            assert!(
                builtin.protects(Path::new(path.1), home, root).is_none(),
                "{path:?}"
            );
        }
        // Outside the workspace, any directory may be the home of a later shell.
        for path in ["/tmp/x/home/.profile", "/srv/u/.local/bin/git"] {
            let root = Some(Path::new("/w"));
            assert!(
                builtin.protects(Path::new(path), home, root).is_some(),
                "{path}"
            );
        }
        // A tree written into a home directory, or into a directory of programs, may create
        // them; one written into a project of the home may not.
        for dir in ["/h", "/", "/home", "/home/u"] {
            assert!(
                builtin.home_below(Path::new(dir), false, home).is_some(),
                "{dir}"
            );
        }
        for dir in ["/h/.local/bin/sub", "/h/.vim", "/home/u/bin"] {
            assert!(
                builtin
                    .protects_below(Path::new(dir), true, home, Some(Path::new("/w")))
                    .is_some(),
                "{dir}"
            );
        }
        for dir in ["/h/proj", "/home/u/proj/src", "/w"] {
            // (the workspace: outside it, any directory may be a home)
            assert!(
                builtin.home_below(Path::new(dir), false, home).is_none(),
                "{dir}"
            );
            assert!(
                builtin
                    .protects_below(Path::new(dir), true, home, Some(Path::new(dir)))
                    .is_none(),
                "{dir}"
            );
        }
    }

    #[test]
    fn a_pattern_is_the_secrets_its_names_may_be() {
        let builtin = SensitivePaths::new(&[]).unwrap();
        for pattern in [
            "/w/.en?",
            "/w/.e*",
            "/w/.env?x",
            "/w/[.]env",
            "/w/*.pe?",
            "/w/config/*.p[e]m",
            "/h/.ss?/id_*",
            "/h/*/id_rsa",
            "/w/**/.env",
            "/etc/shado?",
            "/w/x/*",
        ] {
            let hit = builtin.pattern_secret(Path::new(pattern));
            // `/w/x/*` may be `/w/x/secrets.json`.
            assert!(hit.is_some(), "{pattern}");
        }
        for pattern in [
            "/w/src/mai?.rs",
            "/w/app/[id]/page.tsx",
            "/w/docs/READ?E.md",
            "/w/src/[...slug]/index.ts",
        ] {
            let hit = builtin.pattern_secret(Path::new(pattern));
            assert!(hit.is_none(), "{pattern}: {hit:?}");
        }
        for pattern in [
            "/h/.bash_alias?s",
            "/h/.claude/setting?.json",
            "/h/.local/bin/g*",
        ] {
            assert!(
                builtin.pattern_protected(Path::new(pattern)).is_some(),
                "{pattern}"
            );
        }
        assert!(
            builtin
                .pattern_protected(Path::new("/w/src/*.rs"))
                .is_none()
        );
        assert!(names_meet(".en?", ".env") && names_meet("*", "id_rsa"));
        assert!(!names_meet(".en?", ".envx") && !names_meet("a*", "b*"));
        assert!(!names_meet("*", ".env") && !names_meet("?env", ".env"));
        assert!(names_meet("a*", "*b") && names_meet("x{a,b}", "y"));
    }

    #[test]
    fn required_texts_are_literal_runs_of_components() {
        assert_eq!(required_text("**/.ssh/**"), Some(b".ssh".to_vec()));
        assert_eq!(required_text("/proc/*/environ"), Some(b"environ".to_vec()));
        assert_eq!(required_text("**/*.PEM"), Some(b".pem".to_vec()));
        assert_eq!(required_text("**/*"), None);
        assert_eq!(required_text("**/{a,b}"), None);
        let one = SensitivePaths::new(&["x".to_owned()]).unwrap();
        assert!(one.needles.always, "a one-byte text is left to the set");
        assert_eq!(
            one.matches(Path::new("/w/x")),
            Some("a path configured as sensitive (x)")
        );
    }
}

//! The reason codes the `policy` evaluator answers with.

/// The input breaks the tool's input schema (deny).
pub const VALIDATION_INVALID_INPUT: &str = "validation_invalid_input";
/// Every part of the shell command only reads inside the workspace (allow).
pub const SHELL_READ_ONLY: &str = "shell_read_only";
/// A part of the shell command destroys data or the system, or runs downloaded code (deny).
pub const SHELL_DESTRUCTIVE: &str = "shell_destructive";
/// A part of the shell command changes files inside the workspace (open).
pub const SHELL_WRITE: &str = "shell_write";
/// A part of the shell command talks to the network (open).
pub const SHELL_NETWORK: &str = "shell_network";
/// A part of the shell command runs with raised privileges (open).
pub const SHELL_PRIVILEGED: &str = "shell_privileged";
/// A part of the shell command runs a program the policy does not know (open).
pub const SHELL_UNKNOWN_COMMAND: &str = "shell_unknown_command";
/// The shell command, or code inside it, cannot be parsed (open).
pub const SHELL_UNPARSEABLE: &str = "shell_unparseable";
/// The call touches a secret: SSH or cloud credentials, `.env`, keys, keychains (deny).
pub const FILESYSTEM_SENSITIVE_PATH: &str = "filesystem_sensitive_path";
/// A recursive read or search covers a tree that holds a secret, or a link leaving the
/// workspace (open).
pub const FILESYSTEM_SENSITIVE_TREE: &str = "filesystem_sensitive_tree";
/// The call writes the operating system's own files or a device (deny).
pub const FILESYSTEM_SYSTEM_PATH: &str = "filesystem_system_path";
/// The call reads or writes outside the workspace (open).
pub const FILESYSTEM_OUTSIDE_WORKSPACE: &str = "filesystem_outside_workspace";
/// The call writes a file inside the workspace (open).
pub const FILESYSTEM_WRITE_INSIDE_WORKSPACE: &str = "filesystem_write_inside_workspace";
/// The call writes configuration that decides what agents may do: Warrant's own, an
/// agent's settings (deny: a person edits it, never a call).
pub const FILESYSTEM_PROTECTED_CONFIG: &str = "filesystem_protected_config";
/// A read-only tool (view, glob, grep, an LSP query) reads inside the workspace (allow).
pub const READ_ONLY_TOOL: &str = "read_only_tool";

/// Every code the policy evaluator can answer with.
pub const ALL: &[&str] = &[
    VALIDATION_INVALID_INPUT,
    SHELL_READ_ONLY,
    SHELL_DESTRUCTIVE,
    SHELL_WRITE,
    SHELL_NETWORK,
    SHELL_PRIVILEGED,
    SHELL_UNKNOWN_COMMAND,
    SHELL_UNPARSEABLE,
    FILESYSTEM_SENSITIVE_PATH,
    FILESYSTEM_SENSITIVE_TREE,
    FILESYSTEM_SYSTEM_PATH,
    FILESYSTEM_OUTSIDE_WORKSPACE,
    FILESYSTEM_WRITE_INSIDE_WORKSPACE,
    FILESYSTEM_PROTECTED_CONFIG,
    READ_ONLY_TOOL,
];

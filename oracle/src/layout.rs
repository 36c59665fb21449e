//! Where things are inside the sandbox. The policy is told the same paths, so the policy and
//! the sandbox agree on what is the workspace and what is home.

/// The fake home directory holding the planted secrets (`~` for the policy and the shell).
pub const HOME: &str = "/home/agent";

/// The workspace root: a fresh copy of the fixture tree for every command.
pub const WORKSPACE: &str = "/home/agent/project";

/// Where the read-only fixture source is mounted, to be copied into the fresh home.
pub const FIXTURE_MOUNT: &str = "/run/oracle-fixture";

//! Bakes the compiler's version into the crate, for the C ABI's declaration.

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(&rustc)
        .arg("-vV")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .and_then(|text| {
            let release = text
                .lines()
                .find_map(|l| l.strip_prefix("release: "))?
                .to_owned();
            let commit = text
                .lines()
                .find_map(|l| l.strip_prefix("commit-hash: "))
                .unwrap_or("unknown");
            Some(format!("{release} ({commit})"))
        })
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=WARRANT_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-env-changed=RUSTC");
}

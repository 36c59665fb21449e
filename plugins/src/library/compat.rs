//! Whether a plugin was built for this host: the ABI, core and compiler versions must match.

use warrant_plugin_sdk::abi::{ABI_VERSION, CORE_VERSION, RUSTC_VERSION};

/// Checks the ABI version a plugin reported, before anything else is called.
pub(crate) fn check_abi(plugin_abi: u32) -> Result<(), String> {
    if plugin_abi == ABI_VERSION {
        Ok(())
    } else {
        Err(format!(
            "refused: built for plugin ABI version {plugin_abi}, this host speaks version \
             {ABI_VERSION}; rebuild the plugin against warrant-plugin-sdk {CORE_VERSION}"
        ))
    }
}

/// Checks the plugin's declaration: its core version and its compiler.
pub(crate) fn check_declaration(abi: u32, core: &str, rustc: &str) -> Result<(), String> {
    check_abi(abi)?;
    if core != CORE_VERSION {
        return Err(format!(
            "refused: built against warrant-core {core}, this host has {CORE_VERSION}; rebuild \
             the plugin against warrant-plugin-sdk {CORE_VERSION}"
        ));
    }
    if rustc != RUSTC_VERSION {
        return Err(format!(
            "refused: built by rustc {rustc}, this host by rustc {RUSTC_VERSION}; rebuild the \
             plugin with the host's compiler"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_versions_are_accepted() {
        assert_eq!(
            check_declaration(ABI_VERSION, CORE_VERSION, RUSTC_VERSION),
            Ok(())
        );
    }

    #[test]
    fn another_core_version_is_refused_by_name() {
        let err = check_declaration(ABI_VERSION, "0.0.1", RUSTC_VERSION).unwrap_err();
        assert!(err.contains("warrant-core 0.0.1"), "{err}");
    }

    #[test]
    fn another_compiler_is_refused_by_name() {
        let err = check_declaration(ABI_VERSION, CORE_VERSION, "1.70.0 (abc)").unwrap_err();
        assert!(err.contains("rustc 1.70.0 (abc)"), "{err}");
    }

    #[test]
    fn another_abi_is_refused_before_the_rest_is_read() {
        let err = check_declaration(ABI_VERSION + 1, "garbage", "garbage").unwrap_err();
        assert!(err.contains("plugin ABI version"), "{err}");
    }
}

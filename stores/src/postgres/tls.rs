//! TLS to the server: rustls, the certificate and its host name always verified.
//!
//! Whether a connection uses TLS is the connection string's `sslmode`: `disable` never,
//! `prefer` (the default) when the server offers it, `require` always. Unlike libpq, a TLS
//! connection is never made to a server whose certificate is not verified: `prefer` and
//! `require` both check the chain against the trusted roots and the host name against the
//! certificate, as libpq's `verify-full` does. A unix socket never uses TLS (the server does
//! not offer it there).

use std::path::Path;
use std::sync::Arc;

use rustls::RootCertStore;
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;
use tokio_postgres_rustls::MakeRustlsConnect;
use warrant_core::store::{StoreError, StoreErrorKind};

/// The connector every connection of a store uses: trusting the certificates of `ca_file`
/// (PEM) when given, the public web roots otherwise.
///
/// # Errors
///
/// `Invalid`, naming the file, when `ca_file` cannot be read or holds no certificate.
pub(crate) fn connector(ca_file: Option<&Path>) -> Result<MakeRustlsConnect, StoreError> {
    let mut roots = RootCertStore::empty();
    match ca_file {
        Some(path) => {
            let invalid = |why: String| {
                StoreError::new(
                    StoreErrorKind::Invalid,
                    format!("the postgres tls_ca_file {}: {why}", path.display()),
                )
            };
            let certificates = CertificateDer::pem_file_iter(path)
                .map_err(|e| invalid(e.to_string()))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| invalid(e.to_string()))?;
            if certificates.is_empty() {
                return Err(invalid("holds no PEM certificate".to_owned()));
            }
            for certificate in certificates {
                roots
                    .add(certificate)
                    .map_err(|e| invalid(format!("a certificate is not usable: {e}")))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| {
            StoreError::new(
                StoreErrorKind::Invalid,
                format!("postgres TLS configuration: {e}"),
            )
        })?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_empty_ca_file_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("absent-ca.pem");
        let err = connector(Some(&missing)).err().expect("refused");
        assert_eq!(err.kind, StoreErrorKind::Invalid);
        assert!(err.to_string().contains("absent-ca.pem"), "{err}");

        let empty = dir.path().join("empty-ca.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let err = connector(Some(&empty)).err().expect("refused");
        assert!(err.to_string().contains("empty-ca.pem"), "{err}");
        assert!(err.to_string().contains("no PEM certificate"), "{err}");

        assert!(connector(None).is_ok());
    }
}

//! TLS for the PostgreSQL back end, with rustls, following libpq's
//! `sslmode` and `sslrootcert` parameters.
//!
//! The driver (rust-postgres) parses only `sslmode=disable|prefer|require`,
//! so [`PgTarget::parse`] takes `sslmode` and `sslrootcert` out of the
//! connection string (URL or keyword form), hands the rest to the driver's
//! parser and applies the verification itself in [`MakeRustlsConnect`]:
//!
//! - `disable`: never TLS.
//! - `prefer` (the default, as in libpq): TLS if the server offers it, else
//!   plain; the certificate is not checked (libpq does not either).
//! - `require`: TLS or no connection; the certificate is not checked, unless
//!   `sslrootcert` is given: then, as libpq does, it is checked like `verify-ca`.
//! - `verify-ca`: TLS, and the server's certificate must chain to a trusted root.
//! - `verify-full`: `verify-ca`, and the certificate must name the host connected to.
//!
//! The trusted roots are the certificates of the PEM file `sslrootcert`
//! names, or with `sslrootcert=system` (or no `sslrootcert`) the system's
//! trust store (read with rustls-native-certs). libpq with no `sslrootcert`
//! reads `~/.postgresql/root.crt` and fails without it; the system's store
//! is the more useful default for managed services whose certificates are
//! signed by a public CA. As in libpq 16, `sslrootcert=system` with a mode
//! weaker than `verify-full` is refused (a public CA signs anybody's host).

use super::redact::{percent_decode, redact_url};
use postgres::tls::{ChannelBinding, MakeTlsConnect, TlsConnect};
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::str::FromStr;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// libpq's `sslmode`: whether TLS is used and what is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// Never TLS.
    Disable,
    /// TLS if the server offers it; no certificate check.
    Prefer,
    /// TLS or nothing; no certificate check unless `sslrootcert` is given.
    Require,
    /// TLS; the certificate chains to a trusted root.
    VerifyCa,
    /// TLS; the certificate chains to a trusted root and names the host.
    VerifyFull,
}

/// The values `sslmode` takes, for error messages.
const SSL_MODES: &str = "disable, prefer, require, verify-ca or verify-full";

impl FromStr for SslMode {
    type Err = TlsConfigError;

    fn from_str(s: &str) -> Result<SslMode, TlsConfigError> {
        Ok(match s {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            // libpq knows `allow` (plain first, TLS if refused); the driver
            // cannot try twice, and `prefer` is what such a setup wants.
            other => {
                return Err(TlsConfigError::BadSslMode {
                    value: other.to_string(),
                });
            }
        })
    }
}

impl std::fmt::Display for SslMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        })
    }
}

/// Where the trusted root certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RootCerts {
    /// The system's trust store.
    System,
    /// The certificates of a PEM file.
    File(PathBuf),
}

/// A connection string gamehost cannot use for its TLS settings.
#[derive(Debug, thiserror::Error)]
pub enum TlsConfigError {
    /// `sslmode` has a value libpq does not define (or gamehost does not support).
    #[error("sslmode={value} is not a TLS mode: use one of {SSL_MODES}")]
    BadSslMode {
        /// The value found.
        value: String,
    },
    /// `sslrootcert=system` with a mode that would not check the host name.
    #[error(
        "sslrootcert=system needs sslmode=verify-full (found sslmode={mode}): any host can get a \
         certificate from a public CA, so only the host name check makes the system's roots mean \
         anything; drop sslmode or set it to verify-full"
    )]
    SystemRootsNeedVerifyFull {
        /// The mode found.
        mode: SslMode,
    },
    /// A TLS parameter libpq has and gamehost does not implement.
    #[error(
        "{key} is not supported: gamehost's PostgreSQL TLS takes sslmode and sslrootcert only \
         (no client certificates); authenticate with a password instead"
    )]
    Unsupported {
        /// The parameter's name.
        key: String,
    },
    /// The root certificate file could not be read or holds no certificate.
    #[error("sslrootcert={path}: {reason}; give a PEM file holding the server's CA certificate")]
    RootCertFile {
        /// The file named.
        path: String,
        /// What was wrong with it.
        reason: String,
    },
    /// The system's trust store yielded no certificate.
    #[error(
        "no trusted root certificates found on this system ({reason}); install the CA \
         certificates package or give the server's CA file with sslrootcert=<file>"
    )]
    NoSystemRoots {
        /// What loading them reported.
        reason: String,
    },
    /// The rest of the connection string did not parse.
    #[error("the PostgreSQL connection string {conn} is invalid: {reason}")]
    Invalid {
        /// The connection string without its password.
        conn: String,
        /// The driver's reason.
        reason: String,
    },
}

/// A PostgreSQL server to connect to: the driver's settings and ours for TLS.
pub(crate) struct PgTarget {
    /// The driver's configuration (its `ssl_mode` set from ours).
    pub(crate) config: tokio_postgres::Config,
    /// The TLS mode asked for.
    pub(crate) mode: SslMode,
    /// The trusted roots, when the mode checks the certificate.
    pub(crate) roots: Option<RootCerts>,
}

impl PgTarget {
    /// Parses a connection string (URL or libpq keyword form) with its TLS
    /// parameters; nothing is read from disk yet.
    pub(crate) fn parse(conn: &str) -> Result<PgTarget, TlsConfigError> {
        let (rest, params) = take_tls_params(conn)?;
        let mut mode = None;
        let mut rootcert = None;
        for (key, value) in params {
            match key.as_str() {
                "sslmode" => mode = Some(value.parse::<SslMode>()?),
                "sslrootcert" => rootcert = Some(value),
                _ => return Err(TlsConfigError::Unsupported { key }),
            }
        }
        let roots = match rootcert.as_deref() {
            Some("system") => Some(RootCerts::System),
            Some(path) => Some(RootCerts::File(PathBuf::from(path))),
            None => None,
        };
        let mode = match (mode, &roots) {
            // libpq 16: `sslrootcert=system` defaults to verify-full and
            // refuses anything weaker.
            (None, Some(RootCerts::System)) => SslMode::VerifyFull,
            (Some(m), Some(RootCerts::System)) if m != SslMode::VerifyFull => {
                return Err(TlsConfigError::SystemRootsNeedVerifyFull { mode: m });
            }
            (m, _) => m.unwrap_or(SslMode::Prefer),
        };
        let roots = match mode {
            SslMode::Disable | SslMode::Prefer => None,
            // libpq: `require` with a root file checks like verify-ca.
            SslMode::Require => roots,
            SslMode::VerifyCa | SslMode::VerifyFull => Some(roots.unwrap_or(RootCerts::System)),
        };
        let mut config =
            tokio_postgres::Config::from_str(&rest).map_err(|e| TlsConfigError::Invalid {
                conn: redact_url(conn),
                reason: e.to_string(),
            })?;
        config.ssl_mode(match mode {
            SslMode::Disable => tokio_postgres::config::SslMode::Disable,
            SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
            _ => tokio_postgres::config::SslMode::Require,
        });
        Ok(PgTarget {
            config,
            mode,
            roots,
        })
    }

    /// What the certificate check amounts to, for messages and logs.
    pub(crate) fn check(&self) -> &'static str {
        match (self.mode, &self.roots) {
            (SslMode::Disable, _) => "no TLS",
            (SslMode::Prefer, _) => "TLS if offered, certificate not checked",
            (SslMode::Require, None) => "TLS, certificate not checked",
            (SslMode::VerifyFull, _) => "TLS, certificate chain and host name checked",
            // verify-ca always has roots (the system's by default).
            (SslMode::VerifyCa, _) | (SslMode::Require, Some(_)) => {
                "TLS, certificate chain checked"
            }
        }
    }

    /// The rustls connector for this target (`None` for `sslmode=disable`),
    /// with its trusted roots loaded.
    pub(crate) fn connector(&self) -> Result<Option<MakeRustlsConnect>, TlsConfigError> {
        if self.mode == SslMode::Disable {
            return Ok(None);
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .expect("ring supports rustls's default protocol versions");
        let verifier: Arc<dyn ServerCertVerifier> = match &self.roots {
            None => Arc::new(NoCertificateCheck(provider)),
            Some(roots) => {
                let store = Arc::new(load_roots(roots)?);
                let webpki =
                    rustls::client::WebPkiServerVerifier::builder_with_provider(store, provider)
                        .build()
                        .map_err(|e| TlsConfigError::RootCertFile {
                            path: roots_name(roots),
                            reason: e.to_string(),
                        })?;
                Arc::new(ChainCheck {
                    webpki,
                    check_name: self.mode == SslMode::VerifyFull,
                })
            }
        };
        let mut config = builder
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        // PostgreSQL 17 checks the ALPN of direct TLS; earlier servers ignore it.
        config.alpn_protocols = vec![b"postgresql".to_vec()];
        Ok(Some(MakeRustlsConnect {
            config: Arc::new(config),
        }))
    }
}

/// How `roots` is named in messages.
fn roots_name(roots: &RootCerts) -> String {
    match roots {
        RootCerts::System => "system".into(),
        RootCerts::File(p) => p.display().to_string(),
    }
}

/// The trusted roots: the PEM file's certificates, or the system's.
fn load_roots(roots: &RootCerts) -> Result<RootCertStore, TlsConfigError> {
    let mut store = RootCertStore::empty();
    match roots {
        RootCerts::File(path) => {
            let bad = |reason: String| TlsConfigError::RootCertFile {
                path: path.display().to_string(),
                reason,
            };
            let pem = std::fs::read(path).map_err(|e| bad(format!("cannot be read: {e}")))?;
            let certs = CertificateDer::pem_slice_iter(&pem)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| bad(format!("is not valid PEM: {e}")))?;
            if certs.is_empty() {
                return Err(bad(
                    "holds no certificate (no BEGIN CERTIFICATE block)".into()
                ));
            }
            for cert in certs {
                store
                    .add(cert)
                    .map_err(|e| bad(format!("holds a certificate rustls cannot use: {e}")))?;
            }
        }
        RootCerts::System => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _ignored) = store.add_parsable_certificates(found.certs);
            if added == 0 {
                let reason = if found.errors.is_empty() {
                    "the trust store is empty".to_string()
                } else {
                    found
                        .errors
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                return Err(TlsConfigError::NoSystemRoots { reason });
            }
        }
    }
    Ok(store)
}

/// Splits `sslmode`, `sslrootcert` and libpq's other TLS parameters out of
/// a connection string: the string without them, and them (key, value
/// decoded) in order.
fn take_tls_params(conn: &str) -> Result<(String, Vec<(String, String)>), TlsConfigError> {
    let is_tls_key = |key: &str| {
        matches!(
            key,
            "sslmode"
                | "sslrootcert"
                | "sslcert"
                | "sslkey"
                | "sslpassword"
                | "sslcrl"
                | "sslcrldir"
                | "sslcertmode"
        )
    };
    let mut taken = Vec::new();
    if conn.starts_with("postgres://") || conn.starts_with("postgresql://") {
        let Some((base, query)) = conn.split_once('?') else {
            return Ok((conn.to_string(), taken));
        };
        let mut kept = Vec::new();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(key);
            if is_tls_key(&key) {
                taken.push((key, percent_decode(value)));
            } else {
                kept.push(pair);
            }
        }
        let rest = if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        return Ok((rest, taken));
    }
    let mut kept = Vec::new();
    for (key, value, raw) in keyword_pairs(conn).map_err(|reason| TlsConfigError::Invalid {
        conn: redact_url(conn),
        reason,
    })? {
        if is_tls_key(&key) {
            taken.push((key, value));
        } else {
            kept.push(raw);
        }
    }
    Ok((kept.join(" "), taken))
}

/// The `key=value` pairs of libpq's keyword form: each key, its value
/// unquoted and unescaped, and the pair as written.
fn keyword_pairs(conn: &str) -> Result<Vec<(String, String, String)>, String> {
    let mut pairs = Vec::new();
    let mut chars = conn.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else {
            break;
        };
        let mut key = String::new();
        while let Some((_, c)) = chars.next_if(|(_, c)| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        if chars.next_if(|(_, c)| *c == '=').is_none() {
            return Err(format!("`{key}` has no `=value` after it"));
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let quoted = chars.next_if(|(_, c)| *c == '\'').is_some();
        let mut value = String::new();
        let mut end = conn.len();
        let mut closed = !quoted;
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
                continue;
            }
            if quoted && c == '\'' {
                end = i + 1;
                closed = true;
                break;
            }
            if !quoted && c.is_whitespace() {
                end = i;
                break;
            }
            value.push(c);
        }
        if !closed {
            return Err(format!("the value of `{key}` has no closing quote"));
        }
        pairs.push((key, value, conn[start..end].to_string()));
    }
    Ok(pairs)
}

/// Accepts any certificate (`prefer`, `require` without roots: libpq's
/// meaning, encryption against passive listeners only) but still checks the
/// handshake's signatures, so the server holds the key of what it sent.
#[derive(Debug)]
struct NoCertificateCheck(Arc<CryptoProvider>);

impl ServerCertVerifier for NoCertificateCheck {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// The chain check of webpki, with the host name check left out for
/// `verify-ca` (and `require` with roots).
#[derive(Debug)]
struct ChainCheck {
    webpki: Arc<rustls::client::WebPkiServerVerifier>,
    check_name: bool,
}

impl ServerCertVerifier for ChainCheck {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self.webpki.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        ) {
            // webpki checks the name after the chain: this error means the
            // chain was good.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.check_name => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// Makes the driver's TLS sessions with rustls (its `MakeTlsConnect`).
#[derive(Clone)]
pub(crate) struct MakeRustlsConnect {
    config: Arc<ClientConfig>,
}

impl<S> MakeTlsConnect<S> for MakeRustlsConnect
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = RustlsStream<S>;
    type TlsConnect = RustlsConnect;
    type Error = TlsHandshakeError;

    fn make_tls_connect(&mut self, host: &str) -> Result<RustlsConnect, TlsHandshakeError> {
        let name = ServerName::try_from(host.to_string()).map_err(|e| TlsHandshakeError {
            reason: format!("`{host}` is no host name to check a certificate against: {e}"),
        })?;
        Ok(RustlsConnect {
            name,
            connector: tokio_rustls::TlsConnector::from(self.config.clone()),
        })
    }
}

/// One TLS session about to start, with the host name it is for.
pub(crate) struct RustlsConnect {
    name: ServerName<'static>,
    connector: tokio_rustls::TlsConnector,
}

impl<S> TlsConnect<S> for RustlsConnect
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    type Stream = RustlsStream<S>;
    type Error = TlsHandshakeError;
    type Future = Pin<Box<dyn Future<Output = Result<RustlsStream<S>, TlsHandshakeError>> + Send>>;

    fn connect(self, stream: S) -> Self::Future {
        let connect = self.connector.connect(self.name, stream);
        Box::pin(async move {
            connect
                .await
                .map(RustlsStream)
                .map_err(|e| TlsHandshakeError {
                    // rustls's own error sits inside the I/O error.
                    reason: e
                        .get_ref()
                        .map_or_else(|| e.to_string(), |inner| inner.to_string()),
                })
        })
    }
}

/// A TLS handshake with the server failed (so the server was reached).
#[derive(Debug, thiserror::Error)]
#[error("{reason}")]
pub struct TlsHandshakeError {
    /// rustls's reason.
    pub reason: String,
}

/// An established TLS session.
pub(crate) struct RustlsStream<S>(tokio_rustls::client::TlsStream<S>);

impl<S> postgres::tls::TlsStream for RustlsStream<S>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    fn channel_binding(&self) -> ChannelBinding {
        // No `tls-server-end-point` binding: SCRAM authenticates without
        // it (the driver's default `channel_binding=prefer`).
        ChannelBinding::none()
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for RustlsStream<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for RustlsStream<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(conn: &str) -> PgTarget {
        PgTarget::parse(conn).unwrap_or_else(|e| panic!("{conn}: {e}"))
    }

    #[test]
    fn the_default_is_prefer_without_a_certificate_check() {
        let t = parse("postgres://game@db.local/gamehost");
        assert_eq!((t.mode, t.roots), (SslMode::Prefer, None));
        assert_eq!(t.config.get_ssl_mode(), postgres::config::SslMode::Prefer);
    }

    #[test]
    fn each_mode_asks_the_driver_for_tls_as_libpq_would() {
        use postgres::config::SslMode as Driver;
        for (mode, ours, driver, roots) in [
            ("disable", SslMode::Disable, Driver::Disable, None),
            ("prefer", SslMode::Prefer, Driver::Prefer, None),
            ("require", SslMode::Require, Driver::Require, None),
            (
                "verify-ca",
                SslMode::VerifyCa,
                Driver::Require,
                Some(RootCerts::System),
            ),
            (
                "verify-full",
                SslMode::VerifyFull,
                Driver::Require,
                Some(RootCerts::System),
            ),
        ] {
            for conn in [
                format!("postgres://game@db.local:5433/gamehost?sslmode={mode}"),
                format!("host=db.local port=5433 user=game sslmode={mode} dbname=gamehost"),
            ] {
                let t = parse(&conn);
                assert_eq!(t.mode, ours, "{conn}");
                assert_eq!(t.roots, roots, "{conn}");
                assert_eq!(t.config.get_ssl_mode(), driver, "{conn}");
                assert_eq!(t.config.get_ports(), &[5433], "{conn}");
                assert_eq!(t.config.get_dbname(), Some("gamehost"), "{conn}");
            }
        }
    }

    #[test]
    fn a_root_file_is_taken_out_of_the_string_and_kept() {
        let t = parse(
            "postgres://game:pw@db.local/gamehost?application_name=x&sslrootcert=%2Fetc%2Fca%20file.pem&sslmode=verify-full",
        );
        assert_eq!(t.mode, SslMode::VerifyFull);
        assert_eq!(t.roots, Some(RootCerts::File("/etc/ca file.pem".into())));
        assert_eq!(t.config.get_application_name(), Some("x"));
        let t = parse(
            "host=db.local sslrootcert='/etc/my ca.pem' user=game sslmode=verify-ca password=pw",
        );
        assert_eq!(t.mode, SslMode::VerifyCa);
        assert_eq!(t.roots, Some(RootCerts::File("/etc/my ca.pem".into())));
        assert_eq!(t.config.get_user(), Some("game"));
        assert_eq!(t.config.get_password(), Some(&b"pw"[..]));
    }

    #[test]
    fn require_with_a_root_file_checks_the_chain_like_libpq() {
        let t = parse("postgres://db.local/g?sslmode=require&sslrootcert=/ca.pem");
        assert_eq!(t.roots, Some(RootCerts::File("/ca.pem".into())));
        assert_eq!(t.check(), "TLS, certificate chain checked");
        // prefer never checks, root file or not.
        let t = parse("postgres://db.local/g?sslmode=prefer&sslrootcert=/ca.pem");
        assert_eq!(t.roots, None);
    }

    #[test]
    fn system_roots_mean_verify_full() {
        let t = parse("postgres://db.local/g?sslrootcert=system");
        assert_eq!(t.mode, SslMode::VerifyFull);
        assert_eq!(t.roots, Some(RootCerts::System));
        let e = PgTarget::parse("postgres://db.local/g?sslrootcert=system&sslmode=require")
            .err()
            .expect("require with system roots is refused");
        assert!(e.to_string().contains("needs sslmode=verify-full"), "{e}");
    }

    #[test]
    fn a_bad_mode_says_what_would_be_right_without_the_password() {
        for conn in [
            "postgres://game:s3cret@db.local/g?sslmode=verify_full",
            "host=db.local password=s3cret sslmode=verify_full",
        ] {
            let e = PgTarget::parse(conn).err().expect("a bad mode is refused");
            let shown = e.to_string();
            assert_eq!(
                shown,
                "sslmode=verify_full is not a TLS mode: use one of disable, prefer, require, \
                 verify-ca or verify-full"
            );
        }
        let e = PgTarget::parse("postgres://game:s3cret@db.local:notaport/g")
            .err()
            .expect("a bad port is refused");
        let shown = e.to_string();
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(shown.contains("game:***@db.local"), "{shown}");
        let e = PgTarget::parse("host=db.local password='s3cret")
            .err()
            .expect("an open quote is refused");
        assert!(!e.to_string().contains("s3cret"), "{e}");
    }

    #[test]
    fn client_certificates_are_refused_by_name() {
        let e = PgTarget::parse("postgres://db.local/g?sslcert=/c.pem&sslkey=/k.pem")
            .err()
            .expect("client certificates are refused");
        assert!(e.to_string().starts_with("sslcert is not supported"), "{e}");
    }

    #[test]
    fn a_missing_or_empty_root_file_is_named_in_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope.pem");
        assert!(!missing.exists());
        let t = parse(&format!(
            "postgres://db.local/g?sslmode=verify-full&sslrootcert={}",
            missing.display()
        ));
        let e = t.connector().err().expect("a missing file is refused");
        assert!(e.to_string().contains("nope.pem: cannot be read"), "{e}");
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let t = parse(&format!(
            "host=db.local sslmode=verify-ca sslrootcert={}",
            empty.display()
        ));
        let e = t
            .connector()
            .err()
            .expect("a file without certificates is refused");
        assert!(e.to_string().contains("holds no certificate"), "{e}");
    }

    #[test]
    fn connectors_are_built_for_each_mode_without_roots() {
        assert!(
            parse("postgres://db.local/g?sslmode=disable")
                .connector()
                .unwrap()
                .is_none()
        );
        for mode in ["prefer", "require"] {
            let t = parse(&format!("postgres://db.local/g?sslmode={mode}"));
            assert!(t.connector().unwrap().is_some(), "{mode}");
        }
    }
}

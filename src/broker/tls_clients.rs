//! TLS for both ends, AMQP (lapin) and the management API (reqwest), from one
//! [`TlsSettings`]: the private CA trusted besides the system's roots (the platform verifier's),
//! the client identity offered when the broker asks for one; and what a failed handshake means,
//! said the same way for both, naming the certificate, the file and the setting that fixes it.
//!
//! Both clients run rustls and hand its error up inside `std::io::Error`s (lapin) or a chain of
//! sources (reqwest, hyper): [`rustls_error`] finds it there.

use lapin::tcp::{OwnedIdentity, OwnedTLSConfig};
use rustls::{AlertDescription, CertificateError};

use crate::error::{Error, Kind, Result};
use crate::output::time::utc_time;
use crate::tls_pem::{CA_CERT_WAYS, CLIENT_WAYS, TlsSettings};

/// lapin's TLS configuration: the CA's certificates as extra roots, the client identity.
pub fn amqp_config(tls: &TlsSettings) -> OwnedTLSConfig {
    OwnedTLSConfig {
        identity: tls.client.as_ref().map(|c| OwnedIdentity::PKCS8 {
            pem: c.chain_pem().into_bytes(),
            key: c.key.pem().into_bytes(),
        }),
        cert_chain: tls.ca.as_ref().map(|ca| ca.pem()),
    }
}

/// The management API's HTTP client builder with the same roots and identity.
pub fn http_builder(
    mut builder: reqwest::ClientBuilder,
    tls: &TlsSettings,
) -> Result<reqwest::ClientBuilder> {
    if let Some(ca) = &tls.ca {
        let mut certificates = Vec::new();
        for der in &ca.certificates {
            certificates.push(reqwest::Certificate::from_der(der).map_err(|e| {
                Error::settings(format!(
                    "the CA certificate file {} is not usable: {e}",
                    ca.file.named()
                ))
                .with_hint(format!("name a PEM file with {CA_CERT_WAYS}"))
            })?);
        }
        builder = builder.tls_certs_merge(certificates);
    }
    if let Some(client) = &tls.client {
        let pem = format!("{}{}", client.chain_pem(), client.key.pem());
        let identity = reqwest::Identity::from_pem(pem.as_bytes()).map_err(|e| {
            Error::settings(format!(
                "the client certificate {} and key {} are not usable: {e}",
                client.cert_file.named(),
                client.key_file.named()
            ))
            .with_hint(format!(
                "give a PEM certificate and its key with {CLIENT_WAYS}"
            ))
        })?;
        builder = builder.identity(identity);
    }
    Ok(builder)
}

/// The rustls error somewhere in `err`'s chain of sources, looking inside `io::Error`s too
/// (whose `source()` skips the error they wrap).
pub fn rustls_error<'a>(err: &'a (dyn std::error::Error + 'static)) -> Option<&'a rustls::Error> {
    let mut current = Some(err);
    // A chain is a handful of links; the bound only guards against a cycle.
    for _ in 0..32 {
        let e = current?;
        if let Some(found) = e.downcast_ref::<rustls::Error>() {
            return Some(found);
        }
        if let Some(inner) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| rustls_error(inner))
        {
            return Some(inner);
        }
        current = e.source();
    }
    None
}

/// The end a handshake failed with, for messages.
pub struct Peer<'a> {
    /// `RabbitMQ at amqps://guest:***@host:5671/%2F`, `the management API at https://host:15671`.
    pub what: String,
    /// The host name the certificate was checked against.
    pub host: &'a str,
    /// Where that host is set (`--url / QUEUEY_URL`).
    pub host_setting: &'a str,
    /// The broker's setting of the certificate it presents (`ssl_options.certfile`).
    pub certfile_setting: &'a str,
    /// The kind of the error: `Unreachable` for AMQP (exit 4), `Api` for the API (exit 6).
    pub kind: Kind,
}

/// What a rustls error means for the operator: which certificate, which file, which setting;
/// `None` for an error that is about no certificate.
pub fn explain(err: &rustls::Error, peer: &Peer<'_>, tls: &TlsSettings) -> Option<Error> {
    let what = &peer.what;
    let client = tls.client.as_ref();
    let (message, hint) = match err {
        rustls::Error::InvalidCertificate(cert) => match cert {
            CertificateError::UnknownIssuer => match &tls.ca {
                Some(ca) => (
                    format!(
                        "TLS: the certificate of {what} is not signed by the CA of {} nor by \
                         any of the system's roots",
                        ca.file.named()
                    ),
                    format!(
                        "give the certificate of the CA that signed the broker's with \
                         {CA_CERT_WAYS}; `openssl s_client -connect HOST:PORT -showcerts` \
                         shows the issuer of what the broker presents"
                    ),
                ),
                None => (
                    format!(
                        "TLS: the certificate of {what} is not signed by a CA this machine \
                         trusts (the system's roots; no CA certificate was given)"
                    ),
                    format!(
                        "a broker with a certificate from a private CA needs that CA: give its \
                         certificate with {CA_CERT_WAYS}"
                    ),
                ),
            },
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                let when = match cert {
                    CertificateError::ExpiredContext { time, not_after } => format!(
                        " on {} (it is {} here)",
                        utc_time(not_after.as_secs()),
                        utc_time(time.as_secs())
                    ),
                    _ => String::new(),
                };
                (
                    format!("TLS: the certificate of {what} expired{when}"),
                    format!(
                        "the broker's certificate must be renewed on the broker ({}); no \
                         setting of queuey accepts an expired certificate. If it is not \
                         expired, check this machine's clock",
                        peer.certfile_setting
                    ),
                )
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                let when = match cert {
                    CertificateError::NotValidYetContext { time, not_before } => format!(
                        " before {} (it is {} here)",
                        utc_time(not_before.as_secs()),
                        utc_time(time.as_secs())
                    ),
                    _ => String::new(),
                };
                (
                    format!("TLS: the certificate of {what} is not valid yet{when}"),
                    "check this machine's clock, and the dates of the broker's certificate"
                        .to_owned(),
                )
            }
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                let names = match cert {
                    CertificateError::NotValidForNameContext { presented, .. } => {
                        let names: Vec<&str> = presented.iter().map(|n| bare_name(n)).collect();
                        format!(" (it names {})", names.join(", "))
                    }
                    _ => String::new(),
                };
                (
                    format!(
                        "TLS: the certificate of {what} is not valid for the host name {:?}{names}",
                        peer.host
                    ),
                    format!(
                        "connect by a name the certificate holds (the host of {}), or have the \
                         broker's certificate issued with {:?} among its names",
                        peer.host_setting, peer.host
                    ),
                )
            }
            other => (
                format!("TLS: the certificate of {what} is refused: {other:?}"),
                format!(
                    "check the broker's certificate ({}) and the CA given with {CA_CERT_WAYS}",
                    peer.certfile_setting
                ),
            ),
        },
        rustls::Error::AlertReceived(alert) => match (alert, client) {
            (AlertDescription::CertificateRequired, None)
            | (AlertDescription::HandshakeFailure, None) => (
                format!(
                    "TLS: {what} requires a client certificate (mutual TLS), and none was given \
                     (the broker's alert: {})",
                    alert_name(*alert)
                ),
                client_certificate_hint(),
            ),
            (_, Some(client)) if rejects_certificate(*alert) => (
                format!(
                    "TLS: {what} rejected the client certificate {}: {}",
                    client.cert_file.named(),
                    match alert {
                        AlertDescription::UnknownCA => {
                            "it is not signed by a CA the broker trusts (unknown_ca)".to_owned()
                        }
                        AlertDescription::CertificateExpired => {
                            "it has expired (certificate_expired)".to_owned()
                        }
                        other => format!("the broker's alert: {}", alert_name(*other)),
                    }
                ),
                rejected_certificate_hint(),
            ),
            (other, _) => (
                format!(
                    "TLS: {what} ended the handshake with the alert {}",
                    alert_name(*other)
                ),
                "the broker's log says why it refused the handshake".to_owned(),
            ),
        },
        rustls::Error::InconsistentKeys(_) => {
            let (cert, key) = client
                .map(|c| (c.cert_file.named(), c.key_file.named()))
                .unwrap_or_default();
            return Some(
                Error::settings(format!(
                    "the client key {key} is not the key of the certificate {cert}"
                ))
                .with_hint(format!(
                    "give the key that belongs to the certificate with {CLIENT_WAYS} (for a pair, \
                 `openssl x509 -noout -pubkey -in CERT` and `openssl pkey -pubout -in KEY` \
                 print the same public key)"
                )),
            );
        }
        // Not about a certificate (a plain listener answering a handshake, say): the caller
        // says what it looks like.
        _ => return None,
    };
    Some(Error::new(peer.kind, message).with_hint(hint))
}

/// A TLS connection the broker closed (reset, or an end of stream) during or right after the
/// handshake, with no alert read. With TLS 1.3 a client finishes its handshake before the
/// broker has checked its certificate, and sends the AMQP header at once; a broker that then
/// refuses the certificate (or its absence) sends its alert and closes a socket holding that
/// unread header, and the reset can overtake the alert. So this is, most likely, the refusal
/// the alert would have named, and is said as such, hedged (see docs/broker-notes.md,
/// Connections, TLS and deep headers).
pub fn closed_in_handshake(peer: &Peer<'_>, tls: &TlsSettings, detail: &str) -> Error {
    let what = &peer.what;
    let (message, hint) = match &tls.client {
        None => (
            format!(
                "TLS: {what} closed the connection right after the TLS handshake ({detail}): a \
                 broker that requires a client certificate (mutual TLS) does this when none is \
                 given"
            ),
            client_certificate_hint(),
        ),
        Some(client) => (
            format!(
                "TLS: {what} closed the connection right after the TLS handshake ({detail}): a \
                 broker that requires mutual TLS does this when it rejects the client \
                 certificate {} (not signed by a CA it trusts, expired, revoked)",
                client.cert_file.named()
            ),
            rejected_certificate_hint(),
        ),
    };
    Error::new(peer.kind, message).with_hint(hint)
}

fn client_certificate_hint() -> String {
    format!(
        "give the client certificate and its key with {CLIENT_WAYS}; a broker that requires \
         none says in its log why it closed the connection"
    )
}

fn rejected_certificate_hint() -> String {
    format!(
        "the broker accepts client certificates signed by the CA of its ssl_options.cacertfile: \
         give one it trusts with {CLIENT_WAYS}; the broker's log says why it refused this one"
    )
}

/// A name the verifier presents as `DnsName("mq.example.com")` or `IpAddress(10.0.0.5)`: the
/// name alone.
fn bare_name(presented: &str) -> &str {
    match presented.split_once('(') {
        Some((_, rest)) => rest.strip_suffix(')').unwrap_or(rest).trim_matches('"'),
        None => presented,
    }
}

/// Alerts a server sends about the client's certificate.
fn rejects_certificate(alert: AlertDescription) -> bool {
    matches!(
        alert,
        AlertDescription::BadCertificate
            | AlertDescription::UnsupportedCertificate
            | AlertDescription::CertificateRevoked
            | AlertDescription::CertificateExpired
            | AlertDescription::CertificateUnknown
            | AlertDescription::UnknownCA
            | AlertDescription::AccessDenied
            | AlertDescription::DecryptError
            | AlertDescription::HandshakeFailure
    )
}

/// An alert as TLS names it (`unknown_ca`).
fn alert_name(alert: AlertDescription) -> String {
    let debug = format!("{alert:?}");
    let mut out = String::new();
    let mut previous_upper = false;
    for c in debug.chars() {
        if c.is_ascii_uppercase() {
            // `UnknownCA` -> `unknown_ca`: a capital after a capital stays in the word.
            if !out.is_empty() && !previous_upper {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
        previous_upper = c.is_ascii_uppercase();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alerts_are_named_as_tls_names_them() {
        assert_eq!(alert_name(AlertDescription::UnknownCA), "unknown_ca");
        assert_eq!(
            alert_name(AlertDescription::CertificateRequired),
            "certificate_required"
        );
        assert_eq!(
            alert_name(AlertDescription::HandshakeFailure),
            "handshake_failure"
        );
        assert_eq!(
            alert_name(AlertDescription::BadCertificate),
            "bad_certificate"
        );
    }

    #[test]
    fn presented_names_are_shown_bare() {
        assert_eq!(bare_name("DnsName(\"localhost\")"), "localhost");
        assert_eq!(bare_name("IpAddress(10.0.0.5)"), "10.0.0.5");
        assert_eq!(bare_name("mq.example.com"), "mq.example.com");
    }

    #[test]
    fn a_rustls_error_is_found_inside_io_errors() {
        let inner = std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer),
        );
        let outer = std::io::Error::other(inner);
        assert_eq!(
            rustls_error(&outer),
            Some(&rustls::Error::InvalidCertificate(
                CertificateError::UnknownIssuer
            ))
        );
        let plain = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(rustls_error(&plain), None);
    }
}

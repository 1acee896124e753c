//! The TLS material an operator gives queuey for `amqps://` and `https://`: the certificate of a
//! private CA to trust besides the system's roots, and a client certificate with its key for a
//! broker that asks for mutual TLS.
//!
//! PURE: PEM bytes in, DER certificates and a key out, each file named with where it was given
//! (a flag, a variable, the topology file), so that a TLS failure can name the file and the way
//! out. The settings layer reads the files; `broker` hands the result to the AMQP and HTTP
//! clients, which re-read it from the clean PEM this module writes (so a file with comments,
//! CRLF line ends or several blocks reaches both clients alike).

use std::fmt;
use std::path::PathBuf;

use base64::Engine as _;
use rustls_pki_types::pem::{self, SectionKind};

/// Where the CA certificate may be named (for hints).
pub const CA_CERT_WAYS: &str =
    "--tls-ca-cert FILE, QUEUEY_TLS_CA_CERT or ca_cert in the [tls] table of queuey.toml";
/// Where the client certificate may be named.
pub const CERT_WAYS: &str =
    "--tls-cert FILE, QUEUEY_TLS_CERT or cert in the [tls] table of queuey.toml";
/// Where the client key may be named.
pub const KEY_WAYS: &str =
    "--tls-key FILE, QUEUEY_TLS_KEY or key in the [tls] table of queuey.toml";
/// Where the client certificate and key may be named, together.
pub const CLIENT_WAYS: &str = "--tls-cert FILE and --tls-key FILE (or QUEUEY_TLS_CERT and \
     QUEUEY_TLS_KEY, or cert and key in the [tls] table of queuey.toml)";

/// A file named by a TLS setting, and where it was named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFile {
    pub path: PathBuf,
    /// `--tls-ca-cert`, `QUEUEY_TLS_CA_CERT`, `queuey.toml [tls] ca_cert`, ...
    pub origin: String,
}

impl TlsFile {
    /// `ca.pem (from --tls-ca-cert)`.
    pub fn named(&self) -> String {
        format!("{} (from {})", self.path.display(), self.origin)
    }
}

/// The certificates of a private CA (DER), trusted besides the system's roots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaCertificates {
    pub file: TlsFile,
    pub certificates: Vec<Vec<u8>>,
}

impl CaCertificates {
    /// The certificates as clean PEM.
    pub fn pem(&self) -> String {
        self.certificates
            .iter()
            .map(|der| pem_block("CERTIFICATE", der))
            .collect()
    }
}

/// How a private key is encoded (the PEM label says it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyFormat {
    /// `PRIVATE KEY`
    Pkcs8,
    /// `RSA PRIVATE KEY`
    Pkcs1,
    /// `EC PRIVATE KEY`
    Sec1,
}

impl KeyFormat {
    fn label(self) -> &'static str {
        match self {
            KeyFormat::Pkcs8 => "PRIVATE KEY",
            KeyFormat::Pkcs1 => "RSA PRIVATE KEY",
            KeyFormat::Sec1 => "EC PRIVATE KEY",
        }
    }
}

/// A private key (DER). Its bytes are never printed, not even by `{:?}`.
#[derive(Clone, PartialEq, Eq)]
pub struct PrivateKey {
    pub format: KeyFormat,
    der: Vec<u8>,
}

impl fmt::Debug for PrivateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PrivateKey({:?}, {} bytes)", self.format, self.der.len())
    }
}

impl PrivateKey {
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    /// The key as clean PEM, under its format's label.
    pub fn pem(&self) -> String {
        pem_block(self.format.label(), &self.der)
    }
}

/// A client certificate (its chain, leaf first) and its private key, for mutual TLS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientIdentity {
    pub cert_file: TlsFile,
    pub chain: Vec<Vec<u8>>,
    pub key_file: TlsFile,
    pub key: PrivateKey,
}

impl ClientIdentity {
    /// The chain as clean PEM.
    pub fn chain_pem(&self) -> String {
        self.chain
            .iter()
            .map(|der| pem_block("CERTIFICATE", der))
            .collect()
    }
}

/// What TLS uses besides the system's roots; empty by default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsSettings {
    pub ca: Option<CaCertificates>,
    pub client: Option<ClientIdentity>,
}

impl TlsSettings {
    pub fn is_empty(&self) -> bool {
        self.ca.is_none() && self.client.is_none()
    }
}

/// The sections of a PEM text, in order: each one's kind (`None` for a label rustls does not
/// know, such as `ENCRYPTED PRIVATE KEY`) and its DER bytes.
fn sections(bytes: &[u8]) -> Result<Vec<(SectionKind, Vec<u8>)>, String> {
    let mut reader = std::io::BufReader::new(bytes);
    let mut out = Vec::new();
    loop {
        match pem::from_buf(&mut reader) {
            Ok(Some(section)) => out.push(section),
            Ok(None) => return Ok(out),
            Err(e) => return Err(format!("it is not valid PEM: {e}")),
        }
    }
}

/// Why a file holds nothing of the kind wanted: what it holds instead, said plainly.
fn holds_instead(bytes: &[u8], found: &[(SectionKind, Vec<u8>)], wanted: &str) -> String {
    let text = String::from_utf8_lossy(bytes);
    if !text.contains("-----BEGIN ") {
        return format!(
            "it holds no PEM block (text between -----BEGIN {wanted}----- and -----END \
             {wanted}-----); a binary (DER) file converts with `openssl x509 -inform der -in \
             FILE -out FILE.pem` (a key: `openssl pkey -inform der ...`)"
        );
    }
    if text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") {
        return "it holds an encrypted private key, which queuey cannot use (there is no \
                passphrase setting): write it unencrypted with `openssl pkey -in FILE -out \
                FILE.key` and keep that file readable by you only"
            .to_owned();
    }
    let kinds: Vec<&str> = found
        .iter()
        .map(|(kind, _)| match kind {
            SectionKind::Certificate => "a certificate",
            SectionKind::PrivateKey | SectionKind::RsaPrivateKey | SectionKind::EcPrivateKey => {
                "a private key"
            }
            SectionKind::PublicKey => "a public key",
            SectionKind::Crl => "a revocation list",
            SectionKind::Csr => "a certificate request",
            _ => "another kind of block",
        })
        .collect();
    if kinds.is_empty() {
        format!("it holds no {wanted} block that can be read")
    } else {
        format!("it holds {} but no {wanted}", kinds.join(", "))
    }
}

/// The certificates of a PEM file (at least one), in order.
pub fn parse_certificates(bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let found = sections(bytes)?;
    let certificates: Vec<Vec<u8>> = found
        .iter()
        .filter(|(kind, _)| *kind == SectionKind::Certificate)
        .map(|(_, der)| der.clone())
        .collect();
    if certificates.is_empty() {
        return Err(holds_instead(bytes, &found, "CERTIFICATE"));
    }
    for (i, der) in certificates.iter().enumerate() {
        let cert = rustls_pki_types::CertificateDer::from(der.as_slice());
        if webpki::anchor_from_trusted_cert(&cert).is_err() {
            return Err(format!(
                "its certificate {} of {} is not a readable X.509 certificate",
                i + 1,
                certificates.len()
            ));
        }
    }
    Ok(certificates)
}

/// The one private key of a PEM file.
pub fn parse_private_key(bytes: &[u8]) -> Result<PrivateKey, String> {
    let found = sections(bytes)?;
    let mut keys: Vec<PrivateKey> = found
        .iter()
        .filter_map(|(kind, der)| {
            let format = match kind {
                SectionKind::PrivateKey => KeyFormat::Pkcs8,
                SectionKind::RsaPrivateKey => KeyFormat::Pkcs1,
                SectionKind::EcPrivateKey => KeyFormat::Sec1,
                _ => return None,
            };
            Some(PrivateKey {
                format,
                der: der.clone(),
            })
        })
        .collect();
    if keys.len() > 1 {
        return Err(format!(
            "it holds {} private keys: give the file of the one key of the client certificate",
            keys.len()
        ));
    }
    keys.pop()
        .ok_or_else(|| holds_instead(bytes, &found, "PRIVATE KEY"))
}

/// One PEM block: the label, the base64 of `der` in lines of 64, the end line.
fn pem_block(label: &str, der: &[u8]) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A certificate made for the test (rcgen): its PEM and DER.
    pub(crate) fn certificate(name: &str) -> (String, Vec<u8>) {
        let made = rcgen::generate_simple_self_signed(vec![name.to_owned()]).unwrap();
        (made.cert.pem(), made.cert.der().to_vec())
    }

    const CERT: &str = "-----BEGIN CERTIFICATE-----\nAQIDBA==\n-----END CERTIFICATE-----\n";

    #[test]
    fn certificates_are_read_in_order_with_comments_and_crlf_around_them() {
        let ((a, a_der), (b, b_der)) = (certificate("a"), certificate("b"));
        let text = format!(
            "subject=CN=a\r\n{}\r\nissuer=x\n{b}",
            a.replace('\n', "\r\n")
        );
        let certs = parse_certificates(text.as_bytes()).unwrap();
        assert_eq!(certs, vec![a_der, b_der]);
    }

    #[test]
    fn a_block_that_is_no_certificate_is_refused() {
        let (good, _) = certificate("a");
        let text = format!("{good}{CERT}");
        assert_eq!(
            parse_certificates(text.as_bytes()).unwrap_err(),
            "its certificate 2 of 2 is not a readable X.509 certificate"
        );
    }

    #[test]
    fn a_file_without_a_certificate_says_what_it_holds() {
        let key = "-----BEGIN PRIVATE KEY-----\nAQID\n-----END PRIVATE KEY-----\n";
        let e = parse_certificates(key.as_bytes()).unwrap_err();
        assert_eq!(e, "it holds a private key but no CERTIFICATE");
        let e = parse_certificates(b"\x30\x82\x01\x0a binary").unwrap_err();
        assert!(e.starts_with("it holds no PEM block"), "{e}");
        assert!(e.contains("openssl x509 -inform der"), "{e}");
        let e = parse_certificates(b"").unwrap_err();
        assert!(e.starts_with("it holds no PEM block"), "{e}");
    }

    #[test]
    fn a_key_is_read_with_its_format_and_never_printed() {
        for (label, format) in [
            ("PRIVATE KEY", KeyFormat::Pkcs8),
            ("RSA PRIVATE KEY", KeyFormat::Pkcs1),
            ("EC PRIVATE KEY", KeyFormat::Sec1),
        ] {
            let text = format!("{CERT}-----BEGIN {label}-----\nAQID\n-----END {label}-----\n");
            let key = parse_private_key(text.as_bytes()).unwrap();
            assert_eq!((key.format, key.der()), (format, &[1u8, 2, 3][..]));
            assert_eq!(
                key.pem(),
                format!("-----BEGIN {label}-----\nAQID\n-----END {label}-----\n")
            );
            assert!(!format!("{key:?}").contains("AQID"));
            assert_eq!(
                format!("{key:?}"),
                format!("PrivateKey({format:?}, 3 bytes)")
            );
        }
    }

    #[test]
    fn a_key_file_that_holds_no_usable_key_says_why() {
        assert_eq!(
            parse_private_key(CERT.as_bytes()).unwrap_err(),
            "it holds a certificate but no PRIVATE KEY"
        );
        let encrypted =
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAQID\n-----END ENCRYPTED PRIVATE KEY-----\n";
        let e = parse_private_key(encrypted.as_bytes()).unwrap_err();
        assert!(e.starts_with("it holds an encrypted private key"), "{e}");
        let two = "-----BEGIN PRIVATE KEY-----\nAQID\n-----END PRIVATE KEY-----\n".repeat(2);
        assert!(
            parse_private_key(two.as_bytes())
                .unwrap_err()
                .starts_with("it holds 2 private keys")
        );
        let broken = "-----BEGIN PRIVATE KEY-----\nAQID\n";
        assert!(
            parse_private_key(broken.as_bytes())
                .unwrap_err()
                .starts_with("it is not valid PEM")
        );
    }

    #[test]
    fn pem_lines_are_64_characters() {
        let (_, der) = certificate("a");
        let block = pem_block("CERTIFICATE", &der);
        let lines: Vec<&str> = block.lines().collect();
        assert!(lines[1..lines.len() - 1].iter().all(|l| l.len() <= 64));
        assert_eq!(parse_certificates(block.as_bytes()).unwrap(), vec![der]);
    }
}

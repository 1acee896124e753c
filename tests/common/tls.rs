//! Certificates a test makes for itself (rcgen): no key is ever committed.
//!
//! A [`Pki`] holds two CAs, the broker's and a stranger's, and the certificates the TLS tests
//! need, as PEM text and as files in a temporary directory: the broker's certificate for
//! `localhost` (valid, and an expired twin), a client certificate the broker's CA signed, and a
//! client certificate the stranger's CA signed.

use std::path::{Path, PathBuf};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use tempfile::TempDir;

use super::node::NodeTls;

/// A certificate and its key, as PEM text and as files.
pub struct Pair {
    pub cert_pem: String,
    pub key_pem: String,
    pub cert: PathBuf,
    pub key: PathBuf,
}

pub struct Pki {
    dir: TempDir,
    /// The broker's CA: it signed the broker's certificates and the good client certificate.
    pub ca: Pair,
    /// Another CA, which signed nothing the broker presents.
    pub other_ca: Pair,
    /// The broker's certificate, for the name `localhost` only.
    pub server: Pair,
    /// The broker's certificate, expired since 2021.
    pub expired_server: Pair,
    /// A client certificate of the broker's CA.
    pub client: Pair,
    /// A client certificate of the other CA: the broker rejects it.
    pub stranger: Pair,
}

fn ca(name: &str) -> (CertificateParams, KeyPair, String) {
    let key = KeyPair::generate().expect("a CA key");
    let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
    params.distinguished_name.push(DnType::CommonName, name);
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![
        KeyUsagePurpose::KeyCertSign,
        KeyUsagePurpose::CrlSign,
        KeyUsagePurpose::DigitalSignature,
    ];
    let cert = params.self_signed(&key).expect("a self-signed CA");
    (params, key, cert.pem())
}

fn leaf(
    names: &[&str],
    purpose: ExtendedKeyUsagePurpose,
    issuer: &Issuer<'_, KeyPair>,
    expired: bool,
) -> (String, String) {
    let key = KeyPair::generate().expect("a key");
    let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    let mut params = CertificateParams::new(names.clone()).expect("certificate parameters");
    params.distinguished_name.push(
        DnType::CommonName,
        names.first().cloned().unwrap_or_default(),
    );
    params.extended_key_usages = vec![purpose];
    params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
    if expired {
        params.not_before = rcgen::date_time_ymd(2020, 1, 1);
        params.not_after = rcgen::date_time_ymd(2021, 1, 1);
    } else {
        params.not_before = rcgen::date_time_ymd(2024, 1, 1);
        params.not_after = rcgen::date_time_ymd(2040, 1, 1);
    }
    let cert = params
        .signed_by(&key, issuer)
        .expect("a signed certificate");
    (cert.pem(), key.serialize_pem())
}

impl Pki {
    pub fn new() -> Pki {
        let dir = tempfile::tempdir().expect("a directory for the certificates");
        let pair = |name: &str, (cert_pem, key_pem): (String, String)| {
            let cert = dir.path().join(format!("{name}.pem"));
            let key = dir.path().join(format!("{name}.key"));
            std::fs::write(&cert, &cert_pem).expect("a certificate file");
            std::fs::write(&key, &key_pem).expect("a key file");
            Pair {
                cert_pem,
                key_pem,
                cert,
                key,
            }
        };
        let (ca_params, ca_key, ca_pem) = ca("queuey test CA");
        let ca_key_pem = ca_key.serialize_pem();
        let issuer = Issuer::new(ca_params, ca_key);
        let (other_params, other_key, other_pem) = ca("queuey stranger CA");
        let other_key_pem = other_key.serialize_pem();
        let other_issuer = Issuer::new(other_params, other_key);
        let server = ExtendedKeyUsagePurpose::ServerAuth;
        let client = ExtendedKeyUsagePurpose::ClientAuth;
        Pki {
            ca: pair("ca", (ca_pem, ca_key_pem)),
            other_ca: pair("other-ca", (other_pem, other_key_pem)),
            server: pair(
                "server",
                leaf(&["localhost"], server.clone(), &issuer, false),
            ),
            expired_server: pair(
                "expired-server",
                leaf(&["localhost"], server, &issuer, true),
            ),
            client: pair(
                "client",
                leaf(&["queuey-client"], client.clone(), &issuer, false),
            ),
            stranger: pair(
                "stranger",
                leaf(&["queuey-stranger"], client, &other_issuer, false),
            ),
            dir,
        }
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The broker's side: its CA, its certificate for `localhost`, and whether AMQPS requires
    /// a client certificate.
    pub fn node_tls(&self, require_client_certificate: bool) -> NodeTls {
        NodeTls {
            ca_pem: self.ca.cert_pem.clone(),
            cert_pem: self.server.cert_pem.clone(),
            key_pem: self.server.key_pem.clone(),
            require_client_certificate,
        }
    }
}

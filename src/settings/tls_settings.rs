//! The TLS files: a flag over its environment variable over the topology file's `[tls]` table,
//! each file read and parsed here, before anything connects, and named with where it came from.
//!
//! The client certificate and its key go together: when the command line or the environment
//! names either, the file's pair is left alone (a key from one place with a certificate from
//! another is a handshake that fails for a reason nobody can see).

use std::path::{Path, PathBuf};

use super::file::TopologyFile;
use crate::cli::TlsFromEnv;
use crate::error::{Error, Result};
use crate::tls_pem::{
    CA_CERT_WAYS, CERT_WAYS, CaCertificates, ClientIdentity, KEY_WAYS, TlsFile, TlsSettings,
    parse_certificates, parse_private_key,
};

/// The TLS values of the command line (a flag, or its variable when `from_env` says so).
#[derive(Clone, Debug, Default)]
pub struct TlsFlags {
    pub ca_cert: Option<PathBuf>,
    pub cert: Option<PathBuf>,
    pub key: Option<PathBuf>,
    pub from_env: TlsFromEnv,
}

/// The TLS settings of a run: flags and variables over the topology file.
pub fn resolve_tls(flags: &TlsFlags, file: Option<&TopologyFile>) -> Result<TlsSettings> {
    let given = |path: &Option<PathBuf>, env: bool, flag: &str, var: &str| {
        path.as_ref().map(|p| TlsFile {
            path: p.clone(),
            origin: if env { var } else { flag }.to_owned(),
        })
    };
    let in_file = |path: &Option<PathBuf>, key: &str| {
        let file = file?;
        let path = path.as_ref()?;
        Some(TlsFile {
            path: relative_to(&file.path, path),
            origin: format!("{} [tls] {key}", file.path.display()),
        })
    };
    let raw = file.map(|f| f.tls.clone()).unwrap_or_default();

    let ca_file = given(
        &flags.ca_cert,
        flags.from_env.ca_cert,
        "--tls-ca-cert",
        "QUEUEY_TLS_CA_CERT",
    )
    .or_else(|| in_file(&raw.ca_cert, "ca_cert"));
    let ca = match ca_file {
        None => None,
        Some(file) => {
            let bytes = read(&file, "the CA certificate", CA_CERT_WAYS)?;
            let certificates = parse_certificates(&bytes)
                .map_err(|why| unusable(&file, "the CA certificate", &why, CA_CERT_WAYS))?;
            Some(CaCertificates { file, certificates })
        }
    };

    let cert = given(
        &flags.cert,
        flags.from_env.cert,
        "--tls-cert",
        "QUEUEY_TLS_CERT",
    );
    let key = given(
        &flags.key,
        flags.from_env.key,
        "--tls-key",
        "QUEUEY_TLS_KEY",
    );
    let (cert, key) = if cert.is_some() || key.is_some() {
        (cert, key)
    } else {
        (in_file(&raw.cert, "cert"), in_file(&raw.key, "key"))
    };
    let client = match (cert, key) {
        (None, None) => None,
        (Some(cert), None) => {
            return Err(Error::settings(format!(
                "the client certificate {} was given without its key",
                cert.named()
            ))
            .with_hint(format!(
                "mutual TLS needs both: give the key with {KEY_WAYS} (a key and a certificate \
                 go together: queuey takes neither of them from the [tls] table when the \
                 command line or the environment names the other)"
            )));
        }
        (None, Some(key)) => {
            return Err(Error::settings(format!(
                "the client key {} was given without its certificate",
                key.named()
            ))
            .with_hint(format!(
                "mutual TLS needs both: give the certificate with {CERT_WAYS} (a key and a \
                 certificate go together: queuey takes neither of them from the [tls] table \
                 when the command line or the environment names the other)"
            )));
        }
        (Some(cert_file), Some(key_file)) => {
            let cert_bytes = read(&cert_file, "the client certificate", CERT_WAYS)?;
            let chain = parse_certificates(&cert_bytes)
                .map_err(|why| unusable(&cert_file, "the client certificate", &why, CERT_WAYS))?;
            let key_bytes = read(&key_file, "the client key", KEY_WAYS)?;
            let key = parse_private_key(&key_bytes)
                .map_err(|why| unusable(&key_file, "the client key", &why, KEY_WAYS))?;
            Some(ClientIdentity {
                cert_file,
                chain,
                key_file,
                key,
            })
        }
    };
    Ok(TlsSettings { ca, client })
}

/// A path of the topology file, relative to the file's directory unless absolute.
fn relative_to(config: &Path, path: &Path) -> PathBuf {
    match config.parent() {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_owned(),
    }
}

fn read(file: &TlsFile, what: &str, ways: &str) -> Result<Vec<u8>> {
    std::fs::read(&file.path).map_err(|e| {
        Error::settings(format!("cannot read {what} file {}: {e}", file.named()))
            .with_hint(format!("name a readable PEM file with {ways}"))
    })
}

fn unusable(file: &TlsFile, what: &str, why: &str, ways: &str) -> Error {
    Error::settings(format!("{what} file {} is not usable: {why}", file.named()))
        .with_hint(format!("name a PEM file with {ways}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A certificate made for the test (rcgen): its PEM and DER.
    fn certificate(name: &str) -> (String, Vec<u8>) {
        let made = rcgen::generate_simple_self_signed(vec![name.to_owned()]).unwrap();
        (made.cert.pem(), made.cert.der().to_vec())
    }

    const KEY: &str = "-----BEGIN PRIVATE KEY-----\nAQID\n-----END PRIVATE KEY-----\n";

    fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    fn topology(dir: &Path, text: &str) -> TopologyFile {
        TopologyFile::parse(text, &dir.join("queuey.toml")).unwrap()
    }

    #[test]
    fn nothing_given_is_no_tls_material() {
        assert!(resolve_tls(&TlsFlags::default(), None).unwrap().is_empty());
    }

    #[test]
    fn each_file_is_named_with_its_origin() {
        let (cert, der) = certificate("a");
        let dir = dir_with(&[("ca.pem", &cert), ("c.pem", &cert), ("k.pem", KEY)]);
        let flags = TlsFlags {
            ca_cert: Some(dir.path().join("ca.pem")),
            cert: Some(dir.path().join("c.pem")),
            key: Some(dir.path().join("k.pem")),
            from_env: TlsFromEnv {
                ca_cert: true,
                cert: false,
                key: true,
            },
        };
        let tls = resolve_tls(&flags, None).unwrap();
        let ca = tls.ca.unwrap();
        assert_eq!(ca.file.origin, "QUEUEY_TLS_CA_CERT");
        assert_eq!(ca.certificates, vec![der]);
        let client = tls.client.unwrap();
        assert_eq!(client.cert_file.origin, "--tls-cert");
        assert_eq!(client.key_file.origin, "QUEUEY_TLS_KEY");
    }

    #[test]
    fn the_file_s_paths_are_relative_to_it_and_flags_win() {
        let (cert, _) = certificate("a");
        let dir = dir_with(&[("ca.pem", &cert), ("c.pem", &cert), ("k.pem", KEY)]);
        let file = topology(
            dir.path(),
            "[tls]\nca_cert = \"ca.pem\"\ncert = \"c.pem\"\nkey = \"k.pem\"\n",
        );
        let tls = resolve_tls(&TlsFlags::default(), Some(&file)).unwrap();
        let ca = tls.ca.unwrap();
        assert_eq!(ca.file.path, dir.path().join("ca.pem"));
        assert_eq!(
            ca.file.origin,
            format!("{} [tls] ca_cert", dir.path().join("queuey.toml").display())
        );
        assert!(tls.client.is_some());

        // rabbitmqadmin v2's names are read too.
        let file = topology(
            dir.path(),
            "[tls]\nca_certificate_bundle_path = \"ca.pem\"\n\
             client_certificate_file_path = \"c.pem\"\nclient_private_key_file_path = \"k.pem\"\n",
        );
        let tls = resolve_tls(&TlsFlags::default(), Some(&file)).unwrap();
        assert!(tls.ca.is_some() && tls.client.is_some());

        // A flag's CA wins over the file's; a flag's certificate without a key does not pair
        // with the file's key.
        let other = dir_with(&[("ca2.pem", &cert)]);
        let flags = TlsFlags {
            ca_cert: Some(other.path().join("ca2.pem")),
            cert: Some(dir.path().join("c.pem")),
            ..TlsFlags::default()
        };
        let e = resolve_tls(&flags, Some(&file)).unwrap_err();
        assert!(
            e.message.starts_with("the client certificate ")
                && e.message
                    .ends_with("c.pem (from --tls-cert) was given without its key"),
            "{e}"
        );
        let flags = TlsFlags {
            ca_cert: Some(other.path().join("ca2.pem")),
            ..TlsFlags::default()
        };
        let tls = resolve_tls(&flags, Some(&file)).unwrap();
        assert_eq!(tls.ca.unwrap().file.origin, "--tls-ca-cert");
    }

    #[test]
    fn bad_files_are_refused_naming_the_setting_and_its_origin() {
        let (cert, _) = certificate("a");
        let dir = dir_with(&[("c.pem", &cert), ("k.pem", KEY)]);
        let missing = TlsFlags {
            ca_cert: Some(dir.path().join("nope.pem")),
            from_env: TlsFromEnv {
                ca_cert: true,
                ..TlsFromEnv::default()
            },
            ..TlsFlags::default()
        };
        let e = resolve_tls(&missing, None).unwrap_err();
        assert_eq!(e.kind, crate::error::Kind::Settings);
        assert!(
            e.message
                .starts_with("cannot read the CA certificate file ")
                && e.message.contains("nope.pem (from QUEUEY_TLS_CA_CERT): "),
            "{e}"
        );
        // A key given as the CA, and the certificate given as the key.
        let swapped = TlsFlags {
            ca_cert: Some(dir.path().join("k.pem")),
            ..TlsFlags::default()
        };
        let e = resolve_tls(&swapped, None).unwrap_err();
        assert!(
            e.message.ends_with(
                "k.pem (from --tls-ca-cert) is not usable: it holds a private key but no \
                 CERTIFICATE"
            ),
            "{e}"
        );
        let swapped = TlsFlags {
            cert: Some(dir.path().join("c.pem")),
            key: Some(dir.path().join("c.pem")),
            ..TlsFlags::default()
        };
        let e = resolve_tls(&swapped, None).unwrap_err();
        assert!(
            e.message.starts_with("the client key file ")
                && e.message.ends_with(
                    "c.pem (from --tls-key) is not usable: it holds a certificate but no \
                     PRIVATE KEY"
                ),
            "{e}"
        );
        let lone_key = TlsFlags {
            key: Some(dir.path().join("k.pem")),
            ..TlsFlags::default()
        };
        let e = resolve_tls(&lone_key, None).unwrap_err();
        assert!(
            e.message.ends_with("was given without its certificate"),
            "{e}"
        );
        assert!(
            e.hint
                .as_deref()
                .unwrap_or_default()
                .contains("--tls-cert FILE")
        );
    }
}

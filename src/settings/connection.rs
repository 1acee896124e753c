//! Where the broker is: the AMQP addresses and the management API addresses (flags, their
//! variables, the topology file's `[connection]`), each value one URL or several separated by
//! commas, with the connect timeout and the TLS files.

use crate::duration::parse_duration;
use crate::endpoint::{AmqpTarget, ApiTarget, ConnectionSettings, DEFAULT_AMQP_URL, split_list};
use crate::error::{Error, Result};
use crate::tls_pem::TlsSettings;

/// Resolves the AMQP addresses, the management API addresses and the connect timeout, with the
/// TLS files. Each value of `urls` and `api_urls` may hold several addresses separated by commas
/// ([`split_list`]); no AMQP address at all is the default one, no API address derives one from
/// each AMQP address. The addresses of a list are the nodes of one cluster: one user, one vhost.
pub fn connection_settings(
    urls: &[String],
    api_urls: &[String],
    timeout: &str,
    tls: TlsSettings,
) -> Result<ConnectionSettings> {
    // An empty value is a mistake, never "the default": `--url "$RABBIT_URL"` with the
    // variable unset would otherwise reach whatever broker runs on this machine.
    for (values, flag) in [
        (urls, "--url / QUEUEY_URL"),
        (api_urls, "--api-url / QUEUEY_API_URL"),
    ] {
        if values.iter().any(|v| split_list(v).is_empty()) {
            return Err(Error::settings(format!(
                "{flag} is empty (a variable that expanded to nothing?)"
            ))
            .with_hint(format!(
                "give the address, or leave {} out for the default",
                flag.split(' ').next().unwrap_or(flag)
            )));
        }
    }
    let mut addresses = Vec::new();
    for text in urls.iter().flat_map(|u| split_list(u)) {
        addresses.push(AmqpTarget::parse(&text)?);
    }
    if addresses.is_empty() {
        addresses.push(AmqpTarget::parse(DEFAULT_AMQP_URL)?);
    }
    let first = addresses[0].clone();
    for other in &addresses[1..] {
        let (what, a, b) = if other.vhost != first.vhost {
            ("vhost", &first.vhost, &other.vhost)
        } else if other.username != first.username {
            ("user", &first.username, &other.username)
        } else {
            continue;
        };
        return Err(Error::settings(format!(
            "the AMQP addresses name two {what}s: {} has {what} {a:?}, {} has {b:?}; the \
             addresses of a list are the nodes of one cluster, reached as one user in one vhost",
            first.display(),
            other.display()
        ))
        .with_hint("give every address of --url / QUEUEY_URL the same user and vhost"));
    }
    let mut api_addresses = Vec::new();
    for text in api_urls.iter().flat_map(|u| split_list(u)) {
        api_addresses.push(ApiTarget::parse(&text, &first)?);
    }
    let api = match api_addresses.first() {
        Some(given) => given.clone(),
        None => ApiTarget::derive(&first)?,
    };
    let timeout =
        parse_duration(timeout).map_err(|e| Error::settings(format!("--connect-timeout: {e}")))?;
    if timeout.is_zero() {
        return Err(Error::settings(
            "--connect-timeout 0 would never connect: give at least 1ms (the default is 10s)",
        ));
    }
    Ok(ConnectionSettings {
        amqp: first,
        api,
        addresses,
        api_addresses,
        timeout,
        stall_timeout: None,
        tls,
    })
}

//! `gamehost health`: asks a running bot's `/healthz` (the container's
//! health check), so the image needs no HTTP client of its own.

use crate::config::Config;
use anyhow::{Context, bail};
use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// The longest the check waits to connect, and then for the answer.
const TIMEOUT: Duration = Duration::from_secs(5);
/// The most bytes of the answer read (it is a line or two).
const MAX_ANSWER: u64 = 4096;

/// Asks `/healthz` at `[metrics] listen`; fails unless the bot answers 200.
pub fn run(config: &Config) -> anyhow::Result<()> {
    let address = config
        .metrics
        .address()
        .map_err(super::said::Said::new)?
        .context(
            "`[metrics] listen` is not set (GAMEHOST_METRICS_LISTEN): `gamehost health` asks the \
             bot's /healthz there",
        )?;
    let (status, body) = ask(reachable(address))?;
    let body = body.trim();
    if status == 200 {
        println!("healthy: {body}");
        return Ok(());
    }
    bail!("unhealthy ({status}): {}", body.replace('\n', "; "))
}

/// The address to connect to: a bot listening on every interface
/// (`0.0.0.0`, `::`) is reached on loopback.
fn reachable(address: SocketAddr) -> SocketAddr {
    match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), address.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(IpAddr::V6(Ipv6Addr::LOCALHOST), address.port())
        }
        _ => address,
    }
}

/// `GET /healthz` at `address`: the status code and the body.
fn ask(address: SocketAddr) -> anyhow::Result<(u16, String)> {
    let failed = || format!("no answer from the bot's /healthz at {address}");
    let mut stream = TcpStream::connect_timeout(&address, TIMEOUT).with_context(failed)?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .with_context(failed)?;
    let mut answer = String::new();
    stream
        .take(MAX_ANSWER)
        .read_to_string(&mut answer)
        .with_context(failed)?;
    let status = answer
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| answer.strip_prefix("HTTP/1.0 "))
        .and_then(|rest| rest.get(..3))
        .and_then(|code| code.parse::<u16>().ok())
        .with_context(|| format!("{}: not an HTTP answer", failed()))?;
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, body)| body)
        .to_string();
    Ok((status, body))
}

//! What the two HTTP servers (`wopr serve`, `wopr ggp`) and the GGP
//! manager share: the async runtime, and a listener bound with a one-line
//! error.

use std::net::{IpAddr, SocketAddr};

use anyhow::Context;

/// A multi-threaded tokio runtime.
pub fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// A listener on `host:port` (port 0: any free port) and the address it
/// got.
pub async fn listen(
    host: IpAddr,
    port: u16,
) -> anyhow::Result<(tokio::net::TcpListener, SocketAddr)> {
    let addr = SocketAddr::new(host, port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let local = listener.local_addr()?;
    Ok((listener, local))
}

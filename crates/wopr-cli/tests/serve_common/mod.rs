//! Shared by the `wopr serve` tests: start the server binary on a free port,
//! call its API, read its peak memory.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// A running `wopr serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Server {
    /// Starts `wopr serve --port 0 EXTRA…` and waits for its address line.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wopr"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start wopr serve");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the address line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server {
            child,
            base: url.trim_end_matches('/').to_string(),
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's peak resident memory so far (VmHWM), in KiB.
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        status
            .lines()
            .find(|l| l.starts_with("VmHWM:"))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain HTTP/1 client.
pub type Http = Client<HttpConnector, Full<Bytes>>;

/// A client for the tests.
pub fn client() -> Http {
    Client::builder(TokioExecutor::new()).build_http()
}

/// Sends a request; the status and the body parsed as JSON (or the body as
/// a JSON string when it is not JSON).
pub async fn call(http: &Http, method: &str, url: &str, body: Option<&str>) -> (u16, Value) {
    let (status, bytes) = call_raw(http, method, url, body).await;
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, v)
}

/// Sends a request; the status and the raw body.
pub async fn call_raw(http: &Http, method: &str, url: &str, body: Option<&str>) -> (u16, Vec<u8>) {
    let (status, _, bytes) = call_full(http, method, url, body).await;
    (status, bytes)
}

/// Sends a request; the status, the `Retry-After` header's seconds (if
/// sent) and the raw body.
pub async fn call_full(
    http: &Http,
    method: &str,
    url: &str,
    body: Option<&str>,
) -> (u16, Option<u64>, Vec<u8>) {
    let mut req = hyper::Request::builder().method(method).uri(url);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(Full::new(Bytes::from(body.unwrap_or("").to_string())))
        .expect("request");
    let res = http.request(req).await.expect("server answers");
    let status = res.status().as_u16();
    let retry_after = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let bytes = res
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .to_vec();
    (status, retry_after, bytes)
}

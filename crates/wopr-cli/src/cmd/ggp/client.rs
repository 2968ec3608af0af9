//! The manager's HTTP client: one POST of one message on its own
//! connection, with a deadline on the whole exchange (connect, send,
//! answer), so a player that hangs costs at most its clock and grace.

use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::Uri;
use hyper_util::rt::TokioIo;

/// The longest answer read from a player (a move is a few bytes).
const MAX_ANSWER: usize = 64 * 1024;

/// A player's address, checked.
#[derive(Clone, Debug)]
pub struct Url {
    /// The URL as given (for records).
    pub text: String,
    uri: Uri,
    host: String,
    port: u16,
}

impl Url {
    /// Reads `http://HOST[:PORT][/PATH]`, or `HOST:PORT` (ggp-base's form).
    pub fn parse(text: &str) -> Result<Url, String> {
        let full = if text.contains("://") {
            text.to_string()
        } else {
            format!("http://{text}")
        };
        let bad = |why: &str| {
            format!("bad player URL '{text}': {why} (accepted: http://HOST:PORT/ or HOST:PORT)")
        };
        let uri: Uri = full.parse().map_err(|e| bad(&format!("{e}")))?;
        if uri.scheme_str() != Some("http") {
            return Err(bad("only http:// is spoken"));
        }
        let host = uri
            .host()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("no host"))?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = uri.port_u16().unwrap_or(80);
        Ok(Url {
            text: text.to_string(),
            uri,
            host,
            port,
        })
    }
}

/// A player's answer: its text and how long it took, or why none came.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The body, trimmed; `Err` with a one-line reason when there is none
    /// (refused, timed out, an HTTP error status).
    pub text: Result<String, String>,
    /// From sending to the answer (or to giving up).
    pub took: Duration,
}

/// POSTs `message` to `url` and waits at most `limit` for the answer.
pub async fn post(url: &Url, message: String, limit: Duration) -> Answer {
    let t0 = Instant::now();
    let text = match tokio::time::timeout(limit, exchange(url, message)).await {
        Ok(r) => r,
        Err(_) => Err(format!("no answer within {} ms", limit.as_millis())),
    };
    Answer {
        text,
        took: t0.elapsed(),
    }
}

async fn exchange(url: &Url, message: String) -> Result<String, String> {
    let stream = tokio::net::TcpStream::connect((url.host.as_str(), url.port))
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    let (mut send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("HTTP handshake failed: {e}"))?;
    // The connection is driven beside the request, and ends with it.
    tokio::spawn(conn);
    let path = url.uri.path_and_query().map_or("/", |p| p.as_str());
    let authority = url.uri.authority().map_or("", |a| a.as_str());
    let req = hyper::Request::post(path)
        .header(hyper::header::HOST, authority)
        .header(hyper::header::CONTENT_TYPE, "text/acl")
        .body(Full::new(Bytes::from(message)))
        .map_err(|e| format!("cannot make the request: {e}"))?;
    let res = send
        .send_request(req)
        .await
        .map_err(|e| format!("the request failed: {e}"))?;
    let status = res.status();
    let body = Limited::new(res.into_body(), MAX_ANSWER)
        .collect()
        .await
        .map_err(|e| format!("cannot read the answer: {e}"))?
        .to_bytes();
    let body = String::from_utf8_lossy(&body).trim().to_string();
    if !status.is_success() {
        let first = body.lines().next().unwrap_or("");
        return Err(format!("HTTP {}: {first}", status.as_u16()));
    }
    Ok(body)
}

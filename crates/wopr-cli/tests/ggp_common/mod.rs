//! Shared by the GGP tests (`cli_ggp.rs`, `cli_ggp2.rs`): a `wopr ggp`
//! player in a child process, plain HTTP posts, and the repository's
//! sheets.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A running `wopr ggp` player, killed when dropped.
pub struct Player {
    child: Child,
    /// `http://HOST:PORT/`.
    pub url: String,
}

impl Player {
    /// Starts `wopr ggp --port 0 EXTRA…` and reads its address.
    pub fn start(extra: &[&str]) -> Player {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wopr"))
            .args(["ggp", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start wopr ggp");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the address line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Player { child, url }
    }

    /// `HOST:PORT`.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://").trim_end_matches('/')
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// POSTs `body` over plain HTTP/1.1; the status and the body.
pub fn post(addr: &str, body: &str) -> (u16, String) {
    post_bytes(addr, body.as_bytes())
}

/// The path of `rel`, relative to the repository's root.
pub fn sheet(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join(rel).to_str().unwrap().to_string()
}

/// Runs `wopr ggp match` and reads its record.
pub fn run_match(path: &str, addrs: &[&str], extra: &[&str]) -> Value {
    let mut args = vec!["ggp", "match", path];
    args.extend(addrs);
    args.extend(extra);
    let out = Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(&args)
        .output()
        .expect("the wopr binary runs");
    assert!(
        out.status.success(),
        "{path}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON record")
}

/// Writes `raw` to a fresh connection and reads what comes back until the
/// peer closes it (or 20 s pass). The write side stays open: a server
/// may drop a connection whose client half-closed it before answering.
pub fn send_raw(addr: &str, raw: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let _ = s.write_all(raw);
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

/// POSTs `body` (any bytes) over plain HTTP/1.1; the status and the body.
pub fn post_bytes(addr: &str, body: &[u8]) -> (u16, String) {
    let mut raw = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/acl\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    let answer = send_raw(addr, &raw);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let text = answer.split_once("\r\n\r\n").map_or("", |x| x.1);
    (status, text.trim().to_string())
}

/// Reads one HTTP request (head and body) from `s`, as a player would:
/// its body as text (bytes that are not UTF-8 replaced).
pub fn read_request(s: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_lowercase();
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = s.read_exact(&mut body);
    String::from_utf8_lossy(&body).into_owned()
}

//! What a request that cannot be carried out is answered with: an HTTP
//! status and one line saying why (sent as `{"error": …}` by `api.rs`).

/// A request that cannot be carried out, with the HTTP status it maps to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status code (4xx for the client's mistakes, 503 when the
    /// server is busy).
    pub status: u16,
    /// One line saying what was wrong and what is accepted.
    pub reason: String,
    /// Seconds after which a busy server (503) may answer: sent as the
    /// `Retry-After` header.
    pub retry_after: Option<u64>,
}

impl Refusal {
    /// A refusal with this status.
    pub fn new(status: u16, reason: impl Into<String>) -> Refusal {
        Refusal {
            status,
            reason: reason.into(),
            retry_after: None,
        }
    }

    /// A 400 Bad Request.
    pub fn bad(reason: impl Into<String>) -> Refusal {
        Refusal::new(400, reason)
    }

    /// A 409 Conflict: the request does not fit the game's state.
    pub fn conflict(reason: impl Into<String>) -> Refusal {
        Refusal::new(409, reason)
    }

    /// A 503 Service Unavailable: try again after `secs` seconds.
    pub fn busy(reason: impl Into<String>, secs: u64) -> Refusal {
        Refusal {
            retry_after: Some(secs.max(1)),
            ..Refusal::new(503, reason)
        }
    }
}

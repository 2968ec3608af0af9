//! An outside engine as a child process: started in a process group of
//! its own, written to by one thread and read by two, so that whatever it
//! does (exit at once, close its pipes, never read, never answer, write
//! endless or broken lines) the player waits no longer than a deadline and
//! is never killed by a signal.
//!
//! Writes go through a thread that blocks `SIGPIPE` for itself: a write to
//! an engine that has gone is an error there (`EPIPE`), never the signal
//! that would end wopr (the `wopr` command restores `SIGPIPE`'s default so
//! that `wopr … | head` ends quietly), and a write to an engine that does not
//! read never blocks the player. Its stdout is read in lines of at most
//! [`MAX_LINE`] bytes; the last line of its stderr is kept for messages.

use std::io::{BufReader, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::lines::{read_line, read_line_or_cut, shown, LineRead, MAX_LINE};

/// What the reading and writing threads report.
enum Event {
    /// A line of stdout (lossily decoded).
    Line(String),
    /// A line of stdout longer than [`MAX_LINE`] (reported once that many
    /// bytes came without a newline).
    TooLong,
    /// Stdout reached its end (or could not be read).
    StdoutClosed,
    /// A write to stdin failed: the engine closed it or exited.
    StdinClosed,
}

/// Why a command got no answer.
pub(super) enum Trouble {
    /// No answer within the time given.
    Timeout,
    /// The engine exited or closed its pipes; the text says how
    /// (`it exited with status 1`).
    Gone(String),
    /// It wrote a line that is not a GTP answer (shown, cut short).
    NotGtp(String),
    /// It answered `? TEXT`.
    Refused(String),
}

impl Trouble {
    /// One phrase saying what happened to `command` (sent with `timeout`).
    pub(super) fn describe(&self, command: &str, timeout: Duration) -> String {
        match self {
            Trouble::Timeout => {
                format!("no answer to '{command}' within {} ms", timeout.as_millis())
            }
            Trouble::Gone(how) => format!("{how} before answering '{command}'"),
            Trouble::NotGtp(line) => {
                format!("it answered '{command}' with '{line}', which is not a GTP answer")
            }
            Trouble::Refused(text) => format!("it answered '{command}' with '? {text}'"),
        }
    }
}

/// A running engine.
pub(super) struct Engine {
    child: Child,
    /// Command lines for the writing thread.
    commands: Sender<String>,
    events: Receiver<Event>,
    last_stderr: Arc<Mutex<String>>,
}

/// Blocks `SIGPIPE` for the calling thread only, so that its writes to a
/// closed pipe fail with `EPIPE` instead of ending the process.
#[cfg(unix)]
fn block_sigpipe() {
    // SAFETY: the set is a local value initialised by `sigemptyset` before
    // use; `pthread_sigmask` changes the calling thread's mask only.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

#[cfg(not(unix))]
fn block_sigpipe() {}

impl Engine {
    /// Starts `command` (program and arguments) with piped stdin, stdout
    /// and stderr; the error says why it could not.
    pub(super) fn start(command: &[String]) -> Result<Engine, String> {
        let mut cmd = Command::new(&command[0]);
        cmd.args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A group of its own, so that what it starts (a script's
        // commands) ends with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd.spawn().map_err(|e| format!("cannot start it: {e}"))?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (tx, events) = mpsc::channel();
        let (commands, lines_out) = mpsc::channel::<String>();
        let to_write = tx.clone();
        std::thread::spawn(move || {
            block_sigpipe();
            for line in lines_out {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|()| stdin.flush())
                    .is_err()
                {
                    let _ = to_write.send(Event::StdinClosed);
                    break;
                }
            }
        });
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                // A line past the bound is reported at once: the engine
                // is given up on, so the rest of it is never wanted.
                let event = match read_line_or_cut(&mut reader, &mut buf, MAX_LINE) {
                    Ok(LineRead::Line) => Event::Line(String::from_utf8_lossy(&buf).into_owned()),
                    Ok(LineRead::TooLong) => Event::TooLong,
                    Ok(LineRead::End) | Err(_) => {
                        let _ = tx.send(Event::StdoutClosed);
                        break;
                    }
                };
                if tx.send(event).is_err() {
                    break;
                }
            }
        });
        let last_stderr = Arc::new(Mutex::new(String::new()));
        let keep = Arc::clone(&last_stderr);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut buf = Vec::new();
            while let Ok(LineRead::Line | LineRead::TooLong) =
                read_line(&mut reader, &mut buf, MAX_LINE)
            {
                let line = String::from_utf8_lossy(&buf);
                if !line.trim().is_empty() {
                    *keep.lock().unwrap_or_else(|e| e.into_inner()) = shown(line.trim());
                }
            }
        });
        Ok(Engine {
            child,
            commands,
            events,
            last_stderr,
        })
    }

    /// Sends `command` and waits up to `timeout` for its answer: the text
    /// after `=` (lines joined by newlines), or the trouble.
    pub(super) fn ask(&mut self, command: &str, timeout: Duration) -> Result<String, Trouble> {
        let deadline = Instant::now() + timeout;
        if self.commands.send(format!("{command}\n")).is_err() {
            return Err(self.gone());
        }
        let mut answer: Option<(bool, Vec<String>)> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.events.recv_timeout(left) {
                Ok(Event::Line(line)) => line,
                Ok(Event::TooLong) => {
                    return Err(Trouble::NotGtp(format!(
                        "a line longer than {MAX_LINE} bytes"
                    )))
                }
                Ok(Event::StdoutClosed | Event::StdinClosed)
                | Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
                Err(RecvTimeoutError::Timeout) => return Err(Trouble::Timeout),
            };
            let line = line.trim_end_matches('\r');
            match &mut answer {
                None if line.trim().is_empty() => continue,
                None => {
                    let ok = match line.as_bytes()[0] {
                        b'=' => true,
                        b'?' => false,
                        _ => return Err(Trouble::NotGtp(shown(line))),
                    };
                    // Drop the status character and any numeric id.
                    let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    answer = Some((ok, vec![text.trim().to_string()]));
                }
                Some((ok, text)) => {
                    if line.trim().is_empty() {
                        let body = text.join("\n").trim().to_string();
                        return if *ok {
                            Ok(body)
                        } else {
                            Err(Trouble::Refused(shown(&body)))
                        };
                    }
                    if text.len() > 1_000 {
                        return Err(Trouble::NotGtp(
                            "an answer of more than 1000 lines".to_string(),
                        ));
                    }
                    text.push(line.to_string());
                }
            }
        }
    }

    /// How the engine went: its exit status where it has exited (waited
    /// for up to 200 ms), else that it closed its pipes.
    fn gone(&mut self) -> Trouble {
        let until = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Trouble::Gone(exited(status)),
                Ok(None) if Instant::now() < until => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => return Trouble::Gone("it closed its pipes".to_string()),
            }
        }
    }

    /// The last line the engine wrote to stderr (shown, cut short), or
    /// the empty string.
    pub(super) fn last_stderr(&self) -> String {
        self.last_stderr
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Asks the engine to quit (when `polite`), kills it and its process
    /// group if it has not exited within a second, and reaps it.
    pub(super) fn stop(mut self, polite: bool) {
        if polite && self.commands.send("quit\n".to_string()).is_ok() {
            let until = Instant::now() + Duration::from_secs(1);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the engine's process group (a script's commands with it, so
    /// that they do not hold its pipes open); called before the child is
    /// reaped, while the group's id is still its own.
    fn kill_group(&self) {
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: `kill` has no memory preconditions; the group is
            // the one the child was started in (its id is the child's).
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
}

/// `it exited with status N` or `it was killed by signal N`.
fn exited(status: ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return format!("it was killed by signal {signal}");
    }
    match status.code() {
        Some(code) => format!("it exited with status {code}"),
        None => "it exited".to_string(),
    }
}

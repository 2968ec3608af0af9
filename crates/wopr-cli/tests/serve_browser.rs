//! The page in a real browser: headless Chromium, driven through
//! chromedriver, opens `wopr serve`'s page and plays a whole game of
//! Tic-Tac-Toe and of Connect-4 by clicking, then checks the result shown.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them);
//! skipped with a message when `chromedriver` is absent.

mod serve_common;

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{json, Value};
use serve_common::{call, client, Http, Server};

/// Finds a program on the PATH.
fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// chromedriver, killed (with its browser) when dropped.
struct Driver {
    child: Child,
    url: String,
    profile: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn start_driver(exe: &PathBuf) -> Driver {
    let port = free_port();
    let child = Command::new(exe)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = std::env::temp_dir().join(format!("wopr-chromium-{}-{port}", std::process::id()));
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
        profile,
    }
}

async fn browser(driver: &Driver) -> Client {
    let chromium = which("chromium").unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    // The network is closed: without these flags Chromium waits on
    // connections it will never get.
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1200,1000",
                format!("--user-data-dir={}", driver.profile.display()),
            ],
        },
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a Chromium session")
}

/// The notations of a snapshot's moves.
fn notations(g: &Value) -> Vec<String> {
    g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap().to_string())
        .collect()
}

/// The game the page will play, through the API: the person's rule (the
/// legal move with the lowest index) is what the `first` player does, so
/// `first` against the opponent gives the same moves.
async fn expected(http: &Http, base: &str, game: &str, opponent: &str) -> Value {
    let body = json!({"game": game, "players": ["first", opponent]}).to_string();
    let (s, mut g) = call(http, "POST", &format!("{base}/api/games"), Some(&body)).await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    while g["result"].is_null() {
        let (s, next) = call(http, "POST", &format!("{base}/api/games/{id}/engine"), None).await;
        assert_eq!(s, 200, "{next}");
        g = next;
    }
    g
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .expect(css)
        .text()
        .await
        .unwrap_or_default()
}

/// Sets up a game on the page and plays it by clicking the legal square (or
/// column) with the lowest action index until a result shows; returns the
/// result line and the game id shown.
async fn play_on_page(c: &Client, game: &str, opponent: &str) -> (String, String) {
    let before = text(c, "#game-id").await;
    c.find(Locator::Css("#game-select"))
        .await
        .unwrap()
        .select_by_value(game)
        .await
        .expect("the game is offered");
    let custom = c.find(Locator::Css("#custom-opponent")).await.unwrap();
    custom.clear().await.unwrap();
    custom.send_keys(opponent).await.unwrap();
    c.find(Locator::Css("#new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut refused_checked = false;
    loop {
        assert!(Instant::now() < deadline, "{game}: no result within 60 s");
        let id = text(c, "#game-id").await;
        if id.is_empty() || id == before {
            tokio::time::sleep(Duration::from_millis(60)).await;
            continue;
        }
        let result = text(c, "#result").await;
        if !result.is_empty() {
            assert!(
                refused_checked || game != "tictactoe",
                "the refusal was not tried"
            );
            let id = text(c, "#game-id").await;
            return (result, id);
        }
        let legal = c
            .find_all(Locator::Css("#board .legal"))
            .await
            .unwrap_or_default();
        let mut best: Option<(u32, fantoccini::elements::Element)> = None;
        for e in legal {
            if let Ok(Some(a)) = e.attr("data-action").await {
                let a: u32 = a.parse().expect("data-action is an index");
                if best.as_ref().is_none_or(|(b, _)| a < *b) {
                    best = Some((a, e));
                }
            }
        }
        let Some((_, e)) = best else {
            tokio::time::sleep(Duration::from_millis(60)).await;
            continue;
        };
        // Tic-Tac-Toe: once X holds a1, clicking it is refused on the page.
        if game == "tictactoe" && !refused_checked {
            if let Ok(a1) = c
                .find(Locator::Css("#board .cell[data-col='0'][data-row='0']"))
                .await
            {
                if a1.text().await.unwrap_or_default() == "X" {
                    a1.click().await.expect("click a1");
                    let err = text(c, "#error").await;
                    assert!(err.contains("not a legal move"), "{err:?}");
                    refused_checked = true;
                    continue;
                }
            }
        }
        // A stale element (the board was redrawn) is simply tried again.
        let _ = e.click().await;
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
}

/// Starts a game of `game` (its spec as `/api/games` lists it) against
/// `opponent` on the page and waits until its board is drawn.
async fn start_on_page(c: &Client, game: &str, opponent: &str) {
    let before = text(c, "#game-id").await;
    c.find(Locator::Css("#game-select"))
        .await
        .unwrap()
        .select_by_value(game)
        .await
        .expect("the game is offered");
    let custom = c.find(Locator::Css("#custom-opponent")).await.unwrap();
    custom.clear().await.unwrap();
    custom.send_keys(opponent).await.unwrap();
    c.find(Locator::Css("#new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let id = text(c, "#game-id").await;
        if !id.is_empty() && id != before {
            return;
        }
        assert!(Instant::now() < deadline, "{game}: no new game");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks the element `css` once it is there.
async fn click(c: &Client, css: &str) {
    c.wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

/// Waits until the first move listed starts with `want`.
async fn first_move_is(c: &Client, want: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(li) = c.find(Locator::Css("#moves li")).await {
            let t = li.text().await.unwrap_or_default();
            if t.starts_with(want) {
                return;
            }
        }
        assert!(Instant::now() < deadline, "the first move is not {want:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_person_plays_tictactoe_and_connect4_in_chromium() {
    let Some(exe) = which("chromedriver") else {
        println!(
            "SKIPPED: chromedriver is not installed (apt-get install chromium chromium-driver); the browser test did not run"
        );
        return;
    };
    let server = Server::start(&[]);
    let http = client();
    let driver = start_driver(&exe);
    let c = browser(&driver).await;
    c.goto(&server.base).await.expect("open the page");
    c.wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css("#opponent option"))
        .await
        .expect("the page loads the games and players");

    for (game, opponent) in [
        ("tictactoe", "first"),
        ("connect4:7x6", "alphabeta:depth=2"),
    ] {
        let want = expected(&http, &server.base, game, opponent).await;
        let (shown, id) = play_on_page(&c, game, opponent).await;
        // Drawing and sounding every move went without an error, and every
        // move's bar went to Web Audio.
        assert_eq!(text(&c, "#error").await, "", "{game}");
        let sounded = c
            .execute(
                "return audio !== null && heard === current.moves.length",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(sounded, json!(true), "{game}: the bars were scheduled");
        let (s, got) = call(
            &http,
            "GET",
            &format!("{}/api/games/{id}", server.base),
            None,
        )
        .await;
        assert_eq!(s, 200, "{got}");
        assert_eq!(got["players"], json!(["human", opponent]));
        assert_eq!(
            notations(&got),
            notations(&want),
            "{game}: the clicks made the expected moves"
        );
        assert_eq!(got["result"]["returns"], want["result"]["returns"]);
        let text = got["result"]["text"].as_str().unwrap();
        assert!(
            shown.contains(text),
            "{game}: page shows {shown:?}, server says {text:?}"
        );
        let listed = c.find_all(Locator::Css("#moves li")).await.unwrap().len();
        assert_eq!(listed, notations(&want).len(), "{game}: the move list");
        if game == "tictactoe" {
            // Worked by hand: X takes the lowest free square and so does
            // `first`; X's a1 c1 b2 a3 win on the c1-a3 diagonal.
            assert!(shown.contains("X (human) wins"), "{shown}");
        }
        println!("{game} against {opponent}: {shown} after {listed} moves");
    }

    // Virus: a jump is two clicks, the piece (a1) and then the square (c3).
    start_on_page(&c, "virus:8x8", "random").await;
    click(&c, "#board .cell.jump-from[data-col='0'][data-row='0']").await;
    click(&c, "#board .cell.legal[data-col='2'][data-row='2']").await;
    first_move_is(&c, "black: a1c3").await;
    // Dots-and-Boxes: the top-left edge (action 0) is clicked on the board.
    start_on_page(&c, "dots-and-boxes:3x3", "random").await;
    click(&c, "#board .edge.legal[data-action='0']").await;
    first_move_is(&c, "A: h0,0").await;
    c.close().await.ok();
}

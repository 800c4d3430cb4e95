//! `tally serve`: the HTTP and WebSocket API, end to end against the
//! binary on a free loopback port. Waits are bounded by a deadline and
//! end on the awaited message, never on elapsed time alone.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tally::referee::{GameInput, score_input};
use tally::rules::Variant;
use tally::scoring::Scorer;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const WAIT: Duration = Duration::from_secs(60);

struct Server {
    child: Child,
    addr: String,
    /// Kept open so that the server's later lines have a reader.
    _out: BufReader<std::process::ChildStdout>,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        Server::start_to(extra, Stdio::null())
    }

    /// A server whose standard error goes to `err`.
    fn start_to(extra: &[&str], err: impl Into<Stdio>) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tally"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(err)
            .spawn()
            .expect("tally serve starts");
        let out = child.stdout.take().expect("stdout");
        let mut line = String::new();
        let mut out = BufReader::new(out);
        out.read_line(&mut line).expect("a line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_owned();
        Server {
            child,
            addr,
            _out: out,
        }
    }

    /// One HTTP/1.1 request; the status and the body.
    fn http(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            req.push_str(&format!("Host: {}\r\n", self.addr));
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        s.write_all(req.as_bytes()).expect("send");
        let mut text = String::new();
        s.read_to_string(&mut text).expect("read");
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let body = text.split_once("\r\n\r\n").map_or("", |x| x.1);
        // Bodies of these small answers come whole or chunked once.
        let body = if text
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_owned()
        };
        (status, body)
    }

    fn json(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let (status, text) = self.http(method, path, &[], body);
        (
            status,
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
        )
    }

    fn create(&self, setup: Value) -> String {
        let (status, v) = self.json("POST", "/api/games", &setup.to_string());
        assert_eq!(status, 200, "{v}");
        v["id"].as_str().expect("an id").to_owned()
    }

    async fn socket(&self, id: &str) -> Ws {
        let url = format!("ws://{}/api/games/{id}/ws", self.addr);
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
        Ws { ws }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out.push_str(&tail[..n]);
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

struct Ws {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Ws {
    async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("send");
    }

    /// The next message whose type is `kind`.
    async fn next(&mut self, kind: &str) -> Value {
        self.until(|m| m["type"] == kind).await
    }

    /// The next message for which `f` holds.
    async fn until(&mut self, f: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = tokio::time::timeout(left, self.ws.next())
                .await
                .expect("a message before the deadline")
                .expect("the socket is open")
                .expect("a message");
            if let Message::Text(t) = m {
                let v: Value = serde_json::from_str(t.as_str()).expect("JSON");
                if f(&v) {
                    return v;
                }
            }
        }
    }

    /// The next state in which `f` holds.
    async fn state(&mut self, f: impl Fn(&Value) -> bool) -> Value {
        self.until(|m| m["type"] == "state" && f(&m["game"])).await["game"].clone()
    }

    async fn play(&mut self, action: &str) {
        self.send(json!({"type": "play", "action": action})).await;
    }
}

/// An empty directory for a test's `--save`, named for the test and the
/// process.
fn fresh_save_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tally-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn referee_totals(variant: Variant, fen: Option<&str>, moves: &str) -> (Value, Value) {
    let r = score_input(&Scorer::new(variant), &GameInput::from_text(fen, moves)).unwrap();
    (r.total.white.to_json(), r.total.black.to_json())
}

fn plies(g: &Value) -> usize {
    g["plies"].as_array().map_or(0, Vec::len)
}

const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
const ONE_KNIGHT: &str = "r1bqkb1r/pppppppp/8/8/8/5n2/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[tokio::test]
async fn a_game_in_each_variant_to_its_end_with_the_referees_points() {
    let server = Server::start(&[]);
    for v in Variant::ALL {
        let (fen, mate) = if v == Variant::Extinction {
            (ONE_KNIGHT, "g2f3")
        } else {
            (BACK_RANK, "a1a8")
        };
        let id =
            server.create(json!({"variant": v.id(), "fen": fen, "side": "white", "movetime": 50}));
        let mut ws = server.socket(&id).await;
        let first = ws.state(|_| true).await;
        assert_eq!(first["status"], "playing");
        ws.play(mate).await;
        let end = ws.state(|g| g["status"] == "over").await;
        let (w, b) = referee_totals(v, Some(fen), mate);
        assert_eq!(
            (&end["totals"]["white"], &end["totals"]["black"]),
            (&w, &b),
            "{v}"
        );
        assert!(end["ending"]["text"].is_string(), "{end}");
        assert_eq!(end["ending"]["winner"], "white");
        let named = |a: &Value| !a["events"].as_array().unwrap().is_empty();
        assert!(
            named(&end["plies"][0]["award"]) || named(&end["outcome"]),
            "{v}: {end}"
        );
        // The annotated PGN of the finished game.
        let (status, pgn) = server.http("GET", &format!("/api/games/{id}/pgn"), &[], "");
        assert_eq!(status, 200);
        assert!(pgn.contains("[Variant "), "{pgn}");
        assert!(pgn.contains("1-0"), "{pgn}");
        if v == Variant::Stylish {
            let (status, html) = server.http("GET", &format!("/api/games/{id}/report"), &[], "");
            assert_eq!(status, 200, "{html}");
            assert!(html.contains("<svg"), "the report draws boards");
        }
    }
}

#[tokio::test]
async fn tally_replies_streaming_its_margin_and_a_takeback_returns_to_my_turn() {
    let server = Server::start(&[]);
    let id = server.create(json!({"variant": "stylish", "side": "white", "movetime": 200}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e2e4").await;
    let think = ws.next("think").await;
    assert!(think["think"]["margin"].is_number(), "{think}");
    let g = ws.state(|g| plies(g) == 2 && g["thinking"] == false).await;
    assert_eq!(g["turn"], "white");
    // A reload: the same game from the server.
    let (_, again) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(again["plies"], g["plies"]);
    ws.send(json!({"type": "takeback"})).await;
    let g = ws.state(|g| plies(g) == 0).await;
    assert_eq!(g["turn"], "white");
    ws.send(json!({"type": "takeback"})).await;
    let e = ws.next("error").await;
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("nothing to take back")
    );
    ws.send(json!({"type": "resign"})).await;
    let g = ws.state(|g| g["status"] == "over").await;
    assert_eq!(g["ending"]["winner"], "black");
}

/// A Chess960 game: a random start position of the 960 without a FEN;
/// from a FEN, castling by king takes rook, scored as the referee does;
/// the page lists the variants once, from the server.
#[tokio::test]
async fn chess960_games_castle_by_king_takes_rook() {
    let server = Server::start(&[]);
    let id = server.create(json!({"mode": "people", "chess960": true}));
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(g["chess960"], true);
    let start = g["start_fen"].as_str().unwrap();
    assert!(start.contains("/pppppppp/8/8/8/8/PPPPPPPP/"), "{start}");
    let fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    let id =
        server.create(json!({"mode": "people", "variant": "wacky", "chess960": true, "fen": fen}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    for (n, m) in ["b1a1", "b8h8"].into_iter().enumerate() {
        ws.play(m).await;
        ws.state(|s| plies(s) > n).await;
    }
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(plies(&g), 2, "{g}");
    assert!(g["fen"].as_str().unwrap().starts_with("r4rk1/"), "{g}");
    // A FEN whose castling rights only Chess960 reads plays as Chess960
    // without the key, its rights kept.
    let shredder = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    let id960 = server.create(json!({"mode": "people", "fen": shredder}));
    let (_, g960) = server.json("GET", &format!("/api/games/{id960}"), "");
    assert_eq!(g960["chess960"], true, "{g960}");
    assert!(g960["fen"].as_str().unwrap().contains(" w KQkq "), "{g960}");
    let (white, black) = referee_totals(Variant::Wacky, Some(fen), "b1a1 b8h8");
    assert_eq!((white.clone(), black.clone()), (json!(860), json!(860)));
    assert_eq!(g["totals"]["white"], white, "{g}");
    assert_eq!(g["totals"]["black"], black, "{g}");
    // The page's variant lists come from the server's one list.
    let (status, v) = server.json("GET", "/api/variants", "");
    assert_eq!(status, 200);
    let ids: Vec<&str> = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
    assert_eq!(ids, all);
    assert_eq!(v["default_variant"], "stylish");
}

#[tokio::test]
async fn an_illegal_move_is_refused_with_a_clear_message() {
    let server = Server::start(&[]);
    let id = server.create(json!({"mode": "people"}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e2e5").await;
    let e = ws.next("error").await;
    let text = e["message"].as_str().unwrap();
    assert!(text.contains("illegal") && text.contains("e2e5"), "{text}");
    ws.play("disk").await;
    let e = ws.next("error").await;
    assert!(e["message"].as_str().unwrap().contains("disk"), "{e}");
    ws.send(json!({"type": "play"})).await;
    let e = ws.next("error").await;
    assert!(e["message"].as_str().unwrap().contains("action"), "{e}");
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(plies(&g), 0);
}

#[tokio::test]
async fn each_special_action_is_played_and_scored() {
    let server = Server::start(&[]);
    // disk and swap
    let id = server.create(json!({"variant": "tiebraker", "mode": "people", "specials": true}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e2e4").await;
    let g = ws.state(|g| plies(g) == 1).await;
    assert!(
        g["legal"]["specials"]
            .as_array()
            .unwrap()
            .contains(&json!("disk"))
    );
    ws.play("disk").await;
    let g = ws.state(|g| plies(g) == 2).await;
    assert_eq!(g["disk"], "black");
    let sp = g["legal"]["specials"].as_array().unwrap().clone();
    assert!(
        sp.contains(&json!("swap")) && sp.contains(&json!("restore")),
        "{sp:?}"
    );
    ws.play("swap").await;
    let g = ws.state(|g| plies(g) == 3).await;
    assert_eq!(g["plies"][2]["san"], "swap");
    assert_eq!(g["disk"], "white");
    // restore
    let id = server.create(json!({"variant": "tiebraker", "mode": "people", "specials": true}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    for (n, a) in ["e2e4", "disk", "restore"].iter().enumerate() {
        ws.play(a).await;
        ws.state(|g| plies(g) == n + 1).await;
    }
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(g["plies"][2]["action"], "restore");
    assert!(g["disk"].is_null());
    // Off, the disk is refused.
    let id = server.create(json!({"variant": "tiebraker", "mode": "people", "specials": false}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("disk").await;
    assert!(
        ws.next("error").await["message"]
            .as_str()
            .unwrap()
            .contains("disk")
    );
    // claim in sets
    let fen = "4k3/8/8/8/8/8/4n3/R3K3 w - - 0 1";
    let id =
        server.create(json!({"variant": "sets", "mode": "people", "fen": fen, "specials": true}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e1e2").await;
    ws.state(|g| plies(g) == 1).await;
    ws.play("e8d7").await;
    let g = ws.state(|g| plies(g) == 2).await;
    assert_eq!(g["legal"]["specials"], json!(["claim"]));
    ws.play("claim").await;
    let g = ws.state(|g| g["status"] == "over").await;
    let (w, b) = referee_totals(Variant::Sets, Some(fen), "e1e2 e8d7 claim");
    assert_eq!((&g["totals"]["white"], &g["totals"]["black"]), (&w, &b));
    assert_eq!(g["outcome"]["events"], json!(["claim"]));
}

#[tokio::test]
async fn bad_json_and_oversized_messages_are_refused() {
    let server = Server::start(&[]);
    let (status, v) = server.json("POST", "/api/games", "{not json");
    assert_eq!(status, 400);
    assert!(
        v["error"].as_str().unwrap().contains("bad game setup"),
        "{v}"
    );
    let (status, v) = server.json("POST", "/api/games", r#"{"variant":"nonsense"}"#);
    assert_eq!(status, 400, "{v}");
    let (status, body) = server.http("POST", "/api/games", &[], &"x".repeat(300 * 1024));
    assert_eq!(status, 413);
    let v: Value = serde_json::from_str(&body).expect("a JSON error");
    assert!(v["error"].as_str().unwrap().contains("larger than"), "{v}");
    let id = server.create(json!({"mode": "people"}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.ws.send(Message::Text("{oops".into())).await.unwrap();
    assert!(
        ws.next("error").await["message"]
            .as_str()
            .unwrap()
            .contains("bad message")
    );
    ws.send(json!({"type": "dance"})).await;
    let e = ws.next("error").await;
    assert!(e["message"].as_str().unwrap().contains("dance"), "{e}");
    // A repeated key is refused, not read as its last value.
    ws.ws
        .send(Message::Text(r#"{"type":"state","type":"resign"}"#.into()))
        .await
        .unwrap();
    let e = ws.next("error").await;
    assert!(e["message"].as_str().unwrap().contains("duplicate"), "{e}");
    let big = json!({"type": "play", "action": "x".repeat(300 * 1024)});
    ws.send(big).await;
    assert!(
        ws.next("error").await["message"]
            .as_str()
            .unwrap()
            .contains("too large")
    );
    // Past the protocol limit the connection is closed, saying why
    // (1009: message too big).
    let huge = "y".repeat(2 * 1024 * 1024);
    let _ = ws.ws.send(Message::Text(huge.into())).await;
    let end = tokio::time::timeout(WAIT, async {
        loop {
            match ws.ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(end, Ok(Some(1009)), "the connection ends with 1009");
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(plies(&g), 0);
}

#[tokio::test]
async fn foreign_host_and_origin_are_refused() {
    let server = Server::start(&[]);
    let (status, body) = server.http("GET", "/", &[("Host", "evil.example:80")], "");
    assert_eq!(status, 403);
    assert!(body.contains("Host"), "{body}");
    let port = server.addr.rsplit(':').next().unwrap().to_owned();
    let rebind = format!("rebind.example:{port}");
    let (status, _) = server.http("GET", "/api/games", &[("Host", &rebind)], "");
    assert_eq!(status, 403);
    let (status, body) = server.http(
        "POST",
        "/api/games",
        &[("Origin", "http://evil.example")],
        "{}",
    );
    assert_eq!(status, 403);
    assert!(body.contains("origin"), "{body}");
    let own = format!("http://{}", server.addr);
    let (status, _) = server.http("POST", "/api/games", &[("Origin", &own)], "{}");
    assert_eq!(status, 200);
    let (status, _) = server.http("GET", "/", &[("Host", &format!("localhost:{port}"))], "");
    assert_eq!(status, 200);
    // A WebSocket from a foreign page.
    let id = server.create(json!({}));
    let mut req = format!("ws://{}/api/games/{id}/ws", server.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        other => panic!("a foreign origin was let in: {:?}", other.map(|_| ())),
    }
}

#[tokio::test]
async fn every_refusal_is_json_and_no_other_site_may_frame_the_page() {
    let server = Server::start(&[]);
    let error = |status: u16, body: &str| {
        let v: Value =
            serde_json::from_str(body).unwrap_or_else(|e| panic!("{status} {e}: {body:?}"));
        v["error"].as_str().expect("an error").to_owned()
    };
    let (status, body) = server.http("GET", "/nope", &[], "");
    assert_eq!(status, 404);
    assert!(error(status, &body).contains("no such page"), "{body}");
    let (status, body) = server.http("DELETE", "/api/games", &[], "");
    assert_eq!(status, 405);
    assert!(error(status, &body).contains("DELETE"), "{body}");
    // A plain request at a game's socket: the game is looked for first.
    let (status, body) = server.http("GET", "/api/games/000000000000/ws", &[], "");
    assert_eq!(status, 404);
    assert!(error(status, &body).contains("no game"), "{body}");
    let id = server.create(json!({"mode": "people"}));
    for path in [format!("/api/games/{id}/ws"), "/api/analyse/ws".to_owned()] {
        let (status, body) = server.http("GET", &path, &[], "");
        assert_eq!(status, 400, "{path}");
        assert!(error(status, &body).contains("WebSocket"), "{body}");
    }
    // The page says no site may frame it (a framing site would drive it
    // with the page's own origin).
    let mut s = TcpStream::connect(&server.addr).unwrap();
    write!(
        s,
        "GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let head = text.split("\r\n\r\n").next().unwrap().to_ascii_lowercase();
    assert!(head.contains("x-frame-options: deny"), "{head}");
    assert!(head.contains("frame-ancestors 'none'"), "{head}");
}

#[tokio::test]
async fn a_loss_on_time_is_saved_and_stays_after_a_restart() {
    let dir = fresh_save_dir("flag");
    let d = dir.to_str().unwrap();
    let id = {
        let server = Server::start(&["--save", d]);
        let id = server.create(json!({"mode": "people", "clock_base": 1000}));
        let mut ws = server.socket(&id).await;
        ws.state(|_| true).await;
        ws.play("e2e4").await;
        // Black's second runs out while nobody moves.
        let g = ws.state(|g| g["status"] == "over").await;
        assert!(g["ending"]["text"].to_string().contains("time"), "{g}");
        let saved = std::fs::read_to_string(dir.join(format!("{id}.pgn"))).unwrap();
        assert!(saved.contains("[TallyTimeLoss \"true\"]"), "{saved}");
        id
    };
    let server = Server::start(&["--save", d]);
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(g["status"], "over", "{g}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_hint_asked_again_after_a_move_is_answered() {
    let server = Server::start(&[]);
    let id = server.create(json!({"mode": "people", "movetime": 200}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.send(json!({"type": "hint"})).await;
    ws.play("e2e4").await;
    ws.state(|g| plies(g) == 1).await;
    // The first hint was for White, before the move; this one is Black's.
    ws.send(json!({"type": "hint"})).await;
    let hint = ws.next("hint").await;
    let action = hint["action"].as_str().unwrap().to_owned();
    ws.play(&action).await;
    let g = ws.state(|g| plies(g) == 2).await;
    assert_eq!(
        g["plies"][1]["action"],
        action.as_str(),
        "the hint was Black's move"
    );
}

#[tokio::test]
async fn a_dropped_connection_stops_the_search() {
    let server = Server::start(&[]);
    let id = server.create(json!({"variant": "chess", "side": "white", "movetime": 60000}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e2e4").await;
    ws.next("think").await;
    let (_, s) = server.json("GET", "/api/status", "");
    assert_eq!(s["searching"], 1, "{s}");
    drop(ws);
    // The search would go on for a minute; it stops as the page goes.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, s) = server.json("GET", "/api/status", "");
        if s["searching"] == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the search did not stop: {s}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(plies(&g), 1, "Tally played nothing for a page that left");
    assert_eq!(g["thinking"], false);
}

#[tokio::test]
async fn saved_games_come_back_after_a_restart() {
    let dir = fresh_save_dir("test");
    let d = dir.to_str().unwrap();
    let id = {
        let server = Server::start(&["--save", d]);
        let id = server.create(json!({"variant": "tiebraker", "mode": "people", "specials": true}));
        let mut ws = server.socket(&id).await;
        ws.state(|_| true).await;
        for (n, a) in ["e2e4", "disk"].iter().enumerate() {
            ws.play(a).await;
            ws.state(|g| plies(g) == n + 1).await;
        }
        id
    };
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 1, "one file per game, no temporary left");
    let server = Server::start(&["--save", d]);
    let (_, list) = server.json("GET", "/api/games", "");
    assert_eq!(list[0]["id"], id.as_str());
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(plies(&g), 2);
    assert_eq!(g["disk"], "black");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_analyse_view_ranks_every_action_and_a_hint_names_the_best() {
    let server = Server::start(&[]);
    let url = format!("ws://{}/api/analyse/ws", server.addr);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
    let mut ws = Ws { ws };
    ws.send(json!({"type": "analyse", "variant": "chess", "fen": BACK_RANK, "depth": 4}))
        .await;
    let pos = ws.next("position").await;
    assert_eq!(pos["fen"], BACK_RANK);
    let a = ws
        .until(|m| m["type"] == "analysis" && m["done"] == true)
        .await;
    let actions = a["actions"].as_array().unwrap();
    assert_eq!(actions[0]["action"], "a1a8", "{a}");
    assert_eq!(actions[0]["mate"], 1);
    assert!(actions.len() > 10);
    // A tiebraker game without special actions is analysed without them
    // (the disk is no action of it); with them, the disk is ranked too.
    for (specials, disk) in [(false, false), (true, true)] {
        ws.send(
            json!({"type": "analyse", "variant": "tiebraker", "specials": specials, "depth": 1}),
        )
        .await;
        ws.next("position").await;
        let a = ws
            .until(|m| m["type"] == "analysis" && m["done"] == true)
            .await;
        let ranked = a["actions"].as_array().unwrap();
        assert_eq!(ranked.iter().any(|r| r["action"] == "disk"), disk, "{a}");
    }
    ws.send(json!({"type": "line", "variant": "chess", "fen": BACK_RANK, "moves": ["a1a8"]}))
        .await;
    let line = ws.next("line").await;
    assert_eq!(line["sans"], json!(["Ra8#"]));
    ws.send(json!({"type": "analyse", "variant": "chess", "fen": "not a fen"}))
        .await;
    assert!(ws.next("error").await["message"].is_string());
    // A PGN with a move that cannot be read is refused, naming it.
    let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 Qh9 *";
    ws.send(json!({"type": "line", "variant": "chess", "pgn": pgn}))
        .await;
    let e = ws.next("error").await;
    assert!(e["message"].as_str().unwrap().contains("Qh9"), "{e}");
    // A new request replaces a long analysis: from its position on, only
    // the new position's rankings come, and its last is done.
    ws.send(json!({"type": "analyse", "variant": "chess"}))
        .await;
    ws.next("position").await;
    ws.send(json!({"type": "analyse", "variant": "chess", "fen": BACK_RANK, "depth": 3}))
        .await;
    let pos = ws.until(|m| m["type"] == "position").await;
    assert_eq!(pos["fen"], BACK_RANK);
    loop {
        let m = ws.until(|m| m["type"] == "analysis").await;
        assert_eq!(m["fen"], BACK_RANK, "{m}");
        if m["done"] == true {
            assert_eq!(m["depth"], 3, "{m}");
            break;
        }
    }
    // A hint in a game.
    let id = server.create(json!({"variant": "chess", "fen": BACK_RANK, "movetime": 100}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.send(json!({"type": "hint"})).await;
    let h = ws.next("hint").await;
    assert_eq!(h["action"], "a1a8", "{h}");
    assert_eq!(h["san"], "Ra8#");
}

/// Not a check but a measurement (`cargo test --test it serve:: -- --ignored
/// --nocapture`): the server's time per move beyond the think time, and
/// its memory with 100 games open.
#[tokio::test]
#[ignore]
async fn measure_overhead_and_memory() {
    let server = Server::start(&[]);
    let rss = |pid: u32| -> u64 {
        let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        s.lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|k| k.parse().ok())
            .unwrap_or(0)
    };
    let pid = server.child.id();
    // A person's move: from sending it to every page having the new state.
    let id = server.create(json!({"mode": "people", "variant": "stylish"}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5",
    ];
    let t = Instant::now();
    let rounds = 25;
    for _ in 0..rounds {
        for (n, m) in moves.iter().enumerate() {
            ws.play(m).await;
            ws.state(|g| plies(g) == n + 1).await;
        }
        for n in (0..moves.len()).rev() {
            ws.send(json!({"type": "takeback"})).await;
            ws.state(|g| plies(g) == n).await;
        }
    }
    let per = t.elapsed() / (rounds * moves.len() as u32 * 2);
    println!("person's move or takeback, round trip: {per:?}");
    // Tally's move: from the person's move to Tally's reply, less the think time.
    let movetime = 100;
    let id = server.create(json!({"variant": "chess", "movetime": movetime}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    let mut over = Vec::new();
    for (i, m) in ["e2e4", "g1f3", "f1c4", "d2d3", "b1c3"].iter().enumerate() {
        let t = Instant::now();
        ws.play(m).await;
        let g = ws
            .state(|g| plies(g) == 2 * i + 2 && g["thinking"] == false)
            .await;
        let search = Duration::from_secs_f64(g["search_ms"].as_f64().unwrap() / 1000.0);
        over.push(t.elapsed().saturating_sub(search));
    }
    println!("Tally's reply beyond its search's own time ({movetime} ms a move): {over:?}");
    let before = rss(pid);
    for _ in 0..98 {
        let id = server.create(json!({"mode": "people", "variant": "tiebraker"}));
        let mut ws = server.socket(&id).await;
        ws.state(|_| true).await;
        for (n, m) in moves.iter().enumerate() {
            ws.play(m).await;
            ws.state(|g| plies(g) == n + 1).await;
        }
    }
    let (_, s) = server.json("GET", "/api/status", "");
    println!(
        "{} games open: resident memory {} KiB (before the 98: {} KiB)",
        s["games"],
        rss(pid),
        before
    );
}

/// Ctrl-C (SIGINT) ends the server while a long analysis runs and its
/// page's socket is open: it does not wait for either.
#[tokio::test]
async fn ctrl_c_ends_the_server_during_a_search() {
    let mut server = Server::start(&[]);
    let url = format!("ws://{}/api/analyse/ws", server.addr);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("ws");
    let mut ws = Ws { ws };
    ws.send(json!({"type": "analyse", "variant": "chess", "depth": 60}))
        .await;
    // Searching: a first ranking has come.
    ws.until(|m| m["type"] == "analysis").await;
    let pid = server.child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().unwrap();
    assert!(sent.success());
    // The 60-plies analysis would run its full minute (the server's limit
    // of a search); the server ends long before (20 s is only the test's
    // patience on a loaded machine).
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = server.child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "the server did not end");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert!(status.success(), "{status:?}");
}

/// The raw answer to `request` written as is on a new connection (its
/// status line and headers, then the body).
fn raw(server: &Server, request: &str) -> String {
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(WAIT)).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    text
}

#[tokio::test]
async fn a_host_is_one_header_of_the_exact_form_and_every_answer_says_nosniff() {
    let server = Server::start(&[]);
    let addr = server.addr.clone();
    let port = addr.rsplit(':').next().unwrap().to_owned();
    for host in [
        format!("127.0.0.1:+{port}"),
        format!("127.0.0.1:0{port}"),
        format!("::1:{port}"),
    ] {
        let (status, _) = server.http("GET", "/api/status", &[("Host", &host)], "");
        assert_eq!(status, 403, "{host}");
    }
    // Two Host headers: refused, whichever comes first.
    let two = raw(
        &server,
        &format!(
            "GET /api/status HTTP/1.1\r\nHost: {addr}\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(
        two.starts_with("HTTP/1.1 403") || two.starts_with("HTTP/1.1 400"),
        "{two}"
    );
    // An absolute-form target naming another server.
    let absolute = raw(
        &server,
        &format!(
            "GET http://evil.example/api/status HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(absolute.starts_with("HTTP/1.1 403"), "{absolute}");
    let own = raw(
        &server,
        &format!(
            "GET http://{addr}/api/status HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        ),
    );
    assert!(own.starts_with("HTTP/1.1 200"), "{own}");
    // JSON answers are not sniffed, and no page of the app, the report
    // included, may be framed.
    let status = raw(
        &server,
        &format!("GET /api/status HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
    .to_ascii_lowercase();
    assert!(
        status.contains("x-content-type-options: nosniff"),
        "{status}"
    );
    let id = server.create(json!({"mode": "people"}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        ws.play(m).await;
    }
    ws.state(|g| g["status"] == "over").await;
    let report = raw(
        &server,
        &format!(
            "GET /api/games/{id}/report HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        ),
    )
    .to_ascii_lowercase();
    assert!(report.starts_with("http/1.1 200"), "{report}");
    let head = report.split("\r\n\r\n").next().unwrap();
    assert!(head.contains("x-frame-options: deny"), "{head}");
    assert!(head.contains("frame-ancestors 'none'"), "{head}");
}

#[tokio::test]
async fn a_setup_refuses_other_variants_fen_fields_and_a_clock_that_loses_at_once() {
    let server = Server::start(&[]);
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1",
    ] {
        let (status, v) = server.json("POST", "/api/games", &json!({ "fen": fen }).to_string());
        assert_eq!(status, 400, "{fen}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains("pockets") || e.contains("three-check"), "{e}");
    }
    let (status, v) = server.json("POST", "/api/games", r#"{"clock_base":1}"#);
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("1000"), "{v}");
}

#[tokio::test]
async fn a_slow_request_is_cut_off_and_connections_are_capped() {
    let server = Server::start(&[]);
    // A body declared larger than the bound: refused at once, and the
    // connection closed (not kept waiting for the gigabyte).
    let started = Instant::now();
    let big = raw(
        &server,
        &format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Length: 1000000000\r\n\r\n{{}}",
            server.addr
        ),
    );
    assert!(big.starts_with("HTTP/1.1 413"), "{big}");
    assert!(started.elapsed() < WAIT);
    // Headers that never end: the server closes the connection (after
    // its header timeout, 10 s), where it used to wait for ever.
    let mut s = TcpStream::connect(&server.addr).unwrap();
    s.set_read_timeout(Some(WAIT)).unwrap();
    s.write_all(format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Slow: ", server.addr).as_bytes())
        .unwrap();
    let mut buf = [0u8; 256];
    let n = s
        .read(&mut buf)
        .expect("the server closes the connection before the deadline");
    let text = String::from_utf8_lossy(&buf[..n]);
    assert!(n == 0 || text.starts_with("HTTP/1.1 408"), "{text}");
    // A body that never arrives: 408 and closed.
    let slow = raw(
        &server,
        &format!(
            "POST /api/games HTTP/1.1\r\nHost: {}\r\nContent-Length: 100\r\n\r\n{{",
            server.addr
        ),
    );
    assert!(slow.starts_with("HTTP/1.1 408"), "{slow}");
    // Past the cap, a connection is closed as it comes; the server answers
    // again once they go.
    let idle: Vec<TcpStream> = (0..256)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    let mut extra = TcpStream::connect(&server.addr).unwrap();
    extra.set_read_timeout(Some(WAIT)).unwrap();
    let _ = extra.write_all(b"GET /api/status HTTP/1.1\r\n\r\n");
    let mut buf = [0u8; 64];
    let n = extra.read(&mut buf).unwrap_or(0);
    assert_eq!(n, 0, "{}", String::from_utf8_lossy(&buf[..n]));
    drop(idle);
    let deadline = Instant::now() + WAIT;
    loop {
        let mut s = TcpStream::connect(&server.addr).unwrap();
        s.set_read_timeout(Some(WAIT)).unwrap();
        let _ = write!(
            s,
            "GET /api/status HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        );
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        if text.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "the server did not come back");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The plies of game `id` saved in `dir`, from its `TallyActions` tag.
fn saved_plies(dir: &std::path::Path, id: &str) -> Option<usize> {
    let text = std::fs::read_to_string(dir.join(format!("{id}.pgn"))).ok()?;
    let line = text.lines().find(|l| l.starts_with("[TallyActions "))?;
    let actions = line.split('"').nth(1)?;
    Some(actions.split_whitespace().count())
}

#[tokio::test]
async fn a_ply_a_page_was_shown_survives_a_kill() {
    let dir = fresh_save_dir("kill");
    let d = dir.to_str().unwrap();
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"];
    let mut server = Server::start(&["--save", d]);
    let id = server.create(json!({"mode": "people", "variant": "stylish"}));
    // Nothing is written for a game nobody has played in.
    assert_eq!(saved_plies(&dir, &id), None);
    for (n, m) in moves.iter().enumerate() {
        let mut ws = server.socket(&id).await;
        ws.state(|_| true).await;
        ws.play(m).await;
        ws.state(|g| plies(g) == n + 1).await;
        // The page has seen the ply: it is on disk, whatever happens now.
        assert_eq!(saved_plies(&dir, &id), Some(n + 1));
        server.child.kill().unwrap();
        server.child.wait().unwrap();
        server = Server::start(&["--save", d]);
        let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
        assert_eq!(plies(&g), n + 1, "{g}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[tokio::test]
async fn a_save_follows_no_link() {
    use std::os::unix::fs::symlink;
    let dir = fresh_save_dir("links");
    let d = dir.to_str().unwrap();
    let outside = std::env::temp_dir().join(format!("tally-outside-{}", std::process::id()));
    std::fs::write(&outside, "keep me").unwrap();
    let server = Server::start(&["--save", d]);
    let id = server.create(json!({"mode": "people"}));
    // A link planted where the old temporary file went, and one that is
    // the game's own file: neither is written through.
    symlink(&outside, dir.join(format!(".{id}.pgn.tmp"))).unwrap();
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e2e4").await;
    ws.state(|g| plies(g) == 1).await;
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
    let own = dir.join(format!("{id}.pgn"));
    assert!(
        !std::fs::symlink_metadata(&own)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    std::fs::remove_file(&own).unwrap();
    symlink(&outside, &own).unwrap();
    ws.play("e7e5").await;
    ws.state(|g| plies(g) == 2).await;
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
    let _ = std::fs::remove_file(&outside);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_save_folder_keeps_the_games_kept_and_says_what_it_did_not_load() {
    let dir = fresh_save_dir("many");
    let d = dir.to_str().unwrap();
    {
        let server = Server::start(&["--save", d, "--max-games", "4"]);
        for _ in 0..12 {
            let id = server.create(json!({"mode": "people"}));
            let mut ws = server.socket(&id).await;
            ws.state(|_| true).await;
            ws.play("e2e4").await;
            ws.state(|g| plies(g) == 1).await;
        }
    }
    let files = || {
        std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "pgn"))
            .count()
    };
    // The four games kept; the eight dropped took their files with them.
    assert_eq!(files(), 4);
    let log = dir.with_extension("log");
    let err = std::fs::File::create(&log).unwrap();
    let server = Server::start_to(&["--save", d, "--max-games", "2"], err);
    let (_, v) = server.json("GET", "/api/games", "");
    assert_eq!(v.as_array().unwrap().len(), 2, "{v}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("2 older saved game(s)"), "{text}");
    drop(server);
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_page_that_reads_nothing_does_not_starve_the_searches() {
    let server = Server::start(&["--max-searches", "2", "--max-analysis-time", "5"]);
    let url = format!("ws://{}/api/analyse/ws", server.addr);
    let mut stalled = Vec::new();
    for _ in 0..2 {
        let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .unwrap();
        ws.send(Message::Text(
            json!({"type": "analyse", "variant": "chess"})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
        let line = json!({"type": "line", "variant": "chess", "moves": ["e2e4", "e7e5", "g1f3"]})
            .to_string();
        for _ in 0..1500 {
            if ws.send(Message::Text(line.clone().into())).await.is_err() {
                break;
            }
        }
        // Never read: kept open, unread.
        stalled.push(ws);
    }
    // The stalled pages' analyses end at their time limit all the same
    // (they used to block on the page, holding both searches for ever),
    // and a game elsewhere then gets Tally's move.
    let id = server.create(json!({"side": "white", "movetime": 100}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    ws.play("e2e4").await;
    ws.state(|g| plies(g) == 2).await;
    let deadline = Instant::now() + WAIT * 2;
    loop {
        let (_, s) = server.json("GET", "/api/status", "");
        if s["searching"] == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "searches still running: {s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(stalled);
}

#[tokio::test]
async fn the_state_names_the_winner_itemises_awards_and_a_game_ends_for_good() {
    let server = Server::start(&[]);
    let id = server.create(json!({"mode": "people", "variant": "stylish"}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    // 1. e4 d5 2. exd5 (a pawn takes a pawn: 5), then White resigns.
    for m in ["e2e4", "d7d5", "e4d5"] {
        ws.play(m).await;
    }
    let g = ws.state(|g| plies(g) == 3).await;
    let third = &g["plies"][2];
    assert_eq!(
        third["award"]["items"],
        json!([{"event": "capture", "white": 5, "black": 0}])
    );
    assert_eq!(third["squares"], json!(["e4", "d5"]));
    assert!(
        third["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/ppp1pppp/8/3P4/")
    );
    ws.send(json!({"type": "resign"})).await;
    let g = ws.state(|g| g["status"] == "over").await;
    // Between people the side to move (Black) resigns: White wins, by
    // stylish's rule and on points alike.
    assert_eq!(g["result"]["winner"], "white", "{g}");
    assert_eq!(g["result"]["by"], "resignation", "{g}");
    // A finished game is not taken back.
    ws.send(json!({"type": "takeback"})).await;
    let e = ws.next("error").await;
    assert!(e["message"].as_str().unwrap().contains("over"), "{e}");
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!((plies(&g), g["status"].as_str()), (3, Some("over")));
    // A stylish mate itemised: fool's mate by the queen, not adjacent (80).
    let id = server.create(json!({"mode": "people", "variant": "stylish"}));
    let mut ws = server.socket(&id).await;
    ws.state(|_| true).await;
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        ws.play(m).await;
    }
    let g = ws.state(|g| g["status"] == "over").await;
    assert_eq!(
        g["plies"][3]["award"]["items"],
        json!([{"event": "mate", "white": 0, "black": 80}])
    );
    assert_eq!(g["result"]["text"], "Black wins on points, 80 to 0");
    // The games list tells games apart.
    let (_, list) = server.json("GET", "/api/games", "");
    let first = &list[0];
    for key in ["id", "white", "black", "created_ms", "result"] {
        assert!(!first[key].is_null(), "{key}: {first}");
    }
}

#[tokio::test]
async fn a_rematch_reverses_the_colours_from_the_same_start() {
    let server = Server::start(&[]);
    let (_, g) = server.json(
        "POST",
        "/api/games",
        r#"{"variant":"sets","side":"white","chess960":true,"movetime":50}"#,
    );
    let id = g["id"].as_str().unwrap();
    let (status, r) = server.json("POST", &format!("/api/games/{id}/rematch"), "");
    assert_eq!(status, 200, "{r}");
    assert_ne!(r["id"], g["id"]);
    assert_eq!(r["side"], "black");
    assert_eq!(r["variant"], "sets");
    assert_eq!(r["start_fen"], g["start_fen"]);
    let (status, _) = server.json("POST", "/api/games/000000000000/rematch", "");
    assert_eq!(status, 404);
}

#[tokio::test]
async fn the_catalogue_gives_each_variant_s_card_with_its_numbers() {
    let server = Server::start(&[]);
    let (_, v) = server.json("GET", "/api/variants", "");
    let find = |id: &str| {
        v["variants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .unwrap()
            .clone()
    };
    let stylish = find("stylish");
    let lines = stylish["card"]["lines"].as_array().unwrap();
    let rook = lines.iter().find(|l| l["key"] == "mate.rook").unwrap();
    assert_eq!(rook["value"], "[90, 110]");
    assert_eq!(stylish["resignation_loses"], true);
    let tiebraker = find("tiebraker");
    let words: Vec<&str> = tiebraker["specials"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["action"].as_str().unwrap())
        .collect();
    assert_eq!(words, ["disk", "swap", "restore"]);
    assert!(find("chess")["specials"].as_array().unwrap().is_empty());
    assert_eq!(find("sets")["specials"][0]["action"], "claim");
    assert_eq!(v["min_elo"], tally::search::skill::MIN_ELO);
    assert_eq!(v["max_elo"], tally::search::skill::MAX_ELO);
}

#[tokio::test]
async fn tiebraker_s_phase_and_capture_or_check_are_in_the_state() {
    let server = Server::start(&[]);
    let id = server.create(json!({"mode": "people", "variant": "tiebraker"}));
    let mut ws = server.socket(&id).await;
    let g = ws.state(|_| true).await;
    assert_eq!(g["phase"]["phase"], "none");
    // 1. e4 d5 2. disk: Black must accept (any move), swap or restore; a
    // capture is on (exd5 is White's, cxd... no: Black's dxe4), so
    // capture-or-check binds Black's accepting move.
    for m in ["e2e4", "d7d5", "disk"] {
        ws.play(m).await;
    }
    let g = ws.state(|g| plies(g) == 3).await;
    assert_eq!(g["phase"]["phase"], "offered", "{g}");
    assert_eq!(g["phase"]["first"], "white");
    assert!(
        g["legal"]["limited"].as_str().unwrap().contains("capture"),
        "{g}"
    );
    ws.play("swap").await;
    let g = ws.state(|g| plies(g) == 4).await;
    assert_eq!(g["phase"]["phase"], "swapped", "{g}");
    assert_eq!(g["phase"]["frozen"], "black");
    assert_eq!(g["phase"]["swap_plies_left"], 20);
}

#[tokio::test]
async fn an_analysed_pgn_is_read_in_its_variant_with_lines_in_san() {
    let server = Server::start(&[]);
    let url = format!("ws://{}/api/analyse/ws", server.addr);
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut ws = Ws { ws };
    let pgn = "[Variant \"stylish\"]\n\n1. e4 d5 *\n";
    ws.send(json!({"type": "analyse", "pgn": pgn, "depth": 2}))
        .await;
    let p = ws.next("position").await;
    assert_eq!(p["variant"], "stylish", "{p}");
    let a = ws
        .until(|m| m["type"] == "analysis" && m["done"] == true)
        .await;
    let best = &a["actions"][0];
    assert_eq!(best["pv_san"][0], best["san"], "{best}");
    // exd5 pays 5 in stylish, itemised.
    let exd5 = a["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["action"] == "e4d5")
        .unwrap();
    assert_eq!(
        exd5["award"]["items"],
        json!([{"event": "capture", "white": 5, "black": 0}])
    );
    // A variant chosen over the tag is said.
    ws.send(json!({"type": "analyse", "pgn": pgn, "variant": "chess", "depth": 1}))
        .await;
    let p = ws.next("position").await;
    assert_eq!(p["variant"], "chess");
    assert!(p["note"].as_str().unwrap().contains("stylish"), "{p}");
}

/// Resident memory of process `pid`, KiB.
fn rss_kib(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse().ok())
        .unwrap_or(0)
}

/// The soak test of `tally serve` (docs/serve.md, "Soak test"): for
/// `SOAK_SECS` seconds (default 180), many games and pages at once, pages
/// dropping mid-search and coming back, hints and analyses abandoned, and
/// every `SOAK_KILL_SECS` (default 45) a `kill -9` and a restart on the
/// same `--save` folder. Reports resident memory over time and the
/// slowest `/api/status`; asserts that no game a page was shown is lost
/// and that no search outlives its pages.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "minutes long; run for a report: cargo test --release --test it serve::soak -- --ignored --nocapture"]
async fn soak() {
    let secs = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let total = Duration::from_secs(secs("SOAK_SECS", 180));
    let kill_every = Duration::from_secs(secs("SOAK_KILL_SECS", 45));
    let dir = fresh_save_dir("soak");
    let d = dir.to_str().unwrap().to_owned();
    let args = [
        "--save",
        d.as_str(),
        "--max-games",
        "40",
        "--max-searches",
        "2",
    ];
    let mut server = Server::start(&args);
    // A small deterministic generator (the run is the same each time, up
    // to the machine's timing).
    let mut seed: u64 = 0x5eed_1234;
    let mut rand = move |n: usize| {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((seed >> 33) as usize) % n.max(1)
    };
    let variants = ["stylish", "sets", "dynamic", "tiebraker", "wacky", "chess"];
    // The games, and the plies each page was last shown.
    let mut games: Vec<(String, usize)> = Vec::new();
    for i in 0..16 {
        let setup = if i % 2 == 0 {
            json!({"mode": "people", "variant": variants[i % variants.len()]})
        } else {
            json!({"variant": variants[i % variants.len()], "movetime": 30, "side": "white"})
        };
        games.push((server.create(setup), 0));
    }
    let started = Instant::now();
    let mut last_kill = Instant::now();
    let mut kills = 0;
    let mut actions = 0u64;
    let mut slowest = Duration::ZERO;
    let mut memory: Vec<(u64, u64)> = Vec::new();
    let mut lost = 0;
    while started.elapsed() < total {
        // The slowest status answer, and memory every few seconds.
        let t = Instant::now();
        let (status, _) = server.json("GET", "/api/status", "");
        assert_eq!(status, 200);
        slowest = slowest.max(t.elapsed());
        if memory
            .last()
            .is_none_or(|(s, _)| started.elapsed().as_secs() >= s + 5)
        {
            memory.push((started.elapsed().as_secs(), rss_kib(server.child.id())));
        }
        if last_kill.elapsed() >= kill_every {
            server.child.kill().unwrap();
            server.child.wait().unwrap();
            server = Server::start(&args);
            kills += 1;
            last_kill = Instant::now();
            // Every ply a page was shown is back; a game nobody played in
            // was never saved, and is made anew.
            for (id, shown) in &mut games {
                let (status, g) = server.json("GET", &format!("/api/games/{id}"), "");
                if *shown > 0 && (status != 200 || plies(&g) < *shown) {
                    lost += 1;
                }
                if status != 200 {
                    *id = server.create(json!({"mode": "people"}));
                    *shown = 0;
                }
            }
        }
        let k = rand(games.len());
        let id = games[k].0.clone();
        let mut ws = server.socket(&id).await;
        let mut g = ws.state(|_| true).await;
        for _ in 0..1 + rand(6) {
            actions += 1;
            let n = plies(&g);
            if g["status"] == "over" {
                // A finished game makes way for a new one.
                let setup = json!({"mode": "people", "variant": variants[rand(variants.len())]});
                games[k] = (server.create(setup), 0);
                break;
            }
            match rand(10) {
                // Drop the page mid-search (the search must stop).
                0 => break,
                1 => ws.send(json!({"type": "hint"})).await,
                2 if n > 0 && g["engine_to_move"] == false => {
                    ws.send(json!({"type": "takeback"})).await;
                    g = ws.state(|s| plies(s) < n).await;
                }
                _ if g["engine_to_move"] == false => {
                    let moves = g["legal"]["moves"].as_array().cloned().unwrap_or_default();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rand(moves.len())]["uci"].as_str().unwrap().to_owned();
                    ws.play(&m).await;
                    g = ws.state(|s| plies(s) > n || s["status"] == "over").await;
                }
                _ => {
                    g = ws
                        .state(|s| s["engine_to_move"] == false || s["status"] == "over")
                        .await;
                }
            }
            games[k].1 = plies(&g);
        }
        // Now and then an analysis, abandoned mid-way.
        if rand(8) == 0 {
            let url = format!("ws://{}/api/analyse/ws", server.addr);
            if let Ok((mut a, _)) = tokio_tungstenite::connect_async(url).await {
                let _ = a
                    .send(Message::Text(
                        json!({"type": "analyse", "variant": "stylish"})
                            .to_string()
                            .into(),
                    ))
                    .await;
            }
        }
    }
    // Every page gone: no search may still run.
    let deadline = Instant::now() + WAIT * 2;
    let searching = loop {
        let (_, s) = server.json("GET", "/api/status", "");
        if s["searching"] == 0 || Instant::now() > deadline {
            break s["searching"].clone();
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    println!(
        "soak: {:?}, {actions} actions on {} games, {kills} kills and restarts",
        started.elapsed(),
        games.len()
    );
    println!("soak: slowest /api/status: {slowest:?}");
    println!("soak: resident memory (s, KiB): {memory:?}");
    println!("soak: games lost: {lost}; searches running after their pages went: {searching}");
    assert_eq!(lost, 0);
    assert_eq!(searching, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opens the next game of `contest` and answers its state.
fn next_game(server: &Server, contest: &str) -> Value {
    let (status, g) = server.json("POST", &format!("/api/contests/{contest}/next"), "");
    assert_eq!(status, 200, "{g}");
    g
}

/// Plays `moves` in game `id` by its socket, to the state after them.
async fn play_all(server: &Server, id: &str, moves: &[&str]) -> Value {
    let mut ws = server.socket(id).await;
    let mut g = ws.state(|_| true).await;
    let start = plies(&g);
    for (n, m) in moves.iter().enumerate() {
        ws.play(m).await;
        g = ws.state(|g| plies(g) == start + n + 1).await;
    }
    g
}

#[tokio::test]
async fn a_stylish_contest_resignation_ends_it_and_the_resigner_loses_with_the_larger_sum() {
    let server = Server::start(&[]);
    let (status, g) = server.json(
        "POST",
        "/api/games",
        r#"{"mode":"people","variant":"stylish","contest":"series:4"}"#,
    );
    assert_eq!(status, 200, "{g}");
    let c = g["contest"].clone();
    let cid = c["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (c["number"].as_u64(), c["white"].as_str()),
        (Some(1), Some("first"))
    );
    assert_eq!(c["names"], json!(["Player 1", "Player 2"]));
    // Stylish's default: a resignation ends the series.
    assert_eq!(c["resignation_ends"], true);
    // Game 1: Player 2 (Black) mates with the queen, not adjacent: 80.
    let id1 = g["id"].as_str().unwrap().to_owned();
    let g1 = play_all(&server, &id1, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    assert_eq!(g1["contest"]["totals"], json!([0, 80]), "{g1}");
    assert_eq!(g1["contest"]["leader"], "second");
    // Game 2: colours reversed, Player 2 has White.
    let g2 = next_game(&server, &cid);
    assert_eq!(g2["contest"]["number"], 2);
    assert_eq!(g2["contest"]["white"], "second");
    // Asked again, the same game.
    assert_eq!(next_game(&server, &cid)["id"], g2["id"]);
    // Player 2, leading 80 to 0, resigns (between people the side to
    // move resigns): the series ends and Player 1 wins it.
    let id2 = g2["id"].as_str().unwrap();
    let mut ws = server.socket(id2).await;
    ws.state(|_| true).await;
    ws.send(json!({"type": "resign"})).await;
    let over = ws.state(|g| g["status"] == "over").await;
    let c = &over["contest"];
    assert_eq!(c["over"], true, "{c}");
    assert_eq!(c["totals"], json!([0, 80]));
    assert_eq!(c["decision"]["winner"], "first", "{c}");
    assert_eq!(c["decision"]["why"], "resignation");
    assert!(c["next"].is_null());
    let (status, _) = server.json("POST", &format!("/api/contests/{cid}/next"), "");
    assert_eq!(status, 409);
    // The contest's PGN holds both games, named by round.
    let (status, pgn) = server.http("GET", &format!("/api/contests/{cid}/pgn"), &[], "");
    assert_eq!(status, 200);
    assert_eq!(pgn.matches("[Round ").count(), 2, "{pgn}");
    assert!(pgn.contains("[White \"Player 2\"]"), "{pgn}");
}

#[tokio::test]
async fn a_contest_against_tally_names_the_person_you_with_the_verb_agreeing() {
    let server = Server::start(&[]);
    // The person (White) mates at once: a series of one game, won.
    let id = server.create(json!({
        "variant": "stylish",
        "side": "white",
        "movetime": 100,
        "fen": "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "contest": "series:1"
    }));
    let g = play_all(&server, &id, &["a1a8"]).await;
    let c = &g["contest"];
    assert_eq!(c["names"], json!(["You", "Tally"]), "{c}");
    assert_eq!(c["over"], true, "{c}");
    assert_eq!(c["decision"]["winner"], "first", "{c}");
    let text = c["decision"]["text"].as_str().unwrap();
    assert!(text.starts_with("You win on points: You "), "{text}");
}

#[tokio::test]
async fn a_tied_dynamic_contest_goes_to_a_tiebraker_game() {
    let server = Server::start(&[]);
    let g = server.create(json!({"mode": "people", "contest": "tiebreak-match:2"}));
    let (_, g1) = server.json("GET", &format!("/api/games/{g}"), "");
    assert_eq!(g1["variant"], "dynamic");
    // Elsewhere a resignation only scores its game.
    assert_eq!(g1["contest"]["resignation_ends"], false);
    let cid = g1["contest"]["id"].as_str().unwrap().to_owned();
    // Game 1: Black (the second player) mates: 0-100. Game 2: Black (now
    // the first player) mates: 100-0. Tied 100 to 100.
    play_all(&server, &g, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let g2 = next_game(&server, &cid);
    let id2 = g2["id"].as_str().unwrap();
    let after = play_all(&server, id2, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let c = &after["contest"];
    assert_eq!(c["totals"], json!([100, 100]), "{c}");
    assert_eq!(c["over"], false);
    assert_eq!(c["next"]["tiebreak"], true, "{c}");
    assert_eq!(c["next"]["variant"], "tiebraker");
    let g3 = next_game(&server, &cid);
    assert_eq!(g3["variant"], "tiebraker");
    assert_eq!(g3["specials"], true);
    assert_eq!(g3["contest"]["white"], "first");
}

#[tokio::test]
async fn a_sets_draw_pays_the_draw_advantage_holder_in_both_colours_and_a_contest_survives_a_restart()
 {
    let dir = fresh_save_dir("contest");
    let d = dir.to_str().unwrap();
    // White's rook against a lone king (bare from the start: no claim),
    // 59 plies without a capture or pawn move: one quiet move ends it by
    // the 30-move rule, a plain draw, 1/2 to the draw-advantage player.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 59 1";
    let (cid, second_game) = {
        let server = Server::start(&["--save", d]);
        let id = server.create(
            json!({"mode": "people", "variant": "sets", "contest": "series:2", "fen": fen}),
        );
        let g1 = play_all(&server, &id, &["a1a2"]).await;
        assert_eq!(g1["status"], "over", "{g1}");
        // The first player chose White; the second holds the advantage:
        // as Black in game 1, it gets the 1/2.
        assert_eq!(g1["draw_advantage"], "black");
        let c = &g1["contest"];
        assert_eq!(c["draw_advantage"], "second");
        assert_eq!(c["totals"], json!([0, 0.5]), "{c}");
        (
            c["id"].as_str().unwrap().to_owned(),
            next_game(&server, c["id"].as_str().unwrap())["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        )
    };
    // The contest and its games come back after a restart.
    let server = Server::start(&["--save", d]);
    let (status, c) = server.json("GET", &format!("/api/contests/{cid}"), "");
    assert_eq!(status, 200, "{c}");
    assert_eq!(c["games"].as_array().unwrap().len(), 1, "{c}");
    // Game 2: the holder has White now, and gets the 1/2 again.
    let g2 = play_all(&server, &second_game, &["a1a2"]).await;
    assert_eq!(g2["draw_advantage"], "white");
    let c = &g2["contest"];
    assert_eq!(c["white"], "second");
    assert_eq!(c["totals"], json!([0, 1]), "{c}");
    assert_eq!(c["decision"]["winner"], "second", "{c}");
    assert_eq!(c["decision"]["why"], "points");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_handicap_gives_the_weaker_side_its_values_and_the_draw_advantage() {
    use tally::scoring::variants::sets::{HandicapGap, handicap_factor};
    let server = Server::start(&[]);
    // A person rated 1400 against Tally at 1800: the person, White, is the
    // weaker side and gets the values of a 400 Elo gap below 1400. One quiet move
    // ends the game by the 30-move rule: the draw, 1/2 times the factor,
    // to the person, who holds the draw advantage.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 59 1";
    let id = server.create(json!({
        "variant": "sets", "side": "white", "elo": 1800, "handicap": 1400, "fen": fen
    }));
    let k = handicap_factor(HandicapGap {
        gap: 400,
        weaker_elo: 1400,
    })
    .unwrap() as f64
        / 1000.0;
    let g = play_all(&server, &id, &["a1a2"]).await;
    assert_eq!(g["status"], "over", "{g}");
    let h = &g["handicap"];
    assert_eq!(h["rating"], 1400, "{g}");
    assert_eq!(h["gap"], 400);
    assert_eq!(h["weaker"], "white");
    assert_eq!(h["factor"].as_f64(), Some(k));
    assert_eq!(g["draw_advantage"], "white");
    assert_eq!(g["totals"]["white"].as_f64(), Some(0.5 * k), "{g}");
    assert_eq!(g["totals"]["black"].as_f64(), Some(0.0));
    // Rated above Tally: Tally is the weaker side (Black here).
    let id = server.create(json!({
        "variant": "sets", "side": "white", "elo": 1800, "handicap": 2000, "fen": fen
    }));
    let (_, g) = server.json("GET", &format!("/api/games/{id}"), "");
    assert_eq!(g["handicap"]["weaker"], "black", "{g}");
    assert_eq!(g["handicap"]["gap"], 200);
    assert_eq!(g["draw_advantage"], "black");
    // Refused: no Tally rating, another variant, a gap beyond the table, a
    // draw advantage of its own, a game between people.
    for (setup, says) in [
        (
            json!({"variant": "sets", "handicap": 1400}),
            "give Tally's rating",
        ),
        (
            json!({"variant": "chess", "elo": 2000, "handicap": 1400}),
            "for sets",
        ),
        (
            json!({"variant": "sets", "elo": 2800, "handicap": 1000}),
            "goes up to",
        ),
        // 600 below 1400: beyond that level's rows.
        (
            json!({"variant": "sets", "elo": 2000, "handicap": 1400}),
            "for a weaker player at 1400 the handicap table goes up to 400",
        ),
        (
            json!({"variant": "sets", "elo": 1800, "handicap": 1400, "draw_advantage": "black"}),
            "holds the draw advantage",
        ),
        (
            json!({"variant": "sets", "mode": "people", "elo": 1800, "handicap": 1400}),
            "against Tally",
        ),
    ] {
        let (status, v) = server.json("POST", "/api/games", &setup.to_string());
        assert_eq!(status, 400, "{setup}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains(says), "{setup}: {e}");
    }
}

//! The page, compiled into the binary: `assets/index.html` at `/`, and
//! every other file of `assets/` at `/assets/<path>`, looked up in
//! [`ASSETS`] (a request never names a file on disk). The front end is
//! ES modules with no build step (`assets/js/`); `docs/serve.md` says
//! what each holds.

/// A file of the page.
#[derive(Clone, Copy, Debug)]
pub struct Asset {
    /// Its path under `/assets/`.
    pub path: &'static str,
    /// Its text.
    pub body: &'static str,
    /// Its `Content-Type`.
    pub kind: &'static str,
}

/// The page itself.
pub const INDEX_HTML: &str = include_str!("assets/index.html");

const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

macro_rules! assets {
    ($($path:literal => $kind:expr),* $(,)?) => {
        /// Every file served under `/assets/`.
        pub const ASSETS: &[Asset] = &[
            $(Asset { path: $path, body: include_str!(concat!("assets/", $path)), kind: $kind },)*
        ];
    };
}

assets! {
    "app.css" => CSS,
    "js/analyse.js" => JS,
    "js/board.js" => JS,
    "js/chart.js" => JS,
    "js/contest.js" => JS,
    "js/dom.js" => JS,
    "js/fen.js" => JS,
    "js/format.js" => JS,
    "js/link.js" => JS,
    "js/main.js" => JS,
    "js/pieces.js" => JS,
    "js/play.js" => JS,
    "js/rules.js" => JS,
    "js/setup.js" => JS,
    "js/socket.js" => JS,
    "js/sound.js" => JS,
    "js/types.js" => JS,
}

/// The asset at `path`, if there is one.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

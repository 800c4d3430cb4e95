//! Build script: which chess net the binary embeds.
//!
//! The net of the standard board (chess and the scoring variants) is
//! `nets/chess.tnn` unless `TALLY_EVALFILE` names another (the top-level
//! `Makefile` sets it from `EVALFILE`, as OpenBench builds engines); a
//! relative path is taken from the crate's root. `src/nnue/mod.rs`
//! includes the file that `TALLY_CHESS_NET` names. The file is checked
//! here only as far as a build can say clearly what is wrong (readable,
//! Tally's magic, a standard-board net: the header layout is documented in
//! `src/nnue/format.rs`); the binary reads it fully, and a test checks
//! that every embedded net loads.

use std::path::PathBuf;
use std::process::exit;

/// The net file's first bytes and the offset of its board byte (0: the
/// standard board), as `src/nnue/format.rs` writes them.
const MAGIC: &[u8] = b"TALLYNNU";
const BOARD_BYTE: usize = 13;

fn main() {
    println!("cargo:rerun-if-env-changed=TALLY_EVALFILE");
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let net = match std::env::var_os("TALLY_EVALFILE").filter(|v| !v.is_empty()) {
        Some(path) => root.join(path),
        None => root.join("nets").join("chess.tnn"),
    };
    let fail = |why: &str| -> ! {
        eprintln!("error: EVALFILE {}: {why}", net.display());
        exit(1);
    };
    let bytes = std::fs::read(&net).unwrap_or_else(|e| fail(&format!("cannot read it: {e}")));
    if !bytes.starts_with(MAGIC) || bytes.len() <= BOARD_BYTE {
        fail("not a Tally net (made by `tally train`)");
    }
    if bytes[BOARD_BYTE] != 0 {
        fail("a net for the extinction board; EVALFILE takes a chess (standard board) net");
    }
    let Some(path) = net.to_str() else {
        fail("the path is not UTF-8");
    };
    println!("cargo:rerun-if-changed={path}");
    println!("cargo:rustc-env=TALLY_CHESS_NET={path}");
}

//! Shards of a run on a cluster, shared by `match` and `datagen`: the
//! shard from `--shard K/N` or the job array's environment, and the
//! `{shard}` placeholder in output names.

use std::path::{Path, PathBuf};

use super::CliError;
use crate::matches::{Shard, shard_from_env};

/// The shard a run plays: `--shard K/N` when given, else the job array's
/// (`SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX`, with `--shards N`),
/// else none.
///
/// # Errors
///
/// A bad `--shard` or environment: exit code 2.
pub fn resolve(shard: Option<&str>, shards: Option<u32>) -> Result<Option<Shard>, CliError> {
    match shard {
        Some(s) => s.parse::<Shard>().map(Some).map_err(CliError::bad_input),
        None => shard_from_env(shards, &|k| std::env::var(k).ok()).map_err(CliError::bad_input),
    }
}

/// `path` with `{shard}` replaced by `K-of-N` (`all` without a shard).
pub fn shard_path(path: &Path, shard: Option<Shard>) -> PathBuf {
    let text = path.to_string_lossy();
    if !text.contains("{shard}") {
        return path.to_path_buf();
    }
    let tag = shard.map_or_else(
        || "all".to_owned(),
        |s| format!("{}-of-{}", s.index, s.count),
    );
    PathBuf::from(text.replace("{shard}", &tag))
}

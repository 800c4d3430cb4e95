//! Shards: one slice of a run's games, so that a cluster's job array
//! (SLURM, Kubernetes) plays one run as many. `tally match` and `tally
//! datagen` both shard this way.
//!
//! Shard `K/N` ([`Shard`]) plays the pairs of games `j` (games `2j` and
//! `2j + 1`) with `j % N == K - 1`, or the contests `j` with the same
//! rule, so that each shard has whole pairs for its SPRT and the games of
//! all shards together are exactly those of one run. `K` and `N` come from
//! `--shard K/N` or from the job array's environment
//! ([`shard_from_env`]); a file name's `{shard}` becomes `K-of-N`
//! ([`shard_path`]). Which games make up a run, and how shards' files are
//! merged, are the match runner's and datagen's.

use serde::{Deserialize, Serialize};

/// One slice of a run's games, in whole pairs: game `i` (of pair
/// `i / 2`) belongs to it when `(i / 2) % count == index - 1`; with
/// contests, in whole contests ([`Shard::contains_unit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based index.
    pub index: u32,
    /// Number of shards.
    pub count: u32,
}

impl Shard {
    /// Whether game `i` is in this shard.
    pub fn contains(&self, i: usize) -> bool {
        self.contains_unit(i / 2)
    }

    /// Whether unit `j` (a pair of games, or a contest) is in this shard:
    /// `j % count == index - 1`.
    pub fn contains_unit(&self, j: usize) -> bool {
        j % self.count as usize == (self.index - 1) as usize
    }

    /// A shard, checked: `1 <= index <= count`.
    ///
    /// # Errors
    ///
    /// A message when out of range.
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 || index == 0 || index > count {
            return Err(format!(
                "shard {index}/{count}: the index must be 1 to the count"
            ));
        }
        Ok(Shard { index, count })
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Parses `K/N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("--shard '{s}': expected K/N, like 2/8"))?;
        let k: u32 = k
            .trim()
            .parse()
            .map_err(|_| format!("--shard '{s}': K is not a number"))?;
        let n: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("--shard '{s}': N is not a number"))?;
        Shard::new(k, n)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The shard of a job-array task, from its environment (read through
/// `env`), when no `--shard` is given:
///
/// - `SLURM_ARRAY_TASK_ID`: `K = ID - SLURM_ARRAY_TASK_MIN + 1` (the
///   minimum defaults to 0); `N` is `shards` or else
///   `SLURM_ARRAY_TASK_COUNT`.
/// - `JOB_COMPLETION_INDEX` (Kubernetes indexed jobs, 0-based):
///   `K = INDEX + 1`; `N` is `shards` (required: the job's completions).
///
/// `None` when neither variable is set.
///
/// # Errors
///
/// A message when a variable is not a number or `N` is unknown.
pub fn shard_from_env(
    shards: Option<u32>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Shard>, String> {
    let num = |name: &str| -> Result<Option<u32>, String> {
        env(name)
            .map(|v| {
                v.trim()
                    .parse::<u32>()
                    .map_err(|_| format!("{name}='{v}' is not a number"))
            })
            .transpose()
    };
    if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
        let count = match shards {
            Some(n) => n,
            None => num("SLURM_ARRAY_TASK_COUNT")?.ok_or_else(|| {
                "SLURM_ARRAY_TASK_ID is set but not the shard count: give --shards N".to_owned()
            })?,
        };
        let k = id
            .checked_sub(min)
            .ok_or_else(|| "SLURM_ARRAY_TASK_ID is below SLURM_ARRAY_TASK_MIN".to_owned())?;
        return Shard::new(k + 1, count).map(Some);
    }
    if let Some(idx) = num("JOB_COMPLETION_INDEX")? {
        let count = shards.ok_or_else(|| {
            "JOB_COMPLETION_INDEX is set: give --shards N (the job's completions)".to_owned()
        })?;
        return Shard::new(idx + 1, count).map(Some);
    }
    Ok(None)
}

/// The shard a run plays: `--shard K/N` when given, else the job array's
/// ([`shard_from_env`] on the process environment, with `--shards N`),
/// else none.
///
/// # Errors
///
/// A message for a bad `--shard` or environment.
pub fn resolve_shard(shard: Option<&str>, shards: Option<u32>) -> Result<Option<Shard>, String> {
    match shard {
        Some(s) => s.parse::<Shard>().map(Some),
        None => shard_from_env(shards, &|k| std::env::var(k).ok()),
    }
}

/// `path` with `{shard}` replaced by `K-of-N` (`all` without a shard).
pub fn shard_path(path: &std::path::Path, shard: Option<Shard>) -> std::path::PathBuf {
    let text = path.to_string_lossy();
    if !text.contains("{shard}") {
        return path.to_path_buf();
    }
    let tag = shard.map_or_else(
        || "all".to_owned(),
        |s| format!("{}-of-{}", s.index, s.count),
    );
    std::path::PathBuf::from(text.replace("{shard}", &tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_parsing_and_environment() {
        assert_eq!(
            "2/8".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 8 }
        );
        assert!("0/8".parse::<Shard>().is_err());
        assert!("9/8".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ]);
        assert_eq!(
            shard_from_env(None, &slurm).unwrap(),
            Some(Shard { index: 5, count: 8 })
        );
        let k8s = env(&[("JOB_COMPLETION_INDEX", "0")]);
        assert!(shard_from_env(None, &k8s).is_err());
        assert_eq!(
            shard_from_env(Some(4), &k8s).unwrap(),
            Some(Shard { index: 1, count: 4 })
        );
        assert_eq!(shard_from_env(None, &env(&[])).unwrap(), None);
    }
}

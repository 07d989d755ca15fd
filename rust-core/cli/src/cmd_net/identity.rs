//! This device's identity for a match: where it is kept, how it is opened, and the warning
//! when nobody compares the pairing code.

use std::path::{Path, PathBuf};

use banco_app::network::Trust;

use super::MatchArgs;
use crate::CliError;

/// The file of this device's identity and confirmed peers ([`MatchArgs::data_dir`]).
pub(super) fn trust_path(args: &MatchArgs) -> Result<PathBuf, CliError> {
    let dir = crate::ui::data_dir(args.data_dir.as_ref()).ok_or_else(|| {
        CliError::input("no place for this device's identity: pass --data-dir DIR (or set HOME)")
    })?;
    Ok(dir.join("identity"))
}

pub(super) fn load_trust(path: &Path) -> Result<Trust, CliError> {
    Trust::open(path).map_err(|e| CliError::Failure(e.to_string()))
}

/// `--yes` without `--ai`: a person plays, and nobody compared the code. On stderr: the
/// first line of a host's output stays `listening on ADDR:PORT` for the script that reads it.
pub(super) fn warn_unattended(args: &MatchArgs) {
    if args.yes && args.ai.is_none() {
        eprintln!(
            "WARNING: --yes accepts the pairing code without anyone comparing it; someone on \
             the network could be in the middle. Use it only for tests or with --ai."
        );
    }
}

//! Files queuey writes that hold dead letters (exports, purge and edit archives) or what it did
//! to them (ledgers): readable by their owner alone, since dead letters carry customers' data,
//! and an export or archive created new, never overwritten.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

use crate::error::{Error, Result};

/// Options that create a file with mode 0600 (on Unix: whatever the umask allows more).
pub fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options
}

/// Creates `path` for writing, readable by its owner alone, refusing to overwrite an existing
/// file (an export or archive may be the only copy of what was removed). `what` names it in
/// errors.
pub fn create_new_file(path: &Path, what: &str) -> Result<File> {
    private_options()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            let err = Error::io(format!("cannot create the {what} {}", path.display()), &e);
            if e.kind() == io::ErrorKind::AlreadyExists {
                err.with_hint(format!(
                    "queuey never overwrites an {what}; remove it or choose another name"
                ))
            } else {
                err
            }
        })
}

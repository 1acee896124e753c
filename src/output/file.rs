//! Files queuey writes (exports, purge archives): created new, never overwritten.

use std::fs::File;
use std::io;
use std::path::Path;

use crate::error::{Error, Result};

/// Creates `path` for writing, refusing to overwrite an existing file (an export or archive
/// may be the only copy of what was removed). `what` names it in errors.
pub fn create_new_file(path: &Path, what: &str) -> Result<File> {
    File::options()
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

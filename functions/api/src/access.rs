//! Which repositories a caller may ask the server to read.
//!
//! An `https://` repository is fetched over the network with the caller's own token (or none),
//! so any caller may name any URL. A `file://` repository is read from the *server's* disk: left
//! open, any caller could index the server's own checkout or another user's private clone and
//! read its code back in snippets. So local repositories are refused unless the operator lists
//! the directories callers may read, in `PLAN2CODE_LOCAL_ROOTS` (separated by `:`). A `file://`
//! path is canonicalised (links and `..` resolved) and must then lie inside one of the roots.
//! The Lambdas never allow local repositories; the CLI reads the user's own directories without
//! going through here. See `docs/threat-model.md`.

use crate::ApiError;
use std::path::{Path, PathBuf};

/// The directories whose repositories callers may name as `file://` URLs.
#[derive(Debug, Clone, Default)]
pub struct RepoAccess {
    local_roots: Vec<PathBuf>,
}

#[derive(Debug, thiserror::Error)]
#[error("PLAN2CODE_LOCAL_ROOTS: {root} is not a directory this server can read: {reason}")]
pub struct AccessConfigError {
    root: String,
    reason: String,
}

impl RepoAccess {
    /// No local repositories at all (the default, and always so on AWS).
    pub fn none() -> Self {
        Self::default()
    }

    /// The roots in `PLAN2CODE_LOCAL_ROOTS`; none when it is unset. Every root must exist.
    pub fn from_env() -> Result<Self, AccessConfigError> {
        let spec = std::env::var("PLAN2CODE_LOCAL_ROOTS").unwrap_or_default();
        Self::from_roots(spec.split(':').filter(|r| !r.trim().is_empty()))
    }

    pub fn from_roots<'a>(
        roots: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, AccessConfigError> {
        let local_roots = roots
            .into_iter()
            .map(|root| {
                let path = Path::new(root.trim());
                match path.canonicalize() {
                    Ok(canonical) if canonical.is_dir() => Ok(canonical),
                    Ok(_) => Err("not a directory".to_owned()),
                    Err(e) => Err(e.to_string()),
                }
                .map_err(|reason| AccessConfigError {
                    root: root.to_owned(),
                    reason,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { local_roots })
    }

    /// Refuse a `file://` URL outside the allowed roots; every other URL passes.
    pub fn check(&self, url: &str) -> Result<(), ApiError> {
        let Some(path) = url.trim().strip_prefix("file://") else {
            return Ok(());
        };
        let refused = || {
            ApiError::Forbidden(
                "file:// repositories are read from this server's disk and are allowed only \
                 inside the directories the operator lists in PLAN2CODE_LOCAL_ROOTS"
                    .into(),
            )
        };
        if self.local_roots.is_empty() {
            return Err(refused());
        }
        // A path that does not resolve is refused the same way: nothing about the server's disk
        // is revealed to the caller.
        let canonical = Path::new(path).canonicalize().map_err(|_| refused())?;
        if self
            .local_roots
            .iter()
            .any(|root| canonical.starts_with(root))
        {
            Ok(())
        } else {
            Err(refused())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_must_lie_inside_a_root() {
        let allowed = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        std::fs::create_dir(allowed.path().join("repo")).unwrap();
        std::fs::create_dir(other.path().join("private")).unwrap();
        let access = RepoAccess::from_roots([allowed.path().to_str().unwrap()]).unwrap();
        let url = |p: &Path| format!("file://{}", p.display());
        assert!(access.check(&url(&allowed.path().join("repo"))).is_ok());
        assert!(access.check(&url(&other.path().join("private"))).is_err());
        // `..` out of the root and a link out of it are resolved before the check.
        let escape = allowed
            .path()
            .join("repo/../..")
            .join(other.path().strip_prefix("/").unwrap());
        assert!(access.check(&url(&escape.join("private"))).is_err());
        #[cfg(unix)]
        {
            let link = allowed.path().join("link");
            std::os::unix::fs::symlink(other.path(), &link).unwrap();
            assert!(access.check(&url(&link.join("private"))).is_err());
        }
        assert!(access.check("https://github.com/acme/etl.git").is_ok());
        assert!(RepoAccess::none().check(&url(allowed.path())).is_err());
        assert!(RepoAccess::from_roots(["/no/such/root"]).is_err());
    }
}

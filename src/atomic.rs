//! Files written whole or not at all: recordings, pictures, saved levels.
//!
//! A file is never written in place. It grows beside its target under a
//! name of its own, `.NAME.<pid>.<n>.partial`, created new (so two writers
//! to one name never share a file), in the target's directory (so the last
//! step never crosses file systems). [`AtomicFile::commit`] makes the data
//! durable (fsync), puts it in the target's place in one step, and makes
//! that durable too (fsync of the directory): the target only ever holds
//! the old file or the whole new one, whatever fails on the way (a full
//! disk, a crash, a signal).
//!
//! The target is checked before any work is done ([`check`]): `-`, a
//! directory, a missing parent, and anything in the way that is not a
//! regular file (a symlink, a fifo, a device: opening a fifo would block)
//! are refused; an existing regular file is replaced only when the caller
//! says so. Without leave to replace, the new file is linked to the
//! target's name, which fails if a file appeared there meanwhile, rather
//! than renamed over it.
//!
//! An [`AtomicFile`] dropped without being committed removes its partial
//! file, unless the writer asked to [`keep`](AtomicFile::keep) it (a
//! recording cut short is worth keeping; half a picture is not).

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Why a file could not be written in its target's place. `by` in the
/// messages is the writer's name for itself (`--record`, `--svg`).
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum AtomicError {
    /// The target exists and the writer may not replace it.
    #[error("{}: already exists (pass --force to overwrite it)", file.display())]
    Exists { file: PathBuf },
    /// The target cannot be written (see [`check`]); `why` says why.
    #[error("{}: cannot write to it: {why}", file.display())]
    Refused { file: PathBuf, why: String },
    /// Creating, writing, syncing or renaming `file` failed.
    #[error("{}: cannot write: {io}", file.display())]
    Io { file: PathBuf, io: io::Error },
}

/// The first number tried for this process's next partial file.
static NEXT_PARTIAL: AtomicU32 = AtomicU32::new(0);

/// How many taken names [`AtomicFile::create`] steps over before giving up.
const PARTIAL_TRIES: u32 = 1000;

/// `.NAME.<pid>.<n>.partial` beside `target`. `None` when `target` names
/// no file.
fn partial_name(target: &Path, pid: u32, n: u32) -> Option<PathBuf> {
    let mut partial = OsString::from(".");
    partial.push(target.file_name()?);
    partial.push(format!(".{pid}.{n}.partial"));
    Some(target.with_file_name(partial))
}

/// Is `name` a partial file of `target_name`: as [`partial_name`] makes
/// them, or `.NAME.partial` as delve named them before partial files had
/// names of their own?
fn is_partial_of(name: &[u8], target_name: &[u8]) -> bool {
    let Some(rest) = name.strip_prefix(b".").and_then(|r| r.strip_prefix(target_name)) else { return false };
    let Some(middle) = rest.strip_prefix(b".").and_then(|r| r.strip_suffix(b"partial")) else { return false };
    let numbers: Vec<&[u8]> = middle.split(|&b| b == b'.').collect();
    // `.NAME.partial`, or `.NAME.<pid>.<n>.partial` (middle `<pid>.<n>.`).
    middle.is_empty()
        || (numbers.len() == 3
            && numbers[2].is_empty()
            && numbers[..2].iter().all(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit)))
}

/// The partial files of unfinished writes to `target` (interrupted, or
/// still going), sorted by name.
pub fn partials(target: &Path) -> io::Result<Vec<PathBuf>> {
    let Some(name) = target.file_name() else { return Ok(Vec::new()) };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(parent(target))? {
        let entry = entry?;
        if is_partial_of(entry.file_name().as_encoded_bytes(), name.as_encoded_bytes()) {
            found.push(target.with_file_name(entry.file_name()));
        }
    }
    found.sort();
    Ok(found)
}

/// The directory `target` is in.
fn parent(target: &Path) -> &Path {
    target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Refuses a `target` that cannot end up holding the file, before any
/// work is done: `-` (standard output is not a file that can be replaced
/// in one step; `./-` names a file called `-`), a directory (or a name
/// ending in `/`), a missing parent or one that is not a directory, and
/// anything but a regular file in the way (a symlink, a fifo, a device:
/// never replaced). An existing regular file is refused unless `replace`.
/// `by` names the writer in the messages (`--record`, `--svg`).
pub fn check(target: &Path, replace: bool, by: &str) -> Result<(), AtomicError> {
    let refuse = |why: String| Err(AtomicError::Refused { file: target.to_path_buf(), why });
    if target.as_os_str() == "-" {
        return refuse(format!("{by} writes a file, not standard output (name it ./- to mean a file called -)"));
    }
    let raw = target.as_os_str().as_encoded_bytes();
    if target.file_name().is_none() || raw.ends_with(b"/") || raw.ends_with(b"/.") || raw == b"." {
        return refuse("it names a directory; name a file".into());
    }
    let dir = parent(target);
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return refuse(format!("{} is not a directory", dir.display())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return refuse(format!("its directory {} does not exist", dir.display()));
        }
        Err(e) => return refuse(format!("{}: {e}", dir.display())),
    }
    match std::fs::symlink_metadata(target) {
        Ok(m) if m.is_file() && !replace => Err(AtomicError::Exists { file: target.to_path_buf() }),
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) => refuse(format!("it is {}; {by} replaces only regular files", kind(m.file_type()))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => refuse(e.to_string()),
    }
}

/// What a file that is not a regular file is, for a message.
fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a fifo";
        } else if t.is_socket() {
            return "a socket";
        } else if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// A file on its way to its target: written like any file, then put in
/// the target's place by [`commit`](AtomicFile::commit).
#[derive(Debug)]
pub struct AtomicFile {
    file: File,
    partial: PathBuf,
    target: PathBuf,
    replace: bool,
    by: String,
    /// Keep the partial file when dropped without a commit.
    keep: bool,
}

impl AtomicFile {
    /// Checks `target` (see [`check`]) and creates a new partial file
    /// beside it, stepping over names a crashed process with the same pid
    /// may have left. Creating it is what finds a directory that cannot be
    /// written to, so this too comes before the work.
    pub fn create(target: &Path, replace: bool, by: &str) -> Result<AtomicFile, AtomicError> {
        check(target, replace, by)?;
        let pid = std::process::id();
        let mut last = None;
        for _ in 0..PARTIAL_TRIES {
            let n = NEXT_PARTIAL.fetch_add(1, Ordering::Relaxed);
            let Some(partial) = partial_name(target, pid, n) else { break };
            match OpenOptions::new().write(true).create_new(true).open(&partial) {
                Ok(file) => {
                    let target = target.to_path_buf();
                    return Ok(AtomicFile { file, partial, target, replace, by: by.to_string(), keep: false });
                }
                Err(io) if io.kind() == io::ErrorKind::AlreadyExists => last = Some(partial),
                Err(io) => return Err(AtomicError::Io { file: partial, io }),
            }
        }
        let file = last.unwrap_or_else(|| target.to_path_buf());
        Err(AtomicError::Io { file, io: io::ErrorKind::AlreadyExists.into() })
    }

    /// Keeps the partial file if this is dropped, or its commit fails,
    /// instead of removing it.
    pub fn keep(&mut self) {
        self.keep = true;
    }

    /// Where the file grows until it is committed.
    pub fn partial(&self) -> &Path {
        &self.partial
    }

    /// Where it goes.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Cuts the file back to `len` bytes.
    pub fn set_len(&mut self, len: u64) -> io::Result<()> {
        self.file.set_len(len)
    }

    /// Makes everything written so far durable.
    pub fn sync(&mut self) -> io::Result<()> {
        self.file.sync_all()
    }

    /// Makes the file durable and puts it in its target's place in one
    /// step (renamed over a target it may replace, else linked to a name
    /// that must still be free), then makes the directory's entry durable.
    /// On an error the target is as it was, and the partial file is
    /// removed unless [`keep`](AtomicFile::keep) was asked for.
    pub fn commit(mut self) -> Result<(), AtomicError> {
        let io = |file: &Path| {
            let file = file.to_path_buf();
            move |io| AtomicError::Io { file, io }
        };
        self.sync().map_err(io(&self.partial))?;
        self.place()?;
        // Done: nothing is left to remove.
        self.keep = true;
        let dir = parent(&self.target);
        File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
    }

    /// Puts the partial file in the target's place.
    fn place(&self) -> Result<(), AtomicError> {
        let target = &self.target;
        let io = |io| AtomicError::Io { file: target.clone(), io };
        if !self.replace {
            match std::fs::hard_link(&self.partial, target) {
                Ok(()) => {
                    // The target holds the whole file now; should the
                    // partial name fail to go, it is one more link to it.
                    let _ = std::fs::remove_file(&self.partial);
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(AtomicError::Exists { file: target.clone() });
                }
                // A file system without hard links: check, then rename.
                Err(_) => {}
            }
        }
        // The target may have become something else since it was checked.
        check(target, self.replace, &self.by)?;
        std::fs::rename(&self.partial, target).map_err(io)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Writes a whole file to `target` through `write` (given a buffered
/// writer), then commits it (see [`AtomicFile`]): on any error the target
/// is left as it was and no partial file stays. Errors name the target.
pub fn write_whole(
    target: &Path,
    replace: bool,
    by: &str,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), AtomicError> {
    let mut file = AtomicFile::create(target, replace, by)?;
    let mut out = BufWriter::new(&mut file);
    write(&mut out).and_then(|()| out.flush()).map_err(|io| AtomicError::Io { file: target.to_path_buf(), io })?;
    drop(out);
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn partial_files_are_told_from_other_names() {
        let is = |name: &str| is_partial_of(name.as_bytes(), b"run.jsonl");
        assert!(is(".run.jsonl.123.0.partial"));
        assert!(is(".run.jsonl.partial"));
        let name = partial_name(Path::new("dir/run.jsonl"), 77, 3).unwrap();
        assert_eq!(name, Path::new("dir/.run.jsonl.77.3.partial"));
        assert!(is(name.file_name().unwrap().to_str().unwrap()));
        for other in [
            ".run.jsonl.1.123.0.partial", // a file written to run.jsonl.1
            ".run.jsonl.x.0.partial",
            ".run.jsonl.123.partial",
            ".run.jsonl..0.partial",
            "run.jsonl.123.0.partial",
            ".run.json.123.0.partial",
            ".run.jsonl",
        ] {
            assert!(!is(other), "{other}");
        }
    }

    #[test]
    fn a_file_appears_whole_under_its_name_and_nothing_else_stays() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("a.svg");
        let mut file = AtomicFile::create(&target, false, "--svg").unwrap();
        let partial = file.partial().to_path_buf();
        assert_eq!(partial.parent(), Some(dir.path()), "beside its target");
        file.write_all(b"<svg/>\n").unwrap();
        assert!(!target.exists(), "not before the commit");
        assert_eq!(read(&partial), "<svg/>\n");
        file.commit().unwrap();
        assert_eq!(read(&target), "<svg/>\n");
        assert_eq!(partials(&target).unwrap(), Vec::<PathBuf>::new());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn two_writers_to_one_name_never_share_a_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.txt");
        let a = AtomicFile::create(&target, true, "W").unwrap();
        let b = AtomicFile::create(&target, true, "W").unwrap();
        assert_ne!(a.partial(), b.partial());
        assert_eq!(partials(&target).unwrap().len(), 2);
        drop((a, b));
        assert_eq!(partials(&target).unwrap(), Vec::<PathBuf>::new(), "dropped uncommitted: removed");
    }

    #[test]
    fn an_existing_file_is_replaced_only_when_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("old.txt");
        std::fs::write(&target, "old").unwrap();
        let e = AtomicFile::create(&target, false, "--svg").unwrap_err();
        assert_eq!(e.to_string(), format!("{}: already exists (pass --force to overwrite it)", target.display()));
        write_whole(&target, true, "--svg", |w| w.write_all(b"new")).unwrap();
        assert_eq!(read(&target), "new");
    }

    /// A file that appears under the target's name while the new one is
    /// written is neither replaced nor lost.
    #[test]
    fn a_target_that_appears_meanwhile_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("late.txt");
        let mut file = AtomicFile::create(&target, false, "--svg").unwrap();
        file.write_all(b"mine").unwrap();
        std::fs::write(&target, "theirs").unwrap();
        let e = file.commit().unwrap_err();
        assert!(matches!(e, AtomicError::Exists { .. }), "{e:?}");
        assert_eq!(read(&target), "theirs");
        assert_eq!(partials(&target).unwrap(), Vec::<PathBuf>::new(), "no partial file left on error");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_partial() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("keep.txt");
        std::fs::write(&target, "precious").unwrap();
        let e = write_whole(&target, true, "W", |w| {
            w.write_all(b"half")?;
            Err(io::Error::from(io::ErrorKind::StorageFull))
        })
        .unwrap_err();
        assert!(matches!(e, AtomicError::Io { ref io, .. } if io.kind() == io::ErrorKind::StorageFull), "{e:?}");
        assert_eq!(read(&target), "precious");
        assert_eq!(partials(&target).unwrap(), Vec::<PathBuf>::new());
    }

    #[test]
    fn a_kept_partial_file_stays_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("run.jsonl");
        let mut file = AtomicFile::create(&target, false, "--record").unwrap();
        file.keep();
        file.write_all(b"line\n").unwrap();
        let partial = file.partial().to_path_buf();
        drop(file);
        assert_eq!(read(&partial), "line\n");
        assert!(!target.exists());
    }

    #[test]
    fn targets_that_cannot_hold_a_file_are_refused_before_anything_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        let cases = [
            (PathBuf::from("-"), "--svg writes a file, not standard output (name it ./- to mean a file called -)"),
            (sub.clone(), "it is a directory; --svg replaces only regular files"),
            (dir.path().join("sub/"), "it names a directory; name a file"),
            (dir.path().join("missing/x.svg"), "does not exist"),
            (file.join("x.svg"), "is not a directory"),
            (PathBuf::from("/dev/null"), "it is a device; --svg replaces only regular files"),
        ];
        for (target, why) in cases {
            let e = AtomicFile::create(&target, true, "--svg").unwrap_err();
            assert!(matches!(e, AtomicError::Refused { .. }), "{target:?}: {e:?}");
            assert!(e.to_string().contains(why), "{target:?}: {e}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "nothing created");
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            let e = check(&link, true, "--svg").unwrap_err();
            assert!(e.to_string().ends_with("it is a symbolic link; --svg replaces only regular files"), "{e}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_directory_that_cannot_be_written_fails_at_create() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root may write anywhere: there is nothing to refuse then.
        let privileged = File::create(locked.join("probe")).is_ok();
        let result = AtomicFile::create(&locked.join("x.svg"), true, "--svg");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
        if !privileged {
            let e = result.unwrap_err();
            assert!(matches!(e, AtomicError::Io { ref io, .. } if io.kind() == io::ErrorKind::PermissionDenied));
        }
    }
}

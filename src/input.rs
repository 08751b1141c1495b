//! Reading an input file (a level, a Moving AI map or scenario file, a
//! replay) without hanging or running out of memory.
//!
//! Only regular files are read, after following symlinks: a FIFO would
//! block until someone writes to it, and `/dev/urandom` never ends. A file
//! larger than the largest legal file of its kind is refused before a byte
//! is read (and reading stops there should it grow meanwhile). Text that is
//! not UTF-8 is refused with the line and byte offset of the first bad byte.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

/// The largest file of a kind, and what it is, for the message that
/// refuses a larger one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The most bytes a file of this kind may hold.
    pub bytes: u64,
    /// What a file of this kind is, with the reason for the limit, e.g.
    /// "a level (a 2048x2048 map and as much again for comments)".
    pub what: &'static str,
}

/// Why an input file could not be read as text. Each displays as one line
/// naming the file (and, for bad UTF-8, the line).
#[derive(Debug, thiserror::Error)]
#[allow(missing_docs, reason = "each variant's fields are the values its doc and message name")]
pub enum ReadError {
    /// The file could not be opened or read (missing, no permission, ...).
    #[error("{origin}: cannot read: {io}")]
    Io { origin: String, io: io::Error },

    /// A directory, FIFO, socket or device.
    #[error("{origin}: cannot read: {kind}, not a regular file")]
    NotAFile { origin: String, kind: &'static str },

    /// Above the kind's [`Limit`].
    #[error("{origin}: cannot read: {bytes} bytes is more than {} can be ({} bytes at most)", .limit.what, .limit.bytes)]
    TooLarge { origin: String, bytes: u64, limit: Limit },

    /// More bytes than the kind's [`Limit`] came from a stream (standard
    /// input, or a file that grew while it was read), read no further.
    #[error("{origin}: cannot read: more than {} bytes, the most {} can be", .limit.bytes, .limit.what)]
    Overflows { origin: String, limit: Limit },

    /// Bytes that are not UTF-8.
    #[error("{origin}:{line}: cannot read: not UTF-8 text (byte 0x{byte:02x} at byte offset {offset})")]
    NotUtf8 { origin: String, line: usize, offset: usize, byte: u8 },
}

/// Reads the regular file at `path` as UTF-8 text of at most `limit`
/// bytes; errors name the file as `path.display()` shows it.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, ReadError> {
    let origin = || path.display().to_string();
    let io = |io| ReadError::Io { origin: origin(), io };
    // Checked before opening: opening a FIFO blocks until it has a writer.
    let kind = |meta: &fs::Metadata| file_kind(&meta.file_type());
    let meta = fs::metadata(path).map_err(io)?;
    if let Some(kind) = kind(&meta) {
        return Err(ReadError::NotAFile { origin: origin(), kind });
    }
    if meta.len() > limit.bytes {
        return Err(ReadError::TooLarge { origin: origin(), bytes: meta.len(), limit });
    }
    let file = File::open(path).map_err(io)?;
    read_bounded(file, meta.len() as usize, limit, &origin())
}

/// How errors name standard input, where a line of it is at fault:
/// `<stdin>:3: ...`.
pub const STDIN: &str = "<stdin>";

/// Reads standard input to its end as UTF-8 text of at most `limit`
/// bytes; errors name it [`STDIN`]. Reading stops at the first byte past
/// the limit, so an endless input (`yes | delve path -`) is refused, not
/// held in memory. What is read from a terminal ends at end of input
/// (Ctrl-D), as `cat` has it.
pub fn read_stdin(limit: Limit) -> Result<String, ReadError> {
    read_bounded(io::stdin().lock(), 0, limit, STDIN)
}

/// Reads `from` to its end as UTF-8 text of at most `limit` bytes (`size`
/// is the capacity to start with), errors naming `origin`.
fn read_bounded(from: impl Read, size: usize, limit: Limit, origin: &str) -> Result<String, ReadError> {
    let mut bytes = Vec::with_capacity(size);
    let read = from.take(limit.bytes + 1).read_to_end(&mut bytes);
    read.map_err(|io| ReadError::Io { origin: origin.to_owned(), io })?;
    if bytes.len() as u64 > limit.bytes {
        return Err(ReadError::Overflows { origin: origin.to_owned(), limit });
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let line = 1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count();
        ReadError::NotUtf8 { origin: origin.to_owned(), line, offset, byte: bytes[offset] }
    })
}

/// What a file that is not a regular file is, for the message.
fn file_kind(t: &fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
    }
    Some("a special file")
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: Limit = Limit { bytes: 16, what: "a test file" };

    #[test]
    fn reads_a_regular_file_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        fs::write(&file, "hello\n").unwrap();
        assert_eq!(read_text(&file, LIMIT).unwrap(), "hello\n");
        #[cfg(unix)]
        {
            let link = dir.path().join("link");
            std::os::unix::fs::symlink(&file, &link).unwrap();
            assert_eq!(read_text(&link, LIMIT).unwrap(), "hello\n");
        }
    }

    #[test]
    fn refuses_directories_devices_and_large_files() {
        let dir = tempfile::tempdir().unwrap();
        let e = read_text(dir.path(), LIMIT).unwrap_err();
        assert!(matches!(e, ReadError::NotAFile { kind: "a directory", .. }), "{e}");
        #[cfg(unix)]
        {
            let e = read_text(Path::new("/dev/urandom"), LIMIT).unwrap_err();
            assert_eq!(e.to_string(), "/dev/urandom: cannot read: a character device, not a regular file");
        }
        let big = dir.path().join("big");
        fs::write(&big, "x".repeat(17)).unwrap();
        let e = read_text(&big, LIMIT).unwrap_err();
        assert!(
            e.to_string().ends_with("big: cannot read: 17 bytes is more than a test file can be (16 bytes at most)"),
            "{e}"
        );
        fs::write(&big, "x".repeat(16)).unwrap();
        assert!(read_text(&big, LIMIT).is_ok());
    }

    #[test]
    fn a_stream_is_read_within_its_limit_and_named_as_given() {
        assert_eq!(read_bounded(&b"hello\n"[..], 0, LIMIT, STDIN).unwrap(), "hello\n");
        let endless = io::repeat(b'y');
        let e = read_bounded(endless, 0, LIMIT, STDIN).unwrap_err();
        assert_eq!(e.to_string(), "<stdin>: cannot read: more than 16 bytes, the most a test file can be");
        let e = read_bounded(&b"a\n\xffb"[..], 0, LIMIT, STDIN).unwrap_err();
        assert_eq!(e.to_string(), "<stdin>:2: cannot read: not UTF-8 text (byte 0xff at byte offset 2)");
    }

    #[test]
    fn bad_utf8_names_the_line_and_byte_offset() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bad");
        fs::write(&file, b"ok\nfine\nab\xffc\n").unwrap();
        let e = read_text(&file, LIMIT).unwrap_err();
        assert!(matches!(e, ReadError::NotUtf8 { line: 3, offset: 10, byte: 0xff, .. }), "{e:?}");
        assert!(e.to_string().ends_with("bad:3: cannot read: not UTF-8 text (byte 0xff at byte offset 10)"), "{e}");
    }
}

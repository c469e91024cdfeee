//! Reading the writer's files by one set of rules, whatever folder they are in: the path may
//! not lead outside the site root (through a symbolic link anywhere on it), the file must be
//! a regular file (never a FIFO, a device or a folder), a text source is at most
//! `MAX_TEXT_BYTES`, and text is UTF-8 without NUL bytes, or a diagnostic says where.
//! A refused file is never read, so its contents never reach a message.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostics::Diagnostic;

/// The largest text source (a page, a YAML file, a template) docgen reads: far above any
/// hand-written file, and small enough that a wrong file costs no memory to speak of.
pub const MAX_TEXT_BYTES: u64 = 4 << 20;

/// A file of the site, opened by the rules every source is read with.
pub struct Opened {
    pub file: File,
    /// Its size when it was opened.
    pub len: u64,
    /// Its path with every link resolved (inside the site root).
    pub resolved: PathBuf,
}

/// Opens `root/rel` (`rel` relative to the site root, as messages name it) when it is a
/// regular file inside the site after every symbolic link is resolved.
pub fn open(root: &Path, rel: &Path) -> Result<Opened, Diagnostic> {
    let path = root.join(rel);
    #[cfg(target_os = "linux")]
    if let Some(opened) = open_linkless(root, &path) {
        return Ok(opened);
    }
    let refuse = |code: &'static str, message: String, hint: &str| {
        Diagnostic::new(code, message).in_file(rel).hint(hint)
    };
    let resolved = path.canonicalize().map_err(|e| match e.raw_os_error() {
        // ELOOP: a link that leads back to itself through other links.
        Some(40) => refuse(
            "source.link-loop",
            format!(
                "{} is a symbolic link that leads back to itself",
                shown(rel)
            ),
            "point the link at a real file, or replace it with the file",
        ),
        _ if e.kind() == std::io::ErrorKind::NotFound
            && std::fs::symlink_metadata(&path).is_ok() =>
        {
            refuse(
                "source.broken-link",
                format!("{} is a symbolic link that points to nothing", shown(rel)),
                "point the link at an existing file inside the site, or remove it",
            )
        }
        _ => refuse(
            "io.read",
            format!("cannot read {}: {e}", shown(rel)),
            "check that the file exists and is readable",
        ),
    })?;
    // A resolved path has no link in it, so one under `root` as given is under the site: the
    // root is resolved (several system calls per read) only when the path is not.
    let inside = resolved.starts_with(root)
        || resolved.starts_with(root.canonicalize().unwrap_or_else(|_| root.to_path_buf()));
    if !inside {
        let message = match std::fs::read_link(&path) {
            Ok(target) => format!(
                "{} is a symbolic link to {}, outside the site",
                shown(rel),
                target.display()
            ),
            Err(_) => format!(
                "{} leads outside the site through a symbolic link (to {})",
                shown(rel),
                resolved.display()
            ),
        };
        return Err(refuse(
            "source.outside",
            message,
            "replace the link with a regular file inside the site (a copy of what it points to)",
        ));
    }
    let not_a_file = |what: &str| {
        refuse(
            "source.not-a-file",
            format!("{} is {what}, not a regular file", shown(rel)),
            "replace it with a regular file",
        )
    };
    let unreadable = |e: std::io::Error| {
        refuse(
            "io.read",
            format!("cannot read {}: {e}", shown(rel)),
            "check that the file is readable",
        )
    };
    // Known kinds are refused before opening: opening a FIFO waits for a writer.
    let meta = std::fs::metadata(&resolved).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(not_a_file(kind(&meta)));
    }
    let file = open_regular(&resolved).map_err(unreadable)?;
    // What was opened is what counts: the path may have been replaced since it was looked at.
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err(not_a_file(kind(&meta)));
    }
    Ok(Opened {
        file,
        len: meta.len(),
        resolved,
    })
}

/// The common case in one lookup of the path rather than one per part of it (`canonicalize`):
/// an absolute path under `root` without `.`, `..` or any symbolic link is its own resolved
/// path. `None` for any other path, or when the kernel cannot say, and for anything but a
/// regular file: `open`'s general case decides those and words the message.
#[cfg(target_os = "linux")]
fn open_linkless(root: &Path, path: &Path) -> Option<Opened> {
    use rustix::fs::{CWD, Mode, OFlags, ResolveFlags, openat2};
    use std::path::Component;
    let plain = |c: Component<'_>| matches!(c, Component::RootDir | Component::Normal(_));
    if !path.is_absolute() || !path.starts_with(root) || !path.components().all(plain) {
        return None;
    }
    let no_links = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    let open = |flags: OFlags| openat2(CWD, path, flags | OFlags::CLOEXEC, Mode::empty(), no_links);
    // First a handle that opens nothing (not a FIFO, nor a device) to see what the path is.
    let at = File::from(open(OFlags::PATH).ok()?);
    if !at.metadata().ok()?.is_file() {
        return None;
    }
    drop(at);
    let file = File::from(open(OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW).ok()?);
    // What was opened is what counts: the path may have been replaced since it was looked at.
    let meta = file.metadata().ok().filter(|m| m.is_file())?;
    Some(Opened {
        file,
        len: meta.len(),
        resolved: path.to_path_buf(),
    })
}

/// Opens a path for reading without ever blocking on it (a FIFO put in place of a checked
/// file) and without following a link in its last part: for paths already resolved.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    options.open(path)
}

/// What kind of file system entry `meta` describes, for a message.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

fn shown(rel: &Path) -> String {
    rel.display().to_string()
}

/// The bytes of `root/rel` by the rules of `open`, at most `cap` of them (`None`: no cap).
/// A file that grows past the cap while it is read is refused too.
pub fn read_bytes(root: &Path, rel: &Path, cap: Option<u64>) -> Result<Vec<u8>, Diagnostic> {
    let mut opened = open(root, rel)?;
    let too_large = |len: u64, cap: u64| {
        Diagnostic::new(
            "source.too-large",
            format!(
                "{} is {}, more than the {} MB docgen reads from one source file",
                shown(rel),
                size(len),
                cap >> 20
            ),
        )
        .in_file(rel)
        .hint("split the file into smaller ones")
    };
    if let Some(cap) = cap
        && opened.len > cap
    {
        return Err(too_large(opened.len, cap));
    }
    let mut bytes = Vec::with_capacity(opened.len.min(cap.unwrap_or(u64::MAX)) as usize);
    let result = match cap {
        // One byte past the cap tells a file that grew from one that fits.
        Some(cap) => (&mut opened.file).take(cap + 1).read_to_end(&mut bytes),
        None => opened.file.read_to_end(&mut bytes),
    };
    result.map_err(|e| {
        Diagnostic::new("io.read", format!("cannot read {}: {e}", shown(rel)))
            .in_file(rel)
            .hint("check that the file is readable")
    })?;
    match cap {
        Some(cap) if bytes.len() as u64 > cap => Err(too_large(bytes.len() as u64, cap)),
        _ => Ok(bytes),
    }
}

/// A size for a message: bytes under 1 MB, else MB with one decimal.
fn size(len: u64) -> String {
    if len < 1 << 20 {
        format!("{len} bytes")
    } else {
        format!("{:.1} MB", len as f64 / f64::from(1 << 20))
    }
}

/// Reads the text source `root/rel` by the rules of `open`, at most `MAX_TEXT_BYTES`. Bytes
/// that are not UTF-8 and NUL bytes (which browsers and YAML readers treat in surprising
/// ways) are errors at their line and column.
pub fn read(root: &Path, rel: &Path) -> Result<Arc<str>, Diagnostic> {
    check(read_bytes(root, rel, Some(MAX_TEXT_BYTES))?, rel)
}

/// The checks of `read`, for text from elsewhere.
pub fn check(bytes: Vec<u8>, rel: &Path) -> Result<Arc<str>, Diagnostic> {
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let lossy: Arc<str> = Arc::from(String::from_utf8_lossy(&bytes).as_ref());
            let (line, column) = position(&bytes[..at]);
            return Err(Diagnostic::new(
                "text.not-utf8",
                format!("this file is not UTF-8: byte 0x{:02X} cannot start a character here", bytes[at]),
            )
            .in_file(rel)
            .at(line, column)
            .with_source(&lossy)
            .hint("save the file with the UTF-8 encoding (most editors offer it under Save As or in the status bar)"));
        }
    };
    if let Some(at) = text.find('\0') {
        let (line, column) = position(&text.as_bytes()[..at]);
        let source: Arc<str> = Arc::from(text.replace('\0', "\u{2400}"));
        return Err(Diagnostic::new("text.nul", "this file holds a NUL byte")
            .in_file(rel)
            .at(line, column)
            .with_source(&source)
            .hint("delete the invisible character at this position (often left by pasting from a binary file or a terminal)"));
    }
    Ok(Arc::from(text))
}

/// The 1-based line and column just after `before` (valid UTF-8 up to its end).
fn position(before: &[u8]) -> (usize, usize) {
    let text = String::from_utf8_lossy(before);
    let line = text.matches('\n').count() + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The files of an earlier version of the site, read from one git commit (see
/// `content::git_tree`): what the content stage reads in place of the working tree's files,
/// through `Config::read_text` and its kin, so that version is never checked out.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// The commit the files were read from (its full id).
    pub commit: String,
    /// Each file's bytes, by its path relative to the site root.
    files: std::collections::BTreeMap<PathBuf, Arc<[u8]>>,
}

impl Snapshot {
    pub fn new(commit: String, files: std::collections::BTreeMap<PathBuf, Arc<[u8]>>) -> Self {
        Snapshot { commit, files }
    }

    /// The bytes of `rel` (relative to the site root), if the commit holds such a file.
    pub fn bytes(&self, rel: &Path) -> Option<&Arc<[u8]>> {
        self.files.get(rel)
    }

    /// The files under the folder `dir` (relative to the site root), in the order of their
    /// paths.
    pub fn files_under<'s>(&'s self, dir: &'s Path) -> impl Iterator<Item = &'s PathBuf> + 's {
        self.files
            .range::<Path, _>((std::ops::Bound::Included(dir), std::ops::Bound::Unbounded))
            .map(|(p, _)| p)
            .take_while(move |p| p.starts_with(dir))
    }

    /// The text of `rel` by the rules of `read`.
    pub fn text(&self, rel: &Path) -> Result<Arc<str>, Diagnostic> {
        let Some(bytes) = self.files.get(rel) else {
            return Err(Diagnostic::new(
                "io.read",
                format!(
                    "cannot read {}: commit {} has no such file",
                    shown(rel),
                    short(&self.commit)
                ),
            )
            .in_file(rel)
            .hint("check the file's name in that commit (git ls-tree)"));
        };
        if bytes.len() as u64 > MAX_TEXT_BYTES {
            return Err(Diagnostic::new(
                "source.too-large",
                format!(
                    "{} is {}, more than the {} MB docgen reads from one source file",
                    shown(rel),
                    size(bytes.len() as u64),
                    MAX_TEXT_BYTES >> 20
                ),
            )
            .in_file(rel)
            .hint("split the file into smaller ones"));
        }
        check(bytes.to_vec(), rel)
    }
}

/// The first 12 hex digits of a commit id, as messages show it.
pub fn short(commit: &str) -> &str {
    &commit[..commit.len().min(12)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_is_read_by_the_rules_of_the_working_tree() {
        let files = [
            ("content/a.md", &b"# A\n"[..]),
            ("content/sub/b.md", b"x\xffy"),
            ("contents.md", b"not under content/"),
        ]
        .into_iter()
        .map(|(p, b)| (PathBuf::from(p), Arc::from(b)))
        .collect();
        let snap = Snapshot::new("0123456789abcdef0123".into(), files);
        assert_eq!(&*snap.text(Path::new("content/a.md")).unwrap(), "# A\n");
        let e = snap.text(Path::new("content/sub/b.md")).unwrap_err();
        assert_eq!((e.code, e.line, e.column), ("text.not-utf8", 1, 2));
        let e = snap.text(Path::new("content/none.md")).unwrap_err();
        assert_eq!(e.code, "io.read");
        assert!(e.message.contains("0123456789ab"), "{}", e.message);
        let under: Vec<_> = snap.files_under(Path::new("content")).collect();
        assert_eq!(
            under,
            [Path::new("content/a.md"), Path::new("content/sub/b.md")]
        );
    }

    #[test]
    fn invalid_utf8_is_placed() {
        let e = check(b"title: A\nab\xffc\n".to_vec(), Path::new("a.md")).unwrap_err();
        assert_eq!((e.code, e.line, e.column), ("text.not-utf8", 2, 3));
        assert!(e.message.contains("0xFF"));
    }

    #[test]
    fn nul_is_placed() {
        let e = check("x\ny\u{e9}\0".as_bytes().to_vec(), Path::new("a.md")).unwrap_err();
        assert_eq!((e.code, e.line, e.column), ("text.nul", 2, 3));
    }

    #[test]
    fn good_text_passes() {
        assert_eq!(&*check("ok\n".into(), Path::new("a")).unwrap(), "ok\n");
    }

    /// A scratch site root holding `inside.txt`, beside `outside.txt`.
    fn scratch() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("site");
        std::fs::create_dir_all(root.join("templates")).unwrap();
        std::fs::write(root.join("inside.txt"), "inside\n").unwrap();
        std::fs::write(tmp.path().join("outside.txt"), "secret\n").unwrap();
        (tmp, root)
    }

    #[test]
    fn a_regular_file_inside_the_site_is_read() {
        let (tmp, root) = scratch();
        assert_eq!(&*read(&root, Path::new("inside.txt")).unwrap(), "inside\n");
        let opened = open(&root, Path::new("inside.txt")).unwrap();
        let real_root = root.canonicalize().unwrap();
        assert_eq!(opened.resolved, real_root.join("inside.txt"));
        assert_eq!(opened.len, 7);
        // The same through the root's resolved path and through a relative one.
        let opened = open(&real_root, Path::new("templates/../inside.txt")).unwrap();
        assert_eq!(opened.resolved, real_root.join("inside.txt"));
        let e = read(&root, Path::new("missing.txt")).unwrap_err();
        assert_eq!(e.code, "io.read");
        // An absolute path is no way out of the site.
        let e = read(&root, &tmp.path().join("outside.txt")).unwrap_err();
        assert_eq!(e.code, "source.outside");
        let e = read(&root, Path::new("../outside.txt")).unwrap_err();
        assert_eq!(e.code, "source.outside");
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_inside_the_site_only() {
        let (tmp, root) = scratch();
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, root.join(name)).unwrap();
            Path::new(name).to_path_buf()
        };
        let ok = link(&root.join("inside.txt"), "templates/page.html");
        assert_eq!(&*read(&root, &ok).unwrap(), "inside\n");

        let out = link(&tmp.path().join("outside.txt"), "templates/base.html");
        let e = read(&root, &out).unwrap_err();
        assert_eq!(e.code, "source.outside");
        assert_eq!(e.file.as_deref(), Some(out.as_path()));
        assert!(e.message.contains("outside.txt"), "{}", e.message);
        assert!(e.source.is_none(), "no excerpt of a refused file");

        // A link to a folder outside, with an innocent name under it.
        std::os::unix::fs::symlink(tmp.path(), root.join("up")).unwrap();
        let e = read(&root, Path::new("up/outside.txt")).unwrap_err();
        assert_eq!(e.code, "source.outside");
        assert!(
            e.message.contains("through a symbolic link"),
            "{}",
            e.message
        );

        let broken = link(&root.join("gone"), "broken.yaml");
        assert_eq!(read(&root, &broken).unwrap_err().code, "source.broken-link");
        let looped = link(&root.join("loop.yaml"), "loop.yaml");
        assert_eq!(read(&root, &looped).unwrap_err().code, "source.link-loop");
        let device = link(Path::new("/dev/zero"), "zero.yaml");
        assert_eq!(read(&root, &device).unwrap_err().code, "source.outside");
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_refused_without_blocking() {
        let (_tmp, root) = scratch();
        let fifo = root.join("pipe.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let e = read(&root, Path::new("pipe.yaml")).unwrap_err();
        assert_eq!(e.code, "source.not-a-file");
        assert!(e.message.contains("FIFO"), "{}", e.message);
        let e = read_bytes(&root, Path::new("templates"), None).unwrap_err();
        assert_eq!(e.code, "source.not-a-file");
        assert!(e.message.contains("folder"), "{}", e.message);
    }

    #[test]
    fn text_sources_are_capped_and_other_files_are_not() {
        let (_tmp, root) = scratch();
        let big = vec![b'a'; MAX_TEXT_BYTES as usize + 1];
        std::fs::write(root.join("big.yaml"), &big).unwrap();
        let e = read(&root, Path::new("big.yaml")).unwrap_err();
        assert_eq!(e.code, "source.too-large");
        assert!(
            e.message.contains("4.0 MB") && e.message.contains("4 MB"),
            "{}",
            e.message
        );
        assert_eq!(
            read_bytes(&root, Path::new("big.yaml"), None)
                .unwrap()
                .len(),
            big.len()
        );
    }
}

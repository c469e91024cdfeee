//! An earlier version's content, read straight from a git revision of the site's repository
//! with three processes whatever the number of files: `git rev-parse` (the revision's commit),
//! `git ls-tree -r -z` (its files under the content folder) and `git cat-file --batch` (their
//! bytes). Nothing is checked out or copied to disk; the files become a `Snapshot`, which the
//! content stage reads in place of the working tree (`Config::read_text`).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use crate::config::source::Snapshot;

/// Why a revision could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitError {
    /// The site root is not inside a git work tree (or git is not installed).
    NotARepository(String),
    /// The revision names no commit of the repository.
    Unresolved(String),
    /// git failed while listing or reading the commit's files.
    Failed(String),
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::NotARepository(why) | GitError::Unresolved(why) | GitError::Failed(why) => {
                f.write_str(why)
            }
        }
    }
}

fn git(root: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(root)
        .args(["-c", "core.quotePath=false"])
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null());
    c
}

/// The commit `revision` names in the repository holding `root`.
pub fn resolve(root: &Path, revision: &str) -> Result<String, GitError> {
    let out = git(root)
        .args(["rev-parse", "--verify", "--end-of-options"])
        .arg(format!("{revision}^{{commit}}"))
        .output()
        .map_err(|e| GitError::NotARepository(format!("git cannot be run: {e}")))?;
    if out.status.success() {
        let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
        return Ok(id);
    }
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("not a git repository") {
        Err(GitError::NotARepository(
            "the site is not inside a git work tree".into(),
        ))
    } else {
        Err(GitError::Unresolved(format!(
            "`{revision}` names no commit of the site's repository"
        )))
    }
}

/// The files of `commit` under `folder` (relative to `root`), as a snapshot whose paths are
/// relative to `root`. Symbolic links and submodules are left out: a commit's link may point
/// anywhere, and a submodule holds no files of this repository.
pub fn read(root: &Path, commit: &str, folder: &Path) -> Result<Snapshot, GitError> {
    let failed = |what: &str, e: &dyn std::fmt::Display| GitError::Failed(format!("{what}: {e}"));
    // Paths are printed relative to `root` (the folder git runs in), as the site names them;
    // a tree whose pages sit at its root is read whole.
    let spec = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let listing = git(root)
        .args(["ls-tree", "-r", "-z", "--end-of-options", commit, "--"])
        .arg(spec)
        .output()
        .map_err(|e| failed("git ls-tree", &e))?;
    if !listing.status.success() {
        return Err(failed(
            "git ls-tree",
            &String::from_utf8_lossy(&listing.stderr).trim(),
        ));
    }
    let entries = parse_ls_tree(&listing.stdout);
    let mut files = BTreeMap::new();
    if entries.is_empty() {
        return Ok(Snapshot::new(commit.to_string(), files));
    }
    let mut child = git(root)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| failed("git cat-file", &e))?;
    // The ids are written while the contents are read: a pipe full both ways would wait forever.
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let ids: Vec<u8> = entries
        .iter()
        .flat_map(|(id, _)| id.bytes().chain(std::iter::once(b'\n')))
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(&ids));
    let mut out = BufReader::with_capacity(256 << 10, child.stdout.take().expect("piped"));
    let mut header = Vec::new();
    for (id, path) in entries {
        header.clear();
        out.read_until(b'\n', &mut header)
            .map_err(|e| failed("git cat-file", &e))?;
        let line = String::from_utf8_lossy(&header);
        let size: usize = match line.trim_end().split(' ').collect::<Vec<_>>()[..] {
            [got, "blob", size] if got == id => size
                .parse()
                .map_err(|_| failed("git cat-file", &line.trim_end()))?,
            _ => return Err(failed("git cat-file", &line.trim_end())),
        };
        let mut bytes = vec![0; size + 1];
        out.read_exact(&mut bytes)
            .map_err(|e| failed("git cat-file", &e))?;
        bytes.pop(); // the newline after the contents
        files.insert(path, Arc::from(bytes));
    }
    drop(out);
    let _ = writer.join();
    let _ = child.wait();
    Ok(Snapshot::new(commit.to_string(), files))
}

/// The blobs of `git ls-tree -r -z` output (`<mode> <type> <id>\t<path>\0`...): id and path.
pub fn parse_ls_tree(out: &[u8]) -> Vec<(String, PathBuf)> {
    out.split(|&b| b == 0)
        .filter_map(|entry| {
            let entry = std::str::from_utf8(entry).ok()?;
            let (meta, path) = entry.split_once('\t')?;
            let mut meta = meta.split(' ');
            let (mode, kind, id) = (meta.next()?, meta.next()?, meta.next()?);
            // 120000 is a symbolic link, 160000 (type commit) a submodule.
            (kind == "blob" && mode != "120000").then(|| (id.to_string(), PathBuf::from(path)))
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Runs git in `root` with a fixed identity and date; panics when it fails.
    pub fn run_git(root: &Path, args: &[&str]) {
        run_git_at(root, args, "1700000000 +0000");
    }

    /// Runs git in `root` with a fixed identity, as at `time` (git's date format); panics when
    /// it fails.
    pub fn run_git_at(root: &Path, args: &[&str], time: &str) {
        let ok = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(args)
            .env("GIT_AUTHOR_DATE", time)
            .env("GIT_COMMITTER_DATE", time)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@example.test")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@example.test")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("git is installed")
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn ls_tree_lists_blobs_and_skips_links_and_submodules() {
        let out = [
            &b"100644 blob aaa\tcontent/a b.md"[..],
            b"120000 blob bbb\tcontent/link",
            b"160000 commit ccc\tcontent/sub",
            b"100755 blob ddd\tcontent/x/\xc3\xa9.md",
            b"",
        ]
        .join(&0u8);
        let got = parse_ls_tree(&out);
        assert_eq!(
            got,
            vec![
                ("aaa".to_string(), PathBuf::from("content/a b.md")),
                ("ddd".to_string(), PathBuf::from("content/x/é.md")),
            ]
        );
    }

    #[test]
    fn a_revision_is_read_without_a_checkout() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir_all(root.join("content/docs")).unwrap();
        std::fs::write(root.join("content/docs/a.md"), "old a\n").unwrap();
        std::fs::write(root.join("content/img.bin"), [0u8, 159, 146, 150, 10]).unwrap();
        std::fs::write(root.join("site.yaml"), "title: x\n").unwrap();
        run_git(root, &["init", "-q"]);
        run_git(root, &["add", "."]);
        run_git(root, &["commit", "-q", "-m", "first"]);
        run_git(root, &["tag", "v1"]);
        std::fs::write(root.join("content/docs/a.md"), "new a\n").unwrap();
        std::fs::write(root.join("content/docs/b.md"), "b\n").unwrap();
        run_git(root, &["add", "."]);
        run_git(root, &["commit", "-q", "-m", "second"]);

        let commit = resolve(root, "v1").unwrap();
        assert_eq!(commit.len(), 40);
        let snap = read(root, &commit, Path::new("content")).unwrap();
        assert_eq!(
            &**snap.bytes(Path::new("content/docs/a.md")).unwrap(),
            b"old a\n"
        );
        assert_eq!(
            &**snap.bytes(Path::new("content/img.bin")).unwrap(),
            &[0u8, 159, 146, 150, 10]
        );
        assert!(snap.bytes(Path::new("content/docs/b.md")).is_none());
        assert!(snap.bytes(Path::new("site.yaml")).is_none());
        let listed: Vec<_> = snap.files_under(Path::new("content/docs")).collect();
        assert_eq!(listed, vec![&PathBuf::from("content/docs/a.md")]);
        // The working tree is as it was.
        assert_eq!(
            std::fs::read_to_string(root.join("content/docs/a.md")).unwrap(),
            "new a\n"
        );

        assert!(matches!(
            resolve(root, "no-such-tag"),
            Err(GitError::Unresolved(_))
        ));
    }

    #[test]
    fn outside_a_work_tree_is_its_own_error() {
        let tmp = tempfile::tempdir().unwrap();
        let got = Command::new("git")
            .arg("-C")
            .arg(tmp.path())
            .args(["rev-parse", "--git-dir"])
            .env("GIT_CEILING_DIRECTORIES", tmp.path().parent().unwrap())
            .output()
            .unwrap();
        // Only meaningful where the scratch folder is outside every repository.
        if !got.status.success() {
            assert!(matches!(
                resolve(tmp.path(), "HEAD"),
                Err(GitError::NotARepository(_))
            ));
        }
    }
}

//! When each source file last changed, from git: one `git log` over the whole content tree per
//! build (never one process per page), run beside the reading of the content. Outside a git
//! work tree, without git, or when git fails, nothing is known and pages show no date.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rustc_hash::FxHashMap;

/// The time of the last commit that touched each file, by its path relative to the site root.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LastUpdated {
    by_file: FxHashMap<PathBuf, i64>,
}

impl LastUpdated {
    /// Seconds since the Unix epoch of the last commit of `file` (relative to the site root).
    pub fn of(&self, file: &Path) -> Option<i64> {
        self.by_file.get(file).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.by_file.is_empty()
    }
}

/// Starts `git log` for the files under `dir` (inside `root`) in the background; `wait` gives
/// the result. Starting it costs one process spawn, which fails at once outside git.
pub struct Pending {
    thread: Option<std::thread::JoinHandle<LastUpdated>>,
}

impl Pending {
    pub fn start(root: &Path, dir: &Path) -> Pending {
        Pending::start_with(root, dir, None, None)
    }

    /// As `start`, for the history up to `commit` (an earlier version's) when given.
    pub fn start_at(root: &Path, dir: &Path, commit: Option<&str>) -> Pending {
        Pending::start_with(root, dir, None, commit)
    }

    /// As `start`, with git told not to look for a repository above `ceiling`.
    fn start_with(
        root: &Path,
        dir: &Path,
        ceiling: Option<&Path>,
        commit: Option<&str>,
    ) -> Pending {
        let root = root.to_path_buf();
        let spec = dir
            .strip_prefix(&root)
            .unwrap_or(Path::new(""))
            .to_path_buf();
        let ceiling = ceiling.map(Path::to_path_buf);
        let commit = commit.map(str::to_string);
        let thread = std::thread::Builder::new()
            .name("docgen-git".into())
            .spawn(move || read(&root, &spec, ceiling.as_deref(), commit.as_deref()))
            .ok();
        Pending { thread }
    }

    pub fn wait(self) -> LastUpdated {
        self.thread.and_then(|t| t.join().ok()).unwrap_or_default()
    }
}

/// Runs `git log` in `root` over `spec` (a folder relative to it; empty for all of it).
fn read(root: &Path, spec: &Path, ceiling: Option<&Path>, commit: Option<&str>) -> LastUpdated {
    let spec = if spec.as_os_str().is_empty() {
        Path::new(".")
    } else {
        spec
    };
    // Newest first, each commit as \x01<committer time>, then the files it touched, all
    // separated by NULs (names are written as they are, whatever characters they hold).
    let mut git = Command::new("git");
    if let Some(dir) = ceiling {
        git.env("GIT_CEILING_DIRECTORIES", dir);
    }
    let child = git
        .arg("-C")
        .arg(root)
        .args([
            "-c",
            "core.quotePath=false",
            "--no-pager",
            "log",
            "--format=%x01%ct",
            "-z",
            "--name-only",
            "--no-renames",
            "--relative",
        ])
        .args(commit)
        .arg("--")
        .arg(spec)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return LastUpdated::default();
    };
    let mut out = Vec::new();
    let read = child.stdout.take().map(|mut s| s.read_to_end(&mut out));
    let status = child.wait();
    match (read, status) {
        (Some(Ok(_)), Ok(s)) if s.success() => parse(&out),
        _ => LastUpdated::default(),
    }
}

/// Reads the output of `git log --format=%x01%ct -z --name-only`: the first (newest) time seen
/// for a file is its last change.
pub fn parse(out: &[u8]) -> LastUpdated {
    let mut by_file: FxHashMap<PathBuf, i64> = FxHashMap::default();
    let mut time: Option<i64> = None;
    for token in out.split(|&b| b == 0) {
        // The list of files of a commit starts on a new line.
        let token = token.strip_prefix(b"\n").unwrap_or(token);
        if token.is_empty() {
            continue;
        }
        if let Some(t) = token.strip_prefix(b"\x01") {
            time = std::str::from_utf8(t)
                .ok()
                .and_then(|t| t.trim().parse().ok());
            continue;
        }
        let (Some(t), Ok(name)) = (time, std::str::from_utf8(token)) else {
            continue;
        };
        by_file.entry(PathBuf::from(name)).or_insert(t);
    }
    LastUpdated { by_file }
}

/// A time as a civil date in UTC: (year, month 1-12, day 1-31).
pub fn civil_date(secs: i64) -> (i64, u32, u32) {
    // Civil-from-days (Howard Hinnant).
    let days = secs.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `2024-03-05`, as the sitemap's `lastmod` and `<time datetime>` write a date.
pub fn iso_date(secs: i64) -> String {
    let (y, m, d) = civil_date(secs);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `March 5, 2024`, as a page shows its date.
pub fn long_date(secs: i64) -> String {
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let (y, m, d) = civil_date(secs);
    format!("{} {d}, {y}", MONTHS[(m - 1) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_commit_of_a_file_wins() {
        // As git writes it: newest commit first.
        let out = b"\x011700000300\0\ncontent/a.md\0content/dir/b c.md\0\0\x011700000200\0\ncontent/a.md\0content/d.md\0\0\x011700000100\0\ncontent/d.md\0";
        let last = parse(out);
        assert_eq!(last.of(Path::new("content/a.md")), Some(1_700_000_300));
        assert_eq!(
            last.of(Path::new("content/dir/b c.md")),
            Some(1_700_000_300)
        );
        assert_eq!(last.of(Path::new("content/d.md")), Some(1_700_000_200));
        assert_eq!(last.of(Path::new("content/e.md")), None);
    }

    #[test]
    fn commits_without_files_and_broken_times_are_skipped() {
        // A merge lists no files; a time that is not a number leaves its files unknown.
        let out = b"\x011700000900\0\0\x01soon\0\ncontent/x.md\0\0\x011700000100\0\ncontent/y.md\0";
        let last = parse(out);
        assert_eq!(last.of(Path::new("content/x.md")), None);
        assert_eq!(last.of(Path::new("content/y.md")), Some(1_700_000_100));
        assert!(parse(b"").is_empty());
    }

    #[test]
    fn dates_are_civil_dates_in_utc() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(iso_date(951_782_400), "2000-02-29");
        assert_eq!(iso_date(1_709_596_799), "2024-03-04");
        assert_eq!(long_date(1_709_596_800), "March 5, 2024");
        assert_eq!(long_date(1_767_225_599), "December 31, 2025");
    }

    #[test]
    fn outside_a_git_work_tree_nothing_is_known() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.md"), "x").unwrap();
        // Git must not look above the scratch folder (it may sit inside a repository).
        let last = Pending::start_with(tmp.path(), tmp.path(), tmp.path().parent(), None).wait();
        assert!(last.is_empty());
    }

    #[test]
    fn a_repository_gives_the_time_of_each_files_last_commit() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let git = |args: &[&str], time: &str| {
            crate::content::git_tree::tests::run_git_at(root, args, time);
        };
        std::fs::create_dir_all(root.join("content/docs")).unwrap();
        std::fs::write(root.join("content/docs/a.md"), "a").unwrap();
        std::fs::write(root.join("content/docs/b.md"), "b").unwrap();
        std::fs::write(root.join("site.yaml"), "title: x").unwrap();
        git(&["init", "-q"], "1700000000 +0000");
        git(&["add", "."], "1700000000 +0000");
        git(&["commit", "-q", "-m", "first"], "1700000000 +0000");
        std::fs::write(root.join("content/docs/b.md"), "b2").unwrap();
        git(&["commit", "-q", "-am", "second"], "1710000000 +0000");
        let last = Pending::start(root, &root.join("content")).wait();
        assert_eq!(last.of(Path::new("content/docs/a.md")), Some(1_700_000_000));
        assert_eq!(last.of(Path::new("content/docs/b.md")), Some(1_710_000_000));
        // Only the content folder was asked for.
        assert_eq!(last.of(Path::new("site.yaml")), None);
    }
}

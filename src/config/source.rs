//! Reading the writer's text files: UTF-8 without NUL bytes, or a diagnostic that says where.

use std::path::Path;
use std::sync::Arc;

use crate::diagnostics::Diagnostic;

/// Reads `root/rel` as text. Bytes that are not UTF-8 and NUL bytes (which browsers and
/// YAML readers treat in surprising ways) are errors at their line and column.
pub fn read(root: &Path, rel: &Path) -> Result<Arc<str>, Diagnostic> {
    let bytes = std::fs::read(root.join(rel)).map_err(|e| {
        Diagnostic::new("io.read", format!("cannot read this file: {e}"))
            .in_file(rel)
            .hint("check that the file exists and is readable")
    })?;
    check(bytes, rel)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}

//! JSON for an inline `<script>` (the page data): no string in it can open or close anything
//! there (`</script>`, `<!--`), nor end a JavaScript line (U+2028, U+2029). The escapes are
//! JSON's own, so the data reads back unchanged.

use std::hash::{Hash, Hasher};
use std::io;

use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// serde_json's compact output, with `<`, `>`, `&`, U+2028 and U+2029 in strings (keys
/// included) escaped. Outside strings JSON has none of them.
struct ScriptSafe;

impl serde_json::ser::Formatter for ScriptSafe {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        if !may_need_escapes(bytes) {
            return writer.write_all(bytes);
        }
        let mut start = 0;
        let mut i = 0;
        while i < bytes.len() {
            let (escape, len): (&[u8], usize) = match bytes[i] {
                b'<' => (b"\\u003c", 1),
                b'>' => (b"\\u003e", 1),
                b'&' => (b"\\u0026", 1),
                0xE2 if bytes[i + 1..].starts_with(&[0x80, 0xA8]) => (b"\\u2028", 3),
                0xE2 if bytes[i + 1..].starts_with(&[0x80, 0xA9]) => (b"\\u2029", 3),
                _ => {
                    i += 1;
                    continue;
                }
            };
            writer.write_all(&bytes[start..i])?;
            writer.write_all(escape)?;
            i += len;
            start = i;
        }
        writer.write_all(&bytes[start..])
    }
}

/// Whether `bytes` hold `<`, `>`, `&` or the lead byte of U+2028 and U+2029. Without an early
/// exit the check vectorises, and most strings need no escape at all.
fn may_need_escapes(bytes: &[u8]) -> bool {
    bytes.iter().fold(false, |found, &b| {
        found | (b == b'<') | (b == b'>') | (b == b'&') | (b == 0xE2)
    })
}

/// `v` as JSON that is safe inside an inline `<script>`.
pub fn script_json<T: Serialize + ?Sized>(v: &T) -> String {
    let mut out = Vec::with_capacity(256);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, ScriptSafe);
    v.serialize(&mut ser).expect("serializable");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// A value serialised once (as script-safe JSON) and spliced into every document that holds
/// it, such as the site view in every page's data. Hashes by a digest of its bytes.
pub struct SharedJson {
    raw: Box<RawValue>,
    digest: u64,
}

impl SharedJson {
    pub fn new<T: Serialize + ?Sized>(v: &T) -> Self {
        let json = script_json(v);
        let mut h = rustc_hash::FxHasher::default();
        json.hash(&mut h);
        SharedJson {
            raw: RawValue::from_string(json).expect("serde_json wrote valid JSON"),
            digest: h.finish(),
        }
    }

    pub fn digest(&self) -> u64 {
        self.digest
    }
}

impl Serialize for SharedJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.raw.serialize(serializer)
    }
}

impl Hash for SharedJson {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.digest.hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_json_can_neither_open_nor_close_anything() {
        let title = "A <!--<script> </script> & \u{2028} \u{2029} title, \u{2027}\u{e2}";
        let json = script_json(&serde_json::json!({ "title": title, "<key>": 1 }));
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'));
        assert!(!json.contains('\u{2028}') && !json.contains('\u{2029}'));
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["title"], title);
        assert_eq!(back["<key>"], 1);
    }

    #[test]
    fn shared_json_is_spliced_in_as_it_was_serialised() {
        #[derive(Serialize)]
        struct Outer<'a> {
            a: &'a str,
            shared: &'a SharedJson,
        }
        let shared = SharedJson::new(&serde_json::json!({ "t": "</script>" }));
        let json = script_json(&Outer {
            a: "<",
            shared: &shared,
        });
        assert_eq!(
            json,
            r#"{"a":"\u003c","shared":{"t":"\u003c/script\u003e"}}"#
        );
    }
}

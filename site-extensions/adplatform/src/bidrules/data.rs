//! The data files the rules are compiled from, as far as the compiler reads them (the pages
//! read more of them: descriptions, intros, notices).

use serde::Deserialize;

use super::compiled::Severity;

/// The rules file (`dsp-rules.yaml`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    pub areas: Vec<AreaEntry>,
    pub rules: Vec<RuleEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaEntry {
    pub id: String,
    pub title: String,
    /// The page whose table shows the area's rules (each row anchored `rule-<id>`).
    #[serde(default)]
    pub page: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleEntry {
    pub id: String,
    pub area: String,
    pub text: String,
    /// What a finding of the rule says, as a sentence about the value (`price must be a
    /// number`): required of every rule the validator checks.
    #[serde(default)]
    pub message: Option<String>,
    /// How to put it right (`send 2.35, not "2.35"`): required with `message`.
    #[serde(default)]
    pub fix: Option<String>,
    #[serde(default)]
    pub field: Option<String>,
    #[serde(default)]
    pub condition: Option<String>,
    #[serde(default)]
    pub severity: Option<Severity>,
}

/// A field tables file (`ortb-response.yaml`, `ortb-request.yaml`).
#[derive(Debug, Deserialize)]
pub struct TablesFile {
    /// The page that shows the tables.
    #[serde(default)]
    pub page: Option<String>,
    pub objects: Vec<ObjectTable>,
    /// The response's native assets (`ortb-response.yaml`).
    #[serde(default, rename = "nativeResponse")]
    pub native_response: Vec<NativeAsset>,
    /// The decoded native request (`ortb-request.yaml`).
    #[serde(default, rename = "nativeRequest")]
    pub native_request: Option<NativeRequest>,
}

#[derive(Debug, Deserialize)]
pub struct ObjectTable {
    pub id: String,
    /// Where the object sits: `BidResponse.seatbid[0].bid[0]`.
    pub path: String,
    pub fields: Vec<FieldRow>,
}

#[derive(Debug, Deserialize)]
pub struct FieldRow {
    pub name: String,
    #[serde(default, rename = "type")]
    pub ty: Option<String>,
    #[serde(default)]
    pub required: Option<bool>,
}

#[derive(Debug, Deserialize)]
pub struct NativeAsset {
    pub id: i64,
    /// The elements that carry it: `img.url, img.w, img.h`.
    pub element: String,
}

#[derive(Debug, Deserialize)]
pub struct NativeRequest {
    pub fields: Vec<NamedField>,
    pub assets: Vec<RequestAsset>,
}

#[derive(Debug, Deserialize)]
pub struct NamedField {
    pub name: String,
}

#[derive(Debug, Deserialize)]
pub struct RequestAsset {
    pub asset: String,
    pub id: i64,
    pub required: bool,
    pub element: String,
}

/// The examples file (`ortb-examples.yaml`).
#[derive(Debug, Deserialize)]
pub struct ExamplesFile {
    pub examples: Vec<ExampleEntry>,
}

#[derive(Debug, Deserialize)]
pub struct ExampleEntry {
    pub id: String,
    pub title: String,
    pub label: String,
    pub request: String,
    pub response: String,
}

/// The line (1-based) of the list entry `- id: <id>` in a YAML text (0 when not found).
pub fn entry_line(source: &str, id: &str) -> usize {
    nth_entry_line(source, id, 0)
}

/// The line of the `n`-th (from 0) entry with that id, for repeated ids.
pub fn nth_entry_line(source: &str, id: &str, n: usize) -> usize {
    source
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let t = l.trim_start();
            let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
            let t = t.strip_prefix('{').unwrap_or(t).trim_start();
            t.strip_prefix("id:")
                .map(|v| {
                    v.trim()
                        .trim_end_matches([',', '}'])
                        .trim()
                        .trim_matches(['"', '\''])
                })
                .is_some_and(|v| v == id || v.split(',').next().map(str::trim) == Some(id))
        })
        .nth(n)
        .map_or(0, |(i, _)| i + 1)
}

/// Where the value of `key:` starts in the entry that begins at `line`: the line, the column
/// (1-based) of its first character, and whether it is written in double quotes.
pub fn value_at(source: &str, line: usize, key: &str) -> Option<(usize, usize, bool)> {
    let mut indent = None;
    for (i, l) in source.lines().enumerate().skip(line.saturating_sub(1)) {
        let t = l.trim_start();
        let this_indent = l.len() - t.len();
        if i + 1 > line {
            // The next entry of the list ends this one.
            if t.starts_with("- ") && indent.is_some_and(|d| this_indent <= d) {
                return None;
            }
        } else {
            indent = Some(this_indent);
        }
        let t = t.strip_prefix("- ").unwrap_or(t).trim_start();
        if let Some(rest) = t.strip_prefix(key).and_then(|r| r.strip_prefix(':')) {
            let value = rest.trim_start();
            let byte = l.len() - value.len();
            let column = l[..byte].chars().count() + 1;
            let quoted = value.starts_with('"');
            return Some((
                i + 1,
                column + usize::from(quoted || value.starts_with('\'')),
                quoted,
            ));
        }
    }
    None
}

/// The column of byte `offset` of a value written from `column` (a value in double quotes
/// counts its escapes as the characters they stand for, which is close enough to point).
pub fn column_of(text: &str, column: usize, offset: usize) -> usize {
    column + text[..offset.min(text.len())].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = "rules:\n  - id: a-01\n    area: a\n    text: T\n  - id: a-02\n    area: a\n    field: response.id\n    condition: \"!= request.id\"\n";

    #[test]
    fn entries_and_values_are_found_on_their_lines() {
        assert_eq!(entry_line(RULES, "a-02"), 5);
        assert_eq!(entry_line(RULES, "a-03"), 0);
        assert_eq!(value_at(RULES, 5, "field"), Some((7, 12, false)));
        assert_eq!(value_at(RULES, 5, "condition"), Some((8, 17, true)));
        // The next entry ends the search.
        assert_eq!(value_at(RULES, 2, "field"), None);
        assert_eq!(column_of("!= request.id", 17, 3), 20);
        let flow = "areas:\n  - {id: vast, title: VAST}\n";
        assert_eq!(entry_line(flow, "vast"), 2);
    }
}

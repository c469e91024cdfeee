//! `locales:` in site.yaml: the languages a site is read in, and the rules every later stage
//! shares about them — a translation's file name (`page.zh.md` beside `page.md`), a locale's
//! route prefix (`/zh`), its UI strings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `locales:` as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LocalesConfig {
    /// The code of the language the sources are written in, e.g. `en`.
    pub default: String,
    /// Its name in the language menu ("English" for `en`, else the code).
    pub default_name: Option<String>,
    /// Its `lang` attribute (the code by default).
    pub default_lang: Option<String>,
    /// Its writing direction (`ltr` by default).
    pub default_dir: Option<Dir>,
    /// The other languages, in the order of the language menu.
    #[serde(default)]
    pub others: Vec<LocaleSpec>,
}

/// One of `locales.others`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LocaleSpec {
    /// The code in file names and routes: `zh` for `page.zh.md` and `/zh/...`.
    pub code: String,
    /// The language's own name, as the language menu shows it.
    pub name: String,
    /// The `lang` attribute of its pages (`zh-Hans`); the code by default.
    pub lang: Option<String>,
    #[serde(default)]
    pub dir: Dir,
}

/// A writing direction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Deserialize, Serialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    #[default]
    Ltr,
    Rtl,
}

impl Dir {
    pub fn as_str(self) -> &'static str {
        match self {
            Dir::Ltr => "ltr",
            Dir::Rtl => "rtl",
        }
    }
}

/// A locale as every stage sees it; the default is the first of `Config::locales`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Locale {
    pub code: String,
    pub name: String,
    pub lang: String,
    pub dir: Dir,
    /// "" for the default, `/zh` for the others.
    pub prefix: String,
}

impl Locale {
    /// `route` in this locale: `/a/b` → `/zh/a/b`, `/` → `/zh`.
    pub fn route(&self, route: &str) -> String {
        if self.prefix.is_empty() {
            route.to_string()
        } else if route == "/" {
            self.prefix.clone()
        } else {
            format!("{}{route}", self.prefix)
        }
    }

    /// The route in the default locale of `route` in this one (`None` when it is not one of
    /// this locale's routes).
    pub fn unprefixed<'r>(&self, route: &'r str) -> Option<&'r str> {
        if self.prefix.is_empty() {
            return Some(route);
        }
        match route.strip_prefix(self.prefix.as_str()) {
            Some("") => Some("/"),
            Some(rest) if rest.starts_with('/') => Some(rest),
            _ => None,
        }
    }
}

/// The default locale of a site without `locales:`: English, at the root.
pub fn english() -> Locale {
    Locale {
        code: "en".into(),
        name: "English".into(),
        lang: "en".into(),
        dir: Dir::Ltr,
        prefix: String::new(),
    }
}

/// The locales of `config` (`None`: the site has one, English), the default first.
pub fn resolve(config: Option<&LocalesConfig>) -> Vec<Locale> {
    let Some(c) = config else {
        return vec![english()];
    };
    let default_name = match (&c.default_name, c.default.as_str()) {
        (Some(n), _) => n.clone(),
        (None, "en") => "English".into(),
        (None, code) => code.to_string(),
    };
    let mut all = vec![Locale {
        code: c.default.clone(),
        name: default_name,
        lang: c.default_lang.clone().unwrap_or_else(|| c.default.clone()),
        dir: c.default_dir.unwrap_or_default(),
        prefix: String::new(),
    }];
    all.extend(c.others.iter().map(|o| Locale {
        code: o.code.clone(),
        name: o.name.clone(),
        lang: o.lang.clone().unwrap_or_else(|| o.code.clone()),
        dir: o.dir,
        prefix: format!("/{}", o.code),
    }));
    all
}

/// Whether `c` is written without spaces between words (Han, Hiragana, Katakana) or is Hangul,
/// and a letter or digit: the search splits runs of such characters into overlapping pairs
/// (`search::tokens`), since no space marks where a word ends. The app's query tokenizer holds
/// the same ranges (`CJK` in `frontend/src/search/engine.ts`).
pub fn is_cjk(c: char) -> bool {
    matches!(
        c as u32,
        0x1100..=0x11FF      // Hangul Jamo
            | 0x3005..=0x3007 // 々 〆 〇
            | 0x3040..=0x30FF // Hiragana, Katakana
            | 0x3130..=0x318F // Hangul Compatibility Jamo
            | 0x31F0..=0x31FF // Katakana Phonetic Extensions
            | 0x3400..=0x4DBF // CJK Extension A
            | 0x4E00..=0x9FFF // CJK Unified Ideographs
            | 0xA960..=0xA97F // Hangul Jamo Extended-A
            | 0xAC00..=0xD7FF // Hangul Syllables, Jamo Extended-B
            | 0xF900..=0xFAFF // CJK Compatibility Ideographs
            | 0xFF66..=0xFF9F // Halfwidth Katakana
            | 0x20000..=0x3FFFF // CJK Extensions B and later
    ) && c.is_alphanumeric()
}

/// Why a locale code cannot be used (`None` when it can): codes are file-name and route
/// segments, so they are kept to lower-case BCP 47 shapes (`zh`, `pt-br`).
pub fn code_problem(code: &str) -> Option<&'static str> {
    let mut parts = code.split('-');
    let first = parts.next().unwrap_or("");
    if !(2..=3).contains(&first.len()) || !first.bytes().all(|b| b.is_ascii_lowercase()) {
        return Some("is not a language code (two or three lower-case letters, e.g. zh)");
    }
    if parts.any(|p| {
        p.is_empty()
            || !p
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    }) {
        return Some(
            "has a region or script that is not lower-case letters or digits (e.g. pt-br)",
        );
    }
    None
}

/// The ISO 639-1 codes: a page file named `x.<one of these>.md` on a site with locales is
/// taken for a translation into a language the site does not configure.
const ISO_639_1: &[&str] = &[
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh",
    "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da",
    "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr",
    "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
    "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj",
    "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln",
    "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb",
    "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi",
    "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk",
    "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti",
    "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk", "ur", "uz", "ve", "vi", "vo",
    "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// What a file name says about its language, on a site with locales.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileLocale {
    /// A source, in the default language (or a name whose dotted part is no language).
    Source,
    /// `page.zh.md`: the translation into locale `index` of `source` (relative path, as given).
    Translation { index: usize, source: PathBuf },
    /// `page.fr.md` where `fr` is a language code the site does not configure.
    Unknown { code: String },
}

/// `page.zh.md` → the translation of `page.md` into `zh` when `zh` is one of `locales` (the
/// default first); `page.fr.md` → an unknown locale when `fr` is a language code. Only sites
/// with locales (more than one) read names this way: elsewhere every `.md` file is a page.
pub fn file_locale(rel: &Path, locales: &[Locale]) -> FileLocale {
    if locales.len() < 2 {
        return FileLocale::Source;
    }
    let Some(name) = rel.file_name().and_then(|n| n.to_str()) else {
        return FileLocale::Source;
    };
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return FileLocale::Source;
    };
    let Some((base, code)) = stem.rsplit_once('.') else {
        return FileLocale::Source;
    };
    if base.is_empty() {
        return FileLocale::Source;
    }
    if let Some(index) = locales.iter().skip(1).position(|l| l.code == code) {
        return FileLocale::Translation {
            index: index + 1,
            source: rel.with_file_name(format!("{base}.{ext}")),
        };
    }
    if code == locales[0].code || ISO_639_1.contains(&code) {
        return FileLocale::Unknown {
            code: code.to_string(),
        };
    }
    FileLocale::Source
}

/// Where the translation into `locale` of the source `rel` sits: `a/b.md` → `a/b.zh.md`.
pub fn translation_path(rel: &Path, locale: &Locale) -> PathBuf {
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
    match name.rsplit_once('.') {
        Some((stem, ext)) => rel.with_file_name(format!("{stem}.{}.{ext}", locale.code)),
        None => rel.with_file_name(format!("{name}.{}", locale.code)),
    }
}

/// The UI strings of docgen's own locales, beside the default English table.
pub const BUILT_IN_STRINGS: &[(&str, &str)] = &[
    ("zh", include_str!("../../../../templates/strings.zh.json")),
    ("ja", include_str!("../../../../templates/strings.ja.json")),
    ("ar", include_str!("../../../../templates/strings.ar.json")),
];

/// The default (English) table, `templates/strings.json`.
pub const ENGLISH_STRINGS: &str = include_str!("../../../../templates/strings.json");

/// A table of UI strings by id.
pub type Strings = BTreeMap<String, String>;

/// The English table.
pub fn english_strings() -> Strings {
    serde_json::from_str(ENGLISH_STRINGS).expect("templates/strings.json maps ids to strings")
}

/// docgen's own table for `code` (language part first: `zh-tw` falls back to `zh`), if any.
pub fn built_in_strings(code: &str) -> Option<Strings> {
    let language = code.split('-').next().unwrap_or(code);
    BUILT_IN_STRINGS
        .iter()
        .find(|(c, _)| *c == code)
        .or_else(|| BUILT_IN_STRINGS.iter().find(|(c, _)| *c == language))
        .map(|(_, text)| {
            serde_json::from_str(text).expect("a built-in strings table maps ids to strings")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> Vec<Locale> {
        resolve(Some(&LocalesConfig {
            default: "en".into(),
            default_name: None,
            default_lang: None,
            default_dir: None,
            others: vec![LocaleSpec {
                code: "zh".into(),
                name: "简体中文".into(),
                lang: Some("zh-Hans".into()),
                dir: Dir::Ltr,
            }],
        }))
    }

    #[test]
    fn a_translation_sits_beside_its_source() {
        let l = site();
        assert_eq!(
            file_locale(Path::new("content/a/b.zh.md"), &l),
            FileLocale::Translation {
                index: 1,
                source: PathBuf::from("content/a/b.md")
            }
        );
        assert_eq!(
            file_locale(Path::new("content/a/_index.zh.md"), &l),
            FileLocale::Translation {
                index: 1,
                source: PathBuf::from("content/a/_index.md")
            }
        );
        assert_eq!(
            file_locale(Path::new("content/a/b.fr.md"), &l),
            FileLocale::Unknown { code: "fr".into() }
        );
        // A dotted name that is no language stays a page, and so does everything on a site
        // without locales.
        assert_eq!(
            file_locale(Path::new("content/v1.2.md"), &l),
            FileLocale::Source
        );
        assert_eq!(
            file_locale(Path::new("content/api.ios.md"), &l),
            FileLocale::Source
        );
        assert_eq!(
            file_locale(Path::new("content/a/b.zh.md"), &[english()]),
            FileLocale::Source
        );
        assert_eq!(
            translation_path(Path::new("content/a/b.md"), &l[1]),
            PathBuf::from("content/a/b.zh.md")
        );
    }

    #[test]
    fn routes_take_the_locale_s_prefix() {
        let l = site();
        assert_eq!(l[1].route("/"), "/zh");
        assert_eq!(l[1].route("/a/b"), "/zh/a/b");
        assert_eq!(l[0].route("/a"), "/a");
        assert_eq!(l[1].unprefixed("/zh/a"), Some("/a"));
        assert_eq!(l[1].unprefixed("/zh"), Some("/"));
        assert_eq!(l[1].unprefixed("/zhx"), None);
        assert_eq!(l[0].name, "English");
        assert_eq!(l[1].lang, "zh-Hans");
    }

    #[test]
    fn codes_are_lower_case_language_tags() {
        assert_eq!(code_problem("zh"), None);
        assert_eq!(code_problem("pt-br"), None);
        assert!(code_problem("ZH").is_some());
        assert!(code_problem("chinese").is_some());
        assert!(code_problem("zh_").is_some());
        assert!(code_problem("zh-").is_some());
    }

    #[test]
    fn every_built_in_table_translates_every_string() {
        let english = english_strings();
        for (code, _) in BUILT_IN_STRINGS {
            let table = built_in_strings(code).unwrap();
            for (id, text) in &english {
                let translated = table.get(id).unwrap_or_else(|| panic!("{code} lacks {id}"));
                // The same placeholders, so `fill` finds every value.
                let holes = |s: &str| {
                    let mut v: Vec<String> = s
                        .split('{')
                        .skip(1)
                        .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
                        .collect();
                    v.sort();
                    v
                };
                assert_eq!(holes(text), holes(translated), "{code} {id}");
            }
            assert!(
                table.keys().all(|k| english.contains_key(k)),
                "{code} has an id the English table lacks"
            );
        }
    }
}

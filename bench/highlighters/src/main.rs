//! Cost per snippet of syntax highlighters on the same three snippets: syntect (pure-Rust
//! regex engine), tree-sitter-highlight with the grammar crates, and docgen's own lexers
//! (compiled in from src/markdown/highlight.rs). See BENCHMARKS.md, "Highlighting".

#[allow(dead_code)]
#[path = "../../../src/markdown/highlight.rs"]
mod docgen_hl;
use std::time::Instant;
use syntect::html::{ClassedHTMLGenerator, ClassStyle};
use syntect::parsing::SyntaxSet;
use syntect::util::LinesWithEndings;
use tree_sitter_highlight::{HighlightConfiguration, Highlighter, HtmlRenderer};

const RUST: &str = "use std::collections::HashMap;\n\n/// Counts words.\n#[derive(Debug, Default)]\npub struct Counter<'a> {\n    words: HashMap<&'a str, usize>,\n}\n\nimpl<'a> Counter<'a> {\n    pub fn add(&mut self, text: &'a str) {\n        for w in text.split_whitespace() {\n            *self.words.entry(w).or_insert(0) += 1;\n        }\n        println!(\"{} words\", self.words.len());\n    }\n}\n";
const PY: &str = "import os\n\n@dataclass\nclass Page:\n    title: str\n    count: int = 0\n\n    def render(self, out):\n        # write the page\n        out.write(f\"<h1>{self.title}</h1>\")\n        return len(self.title) * 2\n";
const JSON: &str = "{\n  \"name\": \"docgen\",\n  \"version\": \"1.0.0\",\n  \"private\": true,\n  \"scripts\": {\"build\": \"esbuild src/main.tsx\"},\n  \"n\": 12.5\n}\n";

/// Every fenced block (language, code) of the Markdown files under `dir`.
fn corpus_blocks(dir: &std::path::Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("a corpus folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            corpus_blocks(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).expect("a Markdown file");
            let mut lines = text.lines();
            while let Some(line) = lines.next() {
                if let Some(lang) = line.strip_prefix("```") {
                    let code: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
                    out.push((lang.to_string(), code.join("\n") + "\n"));
                }
            }
        }
    }
}

fn main() {
    // `highlighters corpus DIR`: docgen's lexers over every code block of a corpus, best of 5.
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 3 && args[1] == "corpus" {
        let mut blocks = Vec::new();
        corpus_blocks(std::path::Path::new(&args[2]), &mut blocks);
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            let bytes: usize = blocks.iter().map(|(lang, code)| docgen_hl::highlight(code, lang).len()).sum();
            best = best.min(t.elapsed().as_secs_f64());
            std::hint::black_box(bytes);
        }
        println!("{} blocks: {:.1} ms in all, {:.2} us per block", blocks.len(), best * 1e3, best * 1e6 / blocks.len() as f64);
        return;
    }
    let n = 2000;
    let ss = SyntaxSet::load_defaults_newlines();
    let t = Instant::now();
    let _ = SyntaxSet::load_defaults_newlines();
    println!("syntect load syntax set: {:?}", t.elapsed());
    for (name, ext, code) in [("rust", "rs", RUST), ("python", "py", PY), ("json", "json", JSON)] {
        let syn = ss.find_syntax_by_extension(ext).unwrap();
        let t = Instant::now();
        let mut bytes = 0;
        for _ in 0..n {
            let mut g = ClassedHTMLGenerator::new_with_class_style(syn, &ss, ClassStyle::Spaced);
            for line in LinesWithEndings::from(code) {
                g.parse_html_for_line_which_includes_newline(line).unwrap();
            }
            bytes += g.finalize().len();
        }
        println!("syntect {name}: {:.1} us/snippet ({} bytes)", t.elapsed().as_secs_f64() * 1e6 / n as f64, bytes / n);
    }
    let names = ["keyword", "string", "comment", "number", "function", "type", "attribute", "variable", "property", "constant", "punctuation", "operator", "label", "escape"];
    let mut confs = vec![];
    let mut c = HighlightConfiguration::new(tree_sitter_rust::LANGUAGE.into(), "rust", tree_sitter_rust::HIGHLIGHTS_QUERY, tree_sitter_rust::INJECTIONS_QUERY, "").unwrap();
    c.configure(&names); confs.push(("rust", c, RUST));
    let mut c = HighlightConfiguration::new(tree_sitter_python::LANGUAGE.into(), "python", tree_sitter_python::HIGHLIGHTS_QUERY, "", "").unwrap();
    c.configure(&names); confs.push(("python", c, PY));
    let mut c = HighlightConfiguration::new(tree_sitter_json::LANGUAGE.into(), "json", tree_sitter_json::HIGHLIGHTS_QUERY, "", "").unwrap();
    c.configure(&names); confs.push(("json", c, JSON));
    let attrs: Vec<String> = names.iter().map(|n| format!("class=\"hl-{n}\"")).collect();
    let mut hl = Highlighter::new();
    for (name, conf, code) in &confs {
        let t = Instant::now();
        let mut bytes = 0;
        for _ in 0..n {
            let events = hl.highlight(conf, code.as_bytes(), None, |_| None).unwrap();
            let mut r = HtmlRenderer::new();
            r.render(events, code.as_bytes(), &|h, out| out.extend_from_slice(attrs[h.0].as_bytes())).unwrap();
            bytes += r.html.len();
        }
        println!("tree-sitter-highlight {name}: {:.1} us/snippet ({} bytes)", t.elapsed().as_secs_f64() * 1e6 / n as f64, bytes / n);
    }
    let n = 20000;
    for (name, code) in [("rust", RUST), ("python", PY), ("json", JSON)] {
        let t = Instant::now();
        let mut bytes = 0;
        for _ in 0..n {
            bytes += docgen_hl::highlight(std::hint::black_box(code), name).len();
        }
        println!("docgen lexer {name}: {:.2} us/snippet ({} bytes)", t.elapsed().as_secs_f64() * 1e6 / n as f64, bytes / n);
    }
}

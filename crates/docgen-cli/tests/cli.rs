//! The `docgen` command's tests: fixture sites built through the binary, the real site, the
//! preview server. One test binary made of a module per subject, so the suite links once.

mod common;

mod bounds;
mod build;
mod commonmark;
mod crash;
mod external;
mod fuzz_corpus;
mod images;
mod import;
mod includes;
mod init;
mod layout;
mod llms;
mod locales;
mod markdown_syntax;
mod nav;
mod page_features;
mod raw_html;
mod safety;
mod search;
mod serve;
mod server;
mod site;
mod site_accuracy;
mod site_completeness;
mod sources;
mod versions;

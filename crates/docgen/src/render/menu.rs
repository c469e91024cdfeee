//! The menu branch of a page as template data. Most items of a branch are closed and look the
//! same on every page that shows them, so each menu entry's closed markup is rendered once (by
//! the `menu_item` macro) and reused; a run of them side by side reaches the template as one
//! string, so its loop turns once per run rather than once per item.

use std::sync::OnceLock;

use minijinja::value::Serde;
use minijinja::{Environment, Value};

use super::templates::call_macro;
use crate::view::menu::{Closed, MenuBranch, MenuEntry, MenuTree};

/// Closed menu items, rendered on first use.
pub struct ClosedItems {
    rendered: Vec<OnceLock<Value>>,
}

impl ClosedItems {
    pub fn new(nodes: usize) -> Self {
        ClosedItems {
            rendered: (0..nodes).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The branch with each closed item replaced by its markup, runs of them joined.
    pub fn fill<'v>(
        &self,
        env: &Environment<'_>,
        tree: &MenuTree<'_>,
        branch: MenuBranch<'v, Closed>,
    ) -> Result<MenuBranch<'v, Value>, minijinja::Error> {
        let mut filled = branch.try_map(&|closed: Closed| -> Result<Value, minijinja::Error> {
            let cached = &self.rendered[closed.node];
            if let Some(html) = cached.get() {
                return Ok(html.clone());
            }
            let item = Value::from(Serde(tree.closed::<Value>(closed.node)));
            let html = call_macro(env, "menu_item", &[item])?;
            Ok(cached.get_or_init(|| Value::from_safe_string(html)).clone())
        })?;
        join_closed_runs(&mut filled.items);
        Ok(filled)
    }
}

/// Joins each run of closed items in `entries` (and in the open items' children) into one item.
/// The template writes a line break before each item of a list, so the run's items are joined by
/// one: the page's markup is the same as item by item.
fn join_closed_runs(entries: &mut Vec<MenuEntry<'_, Value>>) {
    let mut joined = Vec::with_capacity(entries.len());
    let mut run: Vec<Value> = Vec::new();
    for entry in entries.drain(..) {
        match entry {
            MenuEntry::Closed(html) => run.push(html),
            mut other => {
                if let MenuEntry::Open(item) = &mut other {
                    join_closed_runs(&mut item.children);
                }
                end_run(&mut joined, &mut run);
                joined.push(other);
            }
        }
    }
    end_run(&mut joined, &mut run);
    *entries = joined;
}

fn end_run<'v>(joined: &mut Vec<MenuEntry<'v, Value>>, run: &mut Vec<Value>) {
    match run.len() {
        0 => {}
        1 => joined.extend(run.drain(..).map(MenuEntry::Closed)),
        _ => {
            let parts: Vec<&str> = run.iter().map(|v| v.as_str().unwrap_or_default()).collect();
            joined.push(MenuEntry::Closed(Value::from_safe_string(parts.join("\n"))));
            run.clear();
        }
    }
}

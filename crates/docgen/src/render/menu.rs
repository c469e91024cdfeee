//! The menu branch of a page as template data. Most items of a branch are closed and look the
//! same on every page that shows them, so each menu entry's closed markup is rendered once (by
//! the `menu_item` macro) and reused.

use std::sync::OnceLock;

use minijinja::value::Serde;
use minijinja::{Environment, Value};

use super::templates::call_macro;
use crate::view::menu::{Closed, MenuBranch, MenuTree};

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

    /// The branch with each closed item replaced by its markup.
    pub fn fill<'v>(
        &self,
        env: &Environment<'_>,
        tree: &MenuTree<'_>,
        branch: MenuBranch<'v, Closed>,
    ) -> Result<MenuBranch<'v, Value>, minijinja::Error> {
        branch.try_map(&|closed: Closed| {
            let cached = &self.rendered[closed.node];
            if let Some(html) = cached.get() {
                return Ok(html.clone());
            }
            let item = Value::from(Serde(tree.closed::<Value>(closed.node)));
            let html = call_macro(env, "menu_item", &[item])?;
            Ok(cached.get_or_init(|| Value::from_safe_string(html)).clone())
        })
    }
}

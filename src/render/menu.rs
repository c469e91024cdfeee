//! The menu branch of a page as template data. Most items of a branch are closed and look the
//! same on every page that shows them, so each menu entry's closed markup is rendered once (by
//! the `menu_item` macro) and reused.

use std::sync::OnceLock;

use minijinja::value::Serde;
use minijinja::{Environment, State, Template, Value};

use crate::view::menu::{Closed, MenuBranch, MenuItem, MenuTree};

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
        let macros = env.get_template("macros.html")?;
        branch.try_map(&|closed: Closed| {
            let cached = &self.rendered[closed.node];
            if let Some(html) = cached.get() {
                return Ok(html.clone());
            }
            let html = menu_item(&macros, tree.closed::<Value>(closed.node))?;
            Ok(cached.get_or_init(|| Value::from_safe_string(html)).clone())
        })
    }
}

/// One item through the `menu_item` macro.
fn menu_item(
    macros: &Template<'_, '_>,
    item: MenuItem<'_, Value>,
) -> Result<String, minijinja::Error> {
    let item = Value::from(Serde(item));
    macros
        .render_captured(())?
        .with_state_mut(|state: &mut State<'_, '_>| state.call_macro("menu_item", &[item]))
}

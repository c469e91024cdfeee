//! The menu branch of a page as template data. Most items of a branch are closed and look the
//! same on every page that shows them, so each menu entry's closed markup is rendered once (by
//! the `menu_item` macro) and reused; a run of them side by side reaches the template as one
//! string, so its loop turns once per run rather than once per item.
//!
//! The pages of one section show the same menu but for their own item, so the whole menu
//! (the `left_menu` macro) is rendered once for them with a stand-in for that item, which each
//! page then fills with its own (`menu_item`). Both macros are called in a worker's evaluation
//! of `macros.html` (`render::Worker`), which serves many pages.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use minijinja::value::{Object, Serde};
use minijinja::{Environment, State, Value};

use super::templates::call_macros;
use rustc_hash::FxHasher;

use crate::view::menu::{Closed, MenuBranch, MenuEntry, MenuItem, MenuTree};

/// Closed menu items, rendered on first use a block of neighbours at a time: one evaluation of
/// `macros.html` serves a block (evaluating the module costs more than drawing an item).
pub struct ClosedItems {
    blocks: Vec<OnceLock<Vec<Value>>>,
    nodes: usize,
}

/// Nodes per block: neighbours in the menu, mostly shown by the same pages.
const BLOCK: usize = 128;

impl ClosedItems {
    pub fn new(nodes: usize) -> Self {
        ClosedItems {
            blocks: (0..nodes.div_ceil(BLOCK))
                .map(|_| OnceLock::new())
                .collect(),
            nodes,
        }
    }

    /// The branch with each closed item replaced by its markup, runs of them joined.
    pub fn fill<'v>(
        &self,
        env: &Environment<'_>,
        tree: &MenuTree<'_>,
        branch: MenuBranch<'v, Closed>,
    ) -> Result<MenuBranch<'v, Value>, minijinja::Error> {
        let mut filled = branch.try_map(&|closed: Closed| self.markup(env, tree, closed.node))?;
        join_closed_runs(&mut filled.items);
        Ok(filled)
    }

    /// As `fill`, each item's markup between marks that name its node (`SectionMenu`).
    fn fill_marked<'v>(
        &self,
        env: &Environment<'_>,
        tree: &MenuTree<'_>,
        branch: MenuBranch<'v, Closed>,
    ) -> Result<MenuBranch<'v, Value>, minijinja::Error> {
        let mut filled = branch.try_map(&|closed: Closed| {
            let html = self.markup(env, tree, closed.node)?;
            let html = html.as_str().unwrap_or_default();
            Ok::<_, minijinja::Error>(Value::from_safe_string(format!(
                "{ITEM_START}{}{ITEM_NODE_END}{html}{ITEM_END}",
                closed.node
            )))
        })?;
        join_closed_runs(&mut filled.items);
        Ok(filled)
    }

    /// The markup of node `node` closed, rendered with its block on first use.
    fn markup(
        &self,
        env: &Environment<'_>,
        tree: &MenuTree<'_>,
        node: usize,
    ) -> Result<Value, minijinja::Error> {
        let block = &self.blocks[node / BLOCK];
        if let Some(items) = block.get() {
            return Ok(items[node % BLOCK].clone());
        }
        let first = node - node % BLOCK;
        let items = (first..self.nodes.min(first + BLOCK))
            .map(|n| Value::from(Serde(tree.closed::<Value>(n))))
            .collect::<Vec<_>>();
        let rendered = call_macros(env, "menu_item", &items)?
            .into_iter()
            .map(Value::from_safe_string)
            .collect();
        Ok(block.get_or_init(|| rendered)[node % BLOCK].clone())
    }
}

/// Marks, in a menu rendered for a section, where each closed item starts (followed by its node
/// number and `ITEM_NODE_END`) and ends: control characters no escaped text can hold. They are
/// taken out before the menu is used.
const ITEM_START: char = '\u{1}';
const ITEM_NODE_END: char = '\u{2}';
const ITEM_END: char = '\u{3}';
/// How many menus are kept: the pages of a section are rendered side by side, two threads at a
/// time, so a few are enough; each is the size of one page's menu.
const RECENT_MENUS: usize = 16;

/// The left menus of the pages, each rendered once per section.
pub struct LeftMenus {
    closed: ClosedItems,
    recent: Arc<Recent>,
}

/// A menu as the pages of a section share it: every item of the page's level closed, and
/// where each closed item's markup is.
#[derive(Debug)]
struct SectionMenu {
    html: String,
    items: Vec<(usize, Range<usize>)>,
}

impl SectionMenu {
    /// Takes the marks out of `marked`, noting where each item was.
    fn from_marked(marked: &str) -> SectionMenu {
        let mut html = String::with_capacity(marked.len());
        let mut items = Vec::new();
        let mut open: Vec<(usize, usize)> = Vec::new();
        let mut rest = marked;
        while let Some(at) = rest.find([ITEM_START, ITEM_END]) {
            html.push_str(&rest[..at]);
            if rest[at..].starts_with(ITEM_START) {
                let after = &rest[at + ITEM_START.len_utf8()..];
                let end = after.find(ITEM_NODE_END).unwrap_or(0);
                let node = after[..end].parse().unwrap_or(usize::MAX);
                open.push((node, html.len()));
                rest = &after[end + ITEM_NODE_END.len_utf8()..];
            } else {
                if let Some((node, start)) = open.pop() {
                    items.push((node, start..html.len()));
                }
                rest = &rest[at + ITEM_END.len_utf8()..];
            }
        }
        html.push_str(rest);
        SectionMenu { html, items }
    }

    /// The menu with the markup of `node` replaced by `item`.
    fn with_item(&self, node: usize, item: &str) -> Option<String> {
        let (_, range) = self.items.iter().find(|(n, _)| *n == node)?;
        let mut html = String::with_capacity(self.html.len() + item.len());
        html.push_str(&self.html[..range.start]);
        html.push_str(item);
        html.push_str(&self.html[range.end..]);
        Some(html)
    }
}

/// The menus rendered last, by the digest of their branch.
#[derive(Debug, Default)]
struct Recent(Mutex<VecDeque<(u64, Arc<SectionMenu>)>>);

impl Recent {
    fn find(&self, key: u64) -> Option<Arc<SectionMenu>> {
        let recent = self.0.lock().expect("not poisoned");
        recent
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| Arc::clone(v))
    }

    fn keep(&self, key: u64, menu: Arc<SectionMenu>) {
        let mut recent = self.0.lock().expect("not poisoned");
        if recent.len() == RECENT_MENUS {
            recent.pop_front();
        }
        recent.push_back((key, menu));
    }
}

impl LeftMenus {
    pub fn new(nodes: usize) -> Self {
        LeftMenus {
            closed: ClosedItems::new(nodes),
            recent: Arc::default(),
        }
    }

    pub fn closed_items(&self) -> &ClosedItems {
        &self.closed
    }

    /// The page's left menu, drawn with the `left_menu` and `menu_item` macros of `shell` (a
    /// state in which `macros.html` is evaluated). `salt` is a digest of everything else the
    /// markup depends on (the templates, the site view).
    pub fn draw(
        &self,
        shell: &mut State<'_, '_>,
        env: &Environment<'_>,
        tree: &MenuTree<'_>,
        site: &Value,
        salt: u64,
        mut branch: MenuBranch<'_, Closed>,
    ) -> Result<String, minijinja::Error> {
        // The page's own item, when it has no children, is the one difference between the
        // menus of its section's pages: the branch is keyed with it closed.
        let page_item = close_page_item(tree, &mut branch.items);
        let mut h = FxHasher::default();
        salt.hash(&mut h);
        branch.hash(&mut h);
        let key = h.finish();
        let shared = match self.recent.find(key) {
            Some(menu) => menu,
            None => {
                let branch = Value::from(Serde(&self.closed.fill_marked(env, tree, branch)?));
                let marked = shell.call_macro("left_menu", &[branch, site.clone()])?;
                let menu = Arc::new(SectionMenu::from_marked(&marked));
                self.recent.keep(key, Arc::clone(&menu));
                menu
            }
        };
        let Some(item) = page_item else {
            return Ok(shared.html.clone());
        };
        let drawn = shell.call_macro("menu_item", &[Value::from(Serde(&item))])?;
        shared.with_item(item.node, &drawn).ok_or_else(|| {
            minijinja::Error::new(
                minijinja::ErrorKind::InvalidOperation,
                "the page's menu item is missing from its section's menu",
            )
        })
    }
}

/// A page's left menu already drawn, as the page templates reach it: `{{ parts.menu }}`, or
/// `{{ left_menu(shell) }}` as templates written before `parts` call it (the argument is no
/// longer needed).
#[derive(Debug)]
pub struct DrawnMenu(pub Value);

impl Object for DrawnMenu {
    fn call(
        self: &Arc<Self>,
        _state: &mut State<'_, '_>,
        _args: &[Value],
    ) -> Result<Value, minijinja::Error> {
        Ok(self.0.clone())
    }
}

/// Closes the page's own item in `entries` when it is a page without children, and gives it as
/// it is drawn open (active, current).
fn close_page_item<'v>(
    tree: &MenuTree<'_>,
    entries: &mut [MenuEntry<'v, Closed>],
) -> Option<MenuItem<'v, Value>> {
    for entry in entries.iter_mut() {
        let MenuEntry::Open(item) = entry else {
            continue;
        };
        if item.is_section {
            if let Some(found) = close_page_item(tree, &mut item.children) {
                return Some(found);
            }
            continue;
        }
        let closed = MenuEntry::Closed(tree.closed_entry(item.node));
        let MenuEntry::Open(item) = std::mem::replace(entry, closed) else {
            unreachable!("matched as open above");
        };
        let item = *item;
        return Some(MenuItem {
            node: item.node,
            display_name: item.display_name,
            id: item.id,
            url: item.url,
            is_page: item.is_page,
            is_section: false,
            icon: item.icon,
            active: item.active,
            current: item.current,
            open: item.open,
            children: Vec::new(),
        });
    }
    None
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_menu_knows_where_each_item_is_and_takes_the_marks_out() {
        let marked = "<ul>\u{1}4\u{2}<li>a</li>\u{3}\n<li>open<ul>\u{1}12\u{2}<li>b</li>\u{3}</ul></li></ul>";
        let menu = SectionMenu::from_marked(marked);
        assert_eq!(
            menu.html,
            "<ul><li>a</li>\n<li>open<ul><li>b</li></ul></li></ul>"
        );
        assert_eq!(
            menu.with_item(12, "<li class=\"is-active\">b</li>")
                .as_deref(),
            Some("<ul><li>a</li>\n<li>open<ul><li class=\"is-active\">b</li></ul></li></ul>")
        );
        assert_eq!(
            menu.with_item(4, "<li>A</li>").as_deref(),
            Some("<ul><li>A</li>\n<li>open<ul><li>b</li></ul></li></ul>")
        );
        assert_eq!(menu.with_item(5, "x"), None);
    }
}

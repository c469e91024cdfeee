//! The menu tree in pieces, so the app loads only what it shows. Each area has a shard in the
//! shape of `nav.json` (its root, then the external links) whose level-1 sections are marked
//! `sharded` instead of holding their children; each of those has a shard with its whole
//! subtree. Names carry a digest of their bytes, so the files can be cached forever; a page
//! names the shards it needs, and `index.json` (a fixed name) maps ids to the others. The area
//! shard names no other shard, so an edit deep in one section changes only that section's
//! shard and the pages that name it.

use serde::Serialize;
use ts_rs::TS;

use super::nav::{self, NavNode};
use crate::model::Site;

/// A file of `_docgen/nav/`.
#[derive(Serialize, TS)]
#[serde(untagged)]
pub enum NavShard<'a> {
    /// An area's: the area root (its level-1 sections `sharded`), then the external links.
    Area(Vec<NavNode<'a>>),
    /// A level-1 section's whole subtree.
    Section(NavNode<'a>),
}

/// `_docgen/nav/index.json`: which shard holds the menu below each area root and level-1
/// section.
#[derive(Serialize, TS)]
pub struct NavShardIndex {
    pub shards: Vec<ShardEntry>,
}

/// One line of the shard index.
#[derive(Serialize, TS)]
pub struct ShardEntry {
    /// The nav id of the area root or level-1 item.
    pub id: String,
    pub route: String,
    /// The shard's route (`/_docgen/nav/<id>.<hash>.json`).
    pub file: String,
}

pub struct NavShards {
    /// (output path, JSON), areas first, in tree order.
    pub files: Vec<(String, String)>,
    /// The shard route of each area root and each level-1 item with children.
    of_node: rustc_hash::FxHashMap<usize, String>,
    index: NavShardIndex,
}

impl NavShards {
    pub fn build(site: &Site<'_>) -> Self {
        let mut shards = NavShards {
            files: Vec::new(),
            of_node: Default::default(),
            index: NavShardIndex { shards: Vec::new() },
        };
        let links = nav::external_links(site);
        for &root in &site.nav.roots {
            let mut area = nav::node(site, root);
            for (child, &idx) in area.children.iter_mut().zip(&site.nav.nodes[root].children) {
                if child.children.is_empty() {
                    continue;
                }
                // The section keeps its subtree in its own shard; the area lists it without.
                let children = std::mem::take(&mut child.children);
                let section = NavShard::Section(NavNode {
                    children,
                    ..child.clone()
                });
                shards.add(site, idx, &section);
                child.sharded = true;
            }
            let mut nodes = vec![area];
            nodes.extend(links.iter().cloned());
            shards.add(site, root, &NavShard::Area(nodes));
        }
        shards
    }

    fn add(&mut self, site: &Site<'_>, idx: usize, shard: &NavShard<'_>) {
        let json = serde_json::to_string(shard).expect("serializable");
        let n = &site.nav.nodes[idx];
        let hash = crate::paths::content_hash(json.as_bytes());
        let file = format!("/_docgen/nav/{}.{hash}.json", n.id);
        self.files.push((file[1..].to_string(), json));
        self.of_node.insert(idx, file.clone());
        self.index.shards.push(ShardEntry {
            id: n.id.clone(),
            route: n.route.clone(),
            file,
        });
    }

    /// The shards a page's menu needs: its area's, and its level-1 section's if it has one.
    pub fn for_path(&self, path: &[usize]) -> Vec<&str> {
        path.iter()
            .take(2)
            .filter_map(|i| self.of_node.get(i).map(String::as_str))
            .collect()
    }

    /// `_docgen/nav/index.json`: every shard with the node it starts at, for tools.
    pub fn index_json(&self) -> String {
        serde_json::to_string(&self.index).expect("serializable")
    }
}

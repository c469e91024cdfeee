//! The fields a path may name, from the field tables of the bid response (with their types)
//! and of the bid request, so that a rule naming a field the tables do not know fails the
//! build. Two strings hold documents of their own: the bid's `adm` (VAST XML, or the native
//! response as JSON) and the request's `imp[].native.request` (the native request as JSON).

use std::collections::BTreeMap;

use super::compiled::{BaseType, JsonType, Step};
use super::data::{NativeAsset, NativeRequest, ObjectTable};

/// What a node of the tables is.
#[derive(Debug, Clone)]
pub enum Shape {
    Object,
    List(Box<Node>),
    String,
    Integer,
    Float,
    Boolean,
    /// A field of the request tables, which give no types: a value, or a list of values.
    Any,
    /// An element or attribute of XML.
    Xml,
}

#[derive(Debug, Clone)]
pub struct Node {
    pub shape: Shape,
    pub fields: BTreeMap<String, Node>,
    /// Any field may be named below it (an object the tables do not detail).
    pub open: bool,
    /// A string holding a JSON document of this shape.
    pub json: Option<Box<Node>>,
    /// A string holding XML (VAST).
    pub xml: bool,
    /// The type the table gives the field, for the type checks.
    pub declared: Option<JsonType>,
}

impl Node {
    pub fn new(shape: Shape) -> Self {
        Node {
            shape,
            fields: BTreeMap::new(),
            open: false,
            json: None,
            xml: false,
            declared: None,
        }
    }

    fn open_object() -> Self {
        Node {
            open: true,
            ..Node::new(Shape::Object)
        }
    }

    fn is_list(&self) -> bool {
        matches!(self.shape, Shape::List(_))
    }
}

/// Why a path does not fit the tables: at which step, and what to say.
#[derive(Debug)]
pub struct Misfit {
    pub step: usize,
    pub message: String,
    pub hint: String,
}

/// Resolves `steps` from `node`; returns the steps with `Json` inserted where a path reads the
/// JSON held in a string, the node reached, and the number of output steps for each input step.
pub fn resolve<'n>(
    mut node: &'n Node,
    steps: &[Step],
    at: &str,
) -> Result<(Vec<Step>, &'n Node), Misfit> {
    let mut out = Vec::with_capacity(steps.len() + 1);
    let mut written = at.to_string();
    for (i, step) in steps.iter().enumerate() {
        let misfit = |message: String, hint: &str| Misfit {
            step: i,
            message,
            hint: hint.to_string(),
        };
        if matches!(node.shape, Shape::Xml)
            && !matches!(
                step,
                Step::Child { .. } | Step::Descendant { .. } | Step::Attribute { .. }
            )
        {
            return Err(misfit(
                format!("`{written}` is XML: only /Name, //Name and /@name go on from it"),
                "read XML with / and //, such as adm//MediaFile/@type",
            ));
        }
        match step {
            Step::Field { name } => {
                if let Some(json) = &node.json {
                    out.push(Step::Json);
                    node = json;
                }
                if node.is_list() {
                    return Err(misfit(
                        format!("`{written}` is a list: `.{name}` needs an element first"),
                        &format!("write {written}[].{name} (every element) or {written}[0].{name}"),
                    ));
                }
                match node.fields.get(name) {
                    Some(child) => node = child,
                    None if node.open => {
                        static ANY: std::sync::OnceLock<Node> = std::sync::OnceLock::new();
                        node = ANY.get_or_init(Node::open_object);
                    }
                    None => {
                        let known: Vec<&str> = node.fields.keys().map(String::as_str).collect();
                        let hint =
                            match docgen::diagnostics::did_you_mean(name, known.iter().copied()) {
                                Some(s) => format!("did you mean `{s}`?"),
                                None if known.is_empty() => {
                                    format!("`{written}` has no fields in the tables")
                                }
                                None => {
                                    format!("the fields of `{written}` are {}", known.join(", "))
                                }
                            };
                        return Err(Misfit {
                            step: i,
                            message: format!(
                                "`{name}` is not a field of `{written}` in the field tables"
                            ),
                            hint,
                        });
                    }
                }
                out.push(step.clone());
                written = format!("{written}.{name}");
            }
            Step::Each | Step::Index { .. } | Step::Where { .. } => {
                let elem = match &node.shape {
                    Shape::List(elem) => elem.as_ref(),
                    Shape::Any => node,
                    _ => {
                        return Err(misfit(
                            format!("`{written}` is not a list"),
                            "[] and [0] go after lists only",
                        ));
                    }
                };
                if let Step::Where { field, .. } = step
                    && !elem.open
                    && !matches!(elem.shape, Shape::Any)
                    && !elem.fields.contains_key(field)
                {
                    let known: Vec<&str> = elem.fields.keys().map(String::as_str).collect();
                    return Err(misfit(
                        format!("the elements of `{written}` have no field `{field}`"),
                        &match docgen::diagnostics::did_you_mean(field, known.iter().copied()) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!("their fields are {}", known.join(", ")),
                        },
                    ));
                }
                node = elem;
                out.push(step.clone());
                written.push_str(match step {
                    Step::Each => "[]",
                    _ => "[..]",
                });
            }
            Step::Child { name } | Step::Descendant { name } | Step::Attribute { name } => {
                if !(node.xml || matches!(node.shape, Shape::Xml)) {
                    return Err(misfit(
                        format!("`{written}` holds no XML, so `/{name}` cannot be read from it"),
                        "XML paths start at a field that holds VAST, such as adm//MediaFile",
                    ));
                }
                static XML: std::sync::OnceLock<Node> = std::sync::OnceLock::new();
                node = XML.get_or_init(|| Node::new(Shape::Xml));
                out.push(step.clone());
                written.push_str(match step {
                    Step::Child { .. } => "/",
                    Step::Descendant { .. } => "//",
                    _ => "/@",
                });
                written.push_str(name);
            }
            Step::Json => out.push(Step::Json),
        }
    }
    Ok((out, node))
}

/// The type a table writes (`array of string`, `float`, `Bid`).
pub fn declared_type(text: &str) -> Option<JsonType> {
    let text = text.trim();
    if let Some(items) = text.strip_prefix("array of ") {
        return Some(JsonType {
            base: BaseType::Array,
            items: Some(Box::new(declared_type(items)?)),
        });
    }
    let base = match text {
        "string" => BaseType::String,
        "integer" => BaseType::Integer,
        "float" => BaseType::Float,
        "boolean" => BaseType::Boolean,
        "object" => BaseType::Object,
        // The name of another object of the tables (SeatBid, Bid).
        t if t.chars().next().is_some_and(|c| c.is_ascii_uppercase()) => BaseType::Object,
        _ => return None,
    };
    Some(JsonType { base, items: None })
}

fn node_of(ty: &JsonType) -> Node {
    let mut node = match ty.base {
        BaseType::String => Node::new(Shape::String),
        BaseType::Integer => Node::new(Shape::Integer),
        BaseType::Float => Node::new(Shape::Float),
        BaseType::Boolean => Node::new(Shape::Boolean),
        BaseType::Object => Node::open_object(),
        BaseType::Array => Node::new(Shape::List(Box::new(
            ty.items
                .as_deref()
                .map_or_else(|| Node::new(Shape::Any), node_of),
        ))),
    };
    node.declared = Some(ty.clone());
    node
}

/// The steps of a table's `path` (`BidResponse.seatbid[0].bid[0]`) after its root.
pub fn table_steps(path: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    for part in path.split('.').skip(1) {
        let (name, rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if name.is_empty() {
            return None;
        }
        steps.push(Step::Field {
            name: name.to_string(),
        });
        match rest {
            "" => {}
            "[0]" | "[]" => steps.push(Step::Each),
            _ => return None,
        }
    }
    Some(steps)
}

/// The node at `steps` below `root`, made as the tables describe it: a list where a step
/// takes an element, an object otherwise; an untyped node (`Any`) becomes what its use says.
fn node_at<'n>(root: &'n mut Node, steps: &[Step]) -> &'n mut Node {
    let mut node = root;
    for step in steps {
        node = match step {
            Step::Field { name } => {
                if matches!(node.shape, Shape::Any) {
                    node.shape = Shape::Object;
                }
                node.fields
                    .entry(name.clone())
                    .or_insert_with(|| Node::new(Shape::Any))
            }
            _ => {
                if !node.is_list() {
                    node.shape = Shape::List(Box::new(Node::new(Shape::Object)));
                }
                match &mut node.shape {
                    Shape::List(elem) => elem.as_mut(),
                    _ => unreachable!("made a list above"),
                }
            }
        };
    }
    if matches!(node.shape, Shape::Any) {
        node.shape = Shape::Object;
    }
    node
}

/// Adds a table's fields (dotted names nest) below `object`.
fn add_fields(object: &mut Node, fields: &[(String, Option<JsonType>)]) {
    object.open = false;
    for (name, ty) in fields {
        let parts: Vec<&str> = name.split('.').collect();
        let mut node = &mut *object;
        for (i, part) in parts.iter().enumerate() {
            if matches!(node.shape, Shape::Any) {
                node.shape = Shape::Object;
            }
            // A field with a documented subfield is no longer open.
            node.open = false;
            let last = i + 1 == parts.len();
            let child = node
                .fields
                .entry(part.to_string())
                .or_insert_with(|| Node::new(Shape::Any));
            if last && let Some(ty) = ty {
                let made = node_of(ty);
                // Keep what other tables put below it.
                let below = std::mem::take(&mut child.fields);
                let was_closed = !child.open && !below.is_empty();
                *child = Node {
                    fields: below,
                    open: made.open && !was_closed,
                    ..made
                };
            }
            node = child;
        }
    }
}

/// The object tables as one tree, each field typed by its table when `typed`. Objects deeper
/// in a message come later in the tables, so inserting them in order finds the field that
/// holds each one already there.
fn tables(objects: &[ObjectTable], typed: bool) -> Node {
    let mut root = Node::new(Shape::Object);
    for object in objects {
        let Some(steps) = table_steps(&object.path) else {
            continue;
        };
        let fields: Vec<(String, Option<JsonType>)> = object
            .fields
            .iter()
            .map(|f| {
                let ty = f.ty.as_deref().filter(|_| typed).and_then(declared_type);
                (f.name.clone(), ty)
            })
            .collect();
        add_fields(node_at(&mut root, &steps), &fields);
    }
    root
}

/// The bid response: its tables, and the native response inside `adm`.
pub fn response(objects: &[ObjectTable], native: &[NativeAsset]) -> Node {
    let mut root = tables(objects, true);
    // Every bid's adm holds markup: VAST XML, or the native response as JSON.
    if let Some(Shape::List(seatbid)) = root.fields.get_mut("seatbid").map(|n| &mut n.shape)
        && let Some(Shape::List(bid)) = seatbid.fields.get_mut("bid").map(|n| &mut n.shape)
        && let Some(adm) = bid.fields.get_mut("adm")
    {
        adm.xml = true;
        adm.json = Some(Box::new(native_response(native)));
    }
    root
}

/// The native response (Native Ads 1.2) as the bid's `adm` carries it: `{"native": {...}}`,
/// its assets' elements from the table of the response page.
fn native_response(assets: &[NativeAsset]) -> Node {
    let text = || Node::new(Shape::String);
    let mut asset = Node::new(Shape::Object);
    asset.fields.insert("id".into(), Node::new(Shape::Integer));
    asset
        .fields
        .insert("required".into(), Node::new(Shape::Integer));
    asset.fields.insert("link".into(), Node::open_object());
    for a in assets {
        for element in a.element.split(',') {
            let parts: Vec<&str> = element.trim().split('.').collect();
            let mut node = &mut asset;
            for part in parts {
                node = node
                    .fields
                    .entry(part.to_string())
                    .or_insert_with(|| Node::new(Shape::Object));
            }
            if node.fields.is_empty() {
                node.shape = Shape::Any;
            }
        }
    }
    let mut link = Node::new(Shape::Object);
    link.fields.insert("url".into(), text());
    link.fields.insert(
        "clicktrackers".into(),
        Node::new(Shape::List(Box::new(text()))),
    );
    link.fields.insert("fallback".into(), text());
    let mut native = Node::new(Shape::Object);
    native.fields.insert("ver".into(), text());
    native
        .fields
        .insert("assets".into(), Node::new(Shape::List(Box::new(asset))));
    native.fields.insert("link".into(), link);
    native.fields.insert(
        "eventtrackers".into(),
        Node::new(Shape::List(Box::new(Node::open_object()))),
    );
    native.fields.insert(
        "imptrackers".into(),
        Node::new(Shape::List(Box::new(text()))),
    );
    native.fields.insert("jstracker".into(), text());
    native.fields.insert("privacy".into(), text());
    let mut top = Node::new(Shape::Object);
    top.fields.insert("native".into(), native);
    top
}

/// The bid request: its tables (untyped), and the native request inside
/// `imp[].native.request`.
pub fn request(objects: &[ObjectTable], native: Option<&NativeRequest>) -> Node {
    let mut root = tables(objects, false);
    if let Some(native) = native {
        let mut doc = Node::new(Shape::Object);
        for f in &native.fields {
            doc.fields.insert(f.name.clone(), Node::new(Shape::Any));
        }
        let mut asset = Node::new(Shape::Object);
        asset.fields.insert("id".into(), Node::new(Shape::Integer));
        asset
            .fields
            .insert("required".into(), Node::new(Shape::Integer));
        for a in &native.assets {
            asset.fields.insert(a.element.clone(), Node::open_object());
        }
        doc.fields
            .insert("assets".into(), Node::new(Shape::List(Box::new(asset))));
        let steps = [
            Step::Field { name: "imp".into() },
            Step::Each,
            Step::Field {
                name: "native".into(),
            },
        ];
        let holder = node_at(&mut root, &steps);
        let field = holder
            .fields
            .entry("request".into())
            .or_insert_with(|| Node::new(Shape::String));
        field.shape = Shape::String;
        field.json = Some(Box::new(doc));
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bidrules::data::FieldRow;

    fn table(path: &str, fields: &[(&str, &str)]) -> ObjectTable {
        ObjectTable {
            id: path.rsplit('.').next().unwrap_or("x").to_lowercase(),
            path: path.into(),
            fields: fields
                .iter()
                .map(|(n, t)| FieldRow {
                    name: n.to_string(),
                    ty: (!t.is_empty()).then(|| t.to_string()),
                    required: Some(false),
                })
                .collect(),
        }
    }

    fn fields(steps: &str) -> Vec<Step> {
        steps
            .split('.')
            .flat_map(|p| match p.strip_suffix("[]") {
                Some(n) => vec![Step::Field { name: n.into() }, Step::Each],
                None => vec![Step::Field { name: p.into() }],
            })
            .collect()
    }

    fn tables() -> Node {
        response(
            &[
                table(
                    "BidResponse",
                    &[("id", "string"), ("seatbid", "array of SeatBid")],
                ),
                table("BidResponse.seatbid[0]", &[("bid", "array of Bid")]),
                table(
                    "BidResponse.seatbid[0].bid[0]",
                    &[
                        ("adm", "string"),
                        ("ext", "object"),
                        ("ext.skadn", "object"),
                        ("cat", "array of string"),
                    ],
                ),
                table(
                    "BidResponse.seatbid[0].bid[0].ext.skadn",
                    &[("version", "string"), ("skoverlay", "object")],
                ),
            ],
            &[NativeAsset {
                id: 1,
                element: "title.text".into(),
            }],
        )
    }

    #[test]
    fn known_paths_resolve_and_json_is_read_through() {
        let root = tables();
        let (steps, node) = resolve(
            &root,
            &fields("seatbid[].bid[].ext.skadn.version"),
            "response",
        )
        .unwrap();
        assert_eq!(steps.len(), 7);
        assert!(matches!(node.shape, Shape::String));
        let (steps, _) = resolve(
            &root,
            &fields("seatbid[].bid[].adm.native.assets[].title.text"),
            "response",
        )
        .unwrap();
        assert_eq!(steps[5], Step::Json);
        // An object the tables do not detail takes any field.
        assert!(
            resolve(
                &root,
                &fields("seatbid[].bid[].ext.skadn.skoverlay.position"),
                "response"
            )
            .is_ok()
        );
        let mut xml = fields("seatbid[].bid[].adm");
        xml.push(Step::Descendant {
            name: "MediaFile".into(),
        });
        xml.push(Step::Attribute {
            name: "type".into(),
        });
        assert!(resolve(&root, &xml, "response").is_ok());
    }

    #[test]
    fn unknown_and_misused_paths_are_explained() {
        let root = tables();
        let e = resolve(
            &root,
            &fields("seatbid[].bid[].ext.skadn.verison"),
            "response",
        )
        .unwrap_err();
        assert_eq!(e.step, 6);
        assert!(
            e.message
                .contains("`verison` is not a field of `response.seatbid[].bid[].ext.skadn`"),
            "{e:?}"
        );
        assert_eq!(e.hint, "did you mean `version`?");
        let e = resolve(&root, &fields("seatbid.bid"), "response").unwrap_err();
        assert!(e.message.contains("is a list"), "{e:?}");
        assert_eq!(
            e.hint,
            "write response.seatbid[].bid (every element) or response.seatbid[0].bid"
        );
        let e = resolve(
            &root,
            &[Step::Field { name: "id".into() }, Step::Each],
            "response",
        )
        .unwrap_err();
        assert!(e.message.contains("not a list"), "{e:?}");
        let mut x = fields("seatbid[].bid[].cat");
        x.push(Step::Child {
            name: "VAST".into(),
        });
        assert!(
            resolve(&root, &x, "response")
                .unwrap_err()
                .message
                .contains("holds no XML")
        );
    }

    #[test]
    fn request_tables_nest_by_their_paths() {
        let root = request(
            &[
                table(
                    "BidRequest",
                    &[("id", ""), ("imp", ""), ("regs.ext.gdpr", "")],
                ),
                table(
                    "BidRequest.imp[0]",
                    &[("video", ""), ("ext.skadn.skadnetids", "")],
                ),
                table("BidRequest.imp[0].video", &[("mimes", ""), ("w", "")]),
            ],
            None,
        );
        let ok = |p: &str| resolve(&root, &fields(p), "request").is_ok();
        assert!(ok("imp[].video.mimes"));
        assert!(ok("imp[].ext.skadn.skadnetids"));
        assert!(ok("regs.ext.gdpr"));
        assert!(!ok("imp.video"));
        assert!(!ok("imp[].video.maxbitrate"));
        let mut first = fields("imp");
        first.push(Step::Index { index: 0 });
        first.extend(fields("video.w"));
        assert!(resolve(&root, &first, "request").is_ok());
    }

    #[test]
    fn table_types_are_read() {
        assert_eq!(
            declared_type("array of string").unwrap().text(),
            "array of string"
        );
        assert_eq!(
            declared_type("array of Bid").unwrap().text(),
            "array of object"
        );
        assert_eq!(declared_type("float").unwrap().text(), "float");
        assert!(declared_type("banana").is_none());
        assert_eq!(
            table_steps("BidResponse.seatbid[0].bid[0].ext.skadn")
                .unwrap()
                .len(),
            6
        );
        assert!(table_steps("BidResponse.a[x]").is_none());
    }
}

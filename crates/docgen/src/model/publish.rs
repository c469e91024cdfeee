//! Data files published as JSON documents (the app's `docs/v1/...` calls), per `site.yaml`.

use crate::config::site::Publish;
use crate::diagnostics::Diagnostic;

/// The documents one `publish` entry makes: (output path, JSON).
pub fn documents(
    p: &Publish,
    data: &std::collections::BTreeMap<String, yaml_serde::Value>,
) -> Result<Vec<(String, String)>, Diagnostic> {
    let err = |msg: String, hint: &str| {
        Diagnostic::new("publish.bad-data", msg)
            .in_file("site.yaml")
            .hint(hint)
    };
    let mut parts = p.data.split('.');
    let file = parts.next().unwrap_or("");
    let mut value = data.get(file).ok_or_else(|| {
        err(
            format!("publish: no data named `{file}`"),
            "name a file under content/data/ without .yaml",
        )
    })?;
    for key in parts {
        value = value.get(key).ok_or_else(|| {
            err(
                format!("publish: `{}` has no key `{key}`", p.data),
                "fix the key path",
            )
        })?;
    }
    let wrap = |v: &yaml_serde::Value| -> String {
        let mut m = serde_json::Map::new();
        m.insert(
            p.field.clone(),
            serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
        );
        serde_json::to_string(&m).expect("serializable")
    };
    let Some(id_key) = &p.each else {
        return Ok(vec![(p.path.clone(), wrap(value))]);
    };
    let list = value.as_sequence().ok_or_else(|| {
        err(
            format!("publish: `{}` is not a list", p.data),
            "`each` publishes one document per list item",
        )
    })?;
    let placeholder = format!("{{{id_key}}}");
    if !p.path.contains(&placeholder) {
        return Err(err(
            format!("publish: the path `{}` has no `{placeholder}`", p.path),
            "put the item's id into the path",
        ));
    }
    let mut docs = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let id = item
            .get(id_key.as_str())
            .and_then(|v| {
                v.as_str()
                    .map(str::to_string)
                    .or_else(|| v.as_i64().map(|n| n.to_string()))
            })
            .ok_or_else(|| {
                err(
                    format!("publish: item {} of `{}` has no `{id_key}`", i + 1, p.data),
                    "give every item an id",
                )
            })?;
        if id.contains(['/', '\\']) || id.starts_with('.') {
            return Err(err(
                format!("publish: the id `{id}` is not a file name"),
                "ids may not contain slashes or start with a dot",
            ));
        }
        let content = item.get("entries").unwrap_or(item);
        docs.push((p.path.replace(&placeholder, &id), wrap(content)));
    }
    Ok(docs)
}

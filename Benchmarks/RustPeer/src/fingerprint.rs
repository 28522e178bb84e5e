// The summary of a decoded item-store document that plist-bench's Fingerprint.swift computes for
// every system, computed here from the crate's results and compared with the reference the parent
// hands over (Foundation's reading of the binary document), as JSON in `--references`.

use crate::store::ItemStore;
use plist::Value;
use serde::Deserialize;
use std::fmt;

#[derive(Deserialize, PartialEq, Debug, Default)]
pub struct Fingerprint {
    pub items: i64,
    pub categories: i64,
    #[serde(rename = "idSum")]
    pub id_sum: i64,
    #[serde(rename = "tagCount")]
    pub tag_count: i64,
    #[serde(rename = "notesCount")]
    pub notes_count: i64,
    #[serde(rename = "notesUTF8Bytes")]
    pub notes_utf8_bytes: i64,
    #[serde(rename = "thumbnailBytes")]
    pub thumbnail_bytes: i64,
    #[serde(rename = "parentCount")]
    pub parent_count: i64,
    #[serde(rename = "lastName")]
    pub last_name: String,
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "items {}, categories {}, id sum {}, tags {}, notes {} ({} UTF-8 bytes), thumbnail bytes {}, parents {}, last name {:?}",
            self.items, self.categories, self.id_sum, self.tag_count, self.notes_count,
            self.notes_utf8_bytes, self.thumbnail_bytes, self.parent_count, self.last_name
        )
    }
}

impl Fingerprint {
    /// From the crate's `Value` tree.
    pub fn of_value(root: &Value) -> Result<Fingerprint, String> {
        let root = root.as_dictionary().ok_or("the root is not a dictionary")?;
        let items = root.get("items").and_then(Value::as_array).ok_or("no items array")?;
        let categories = root.get("categories").and_then(Value::as_array).ok_or("no categories array")?;
        let mut print = Fingerprint {
            items: items.len() as i64,
            categories: categories.len() as i64,
            ..Fingerprint::default()
        };
        for item in items {
            let item = item.as_dictionary().ok_or("an item is not a dictionary")?;
            let field = |key: &str| item.get(key).ok_or(format!("an item lacks {}", key));
            let id = field("id")?.as_signed_integer().ok_or("an id is not an integer")?;
            let name = field("name")?.as_string().ok_or("a name is not a string")?;
            let tags = field("tags")?.as_array().ok_or("tags is not an array")?;
            let thumbnail = field("thumbnail")?.as_data().ok_or("a thumbnail is not data")?;
            print.id_sum = print.id_sum.wrapping_add(id);
            print.tag_count += tags.len() as i64;
            print.thumbnail_bytes += thumbnail.len() as i64;
            if let Some(notes) = item.get("notes").and_then(Value::as_string) {
                print.notes_count += 1;
                print.notes_utf8_bytes += notes.len() as i64;
            }
            if item.contains_key("parentID") {
                print.parent_count += 1;
            }
            print.last_name = name.to_string();
        }
        Ok(print)
    }

    /// From the serde structs.
    pub fn of_store(store: &ItemStore) -> Fingerprint {
        let mut print = Fingerprint {
            items: store.items.len() as i64,
            categories: store.categories.len() as i64,
            ..Fingerprint::default()
        };
        for item in &store.items {
            print.id_sum = print.id_sum.wrapping_add(item.id);
            print.tag_count += item.tags.len() as i64;
            print.thumbnail_bytes += item.thumbnail.0.len() as i64;
            if let Some(notes) = &item.notes {
                print.notes_count += 1;
                print.notes_utf8_bytes += notes.len() as i64;
            }
            if item.parent_id.is_some() {
                print.parent_count += 1;
            }
            print.last_name = item.name.clone();
        }
        print
    }
}

// The item-store documents (Tests/Fixtures/bench/gen_data.py) as serde structs: the same shape as
// Benchmarks/Sources/plist-bench/ItemStore.swift. Optional fields are the ones the generator
// leaves out for some items (`notes`, `parentID`).

use plist::Date;
use serde::de::{Deserializer, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A property-list `<data>` value. The plist crate 1.3 has no data type of its own for serde, and
/// serde writes a `Vec<u8>` as an array of integers: this wrapper goes through
/// `serialize_bytes` / `deserialize_byte_buf`, which the crate maps to data.
#[derive(Debug, Clone)]
pub struct Bytes(pub Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Bytes;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("property-list data")
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Bytes, E> {
        Ok(Bytes(bytes.to_vec()))
    }

    fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<Bytes, E> {
        Ok(Bytes(bytes))
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Bytes, D::Error> {
        deserializer.deserialize_byte_buf(BytesVisitor)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemStore {
    pub version: i64,
    pub generated_at: Date,
    pub config: Config,
    pub categories: Vec<Category>,
    pub items: Vec<Item>,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Config {
    pub app_name: String,
    pub build: String,
    pub debug: bool,
    pub features: BTreeMap<String, bool>,
    pub limits: BTreeMap<String, i64>,
    pub servers: Vec<Server>,
    pub localized: BTreeMap<String, String>,
    pub ratios: Vec<f64>,
    pub blob: Bytes,
    pub updated_at: Date,
}

#[derive(Serialize, Deserialize)]
pub struct Server {
    pub host: String,
    pub port: i64,
    pub weights: Vec<f64>,
    pub enabled: bool,
}

#[derive(Serialize, Deserialize)]
pub struct Category {
    pub name: String,
    pub code: i64,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    pub id: i64,
    pub name: String,
    pub serial_number: String,
    pub value_in_dollars: i64,
    pub price: f64,
    pub in_stock: bool,
    pub date_created: Date,
    pub tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    pub thumbnail: Bytes,
    pub dimensions: Dimensions,
    pub ratings: Vec<i64>,
    pub attributes: BTreeMap<String, String>,
    #[serde(rename = "parentID", skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<i64>,
}

#[derive(Serialize, Deserialize)]
pub struct Dimensions {
    pub width: f64,
    pub height: f64,
    pub depth: f64,
}

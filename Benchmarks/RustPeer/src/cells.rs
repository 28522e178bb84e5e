// The peer's systems and their benchmark cells: what one timed iteration runs.

use crate::fingerprint::Fingerprint;
use crate::store::ItemStore;
use plist::Value;
use std::io::Cursor;

#[derive(Clone, Copy, PartialEq)]
pub enum System {
    /// `plist::Value::from_reader` / `to_writer_binary` / `to_writer_xml`.
    Plain,
    /// `plist::from_reader` / `plist::to_writer_binary` / `plist::to_writer_xml` with the item-store structs.
    Serde,
}

impl System {
    pub fn parse(name: &str) -> Option<System> {
        match name {
            "rust-plist" => Some(System::Plain),
            "rust-serde" => Some(System::Serde),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
pub enum Format {
    Binary,
    Xml,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Binary => "bplist",
            Format::Xml => "xml",
        }
    }
}

/// One benchmark: an operation (decode or encode) on a format, named as plist-bench names it.
#[derive(Clone, Copy)]
pub struct Benchmark {
    pub encode: bool,
    pub format: Format,
}

impl Benchmark {
    pub fn parse(name: &str) -> Option<Benchmark> {
        let (operation, format) = name.split_once('-')?;
        let format = match format {
            "binary" => Format::Binary,
            "xml" => Format::Xml,
            _ => return None,
        };
        match operation {
            "decode" => Some(Benchmark { encode: false, format }),
            "encode" => Some(Benchmark { encode: true, format }),
            _ => None,
        }
    }
}

/// A prepared cell: `run` is one timed iteration, returning the item count (decode) or the
/// output's size (encode); `expected` is what a decode must return.
pub struct Cell {
    pub run: Box<dyn FnMut() -> Result<i64, String>>,
    pub expected: Option<i64>,
    /// An encoder's output, kept from the untimed check run for the parent to read back.
    pub output: Option<Vec<u8>>,
}

pub fn decode_value(bytes: &[u8], format: Format) -> Result<Value, String> {
    match format {
        Format::Binary => Value::from_reader(Cursor::new(bytes)),
        Format::Xml => Value::from_reader_xml(Cursor::new(bytes)),
    }
    .map_err(|error| error.to_string())
}

pub fn decode_store(bytes: &[u8], format: Format) -> Result<ItemStore, String> {
    match format {
        Format::Binary => plist::from_reader(Cursor::new(bytes)),
        Format::Xml => plist::from_reader_xml(Cursor::new(bytes)),
    }
    .map_err(|error| error.to_string())
}

fn item_count(value: &Value) -> i64 {
    value
        .as_dictionary()
        .and_then(|root| root.get("items"))
        .and_then(Value::as_array)
        .map_or(-1, |items| items.len() as i64)
}

fn encode_value(value: &Value, format: Format) -> Result<Vec<u8>, String> {
    let mut output = Vec::new();
    match format {
        Format::Binary => value.to_writer_binary(&mut output),
        Format::Xml => value.to_writer_xml(&mut output),
    }
    .map_err(|error| error.to_string())?;
    Ok(output)
}

fn encode_store(store: &ItemStore, format: Format) -> Result<Vec<u8>, String> {
    let mut output = Vec::new();
    match format {
        Format::Binary => plist::to_writer_binary(&mut output, store),
        Format::Xml => plist::to_writer_xml(&mut output, store),
    }
    .map_err(|error| error.to_string())?;
    Ok(output)
}

/// Decodes with `system` and returns the item count and the result (for the memory child).
pub fn decode_for_memory(system: System, bytes: &[u8], format: Format) -> Result<(i64, Box<dyn std::any::Any>), String> {
    Ok(match system {
        System::Plain => {
            let value = decode_value(bytes, format)?;
            (item_count(&value), Box::new(value))
        }
        System::Serde => {
            let store = decode_store(bytes, format)?;
            (store.items.len() as i64, Box::new(store))
        }
    })
}

/// Builds the cell after checking the system's result once, untimed: a decoder's against the
/// reference fingerprint; an encoder's output is returned in the cell for the parent to read back
/// through Foundation. Encoders write the tree decoded from `source`, the dataset's binary
/// document, as in plist-bench.
pub fn make_cell(
    system: System, benchmark: Benchmark, document: Vec<u8>, source: &[u8], expected: i64, reference: &Fingerprint,
) -> Result<Cell, String> {
    let format = benchmark.format;
    let check = |found: Fingerprint| {
        if &found == reference {
            Ok(())
        } else {
            Err(format!("decoded wrongly: got {}, expected {}", found, reference))
        }
    };
    match (system, benchmark.encode) {
        (System::Plain, false) => {
            check(Fingerprint::of_value(&decode_value(&document, format)?)?)?;
            Ok(Cell {
                run: Box::new(move || Ok(item_count(&decode_value(&document, format)?))),
                expected: Some(expected),
                output: None,
            })
        }
        (System::Serde, false) => {
            check(Fingerprint::of_store(&decode_store(&document, format)?))?;
            Ok(Cell {
                run: Box::new(move || Ok(decode_store(&document, format)?.items.len() as i64)),
                expected: Some(expected),
                output: None,
            })
        }
        (System::Plain, true) => {
            let value = decode_value(source, Format::Binary)?;
            let output = encode_value(&value, format)?;
            Ok(Cell {
                run: Box::new(move || Ok(encode_value(&value, format)?.len() as i64)),
                expected: None,
                output: Some(output),
            })
        }
        (System::Serde, true) => {
            let store = decode_store(source, Format::Binary)?;
            let output = encode_store(&store, format)?;
            Ok(Cell {
                run: Box::new(move || Ok(encode_store(&store, format)?.len() as i64)),
                expected: None,
                output: Some(output),
            })
        }
    }
}

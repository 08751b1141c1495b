//! JSON values read strictly: an object that gives a key twice is refused.
//!
//! `serde_json` keeps the last of two equal keys without a word, so
//! `{"tick":29,"tick":2,...}` would read as a command at tick 2 while a
//! person reading the file sees 29. A record must mean one thing.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// A JSON value in which no object, at any depth, repeats a key.
pub(super) struct Unique(pub Value);

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
        d.deserialize_any(UniqueVisitor).map(Unique)
    }
}

/// Builds a [`Value`] as `serde_json`'s own visitor does, but for the check.
struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Unique(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!("key {key:?} given twice")));
            }
            let Unique(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Value, String> {
        serde_json::from_str::<Unique>(text).map(|u| u.0).map_err(|e| e.to_string())
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"a":[1,-2,3.5,true,null,"x",{"b":{}}],"c":18446744073709551615,"d":-1e308}"#;
        assert_eq!(read(text), Ok(serde_json::from_str::<Value>(text).unwrap()));
    }

    #[test]
    fn a_key_given_twice_is_refused_at_any_depth() {
        assert_eq!(read(r#"{"tick":29,"tick":30}"#), Err(r#"key "tick" given twice at line 1 column 17"#.into()));
        assert!(read(r#"{"s":{"w":1,"w":1}}"#).unwrap_err().starts_with(r#"key "w" given twice"#));
        assert!(read(r#"[{"w":1},{"w":1}]"#).is_ok());
    }
}

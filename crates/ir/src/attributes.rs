//! Raw layer attributes, kept in file order, with typed accessors.
//!
//! OpenVINO IR stores every attribute as text and only the op knows its type, so
//! the IR keeps the text (which makes writing a model back exact) and each op's
//! rule reads the typed values it needs through these accessors, which fail with
//! an [`AttributeError`] that names the attribute and the text found.

/// Why an attribute could not be read as the type an op needs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttributeError {
    #[error("attribute `{key}` is missing")]
    Missing { key: String },
    #[error("attribute `{key}` = \"{value}\" is not {expected}")]
    Invalid {
        key: String,
        value: String,
        expected: &'static str,
    },
}

/// Attributes as `(name, value)` pairs in the order the file gave them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attributes {
    /// `None` when there are none. Most lists are empty (every port's, most
    /// layers' extra `<layer>` attributes), and every node holds three
    /// lists: one pointer (8 bytes) instead of an empty `Vec` (24) saves
    /// 16 bytes a list, millions of times in a large model.
    #[allow(clippy::box_collection)] // the 8-byte handle is the point
    pairs: Option<Box<Vec<(String, String)>>>,
}

impl Attributes {
    /// An empty attribute list.
    pub const fn new() -> Self {
        Attributes { pairs: None }
    }

    /// Whether there are no attributes.
    pub fn is_empty(&self) -> bool {
        self.pairs().is_empty()
    }

    fn pairs(&self) -> &[(String, String)] {
        self.pairs.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The pairs in file order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs().iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The raw text of `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs()
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `key`, replacing its value in place or appending it.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        let pairs = self.pairs.get_or_insert_with(Box::default);
        match pairs.iter_mut().find(|(k, _)| k == key) {
            Some(pair) => pair.1 = value,
            None => pairs.push((key.to_owned(), value)),
        }
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let pairs = self.pairs.as_mut()?;
        let at = pairs.iter().position(|(k, _)| k == key)?;
        let (_, value) = pairs.remove(at);
        if pairs.is_empty() {
            self.pairs = None;
        }
        Some(value)
    }

    /// The raw text of `key`, or [`AttributeError::Missing`].
    pub fn require(&self, key: &str) -> Result<&str, AttributeError> {
        self.get(key).ok_or_else(|| AttributeError::Missing {
            key: key.to_owned(),
        })
    }

    fn invalid(&self, key: &str, expected: &'static str) -> AttributeError {
        AttributeError::Invalid {
            key: key.to_owned(),
            value: self.get(key).unwrap_or_default().to_owned(),
            expected,
        }
    }

    /// `key` as an integer, `None` when absent.
    pub fn i64(&self, key: &str) -> Result<Option<i64>, AttributeError> {
        self.get(key)
            .map(|v| {
                v.trim()
                    .parse()
                    .map_err(|_| self.invalid(key, "an integer"))
            })
            .transpose()
    }

    /// `key` as a comma-separated list of integers (`"1, 1, 3"`; empty text is
    /// an empty list), `None` when absent.
    pub fn i64_list(&self, key: &str) -> Result<Option<Vec<i64>>, AttributeError> {
        let Some(text) = self.get(key) else {
            return Ok(None);
        };
        if text.trim().is_empty() {
            return Ok(Some(Vec::new()));
        }
        text.split(',')
            .map(|item| item.trim().parse::<i64>())
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
            .map_err(|_| self.invalid(key, "a comma-separated list of integers"))
    }

    /// `key` as a boolean, `None` when absent. OpenVINO reads `true`/`1` as true
    /// and *anything else* as false; this accessor accepts `true`/`false`/`1`/`0`
    /// and reports any other text as invalid so the caller can warn and fall back
    /// to OpenVINO's reading (false).
    pub fn bool(&self, key: &str) -> Result<Option<bool>, AttributeError> {
        self.get(key)
            .map(|v| match v.trim() {
                "true" | "1" => Ok(true),
                "false" | "0" => Ok(false),
                _ => Err(self.invalid(key, "a boolean (`true`, `false`, `1` or `0`)")),
            })
            .transpose()
    }
}

impl FromIterator<(String, String)> for Attributes {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        Attributes::from(iter.into_iter().collect::<Vec<_>>())
    }
}

/// The pairs themselves, kept as they are: a reader that gathered them in a
/// `Vec` (nearly always an empty one) hands it over without a collect.
impl From<Vec<(String, String)>> for Attributes {
    #[inline]
    fn from(pairs: Vec<(String, String)>) -> Self {
        Attributes {
            pairs: (!pairs.is_empty()).then(|| Box::new(pairs)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(pairs: &[(&str, &str)]) -> Attributes {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn typed_accessors() {
        let a = attrs(&[
            ("axis", "-1"),
            ("shape", "1, 1, 3"),
            ("empty", ""),
            ("b", "yes"),
        ]);
        assert_eq!(a.i64("axis"), Ok(Some(-1)));
        assert_eq!(a.i64("nope"), Ok(None));
        assert_eq!(a.i64_list("shape"), Ok(Some(vec![1, 1, 3])));
        assert_eq!(a.i64_list("empty"), Ok(Some(vec![])));
        assert!(a.i64("shape").is_err());
        assert!(matches!(a.bool("b"), Err(AttributeError::Invalid { .. })));
        assert_eq!(
            a.require("x"),
            Err(AttributeError::Missing { key: "x".into() })
        );
    }

    #[test]
    fn set_keeps_order() {
        let mut a = attrs(&[("a", "1"), ("b", "2")]);
        a.set("a", "3");
        a.set("c", "4");
        let keys: Vec<_> = a.iter().map(|(k, _)| k).collect();
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(a.remove("b").as_deref(), Some("2"));
    }

    #[test]
    fn emptied_lists_equal_empty_ones() {
        let mut a = attrs(&[("a", "1")]);
        assert_eq!(a.remove("a").as_deref(), Some("1"));
        assert_eq!(a.remove("a"), None);
        assert!(a.is_empty());
        assert_eq!(a, Attributes::new());
        assert_eq!(attrs(&[]), Attributes::new());
        a.set("b", "2");
        assert_eq!(a, attrs(&[("b", "2")]));
    }
}

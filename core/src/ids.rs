//! The ids of sessions and tool calls: two types, so that one is never passed for the other.
//!
//! Both are strings on the wire (`#[serde(transparent)]`): JSON, store rows and events carry
//! exactly the text they carried before. Only Rust code sees the difference.
//!
//! Neither type dereferences to `str`. A `Deref<Target = str>` would let `&session_id` slip
//! into any function still taking a `&str` (an action id, a message id, a grant id) without a
//! word at the call site; reading the text takes an explicit [`as_str`](SessionId::as_str).
//!
//! Constructing an id does not validate it: ids arrive from agents, hooks and HTTP paths, and
//! what those accept does not change here. The bound on session ids
//! ([`check_session_id`](crate::workspace::check_session_id)) is checked where a session is
//! stored, as before.

use std::borrow::Borrow;
use std::fmt;

use serde::{Deserialize, Serialize};

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            #[doc = concat!("The ", $what, " with this text.")]
            pub fn new(id: impl Into<String>) -> Self {
                Self(id.into())
            }

            #[doc = concat!("The ", $what, "'s text.")]
            pub fn as_str(&self) -> &str {
                &self.0
            }

            #[doc = concat!("The ", $what, "'s text, without copying it.")]
            pub fn into_string(self) -> String {
                self.0
            }

            #[doc = concat!("Whether the ", $what, " is the empty string.")]
            pub fn is_empty(&self) -> bool {
                self.0.is_empty()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.0, f)
            }
        }

        impl From<String> for $name {
            fn from(id: String) -> Self {
                Self(id)
            }
        }

        impl From<&str> for $name {
            fn from(id: &str) -> Self {
                Self(id.to_owned())
            }
        }

        impl From<&String> for $name {
            fn from(id: &String) -> Self {
                Self(id.clone())
            }
        }

        impl From<&$name> for $name {
            fn from(id: &$name) -> Self {
                id.clone()
            }
        }

        impl From<$name> for String {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        // `Hash`, `Eq` and `Ord` are derived from the one `String` field, so they agree with
        // `str`'s: a map keyed by the id can be probed with a `&str`.
        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::convert::Infallible;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Ok(Self::from(s))
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<&$name> for $name {
            fn eq(&self, other: &&$name) -> bool {
                self == *other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                &self.0 == other
            }
        }

        impl PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.0
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }

        impl PartialEq<$name> for String {
            fn eq(&self, other: &$name) -> bool {
                *self == other.0
            }
        }
    };
}

string_id!(
    /// The id of a session: one conversation of an agent, with its own settings, grants and
    /// stream of events.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use warrant_core::ids::SessionId;
    ///
    /// let id = SessionId::new("s1");
    /// assert_eq!(id, "s1");
    /// assert_eq!(serde_json::to_string(&id).unwrap(), r#""s1""#);
    ///
    /// let mut open: HashMap<SessionId, u32> = HashMap::new();
    /// open.insert(id, 3);
    /// assert_eq!(open.get("s1"), Some(&3));
    /// ```
    ///
    /// A tool call id is not a session id:
    ///
    /// ```compile_fail
    /// use warrant_core::ids::{SessionId, ToolCallId};
    ///
    /// fn messages_of(session: &SessionId) -> usize { session.as_str().len() }
    ///
    /// let call = ToolCallId::new("call_1");
    /// messages_of(&call);
    /// ```
    SessionId,
    "session id"
);

string_id!(
    /// The id of one tool call, shared by every event, record and approval about it.
    ///
    /// ```
    /// use warrant_core::ids::ToolCallId;
    ///
    /// let id: ToolCallId = serde_json::from_str(r#""call_1""#).unwrap();
    /// assert_eq!(id.as_str(), "call_1");
    /// assert_eq!(id.to_string(), "call_1");
    /// ```
    ///
    /// A session id is not a tool call id, so the two cannot be swapped in a call:
    ///
    /// ```compile_fail
    /// use warrant_core::ids::{SessionId, ToolCallId};
    ///
    /// fn complete(session: &SessionId, call: &ToolCallId) {}
    ///
    /// let session = SessionId::new("s1");
    /// let call = ToolCallId::new("call_1");
    /// complete(&call, &session);
    /// ```
    ToolCallId,
    "tool call id"
);

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, HashSet};

    use super::*;

    #[test]
    fn ids_serialize_as_the_bare_string() {
        let id = ToolCallId::new("c\"1");
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, serde_json::to_string("c\"1").unwrap());
        assert_eq!(serde_json::from_str::<ToolCallId>(&json).unwrap(), id);
    }

    #[test]
    fn sets_and_maps_of_ids_are_probed_with_str() {
        let set: HashSet<SessionId> = ["a", "b"].into_iter().map(SessionId::from).collect();
        assert!(set.contains("a"));
        let map: BTreeMap<ToolCallId, u8> = [(ToolCallId::from("c"), 1)].into();
        assert_eq!(map.get("c"), Some(&1));
    }

    #[test]
    fn ids_compare_with_strings_both_ways_and_debug_like_strings() {
        let id = SessionId::new("s");
        let owned = String::from("s");
        assert_eq!(id, "s");
        assert_eq!("s", id);
        assert_eq!(id, *"s");
        assert_eq!(owned, id);
        assert_eq!(id, owned);
        assert_eq!(format!("{id:?}"), "\"s\"");
        assert_eq!(id.clone().into_string(), "s");
    }
}

//! One definition for every stable code enum: the variants with their wire names, from which
//! the serde names, [`as_str`](crate::finding::RuleId::as_str), `from_name`, `ALL` and
//! `Display` are generated, so no enum hand-writes a name table.

/// `codes! { /// doc  Name { /// doc  Variant => "wire", ... } }`
macro_rules! codes {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $wire:literal,)* }) => {
        $(#[$meta])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash,
            ::serde::Serialize, ::serde::Deserialize, ::schemars::JsonSchema,
        )]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $wire)] $variant,)*
        }

        impl $name {
            /// Every code, in declaration order.
            pub const ALL: &'static [Self] = &[$(Self::$variant,)*];

            /// The stable wire name.
            #[must_use]
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $wire,)* }
            }

            /// The code with this wire name.
            #[must_use]
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($wire => Some(Self::$variant),)* _ => None }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use codes;

/// `code_union! { /// doc  Name { /// doc  Variant(Table), ... } "schema description" }`: a code
/// that may come from several [`codes!`] tables (each name in one of them), with a variant
/// `Other` for a name no table holds (read from a store another version wrote). It has no name
/// table of its own: `as_str` and `from_name` defer to the tables, and on the wire it is the
/// plain name.
macro_rules! code_union {
    (
        $(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident($table:ty),)* }
        $description:literal
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant($table),)*
            /// A name this version does not know: read from a stored entry another version wrote.
            Other(String),
        }

        impl $name {
            /// The code with this wire name; a name no table holds is `Other`.
            #[must_use]
            pub fn from_name(name: &str) -> Self {
                $(if let Some(code) = <$table>::from_name(name) {
                    return Self::$variant(code);
                })*
                Self::Other(name.to_owned())
            }

            /// The stable wire name.
            #[must_use]
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant(code) => code.as_str(),)*
                    Self::Other(name) => name,
                }
            }
        }

        $(impl From<$table> for $name {
            fn from(code: $table) -> Self {
                Self::$variant(code)
            }
        })*

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let name = ::std::borrow::Cow::<str>::deserialize(deserializer)?;
                Ok(Self::from_name(&name))
            }
        }

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                let tables = [$(generator.subschema_for::<$table>(),)*];
                ::schemars::json_schema!({ "description": $description, "anyOf": tables })
            }
        }
    };
}

pub(crate) use code_union;

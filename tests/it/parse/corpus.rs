//! Real corpora.

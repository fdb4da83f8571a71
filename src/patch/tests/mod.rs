//! Unit tests of the parser and renderer, by area.

mod accept;

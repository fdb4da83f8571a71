//! Unit tests of the contract module, one file per area.

mod arg;

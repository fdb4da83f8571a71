//! Unit tests of the contract module, one file per area.

mod agent;
mod arg;
mod executor;
mod reply;
mod sanitize;

//! `dead browse`'s screen: its state ([`state`]), its keys ([`keys`]), its drawing ([`draw`]),
//! and the terminal it takes and always gives back ([`terminal`]).

pub mod draw;
pub mod keys;
pub mod state;
pub mod terminal;

#[cfg(test)]
mod tests;

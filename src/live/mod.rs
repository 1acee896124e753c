//! Reading the live broker for the commands, between them and `broker/`: a logical queue's live
//! topology ([`inspect`]), and the dead letters of a `q.dead` as the commands scan them
//! ([`scan`]).

pub mod dead_measures;
pub mod inspect;
pub mod scan;
pub mod unreadable;

//! Reading the live broker for the commands, between them and `broker/`: a logical queue's live
//! topology ([`topology`]), and the dead letters of a `q.dead` as the commands scan them
//! ([`dead`]).

pub mod check;
pub mod dead;
pub mod topology;

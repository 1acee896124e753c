//! The only place that talks to RabbitMQ: AMQP through lapin, and the management HTTP API.

pub mod acker;
pub mod addresses;
pub mod amqp;
pub mod api;
pub mod api_objects;
pub mod convert;
pub mod delete;
pub mod limits;
pub mod message_size;
pub mod peek;
pub mod permissions;
pub mod policies;
mod probe;
pub mod publish;
pub mod queue_kind;
pub mod server_properties;
pub mod session;
pub mod tls_clients;
pub mod user_id;
pub mod watch;

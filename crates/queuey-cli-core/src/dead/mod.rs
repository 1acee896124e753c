//! Dead letters: what they are (pure decoding of a delivery and of the queuey envelope in its
//! body), which ones a command acts on (filters, grouping), what a replayed copy carries. The I/O that reads them from the broker lives in `broker::peek`.

pub mod copy_refusal;
pub mod decode;
pub mod edit;
pub mod envelope;
pub mod export;
pub mod filter;
pub mod json_text;
pub mod ledger;
pub mod number;
pub mod peek;
pub mod pointer;
pub mod replay;
pub mod report;
pub mod requeue_order;
pub mod scan_summary;
pub mod target_room;
pub mod thresholds;
pub mod typed_key;
pub mod value;

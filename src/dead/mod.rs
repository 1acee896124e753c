//! Dead letters: what they are (pure decoding of a delivery), which ones a command acts on
//! (filters, grouping). The I/O that reads them from the broker lives in `broker::peek`.

pub mod decode;
pub mod filter;
pub mod replay;
pub mod value;

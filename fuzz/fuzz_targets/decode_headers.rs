//! Feeds arbitrary bytes, parsed as an AMQP field table exactly as lapin parses a delivery's
//! headers, through everything queuey does with a dead letter's headers: the decoder, the
//! JSON forms, the export round trip, the `dead show` rendering and the terminal sanitiser.
//! None of it may panic.
//!
//! Run: `RUSTC_BOOTSTRAP=1 cargo fuzz run decode_headers -- -max_total_time=600`
//! (cargo fuzz needs nightly features; RUSTC_BOOTSTRAP lets the stable toolchain build it).
#![no_main]

use lapin::types::parsing::{parse_field_array, parse_field_table};
use libfuzzer_sys::fuzz_target;
use queuey_cli::broker::convert::{table_from_amqp, value_from_amqp};
use queuey_cli::dead::export::export_record;
use queuey_cli::output::show::{ShowLayout, render_body, render_show};
use queuey_cli::dead::decode::{Message, X_DEATH, body_preview, decode};
use queuey_cli::dead::value::{Properties, Table, Value, table_from_typed_json, table_to_typed_json};
use queuey_cli::topology::RabbitMqOptions;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    // Mode 0: the bytes are an x-death array; otherwise a whole header table.
    let headers: Table = if mode == 0 {
        let Ok((_, array)) = parse_field_array(rest) else {
            return;
        };
        let mut t = Table::new();
        t.insert(X_DEATH.to_owned(), value_from_amqp(&lapin::types::AMQPValue::FieldArray(array)));
        t
    } else {
        let Ok((_, table)) = parse_field_table(rest) else {
            return;
        };
        table_from_amqp(&table)
    };
    let message = Message {
        properties: Properties {
            headers: Some(headers.clone()),
            timestamp: Some(u64::from(mode) << 32),
            ..Properties::default()
        },
        body: rest.to_vec(),
        ..Message::default()
    };
    for queue in ["q", "", "q.deferred.1"] {
        let dl = decode(&message, queue, &RabbitMqOptions::default());
        let record = export_record("q.dead", "/", 1, &message, &dl);
        let _ = serde_json::to_string(&record).expect("an export record always serialises");
        let _ = render_show("q.dead", 1, 1, &message, &dl, u64::MAX, &ShowLayout::whole());
        // A screenful of a terminal too.
        let _ = render_show("q.dead", 1, 1, &message, &dl, u64::MAX, &ShowLayout { screen: Some((2, 20)), ..ShowLayout::whole() });
    }
    let _ = render_body(rest, Some("application/json"));
    let _ = body_preview(rest, 40);
    // The typed JSON form reads back to the same table (compared as JSON: NaN != NaN).
    let typed = table_to_typed_json(&headers);
    let text = serde_json::to_string(&typed).expect("typed JSON serialises");
    let back = table_from_typed_json(&serde_json::from_str(&text).expect("it parses")).expect("it reads back");
    assert_eq!(table_to_typed_json(&back), typed);
    for v in headers.values() {
        let _ = queuey_cli::output::sanitize::sanitize(&Value::display(v));
    }
});

//! The clock: the one place queuey reads the time of day from (ages, run stamps, journal
//! lines, file names, deadlines of a hold queue's return).

/// Now, in seconds since the epoch (0 before 1970).
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Now, in milliseconds since the epoch (`None` before 1970).
pub fn now_millis() -> Option<i64> {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    i64::try_from(d.as_millis()).ok()
}

/// A name no other run of queuey gives anything (a random UUID): a replay's or an edit's run
/// id, the routing key of a write check.
pub fn unique_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

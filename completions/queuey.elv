
use builtin;
use str;

set edit:completion:arg-completer[queuey] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'queuey'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'queuey'= {
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand args 'Print the queues of a logical queue and their computed arguments (offline)'
            cand declare 'Create q and q.dead with their computed arguments (idempotent)'
            cand verify 'Compare the live topology with the computed one, changing nothing (a CI gate)'
            cand holds 'Hold queues (q.deferred.{ttl_ms}): list the live ones'
            cand status 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift'
            cand dead 'Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)'
            cand ping 'Check that the broker answers over AMQP and over the management API'
            cand completions 'Print a shell completion script to stdout'
            cand generate-assets 'Write the completions and man pages into DIR/completions and DIR/man'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;args'= {
            cand --delay 'A retry or delayed-enqueue delay: adds the hold queue it waits in (retry granularity)'
            cand --defer 'A deferral delay: adds the hold queue it waits in (deferral granularity)'
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --retry-granularity 'Rounding step of retry and delayed-enqueue delays [default: 1s]'
            cand --deferred-granularity 'Rounding step of deferral delays [default: 1s]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --all 'Every queue in the topology file'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;declare'= {
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --retry-granularity 'Rounding step of retry and delayed-enqueue delays [default: 1s]'
            cand --deferred-granularity 'Rounding step of deferral delays [default: 1s]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --all 'Every queue in the topology file'
            cand --dry-run 'Change nothing: print the plan (create, in sync or drift per queue)'
            cand --allow-unlisted 'Create queues the topology file does not list, with its [defaults] (without this flag, a name missing from the file is refused: it is usually a typo)'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;verify'= {
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --retry-granularity 'Rounding step of retry and delayed-enqueue delays [default: 1s]'
            cand --deferred-granularity 'Rounding step of deferral delays [default: 1s]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --all 'Every queue in the topology file'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;holds'= {
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand ls 'List the live hold queues of q, sorted by delay, with totals (management API)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;holds;ls'= {
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;holds;help'= {
            cand ls 'List the live hold queues of q, sorted by delay, with totals (management API)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;holds;help;ls'= {
        }
        &'queuey;holds;help;help'= {
        }
        &'queuey;status'= {
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --retry-granularity 'Rounding step of retry and delayed-enqueue delays [default: 1s]'
            cand --deferred-granularity 'Rounding step of deferral delays [default: 1s]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --all 'Every queue in the topology file'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;dead'= {
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand ls 'List the dead letters in q.dead without removing any'
            cand show 'Show one dead letter whole: properties, every header with its type, x-death, the body'
            cand export 'Write dead letters as JSON lines, losslessly, without removing any'
            cand replay 'Move dead letters back to their original queue (or --to), losing none'
            cand purge 'Delete dead letters: the whole q.dead, or those matching the filters'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;dead;ls'= {
            cand --limit 'Show at most N messages (0: all)'
            cand --group-by 'Count over the whole queue by these keys instead of listing: cause, reason, job-type, original-queue, attempts, first-death-queue, first-death-reason, content-type, header:NAME'
            cand --cause 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other'
            cand --reason 'Death reason, the whole text (x-death-reason, else the newest x-death reason)'
            cand --job-type 'Job type (the envelope''s job_type)'
            cand --original-queue 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)'
            cand --attempts 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)'
            cand --older-than 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died'
            cand --newer-than 'Died more recently than this (e.g. 1h); the same age as --older-than'
            cand --header 'A header''s value (NAME=VALUE) or presence (NAME). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants'
            cand --message-id 'Message id (the message_id property)'
            cand --where 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches'
            cand --body-contains 'The raw body contains TEXT (bytes as stored, case-sensitive)'
            cand --window 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --spend-delivery-budget 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most 256, or --window if smaller'
            cand --assume-classic 'Without the management API, treat q.dead as a classic queue (as queuey declares it)'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;dead;show'= {
            cand --message-id 'The first message with this message id instead of a position'
            cand --window 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --spend-delivery-budget 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most 256, or --window if smaller'
            cand --assume-classic 'Without the management API, treat q.dead as a classic queue (as queuey declares it)'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;dead;export'= {
            cand --output-file 'Write to FILE instead of standard output'
            cand --limit 'Export at most N matching messages (0: all)'
            cand --cause 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other'
            cand --reason 'Death reason, the whole text (x-death-reason, else the newest x-death reason)'
            cand --job-type 'Job type (the envelope''s job_type)'
            cand --original-queue 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)'
            cand --attempts 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)'
            cand --older-than 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died'
            cand --newer-than 'Died more recently than this (e.g. 1h); the same age as --older-than'
            cand --header 'A header''s value (NAME=VALUE) or presence (NAME). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants'
            cand --message-id 'Message id (the message_id property)'
            cand --where 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches'
            cand --body-contains 'The raw body contains TEXT (bytes as stored, case-sensitive)'
            cand --window 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --spend-delivery-budget 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most 256, or --window if smaller'
            cand --assume-classic 'Without the management API, treat q.dead as a classic queue (as queuey declares it)'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;dead;replay'= {
            cand --to 'Send every replayed message to this queue instead of its original queue'
            cand --limit 'Replay at most N matching messages (0: all)'
            cand --rate 'Publish at most N messages per second (e.g. 500 or 500/s)'
            cand --from-file 'Replay the dead letters of an export file (`dead export`, `dead purge --archive`) instead of q.dead; nothing is removed from the file. A run that fails keeps a journal of the lines it copied, so that its rerun goes on without copying them again'
            cand --journal 'The replay journal: each copy is recorded here before it is published ("in doubt") and before its dead letter is acked (confirmed): a SHA-256 digest of the dead letter''s properties and body, the target queue, the run id and the copy''s number, flushed to disk. A rerun after a crash or a lost connection reads it first, looks in the targets for the copies in doubt, and acks without copying them again the dead letters whose copies are confirmed or found ("already copied"). It is deleted when a run ends cleanly. Default: $XDG_STATE_HOME/queuey (else ~/.local/state/queuey), one file per broker, vhost and queue'
            cand --blocked-timeout 'Stop (cleanly, exit 7) when the broker has blocked publishing (a memory or disk alarm) for this long, instead of waiting for the alarm to clear (e.g. 30s; default: wait)'
            cand --cause 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other'
            cand --reason 'Death reason, the whole text (x-death-reason, else the newest x-death reason)'
            cand --job-type 'Job type (the envelope''s job_type)'
            cand --original-queue 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)'
            cand --attempts 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)'
            cand --older-than 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died'
            cand --newer-than 'Died more recently than this (e.g. 1h); the same age as --older-than'
            cand --header 'A header''s value (NAME=VALUE) or presence (NAME). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants'
            cand --message-id 'Message id (the message_id property)'
            cand --where 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches'
            cand --body-contains 'The raw body contains TEXT (bytes as stored, case-sensitive)'
            cand --window 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand --dry-run 'Print what would go where (counts per target queue) and move nothing'
            cand --keep-attempts 'Copy each body unchanged: a job comes back on the attempt it died on (by default its envelope''s attempt is set to 1, so it gets its full retries back)'
            cand --allow-drop-head 'Publish copies into a full target whose overflow is drop-head (RabbitMQ''s default) even though each one pushes out that queue''s oldest message (dead-lettered or dropped, as the queue says). Without it such copies are not published and their dead letters stay'
            cand --spend-delivery-budget 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most 256, or --window if smaller'
            cand --assume-classic 'Without the management API, treat q.dead as a classic queue (as queuey declares it)'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;dead;purge'= {
            cand --archive 'Write every removed message to FILE (export format) before removing it'
            cand --cause 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other'
            cand --reason 'Death reason, the whole text (x-death-reason, else the newest x-death reason)'
            cand --job-type 'Job type (the envelope''s job_type)'
            cand --original-queue 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)'
            cand --attempts 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)'
            cand --older-than 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died'
            cand --newer-than 'Died more recently than this (e.g. 1h); the same age as --older-than'
            cand --header 'A header''s value (NAME=VALUE) or presence (NAME). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants'
            cand --message-id 'Message id (the message_id property)'
            cand --where 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches'
            cand --body-contains 'The raw body contains TEXT (bytes as stored, case-sensitive)'
            cand --window 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]'
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -y 'Do not ask for confirmation (for scripts)'
            cand --yes 'Do not ask for confirmation (for scripts)'
            cand --dry-run 'Count what would be removed and remove nothing'
            cand --spend-delivery-budget 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most 256, or --window if smaller'
            cand --assume-classic 'Without the management API, treat q.dead as a classic queue (as queuey declares it)'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;dead;help'= {
            cand ls 'List the dead letters in q.dead without removing any'
            cand show 'Show one dead letter whole: properties, every header with its type, x-death, the body'
            cand export 'Write dead letters as JSON lines, losslessly, without removing any'
            cand replay 'Move dead letters back to their original queue (or --to), losing none'
            cand purge 'Delete dead letters: the whole q.dead, or those matching the filters'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;dead;help;ls'= {
        }
        &'queuey;dead;help;show'= {
        }
        &'queuey;dead;help;export'= {
        }
        &'queuey;dead;help;replay'= {
        }
        &'queuey;dead;help;purge'= {
        }
        &'queuey;dead;help;help'= {
        }
        &'queuey;ping'= {
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;completions'= {
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;generate-assets'= {
            cand --url 'AMQP URL of the broker; the vhost is its path (%2f is "/")'
            cand --api-url 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]'
            cand --connect-timeout 'How long to wait for the broker to answer a connection'
            cand --config 'Topology file [default: ./queuey.toml when present]'
            cand -o 'Output format'
            cand --output 'Output format'
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;help'= {
            cand args 'Print the queues of a logical queue and their computed arguments (offline)'
            cand declare 'Create q and q.dead with their computed arguments (idempotent)'
            cand verify 'Compare the live topology with the computed one, changing nothing (a CI gate)'
            cand holds 'Hold queues (q.deferred.{ttl_ms}): list the live ones'
            cand status 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift'
            cand dead 'Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)'
            cand ping 'Check that the broker answers over AMQP and over the management API'
            cand completions 'Print a shell completion script to stdout'
            cand generate-assets 'Write the completions and man pages into DIR/completions and DIR/man'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;help;args'= {
        }
        &'queuey;help;declare'= {
        }
        &'queuey;help;verify'= {
        }
        &'queuey;help;holds'= {
            cand ls 'List the live hold queues of q, sorted by delay, with totals (management API)'
        }
        &'queuey;help;holds;ls'= {
        }
        &'queuey;help;status'= {
        }
        &'queuey;help;dead'= {
            cand ls 'List the dead letters in q.dead without removing any'
            cand show 'Show one dead letter whole: properties, every header with its type, x-death, the body'
            cand export 'Write dead letters as JSON lines, losslessly, without removing any'
            cand replay 'Move dead letters back to their original queue (or --to), losing none'
            cand purge 'Delete dead letters: the whole q.dead, or those matching the filters'
        }
        &'queuey;help;dead;ls'= {
        }
        &'queuey;help;dead;show'= {
        }
        &'queuey;help;dead;export'= {
        }
        &'queuey;help;dead;replay'= {
        }
        &'queuey;help;dead;purge'= {
        }
        &'queuey;help;ping'= {
        }
        &'queuey;help;completions'= {
        }
        &'queuey;help;generate-assets'= {
        }
        &'queuey;help;help'= {
        }
    ]
    $completions[$command]
}

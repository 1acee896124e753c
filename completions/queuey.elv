
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
            cand ping 'Check that the broker answers over AMQP and over the management API'
            cand completions 'Print a shell completion script to stdout'
            cand generate-assets 'Write the completions and man pages into DIR/completions and DIR/man'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'queuey;args'= {
            cand --delay 'A retry or delayed-enqueue delay: adds the hold queue it waits in (retry granularity)'
            cand --defer 'A deferral delay: adds the hold queue it waits in (deferral granularity)'
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 1 to 255; classic queues only'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL [default: .deferred.]'
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
            cand --max-priority 'Priority levels of q (x-max-priority), 1 to 255; classic queues only'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL [default: .deferred.]'
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
            cand -q 'No progress bars and no notes on stderr'
            cand --quiet 'No progress bars and no notes on stderr'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'queuey;verify'= {
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 1 to 255; classic queues only'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL [default: .deferred.]'
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
            cand --message-ttl 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms'
            cand --max-priority 'Priority levels of q (x-max-priority), 1 to 255; classic queues only'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL [default: .deferred.]'
            cand --retry-granularity 'Rounding step of retry and delayed-enqueue delays [default: 1s]'
            cand --deferred-granularity 'Rounding step of deferral delays [default: 1s]'
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
            cand --max-priority 'Priority levels of q (x-max-priority), 1 to 255; classic queues only'
            cand --queue-type 'Queue type of q'
            cand --delivery-limit 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead'
            cand --dead-suffix 'Suffix naming the dead-letter queue [default: .dead]'
            cand --deferred-suffix 'Infix between q and a hold queue''s TTL [default: .deferred.]'
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

# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_queuey_global_optspecs
    string join \n url= api-url= connect-timeout= timeout= tls-ca-cert= tls-cert= tls-key= config= o/output= q/quiet wide h/help V/version
end

function __fish_queuey_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_queuey_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_queuey_using_subcommand
    set -l cmd (__fish_queuey_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c queuey -n "__fish_queuey_needs_command" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_needs_command" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_needs_command" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_needs_command" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_needs_command" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_needs_command" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_needs_command" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_needs_command" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_needs_command" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_needs_command" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_needs_command" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_needs_command" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "args" -d 'Print the queues of a logical queue and their computed arguments (offline)'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "declare" -d 'Create q and q.dead with their computed arguments (idempotent)'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "verify" -d 'Compare the live topology with the computed one, changing nothing (a CI gate)'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "holds" -d 'Hold queues (q.deferred.{ttl_ms}): list the live ones, prune the idle ones'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "status" -d 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "dead" -d 'Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "ping" -d 'Check that the broker answers over AMQP and over the management API'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "generate-assets" -d 'Write the completions and man pages into DIR/completions and DIR/man'
complete -c queuey -n "__fish_queuey_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c queuey -n "__fish_queuey_using_subcommand args" -l delay -d 'A retry delay: adds the hold queue it waits in' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l defer -d 'A deferral delay: adds the hold queue it waits in' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l message-ttl -d 'Message TTL of q (x-message-ttl), e.g. 1h or 30s' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l max-priority -d 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l queue-type -d 'Queue type of q' -r -f -a "classic\t''
quorum\t''"
complete -c queuey -n "__fish_queuey_using_subcommand args" -l delivery-limit -d 'Deliveries a message of a quorum q may take before q.dead' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l retry-granularity -d 'Rounding step of retry and delayed-enqueue delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l deferred-granularity -d 'Rounding step of deferral delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand args" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand args" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand args" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand args" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand args" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand args" -l all -d 'Every queue in the topology file'
complete -c queuey -n "__fish_queuey_using_subcommand args" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand args" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand args" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand args" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l message-ttl -d 'Message TTL of q (x-message-ttl), e.g. 1h or 30s' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l max-priority -d 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l queue-type -d 'Queue type of q' -r -f -a "classic\t''
quorum\t''"
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l delivery-limit -d 'Deliveries a message of a quorum q may take before q.dead' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l retry-granularity -d 'Rounding step of retry and delayed-enqueue delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l deferred-granularity -d 'Rounding step of deferral delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand declare" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l all -d 'Every queue in the topology file'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l dry-run -d 'Change nothing: print the plan (create, in sync or drift per queue)'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l allow-unlisted -d 'Create queues the topology file does not list, with its [defaults]'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand declare" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l message-ttl -d 'Message TTL of q (x-message-ttl), e.g. 1h or 30s' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l max-priority -d 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l queue-type -d 'Queue type of q' -r -f -a "classic\t''
quorum\t''"
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l delivery-limit -d 'Deliveries a message of a quorum q may take before q.dead' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l retry-granularity -d 'Rounding step of retry and delayed-enqueue delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l deferred-granularity -d 'Rounding step of deferral delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand verify" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l all -d 'Every queue in the topology file'
complete -c queuey -n "__fish_queuey_using_subcommand verify" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand verify" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand verify" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand verify" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -f -a "ls" -d 'List the live hold queues of q, sorted by delay, with totals (management API)'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -f -a "prune" -d 'Delete the hold queues of q that are empty and unused, losing nothing to a race'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and not __fish_seen_subcommand_from ls prune help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l message-ttl -d 'Message TTL of q (x-message-ttl), e.g. 1h or 30s' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l max-priority -d 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l queue-type -d 'Queue type of q' -r -f -a "classic\t''
quorum\t''"
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l delivery-limit -d 'Deliveries a message of a quorum q may take before q.dead' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l retry-granularity -d 'Rounding step of retry and delayed-enqueue delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l deferred-granularity -d 'Rounding step of deferral delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from ls" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l message-ttl -d 'Message TTL of q (x-message-ttl), e.g. 1h or 30s' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l max-priority -d 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l queue-type -d 'Queue type of q' -r -f -a "classic\t''
quorum\t''"
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l delivery-limit -d 'Deliveries a message of a quorum q may take before q.dead' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l retry-granularity -d 'Rounding step of retry and delayed-enqueue delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l deferred-granularity -d 'Rounding step of deferral delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l all -d 'Every queue in the topology file'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l unlisted -d 'Only hold queues of delays the topology file does not list'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l drift -d 'Only hold queues whose arguments differ from those their name implies'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l dry-run -d 'Say what would be deleted and delete nothing'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -s y -l yes -d 'Do not ask for confirmation (for scripts)'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from help" -f -a "ls" -d 'List the live hold queues of q, sorted by delay, with totals (management API)'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Delete the hold queues of q that are empty and unused, losing nothing to a race'
complete -c queuey -n "__fish_queuey_using_subcommand holds; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c queuey -n "__fish_queuey_using_subcommand status" -l message-ttl -d 'Message TTL of q (x-message-ttl), e.g. 1h or 30s' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l max-priority -d 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l queue-type -d 'Queue type of q' -r -f -a "classic\t''
quorum\t''"
complete -c queuey -n "__fish_queuey_using_subcommand status" -l delivery-limit -d 'Deliveries a message of a quorum q may take before q.dead' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l retry-granularity -d 'Rounding step of retry and delayed-enqueue delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l deferred-granularity -d 'Rounding step of deferral delays [default: 1s]' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand status" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand status" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand status" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand status" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand status" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand status" -l all -d 'Every queue in the topology file'
complete -c queuey -n "__fish_queuey_using_subcommand status" -l scan -d 'Also read q.dead whole for its dead letters by cause and its oldest'
complete -c queuey -n "__fish_queuey_using_subcommand status" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand status" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand status" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "ls" -d 'List the dead letters in q.dead without removing any'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "show" -d 'Show one dead letter whole: properties, every header with its type, x-death, the body'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "export" -d 'Write dead letters as JSON lines, losslessly, without removing any'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "replay" -d 'Move dead letters back to their original queue (or --to), losing none'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "purge" -d 'Delete dead letters: the whole q.dead, or those matching the filters'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "check" -d 'Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "edit" -d 'Repair one dead letter and retry it: edit its body, publish it back, losing nothing'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "browse" -d 'Browse the dead letters on a full-screen terminal: list, groups, each one whole'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and not __fish_seen_subcommand_from ls show export replay purge check edit browse help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l limit -d 'Show at most N messages (0: all)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l group-by -d 'Count by KEY over the whole queue instead of listing (cause, reason, ...)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l cause -d 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other' -r -f -a "exhausted\t''
fatal\t''
no-handler\t''
decode\t''
malformed\t''
rejected\t''
expired\t''
maxlen\t''
delivery_limit\t''
other\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l reason -d 'Death reason, the whole text' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l job-type -d 'Job type (the envelope\'s job_type)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l original-queue -d 'Original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l attempts -d 'Attempts: N, N.., ..N or N..M (inclusive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l older-than -d 'Died longer ago than this (e.g. 7d)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l newer-than -d 'Died more recently than this (e.g. 1h)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l header -d 'A header\'s value or presence: NAME=TEXT, NAME:=KEY or NAME' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l message-id -d 'Message id (the message_id property)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l where -d 'The JSON body at a JSON Pointer equals VALUE, or is there' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l body-contains -d 'The raw body contains TEXT (bytes as stored, case-sensitive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from ls" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l message-id -d 'The first message with this message id instead of a position' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l full -d 'The whole body on a terminal too'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l output-file -d 'Write to FILE instead of standard output' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l limit -d 'Export at most N matching messages (0: all)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l cause -d 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other' -r -f -a "exhausted\t''
fatal\t''
no-handler\t''
decode\t''
malformed\t''
rejected\t''
expired\t''
maxlen\t''
delivery_limit\t''
other\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l reason -d 'Death reason, the whole text' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l job-type -d 'Job type (the envelope\'s job_type)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l original-queue -d 'Original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l attempts -d 'Attempts: N, N.., ..N or N..M (inclusive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l older-than -d 'Died longer ago than this (e.g. 7d)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l newer-than -d 'Died more recently than this (e.g. 1h)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l header -d 'A header\'s value or presence: NAME=TEXT, NAME:=KEY or NAME' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l message-id -d 'Message id (the message_id property)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l where -d 'The JSON body at a JSON Pointer equals VALUE, or is there' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l body-contains -d 'The raw body contains TEXT (bytes as stored, case-sensitive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l to -d 'Send every replayed message to this queue instead of its original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l limit -d 'Replay at most N matching messages (0: all)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l rate -d 'Publish at most N messages per second (e.g. 500 or 500/s)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l from-file -d 'Replay the dead letters of an export file instead of q.dead' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l journal -d 'The replay\'s ledger, which a rerun reads [default: in $XDG_STATE_HOME/queuey]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l after -d 'Put the jobs back after this delay (e.g. 5s, 8h), through a hold queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l blocked-timeout -d 'Stop (exit 7) when the broker has blocked publishing this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l channels -d 'Publish the copies over N channels (1 to 16), at the cost of order' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l cause -d 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other' -r -f -a "exhausted\t''
fatal\t''
no-handler\t''
decode\t''
malformed\t''
rejected\t''
expired\t''
maxlen\t''
delivery_limit\t''
other\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l reason -d 'Death reason, the whole text' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l job-type -d 'Job type (the envelope\'s job_type)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l original-queue -d 'Original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l attempts -d 'Attempts: N, N.., ..N or N..M (inclusive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l older-than -d 'Died longer ago than this (e.g. 7d)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l newer-than -d 'Died more recently than this (e.g. 1h)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l header -d 'A header\'s value or presence: NAME=TEXT, NAME:=KEY or NAME' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l message-id -d 'Message id (the message_id property)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l where -d 'The JSON body at a JSON Pointer equals VALUE, or is there' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l body-contains -d 'The raw body contains TEXT (bytes as stored, case-sensitive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l dry-run -d 'Print what would go where (counts per target queue) and move nothing'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l keep-attempts -d 'Copy each body unchanged: a job comes back on the attempt it died on'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l strip-user-id -d 'Publish the copies without the `user_id` property'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l allow-drop-head -d 'Publish into a full drop-head target, or one whose limits cannot be read'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l look-in-targets -d 'On a rerun, look in the targets for the copies in doubt of an unfinished run'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from replay" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l archive -d 'Write every removed message to FILE (export format) before removing it' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l cause -d 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other' -r -f -a "exhausted\t''
fatal\t''
no-handler\t''
decode\t''
malformed\t''
rejected\t''
expired\t''
maxlen\t''
delivery_limit\t''
other\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l reason -d 'Death reason, the whole text' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l job-type -d 'Job type (the envelope\'s job_type)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l original-queue -d 'Original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l attempts -d 'Attempts: N, N.., ..N or N..M (inclusive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l older-than -d 'Died longer ago than this (e.g. 7d)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l newer-than -d 'Died more recently than this (e.g. 1h)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l header -d 'A header\'s value or presence: NAME=TEXT, NAME:=KEY or NAME' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l message-id -d 'Message id (the message_id property)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l where -d 'The JSON body at a JSON Pointer equals VALUE, or is there' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l body-contains -d 'The raw body contains TEXT (bytes as stored, case-sensitive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -s y -l yes -d 'Do not ask for confirmation (for scripts)'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l dry-run -d 'Count what would be removed and remove nothing'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l age-from-enqueued -d 'Let --older-than remove dead letters without a death time by their enqueue time'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from purge" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l max-count -d 'Crossed when q.dead holds more than N dead letters (matching the filters)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l max-age -d 'Crossed when the oldest dead letter is older than this (e.g. 1h); reads q.dead whole' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l max-rate -d 'Crossed when dead letters arrive faster than this (e.g. 0.5 or 0.5/s), by the management API\'s statistics' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l untimed -d 'What --max-age makes of dead letters with no time at all (no x-death, timestamp or envelope; each is named): unknown (exit 11 unless crossed anyway), ignore (judge the others), fail (crossed while any is there)' -r -f -a "unknown\t''
ignore\t''
fail\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l cause -d 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other' -r -f -a "exhausted\t''
fatal\t''
no-handler\t''
decode\t''
malformed\t''
rejected\t''
expired\t''
maxlen\t''
delivery_limit\t''
other\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l reason -d 'Death reason, the whole text' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l job-type -d 'Job type (the envelope\'s job_type)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l original-queue -d 'Original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l attempts -d 'Attempts: N, N.., ..N or N..M (inclusive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l older-than -d 'Died longer ago than this (e.g. 7d)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l newer-than -d 'Died more recently than this (e.g. 1h)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l header -d 'A header\'s value or presence: NAME=TEXT, NAME:=KEY or NAME' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l message-id -d 'Message id (the message_id property)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l where -d 'The JSON body at a JSON Pointer equals VALUE, or is there' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l body-contains -d 'The raw body contains TEXT (bytes as stored, case-sensitive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l all -d 'Every queue in the topology file'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l message-id -d 'The first message with this message id instead of a position' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l set -d 'Set the JSON value at a JSON Pointer instead of opening an editor' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l archive -d 'Append the original to FILE (export format) before anything is published' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -s y -l yes -d 'Do not ask for confirmation (for scripts)'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l allow-drop-head -d 'Publish into a full drop-head target, or one whose limits cannot be read'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l limit -d 'Hold at most N dead letters in the snapshot, from the head (0: all)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l cause -d 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other' -r -f -a "exhausted\t''
fatal\t''
no-handler\t''
decode\t''
malformed\t''
rejected\t''
expired\t''
maxlen\t''
delivery_limit\t''
other\t''"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l reason -d 'Death reason, the whole text' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l job-type -d 'Job type (the envelope\'s job_type)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l original-queue -d 'Original queue' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l attempts -d 'Attempts: N, N.., ..N or N..M (inclusive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l older-than -d 'Died longer ago than this (e.g. 7d)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l newer-than -d 'Died more recently than this (e.g. 1h)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l header -d 'A header\'s value or presence: NAME=TEXT, NAME:=KEY or NAME' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l message-id -d 'Message id (the message_id property)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l where -d 'The JSON body at a JSON Pointer equals VALUE, or is there' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l body-contains -d 'The raw body contains TEXT (bytes as stored, case-sensitive)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l quorum-at-risk -d 'On a quorum q.dead: the most messages a crash could lose' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l window -d 'Messages in flight at most, per stage' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l dead-suffix -d 'Suffix naming the dead-letter queue [default: .dead]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l deferred-suffix -d 'Infix between q and a hold queue\'s TTL [default: .deferred]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l spend-delivery-budget -d 'Peek a quorum q.dead even though each peek spends a delivery of every message'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l assume-classic -d 'Without the management API, treat q.dead as a classic queue'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l retry-unreadable -d 'Read a quorum q.dead where a message queuey cannot parse was met'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from browse" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "ls" -d 'List the dead letters in q.dead without removing any'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one dead letter whole: properties, every header with its type, x-death, the body'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "export" -d 'Write dead letters as JSON lines, losslessly, without removing any'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "replay" -d 'Move dead letters back to their original queue (or --to), losing none'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "purge" -d 'Delete dead letters: the whole q.dead, or those matching the filters'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "check" -d 'Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Repair one dead letter and retry it: edit its body, publish it back, losing nothing'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "browse" -d 'Browse the dead letters on a full-screen terminal: list, groups, each one whole'
complete -c queuey -n "__fish_queuey_using_subcommand dead; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand ping" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand ping" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand ping" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand ping" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand ping" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand completions" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand completions" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand completions" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand completions" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l url -d 'AMQP URL of the broker (several for a cluster\'s nodes)' -r
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l api-url -d 'Management API URL [default: from the AMQP URL]' -r
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l connect-timeout -d 'How long to wait for the broker to answer a connection' -r
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l timeout -d 'Stop cleanly (exit 7) when the broker owes an answer this long' -r
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l tls-ca-cert -l tls-ca-cert-file -d 'PEM file of a private CA that signed the broker\'s certificate' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l tls-cert -l tls-cert-file -d 'PEM file of a client certificate, for mutual TLS (with --tls-key)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l tls-key -l tls-key-file -d 'PEM file of the client certificate\'s private key (with --tls-cert)' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l config -d 'Topology file [default: ./queuey.toml when present]' -r -F
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -s o -l output -d 'Output format' -r -f -a "table\t'A table sized to the terminal'
json\t'JSON (one document; streams print one object per line)'
prometheus\t'Prometheus text format, for node_exporter\'s textfile collector (status, dead check)'"
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -s q -l quiet -d 'No progress bars and no notes on stderr'
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -l wide -d 'Tables with every column and every value whole, however wide the terminal'
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c queuey -n "__fish_queuey_using_subcommand generate-assets" -s V -l version -d 'Print version'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "args" -d 'Print the queues of a logical queue and their computed arguments (offline)'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "declare" -d 'Create q and q.dead with their computed arguments (idempotent)'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "verify" -d 'Compare the live topology with the computed one, changing nothing (a CI gate)'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "holds" -d 'Hold queues (q.deferred.{ttl_ms}): list the live ones, prune the idle ones'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "status" -d 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "dead" -d 'Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "ping" -d 'Check that the broker answers over AMQP and over the management API'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "completions" -d 'Print a shell completion script to stdout'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "generate-assets" -d 'Write the completions and man pages into DIR/completions and DIR/man'
complete -c queuey -n "__fish_queuey_using_subcommand help; and not __fish_seen_subcommand_from args declare verify holds status dead ping completions generate-assets help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from holds" -f -a "ls" -d 'List the live hold queues of q, sorted by delay, with totals (management API)'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from holds" -f -a "prune" -d 'Delete the hold queues of q that are empty and unused, losing nothing to a race'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "ls" -d 'List the dead letters in q.dead without removing any'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "show" -d 'Show one dead letter whole: properties, every header with its type, x-death, the body'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "export" -d 'Write dead letters as JSON lines, losslessly, without removing any'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "replay" -d 'Move dead letters back to their original queue (or --to), losing none'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "purge" -d 'Delete dead letters: the whole q.dead, or those matching the filters'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "check" -d 'Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "edit" -d 'Repair one dead letter and retry it: edit its body, publish it back, losing nothing'
complete -c queuey -n "__fish_queuey_using_subcommand help; and __fish_seen_subcommand_from dead" -f -a "browse" -d 'Browse the dead letters on a full-screen terminal: list, groups, each one whole'

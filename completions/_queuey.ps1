
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'queuey' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'queuey'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'queuey' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('args', 'args', [CompletionResultType]::ParameterValue, 'Print the queues of a logical queue and their computed arguments (offline)')
            [CompletionResult]::new('declare', 'declare', [CompletionResultType]::ParameterValue, 'Create q and q.dead with their computed arguments (idempotent)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Compare the live topology with the computed one, changing nothing (a CI gate)')
            [CompletionResult]::new('holds', 'holds', [CompletionResultType]::ParameterValue, 'Hold queues (q.deferred.{ttl_ms}): list the live ones, prune the idle ones')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift')
            [CompletionResult]::new('dead', 'dead', [CompletionResultType]::ParameterValue, 'Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)')
            [CompletionResult]::new('ping', 'ping', [CompletionResultType]::ParameterValue, 'Check that the broker answers over AMQP and over the management API')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('generate-assets', 'generate-assets', [CompletionResultType]::ParameterValue, 'Write the completions and man pages into DIR/completions and DIR/man')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;args' {
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'A retry or delayed-enqueue delay: adds the hold queue it waits in (retry granularity)')
            [CompletionResult]::new('--defer', '--defer', [CompletionResultType]::ParameterName, 'A deferral delay: adds the hold queue it waits in (deferral granularity)')
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;declare' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Change nothing: print the plan (create, in sync or drift per queue)')
            [CompletionResult]::new('--allow-unlisted', '--allow-unlisted', [CompletionResultType]::ParameterName, 'Create queues the topology file does not list, with its [defaults] (without this flag, a name missing from the file is refused: it is usually a typo)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;verify' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;holds' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the live hold queues of q, sorted by delay, with totals (management API)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete the hold queues of q that are empty and unused, losing nothing to a race')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;holds;ls' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;holds;prune' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--unlisted', '--unlisted', [CompletionResultType]::ParameterName, 'Only hold queues whose delay the topology file does not list (delays and deferrals)')
            [CompletionResult]::new('--drift', '--drift', [CompletionResultType]::ParameterName, 'Only hold queues whose arguments differ from those their name implies')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be deleted and delete nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;holds;help' {
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the live hold queues of q, sorted by delay, with totals (management API)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete the hold queues of q that are empty and unused, losing nothing to a race')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;holds;help;ls' {
            break
        }
        'queuey;holds;help;prune' {
            break
        }
        'queuey;holds;help;help' {
            break
        }
        'queuey;status' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (no priorities) to 255; classic queues only. [default: 10, as the queuey library''s QueueConfig::new; none for a quorum q]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--scan', '--scan', [CompletionResultType]::ParameterName, 'Also read q.dead whole (a peek that returns every message) for its dead letters by cause and the age of its oldest (not a quorum q.dead with a delivery limit, as every one has from RabbitMQ 4.0: status never peeks one)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the dead letters in q.dead without removing any')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one dead letter whole: properties, every header with its type, x-death, the body')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write dead letters as JSON lines, losslessly, without removing any')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Move dead letters back to their original queue (or --to), losing none')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete dead letters: the whole q.dead, or those matching the filters')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Repair one dead letter and retry it: edit its body, publish it back, losing nothing')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;dead;ls' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N messages (0: all)')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'Count over the whole queue by these keys instead of listing: cause, reason, job-type, original-queue, attempts, first-death-queue, first-death-reason, content-type, header:NAME (by typed value: a string as its text, quoted when it could read as anything else, e.g. "\xff" for the byte 0xff; other types named, e.g. i32:5)')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text (x-death-reason, else the newest x-death reason)')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died, and much more for a job replayed and dead again (dead purge keeps those unless --age-from-enqueued)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h); the same age as --older-than')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT (a string of exactly TEXT, or a number or boolean written so), NAME:=KEY (exactly one typed value, as --group-by header:NAME shows it: "\xff" for the byte 0xff, i32:5), NAME (present). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;show' {
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'The first message with this message id instead of a position')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;export' {
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Write to FILE instead of standard output')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Export at most N matching messages (0: all)')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text (x-death-reason, else the newest x-death reason)')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died, and much more for a job replayed and dead again (dead purge keeps those unless --age-from-enqueued)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h); the same age as --older-than')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT (a string of exactly TEXT, or a number or boolean written so), NAME:=KEY (exactly one typed value, as --group-by header:NAME shows it: "\xff" for the byte 0xff, i32:5), NAME (present). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;replay' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Send every replayed message to this queue instead of its original queue. With --from-file, q.dead itself restores the file''s dead letters as they were (death record and attempts kept): a purge undone from its archive')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Replay at most N matching messages (0: all)')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'Publish at most N messages per second (e.g. 500 or 500/s)')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Replay the dead letters of an export file (`dead export`, `dead purge --archive`) instead of q.dead; nothing is removed from the file. A run that fails keeps a journal of the lines it copied, so that its rerun goes on without copying them again. A file whose end line is missing or says its run stopped early is read, and said incomplete; a last line cut short by a crash is left out, with a note')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The replay journal: each copy is recorded here before it is published ("in doubt") and before its dead letter is acked (confirmed): a SHA-256 digest of the dead letter''s properties and body, the target queue, the run id and the copy''s number, flushed to disk. A rerun after a crash or a lost connection reads it first, looks in the targets for the copies in doubt, and acks without copying them again the dead letters whose copies are confirmed or found ("already copied"). It is deleted when a run ends cleanly. Default: $XDG_STATE_HOME/queuey (else ~/.local/state/queuey), one file per broker, vhost and queue')
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Put the jobs back after this delay (e.g. 5s, 8h): the copies go to the hold queue the queuey library uses for that delay (q.deferred.{ttl_ms}, declared with the library''s arguments, the delay rounded up with the retry granularity), and the broker returns them to their queue when it has passed; no process stays running. At most 24d20h31m23s647ms')
            [CompletionResult]::new('--blocked-timeout', '--blocked-timeout', [CompletionResultType]::ParameterName, 'Stop (cleanly, exit 7) when the broker has blocked publishing (a memory or disk alarm) for this long, instead of waiting for the alarm to clear (e.g. 30s; default: wait)')
            [CompletionResult]::new('--channels', '--channels', [CompletionResultType]::ParameterName, 'Publish the copies over N channels, whole batches in turn (1 to 16): for a broker whose channel processes are the limit (idle cores), at the cost of order: copies bound for one queue no longer arrive in q.dead''s order (each lands at most the copies in flight away from its place). 1 keeps the order')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text (x-death-reason, else the newest x-death reason)')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died, and much more for a job replayed and dead again (dead purge keeps those unless --age-from-enqueued)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h); the same age as --older-than')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT (a string of exactly TEXT, or a number or boolean written so), NAME:=KEY (exactly one typed value, as --group-by header:NAME shows it: "\xff" for the byte 0xff, i32:5), NAME (present). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would go where (counts per target queue) and move nothing')
            [CompletionResult]::new('--keep-attempts', '--keep-attempts', [CompletionResultType]::ParameterName, 'Copy each body unchanged: a job comes back on the attempt it died on (by default its envelope''s attempt is set to 1, so it gets its full retries back)')
            [CompletionResult]::new('--strip-user-id', '--strip-user-id', [CompletionResultType]::ParameterName, 'Publish the copies without the `user_id` property. RabbitMQ takes a message whose user_id is not the connection''s user only from a user with the impersonator tag; without this flag, a dead letter carrying another user''s user_id stays in q.dead (or its line in the file), counted as failed with that user named')
            [CompletionResult]::new('--allow-drop-head', '--allow-drop-head', [CompletionResultType]::ParameterName, 'Publish copies into a full target whose overflow is drop-head (RabbitMQ''s default), or into one whose length limits cannot be read (no management API, a policy queuey cannot evaluate), even though each one may push out that queue''s oldest message (dead-lettered or dropped, as the queue says). Without it such copies are not published and their dead letters stay')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;purge' {
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Write every removed message to FILE (export format) before removing it')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text (x-death-reason, else the newest x-death reason)')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died, and much more for a job replayed and dead again (dead purge keeps those unless --age-from-enqueued)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h); the same age as --older-than')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT (a string of exactly TEXT, or a number or boolean written so), NAME:=KEY (exactly one typed value, as --group-by header:NAME shows it: "\xff" for the byte 0xff, i32:5), NAME (present). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Count what would be removed and remove nothing')
            [CompletionResult]::new('--age-from-enqueued', '--age-from-enqueued', [CompletionResultType]::ParameterName, 'Let --older-than remove dead letters that carry no death time by their job''s enqueue time. Without it they are kept, and counted: an application''s dead letter has no death time, and a job replayed and dead again a minute ago looks as old as its first enqueue')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;check' {
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Crossed when q.dead holds more than N dead letters (matching the filters)')
            [CompletionResult]::new('--max-age', '--max-age', [CompletionResultType]::ParameterName, 'Crossed when the oldest dead letter is older than this (e.g. 1h); reads q.dead whole')
            [CompletionResult]::new('--max-rate', '--max-rate', [CompletionResultType]::ParameterName, 'Crossed when dead letters arrive faster than this (e.g. 0.5 or 0.5/s), by the management API''s statistics')
            [CompletionResult]::new('--untimed', '--untimed', [CompletionResultType]::ParameterName, 'What --max-age makes of dead letters with no time at all (no x-death, timestamp or envelope; each is named): unknown (exit 11 unless crossed anyway), ignore (judge the others), fail (crossed while any is there)')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died, in one word: exhausted, fatal, no-handler, decode, malformed (the queuey library''s reasons), rejected, expired, maxlen, delivery_limit (the broker''s), other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text (x-death-reason, else the newest x-death reason)')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue (x-original-queue, else the envelope''s queue, else from x-death, else q)')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts (x-attempts, else the envelope''s attempt): N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d). Without a death time (x-death or the timestamp property; an application''s dead letter has neither), the time since the job was enqueued counts: never less than the time since it died, and much more for a job replayed and dead again (dead purge keeps those unless --age-from-enqueued)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h); the same age as --older-than')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT (a string of exactly TEXT, or a number or boolean written so), NAME:=KEY (exactly one typed value, as --group-by header:NAME shows it: "\xff" for the byte 0xff, i32:5), NAME (present). Given several times, any of them (OR), like every filter: --header tenant=acme --header tenant=globex matches both tenants')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer (RFC 6901) equals VALUE (POINTER=VALUE: VALUE is read as JSON when it parses, else as a string; numbers by value), or is there (POINTER), as in --where /payload/customer/id=42. A body that is not JSON never matches')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;edit' {
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'The first message with this message id instead of a position')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set the JSON value at a JSON Pointer instead of opening an editor (VALUE is JSON when it parses, else a string; given several times, applied in order), as in --set /payload/address="1 Main St"')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Append the original to FILE (export format) before anything is published [default: a new file in $XDG_STATE_HOME/queuey/edits, else ~/.local/state/queuey/edits]')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead with a delivery limit: the most messages on their last delivery that a crash of queuey or of its connection could lose (those arrived and not yet moved). The queue is read in rounds of half as many (the default''s, 1024, about the prefetch of the management UI''s shovel); smaller rounds are slower (a replay at 256 ran at about 0.8x the speed of one at 2048: docs/benchmarks.md)')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage: read ahead from q.dead, and in a replay the copies published but not yet acked, so copies confirmed but not yet acked never exceed the window (memory stays bounded by it, and by 64 MiB of bodies)')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL: hold queues are q + INFIX + "." + TTL in ms [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--allow-drop-head', '--allow-drop-head', [CompletionResultType]::ParameterName, 'Publish the edited copy into a full target whose overflow is drop-head (RabbitMQ''s default), or into one whose length limits cannot be read (no management API, a policy queuey cannot evaluate), even though it may push out that queue''s oldest message. Without it the original stays')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends one delivery of every message (RabbitMQ before 4.3); a message on its last delivery is moved to the back instead. On every version a crash of queuey or of its connection spends one delivery of each message held, and could lose only the messages on their last delivery that have arrived and are not yet moved: at most --quorum-at-risk, or --window if smaller')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue (as queuey declares it)')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where an earlier run on this machine met a message queuey cannot parse (a header name or property that is not UTF-8), which queuey refuses by itself: each read that meets it again closes its connection, and spends one delivery of every message it holds. A read that gets past it, or reads the whole queue, forgets it')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;help' {
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the dead letters in q.dead without removing any')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one dead letter whole: properties, every header with its type, x-death, the body')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write dead letters as JSON lines, losslessly, without removing any')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Move dead letters back to their original queue (or --to), losing none')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete dead letters: the whole q.dead, or those matching the filters')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Repair one dead letter and retry it: edit its body, publish it back, losing nothing')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;dead;help;ls' {
            break
        }
        'queuey;dead;help;show' {
            break
        }
        'queuey;dead;help;export' {
            break
        }
        'queuey;dead;help;replay' {
            break
        }
        'queuey;dead;help;purge' {
            break
        }
        'queuey;dead;help;check' {
            break
        }
        'queuey;dead;help;edit' {
            break
        }
        'queuey;dead;help;help' {
            break
        }
        'queuey;ping' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;completions' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;generate-assets' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/"). Repeat it, or separate URLs with commas, for the nodes of a cluster: the first that answers is used')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL, repeatable or comma-separated like --url [default: each AMQP address''s host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly when the broker owes an answer this long: a consume to start, a delivery from a queue that has messages ready, a publish confirmation, an ack taken, a purge (exit 7, with the counts; a rerun finishes). Default: wait (a quorum queue that lost its majority is said within seconds either way)')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of the CA that signed the broker''s certificate (amqps://, https://), trusted besides the system''s roots')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for a broker that requires mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key, unencrypted (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;help' {
            [CompletionResult]::new('args', 'args', [CompletionResultType]::ParameterValue, 'Print the queues of a logical queue and their computed arguments (offline)')
            [CompletionResult]::new('declare', 'declare', [CompletionResultType]::ParameterValue, 'Create q and q.dead with their computed arguments (idempotent)')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Compare the live topology with the computed one, changing nothing (a CI gate)')
            [CompletionResult]::new('holds', 'holds', [CompletionResultType]::ParameterValue, 'Hold queues (q.deferred.{ttl_ms}): list the live ones, prune the idle ones')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift')
            [CompletionResult]::new('dead', 'dead', [CompletionResultType]::ParameterValue, 'Inspect, export, replay and purge the dead letters of a logical queue (its q.dead)')
            [CompletionResult]::new('ping', 'ping', [CompletionResultType]::ParameterValue, 'Check that the broker answers over AMQP and over the management API')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script to stdout')
            [CompletionResult]::new('generate-assets', 'generate-assets', [CompletionResultType]::ParameterValue, 'Write the completions and man pages into DIR/completions and DIR/man')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;help;args' {
            break
        }
        'queuey;help;declare' {
            break
        }
        'queuey;help;verify' {
            break
        }
        'queuey;help;holds' {
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the live hold queues of q, sorted by delay, with totals (management API)')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete the hold queues of q that are empty and unused, losing nothing to a race')
            break
        }
        'queuey;help;holds;ls' {
            break
        }
        'queuey;help;holds;prune' {
            break
        }
        'queuey;help;status' {
            break
        }
        'queuey;help;dead' {
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the dead letters in q.dead without removing any')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one dead letter whole: properties, every header with its type, x-death, the body')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write dead letters as JSON lines, losslessly, without removing any')
            [CompletionResult]::new('replay', 'replay', [CompletionResultType]::ParameterValue, 'Move dead letters back to their original queue (or --to), losing none')
            [CompletionResult]::new('purge', 'purge', [CompletionResultType]::ParameterValue, 'Delete dead letters: the whole q.dead, or those matching the filters')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Exit 1 when dead letters cross a threshold: a gate for cron, CI and monitoring')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Repair one dead letter and retry it: edit its body, publish it back, losing nothing')
            break
        }
        'queuey;help;dead;ls' {
            break
        }
        'queuey;help;dead;show' {
            break
        }
        'queuey;help;dead;export' {
            break
        }
        'queuey;help;dead;replay' {
            break
        }
        'queuey;help;dead;purge' {
            break
        }
        'queuey;help;dead;check' {
            break
        }
        'queuey;help;dead;edit' {
            break
        }
        'queuey;help;ping' {
            break
        }
        'queuey;help;completions' {
            break
        }
        'queuey;help;generate-assets' {
            break
        }
        'queuey;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

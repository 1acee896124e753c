
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
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('--delay', '--delay', [CompletionResultType]::ParameterName, 'A retry delay: adds the hold queue it waits in')
            [CompletionResult]::new('--defer', '--defer', [CompletionResultType]::ParameterName, 'A deferral delay: adds the hold queue it waits in')
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Message TTL of q (x-message-ttl), e.g. 1h or 30s')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;declare' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Message TTL of q (x-message-ttl), e.g. 1h or 30s')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Change nothing: print the plan (create, in sync or drift per queue)')
            [CompletionResult]::new('--allow-unlisted', '--allow-unlisted', [CompletionResultType]::ParameterName, 'Create queues the topology file does not list, with its [defaults]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;verify' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Message TTL of q (x-message-ttl), e.g. 1h or 30s')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;holds' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Message TTL of q (x-message-ttl), e.g. 1h or 30s')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;holds;prune' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Message TTL of q (x-message-ttl), e.g. 1h or 30s')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--unlisted', '--unlisted', [CompletionResultType]::ParameterName, 'Only hold queues of delays the topology file does not list')
            [CompletionResult]::new('--drift', '--drift', [CompletionResultType]::ParameterName, 'Only hold queues whose arguments differ from those their name implies')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Say what would be deleted and delete nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Message TTL of q (x-message-ttl), e.g. 1h or 30s')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 0 (none) to 255 [default: 10]')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--scan', '--scan', [CompletionResultType]::ParameterName, 'Also read q.dead whole for its dead letters by cause and its oldest')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('browse', 'browse', [CompletionResultType]::ParameterValue, 'Browse the dead letters on a full-screen terminal: list, groups, each one whole')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;dead;ls' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N messages (0: all)')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'Count by KEY over the whole queue instead of listing (cause, reason, ...)')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts: N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT, NAME:=KEY or NAME')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer equals VALUE, or is there')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;show' {
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'The first message with this message id instead of a position')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'The whole body on a terminal too')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;export' {
            [CompletionResult]::new('--output-file', '--output-file', [CompletionResultType]::ParameterName, 'Write to FILE instead of standard output')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Export at most N matching messages (0: all)')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts: N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT, NAME:=KEY or NAME')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer equals VALUE, or is there')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;replay' {
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Send every replayed message to this queue instead of its original queue')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Replay at most N matching messages (0: all)')
            [CompletionResult]::new('--rate', '--rate', [CompletionResultType]::ParameterName, 'Publish at most N messages per second (e.g. 500 or 500/s)')
            [CompletionResult]::new('--from-file', '--from-file', [CompletionResultType]::ParameterName, 'Replay the dead letters of an export file instead of q.dead')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The replay''s ledger, which a rerun reads [default: in $XDG_STATE_HOME/queuey]')
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Put the jobs back after this delay (e.g. 5s, 8h), through a hold queue')
            [CompletionResult]::new('--blocked-timeout', '--blocked-timeout', [CompletionResultType]::ParameterName, 'Stop (exit 7) when the broker has blocked publishing this long')
            [CompletionResult]::new('--channels', '--channels', [CompletionResultType]::ParameterName, 'Publish the copies over N channels (1 to 16), at the cost of order')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts: N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT, NAME:=KEY or NAME')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer equals VALUE, or is there')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would go where (counts per target queue) and move nothing')
            [CompletionResult]::new('--keep-attempts', '--keep-attempts', [CompletionResultType]::ParameterName, 'Copy each body unchanged: a job comes back on the attempt it died on')
            [CompletionResult]::new('--strip-user-id', '--strip-user-id', [CompletionResultType]::ParameterName, 'Publish the copies without the `user_id` property')
            [CompletionResult]::new('--allow-drop-head', '--allow-drop-head', [CompletionResultType]::ParameterName, 'Publish into a full drop-head target, or one whose limits cannot be read')
            [CompletionResult]::new('--look-in-targets', '--look-in-targets', [CompletionResultType]::ParameterName, 'On a rerun, look in the targets for the copies in doubt of an unfinished run')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;purge' {
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Write every removed message to FILE (export format) before removing it')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts: N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT, NAME:=KEY or NAME')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer equals VALUE, or is there')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Count what would be removed and remove nothing')
            [CompletionResult]::new('--age-from-enqueued', '--age-from-enqueued', [CompletionResultType]::ParameterName, 'Let --older-than remove dead letters without a death time by their enqueue time')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts: N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT, NAME:=KEY or NAME')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer equals VALUE, or is there')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;edit' {
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'The first message with this message id instead of a position')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set the JSON value at a JSON Pointer instead of opening an editor')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Append the original to FILE (export format) before anything is published')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (for scripts)')
            [CompletionResult]::new('--allow-drop-head', '--allow-drop-head', [CompletionResultType]::ParameterName, 'Publish into a full drop-head target, or one whose limits cannot be read')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;dead;browse' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Hold at most N dead letters in the snapshot, from the head (0: all)')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'Why it died: exhausted, fatal, no-handler, decode, malformed, rejected, expired, maxlen, delivery_limit, other')
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Death reason, the whole text')
            [CompletionResult]::new('--job-type', '--job-type', [CompletionResultType]::ParameterName, 'Job type (the envelope''s job_type)')
            [CompletionResult]::new('--original-queue', '--original-queue', [CompletionResultType]::ParameterName, 'Original queue')
            [CompletionResult]::new('--attempts', '--attempts', [CompletionResultType]::ParameterName, 'Attempts: N, N.., ..N or N..M (inclusive)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Died longer ago than this (e.g. 7d)')
            [CompletionResult]::new('--newer-than', '--newer-than', [CompletionResultType]::ParameterName, 'Died more recently than this (e.g. 1h)')
            [CompletionResult]::new('--header', '--header', [CompletionResultType]::ParameterName, 'A header''s value or presence: NAME=TEXT, NAME:=KEY or NAME')
            [CompletionResult]::new('--message-id', '--message-id', [CompletionResultType]::ParameterName, 'Message id (the message_id property)')
            [CompletionResult]::new('--where', '--where', [CompletionResultType]::ParameterName, 'The JSON body at a JSON Pointer equals VALUE, or is there')
            [CompletionResult]::new('--body-contains', '--body-contains', [CompletionResultType]::ParameterName, 'The raw body contains TEXT (bytes as stored, case-sensitive)')
            [CompletionResult]::new('--quorum-at-risk', '--quorum-at-risk', [CompletionResultType]::ParameterName, 'On a quorum q.dead: the most messages a crash could lose')
            [CompletionResult]::new('--window', '--window', [CompletionResultType]::ParameterName, 'Messages in flight at most, per stage')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--spend-delivery-budget', '--spend-delivery-budget', [CompletionResultType]::ParameterName, 'Peek a quorum q.dead even though each peek spends a delivery of every message')
            [CompletionResult]::new('--assume-classic', '--assume-classic', [CompletionResultType]::ParameterName, 'Without the management API, treat q.dead as a classic queue')
            [CompletionResult]::new('--retry-unreadable', '--retry-unreadable', [CompletionResultType]::ParameterName, 'Read a quorum q.dead where a message queuey cannot parse was met')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('browse', 'browse', [CompletionResultType]::ParameterValue, 'Browse the dead letters on a full-screen terminal: list, groups, each one whole')
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
        'queuey;dead;help;browse' {
            break
        }
        'queuey;dead;help;help' {
            break
        }
        'queuey;ping' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;completions' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'queuey;generate-assets' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker (several for a cluster''s nodes)')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: from the AMQP URL]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Stop cleanly (exit 7) when the broker owes an answer this long')
            [CompletionResult]::new('--tls-ca-cert', '--tls-ca-cert', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-ca-cert-file', '--tls-ca-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a private CA that signed the broker''s certificate')
            [CompletionResult]::new('--tls-cert', '--tls-cert', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-cert-file', '--tls-cert-file', [CompletionResultType]::ParameterName, 'PEM file of a client certificate, for mutual TLS (with --tls-key)')
            [CompletionResult]::new('--tls-key', '--tls-key', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--tls-key-file', '--tls-key-file', [CompletionResultType]::ParameterName, 'PEM file of the client certificate''s private key (with --tls-cert)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No progress bars and no notes on stderr')
            [CompletionResult]::new('--wide', '--wide', [CompletionResultType]::ParameterName, 'Tables with every column and every value whole, however wide the terminal')
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
            [CompletionResult]::new('browse', 'browse', [CompletionResultType]::ParameterValue, 'Browse the dead letters on a full-screen terminal: list, groups, each one whole')
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
        'queuey;help;dead;browse' {
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


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
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('holds', 'holds', [CompletionResultType]::ParameterValue, 'Hold queues (q.deferred.{ttl_ms}): list the live ones')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift')
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
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 1 to 255; classic queues only')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred.]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 1 to 255; classic queues only')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred.]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Topology file [default: ./queuey.toml when present]')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every queue in the topology file')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Change nothing: print the plan (create, in sync or drift per queue)')
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
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 1 to 255; classic queues only')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred.]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;holds;ls' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 1 to 255; classic queues only')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred.]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
        'queuey;holds;help' {
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List the live hold queues of q, sorted by delay, with totals (management API)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'queuey;holds;help;ls' {
            break
        }
        'queuey;holds;help;help' {
            break
        }
        'queuey;status' {
            [CompletionResult]::new('--message-ttl', '--message-ttl', [CompletionResultType]::ParameterName, 'Queue-wide message TTL of q (x-message-ttl), e.g. 1h or 30s; at most 49d17h2m47s295ms')
            [CompletionResult]::new('--max-priority', '--max-priority', [CompletionResultType]::ParameterName, 'Priority levels of q (x-max-priority), 1 to 255; classic queues only')
            [CompletionResult]::new('--queue-type', '--queue-type', [CompletionResultType]::ParameterName, 'Queue type of q')
            [CompletionResult]::new('--delivery-limit', '--delivery-limit', [CompletionResultType]::ParameterName, 'Deliveries a message of a quorum q may take before it is dead-lettered to q.dead')
            [CompletionResult]::new('--dead-suffix', '--dead-suffix', [CompletionResultType]::ParameterName, 'Suffix naming the dead-letter queue [default: .dead]')
            [CompletionResult]::new('--deferred-suffix', '--deferred-suffix', [CompletionResultType]::ParameterName, 'Infix between q and a hold queue''s TTL [default: .deferred.]')
            [CompletionResult]::new('--retry-granularity', '--retry-granularity', [CompletionResultType]::ParameterName, 'Rounding step of retry and delayed-enqueue delays [default: 1s]')
            [CompletionResult]::new('--deferred-granularity', '--deferred-granularity', [CompletionResultType]::ParameterName, 'Rounding step of deferral delays [default: 1s]')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
        'queuey;ping' {
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'AMQP URL of the broker; the vhost is its path (%2f is "/")')
            [CompletionResult]::new('--api-url', '--api-url', [CompletionResultType]::ParameterName, 'Management API URL [default: the AMQP host, port 15672, same credentials, https for amqps]')
            [CompletionResult]::new('--connect-timeout', '--connect-timeout', [CompletionResultType]::ParameterName, 'How long to wait for the broker to answer a connection')
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
            [CompletionResult]::new('holds', 'holds', [CompletionResultType]::ParameterValue, 'Hold queues (q.deferred.{ttl_ms}): list the live ones')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'One screen per logical queue: depth, consumers, dead letters, hold queues, drift')
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
            break
        }
        'queuey;help;holds;ls' {
            break
        }
        'queuey;help;status' {
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

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(
        queuey_cli::deep_stack_thread::run_on_deep_stacks(queuey_cli::run).code(),
    )
}

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(queuey_cli::run().code())
}

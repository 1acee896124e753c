fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(queuey::run().code())
}

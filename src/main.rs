//! The `gamehost` binary; everything lives in the library.

fn main() -> std::process::ExitCode {
    gamehost::cli::main_with(std::env::args_os())
}

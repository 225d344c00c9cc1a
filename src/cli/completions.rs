//! `bowline completions SHELL` and `bowline man`: shell completions and the manual page, made
//! from the same definitions as the flags themselves, so they never fall behind.

use clap::Args;

use super::{print_or_quiet, Outcome};
use bowline::{Error, Result};

/// Flags of `bowline completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Prints the completion script for a shell, of the command line `command` defines.
pub fn completions(args: CompletionsArgs, mut command: clap::Command) -> Result<Outcome> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "bowline", &mut script);
    print_or_quiet(&String::from_utf8_lossy(&script))?;
    Ok(Outcome::Clean)
}

/// Prints the manual page of the command line `command` defines, in roff.
pub fn man(command: clap::Command) -> Result<Outcome> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .render(&mut page)
        .map_err(|e| Error::io("-", e))?;
    print_or_quiet(&String::from_utf8_lossy(&page))?;
    Ok(Outcome::Clean)
}

//! [`Choice`]: an enum whose values are chosen by name, as a flag or a configuration file names
//! them.

/// An enum whose values are chosen by name. Its table is the one list of the names: they parse
/// and print through it, and the `bowline` program builds its flags' possible values and their
/// help from it, so the library needs no command-line parser.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value, in the order a list of them shows: its name, a line of help saying what it
    /// is (without a final period), and the value. Each value is in it once.
    const CHOICES: &'static [(&'static str, &'static str, Self)];

    /// The value of this name, if there is one.
    fn named(name: &str) -> Option<Self> {
        Self::CHOICES
            .iter()
            .find(|(each, ..)| *each == name)
            .map(|&(.., value)| value)
    }

    /// The value's name.
    fn name(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|(.., value)| *value == self)
            .map_or("", |&(name, ..)| name)
    }
}

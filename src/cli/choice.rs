//! Flags whose values are a library [`Choice`]: clap lists, completes and parses them from the
//! choice's table, so no flag repeats an enum's names.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::{Error, ErrorKind};
use clap::{Arg, Command};

use bowline::Choice;

/// The value parser of a flag that takes one of `T`'s names, each shown with its help.
pub fn choice<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

/// The parser [`choice`] makes.
#[derive(Clone)]
pub struct ChoiceParser<T>(PhantomData<fn() -> T>);

impl<T: Choice + Send + Sync> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    /// Bad values are reported by clap's parser of the names, as for any flag; one that is not
    /// UTF-8 goes to it with its bad bytes replaced, so it too is shown with the possible values.
    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, Error> {
        let names = PossibleValuesParser::new(self.possible_values().into_iter().flatten());
        let name = names.parse_ref(cmd, arg, OsStr::new(&*value.to_string_lossy()))?;
        // clap accepted a name of the table, so it is found; no flag here ignores case.
        T::named(&name).ok_or_else(|| Error::new(ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let names = T::CHOICES
            .iter()
            .map(|&(name, help, _)| PossibleValue::new(name).help(help));
        Some(Box::new(names))
    }
}

//! Where a model came from: its corpora, class sizes, bowline version and time of writing.

use serde::{Deserialize, Serialize};

/// Where a model came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainingInfo {
    /// The corpus paths it was trained (and updated) on.
    pub corpora: Vec<String>,
    /// Training documents per class, in label order.
    pub docs_per_class: Vec<u64>,
    /// The bowline version that wrote it.
    pub bowline_version: String,
    /// The configuration `train --tune` chose, when it was tuned.
    #[serde(default)]
    pub tuned: Option<Tuned>,
    /// When it was last written, UTC, as `YYYY-MM-DDTHH:MM:SSZ`. (Kept last in the file.)
    pub written: String,
}

/// What a search for the best configuration chose, and on what evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// The flags of `bowline train` that give the chosen configuration.
    pub flags: String,
    /// Its mean accuracy over the cross-validation folds of the training corpus.
    pub accuracy: f64,
    /// Configurations tried, at any share of the data.
    pub trials: u32,
    /// Cross-validation folds.
    pub folds: u32,
    /// Seconds the search took.
    pub seconds: f64,
    /// When the search kept the configuration it started from although a trial scored higher:
    /// that trial's cross-validated accuracy, not better by 1.96 standard errors of the paired
    /// difference. `None` when the chosen configuration was the best trial.
    #[serde(default)]
    pub best_not_taken: Option<f64>,
}

impl TrainingInfo {
    /// Provenance of a model written now by this bowline from `corpora`.
    pub fn now(corpora: Vec<String>, docs_per_class: Vec<u64>) -> Self {
        TrainingInfo {
            corpora,
            docs_per_class,
            bowline_version: env!("CARGO_PKG_VERSION").to_string(),
            tuned: None,
            written: utc_now(),
        }
    }
}

/// The current time, UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn utc_now() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Howard Hinnant's civil-from-days: the Gregorian date of a day count since 1970-01-01.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

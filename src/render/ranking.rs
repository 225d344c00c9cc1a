//! `rank`'s listings of terms: aligned tables, or JSON.

use super::json::json_text;
use crate::classifier::Listing;
use crate::error::Result;
use crate::select::RankBy;

/// The listings and the score they are ranked by, as JSON: `{"schema_version", "by",
/// "listings": [{"class"?, "features": [{"df", "score", "term"}]}]}`. The object goes through a
/// `serde_json::Value`, whose keys are sorted: the layout `rank --json` has always had.
pub fn ranking_json(listings: &[Listing], by: RankBy) -> Result<String> {
    json_text(&serde_json::json!({ "by": by, "listings": listings }))
}

/// Aligned tables, one per listing, each under its class's name when it has one, its score
/// column named after the score.
pub fn ranking_table(listings: &[Listing], by: RankBy) -> String {
    let name = serde_json::to_value(by).map_or_else(
        |_| "score".into(),
        |v| v.as_str().unwrap_or("score").to_string(),
    );
    let mut out = String::new();
    for listing in listings {
        if let Some(class) = &listing.class {
            out += &format!("{class}\n");
        }
        let width = (listing.features.iter())
            .map(|f| f.term.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        out += &format!(
            "{:>5}  {:<width$}  {:>12}  {:>8}\n",
            "rank", "term", name, "df"
        );
        for (i, f) in listing.features.iter().enumerate() {
            out += &format!(
                "{:>5}  {:<width$}  {:>12.4}  {:>8}\n",
                i + 1,
                f.term,
                f.score,
                f.df
            );
        }
        out += "\n";
    }
    out
}

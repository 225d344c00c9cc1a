//! Counters for `GET /metrics`, in Prometheus's text format: requests by route and status,
//! errors, a latency histogram, and per model its documents and version.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::models::Served;

/// Upper bounds of the latency buckets, in seconds: from half a millisecond, where a single
/// document is answered, to the request timeout's order.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// The server's counters.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Requests by (route, status).
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    /// Requests answered with a 4xx or 5xx status.
    errors: AtomicU64,
    /// Requests per latency bucket, and beyond the last.
    buckets: [AtomicU64; BUCKETS.len() + 1],
    /// Total latency, in microseconds.
    micros: AtomicU64,
}

impl Metrics {
    /// Counts one answered request.
    pub fn record(&self, route: &str, status: u16, latency: Duration) {
        let mut requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        *requests.entry((route.to_string(), status)).or_default() += 1;
        drop(requests);
        if status >= 400 {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        let seconds = latency.as_secs_f64();
        let bucket = BUCKETS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(BUCKETS.len());
        self.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
        self.micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// The text of `GET /metrics`.
    pub fn render(&self, models: &[Served]) -> String {
        let mut out = String::new();
        self.render_requests(&mut out);
        render_histogram(&mut out, &self.buckets, self.micros.load(Ordering::Relaxed));
        let _ = writeln!(
            out,
            "# HELP bowline_documents_total Documents classified or learned.\n\
             # TYPE bowline_documents_total counter"
        );
        for model in models {
            for (what, count) in [("classify", &model.classified), ("learn", &model.learned)] {
                let count = count.load(Ordering::Relaxed);
                let name = &model.name;
                let _ = writeln!(
                    out,
                    "bowline_documents_total{{model=\"{name}\",endpoint=\"{what}\"}} {count}"
                );
            }
        }
        let _ = writeln!(
            out,
            "# HELP bowline_model_version The version a model is served at.\n\
             # TYPE bowline_model_version gauge"
        );
        for model in models {
            let number = model.current().number;
            let _ = writeln!(
                out,
                "bowline_model_version{{model=\"{}\"}} {number}",
                model.name
            );
        }
        out
    }

    fn render_requests(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "# HELP bowline_requests_total Requests answered, by route and status.\n\
             # TYPE bowline_requests_total counter"
        );
        let requests = self.requests.lock().unwrap_or_else(PoisonError::into_inner);
        for ((route, status), count) in requests.iter() {
            let _ = writeln!(
                out,
                "bowline_requests_total{{route=\"{route}\",status=\"{status}\"}} {count}"
            );
        }
        let _ = writeln!(
            out,
            "# HELP bowline_errors_total Requests answered with a 4xx or 5xx status.\n\
             # TYPE bowline_errors_total counter\n\
             bowline_errors_total {}",
            self.errors.load(Ordering::Relaxed)
        );
    }
}

fn render_histogram(out: &mut String, buckets: &[AtomicU64], micros: u64) {
    let _ = writeln!(
        out,
        "# HELP bowline_request_seconds Time from request to response.\n\
         # TYPE bowline_request_seconds histogram"
    );
    let mut cumulative = 0;
    for (i, count) in buckets.iter().enumerate() {
        cumulative += count.load(Ordering::Relaxed);
        let bound = BUCKETS.get(i).map_or("+Inf".to_string(), |b| b.to_string());
        let _ = writeln!(
            out,
            "bowline_request_seconds_bucket{{le=\"{bound}\"}} {cumulative}"
        );
    }
    let _ = writeln!(
        out,
        "bowline_request_seconds_sum {}\nbowline_request_seconds_count {cumulative}",
        micros as f64 / 1e6
    );
}

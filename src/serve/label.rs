//! `bowline label`: the labelling page and its API, on the same listener as `serve`.
//!
//! - `GET /` is the page: one HTML file, its script and style inline, loading nothing else (its
//!   content security policy says so to the browser).
//! - `GET /api/state` is what the page shows ([`View`]).
//! - `POST /api/label` takes `{"id", "label"}`, `POST /api/skip` `{"id"}` and `POST /api/undo`
//!   `{}`; each answers the new state once its file is synced, so a page that shows "saved"
//!   has the label on disk.
//!
//! A request that names a document already labelled or not in the pool is answered 409.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};

use super::api::ApiError;
use crate::active::session::View;
use crate::error::{Error, Result};
use crate::jobs::label::Labelling;

/// A slow client's headers are cut off after this long.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);

type Shared = Arc<Mutex<Labelling>>;

/// A label or skip of one document.
#[derive(Debug, serde::Deserialize)]
struct Given {
    id: String,
    #[serde(default)]
    label: String,
}

/// Serves `labelling` on `addr` until SIGINT or SIGTERM, on a runtime of its own; prints the
/// address, its port chosen when port 0 was asked for, on stderr.
pub fn serve_labelling(labelling: Labelling, addr: SocketAddr) -> Result<()> {
    super::runtime()?.block_on(async move {
        let listen_error = |e| Error::Config(format!("cannot listen on {addr}: {e}"));
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(listen_error)?;
        let bound = listener.local_addr().map_err(listen_error)?;
        let shutdown = super::stop_signal()?;
        // Tests and scripts read the address, with the port chosen, from this line.
        eprintln!("bowline: listening on http://{bound}");
        let app = router(Arc::new(Mutex::new(labelling)));
        super::listen::serve(listener, app, HEADER_TIMEOUT, shutdown).await;
        Ok(())
    })
}

fn router(shared: Shared) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/state", get(state))
        .route("/api/label", post(label))
        .route("/api/skip", post(skip))
        .route("/api/undo", post(undo))
        .with_state(shared)
}

async fn page() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (
                header::CONTENT_SECURITY_POLICY,
                crate::render::LABELLING_POLICY,
            ),
        ],
        crate::render::labelling_page(),
    )
}

/// Runs `act` on the session and answers the state after it; a refused request is a conflict.
fn acting(shared: &Shared, act: impl FnOnce(&mut Labelling) -> Result<()>) -> Answer {
    let mut labelling = shared.lock().unwrap_or_else(PoisonError::into_inner);
    act(&mut labelling).map_err(|error| match error {
        Error::Config(message) => ApiError::status(StatusCode::CONFLICT, message),
        other => ApiError::from(other),
    })?;
    Ok(Json(labelling.view().clone()))
}

type Answer = std::result::Result<Json<View>, ApiError>;

async fn state(State(shared): State<Shared>) -> Answer {
    acting(&shared, |_| Ok(()))
}

async fn label(State(shared): State<Shared>, Json(given): Json<Given>) -> Answer {
    acting(&shared, |l| l.label(&given.id, &given.label))
}

async fn skip(State(shared): State<Shared>, Json(given): Json<Given>) -> Answer {
    acting(&shared, |l| l.skip(&given.id))
}

async fn undo(State(shared): State<Shared>) -> Answer {
    acting(&shared, |l| l.undo().map(|_| ()))
}

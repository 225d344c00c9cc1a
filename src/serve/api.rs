//! The JSON requests and responses, and the handlers that turn one into the other.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use super::models::{NotReloaded, Served};
use super::state::Shared;
use crate::jobs::classify::{answer, Asked};
use crate::render::JsonPrediction;

/// An error answer: `{"error": ...}` with its status.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl ApiError {
    /// An error answered with `status`.
    pub(super) fn status(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError(status, message.into())
    }

    fn bad_request(message: impl Into<String>) -> Self {
        ApiError(StatusCode::UNPROCESSABLE_ENTITY, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.1 });
        (self.0, Json(body)).into_response()
    }
}

/// A body that is not the JSON asked for, or too large, keeps the status axum gives it (400,
/// 413, 415 or 422) but says why in the API's error shape.
impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        ApiError(rejection.status(), rejection.body_text())
    }
}

impl From<crate::Error> for ApiError {
    fn from(error: crate::Error) -> Self {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
    }
}

/// A file that cannot take the documents learned since the last checkpoint is a conflict
/// (409): the server keeps them, and the file stays unserved until it can.
impl From<NotReloaded> for ApiError {
    fn from(not: NotReloaded) -> Self {
        match not {
            NotReloaded::Refused(message) => ApiError(StatusCode::CONFLICT, message),
            other => ApiError(StatusCode::INTERNAL_SERVER_ERROR, other.to_string()),
        }
    }
}

type Answer<T> = Result<Json<T>, ApiError>;

fn model<'a>(shared: &'a Shared, name: &str) -> Result<&'a Served, ApiError> {
    shared
        .models
        .iter()
        .find(|m| m.name == name)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no model named '{name}'")))
}

/// A document to classify, with the id its answer carries.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Document {
    id: Option<String>,
    text: String,
}

/// `POST /v1/models/{name}/classify`: texts or documents, and how to answer.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClassifyRequest {
    texts: Option<Vec<String>>,
    documents: Option<Vec<Document>>,
    /// Classes listed per document, most likely first; default 1.
    top_k: Option<usize>,
    /// No label when the top class's value is below it.
    threshold: Option<f64>,
    /// Explain the top class with this many terms.
    explain: Option<usize>,
}

impl ClassifyRequest {
    /// The documents to classify, as (id, text), once the batch is checked: texts or documents,
    /// not both, and between 1 and `max_batch` of them.
    pub fn into_documents(
        self,
        max_batch: usize,
    ) -> Result<Vec<(Option<String>, String)>, ApiError> {
        let documents: Vec<_> = match (self.texts, self.documents) {
            (Some(texts), None) => texts.into_iter().map(|t| (None, t)).collect(),
            (None, Some(docs)) => docs.into_iter().map(|d| (d.id, d.text)).collect(),
            _ => {
                return Err(ApiError::bad_request(
                    "give either \"texts\" or \"documents\"",
                ))
            }
        };
        check_batch(documents.len(), max_batch)?;
        Ok(documents)
    }
}

/// The answer to a classify request, in input order.
#[derive(Debug, Serialize)]
pub struct ClassifyResponse<'a> {
    model: String,
    version: u64,
    predictions: Vec<JsonPrediction<'a>>,
}

/// Classifies a batch with one version of the model, in input order.
pub async fn classify(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
    body: Result<Json<ClassifyRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(request) = body?;
    let served = model(&shared, &name)?;
    let asked = Asked {
        top_k: request.top_k.unwrap_or(1).max(1),
        threshold: request.threshold,
        explain: request.explain,
    };
    let documents = request.into_documents(shared.config.max_batch)?;
    let version = served.current();
    let classifier = &version.classifier;
    if asked.explain.is_some() {
        let explainable = classifier.model().classifier.check_explainable();
        explainable.map_err(|e| ApiError::bad_request(e.to_string()))?;
    }
    // Classifying is quick (microseconds a document) and the runtime has a worker per core, so
    // it is done in place: handing batches to blocking threads made their latency worse.
    let mut predictor = classifier.predictor();
    let predictions = documents
        .iter()
        .map(|(id, text)| answer(classifier, &mut predictor, (id.as_deref(), text), asked))
        .collect::<Vec<_>>();
    served
        .classified
        .fetch_add(predictions.len() as u64, Ordering::Relaxed);
    // The answer borrows the version's labels, so it is encoded while the version is held.
    let response = ClassifyResponse {
        model: name,
        version: version.number,
        predictions,
    };
    let body = serde_json::to_vec(&response)
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    let json = [(axum::http::header::CONTENT_TYPE, "application/json")];
    Ok((json, body).into_response())
}

fn check_batch(size: usize, max: usize) -> Result<(), ApiError> {
    if size == 0 {
        return Err(ApiError::bad_request("the batch is empty"));
    }
    if size > max {
        return Err(ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{size} documents in one request; at most {max} (--max-batch)"),
        ));
    }
    Ok(())
}

/// A labelled document to learn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Labelled {
    label: String,
    text: String,
}

/// `POST /v1/models/{name}/learn`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnRequest {
    documents: Vec<Labelled>,
}

impl LearnRequest {
    /// The documents to learn, as (label, text), once the batch is checked: between 1 and
    /// `max_batch` of them, each with a label.
    pub fn into_documents(self, max_batch: usize) -> Result<Vec<(String, String)>, ApiError> {
        check_batch(self.documents.len(), max_batch)?;
        if self.documents.iter().any(|d| d.label.is_empty()) {
            return Err(ApiError::bad_request("every document needs a label"));
        }
        Ok(self
            .documents
            .into_iter()
            .map(|d| (d.label, d.text))
            .collect())
    }
}

/// The version that holds the learned documents.
#[derive(Debug, Serialize)]
pub struct LearnResponse {
    model: String,
    version: u64,
    learned: usize,
    /// Whether the model file was written with them.
    checkpointed: bool,
}

/// Learns labelled documents through the model's single writer.
pub async fn learn(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
    body: Result<Json<LearnRequest>, JsonRejection>,
) -> Answer<LearnResponse> {
    let Json(request) = body?;
    let served = model(&shared, &name)?;
    let pairs = request.into_documents(shared.config.max_batch)?;
    let (version, learned, checkpointed) = served
        .learn(pairs, &shared.config.checkpoints)
        .await
        .map_err(|e| match e {
            // The log could not be written or synced, or the writer stopped: the server's
            // fault, not the request's.
            crate::Error::Io { .. } | crate::Error::Stage { .. } => ApiError::from(e),
            _ => ApiError::bad_request(e.to_string()),
        })?;
    Ok(Json(LearnResponse {
        model: name,
        version,
        learned,
        checkpointed,
    }))
}

/// The version now served after a reload.
#[derive(Debug, Serialize)]
pub struct ReloadResponse {
    model: String,
    version: u64,
}

/// Reloads the model file; a bad file leaves the old model serving and is reported.
///
/// Any body is read and ignored: a body left unread would make the server close the
/// connection, which a client about to reuse it would see fail.
pub async fn reload(
    State(shared): State<Arc<Shared>>,
    Path(name): Path<String>,
    _body: axum::body::Bytes,
) -> Answer<ReloadResponse> {
    let served = model(&shared, &name)?;
    let version = served.reload().await?;
    Ok(Json(ReloadResponse {
        model: name,
        version,
    }))
}

/// Every served model's status.
#[derive(Debug, Serialize)]
pub struct ModelsResponse {
    models: Vec<super::models::Status>,
}

/// `GET /v1/models`.
pub async fn models(State(shared): State<Arc<Shared>>) -> Json<ModelsResponse> {
    let mut models = Vec::new();
    for served in &shared.models {
        models.push(served.status().await);
    }
    Json(ModelsResponse { models })
}

/// `GET /readyz`: ready until shutdown begins.
pub async fn ready(State(shared): State<Arc<Shared>>) -> (StatusCode, &'static str) {
    if shared.stopping.load(Ordering::Relaxed) {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n")
    } else {
        (StatusCode::OK, "ready\n")
    }
}

/// `GET /metrics`.
pub async fn metrics(State(shared): State<Arc<Shared>>) -> String {
    shared.metrics.render(&shared.models)
}

/// Any other path.
pub async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such endpoint".into())
}

//! The accept loop: each connection is served by hyper's HTTP/1 server with a header-read
//! timeout, and shutdown waits for the requests in flight.
//!
//! `axum::serve` gives hyper no timer, so hyper's header-read timeout never applies there: a
//! client that opens connections and sends its headers a byte at a time, or never finishes
//! them, would keep each connection open forever, and with enough of them use up the
//! process's file descriptors. The request timeout of the router cannot help, since a request
//! reaches the router only once its headers are complete.

use std::future::Future;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// Serves `app` on `listener` until `shutdown` completes, then waits until every open
/// connection has answered the request it was serving. A connection whose next request's
/// headers are not complete `header_timeout` after it began waiting for them is closed: hyper
/// starts the timer when it waits for a request, so an idle keep-alive connection is closed
/// after that time too.
pub(super) async fn serve(
    listener: TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl Future<Output = ()>,
) {
    let connections = GracefulShutdown::new();
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    // Errors here are the process's (out of file descriptors, say), not a
                    // client's, and pass: wait for connections to close rather than spin.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = connections.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection closed with an error");
            }
        });
    }
    drop(listener);
    connections.shutdown().await;
}

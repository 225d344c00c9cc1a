//! The page of `bowline label`: one HTML file whose script and style are inline, so that it
//! loads nothing from the network, and whose policy forbids the browser to.

/// The content security policy of the page, sent as a header and repeated in the page: nothing
/// may load but the page's own inline script and style, and its calls to the API it came from.
pub const LABELLING_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; \
    style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'";

/// The labelling page.
pub fn labelling_page() -> &'static str {
    include_str!("labelling.html")
}

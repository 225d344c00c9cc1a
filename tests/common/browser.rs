//! HTML reports opened in headless Chromium: what each chart looks like once rendered, and
//! whether the page asked for anything over the network.
//!
//! The page is copied with two additions: a content security policy that forbids every fetch
//! and counts violations, and a script that measures every SVG once the page has loaded and
//! writes the measurements, as JSON, into the DOM, which `--dump-dom` prints. The report itself
//! has no script. Chromium runs with its network pointed at nothing (a proxy on a closed port
//! and a resolver that finds no host), so a fetch could not succeed either way.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// Chromium: `$CHROMIUM` if set, else `chromium` or `chromium-browser` on the `PATH`. In CI
/// (`CI` set, as `.ci/run` runs, which installs Chromium) a missing browser fails the test: a
/// browser check must not pass by being skipped. Elsewhere it is skipped, and says so.
pub fn chromium() -> Option<PathBuf> {
    let named = std::env::var_os("CHROMIUM").map(PathBuf::from);
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
            .find(|candidate| candidate.is_file())
    });
    let found = named.filter(|p| p.is_file()).or(on_path);
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "Chromium is missing in CI: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!(
            "chromium not found (set CHROMIUM or put it on the PATH); skipping the browser check"
        );
    }
    found
}

/// One rendered chart.
#[derive(Debug)]
pub struct Chart {
    /// Its title.
    pub title: String,
    /// Its rendered size in pixels.
    pub size: (f64, f64),
    /// Drawn data elements with a non-zero size, and all of them.
    pub data: (u64, u64),
    /// x tick labels from left to right, and y tick labels from bottom to top.
    pub x_ticks: Vec<String>,
    /// See `x_ticks`.
    pub y_ticks: Vec<String>,
}

/// What a page did in the browser.
#[derive(Debug)]
pub struct Rendered {
    /// Every SVG of the page, in order.
    pub charts: Vec<Chart>,
}

const POLICY: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
    style-src 'unsafe-inline'; script-src 'unsafe-inline'\"><script>window.violations=0;\
    document.addEventListener('securitypolicyviolation',()=>window.violations++)</script>";

/// Chromium without a window, a sandbox or any traffic of its own (updates, sync, first-run
/// pages).
pub const QUIET: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// Measures each SVG: its size, its data elements, its text elements that reach outside it,
/// overlapping neighbours among its tick labels, and its tick labels with their centres.
const PROBE: &str = r#"<script>window.onload=()=>{
const charts=[...document.querySelectorAll('svg')].map(svg=>{
  const box=svg.getBoundingClientRect();
  const inside=r=>r.left>=box.left-0.5&&r.right<=box.right+0.5&&r.top>=box.top-0.5&&r.bottom<=box.bottom+0.5;
  const outside=[...svg.querySelectorAll('text')].filter(t=>!inside(t.getBoundingClientRect())).map(t=>t.textContent);
  const ticks=axis=>[...svg.querySelectorAll('text.tick.'+axis)].map(t=>{const r=t.getBoundingClientRect();
    return {text:t.textContent,left:r.left,right:r.right,top:r.top,bottom:r.bottom}});
  const data=[...svg.querySelectorAll('.data')];
  const drawn=data.filter(e=>{const r=e.getBoundingClientRect();return r.width>0||r.height>0}).length;
  return {title:(svg.querySelector('title')||{}).textContent||'',width:box.width,height:box.height,
    outside,x:ticks('x'),y:ticks('y'),drawn,data:data.length}});
const out=document.createElement('pre');out.id='probe';
out.textContent=JSON.stringify({charts,violations:window.violations,
  resources:performance.getEntriesByType('resource').length});
document.body.appendChild(out)}</script>"#;

/// Checks that `html` names no web address and loads nothing, opens it in `chromium` under
/// `dir`, and checks every chart: a non-zero size, some data drawn, every text inside the SVG,
/// tick labels increasing along each axis without overlapping. Returns the charts for checks
/// of their own.
pub fn render(chromium: &Path, dir: &Path, html: &str) -> Rendered {
    for fetching in [
        "http://", "https://", "<script", "src=", "href=", "url(", "@import",
    ] {
        assert!(!html.contains(fetching), "the page holds {fetching}");
    }
    let probe = dir.join("probe.html");
    let probed = html
        .replacen("<head>", &format!("<head>{POLICY}"), 1)
        .replace("</body>", &format!("{PROBE}</body>"));
    std::fs::write(&probe, probed).unwrap();
    let profile = dir.join("chromium-profile");
    let output = std::process::Command::new(chromium)
        .args(QUIET)
        .args([
            "--proxy-server=127.0.0.1:9",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .args(["--window-size=1200,900", "--virtual-time-budget=5000"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", probe.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    let json = probe_json(&dom).unwrap_or_else(|| {
        panic!(
            "the page did not load: no probe output\n{dom}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(json["violations"], 0, "the page tried to fetch something");
    assert_eq!(json["resources"], 0, "the page loaded a resource");
    let charts = json["charts"]
        .as_array()
        .unwrap()
        .iter()
        .map(check_chart)
        .collect();
    Rendered { charts }
}

/// The probe's JSON, from the `<pre id="probe">` that `--dump-dom` printed with its text
/// escaped.
fn probe_json(dom: &str) -> Option<Value> {
    let start = dom.find("<pre id=\"probe\">")? + "<pre id=\"probe\">".len();
    let text = &dom[start..start + dom[start..].find("</pre>")?];
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str(&text).ok()
}

fn check_chart(chart: &Value) -> Chart {
    let title = chart["title"].as_str().unwrap_or_default().to_string();
    let size = (
        chart["width"].as_f64().unwrap(),
        chart["height"].as_f64().unwrap(),
    );
    assert!(size.0 > 0.0 && size.1 > 0.0, "{title}: size {size:?}");
    let data = (
        chart["drawn"].as_u64().unwrap(),
        chart["data"].as_u64().unwrap(),
    );
    assert!(data.0 > 0, "{title}: no data drawn ({data:?})");
    let outside = chart["outside"].as_array().unwrap();
    assert!(
        outside.is_empty(),
        "{title}: text outside the SVG: {outside:?}"
    );
    let x_ticks = along(&chart["x"], &title, ("left", "right"), false);
    let y_ticks = along(&chart["y"], &title, ("top", "bottom"), true);
    Chart {
        title,
        size,
        data,
        x_ticks,
        y_ticks,
    }
}

/// An axis's tick labels in the order they are read (left to right, or bottom to top when
/// `upward`), checked to be increasing numbers whose boxes, from edge `span.0` to `span.1`, do
/// not overlap.
fn along(ticks: &Value, title: &str, span: (&str, &str), upward: bool) -> Vec<String> {
    let mut placed: Vec<(f64, f64, String)> = ticks
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let text = t["text"].as_str().unwrap().to_string();
            (
                t[span.0].as_f64().unwrap(),
                t[span.1].as_f64().unwrap(),
                text,
            )
        })
        .collect();
    placed.sort_by(|a, b| a.0.total_cmp(&b.0));
    if upward {
        placed.reverse();
    }
    for pair in placed.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            tick_value(&a.2) < tick_value(&b.2),
            "{title}: ticks out of order: {} then {}",
            a.2,
            b.2
        );
        let apart = if upward { a.0 >= b.1 } else { a.1 <= b.0 };
        assert!(apart, "{title}: tick labels {} and {} overlap", a.2, b.2);
    }
    placed.into_iter().map(|t| t.2).collect()
}

/// The number a tick label shows: `12,500`, `0.25`, `-5` or `10⁻³`.
pub fn tick_value(label: &str) -> f64 {
    if let Some(exponent) = label
        .strip_prefix("10")
        .filter(|e| e.chars().next().is_some_and(|c| "⁰¹²³⁴⁵⁶⁷⁸⁹⁻".contains(c)))
    {
        let digits: String = exponent
            .chars()
            .map(|c| match c {
                '⁻' => '-',
                '¹' => '1',
                '²' => '2',
                '³' => '3',
                c => char::from_digit(c as u32 - '⁰' as u32, 10).unwrap_or('?'),
            })
            .collect();
        return 10f64.powi(digits.parse().unwrap());
    }
    label
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("tick label {label} is not a number"))
}

//! Warrant's reference web UI: static assets embedded in the binary, served at `/` and `/assets/…`.
//!
//! The UI is plain ES modules and CSS with no build step. The server looks files up with
//! [`asset`] and serves the bytes with the given content type; the page carries no secret,
//! so serving it needs no token. The UI reads the bearer token from the URL fragment
//! (`http://127.0.0.1:7878/#token=…`): browsers never send a fragment to a server, and the
//! UI moves it into the tab's `sessionStorage` and out of the address bar.

/// One embedded file: what it is and its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// The `Content-Type` to serve it with.
    pub content_type: &'static str,
    /// Its contents.
    pub bytes: &'static [u8],
}

/// The `Content-Security-Policy` to send with every asset: only this origin's scripts,
/// styles and connections, no plugins, no inline code. (The page repeats it in a `<meta>`
/// tag, so it holds even when a server does not send the header.)
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

macro_rules! embedded {
    ($($name:literal => $content_type:expr),* $(,)?) => {
        /// Every file under `assets/`, by name.
        const FILES: &[(&str, Asset)] = &[
            $(($name, Asset {
                content_type: $content_type,
                bytes: include_bytes!(concat!("../assets/", $name)),
            }),)*
        ];
    };
}

embedded! {
    "index.html" => HTML,
    "style.css" => CSS,
    "app.js" => JS,
    "api.js" => JS,
    "decision.js" => JS,
    "dock.js" => JS,
    "dom.js" => JS,
    "history.js" => JS,
    "reducer.js" => JS,
    "replay.js" => JS,
    "settings.js" => JS,
    "sse.js" => JS,
    "timeline.js" => JS,
}

/// The embedded file served at a URL path: `/` (and `/index.html`) is the page,
/// `/assets/{name}` a module or the stylesheet. `None` for anything else.
///
/// ```
/// let page = warrant_web::asset("/").unwrap();
/// assert_eq!(page.content_type, "text/html; charset=utf-8");
/// assert!(warrant_web::asset("/assets/app.js").is_some());
/// assert!(warrant_web::asset("/assets/../Cargo.toml").is_none());
/// ```
pub fn asset(path: &str) -> Option<Asset> {
    let path = path.strip_prefix('/').unwrap_or(path);
    let name = match path {
        "" | "index.html" => "index.html",
        _ => path
            .strip_prefix("assets/")
            .filter(|name| *name != "index.html")?,
    };
    FILES.iter().find(|(n, _)| *n == name).map(|(_, a)| *a)
}

/// The names of the files served under `/assets/`.
pub fn asset_names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _)| *n).filter(|n| *n != "index.html")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_and_index_serve_the_page() {
        let page = asset("/").unwrap();
        assert_eq!(page.content_type, HTML);
        assert_eq!(asset("/index.html"), Some(page));
        assert_eq!(asset(""), Some(page));
        let text = std::str::from_utf8(page.bytes).unwrap();
        assert!(text.contains("/assets/app.js"));
    }

    #[test]
    fn modules_are_served_as_javascript_and_styles_as_css() {
        assert_eq!(asset("/assets/reducer.js").unwrap().content_type, JS);
        assert_eq!(asset("assets/style.css").unwrap().content_type, CSS);
    }

    #[test]
    fn unknown_and_escaping_paths_are_not_served() {
        for path in [
            "/assets/nope.js",
            "/assets/",
            "/assets/index.html",
            "assets/index.html",
            "/app.js",
            "/assets/../src/lib.rs",
            "/assets//app.js",
            "/v1/tools",
        ] {
            assert_eq!(asset(path), None, "{path}");
        }
    }

    #[test]
    fn every_file_in_the_assets_folder_is_embedded_as_it_is_on_disk() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/assets");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = FILES.iter().map(|(n, _)| (*n).to_owned()).collect();
        embedded.sort();
        assert_eq!(
            embedded, on_disk,
            "add new files under assets/ to `embedded!`"
        );
        for (name, a) in FILES {
            assert_eq!(
                a.bytes,
                std::fs::read(format!("{dir}/{name}")).unwrap(),
                "{name}"
            );
        }
    }

    #[test]
    fn the_page_repeats_the_content_security_policy() {
        let page = std::str::from_utf8(asset("/").unwrap().bytes).unwrap();
        let meta_policy = CONTENT_SECURITY_POLICY.replace("; frame-ancestors 'none'", "");
        assert!(page.contains(&meta_policy), "index.html's CSP meta differs");
    }
}

//! `matchbox serve` over a real socket: loading the page with its assets and first API
//! calls, a move with the machine's answer, and training 10,000 HER games.

#[path = "../tests/support/http.rs"]
mod http;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use http::request;
use matchbox_engine::kit::Kit;
use matchbox_serve::{self as serve, Options};

/// Serves HER in a background thread; returns its base URL and token.
fn start() -> (String, String) {
    let kit = Kit::from_preset("hexapawn").unwrap();
    let options = Options {
        state: None,
        accept_edited_state: false,
        listen: serve::listen_address(Some("127.0.0.1"), Some(0)).unwrap(),
        rule: None,
        seed: 1,
    };
    let app = serve::app(&kit, &options).unwrap();
    let token = app.token.clone();
    let listener = std::net::TcpListener::bind(options.listen).unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        // Timers too: the app times its requests out.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            axum::serve(listener, app.router).await.unwrap();
        });
    });
    (base, token)
}

fn bench(c: &mut Criterion) {
    let (base, token) = start();
    let teacher = format!("x-matchbox-token: {token}\r\n");
    let get = |path: &str| {
        let (status, body) = request(&base, "GET", path, "", None);
        assert_eq!(status, 200, "{path}");
        body
    };
    c.bench_function(
        "serve: page load (HTML, CSS, JS, kit, game, boxes, score)",
        |b| {
            b.iter(|| {
                for path in [
                    "/",
                    "/style.css",
                    "/app.js",
                    "/api/kit",
                    "/api/game",
                    "/api/boxes",
                    "/api/score",
                    "/api/train",
                ] {
                    get(path);
                }
            })
        },
    );
    c.bench_function("serve: a move and the machine's answer", |b| {
        b.iter_custom(|iterations| {
            let mut spent = Duration::ZERO;
            for _ in 0..iterations {
                let game: serde_json::Value = serde_json::from_str(&get("/api/game")).unwrap();
                if !game["end"].is_null() {
                    request(&base, "POST", "/api/game/new", &teacher, None);
                    continue;
                }
                let body = serde_json::json!({ "move": game["moves"][0]["move"] }).to_string();
                let start = Instant::now();
                let (status, _) = request(&base, "POST", "/api/game/move", &teacher, Some(&body));
                spent += start.elapsed();
                assert_eq!(status, 200);
            }
            spent
        })
    });
    let mut group = c.benchmark_group("serve: training");
    group.sample_size(10);
    group.bench_function("10,000 HER games against a perfect opponent", |b| {
        b.iter(|| {
            let body = "{\"games\": 10000, \"opponent\": \"perfect\"}";
            let (status, _) = request(&base, "POST", "/api/train", &teacher, Some(body));
            assert_eq!(status, 200);
            while get("/api/train").contains("\"running\":true") {
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

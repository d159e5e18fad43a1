//! Plain HTTP/1.1 over a socket, for the `serve` tests and the serve benchmark: nothing
//! to download, nothing to build.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// One HTTP/1.1 request on a fresh connection: the status and the body.
pub fn request(
    base: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: Option<&str>,
) -> (u16, String) {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).expect("connect");
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nhost: {host}\r\nconnection: close\r\ncontent-type: application/json\r\n{headers}content-length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server may refuse a body that is too large before reading it all.
    let _ = stream.write_all(body.as_bytes());
    // Read the head, then as many bytes as it announces: a WebDriver server may keep
    // the connection open whatever the request asked.
    let mut reader = BufReader::new(stream);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let status = head
        .split(' ')
        .nth(1)
        .expect("an HTTP answer")
        .parse()
        .unwrap();
    let lower = head.to_ascii_lowercase();
    let length = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map(|n| n.trim().parse::<usize>().unwrap());
    let mut raw = Vec::new();
    match length {
        Some(n) => {
            raw.resize(n, 0);
            reader.read_exact(&mut raw).unwrap();
        }
        None => {
            let _ = reader.read_to_end(&mut raw);
        }
    }
    let rest = String::from_utf8_lossy(&raw).into_owned();
    let chunked = lower.contains("transfer-encoding: chunked");
    (status, if chunked { unchunk(&rest) } else { rest })
}

fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&after[..n]);
        rest = &after[n + 2..];
    }
    out
}

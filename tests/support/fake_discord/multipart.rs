//! `multipart/form-data` bodies (RFC 7578) as Discord reads them for
//! uploads: a `payload_json` part with the JSON body and `files[n]` parts.
//! Small enough to parse by hand for a test server.

/// One part of a form.
#[derive(Debug, Clone)]
pub struct Part {
    /// The form field's name (`payload_json`, `files[0]`).
    pub name: String,
    /// The file name, for file parts.
    pub filename: Option<String>,
    /// The part's content type, if given.
    pub content_type: Option<String>,
    /// The raw bytes.
    pub data: Vec<u8>,
}

/// The boundary of a `multipart/form-data; boundary=...` content type.
pub fn boundary(content_type: &str) -> Result<String, String> {
    let mut it = content_type.split(';');
    let essence = it.next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("multipart/form-data") {
        return Err(format!(
            "content type `{essence}` is not multipart/form-data"
        ));
    }
    it.map(str::trim)
        .find_map(|p| p.strip_prefix("boundary="))
        .map(|b| b.trim_matches('"').to_string())
        .filter(|b| !b.is_empty() && b.len() <= 70)
        .ok_or_else(|| "multipart content type without a (valid) boundary".to_string())
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The value of a `key="value"` parameter in a header.
fn param(header: &str, key: &str) -> Option<String> {
    header.split(';').skip(1).find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case(key)
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

/// Splits a body into its parts; `Err` says what is malformed.
pub fn parse(body: &[u8], boundary: &str) -> Result<Vec<Part>, String> {
    let delim = format!("--{boundary}").into_bytes();
    let mut next_delim = b"\r\n".to_vec();
    next_delim.extend_from_slice(&delim);
    let mut pos = find(body, &delim, 0).ok_or("the body has no boundary")? + delim.len();
    let mut parts = Vec::new();
    loop {
        if body[pos..].starts_with(b"--") {
            return Ok(parts);
        }
        if !body[pos..].starts_with(b"\r\n") {
            return Err("a boundary is not followed by CRLF".into());
        }
        pos += 2;
        let head_end = find(body, b"\r\n\r\n", pos).ok_or("a part without a header end")?;
        let head = std::str::from_utf8(&body[pos..head_end])
            .map_err(|_| "a part header is not UTF-8".to_string())?;
        let data_start = head_end + 4;
        let data_end = find(body, &next_delim, data_start)
            .ok_or("a part is not closed by a boundary (truncated body?)")?;
        let mut name = None;
        let mut filename = None;
        let mut content_type = None;
        for line in head.split("\r\n") {
            let (k, v) = line
                .split_once(':')
                .ok_or_else(|| format!("malformed part header `{line}`"))?;
            match k.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    if !v.trim().to_ascii_lowercase().starts_with("form-data") {
                        return Err(format!("part disposition `{}` is not form-data", v.trim()));
                    }
                    name = param(v, "name");
                    filename = param(v, "filename");
                }
                "content-type" => content_type = Some(v.trim().to_string()),
                _ => {}
            }
        }
        parts.push(Part {
            name: name.ok_or("a part without a name")?,
            filename,
            content_type,
            data: body[data_start..data_end].to_vec(),
        });
        pos = data_end + next_delim.len();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_json_and_binary_parts() {
        let mut body = b"--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n".to_vec();
        body.extend_from_slice(b"\x89PNG\r\n--X\r\n\x00");
        body.extend_from_slice(b"\r\n--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"hi\"}\r\n--XyZ--\r\n");
        assert_eq!(
            boundary("multipart/form-data; boundary=XyZ").unwrap(),
            "XyZ"
        );
        let parts = parse(&body, "XyZ").unwrap();
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].name, "files[0]");
        assert_eq!(parts[0].filename.as_deref(), Some("board.png"));
        assert_eq!(parts[0].content_type.as_deref(), Some("image/png"));
        assert_eq!(parts[0].data, b"\x89PNG\r\n--X\r\n\x00");
        assert_eq!(parts[1].data, b"{\"content\":\"hi\"}");
        assert!(parse(&body[..body.len() - 12], "XyZ").is_err());
        assert!(boundary("application/json").is_err());
    }
}

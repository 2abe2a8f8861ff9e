//! The fake's REST API: the routes the bot uses, answered as Discord would.

use super::{
    APP_ID, DedupeHit, GUILD_ID, Msg, NONCE_WINDOW, Shared, State, TOKEN, Upload, limits,
    multipart, ratelimits,
};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::body::Incoming;
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

/// Accepts connections until the task is aborted: plain HTTP, or TLS (as
/// `discord.com`) when given an acceptor.
pub async fn serve(listener: TcpListener, shared: Shared, tls: Option<TlsAcceptor>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let shared = shared.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            match tls {
                None => serve_connection(stream, shared).await,
                Some(tls) => {
                    // A client that fails the handshake (it does not trust
                    // the test CA) just loses its connection, as it would
                    // with Discord.
                    if let Ok(stream) = tls.accept(stream).await {
                        serve_connection(stream, shared).await;
                    }
                }
            }
        });
    }
}

/// Answers the requests of one connection (HTTP/1.1, kept alive).
async fn serve_connection<S>(stream: S, shared: Shared)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let io = hyper_util::rt::TokioIo::new(stream);
    let svc = hyper::service::service_fn(move |req| {
        let shared = shared.clone();
        async move { Ok::<_, Infallible>(handle(req, shared).await) }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(io, svc)
        .await;
}

/// The TLS side of the REST listener: the test certificate for
/// `discord.com` signed by the test CA (`tests/data/fake_discord_tls/`),
/// HTTP/1.1 only.
pub fn tls_acceptor() -> TlsAcceptor {
    use tokio_rustls::rustls::{self, pki_types::pem::PemObject};
    let dir = tls_dir();
    let read = |name: &str| {
        std::fs::read(dir.join(name))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
    };
    let certs = rustls::pki_types::CertificateDer::pem_slice_iter(&read("server.pem"))
        .collect::<Result<Vec<_>, _>>()
        .expect("tests/data/fake_discord_tls/server.pem");
    let key = rustls::pki_types::PrivateKeyDer::from_pem_slice(&read("server.key"))
        .expect("tests/data/fake_discord_tls/server.key");
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("rustls's default protocol versions")
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("the fake's discord.com certificate and key");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    TlsAcceptor::from(Arc::new(config))
}

/// Where the fake's test-only TLS keys are.
pub fn tls_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_discord_tls")
}

type Reply = (StatusCode, Option<Value>);

fn error(status: u16, code: u64, message: &str) -> Reply {
    (
        StatusCode::from_u16(status).unwrap(),
        Some(json!({"code": code, "message": message})),
    )
}

async fn handle(req: Request<Incoming>, shared: Shared) -> Response<Full<Bytes>> {
    // The round trip: half on the way to Discord, half on the way back.
    let latency = shared.state.lock().unwrap().limiter.latency;
    tokio::time::sleep(latency / 2).await;
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let auth_ok = req
        .headers()
        .get("authorization")
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| h == format!("Bot {TOKEN}"));
    let content_type = req
        .headers()
        .get("content-type")
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body = req
        .into_body()
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let arrived = Instant::now();
    // Every route the bot uses needs its token; a rejected one gets what
    // Discord answers (on `GET /users/@me` and `/gateway/bot` too): 401 with
    // code 0 and "401: Unauthorized".
    let (reply, headers) = if !auth_ok {
        (error(401, 0, "401: Unauthorized"), Vec::new())
    } else {
        match shared.with(|s| ratelimits::admit(s, &method, &path, arrived)) {
            Ok(headers) => (
                answer(&shared, &method, &path, &content_type, &body),
                headers,
            ),
            Err(refusal) => (
                (StatusCode::TOO_MANY_REQUESTS, Some(refusal.body)),
                refusal.headers,
            ),
        }
    };
    let status = reply.0.as_u16();
    shared.with(|s| {
        s.requests.push(format!("{method} {path} -> {status}"));
        s.calls.push(ratelimits::Call {
            at: arrived,
            request: format!("{method} {path}"),
            bucket: ratelimits::bucket_of(&method, &path),
            status,
        });
    });
    tokio::time::sleep(latency - latency / 2).await;
    respond(reply, &headers)
}

/// Performs a request the rate limits let through.
fn answer(shared: &Shared, method: &Method, path: &str, content_type: &str, body: &[u8]) -> Reply {
    if content_type.starts_with("multipart/") {
        return match read_form(content_type, body) {
            Ok((json, files)) => route(shared, method, path, json, files),
            Err(Refused::Form(why)) => reject(shared, format!("{method} {path}: {why}")),
            Err(Refused::TooLarge(why)) => {
                shared.with(|s| s.rejected.push(format!("{method} {path}: {why}")));
                error(413, 40005, "Request entity too large")
            }
        };
    }
    let json: Value = if body.is_empty() {
        Value::Null
    } else {
        match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => {
                shared.with(|s| {
                    s.rejected
                        .push(format!("{method} {path}: body is not JSON: {e}"))
                });
                return error(400, 50109, "The request body contains invalid JSON.");
            }
        }
    };
    route(shared, method, path, json, Vec::new())
}

/// Discord's limit on the number of files in one message.
const MAX_FILES: usize = 10;
/// The per-file upload limit the fake applies: Discord's default for a
/// server without boosts (10 MiB), the lowest a bot can meet.
const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Discord's limit on an attachment's description (alt text).
const MAX_DESCRIPTION: usize = 1024;
/// Discord's limit on a nonce's length.
const MAX_NONCE: usize = 25;

/// A `files[n]` part of an upload, before it is matched to its attachment.
pub(crate) struct FilePart {
    index: u64,
    filename: Option<String>,
    content_type: Option<String>,
    data: Vec<u8>,
}

/// Why an upload body was refused.
enum Refused {
    /// 400 Invalid Form Body.
    Form(String),
    /// 413 Request entity too large (40005).
    TooLarge(String),
}

/// The JSON body and the file parts of a `multipart/form-data` request.
fn read_form(content_type: &str, body: &[u8]) -> Result<(Value, Vec<FilePart>), Refused> {
    let boundary = multipart::boundary(content_type).map_err(Refused::Form)?;
    let parts = multipart::parse(body, &boundary).map_err(Refused::Form)?;
    let mut json = None;
    let mut files = Vec::new();
    for p in parts {
        if p.name == "payload_json" {
            let v = serde_json::from_slice(&p.data)
                .map_err(|e| Refused::Form(format!("payload_json is not JSON: {e}")))?;
            json = Some(v);
            continue;
        }
        let index = p
            .name
            .strip_prefix("files[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| Refused::Form(format!("unexpected form field `{}`", p.name)))?;
        if p.data.len() > MAX_FILE_BYTES {
            return Err(Refused::TooLarge(format!(
                "file {} is {} bytes (max {MAX_FILE_BYTES})",
                p.name,
                p.data.len()
            )));
        }
        if files.iter().any(|f: &FilePart| f.index == index) {
            return Err(Refused::Form(format!("form field {} given twice", p.name)));
        }
        files.push(FilePart {
            index,
            filename: p.filename,
            content_type: p.content_type,
            data: p.data,
        });
    }
    if files.len() > MAX_FILES {
        return Err(Refused::Form(format!(
            "{} files (max {MAX_FILES})",
            files.len()
        )));
    }
    let json = json.ok_or_else(|| {
        Refused::Form("a multipart body without payload_json (the fake reads only that)".into())
    })?;
    Ok((json, files))
}

/// Width and height from a PNG's IHDR chunk, as Discord reports them.
fn png_size(data: &[u8]) -> Option<(u32, u32)> {
    if data.len() < 24 || &data[..8] != b"\x89PNG\r\n\x1a\n" || &data[12..16] != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(data[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(data[20..24].try_into().ok()?);
    Some((w, h))
}

/// Matches uploaded parts with the `attachments` of the payload as Discord
/// does: every attachment named there must have been uploaded as
/// `files[id]`; parts nobody named are attached under their own file name.
fn attach(
    s: &mut State,
    channel: u64,
    p: &Value,
    files: Vec<FilePart>,
) -> Result<(Vec<Value>, Vec<Upload>), String> {
    let metas = p["attachments"].as_array().cloned().unwrap_or_default();
    if metas.len() > MAX_FILES {
        return Err(format!("{} attachments (max {MAX_FILES})", metas.len()));
    }
    let mut files: Vec<Option<FilePart>> = files.into_iter().map(Some).collect();
    let mut picked = Vec::new();
    for (i, m) in metas.iter().enumerate() {
        let id = m["id"]
            .as_u64()
            .or_else(|| m["id"].as_str().and_then(|x| x.parse().ok()))
            .ok_or_else(|| format!("attachments[{i}] has no id"))?;
        let part = files
            .iter_mut()
            .find(|f| f.as_ref().is_some_and(|f| f.index == id))
            .and_then(Option::take)
            .ok_or_else(|| format!("attachments[{i}] names files[{id}], which was not uploaded"))?;
        let description = m["description"].as_str().map(str::to_string);
        if description
            .as_ref()
            .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION)
        {
            return Err(format!(
                "attachments[{i}] description over {MAX_DESCRIPTION} characters"
            ));
        }
        let filename = m["filename"].as_str().map(str::to_string);
        picked.push((part, filename, description));
    }
    for part in files.into_iter().flatten() {
        picked.push((part, None, None));
    }
    let mut json = Vec::new();
    let mut uploads = Vec::new();
    for (part, name, description) in picked {
        let filename = name
            .or(part.filename.clone())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| format!("files[{}] has no file name", part.index))?;
        let id = s.id();
        let mut a = json!({
            "id": id.to_string(), "filename": filename, "size": part.data.len(),
            "url": format!("https://cdn.discordapp.com/attachments/{channel}/{id}/{filename}"),
            "proxy_url": format!("https://media.discordapp.net/attachments/{channel}/{id}/{filename}"),
            "content_type": part.content_type, "description": description,
        });
        if let Some((w, h)) = png_size(&part.data) {
            a["width"] = json!(w);
            a["height"] = json!(h);
        }
        json.push(a);
        uploads.push(Upload {
            filename,
            content_type: part.content_type,
            description,
            data: Arc::new(part.data),
        });
    }
    Ok((json, uploads))
}

fn respond((status, out): Reply, headers: &ratelimits::Headers) -> Response<Full<Bytes>> {
    let body = out.map(|v| v.to_string()).unwrap_or_default();
    let mut answer = Response::builder()
        .status(status)
        .header("content-type", "application/json");
    for (name, value) in headers {
        answer = answer.header(*name, value);
    }
    answer.body(Full::new(Bytes::from(body))).unwrap()
}

fn bot_user() -> Value {
    json!({"id": APP_ID.to_string(), "username": "gamehost", "global_name": null,
           "discriminator": "0000", "avatar": null, "bot": true, "verified": true,
           "mfa_enabled": false, "flags": 0})
}

fn route(shared: &Shared, method: &Method, path: &str, body: Value, files: Vec<FilePart>) -> Reply {
    if matches!(*method, Method::POST | Method::PATCH) {
        shared.with(|s| s.bodies.push((format!("{method} {path}"), body.clone())));
    }
    let Some(rest) = path.strip_prefix("/api/v10") else {
        return error(404, 0, "404: Not Found");
    };
    let is_message_create =
        method == Method::POST && rest.starts_with("/channels/") && rest.ends_with("/messages");
    // A follow-up to an interaction may upload files too (`/game replay`).
    let is_followup = method == Method::POST
        && rest.starts_with("/webhooks/")
        && rest.trim_start_matches('/').split('/').count() == 3;
    // So may an interaction's reply (`/rules battle`: the type chart).
    let is_reply =
        method == Method::POST && rest.starts_with("/interactions/") && rest.ends_with("/callback");
    // And a message's edit (a living board's new image).
    let is_edit = method == Method::PATCH
        && rest.starts_with("/channels/")
        && rest.trim_start_matches('/').split('/').count() == 4;
    if !files.is_empty() && !is_message_create && !is_followup && !is_reply && !is_edit {
        return reject(
            shared,
            format!(
                "{method} {path}: file uploads are only supported on message creates and edits by the fake"
            ),
        );
    }
    let seg: Vec<&str> = rest.trim_start_matches('/').split('/').collect();
    if let Some(message) = outgoing_message(method, &seg, &body)
        && let Err(why) = limits::check_allowed_mentions(message)
    {
        return reject(shared, format!("{method} {path}: {why}"));
    }
    let app = APP_ID.to_string();
    match (method.as_str(), seg.as_slice()) {
        ("GET", ["gateway"]) => (StatusCode::OK, Some(json!({"url": shared.gateway_url}))),
        ("GET", ["gateway", "bot"]) => (
            StatusCode::OK,
            Some(
                json!({"url": shared.gateway_url, "shards": shared.with(|s| s.shard_total),
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}}),
            ),
        ),
        ("GET", ["users", "@me"]) => (StatusCode::OK, Some(bot_user())),
        ("GET", ["applications", a, "commands"]) if *a == app => {
            let cmds = shared
                .with(|s| s.global_commands.clone())
                .unwrap_or(json!([]));
            (StatusCode::OK, Some(cmds))
        }
        ("GET", ["applications", a, "guilds", _, "commands"]) if *a == app => {
            let cmds = shared
                .with(|s| s.guild_commands.clone())
                .unwrap_or(json!([]));
            (StatusCode::OK, Some(cmds))
        }
        ("PUT", ["applications", a, "commands"]) if *a == app => put_commands(shared, body, false),
        ("PUT", ["applications", a, "guilds", _, "commands"]) if *a == app => {
            put_commands(shared, body, true)
        }
        ("POST", ["users", "@me", "channels"]) => {
            let Some(user) = body["recipient_id"]
                .as_str()
                .and_then(|u| u.parse::<u64>().ok())
                .or_else(|| body["recipient_id"].as_u64())
            else {
                return reject(
                    shared,
                    "POST /users/@me/channels without recipient_id".into(),
                );
            };
            let channel = shared.with(|s| {
                if let Some(c) = s.dm_channels.get(&user) {
                    return *c;
                }
                let c = s.id();
                s.dm_channels.insert(user, c);
                c
            });
            let name = shared.with(|s| {
                s.names
                    .get(&user)
                    .cloned()
                    .unwrap_or_else(|| format!("user{user}"))
            });
            let v = json!({"id": channel.to_string(), "type": 1, "last_message_id": null,
                "recipients": [{"id": user.to_string(), "username": name.to_lowercase(), "global_name": name,
                                "discriminator": "0", "avatar": null, "bot": false}]});
            if let Err(e) =
                serde_json::from_value::<serenity::model::channel::PrivateChannel>(v.clone())
            {
                panic!("fake built an unreadable DM channel: {e}");
            }
            (StatusCode::OK, Some(v))
        }
        ("POST", ["channels", ch, "messages"]) => {
            let Ok(ch) = ch.parse::<u64>() else {
                return error(404, 10003, "Unknown Channel");
            };
            let dm_user = shared.with(|s| {
                s.dm_channels
                    .iter()
                    .find(|(_, c)| **c == ch)
                    .map(|(u, _)| *u)
            });
            if let Some(u) = dm_user
                && shared.with(|s| s.closed_dms.contains(&u))
            {
                return error(403, 50007, "Cannot send messages to this user");
            }
            if shared.with(|s| s.muted_channels.contains(&ch)) {
                return error(403, 50013, "Missing Permissions");
            }
            let ctx = Origin {
                dm_user,
                ..Origin::default()
            };
            create_with_files(shared, ch, &body, ctx, files)
        }
        // An edit that uploads files replaces the message's attachments.
        ("PATCH", ["channels", _, "messages", id]) if !files.is_empty() => {
            edit_with_files(shared, id.parse().unwrap_or(0), &body, files)
        }
        ("PATCH", ["channels", _, "messages", id]) => edit(shared, id.parse().unwrap_or(0), &body),
        ("POST", ["channels", ch, "messages", mid, "threads"]) => {
            start_thread(shared, ch, mid, &body)
        }
        // A deleted message is gone from its channel, as on Discord.
        ("DELETE", ["channels", _, "messages", id]) => {
            let id = id.parse().unwrap_or(0);
            let gone = shared.with(|s| {
                let before = s.messages.len();
                s.messages.retain(|m| m.id != id);
                s.messages.len() < before
            });
            if gone {
                (StatusCode::NO_CONTENT, None)
            } else {
                error(404, 10008, "Unknown Message")
            }
        }
        ("POST", ["interactions", _, token, "callback"]) => callback(shared, token, body, files),
        ("GET", ["webhooks", a, token, "messages", "@original"]) if *a == app => {
            match shared.with(|s| original(s, token)) {
                Some(m) => (StatusCode::OK, Some(m.json)),
                None => error(404, 10008, "Unknown Message"),
            }
        }
        ("PATCH", ["webhooks", a, token, "messages", "@original"]) if *a == app => {
            match shared.with(|s| original(s, token)) {
                Some(m) => edit(shared, m.id, &body),
                None => error(404, 10008, "Unknown Message"),
            }
        }
        ("PATCH", ["webhooks", a, _, "messages", id]) if *a == app => {
            edit(shared, id.parse().unwrap_or(0), &body)
        }
        ("DELETE", ["webhooks", a, _, "messages", _]) if *a == app => {
            (StatusCode::NO_CONTENT, None)
        }
        ("POST", ["webhooks", a, token]) if *a == app => followup(shared, token, body, files),
        _ => {
            shared.with(|s| s.rejected.push(format!("unhandled route {method} {path}")));
            error(404, 0, "404: Not Found")
        }
    }
}

/// The message a request posts or edits (a create, an edit, an interaction
/// reply or follow-up), whose mentions Discord would act on.
fn outgoing_message<'a>(method: &Method, seg: &[&str], body: &'a Value) -> Option<&'a Value> {
    match (method.as_str(), seg) {
        ("POST", ["channels", _, "messages"])
        | ("PATCH", ["channels", _, "messages", _])
        | ("PATCH", ["webhooks", _, _, "messages", _])
        | ("POST", ["webhooks", _, _]) => Some(body),
        // Replies (4) and updates (7) carry a message; deferrals and modals do not.
        ("POST", ["interactions", _, _, "callback"]) => {
            matches!(body["type"].as_u64(), Some(4 | 7)).then_some(&body["data"])
        }
        _ => None,
    }
}

fn reject(shared: &Shared, why: String) -> Reply {
    shared.with(|s| s.rejected.push(why.clone()));
    (
        StatusCode::BAD_REQUEST,
        Some(json!({"code": 50035, "message": format!("Invalid Form Body: {why}"), "errors": {}})),
    )
}

fn put_commands(shared: &Shared, body: Value, in_guild: bool) -> Reply {
    if shared.with(|s| s.fail_commands) {
        return error(403, 50001, "Missing Access");
    }
    let Some(list) = body.as_array() else {
        return reject(shared, "commands body is not a list".into());
    };
    if list.len() > 100 {
        return reject(shared, "more than 100 commands".into());
    }
    let mut out = Vec::new();
    for (i, c) in list.iter().enumerate() {
        let name = c["name"].as_str().unwrap_or("");
        let ok_name = !name.is_empty()
            && name.len() <= 32
            && name
                .chars()
                .all(|ch| ch.is_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '_');
        if !ok_name {
            return reject(shared, format!("bad command name `{name}`"));
        }
        let desc = c["description"].as_str().unwrap_or("").chars().count();
        if c["type"].as_u64().unwrap_or(1) == 1 && !(1..=100).contains(&desc) {
            return reject(
                shared,
                format!("command `{name}` description must be 1 to 100 characters"),
            );
        }
        if let Err(e) = check_options(&c["options"]) {
            return reject(shared, format!("command `{name}`: {e}"));
        }
        let mut c = c.clone();
        c["id"] = json!((7_000_000_000_000_001u64 + i as u64).to_string());
        c["application_id"] = json!(APP_ID.to_string());
        c["version"] = json!("1");
        if c["type"].is_null() {
            c["type"] = json!(1);
        }
        if c["options"].is_null() {
            c["options"] = json!([]);
        }
        if c["default_member_permissions"].is_null() {
            c["default_member_permissions"] = Value::Null;
        }
        if let Err(e) = serde_json::from_value::<serenity::model::application::Command>(c.clone()) {
            return reject(
                shared,
                format!("command `{name}` unreadable as serenity Command: {e}"),
            );
        }
        out.push(c);
    }
    let out = Value::Array(out);
    shared.with(|s| {
        s.commands = Some(out.clone());
        if in_guild {
            s.guild_commands = Some(out.clone());
        } else {
            s.global_commands = Some(out.clone());
        }
        s.command_puts += 1;
    });
    (StatusCode::OK, Some(out))
}

fn check_options(opts: &Value) -> Result<(), String> {
    let Some(list) = opts.as_array() else {
        return Ok(());
    };
    if list.len() > 25 {
        return Err("more than 25 options".into());
    }
    let mut seen_optional = false;
    for o in list {
        let name = o["name"].as_str().unwrap_or("");
        if name.is_empty() || name.len() > 32 {
            return Err(format!("bad option name `{name}`"));
        }
        let d = o["description"].as_str().unwrap_or("").chars().count();
        if !(1..=100).contains(&d) {
            return Err(format!(
                "option `{name}` description must be 1 to 100 characters"
            ));
        }
        if o["choices"].as_array().is_some_and(|c| c.len() > 25) {
            return Err(format!("option `{name}` has more than 25 choices"));
        }
        let required = o["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            return Err(format!("required option `{name}` after an optional one"));
        }
        if !required && o["type"].as_u64().is_some_and(|t| t > 2) {
            seen_optional = true;
        }
        check_options(&o["options"])?;
    }
    Ok(())
}

/// Where a message comes from.
#[derive(Default, Clone)]
struct Origin {
    dm_user: Option<u64>,
    for_user: Option<u64>,
    ephemeral: bool,
    token: Option<String>,
}

fn create(shared: &Shared, channel: u64, p: &Value, o: Origin) -> Reply {
    create_with_files(shared, channel, p, o, Vec::new())
}

/// The nonce of a message create as text, if it has one; `Err` if Discord
/// would refuse it.
fn nonce_of(p: &Value) -> Result<Option<String>, String> {
    match &p["nonce"] {
        Value::Null => Ok(None),
        Value::String(n) if n.chars().count() <= MAX_NONCE => Ok(Some(n.clone())),
        Value::String(n) => Err(format!("nonce `{n}` over {MAX_NONCE} characters")),
        Value::Number(n) if n.is_u64() || n.is_i64() => Ok(Some(n.to_string())),
        other => Err(format!("nonce {other} is neither an integer nor a string")),
    }
}

/// Creates a message (with uploads) as Discord does, or, for a create with
/// `enforce_nonce` repeating a recent nonce in the channel, returns the
/// message that nonce created.
fn create_with_files(
    shared: &Shared,
    channel: u64,
    p: &Value,
    o: Origin,
    files: Vec<FilePart>,
) -> Reply {
    let nonce = match nonce_of(p) {
        Ok(n) => n,
        Err(e) => return reject(shared, e),
    };
    let res = shared.with(|s| -> Result<Value, String> {
        let (attachments, uploads) = attach(s, channel, p, files)?;
        let mut checked = p.clone();
        checked["attachments"] = Value::Array(attachments.clone());
        limits::check_message(&checked, true)?;
        if let Some(n) = &nonce
            && p["enforce_nonce"].as_bool() == Some(true)
            && let Some(&(id, at)) = s.nonces.get(&(channel, n.clone()))
            && at.elapsed() < NONCE_WINDOW
            && let Some(m) = s.message(id)
        {
            let json = m.json.clone();
            s.dedupe_hits.push(DedupeHit {
                channel_id: channel,
                nonce: n.clone(),
                message_id: id,
            });
            return Ok(json);
        }
        let m = insert_message(s, channel, &checked, &o, uploads)?;
        if let Some(n) = nonce
            && let Some(id) = m["id"].as_str().and_then(|i| i.parse::<u64>().ok())
        {
            s.nonces.insert((channel, n), (id, Instant::now()));
        }
        Ok(m)
    });
    match res {
        Ok(m) => (StatusCode::OK, Some(m)),
        Err(e) => reject(shared, e),
    }
}

fn insert_message(
    s: &mut State,
    channel: u64,
    p: &Value,
    o: &Origin,
    files: Vec<Upload>,
) -> Result<Value, String> {
    let id = s.id();
    let flags = p["flags"].as_u64().unwrap_or(0) | if o.ephemeral { 64 } else { 0 };
    let mut m = json!({
        "id": id.to_string(), "channel_id": channel.to_string(), "author": bot_user(),
        "content": p["content"].as_str().unwrap_or(""),
        "timestamp": "2026-01-01T00:00:00.000000+00:00", "edited_timestamp": null,
        "tts": p["tts"].as_bool().unwrap_or(false), "mention_everyone": false, "mentions": [],
        "mention_roles": [], "attachments": p["attachments"].clone(), "embeds": p["embeds"].clone(),
        "pinned": false, "type": if o.token.is_some() { 20 } else { 0 },
        "components": p["components"].clone(), "flags": flags,
        "application_id": APP_ID.to_string(),
    });
    if m["embeds"].is_null() {
        m["embeds"] = json!([]);
    }
    if m["attachments"].is_null() {
        m["attachments"] = json!([]);
    }
    if !p["nonce"].is_null() {
        m["nonce"] = p["nonce"].clone();
    }
    if m["components"].is_null() {
        m["components"] = json!([]);
    }
    if o.dm_user.is_none() {
        let guild = s.channel_guilds.get(&channel).copied().unwrap_or(GUILD_ID);
        m["guild_id"] = json!(guild.to_string());
    }
    serde_json::from_value::<serenity::model::channel::Message>(m.clone())
        .map_err(|e| format!("message unreadable as serenity Message: {e}"))?;
    s.messages.push(Msg {
        id,
        channel_id: channel,
        dm_user: o.dm_user,
        for_user: o.for_user,
        ephemeral: flags & 64 != 0,
        from_interaction: o.token.is_some(),
        token: o.token.clone(),
        json: m.clone(),
        files,
    });
    Ok(m)
}

fn edit(shared: &Shared, id: u64, p: &Value) -> Reply {
    let res = shared.with(|s| -> Result<Value, String> {
        let m = s
            .messages
            .iter_mut()
            .find(|m| m.id == id)
            .ok_or_else(|| "edit of an unknown message".to_string())?;
        let mut j = m.json.clone();
        for k in ["content", "embeds", "components"] {
            if !p[k].is_null() {
                j[k] = p[k].clone();
            }
        }
        // An empty list of attachments removes them all (a list naming
        // some to keep is not used by the bot).
        let cleared = p["attachments"].as_array().is_some_and(|a| a.is_empty());
        if cleared {
            j["attachments"] = json!([]);
        }
        limits::check_message(&j, false)?;
        if j["content"].as_str().unwrap_or("").is_empty()
            && j["embeds"].as_array().is_none_or(|a| a.is_empty())
            && j["components"].as_array().is_none_or(|a| a.is_empty())
        {
            return Err("an edit may not leave a message empty (50006)".into());
        }
        j["edited_timestamp"] = json!("2026-01-01T00:00:01.000000+00:00");
        serde_json::from_value::<serenity::model::channel::Message>(j.clone())
            .map_err(|e| format!("edited message unreadable: {e}"))?;
        m.json = j.clone();
        if cleared {
            m.files.clear();
        }
        *s.edits.entry(id).or_default() += 1;
        Ok(j)
    });
    match res {
        Ok(j) => (StatusCode::OK, Some(j)),
        Err(e) if e.contains("unknown message") => error(404, 10008, "Unknown Message"),
        Err(e) => reject(shared, e),
    }
}

/// Starts a public thread from a message, as Discord does: the thread is a
/// channel of type 11 whose id is the message's id, so one message has at
/// most one thread (a second attempt is refused with code 160004).
fn start_thread(shared: &Shared, ch: &str, mid: &str, p: &Value) -> Reply {
    let (Ok(ch), Ok(mid)) = (ch.parse::<u64>(), mid.parse::<u64>()) else {
        return error(404, 10003, "Unknown Channel");
    };
    if shared.with(|s| s.deny_threads) {
        return error(403, 50013, "Missing Permissions");
    }
    let name = p["name"].as_str().unwrap_or("").to_string();
    if !(1..=100).contains(&name.chars().count()) {
        return reject(
            shared,
            format!(
                "thread name of {} characters (1 to 100)",
                name.chars().count()
            ),
        );
    }
    if let Some(d) = p["auto_archive_duration"].as_u64()
        && ![60, 1440, 4320, 10080].contains(&d)
    {
        return reject(shared, format!("auto_archive_duration {d}"));
    }
    let found = shared.with(|s| s.message(mid).map(|m| (m.channel_id, m.dm_user)));
    match found {
        Some((c, None)) if c == ch => {}
        _ => return error(404, 10008, "Unknown Message"),
    }
    if shared.with(|s| s.threads.iter().any(|t| t.id == mid)) {
        return error(
            400,
            160004,
            "A thread has already been created for this message",
        );
    }
    // A thread is in its parent channel's guild.
    let guild = shared.with(|s| s.channel_guilds.get(&ch).copied().unwrap_or(GUILD_ID));
    let v = json!({
        "id": mid.to_string(), "type": 11, "guild_id": guild.to_string(),
        "parent_id": ch.to_string(), "owner_id": APP_ID.to_string(), "name": name,
        "last_message_id": null, "rate_limit_per_user": 0, "message_count": 0,
        "member_count": 1, "flags": 0, "total_message_sent": 0,
        "thread_metadata": {"archived": false,
            "auto_archive_duration": p["auto_archive_duration"].as_u64().unwrap_or(4320),
            "archive_timestamp": "2026-01-01T00:00:00.000000+00:00", "locked": false},
    });
    if let Err(e) = serde_json::from_value::<serenity::model::channel::GuildChannel>(v.clone()) {
        panic!("fake built an unreadable thread: {e}");
    }
    shared.with(|s| {
        s.threads.push(super::Thread {
            id: mid,
            parent_id: ch,
            name,
        });
        if guild != GUILD_ID {
            s.channel_guilds.insert(mid, guild);
        }
        if let Some(m) = s.messages.iter_mut().find(|m| m.id == mid) {
            m.json["thread"] = v.clone();
        }
    });
    (StatusCode::OK, Some(v))
}

fn original(s: &State, token: &str) -> Option<Msg> {
    let i = s.interactions.get(token)?;
    let id = i.original?;
    s.message(id).cloned()
}

fn callback(shared: &Shared, token: &str, body: Value, files: Vec<FilePart>) -> Reply {
    let Some(inter) = shared.with(|s| s.interactions.get(token).cloned()) else {
        return error(404, 10062, "Unknown interaction");
    };
    if inter.response.is_some() {
        shared.with(|s| {
            s.rejected
                .push(format!("interaction {token} answered twice"))
        });
        return error(400, 40060, "Interaction has already been acknowledged.");
    }
    if inter.sent_at.elapsed() > Duration::from_secs(3) {
        shared.with(|s| {
            s.rejected
                .push(format!("interaction {token} answered after 3 s"))
        });
        return error(404, 10062, "Unknown interaction");
    }
    let kind = body["type"].as_u64().unwrap_or(0);
    let data = body["data"].clone();
    let ephemeral = data["flags"].as_u64().unwrap_or(0) & 64 != 0;
    let dm_user = shared.with(|s| {
        s.dm_channels
            .iter()
            .find(|(_, c)| **c == inter.channel_id)
            .map(|(u, _)| *u)
    });
    let origin = Origin {
        dm_user,
        for_user: Some(inter.user),
        ephemeral,
        token: Some(token.to_string()),
    };
    let result: Reply = match kind {
        // A reply may upload files, as a message create does.
        4 => {
            let r = create_with_files(shared, inter.channel_id, &data, origin, files);
            if let Some(m) = &r.1
                && let Some(id) = m["id"].as_str().and_then(|i| i.parse::<u64>().ok())
            {
                shared.with(|s| s.interactions.get_mut(token).map(|i| i.original = Some(id)));
            }
            if r.0 != StatusCode::OK {
                return r;
            }
            (StatusCode::NO_CONTENT, None)
        }
        5 => {
            // "Thinking...": an empty original response to edit later.
            let res = shared.with(|s| {
                let mut placeholder = json!({"content": ""});
                placeholder["flags"] = data["flags"].clone();
                insert_message(s, inter.channel_id, &placeholder, &origin, Vec::new()).map(|m| {
                    let id = m["id"].as_str().and_then(|i| i.parse::<u64>().ok());
                    if let Some(i) = s.interactions.get_mut(token) {
                        i.original = id;
                    }
                })
            });
            if let Err(e) = res {
                return reject(shared, e);
            }
            (StatusCode::NO_CONTENT, None)
        }
        6 => (StatusCode::NO_CONTENT, None),
        7 => {
            let Some(mid) = inter.message_id else {
                return reject(
                    shared,
                    "UPDATE_MESSAGE for an interaction without a message".into(),
                );
            };
            let r = edit(shared, mid, &data);
            if r.0 != StatusCode::OK {
                return r;
            }
            (StatusCode::NO_CONTENT, None)
        }
        8 => {
            if data["choices"].as_array().is_some_and(|c| c.len() > 25) {
                return reject(shared, "more than 25 autocomplete choices".into());
            }
            (StatusCode::NO_CONTENT, None)
        }
        other => {
            return reject(
                shared,
                format!("unsupported interaction response type {other}"),
            );
        }
    };
    shared.with(|s| {
        if let Some(i) = s.interactions.get_mut(token) {
            i.response = Some(kind);
        }
    });
    result
}

fn followup(shared: &Shared, token: &str, body: Value, files: Vec<FilePart>) -> Reply {
    let Some(inter) = shared.with(|s| s.interactions.get(token).cloned()) else {
        return error(404, 10015, "Unknown Webhook");
    };
    if inter.response.is_none() {
        return reject(shared, format!("follow-up to {token} before any response"));
    }
    let ephemeral = body["flags"].as_u64().unwrap_or(0) & 64 != 0;
    // The first follow-up after a deferred response replaces "thinking...".
    if inter.response == Some(5)
        && let Some(orig) = shared.with(|s| original(s, token))
        && orig.content().is_empty()
        && orig.json["embeds"].as_array().is_none_or(|a| a.is_empty())
    {
        if !files.is_empty() {
            return edit_with_files(shared, orig.id, &body, files);
        }
        return edit(shared, orig.id, &body);
    }
    let dm_user = shared.with(|s| {
        s.dm_channels
            .iter()
            .find(|(_, c)| **c == inter.channel_id)
            .map(|(u, _)| *u)
    });
    create_with_files(
        shared,
        inter.channel_id,
        &body,
        Origin {
            dm_user,
            for_user: Some(inter.user),
            ephemeral,
            token: Some(token.to_string()),
        },
        files,
    )
}

/// An edit that uploads files (a follow-up that replaces a deferred
/// response's placeholder, a living board's new image): they become the
/// message's attachments.
fn edit_with_files(shared: &Shared, id: u64, p: &Value, files: Vec<FilePart>) -> Reply {
    let Some(channel) = shared.with(|s| s.message(id).map(|m| m.channel_id)) else {
        return error(404, 10008, "Unknown Message");
    };
    let (attachments, uploads) = match shared.with(|s| attach(s, channel, p, files)) {
        Ok(a) => a,
        Err(e) => return reject(shared, e),
    };
    let (status, out) = edit(shared, id, p);
    let (true, Some(mut j)) = (status == StatusCode::OK, out.clone()) else {
        return (status, out);
    };
    j["attachments"] = Value::Array(attachments);
    shared.with(|s| {
        if let Some(m) = s.messages.iter_mut().find(|m| m.id == id) {
            m.json["attachments"] = j["attachments"].clone();
            m.files = uploads;
        }
    });
    (status, Some(j))
}

//! The fake's gateway: one websocket session at a time (a restarted bot
//! reconnects), HELLO / IDENTIFY / READY / heartbeats, then the events the
//! tests inject.

use super::{APP_ID, Shared, TOKEN};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

/// Deserialises an event into serenity's model type, as the bot will.
pub fn validate_event(t: &str, d: &Value) -> Result<(), String> {
    use serenity::model::prelude::*;
    match t {
        "READY" => serde_json::from_value::<Ready>(d.clone()).map(|_| ()),
        "INTERACTION_CREATE" => serde_json::from_value::<Interaction>(d.clone()).map(|_| ()),
        "MESSAGE_CREATE" => serde_json::from_value::<Message>(d.clone()).map(|_| ()),
        other => return Err(format!("the fake does not send {other}")),
    }
    .map_err(|e| e.to_string())
}

/// Accepts gateway connections until the task is aborted.
pub async fn serve(listener: TcpListener, shared: Shared) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            if let Err(e) = session(stream, shared.clone()).await {
                shared.with(|s| s.rejected.push(format!("gateway: {e}")));
            }
        });
    }
}

async fn session(stream: tokio::net::TcpStream, shared: Shared) -> Result<(), String> {
    let mut ws = tokio_tungstenite::accept_async(stream)
        .await
        .map_err(|e| e.to_string())?;
    let hello = json!({"op": 10, "d": {"heartbeat_interval": 41_250}});
    ws.send(Message::Text(hello.to_string()))
        .await
        .map_err(|e| e.to_string())?;
    // IDENTIFY
    let identify = loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                match v["op"].as_u64() {
                    Some(2) => break v,
                    Some(1) => {
                        ws.send(Message::Text(json!({"op": 11}).to_string()))
                            .await
                            .map_err(|e| e.to_string())?;
                    }
                    _ => {}
                }
            }
            Some(Ok(_)) => {}
            _ => return Err("closed before IDENTIFY".into()),
        }
    };
    if identify["d"]["token"]
        .as_str()
        .map(|t| t.trim_start_matches("Bot "))
        != Some(TOKEN)
    {
        // As Discord does: close code 4004, "Authentication failed".
        let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
            code: 4004.into(),
            reason: "Authentication failed.".into(),
        };
        ws.send(Message::Close(Some(close))).await.ok();
        return Err("IDENTIFY with a wrong token".into());
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let session_no = shared.with(|s| {
        s.identify = Some(identify["d"].clone());
        s.seq += 1;
        s.seq
    });
    let ready = json!({
        "v": 10,
        "user": {"id": APP_ID.to_string(), "username": "gamehost", "global_name": null, "discriminator": "0000",
                 "avatar": null, "bot": true, "verified": true, "mfa_enabled": false, "flags": 0},
        "guilds": [],
        "session_id": format!("session-{session_no}"),
        "resume_gateway_url": shared.gateway_url,
        "shard": [0, 1],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    });
    validate_event("READY", &ready).map_err(|e| format!("bad READY fixture: {e}"))?;
    let frame = json!({"op": 0, "t": "READY", "s": session_no, "d": ready}).to_string();
    ws.send(Message::Text(frame))
        .await
        .map_err(|e| e.to_string())?;
    shared.with(|s| {
        s.gateway = Some(tx);
        s.gateway_session = session_no;
        s.sessions += 1;
    });
    let result = loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some(frame) => {
                    if let Err(e) = ws.send(Message::Text(frame)).await {
                        break Err(e.to_string());
                    }
                }
                None => break Ok(()),
            },
            inc = ws.next() => match inc {
                Some(Ok(Message::Text(t))) => {
                    let v: Value = serde_json::from_str(&t).unwrap_or_default();
                    if v["op"] == 1 {
                        let _ = ws.send(Message::Text(json!({"op": 11}).to_string())).await;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break Ok(()),
                Some(Ok(_)) => {}
            }
        }
    };
    shared.with(|s| {
        if s.gateway_session == session_no {
            s.gateway = None;
        }
    });
    result
}

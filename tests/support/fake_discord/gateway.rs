//! The fake's gateway: one websocket session per shard (a restarted bot
//! reconnects and replaces its shard's session), HELLO / IDENTIFY / READY /
//! heartbeats, then the events the tests inject.
//!
//! Sharding as Discord does it: IDENTIFY names `[shard_id, num_shards]`;
//! a guild's events go to shard `(guild_id >> 22) % num_shards` and DMs to
//! shard 0 only. An IDENTIFY with fewer shards than the fake requires is
//! closed with 4011 ("Sharding required"), one with a shard id out of range
//! or another total with 4010 ("Invalid shard").

use super::{APP_ID, Frame, Shared, TOKEN};
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
        "GUILD_CREATE" => serde_json::from_value::<Guild>(d.clone()).map(|_| ()),
        other => return Err(format!("the fake does not send {other}")),
    }
    .map_err(|e| e.to_string())
}

/// The frame that closes a session with code 4000 (no event is empty).
pub const CLOSE: &str = "";

/// Accepts gateway connections until the task is aborted (dropping them
/// while the gateway is down).
pub async fn serve(listener: TcpListener, shared: Shared) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        if shared.state.lock().unwrap().gateway_down {
            drop(stream);
            continue;
        }
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
                    // A RESUME: this fake keeps no sessions to resume, so
                    // it answers as Discord does for an expired one
                    // (INVALID_SESSION, not resumable): identify anew.
                    Some(6) => {
                        ws.send(Message::Text(json!({"op": 9, "d": false}).to_string()))
                            .await
                            .map_err(|e| e.to_string())?;
                    }
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
    let (shard_id, shard_total) = identified_shard(&identify["d"]["shard"]);
    let required = shared.with(|s| s.shard_total);
    let refusal = if shard_total < required {
        Some((4011, "Sharding required."))
    } else if shard_id >= shard_total || shard_total != required {
        Some((4010, "Invalid shard."))
    } else {
        None
    };
    if let Some((code, reason)) = refusal {
        let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
            code: code.into(),
            reason: reason.into(),
        };
        ws.send(Message::Close(Some(close))).await.ok();
        return Err(format!(
            "IDENTIFY as shard [{shard_id}, {shard_total}] where {required} shard(s) are required"
        ));
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<Frame>();
    let session_no = shared.with(|s| {
        s.identify = Some(identify["d"].clone());
        s.identifies.push(identify["d"].clone());
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
        "shard": [shard_id, shard_total],
        "application": {"id": APP_ID.to_string(), "flags": 0},
    });
    validate_event("READY", &ready).map_err(|e| format!("bad READY fixture: {e}"))?;
    let frame = json!({"op": 0, "t": "READY", "s": session_no, "d": ready}).to_string();
    ws.send(Message::Text(frame))
        .await
        .map_err(|e| e.to_string())?;
    shared.with(|s| {
        s.gateways.insert(shard_id, (session_no, tx));
        s.sessions += 1;
    });
    let result = loop {
        tokio::select! {
            out = rx.recv() => match out {
                Some((_, frame)) if frame == CLOSE => {
                    let close = tokio_tungstenite::tungstenite::protocol::CloseFrame {
                        code: 4000.into(),
                        reason: "Unknown error.".into(),
                    };
                    let _ = ws.send(Message::Close(Some(close))).await;
                    break Ok(());
                }
                Some((due, frame)) => {
                    // Frames are queued in order, each due a latency after
                    // it was dispatched: waiting keeps both.
                    tokio::time::sleep_until(due).await;
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
        if s.gateways.get(&shard_id).map(|(n, _)| *n) == Some(session_no) {
            s.gateways.remove(&shard_id);
        }
    });
    result
}

/// The `[shard_id, num_shards]` of an IDENTIFY; without one, shard 0 of 1.
fn identified_shard(shard: &Value) -> (u32, u32) {
    let part = |i: usize, default: u32| {
        shard
            .get(i)
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(default)
    };
    (part(0, 0), part(1, 1))
}

/// The shard whose session receives an event: a guild's events go to
/// `(guild_id >> 22) % num_shards`, everything else (DMs) to shard 0.
pub fn shard_of(d: &Value, shard_total: u32) -> u32 {
    let guild = d["guild_id"].as_str().and_then(|g| g.parse::<u64>().ok());
    match guild {
        Some(g) => ((g >> 22) % u64::from(shard_total.max(1))) as u32,
        None => 0,
    }
}

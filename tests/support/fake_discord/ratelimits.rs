//! Discord's REST rate limits as the fake enforces them
//! (<https://discord.com/developers/docs/topics/rate-limits>): per-route
//! buckets keyed by the route's shape and its major parameter, the global
//! limit, and 429 answers with the documented headers and body. What
//! happened is recorded in [`State`] so tests can check that the bot waited
//! whenever it was told to.

use super::{APP_ID, State};
use hyper::Method;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// At most `requests` in each window of `per`, counted as Discord counts
/// them: the window starts with its first request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// Requests allowed in one window.
    pub requests: u32,
    /// The window's length.
    pub per: Duration,
}

impl Limit {
    /// `requests` per `per`.
    pub const fn new(requests: u32, per: Duration) -> Limit {
        Limit { requests, per }
    }
}

/// The rate limits the fake enforces: [`RateLimits::discord`] by default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimits {
    /// Whether any limit applies (off: no 429 and no rate-limit headers).
    pub enabled: bool,
    /// Every request except the interaction endpoints, together.
    pub global: Limit,
    /// `POST /channels/{c}/messages`, per channel.
    pub message_create: Limit,
    /// `PATCH /channels/{c}/messages/{m}`, per channel.
    pub message_edit: Limit,
    /// `POST /users/@me/channels`: opening a DM channel.
    pub dm_open: Limit,
    /// `POST /interactions/{i}/{t}/callback`, per interaction.
    pub interaction_callback: Limit,
    /// Every other route, per route and major parameter.
    pub other: Limit,
}

impl RateLimits {
    /// Discord's limits as bots meet them: 50 requests a second in all,
    /// 5 message creates and 5 edits per 5 s in a channel, 5 DM opens a
    /// second; the routes Discord does not hold tight get 50 a second.
    pub fn discord() -> RateLimits {
        let second = Duration::from_secs(1);
        RateLimits {
            enabled: true,
            global: Limit::new(50, second),
            message_create: Limit::new(5, Duration::from_secs(5)),
            message_edit: Limit::new(5, Duration::from_secs(5)),
            dm_open: Limit::new(5, second),
            interaction_callback: Limit::new(50, second),
            other: Limit::new(50, second),
        }
    }

    /// No limit at all (the fake of before: never a 429).
    pub fn off() -> RateLimits {
        RateLimits {
            enabled: false,
            ..RateLimits::discord()
        }
    }

    /// The limit of a route shape.
    fn of(&self, shape: &str) -> Limit {
        match shape {
            "POST /channels/{id}/messages" => self.message_create,
            "PATCH /channels/{id}/messages/{id}" => self.message_edit,
            "POST /users/@me/channels" => self.dm_open,
            "POST /interactions/{id}/{token}/callback" => self.interaction_callback,
            _ => self.other,
        }
    }
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits::discord()
    }
}

/// Which limit a 429 reports (`X-RateLimit-Scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The bot's own per-route limit.
    User,
    /// The bot's global limit.
    Global,
    /// A limit of the resource, shared by everyone.
    Shared,
}

impl Scope {
    fn header(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Global => "global",
            Scope::Shared => "shared",
        }
    }
}

/// One REST request as the rate limiter saw it.
#[derive(Debug, Clone)]
pub struct Call {
    /// When it arrived.
    pub at: Instant,
    /// "POST /api/v10/channels/1/messages".
    pub request: String,
    /// Its bucket: the route's shape and major parameter.
    pub bucket: String,
    /// The status answered.
    pub status: u16,
}

/// A 429 the fake answered.
#[derive(Debug, Clone)]
pub struct TooMany {
    /// When the refused request arrived.
    pub at: Instant,
    /// Its bucket (shape and major parameter), or "global".
    pub bucket: String,
    /// The refused request ("METHOD path").
    pub request: String,
    /// The limit that refused it.
    pub scope: Scope,
    /// How long the bot was told to wait.
    pub retry_after: Duration,
    /// How long after the 429 the bucket's next request came (None: none
    /// came yet).
    pub next_after: Option<Duration>,
}

impl TooMany {
    /// Whether the bot waited as told (None: it sent nothing there since).
    pub fn honoured(&self) -> Option<bool> {
        self.next_after.map(|d| d >= self.retry_after)
    }
}

/// A request that came while a 429 still told the bot to wait.
#[derive(Debug, Clone)]
pub struct Violation {
    /// When it arrived.
    pub at: Instant,
    /// The request ("METHOD path").
    pub request: String,
    /// The bucket the 429 was about, or "global".
    pub bucket: String,
    /// How much earlier than allowed it came.
    pub early_by: Duration,
}

/// A request the bot may have sent before it read a 429 is not judged by
/// it: one arriving within the round trip plus this much of the 429.
const IN_FLIGHT_SLACK: Duration = Duration::from_millis(20);

/// Which bucket a request counts against.
struct Route {
    /// The shape, ids left out: "POST /channels/{id}/messages".
    shape: String,
    /// The major parameter ("channels/1", "webhooks/1/token"), if any.
    major: Option<String>,
    /// An interaction endpoint: outside the global limit.
    interaction: bool,
}

impl Route {
    fn of(method: &Method, path: &str) -> Route {
        let rest = path.strip_prefix("/api/v10").unwrap_or(path);
        let mut seg: Vec<&str> = rest.trim_start_matches('/').split('/').collect();
        let app = APP_ID.to_string();
        let interaction =
            seg[0] == "interactions" || (seg[0] == "webhooks" && seg.get(1) == Some(&&*app));
        // Channels and guilds by their id; webhooks (the interaction
        // follow-ups among them) and interactions by id and token.
        let major_len = match seg[0] {
            "channels" | "guilds" => 2,
            "webhooks" | "interactions" => 3,
            _ => 0,
        }
        .min(seg.len());
        let major = (major_len > 1).then(|| seg[..major_len].join("/"));
        if major_len == 3 {
            seg[2] = "{token}";
        }
        let shape: Vec<&str> = seg
            .iter()
            .map(|s| {
                if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                    "{id}"
                } else {
                    *s
                }
            })
            .collect();
        Route {
            shape: format!("{method} /{}", shape.join("/")),
            major,
            interaction,
        }
    }

    /// The bucket's name in the records.
    fn bucket(&self) -> String {
        match &self.major {
            Some(m) => format!("{} @ {m}", self.shape),
            None => self.shape.clone(),
        }
    }
}

/// The bucket of a request, as [`Call::bucket`] names it.
pub(crate) fn bucket_of(method: &Method, path: &str) -> String {
    Route::of(method, path).bucket()
}

/// One fixed window of a bucket.
#[derive(Debug, Default)]
struct Window {
    count: u32,
    reset_at: Option<Instant>,
}

impl Window {
    /// Starts a new window if the last one is over.
    fn roll(&mut self, now: Instant, per: Duration) -> Instant {
        match self.reset_at {
            Some(r) if now < r => r,
            _ => {
                self.count = 0;
                *self.reset_at.insert(now + per)
            }
        }
    }
}

/// A 429 not yet followed by a request the bot sent after reading it.
#[derive(Debug)]
struct Penalty {
    /// Requests arriving from then on were sent after the 429 was read.
    judged_from: Instant,
    /// The bot may send again from then on.
    until: Instant,
    /// Its entry in [`State::too_many`].
    index: usize,
}

/// The limiter's state: windows, pending 429s, forced 429s.
#[derive(Debug, Default)]
pub(crate) struct Limiter {
    /// The limits in force.
    pub limits: RateLimits,
    /// The round trip every REST answer takes.
    pub latency: Duration,
    windows: HashMap<String, Window>,
    global: Window,
    penalties: HashMap<String, Penalty>,
    /// Channels whose next message create is answered 429, with its wait.
    forced: HashMap<u64, Forced>,
}

/// A 429 a test asked for: how long it says to wait, and in what form.
#[derive(Debug, Clone, Copy)]
struct Forced {
    retry_after: Duration,
    /// Whether it carries `Retry-After` (else only the body's
    /// `retry_after` and the `X-RateLimit-*` headers say how long).
    retry_after_header: bool,
}

impl Limiter {
    /// Makes the next message create in `channel` a 429 asking to wait.
    pub fn force_429(&mut self, channel: u64, retry_after: Duration) {
        let forced = Forced {
            retry_after,
            retry_after_header: true,
        };
        self.forced.insert(channel, forced);
    }

    /// Like [`Limiter::force_429`], the 429 without a `Retry-After` header:
    /// its body (`message`, `retry_after`, `global`, no `code`, which
    /// Discord documents as optional) and its `X-RateLimit-*` headers say
    /// how long to wait.
    pub fn force_429_without_retry_after_header(&mut self, channel: u64, retry_after: Duration) {
        let forced = Forced {
            retry_after,
            retry_after_header: false,
        };
        self.forced.insert(channel, forced);
    }
}

/// A 429 answer: its headers and documented body.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub headers: Vec<(&'static str, String)>,
    pub body: Value,
}

/// The rate-limit headers of an answer.
pub(crate) type Headers = Vec<(&'static str, String)>;

/// Counts a request that arrived `now` against its bucket and the global
/// limit: `Ok` with the headers of its answer, or the 429 that refuses it
/// (the request is then not performed).
pub(crate) fn admit(
    s: &mut State,
    method: &Method,
    path: &str,
    now: Instant,
) -> Result<Headers, Refusal> {
    let route = Route::of(method, path);
    let bucket = route.bucket();
    let request = format!("{method} {path}");
    judge(s, &bucket, &request, now);
    if !route.interaction {
        judge(s, "global", &request, now);
    }
    if !s.limiter.limits.enabled {
        return Ok(Vec::new());
    }
    let limit = s.limiter.limits.of(&route.shape);
    let forced = (route.shape == "POST /channels/{id}/messages")
        .then(|| {
            route
                .major
                .as_deref()?
                .strip_prefix("channels/")?
                .parse()
                .ok()
        })
        .flatten()
        .and_then(|c: u64| s.limiter.forced.remove(&c));
    let window = s.limiter.windows.entry(bucket.clone()).or_default();
    let mut reset_at = window.roll(now, limit.per);
    if let Some(f) = forced {
        window.count = limit.requests;
        reset_at = now + f.retry_after;
        window.reset_at = Some(reset_at);
    }
    if window.count >= limit.requests {
        let headers = bucket_headers(&route, limit, 0, reset_at - now);
        let mut refusal = refuse(s, (bucket, request), Scope::User, now, reset_at, headers);
        if forced.is_some_and(|f| !f.retry_after_header) {
            refusal.headers.retain(|(name, _)| *name != "retry-after");
        }
        return Err(refusal);
    }
    if !route.interaction {
        let global = s.limiter.limits.global;
        let global_reset = s.limiter.global.roll(now, global.per);
        if s.limiter.global.count >= global.requests {
            let headers = vec![("x-ratelimit-global", "true".to_string())];
            let who = ("global".to_string(), request);
            return Err(refuse(s, who, Scope::Global, now, global_reset, headers));
        }
        s.limiter.global.count += 1;
    }
    let window = s.limiter.windows.get_mut(&bucket).expect("rolled above");
    window.count += 1;
    let remaining = limit.requests - window.count;
    Ok(bucket_headers(&route, limit, remaining, reset_at - now))
}

/// Records a request on a bucket a 429 told the bot to leave alone: the
/// first one sent after the bot read the 429 says whether it waited.
fn judge(s: &mut State, bucket: &str, request: &str, now: Instant) {
    let Some(p) = s.limiter.penalties.get(bucket) else {
        return;
    };
    if now < p.judged_from {
        return;
    }
    let p = s.limiter.penalties.remove(bucket).expect("just found");
    let told = &mut s.too_many[p.index];
    told.next_after = Some(now - told.at);
    if now < p.until {
        s.violations.push(Violation {
            at: now,
            request: request.to_string(),
            bucket: bucket.to_string(),
            early_by: p.until - now,
        });
    }
}

/// Builds a 429 and remembers that it asked the bot to wait until `until`.
fn refuse(
    s: &mut State,
    (bucket, request): (String, String),
    scope: Scope,
    now: Instant,
    until: Instant,
    mut headers: Headers,
) -> Refusal {
    let retry_after = until - now;
    s.limiter.penalties.insert(
        bucket.clone(),
        Penalty {
            judged_from: now + s.limiter.latency + IN_FLIGHT_SLACK,
            until,
            index: s.too_many.len(),
        },
    );
    s.too_many.push(TooMany {
        at: now,
        bucket,
        request,
        scope,
        retry_after,
        next_after: None,
    });
    // `Retry-After` in whole seconds, rounded up; the body has the float.
    let whole = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
    headers.push(("retry-after", whole.to_string()));
    headers.push(("x-ratelimit-scope", scope.header().to_string()));
    Refusal {
        headers,
        body: json!({
            "message": "You are being rate limited.",
            "retry_after": round_ms(retry_after),
            "global": scope == Scope::Global,
        }),
    }
}

/// The `X-RateLimit-*` headers of a bucket.
fn bucket_headers(route: &Route, limit: Limit, remaining: u32, reset_after: Duration) -> Headers {
    let reset = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        + reset_after;
    vec![
        ("x-ratelimit-limit", limit.requests.to_string()),
        ("x-ratelimit-remaining", remaining.to_string()),
        ("x-ratelimit-reset", format!("{:.3}", reset.as_secs_f64())),
        (
            "x-ratelimit-reset-after",
            format!("{:.3}", round_ms(reset_after)),
        ),
        ("x-ratelimit-bucket", bucket_hash(&route.shape)),
    ]
}

/// Seconds with millisecond precision, rounded up (never shorter than the
/// real wait, as Discord's figures are).
fn round_ms(d: Duration) -> f64 {
    let ms = d.as_nanos().div_ceil(1_000_000);
    ms as f64 / 1000.0
}

/// An opaque hash of a route shape, as Discord's `X-RateLimit-Bucket`.
fn bucket_hash(shape: &str) -> String {
    // FNV-1a: stable across runs, unlike the std hasher.
    let hash = shape.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_bucketed_by_shape_and_major_parameter() {
        let r = Route::of(&Method::POST, "/api/v10/channels/12/messages");
        assert_eq!(r.bucket(), "POST /channels/{id}/messages @ channels/12");
        let r = Route::of(&Method::PATCH, "/api/v10/channels/12/messages/34");
        assert_eq!(r.shape, "PATCH /channels/{id}/messages/{id}");
        let r = Route::of(&Method::POST, "/api/v10/interactions/5/tok/callback");
        assert_eq!(r.shape, "POST /interactions/{id}/{token}/callback");
        assert!(r.interaction);
        let r = Route::of(&Method::POST, &format!("/api/v10/webhooks/{APP_ID}/tok"));
        assert_eq!(r.major.as_deref(), Some(&*format!("webhooks/{APP_ID}/tok")));
        assert!(r.interaction);
        let r = Route::of(&Method::POST, "/api/v10/users/@me/channels");
        assert_eq!(
            (r.bucket().as_str(), r.interaction),
            ("POST /users/@me/channels", false)
        );
    }

    #[test]
    fn the_sixth_message_in_five_seconds_is_refused_and_not_counted() {
        let mut s = State::default();
        let t = Instant::now();
        let path = "/api/v10/channels/1/messages";
        for i in 0..5 {
            let h = admit(&mut s, &Method::POST, path, t).expect("within the limit");
            assert_eq!(h[1].1, (4 - i).to_string());
        }
        let refused = admit(&mut s, &Method::POST, path, t).expect_err("a 429");
        assert_eq!(refused.body["global"], false);
        assert!(refused.headers.contains(&("retry-after", "5".to_string())));
        // Another channel has its own bucket.
        assert!(admit(&mut s, &Method::POST, "/api/v10/channels/2/messages", t).is_ok());
        // Too early: a violation; after the window: allowed and honoured.
        let early = t + Duration::from_secs(1);
        assert!(admit(&mut s, &Method::POST, path, early).is_err());
        assert_eq!(s.violations.len(), 1);
        assert!(admit(&mut s, &Method::POST, path, t + Duration::from_secs(5)).is_ok());
        assert_eq!(s.too_many[1].honoured(), Some(true));
    }
}

//! What `/metrics` shows of the bot's REST traffic with Discord: how long
//! the requests the bot sends on its own took, and how often Discord's rate
//! limits held a request back. Labelled by a route's template
//! (`POST /channels/{id}/messages`), never by an id, a name or a token.

use poise::serenity_prelude as serenity;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};
use std::time::Duration;

/// `POST /channels/{id}/messages`: a message posted.
pub(crate) const MESSAGE_CREATE: &str = "POST /channels/{id}/messages";
/// `PATCH /channels/{id}/messages/{id}`: a message edited.
pub(crate) const MESSAGE_EDIT: &str = "PATCH /channels/{id}/messages/{id}";
/// `DELETE /channels/{id}/messages/{id}`: a message deleted (an old ping).
pub(crate) const MESSAGE_DELETE: &str = "DELETE /channels/{id}/messages/{id}";
/// `POST /channels/{id}/messages/{id}/threads`: a thread opened on a message.
pub(crate) const THREAD_CREATE: &str = "POST /channels/{id}/messages/{id}/threads";
/// `POST /users/@me/channels`: a DM channel opened.
pub(crate) const DM_OPEN: &str = "POST /users/@me/channels";

/// The label of a timed request: `route`.
type RouteLabel = Vec<(&'static str, &'static str)>;
/// The labels of a rate-limit hit: `scope` and `route`.
type LimitLabels = Vec<(&'static str, String)>;

/// The REST metrics (cheap to clone: every metric is shared).
#[derive(Clone)]
pub struct RestMetrics {
    latency: Family<RouteLabel, Histogram, fn() -> Histogram>,
    rate_limited: Family<LimitLabels, Counter>,
}

/// Buckets from 10 ms to about 41 s (doubling).
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.01, 2.0, 13))
}

impl Default for RestMetrics {
    fn default() -> Self {
        RestMetrics {
            latency: Family::new_with_constructor(latency_histogram),
            rate_limited: Family::default(),
        }
    }
}

impl RestMetrics {
    /// Adds every metric to `registry` (names get the registry's prefix).
    pub(crate) fn register(&self, registry: &mut Registry) {
        registry.register_with_unit(
            "discord_rest_request",
            "Time from sending a REST request the bot makes on its own (messages, edits, \
             threads, DM channels) to Discord's answer, rate-limit waits included, by route",
            Unit::Seconds,
            self.latency.clone(),
        );
        registry.register(
            "discord_rate_limited",
            "Requests Discord's rate limits held back, by scope (global: a global 429; \
             route: a route's 429 or its spent bucket waited out) and route",
            self.rate_limited.clone(),
        );
    }

    /// Runs one REST request to `route` (one of this module's templates),
    /// timing it.
    pub(crate) async fn timed<T>(
        &self,
        route: &'static str,
        request: impl std::future::Future<Output = T>,
    ) -> T {
        let start = std::time::Instant::now();
        let out = request.await;
        self.observe(route, start.elapsed());
        out
    }

    /// A request to `route` took `took`.
    fn observe(&self, route: &'static str, took: Duration) {
        self.latency
            .get_or_create(&vec![("route", route)])
            .observe(took.as_secs_f64());
    }

    /// serenity's rate limiter held a request back.
    fn rate_limited(&self, info: &serenity::RatelimitInfo) {
        let scope = if info.global { "global" } else { "route" };
        let route = route_template(info.method.reqwest_method().as_str(), &info.path);
        self.rate_limited
            .get_or_create(&vec![("scope", scope.to_string()), ("route", route)])
            .inc();
    }
}

/// The words of Discord's REST paths kept as they are in a template; any
/// other segment is an id (`{id}`) or a value such as an interaction token
/// or an emoji (`{value}`), so no label ever carries one.
const ROUTE_WORDS: &[&str] = &[
    "@me",
    "@original",
    "applications",
    "archived",
    "bot",
    "callback",
    "channels",
    "commands",
    "gateway",
    "guilds",
    "interactions",
    "members",
    "messages",
    "oauth2",
    "permissions",
    "pins",
    "private",
    "public",
    "reactions",
    "recipients",
    "roles",
    "thread-members",
    "threads",
    "typing",
    "users",
    "webhooks",
];

/// `GET` and `https://discord.com/api/v10/channels/12/messages` make
/// `GET /channels/{id}/messages`.
pub(crate) fn route_template(method: &str, path: &str) -> String {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let path = match path.find("/api/v") {
        Some(at) => {
            let rest = &path[at + "/api/v".len()..];
            rest.find('/').map_or("", |slash| &rest[slash..])
        }
        None => path,
    };
    let mut template = String::from(method);
    template.push(' ');
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        template.push('/');
        if ROUTE_WORDS.contains(&segment) {
            template.push_str(segment);
        } else if segment.bytes().all(|b| b.is_ascii_digit()) {
            template.push_str("{id}");
        } else {
            template.push_str("{value}");
        }
    }
    template
}

/// Counts the rate-limit hits serenity reports (its rate limiter calls
/// the client's event handlers).
pub(crate) struct RateLimitCounter(pub(crate) RestMetrics);

#[serenity::async_trait]
impl serenity::EventHandler for RateLimitCounter {
    async fn ratelimit(&self, data: serenity::RatelimitInfo) {
        self.0.rate_limited(&data);
    }
}

#[cfg(test)]
mod tests {
    use super::route_template;

    #[test]
    fn templates_keep_the_route_and_drop_every_id_and_token() {
        for (method, path, template) in [
            (
                "POST",
                "https://discord.com/api/v10/channels/2700000000000001/messages",
                "POST /channels/{id}/messages",
            ),
            (
                "PATCH",
                "https://discord.com/api/v10/channels/1/messages/22",
                "PATCH /channels/{id}/messages/{id}",
            ),
            (
                "POST",
                "https://discord.com/api/v10/interactions/99/aW50ZXJhY3Rpb246OTk6c2VjcmV0/callback",
                "POST /interactions/{id}/{value}/callback",
            ),
            (
                "PUT",
                "https://discord.com/api/v10/channels/1/messages/2/reactions/%F0%9F%91%8D/@me",
                "PUT /channels/{id}/messages/{id}/reactions/{value}/@me",
            ),
            (
                "GET",
                "http://127.0.0.1:8080/api/v10/users/@me?with_counts=true",
                "GET /users/@me",
            ),
            ("GET", "/gateway/bot", "GET /gateway/bot"),
        ] {
            assert_eq!(route_template(method, path), template, "{path}");
        }
    }
}

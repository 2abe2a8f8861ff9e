//! Blanking passwords out of PostgreSQL connection strings before they
//! reach a message, a log line or a file name: the URL form
//! (`postgres://user:pw@host/db`, `?password=pw`, percent-encoded or not)
//! and libpq's keyword form (`host=h password=pw`, `password='a b'`).

/// What a password is replaced with.
const BLANK: &str = "***";

/// A connection string (URL or keyword form) without its password, for
/// messages, logs and file names; any other text is returned as it is.
pub fn redact_url(conn: &str) -> String {
    if let Some((scheme, rest)) = conn.split_once("://") {
        format!("{scheme}://{}", redact_url_rest(rest))
    } else if conn.contains('=') {
        redact_keywords(conn)
    } else {
        conn.to_string()
    }
}

/// The keywords of libpq's connection strings a keyword-form string may
/// start with (the usual ones; enough to tell one from a file name).
const CONNECTION_KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "sslmode",
    "application_name",
    "connect_timeout",
    "options",
];

/// Whether `text` is a connection string in libpq's keyword form
/// (`host=h password=pw`): it starts with a connection keyword and `=`.
pub fn is_keyword_connection_string(text: &str) -> bool {
    text.split_once('=').is_some_and(|(key, _)| {
        CONNECTION_KEYWORDS.contains(&key.trim().to_ascii_lowercase().as_str())
    })
}

/// Whether a parameter names a secret (`password`, `sslpassword`, in any
/// case, percent-encoded or not).
fn is_secret_key(key: &str) -> bool {
    percent_decode(key)
        .to_ascii_lowercase()
        .ends_with("password")
}

/// A URL after its `scheme://`: the userinfo's password and every secret
/// query parameter blanked.
fn redact_url_rest(rest: &str) -> String {
    // The last `@` ends the userinfo: a password may hold an unencoded `@`
    // (over-blanking a query value holding one is the safe mistake).
    let (userinfo, host_and_query) = match rest.rsplit_once('@') {
        Some((userinfo, tail)) => (Some(userinfo), tail),
        None => (None, rest),
    };
    let mut out = String::new();
    if let Some(userinfo) = userinfo {
        match userinfo.split_once(':') {
            Some((user, _)) => out.push_str(&format!("{user}:{BLANK}@")),
            None => out.push_str(&format!("{userinfo}@")),
        }
    }
    let Some((before, query)) = host_and_query.split_once('?') else {
        out.push_str(host_and_query);
        return out;
    };
    let (query, fragment) = match query.split_once('#') {
        Some((q, f)) => (q, Some(f)),
        None => (query, None),
    };
    let params: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if is_secret_key(key) => format!("{key}={BLANK}"),
            _ => pair.to_string(),
        })
        .collect();
    out.push_str(&format!("{before}?{}", params.join("&")));
    if let Some(f) = fragment {
        out.push_str(&format!("#{f}"));
    }
    out
}

/// A keyword-form connection string with secret values blanked, its pairs
/// rebuilt one space apart. Text that is no `key=value` pair is dropped:
/// it could be the tail of a password the parser did not understand.
fn redact_keywords(conn: &str) -> String {
    let mut pairs = Vec::new();
    let mut chars = conn.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let key: String =
            std::iter::from_fn(|| chars.next_if(|c| *c != '=' && !c.is_whitespace())).collect();
        if key.is_empty() && chars.peek().is_none() {
            break;
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next_if_eq(&'=').is_none() {
            pairs.push(format!("{key}=<unreadable>"));
            break;
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let value = keyword_value(&mut chars);
        if is_secret_key(&key) {
            pairs.push(format!("{key}={BLANK}"));
        } else {
            pairs.push(format!("{key}={value}"));
        }
    }
    pairs.join(" ")
}

/// One value of the keyword form, as written (quotes and escapes kept):
/// `'…'` with `\'` and `\\` escapes, or a run of non-blank characters.
fn keyword_value(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut value = String::new();
    let quoted = chars.next_if_eq(&'\'').is_some();
    if quoted {
        value.push('\'');
    }
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(c);
            if let Some(escaped) = chars.next() {
                value.push(escaped);
            }
            continue;
        }
        if (quoted && c == '\'') || (!quoted && c.is_whitespace()) {
            if quoted {
                value.push(c);
            }
            break;
        }
        value.push(c);
    }
    value
}

/// `%XX` escapes decoded (invalid ones kept as written), for comparing keys
/// (and for reading the TLS settings out of a URL).
pub(crate) fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::redact_url;

    /// Each form with the password it holds and what must remain.
    const FORMS: &[(&str, &str, &str)] = &[
        (
            "postgres://game:s3cret@db.local:5432/gamehost",
            "s3cret",
            "postgres://game:***@db.local:5432/gamehost",
        ),
        (
            "postgresql://game:p%40ss%2Fw0rd@db.local/gamehost",
            "p%40ss%2Fw0rd",
            "postgresql://game:***@db.local/gamehost",
        ),
        (
            "postgres://game:p@ss@db.local/gamehost",
            "p@ss",
            "postgres://game:***@db.local/gamehost",
        ),
        (
            "postgres://game@db.local/gamehost?sslmode=disable&password=s3cret",
            "s3cret",
            "postgres://game@db.local/gamehost?sslmode=disable&password=***",
        ),
        (
            "postgres://db.local/gamehost?user=game&PASSWORD=s3cret&application_name=x",
            "s3cret",
            "postgres://db.local/gamehost?user=game&PASSWORD=***&application_name=x",
        ),
        (
            "postgres://db.local/gamehost?pass%77ord=s3cret",
            "s3cret",
            "postgres://db.local/gamehost?pass%77ord=***",
        ),
        (
            "host=db.local user=game password=s3cret dbname=gamehost",
            "s3cret",
            "host=db.local user=game password=*** dbname=gamehost",
        ),
        (
            "host=db.local password='a b\\' c' dbname=gamehost",
            "a b",
            "host=db.local password=*** dbname=gamehost",
        ),
        (
            "host=db.local password = s3cret",
            "s3cret",
            "host=db.local password=***",
        ),
    ];

    #[test]
    fn a_password_never_shows_whatever_the_form() {
        for (conn, password, expected) in FORMS {
            let shown = redact_url(conn);
            assert!(!shown.contains(password), "{conn} shows as {shown}");
            assert_eq!(&shown, expected, "{conn}");
        }
    }

    #[test]
    fn keyword_connection_strings_are_told_from_file_names() {
        assert!(super::is_keyword_connection_string("host=db password=x"));
        assert!(super::is_keyword_connection_string(" dbname = games"));
        assert!(!super::is_keyword_connection_string("games=1.db"));
        assert!(!super::is_keyword_connection_string("/var/lib/gamehost.db"));
    }

    #[test]
    fn text_without_a_password_is_left_alone() {
        for text in [
            "postgres://game@db.local/gamehost",
            "postgres://db.local:5432/gamehost?sslmode=require",
            "/var/lib/gamehost/gamehost.db",
        ] {
            assert_eq!(redact_url(text), text);
        }
    }
}

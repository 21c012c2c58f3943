-- What is known of each source's syncs, and the HTTP validators of each URL.

CREATE TABLE sync_state (
    source                TEXT PRIMARY KEY REFERENCES sources(name) ON DELETE CASCADE,
    last_attempt          INTEGER,
    last_success          INTEGER,
    next_due              INTEGER,
    consecutive_failures  INTEGER NOT NULL DEFAULT 0,
    last_error            TEXT,
    last_http_status      INTEGER,
    retry_after           INTEGER,      -- earliest next attempt the upstream asked for (Retry-After, 418 block)
    last_summary          TEXT          -- "536 markets, 3 changed"
) STRICT;

-- Kept raw and sent back verbatim (If-None-Match, If-Modified-Since).
CREATE TABLE http_validators (
    url            TEXT PRIMARY KEY,
    source         TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
    etag           TEXT,
    last_modified  TEXT,
    body_sha256    TEXT,                -- an identical 200 body writes no rows
    updated_at     INTEGER NOT NULL
) STRICT;

CREATE TABLE sync_log (
    id            INTEGER PRIMARY KEY,
    source        TEXT NOT NULL,
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER NOT NULL,
    ok            INTEGER NOT NULL CHECK (ok IN (0, 1)),
    http_status   INTEGER,
    inserted      INTEGER NOT NULL DEFAULT 0,
    updated       INTEGER NOT NULL DEFAULT 0,
    removed       INTEGER NOT NULL DEFAULT 0,
    skipped       INTEGER NOT NULL DEFAULT 0,
    message       TEXT
) STRICT;
CREATE INDEX sync_log_by_source ON sync_log(source, started_at);

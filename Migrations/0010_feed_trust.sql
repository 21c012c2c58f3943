-- A spoke's trust in its hub's feed, per feed name (what the signed manifest calls itself; the
-- spoke follows the one it pinned). `serial` is the floor: no manifest older than the newest one
-- verified is ever applied, whichever source failed since. `valid_until` is that manifest's: once
-- past, the feed is stale even while the server answers "unchanged".
CREATE TABLE feed_trust (
    name         TEXT PRIMARY KEY,
    serial       INTEGER NOT NULL,
    generated    INTEGER NOT NULL,
    valid_until  INTEGER NOT NULL,
    checked_at   INTEGER NOT NULL
) STRICT;

-- The manifest each fed source's data came from: a source is never fed from an older one
-- (mix-and-match of old files and new).
CREATE TABLE feed_source_serials (
    source  TEXT PRIMARY KEY REFERENCES sources(name) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    serial  INTEGER NOT NULL
) STRICT;

-- Keys a feed's signed manifests announced as next (next_keys): trusted for that feed from then
-- on, so the hub can retire the key a spoke was configured with.
CREATE TABLE feed_keys (
    name     TEXT NOT NULL,
    key      TEXT NOT NULL,
    serial   INTEGER NOT NULL,
    PRIMARY KEY (name, key)
) STRICT;

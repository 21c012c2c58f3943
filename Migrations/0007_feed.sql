-- A spoke's view of its hub's feed: the manifest last applied in full, and how to ask for it
-- again conditionally. One row per hub URL.
CREATE TABLE feed_state (
    hub            TEXT PRIMARY KEY,       -- the feed folder's URL
    etag           TEXT,                   -- of manifest.json, sent back as If-None-Match
    last_modified  TEXT,
    serial         INTEGER NOT NULL,       -- the manifest's serial: an older one is never applied
    generated      INTEGER NOT NULL,       -- when the hub wrote it
    checked_at     INTEGER NOT NULL        -- when this host last heard from the hub
) STRICT;

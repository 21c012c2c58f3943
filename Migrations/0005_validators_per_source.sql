-- HTTP validators belong to a (source, URL) pair, not to a URL alone: two custom
-- lists may name the same URL, and the second must not inherit the first's ETag
-- (it would be told "not modified" and never get its quotes).

CREATE TABLE http_validators_by_source (
    source         TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
    url            TEXT NOT NULL,
    etag           TEXT,
    last_modified  TEXT,
    body_sha256    TEXT,
    updated_at     INTEGER NOT NULL,
    PRIMARY KEY (source, url)
) STRICT;

INSERT INTO http_validators_by_source (source, url, etag, last_modified, body_sha256, updated_at)
SELECT source, url, etag, last_modified, body_sha256, updated_at FROM http_validators;

DROP TABLE http_validators;
ALTER TABLE http_validators_by_source RENAME TO http_validators;

-- A quoted store says so in its header: PRAGMA application_id is checked before any
-- statement that writes, so another program's SQLite file is left exactly as it was.
-- 0x71756f74 is "quot".
PRAGMA application_id = 1903521652;

-- A quote's length is counted in code points, as SQLite's length() and the CHECK on
-- quotes.text count it (it was graphemes: "e" + U+0301 counted 1, now 2).
UPDATE quotes SET length = length(text) WHERE length <> length(text);

-- Breaking Bad has no list of its quotes, only quotes/random: how often each quote was
-- drawn per production, kept across runs, estimates how many there are (Chao1) and so
-- when sampling has seen nearly all of them.
CREATE TABLE sampling_counts (
    source       TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
    production   TEXT NOT NULL,
    upstream_id  TEXT NOT NULL,
    draws        INTEGER NOT NULL CHECK (draws >= 1),
    PRIMARY KEY (source, production, upstream_id)
) STRICT, WITHOUT ROWID;

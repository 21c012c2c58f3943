-- Quotes from every source, the sources themselves, and full-text search.
-- Times are Unix seconds (UTC); the views in 0004 show them readably.

CREATE TABLE sources (
    name        TEXT PRIMARY KEY,          -- builtin, happiness, breakingbad, upbit, weather, custom.NAME
    kind        TEXT NOT NULL CHECK (kind IN ('builtin', 'custom', 'happiness', 'breakingbad', 'upbit', 'weather')),
    url         TEXT,                      -- last URL synced from (NULL for builtin and imports)
    configured  INTEGER NOT NULL DEFAULT 1 CHECK (configured IN (0, 1)), -- custom lists: still in the config?
    created_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE quotes (
    id            INTEGER PRIMARY KEY,
    source        TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
    upstream_id   TEXT NOT NULL,           -- the upstream's own id, as text
    text          TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 10000),
    author        TEXT,                    -- Breaking Bad: the character's name
    category      TEXT,
    production    TEXT,                    -- Breaking Bad, Better Call Saul, El Camino
    episode       INTEGER,
    lang          TEXT,                    -- 'en', 'ko', or NULL when unknown
    first_seen    INTEGER NOT NULL,
    last_seen     INTEGER NOT NULL,
    content_hash  INTEGER NOT NULL,        -- 64-bit FNV-1a of the fields above: change detection, quote of the day
    length        INTEGER NOT NULL,        -- characters in text
    -- A dense 1...count numbering kept by the triggers below, so a uniform random
    -- pick is one index probe: pick = random(1...max(pick)).
    pick          INTEGER,
    UNIQUE (source, upstream_id)
) STRICT;

CREATE UNIQUE INDEX quotes_by_pick ON quotes(pick);
CREATE INDEX quotes_by_author ON quotes(author COLLATE NOCASE);
CREATE INDEX quotes_by_category ON quotes(category COLLATE NOCASE);
CREATE INDEX quotes_by_lang ON quotes(lang);
CREATE INDEX quotes_by_production ON quotes(production COLLATE NOCASE);
CREATE INDEX quotes_by_length ON quotes(length);
CREATE INDEX quotes_by_hash ON quotes(content_hash);

-- Writers that do not supply `pick` (the sqlite3 shell, say) still get one.
CREATE TRIGGER quotes_pick_on_insert AFTER INSERT ON quotes WHEN NEW.pick IS NULL BEGIN
    UPDATE quotes SET pick = (SELECT coalesce(max(pick), 0) + 1 FROM quotes) WHERE id = NEW.id;
END;

-- Keep the numbering dense: the last quote takes over the deleted one's number.
CREATE TRIGGER quotes_pick_on_delete AFTER DELETE ON quotes BEGIN
    UPDATE quotes SET pick = OLD.pick
     WHERE pick = (SELECT max(pick) FROM quotes) AND OLD.pick < (SELECT max(pick) FROM quotes);
END;

-- unicode61 splits on spaces and punctuation, which suits Korean too when every
-- search term is a prefix query: "행복" matches "행복은" and "행복한" (a Korean word
-- carries its particles as a suffix). trigram would need three characters, and most
-- Korean words are two syllables; it would also triple the index.
CREATE VIRTUAL TABLE quotes_fts USING fts5(
    text, author,
    content = 'quotes', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER quotes_fts_on_insert AFTER INSERT ON quotes BEGIN
    INSERT INTO quotes_fts(rowid, text, author) VALUES (NEW.id, NEW.text, NEW.author);
END;
CREATE TRIGGER quotes_fts_on_delete AFTER DELETE ON quotes BEGIN
    INSERT INTO quotes_fts(quotes_fts, rowid, text, author) VALUES ('delete', OLD.id, OLD.text, OLD.author);
END;
CREATE TRIGGER quotes_fts_on_update AFTER UPDATE OF text, author ON quotes BEGIN
    INSERT INTO quotes_fts(quotes_fts, rowid, text, author) VALUES ('delete', OLD.id, OLD.text, OLD.author);
    INSERT INTO quotes_fts(rowid, text, author) VALUES (NEW.id, NEW.text, NEW.author);
END;

-- The quote each source named as its quote of the day (happiness), by UTC day.
CREATE TABLE daily_quotes (
    source    TEXT NOT NULL REFERENCES sources(name) ON DELETE CASCADE,
    day       TEXT NOT NULL,               -- YYYY-MM-DD, UTC
    quote_id  INTEGER NOT NULL REFERENCES quotes(id) ON DELETE CASCADE,
    PRIMARY KEY (source, day)
) STRICT;
CREATE INDEX daily_quotes_by_quote ON daily_quotes(quote_id);

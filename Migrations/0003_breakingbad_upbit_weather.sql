-- The non-quote data: Breaking Bad characters and deaths, Upbit markets, weather.
-- List fields are JSON arrays (read them with json_each in the sqlite3 shell).

CREATE TABLE characters (
    character_id  INTEGER PRIMARY KEY,     -- the upstream's id
    name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    full_name     TEXT,
    birthday      TEXT,                    -- as served: "09-07-1958" or "Unknown"
    status        TEXT,
    portrayed_by  TEXT,
    occupations   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(occupations)),
    aliases       TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(aliases)),
    productions   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(productions)),
    images        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(images)),
    appearance    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(appearance)),
    first_seen    INTEGER NOT NULL,
    last_seen     INTEGER NOT NULL,
    content_hash  INTEGER NOT NULL
) STRICT;

-- Names the upstream answered with an empty array: unknown, not an error; not asked again every run.
CREATE TABLE unknown_characters (
    name        TEXT PRIMARY KEY COLLATE NOCASE,
    checked_at  INTEGER NOT NULL
) STRICT;

-- Deaths link to characters by name only, as upstream does (see the characters_with_deaths view).
CREATE TABLE deaths (
    death_id      INTEGER PRIMARY KEY,
    character     TEXT NOT NULL COLLATE NOCASE,
    cause         TEXT,
    details       TEXT,
    responsible   TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(responsible)),
    connected     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(connected)),
    last_words    TEXT,
    episode       INTEGER,
    production    TEXT,
    image         TEXT,
    first_seen    INTEGER NOT NULL,
    last_seen     INTEGER NOT NULL,
    content_hash  INTEGER NOT NULL
) STRICT;
CREATE INDEX deaths_by_character ON deaths(character);

CREATE TABLE markets (
    market          TEXT PRIMARY KEY,      -- "KRW-BTC": quote currency, then base
    quote_currency  TEXT NOT NULL,
    base_currency   TEXT NOT NULL,
    korean_name     TEXT,
    english_name    TEXT,
    warning         INTEGER NOT NULL DEFAULT 0 CHECK (warning IN (0, 1)),
    caution         TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(caution)), -- names of the caution flags that are on
    first_seen      INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL,
    delisted_at     INTEGER,               -- set when a pair leaves the list, cleared if it returns
    content_hash    INTEGER NOT NULL
) STRICT;
CREATE INDEX markets_by_quote_currency ON markets(quote_currency, market);

CREATE TABLE weather_observations (
    lat          REAL NOT NULL,
    lon          REAL NOT NULL,
    observed_at  INTEGER NOT NULL,         -- the upstream's dt
    place        TEXT,
    country      TEXT,
    condition    TEXT,                     -- weather[0].main
    description  TEXT,
    temp         REAL,
    feels_like   REAL,
    temp_min     REAL,
    temp_max     REAL,
    pressure     INTEGER,
    humidity     INTEGER,
    wind_speed   REAL,
    wind_deg     INTEGER,
    clouds       INTEGER,
    units        TEXT NOT NULL DEFAULT 'standard',
    sunrise      INTEGER,
    sunset       INTEGER,
    fetched_at   INTEGER NOT NULL,
    PRIMARY KEY (lat, lon, observed_at)
) STRICT;
CREATE INDEX weather_by_time ON weather_observations(observed_at);

-- Views for reading the store from the sqlite3 shell:
--   sqlite3 -readonly -box ~/.local/share/quoted/quotes.db 'SELECT * FROM quote_list LIMIT 5'

CREATE VIEW quote_list AS
SELECT q.id, q.source, q.upstream_id, q.author, q.category, q.lang, q.production, q.episode,
       q.length, q.text,
       datetime(q.first_seen, 'unixepoch') AS first_seen,
       datetime(q.last_seen, 'unixepoch') AS last_seen
  FROM quotes q;

CREATE VIEW source_status AS
SELECT s.name AS source, s.kind, s.configured,
       (SELECT count(*) FROM quotes q WHERE q.source = s.name) AS quotes,
       datetime(st.last_success, 'unixepoch') AS last_success,
       datetime(st.last_attempt, 'unixepoch') AS last_attempt,
       datetime(st.next_due, 'unixepoch') AS next_due,
       st.consecutive_failures, st.last_http_status, st.last_error
  FROM sources s LEFT JOIN sync_state st ON st.source = s.name;

CREATE VIEW characters_with_deaths AS
SELECT c.character_id, c.name, c.full_name, c.status, c.portrayed_by, c.birthday,
       d.cause AS death_cause, d.last_words, d.production AS death_production, d.episode AS death_episode,
       (SELECT count(*) FROM quotes q WHERE q.source = 'breakingbad' AND q.author = c.name COLLATE NOCASE) AS quotes
  FROM characters c LEFT JOIN deaths d ON d.character = c.name COLLATE NOCASE;

CREATE VIEW market_list AS
SELECT market, quote_currency, base_currency, korean_name, english_name, warning,
       (SELECT group_concat(value, ',') FROM json_each(markets.caution)) AS caution,
       datetime(delisted_at, 'unixepoch') AS delisted_at
  FROM markets;

CREATE VIEW latest_weather AS
SELECT place, country, condition, description, temp, feels_like, humidity, wind_speed, units,
       datetime(observed_at, 'unixepoch') AS observed_at
  FROM weather_observations
 ORDER BY observed_at DESC;

CREATE VIEW recent_syncs AS
SELECT id, source, datetime(started_at, 'unixepoch') AS started_at,
       round((finished_at - started_at), 1) AS seconds, ok, http_status,
       inserted, updated, removed, skipped, message
  FROM sync_log ORDER BY id DESC;

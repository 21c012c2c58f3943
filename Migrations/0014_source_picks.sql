-- Each source's quotes numbered 1...count densely, as `pick` numbers the whole store, so that a
-- uniform pick within one source (`--source`, a share of a weighted draw) is one probe of this
-- index: source_pick = random(1...max(source_pick) of the source), whatever its size.
ALTER TABLE quotes ADD COLUMN source_pick INTEGER;
UPDATE quotes SET source_pick = numbered.n
  FROM (SELECT id, row_number() OVER (PARTITION BY source ORDER BY id) AS n FROM quotes) AS numbered
 WHERE quotes.id = numbered.id;
CREATE UNIQUE INDEX quotes_by_source_pick ON quotes(source, source_pick);

-- Writers that do not supply `source_pick` (the sqlite3 shell, say) still get one.
CREATE TRIGGER quotes_source_pick_on_insert AFTER INSERT ON quotes WHEN NEW.source_pick IS NULL BEGIN
    UPDATE quotes SET source_pick = (SELECT coalesce(max(source_pick), 0) + 1 FROM quotes WHERE source = NEW.source)
     WHERE id = NEW.id;
END;

-- Dense within the source: its last quote takes over the deleted one's number.
CREATE TRIGGER quotes_source_pick_on_delete AFTER DELETE ON quotes BEGIN
    UPDATE quotes SET source_pick = OLD.source_pick
     WHERE source = OLD.source
       AND source_pick = (SELECT max(source_pick) FROM quotes WHERE source = OLD.source)
       AND OLD.source_pick < (SELECT max(source_pick) FROM quotes WHERE source = OLD.source);
END;

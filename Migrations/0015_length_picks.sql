-- The quotes of each length numbered 1...count densely, and the count of each length kept, so
-- that a uniform pick among the quotes of a range of lengths (`--short`, `--long`,
-- `--max-length`) is a random number below the range's total, the length it falls in (the
-- counts of the lengths, a few hundred rows), and one probe of the index below — whatever share
-- of the store the range holds and however its quotes lie. The index replaces the one on length
-- alone: it serves every length range as well, so a write keeps as many indexes as before.
CREATE TABLE quote_lengths (
    length INTEGER PRIMARY KEY,
    quotes INTEGER NOT NULL CHECK (quotes >= 0)
) STRICT;

ALTER TABLE quotes ADD COLUMN length_pick INTEGER;
UPDATE quotes SET length_pick = numbered.n
  FROM (SELECT id, row_number() OVER (PARTITION BY length ORDER BY id) AS n FROM quotes) AS numbered
 WHERE quotes.id = numbered.id;
INSERT INTO quote_lengths (length, quotes) SELECT length, count(*) FROM quotes GROUP BY length;
DROP INDEX quotes_by_length;
CREATE INDEX quotes_by_length ON quotes(length, length_pick);

-- A new quote counts in its length; a writer that leaves out `length_pick` (the sqlite3 shell,
-- say) gets the next number of its length. (Not UNIQUE: a quote whose length changes holds its
-- old number in the new length until the trigger below gives it the next one.)
CREATE TRIGGER quotes_length_on_insert AFTER INSERT ON quotes BEGIN
    INSERT INTO quote_lengths (length, quotes) VALUES (NEW.length, 1)
        ON CONFLICT (length) DO UPDATE SET quotes = quotes + 1;
    UPDATE quotes SET length_pick = (SELECT quotes FROM quote_lengths WHERE length = NEW.length)
     WHERE id = NEW.id AND NEW.length_pick IS NULL;
END;

-- Dense within the length: its last quote takes over the number the deleted one leaves.
CREATE TRIGGER quotes_length_on_delete AFTER DELETE ON quotes BEGIN
    UPDATE quotes SET length_pick = OLD.length_pick
     WHERE length = OLD.length AND length_pick = (SELECT quotes FROM quote_lengths WHERE length = OLD.length)
       AND OLD.length_pick < (SELECT quotes FROM quote_lengths WHERE length = OLD.length);
    UPDATE quote_lengths SET quotes = quotes - 1 WHERE length = OLD.length;
END;

-- A quote whose text changed length leaves its old length as a deleted one does and joins the
-- new one as the last.
CREATE TRIGGER quotes_length_on_update AFTER UPDATE OF length ON quotes WHEN OLD.length IS NOT NEW.length BEGIN
    UPDATE quotes SET length_pick = OLD.length_pick
     WHERE length = OLD.length AND length_pick = (SELECT quotes FROM quote_lengths WHERE length = OLD.length)
       AND OLD.length_pick < (SELECT quotes FROM quote_lengths WHERE length = OLD.length);
    UPDATE quote_lengths SET quotes = quotes - 1 WHERE length = OLD.length;
    INSERT INTO quote_lengths (length, quotes) VALUES (NEW.length, 1)
        ON CONFLICT (length) DO UPDATE SET quotes = quotes + 1;
    UPDATE quotes SET length_pick = (SELECT quotes FROM quote_lengths WHERE length = NEW.length) WHERE id = NEW.id;
END;

-- How many quotes each source holds, kept by the writer that changes them (ListMerge) so that
-- `quotectl status` need not count a million rows (38 ms on a 1,000,000-quote store). NULL: not
-- known. A reader trusts the counts only when they add up to max(pick) — the dense numbering the
-- triggers keep — so a row written by any other hand (the sqlite3 shell) makes it count again.
ALTER TABLE sources ADD COLUMN quote_count INTEGER;
UPDATE sources SET quote_count = (SELECT count(*) FROM quotes WHERE quotes.source = sources.name);

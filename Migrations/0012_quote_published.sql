-- When the upstream says a quote was published (an Atom or RSS entry's date, or `published` in a
-- JSON list), in Unix seconds; NULL when it does not say. Part of what a list's merge compares
-- (content_hash), but only when present, so the hashes of the quotes stored before stay as they were.
ALTER TABLE quotes ADD COLUMN published INTEGER;

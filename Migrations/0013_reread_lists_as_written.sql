-- Fortune and text lists are now kept as written (line breaks, indentation; a " - Name" as the
-- author) where their rows hold the reflowed reading: forget what each custom list's last body
-- was, so its next sync reads it again instead of skipping it as unchanged (its ids stay, so
-- the rows are updated in place). Lists with ids of their own, or bodies that read the same,
-- write no row.
UPDATE http_validators SET etag = NULL, last_modified = NULL, body_sha256 = NULL WHERE source LIKE 'custom.%';

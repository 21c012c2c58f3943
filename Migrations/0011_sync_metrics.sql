-- What a metrics reader (quotectl status --format prometheus, quotectl check, the daemon's
-- textfile) needs of each source without counting rows: when its current run of failures began,
-- how long its last sync took, and counters kept since the store was made, so that a rate over
-- them survives daemon restarts. Written by the same statements that record each sync.
ALTER TABLE sync_state ADD COLUMN failing_since INTEGER;          -- NULL while the last sync succeeded
ALTER TABLE sync_state ADD COLUMN last_duration_ms INTEGER;
ALTER TABLE sync_state ADD COLUMN fetched_bytes_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_state ADD COLUMN rows_changed_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_state ADD COLUMN syncs_ok_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sync_state ADD COLUMN syncs_failed_total INTEGER NOT NULL DEFAULT 0;

-- A source failing when the store is upgraded: its run began at the first failure the log
-- kept after its last success (the last attempt when the log holds none). The log does not tell
-- a store's own failure (which starts no run) from the upstream's, so a run can be dated early
-- here, never late: a check may call it critical sooner, once, until the source next succeeds.
UPDATE sync_state SET failing_since = coalesce(
    (SELECT min(log.started_at) FROM sync_log AS log
      WHERE log.source = sync_state.source AND log.ok = 0 AND log.started_at > coalesce(sync_state.last_success, 0)),
    last_attempt)
 WHERE consecutive_failures > 0;
-- The counters start from what the log kept.
UPDATE sync_state SET
    syncs_ok_total = (SELECT count(*) FROM sync_log AS log WHERE log.source = sync_state.source AND log.ok = 1),
    syncs_failed_total = (SELECT count(*) FROM sync_log AS log WHERE log.source = sync_state.source AND log.ok = 0),
    rows_changed_total = (SELECT coalesce(sum(log.inserted + log.updated + log.removed), 0) FROM sync_log AS log
                           WHERE log.source = sync_state.source);

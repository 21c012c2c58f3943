/// The per-source families, in their fixed order: each sample labelled `source` (and `feed` on
/// a spoke, for a source that came from the hub).
enum SourceFamilies {
    static func all(_ sources: [SourceHealth]) -> [Family] {
        [
            Family("quoted_source_up", .gauge, "1 when the source's last sync succeeded, else 0.",
                   sources.map { Sample(labels($0), .integer($0.lastSuccess != nil && $0.lastSuccess == $0.lastAttempt ? 1 : 0)) }),
            Family("quoted_source_rows", .gauge, "Rows the store holds for the source, per table.",
                   sources.flatMap { source in source.rows.map { Sample(labels(source) + [("table", $0.table)], .integer($0.count)) } }),
            gauge("quoted_source_last_success_timestamp_seconds", "When the source last synced successfully (Unix seconds).",
                  sources, \.lastSuccess),
            gauge("quoted_source_last_attempt_timestamp_seconds", "When the source's last sync started (Unix seconds).",
                  sources, \.lastAttempt),
            gauge("quoted_source_next_due_timestamp_seconds", "When the source is next due to sync (Unix seconds).",
                  sources, \.nextDue),
            gauge("quoted_source_failing_since_timestamp_seconds", "When the source's current run of failures began (Unix seconds).",
                  sources, { $0.consecutiveFailures > 0 ? $0.failingSince : nil }),
            gauge("quoted_source_consecutive_failures", "The source's failed syncs in a row.", sources, { $0.consecutiveFailures }),
            gauge("quoted_source_interval_seconds", "The source's configured sync interval.", sources, \.intervalSeconds),
            Family("quoted_source_last_sync_duration_seconds", .gauge, "How long the source's last sync took.",
                   sources.compactMap { source in source.lastDurationMilliseconds.map { Sample(labels(source), .thousandths($0)) } }),
            gauge("quoted_source_last_http_status", "The HTTP status of the source's last sync.", sources, \.lastHTTPStatus),
            counter("quoted_source_fetched_bytes_total", "Response body bytes the source's syncs received since the store was made.",
                    sources, \.fetchedBytesTotal),
            counter("quoted_source_rows_changed_total", "Rows the source's syncs inserted, updated or removed since the store was made.",
                    sources, \.rowsChangedTotal),
            Family("quoted_source_syncs_total", .counter, "The source's syncs since the store was made, by result.",
                   sources.flatMap { source in
                       [Sample(labels(source) + [("result", "ok")], .integer(source.syncsOKTotal)),
                        Sample(labels(source) + [("result", "failed")], .integer(source.syncsFailedTotal))]
                   }),
        ]
    }

    static func labels(_ source: SourceHealth) -> [(String, String)] {
        source.feed.map { [("source", source.name), ("feed", $0)] } ?? [("source", source.name)]
    }

    private static func gauge(_ name: String, _ help: String, _ sources: [SourceHealth], _ value: (SourceHealth) -> Int?) -> Family {
        Family(name, .gauge, help, sources.compactMap { source in value(source).map { Sample(labels(source), .integer($0)) } })
    }

    private static func counter(_ name: String, _ help: String, _ sources: [SourceHealth], _ value: (SourceHealth) -> Int) -> Family {
        Family(name, .counter, help, sources.map { Sample(labels($0), .integer(value($0))) })
    }
}

/// The feeds' families: a hub's published manifest, a spoke's applied one.
enum FeedFamilies {
    static func hub(_ feeds: [FeedHealth]) -> [Family] {
        [
            Family("quoted_hub_feed_serial", .gauge,
                   "The serial of the manifest the hub published (its time of writing in milliseconds since 1970, or a little more).",
                   samples(feeds, \.serial)),
            Family("quoted_hub_feed_generated_timestamp_seconds", .gauge, "When the hub wrote its manifest (Unix seconds).",
                   samples(feeds, \.generated)),
            Family("quoted_hub_feed_expiry_timestamp_seconds", .gauge, "When the hub's manifest expires (Unix seconds).",
                   samples(feeds, \.validUntil)),
        ]
    }

    static func spoke(_ feeds: [FeedHealth]) -> [Family] {
        [
            Family("quoted_spoke_feed_applied_serial", .gauge,
                   "The serial of the hub's manifest this spoke applied (its time of writing in milliseconds since 1970, or a little more).",
                   samples(feeds, \.serial)),
            Family("quoted_spoke_feed_generated_timestamp_seconds", .gauge, "When the hub wrote the manifest this spoke applied (Unix seconds).",
                   samples(feeds, \.generated)),
            Family("quoted_spoke_feed_expiry_timestamp_seconds", .gauge, "When the manifest this spoke applied expires (Unix seconds).",
                   samples(feeds, \.validUntil)),
            Family("quoted_spoke_feed_last_checked_timestamp_seconds", .gauge, "When this spoke last heard from its hub (Unix seconds).",
                   feeds.compactMap { feed in feed.checkedAt.map { Sample([("feed", feed.name)], .integer($0)) } }),
        ]
    }

    private static func samples(_ feeds: [FeedHealth], _ value: (FeedHealth) -> Int) -> [Sample] {
        feeds.map { Sample([("feed", $0.name)], .integer(value($0))) }
    }
}

import QuoteBase
/// What a write did, for summaries ("3 changed") and the sync log.
public struct ChangeCounts: Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var removed = 0
    public var unchanged = 0
    public var skipped = 0

    public init(inserted: Int = 0, updated: Int = 0, removed: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.removed = removed
        self.unchanged = unchanged
        self.skipped = skipped
    }

    public var changed: Int { inserted + updated + removed }

    public static func += (lhs: inout ChangeCounts, rhs: ChangeCounts) {
        lhs.inserted += rhs.inserted
        lhs.updated += rhs.updated
        lhs.removed += rhs.removed
        lhs.unchanged += rhs.unchanged
        lhs.skipped += rhs.skipped
    }
}

import QuoteModels
import QuoteStore

/// The ETag and Last-Modified of one URL, kept raw and sent back verbatim, and the
/// SHA-256 of the body that was applied (the store's type: it keeps them).
public typealias Validators = SyncStateRepository.Validators

/// What a source adapter hands the engine: everything decoded and validated,
/// and the writes to make, which the engine runs in ONE transaction together
/// with the sync state. Nothing touches the store before then.
public struct SourceUpdate {
    public var validators: [Validators] = []
    public var httpStatus: Int?
    /// Skipped records (invalid), counted in the summary.
    public var skipped = 0
    /// Writes the rows; runs inside the engine's transaction, on its connection.
    public var apply: (inout sending SourceTransaction.Connection, _ now: Int) throws -> ChangeCounts = { _, _ in ChangeCounts() }
    /// Whether `apply` may change stored rows (false for "not modified"): such a sync first
    /// makes sure the store it writes into is sound.
    public var writesRows = true
    /// "536 markets, 3 changed" from the counts.
    public var describe: (ChangeCounts) -> String

    public init(describe: @escaping (ChangeCounts) -> String) {
        self.describe = describe
    }

    /// Nothing new upstream (304, or a body identical to the last one applied).
    public static func unchanged(what: String, validators: [Validators], status: Int?) -> SourceUpdate {
        var update = SourceUpdate { _ in "not modified" + (what.isEmpty ? "" : " (\(what))") }
        update.validators = validators
        update.httpStatus = status
        update.writesRows = false
        return update
    }
}

/// "3 changed" with the parts that are not zero.
func changeSummary(_ counts: ChangeCounts) -> String {
    var text = "\(counts.changed) changed"
    var parts: [String] = []
    if counts.inserted > 0 { parts.append("\(counts.inserted) new") }
    if counts.updated > 0 { parts.append("\(counts.updated) updated") }
    if counts.removed > 0 { parts.append("\(counts.removed) removed") }
    if !parts.isEmpty, parts.count > 1 || counts.changed != counts.inserted { text += " (" + parts.joined(separator: ", ") + ")" }
    if counts.skipped > 0 { text += ", \(counts.skipped) skipped" }
    return text
}

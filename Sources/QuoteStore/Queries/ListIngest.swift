import QuoteBase
import QuoteModels

/// The ONE way a list's decoded records reach the store, for `quotectl import` and a sync alike:
/// each good record merged (`ListMerge`), each left out logged (counted, the first named), the
/// quotes counted, and the verdict on the whole list, then the merge's end. How a bad record
/// weighs is the `policy`; which transaction, and on which thread, is the caller's. Under either
/// policy a repeat of a text-derived id is the same quote again, not a duplicate id.
///
/// Nothing here grows with the list: the caller hands records over one (or one batch) at a time.
public struct ListIngest: Sendable {
    public enum Policy: Sendable {
        /// `quotectl import`: any bad record or repeated id refuses the whole list.
        case strict
        /// A sync: a bad record is left out (its stored version kept) and the rest written.
        case lenient
    }

    public enum Verdict: Equatable, Sendable {
        /// The list may be written: `finish` ends its merge.
        case accepted
        /// Nothing may be written: records were bad (strict only), `problems` names the first.
        case badRecords
        /// Nothing may be written: no quote in the list (`problems` may say why).
        case noQuotes
    }

    public let policy: Policy
    /// The records left out: bad ones, and repeats of an id the list gave.
    public private(set) var problems = ListProblemLog()
    /// The list's quotes, each counted once.
    public private(set) var quotes = 0

    public init(policy: Policy) {
        self.policy = policy
    }

    /// Merges `record`, or logs why it was left out. Merged even after a problem: the later
    /// duplicates are counted too.
    public mutating func take(_ record: ListRecord, into merge: ListMerge) throws(StoreError) {
        switch record {
        case .quote(let entry):
            guard try merge.add(entry.quote, hash: entry.hash) == .duplicate else {
                quotes += 1
                return
            }
            if !entry.idIsDerived {
                problems.add(ListProblem(place: entry.place, upstreamID: entry.quote.upstreamID, reason: tr("duplicate id")))
            }
        case .problem(let problem):
            problems.add(problem)
            // A strict list is refused whole: no stored version needs keeping.
            if policy == .lenient, let id = problem.upstreamID { try merge.keep(upstreamID: id) }
        }
    }

    /// A batch of records, in their order (a sync's writer thread takes one at a time).
    public mutating func take(_ records: [ListRecord], into merge: ListMerge) throws(StoreError) {
        for record in records { try take(record, into: merge) }
    }

    /// Whether the list read whole may be written. `acceptingEmpty`: a list with no quote may
    /// (a sync's `allow_shrink`, or an archive, which removes nothing).
    public func verdict(acceptingEmpty: Bool = false) -> Verdict {
        if policy == .strict, problems.count > 0 { return .badRecords }
        if quotes == 0, !acceptingEmpty { return .noQuotes }
        return .accepted
    }

    /// Ends an accepted list's merge: unless `archive`, the list is the whole of the source and the
    /// stored quotes it no longer holds are removed, once `shrinkGuard` (told the quotes to remove
    /// and the quotes stored) did not throw; what it throws is passed on as it is. An archive
    /// removes nothing, so no guard refuses it.
    public func finish(_ merge: ListMerge, archive: Bool,
                       shrinkGuard: (_ toRemove: Int, _ stored: Int) throws -> Void = { _, _ in }) throws -> ChangeCounts {
        // A record whose id could not be read could be any stored quote: nothing is removed then.
        try merge.finish(removeMissing: !archive && !problems.anyWithoutID) { toRemove, stored in
            guard !archive else { return }
            try shrinkGuard(toRemove, stored)
        }
    }
}

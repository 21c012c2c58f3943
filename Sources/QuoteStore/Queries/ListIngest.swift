import QuoteBase
import QuoteModels

/// The ONE way a list's decoded records reach the store, for `quotectl import` (strict) and a sync
/// (lenient): each good record merged (`ListMerge`), each left out logged (counted, the first
/// named), the quotes counted, the list judged whole and its merge ended. The transaction and the
/// thread are the caller's, who hands records over one (or one batch) at a time: nothing here
/// grows with the list. Under either policy a repeat of a text-derived id is the same quote again.
public struct ListIngest: Sendable {
    public enum Policy: Sendable {
        /// Any bad record or repeated id refuses the whole list.
        case strict
        /// A bad record is left out (its stored version kept) and the rest written.
        case lenient
    }

    public enum Verdict: Equatable, Sendable {
        case accepted
        /// Nothing may be written: records were bad (strict only; `problems` names the first).
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

    /// Merged even after a problem: the later duplicates are counted too.
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

    public mutating func take(_ records: [ListRecord], into merge: ListMerge) throws(StoreError) {
        for record in records { try take(record, into: merge) }
    }

    /// `acceptingEmpty`: a list with no quote may be written (a sync's `allow_shrink`, an archive).
    public func verdict(acceptingEmpty: Bool = false) -> Verdict {
        if policy == .strict, problems.count > 0 { return .badRecords }
        return quotes == 0 && !acceptingEmpty ? .noQuotes : .accepted
    }

    /// Ends an accepted list's merge. Unless `archive`, the list is the whole of the source: the
    /// stored quotes it lacks are removed once `shrinkGuard` (told how many, of how many stored)
    /// did not throw; what it throws is passed on as it is. An archive removes nothing, unguarded.
    public func finish(_ merge: ListMerge, archive: Bool,
                       shrinkGuard: (_ toRemove: Int, _ stored: Int) throws -> Void = { _, _ in }) throws -> ChangeCounts {
        // A record whose id could not be read could be any stored quote: nothing is removed then.
        try merge.finish(removeMissing: !archive && !problems.anyWithoutID) { toRemove, stored in
            guard !archive else { return }
            try shrinkGuard(toRemove, stored)
        }
    }
}

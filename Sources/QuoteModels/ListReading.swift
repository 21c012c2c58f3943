import QuoteBase
/// What every list reader hands over, whatever the format (a Gist's JSON, a fortune file, CSV, a
/// feed): one record at a time, as a quote or as a problem naming where it was. Shared by a
/// sync's pipeline, `quotectl import` and the store's merge; the readers live in QuoteFormats.

/// Where in a list a record was: what a message names.
public enum ListPlace: Equatable, Sendable, CustomStringConvertible {
    /// The 1-based position in a JSON array.
    case record(Int)
    /// The 1-based line a record starts on (fortune, text, CSV).
    case line(Int)
    /// The 1-based entry of an Atom or RSS feed.
    case entry(Int)

    public var description: String {
        switch self {
        case .record(let n): return tr("record \(n)")
        case .line(let n): return tr("line \(n)")
        case .entry(let n): return tr("entry \(n)")
        }
    }
}

/// Why one record of a list was left out.
public struct ListProblem: Equatable, Sendable, CustomStringConvertible {
    public let place: ListPlace
    public let upstreamID: String?
    public let reason: String
    /// False when the record cannot be any stored quote although it has no id: a list whose ids
    /// derive from the text, whose text was refused (no stored quote has such a text). Such a
    /// problem does not stop the list from removing what it no longer holds.
    public let couldBeStored: Bool

    public init(place: ListPlace, upstreamID: String?, reason: String, couldBeStored: Bool = true) {
        self.place = place
        self.upstreamID = upstreamID
        self.reason = reason
        self.couldBeStored = couldBeStored
    }

    public var description: String {
        upstreamID.map { tr("\(place) (id \($0)): \(reason)") } ?? tr("\(place): \(reason)")
    }
}

/// A good record: the quote, its content hash (computed on the reading thread), where it was,
/// and whether its id was derived from its text (a list without ids): a repeat of such an id is
/// the same quote again, not a duplicate id.
public struct ListEntry: Sendable {
    public var quote: Quote
    public var hash: Int
    public var place: ListPlace
    public var idIsDerived: Bool

    public init(_ quote: Quote, place: ListPlace, idIsDerived: Bool = false) {
        self.quote = quote
        self.hash = quote.contentHash
        self.place = place
        self.idIsDerived = idIsDerived
    }
}

public enum ListRecord: Sendable {
    case quote(ListEntry)
    case problem(ListProblem)
}

/// Why a whole body is not a list of the format read ("not JSON: …", "not CSV: line 3: …").
public struct ListFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// A list read as its bytes arrive: each record checked and handed to `body`, one at a time.
/// Nothing grows with the list: a reader holds at most one record's bytes.
public protocol ListReader: Sendable {
    /// The format read: the configured one, or what `auto` decided once it could (nil before).
    var format: ListFormat.Kind? { get }
    /// Reads `chunk`; throws `ListFailure` when the body is not of the format, or what `body` throws.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (ListRecord) throws -> Void) throws
    /// The body has ended: hands over the last record, or throws `ListFailure` when it is cut short.
    mutating func finish(_ body: (ListRecord) throws -> Void) throws
}

/// What was left out of a list, kept in a size that does not grow with it: how many, the
/// first one (to name it), and whether any had no readable id.
public struct ListProblemLog: Sendable {
    public private(set) var count = 0
    public private(set) var first: ListProblem?
    /// A record whose id could not be read could be any stored quote: nothing is removed then.
    public private(set) var anyWithoutID = false

    public init() {}

    public mutating func add(_ problem: ListProblem) {
        count += 1
        if first == nil { first = problem }
        if problem.upstreamID == nil && problem.couldBeStored { anyWithoutID = true }
    }

    /// " (record 3 (id 7): …; and 2 more)", or "" when nothing was left out.
    public var summary: String {
        guard let first else { return "" }
        guard count > 1 else { return " (" + first.description + ")" }
        let more = count - 1
        return " (" + first.description + trn(more, "; and \(more) more", "; and \(more) more") + ")"
    }
}

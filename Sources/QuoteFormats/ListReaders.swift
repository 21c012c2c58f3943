import QuoteModels

/// The one place a format's reader is chosen: a sync, a spoke's feed file and `quotectl import`
/// all read a list through what this returns.
public enum ListReaders {
    /// The reader for `format`; `contentType` is the response's, when there is one (`auto` weighs it).
    public static func reader(for format: ListFormat, source: String, contentType: String? = nil) throws(ListFailure) -> any ListReader {
        switch format.kind {
        case .json:
            return try CustomList.Reader(source: source, format: format)
        case .atom, .rss:
            return try FeedReader(source: source, format: format)
        case .auto, .fortune, .text, .csv:
            throw ListFailure("format \(format.kind.rawValue) is not read yet")
        }
    }
}

import QuoteModels

/// The one place a format's reader is chosen: a sync, a spoke's feed file and `quotectl import`
/// all read a list through what this returns.
public enum ListReaders {
    /// The reader for `format`; `contentType` is the response's, when there is one, and `name`
    /// the file's path or the URL's (`auto` weighs both).
    public static func reader(for format: ListFormat, source: String, contentType: String? = nil,
                              name: String? = nil) throws(ListFailure) -> any ListReader {
        switch format.kind {
        case .json:
            return try CustomList.Reader(source: source, format: format)
        case .fortune:
            return FortuneReader(source: source)
        case .text:
            return TextReader(source: source, split: format.split)
        case .csv:
            return CSVReader(source: source, fields: format.fields)
        case .auto:
            return AutoReader(settings: format, source: source, contentType: contentType, name: name)
        case .atom, .rss:
            return try FeedReader(source: source, format: format)
        }
    }
}

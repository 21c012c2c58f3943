import QuoteBase
import CExpat

/// expat's C callbacks, each passing what it was given to the `FeedParser` behind the user data.
enum FeedCallbacks {
    static func install(on expat: XML_Parser) {
        XML_SetElementHandler(expat, { data, name, attributes in
            guard let data, let name else { return }
            feedParser(data).start(String(cString: name), feedAttributes(attributes))
        }, { data, name in
            guard let data, let name else { return }
            feedParser(data).end(String(cString: name))
        })
        XML_SetCharacterDataHandler(expat, { data, text, length in
            guard let data, let text, length > 0 else { return }
            text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { bytes in
                feedParser(data).text(UnsafeBufferPointer(start: bytes, count: Int(length)))
            }
        })
        // A DTD could define entities that expand without bound (billion laughs) or read files
        // and addresses (XXE): a feed needs none, so any DOCTYPE ends the read. An internal subset
        // is parsed only up to its first entity declaration, never expanded, to say which it was.
        XML_SetDoctypeDeclHandler(expat, { data, _, systemID, _, internalSubset in
            guard let data else { return }
            if systemID != nil {
                feedParser(data).fail(FeedCallbacks.externalEntity)
            } else if internalSubset == 0 {
                feedParser(data).fail(FeedCallbacks.needlessDTD)
            }
        }, { data in
            guard let data else { return }
            feedParser(data).fail(FeedCallbacks.needlessDTD)
        })
        XML_SetEntityDeclHandler(expat, { data, _, _, _, _, _, systemID, _, _ in
            guard let data else { return }
            feedParser(data).fail(systemID != nil ? FeedCallbacks.externalEntity
                                  : tr("not an Atom or RSS feed: a DTD is refused (entities could expand without bound)"))
        })
        // Never fetched: returning an error makes expat fail the document.
        XML_SetExternalEntityRefHandler(expat, { _, _, _, _, _ in Int32(XML_STATUS_ERROR.rawValue) })
        XML_SetParamEntityParsing(expat, XML_PARAM_ENTITY_PARSING_NEVER)
        // Comments, processing instructions and the XML declaration only move the position on.
        XML_SetDefaultHandlerExpand(expat, { data, _, _ in
            guard let data else { return }
            feedParser(data).progress()
        })
    }
}

extension FeedCallbacks {
    /// A DTD or an entity that names a file or an address: expat never reads it.
    static var externalEntity: String {
        tr("not an Atom or RSS feed: external entities are refused (they could read local files or other addresses)")
    }

    /// A DTD that declares no entity: refused all the same, as no feed needs one.
    static var needlessDTD: String { tr("not an Atom or RSS feed: a DTD is refused (a feed needs none)") }
}

private func feedParser(_ data: UnsafeMutableRawPointer) -> FeedParser {
    Unmanaged<FeedParser>.fromOpaque(data).takeUnretainedValue()
}

/// expat's attribute list: name, value, name, value, …, NULL.
private func feedAttributes(_ list: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) -> [String: String] {
    var attributes: [String: String] = [:]
    guard var cursor = list else { return attributes }
    while let name = cursor[0], let value = cursor[1] {
        attributes[String(cString: name)] = String(cString: value)
        cursor += 2
    }
    return attributes
}

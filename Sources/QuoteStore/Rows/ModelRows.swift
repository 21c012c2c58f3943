import QuoteModels

/// How the models are read from a row: the columns each selects, in the order it reads them.
extension Quote {
    /// The columns `init(row:)` reads: select them with `Column.sql()`.
    enum Column: String, ColumnList {
        case id, source, upstream_id, text, author, category, production, episode, lang, first_seen, last_seen, published
    }

    static let columns = Column.sql()

    init(row: Statement) {
        self.init(id: row.int(Column.id), source: row.string(Column.source), upstreamID: row.string(Column.upstream_id),
                  text: row.string(Column.text), author: row.optionalString(Column.author),
                  category: row.optionalString(Column.category), production: row.optionalString(Column.production),
                  episode: row.optionalInt(Column.episode), lang: row.optionalString(Column.lang),
                  published: row.optionalInt(Column.published),
                  firstSeen: row.int(Column.first_seen), lastSeen: row.int(Column.last_seen))
    }
}

extension Death {
    /// The columns `init(row:after:)` reads: select them with `Column.sql()`.
    enum Column: String, ColumnList {
        case death_id, character, cause, details, responsible, last_words, production, episode
    }

    /// A death from `row`, its columns starting after `offset` others.
    init(row: Statement, after offset: Int32 = 0) {
        self.init(deathID: row.int(Column.death_id, after: offset), character: row.string(Column.character, after: offset),
                  cause: row.optionalString(Column.cause, after: offset), details: row.optionalString(Column.details, after: offset),
                  responsible: row.string(Column.responsible, after: offset),
                  lastWords: row.optionalString(Column.last_words, after: offset),
                  production: row.optionalString(Column.production, after: offset),
                  episode: row.optionalInt(Column.episode, after: offset))
    }
}

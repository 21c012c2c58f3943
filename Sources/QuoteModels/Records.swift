import QuoteBase
import QuoteText
/// A Breaking Bad character, with its death when the store knows one.
public struct SeriesCharacter: Equatable, Sendable {
    public var characterID: Int
    public var name: String
    public var fullName: String?
    public var birthday: String?
    public var status: String?
    public var portrayedBy: String?
    /// JSON arrays, as stored.
    public var occupations: String
    public var aliases: String
    public var productions: String
    public var death: Death?
    public var quoteCount: Int

    public init(characterID: Int, name: String, fullName: String? = nil, birthday: String? = nil,
                status: String? = nil, portrayedBy: String? = nil, occupations: String = "[]",
                aliases: String = "[]", productions: String = "[]", death: Death? = nil, quoteCount: Int = 0) {
        self.characterID = characterID
        self.name = name
        self.fullName = fullName
        self.birthday = birthday
        self.status = status
        self.portrayedBy = portrayedBy
        self.occupations = occupations
        self.aliases = aliases
        self.productions = productions
        self.death = death
        self.quoteCount = quoteCount
    }

    public var json: String {
        var object = JSONObjectBuilder()
        object.add("id", characterID)
        object.add("name", name)
        object.add("full_name", fullName)
        object.add("birthday", birthday)
        object.add("status", status)
        object.add("portrayed_by", portrayedBy)
        object.addRaw("occupations", json: occupations)
        object.addRaw("aliases", json: aliases)
        object.addRaw("productions", json: productions)
        object.add("quotes", quoteCount)
        object.addRaw("death", json: death?.json ?? "null")
        return object.result
    }
}

/// A Breaking Bad death, linked to its character by name.
public struct Death: Equatable, Sendable {
    public var deathID: Int
    public var character: String
    public var cause: String?
    public var details: String?
    public var responsible: String  // JSON array
    public var lastWords: String?
    public var production: String?
    public var episode: Int?

    public init(deathID: Int, character: String, cause: String? = nil, details: String? = nil,
                responsible: String = "[]", lastWords: String? = nil, production: String? = nil, episode: Int? = nil) {
        self.deathID = deathID
        self.character = character
        self.cause = cause
        self.details = details
        self.responsible = responsible
        self.lastWords = lastWords
        self.production = production
        self.episode = episode
    }

    public var json: String {
        var object = JSONObjectBuilder()
        object.add("id", deathID)
        object.add("character", character)
        object.add("cause", cause)
        object.add("details", details)
        object.addRaw("responsible", json: responsible)
        object.add("last_words", lastWords)
        object.add("production", production)
        object.add("episode", episode)
        return object.result
    }
}

/// An Upbit trading pair.
public struct Market: Equatable, Sendable {
    public var market: String
    public var quoteCurrency: String
    public var baseCurrency: String
    public var koreanName: String?
    public var englishName: String?
    public var warning: Bool
    /// Names of the caution flags that are on, as a JSON array.
    public var caution: String
    public var delistedAt: Int?

    public init(market: String, quoteCurrency: String, baseCurrency: String, koreanName: String?,
                englishName: String?, warning: Bool, caution: String = "[]", delistedAt: Int? = nil) {
        self.market = market
        self.quoteCurrency = quoteCurrency
        self.baseCurrency = baseCurrency
        self.koreanName = koreanName
        self.englishName = englishName
        self.warning = warning
        self.caution = caution
        self.delistedAt = delistedAt
    }

    public var json: String {
        var object = JSONObjectBuilder()
        object.add("market", market)
        object.add("quote", quoteCurrency)
        object.add("base", baseCurrency)
        object.add("korean_name", koreanName)
        object.add("english_name", englishName)
        object.add("warning", warning)
        object.addRaw("caution", json: caution)
        object.add("delisted_at", delistedAt)
        return object.result
    }
}

/// One weather observation for a place.
public struct WeatherObservation: Equatable, Sendable {
    public var lat: Double
    public var lon: Double
    public var observedAt: Int
    public var place: String?
    public var country: String?
    public var condition: String?
    public var description: String?
    public var temp: Double?
    public var feelsLike: Double?
    public var humidity: Int?
    public var windSpeed: Double?
    public var units: String

    public init(lat: Double, lon: Double, observedAt: Int, place: String? = nil, country: String? = nil,
                condition: String? = nil, description: String? = nil, temp: Double? = nil,
                feelsLike: Double? = nil, humidity: Int? = nil, windSpeed: Double? = nil, units: String = "metric") {
        self.lat = lat
        self.lon = lon
        self.observedAt = observedAt
        self.place = place
        self.country = country
        self.condition = condition
        self.description = description
        self.temp = temp
        self.feelsLike = feelsLike
        self.humidity = humidity
        self.windSpeed = windSpeed
        self.units = units
    }

    public var json: String {
        var object = JSONObjectBuilder()
        object.add("lat", lat)
        object.add("lon", lon)
        object.add("observed_at", observedAt)
        object.add("place", place)
        object.add("country", country)
        object.add("condition", condition)
        object.add("description", description)
        object.add("temp", temp)
        object.add("feels_like", feelsLike)
        object.add("humidity", humidity)
        object.add("wind_speed", windSpeed)
        object.add("units", units)
        return object.result
    }
}

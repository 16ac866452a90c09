import ListFormat

extension HistoryEvent {
    /// The event as one JSON object, without a newline, keys in this order:
    /// `{"revision":7,"time":"2026-11-20T10:00:00.000Z","meta":{…},"kinds":["moved","updated"],
    /// "withSection":null,"before":{"section":"Pinned","indexPath":[0,3]},
    /// "after":{"section":"Today","indexPath":[1,0]},"summaryBefore":"…","summaryAfter":"…"}`.
    /// A section's places are `{"index":2}`. `meta`'s keys are sorted code point by code point.
    public func jsonObject() -> String {
        var bytes: [UInt8] = []
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``jsonObject()``'s UTF-8 bytes to `bytes`.
    public func appendJSON(to bytes: inout [UInt8]) {
        JSONWriter.appending(to: &bytes) { json in
            json.raw("{")
            json.key("revision")
            json.integer(revision)
            json.raw(",")
            json.key("time")
            json.string(Timestamp.iso8601(milliseconds: millisecondsSince1970))
            json.raw(",")
            json.key("meta")
            json.stringMapByCodePoint(meta)
            json.raw(",")
            json.key("kinds")
            json.raw("[")
            for (index, kind) in kinds.enumerated() {
                json.separator(index)
                json.string(kind.rawValue)
            }
            json.raw("]")
            json.raw(",")
            json.key("withSection")
            if let withSection { json.string(withSection.rawValue) } else { json.raw("null") }
            json.raw(",")
            json.key("before")
            Self.write(before, to: &json)
            json.raw(",")
            json.key("after")
            Self.write(after, to: &json)
            json.raw(",")
            json.key("summaryBefore")
            if let summaryBefore { json.string(summaryBefore) } else { json.raw("null") }
            json.raw(",")
            json.key("summaryAfter")
            if let summaryAfter { json.string(summaryAfter) } else { json.raw("null") }
            json.raw("}")
        }
    }

    private static func write(_ place: Place?, to json: inout JSONWriter) {
        guard let place else {
            json.raw("null")
            return
        }
        if let itemIndex = place.itemIndex {
            json.raw("{")
            json.key("section")
            json.string(place.section)
            json.raw(",")
            json.key("indexPath")
            json.raw("[")
            json.integer(place.sectionIndex)
            json.raw(",")
            json.integer(itemIndex)
            json.raw("]}")
        } else {
            json.raw("{")
            json.key("index")
            json.integer(place.sectionIndex)
            json.raw("}")
        }
    }
}

import Foundation

/// A list as sections of items with optional summaries: read from the viewer's DOM by its
/// contract, or from a snapshot of `replay export`, so that the two compare exactly.
struct ShownList: Equatable, CustomStringConvertible {
    struct Item: Equatable {
        var id: String
        var summary: String?
    }

    struct Section: Equatable {
        var title: String
        var summary: String?
        var items: [Item]
    }

    var sections: [Section] = []

    var description: String {
        sections.map { section in
            "[\(section.title)\(section.summary.map { " (\($0))" } ?? "")] "
                + section.items.map { $0.id + ($0.summary.map { "=\($0)" } ?? "") }.joined(separator: ", ")
        }.joined(separator: "\n")
    }

    /// The snapshot of an interchange-format revision line (a JSON object).
    init(snapshotOf revisionLine: String) throws {
        let object = try JSONSerialization.jsonObject(with: Data(revisionLine.utf8)) as? [String: Any]
        let snapshot = object?["snapshot"] as? [String: Any]
        for section in snapshot?["sections"] as? [[String: Any]] ?? [] {
            let items = (section["items"] as? [[String: Any]] ?? []).map {
                Item(id: $0["id"] as? String ?? "", summary: $0["summary"] as? String)
            }
            sections.append(
                Section(title: section["title"] as? String ?? "", summary: section["summary"] as? String, items: items))
        }
    }

    init() {}
}

/// What a dumped DOM of the viewer shows, read by the DOM contract: start tags in document order
/// (the contents of script and style elements skipped), their attributes unescaped.
struct ViewerDOM {
    /// The list: `data-section-title` elements and the `data-item-id` elements after each.
    var list = ShownList()
    /// The ids of the rows shown as deleted (`data-deleted-item-id`), in document order.
    var deletedItems: [String] = []
    /// The titles of the sections shown as deleted (`data-deleted-section-title`).
    var deletedSections: [String] = []
    /// The value of the `data-revision` attribute.
    var revision: String?
    /// The body's `data-state`.
    var state: String?
    /// The body's `data-error`, when the page reports one.
    var error: String?
    /// The revisions marked as failed on the timeline.
    var failedRevisions: Set<String> = []

    init(html: String) {
        for (name, attributes) in Self.startTags(in: html) {
            if let title = attributes["data-section-title"] {
                list.sections.append(.init(title: title, summary: attributes["data-section-summary"], items: []))
            }
            if let id = attributes["data-item-id"], !list.sections.isEmpty {
                list.sections[list.sections.count - 1].items.append(.init(id: id, summary: attributes["data-summary"]))
            }
            if let id = attributes["data-deleted-item-id"] { deletedItems.append(id) }
            if let title = attributes["data-deleted-section-title"] { deletedSections.append(title) }
            if let value = attributes["data-revision"] { revision = value }
            if let value = attributes["data-failed-revision"] { failedRevisions.insert(value) }
            if name == "body" {
                state = attributes["data-state"]
                error = attributes["data-error"]
            }
        }
    }

    /// The start tags of `html` with their attributes, skipping the raw text of script and style.
    static func startTags(in html: String) -> [(String, [String: String])] {
        var tags: [(String, [String: String])] = []
        let text = Array(html.unicodeScalars)
        var index = 0
        func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_" || c == ":"
        }
        while index < text.count {
            guard text[index] == "<", index + 1 < text.count, text[index + 1].properties.isAlphabetic else {
                index += 1
                continue
            }
            index += 1
            var name = ""
            while index < text.count, isNameCharacter(text[index]) {
                name.unicodeScalars.append(text[index])
                index += 1
            }
            var attributes: [String: String] = [:]
            while index < text.count, text[index] != ">" {
                guard isNameCharacter(text[index]) else {
                    index += 1
                    continue
                }
                var attribute = ""
                while index < text.count, isNameCharacter(text[index]) {
                    attribute.unicodeScalars.append(text[index])
                    index += 1
                }
                var value = ""
                if index + 1 < text.count, text[index] == "=", text[index + 1] == "\"" {
                    index += 2
                    while index < text.count, text[index] != "\"" {
                        value.unicodeScalars.append(text[index])
                        index += 1
                    }
                    index += 1
                }
                attributes[attribute] = unescape(value)
            }
            tags.append((name.lowercased(), attributes))
            if ["script", "style"].contains(name.lowercased()) {
                let closing = Array("</\(name.lowercased())".unicodeScalars)
                while index < text.count, Array(text[index..<min(text.count, index + closing.count)]) != closing {
                    index += 1
                }
            }
        }
        return tags
    }

    /// `value` with the character references a serialized DOM uses replaced by their characters.
    static func unescape(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var result = ""
        var rest = Substring(value)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            rest = rest[ampersand...]
            guard let semicolon = rest.firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: rest.startIndex)..<semicolon]
            let named = ["amp": "&", "quot": "\"", "lt": "<", "gt": ">", "nbsp": "\u{A0}", "apos": "'"]
            if let character = named[String(entity)] {
                result += character
            } else if entity.hasPrefix("#x"), let code = UInt32(entity.dropFirst(2), radix: 16),
                let scalar = Unicode.Scalar(code)
            {
                result.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "&"
                rest = rest.dropFirst()
                continue
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}

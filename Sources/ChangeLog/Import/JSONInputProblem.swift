import Foundation
import ListAdapter

/// Describes a `DecodingError` in one line that names the field and, where it can, the
/// offending value: `field sections[1].title is not a string: 3`.
package enum JSONInputProblem {
    /// A one-line description of `error`, which decoding `json` produced.
    package static func describe(_ error: DecodingError, in json: Data) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field \(quotedExcerpt(key.stringValue))\(location(context.codingPath))"
        case .typeMismatch(let type, let context):
            return
                "field \(path(context.codingPath)) is not \(typeName(type))\(found(at: context.codingPath, in: json))"
        case .valueNotFound(let type, let context):
            return "field \(path(context.codingPath)) is null, expected \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return syntaxProblem(in: json) }
            return "\(context.debugDescription)\(location(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }

    /// `not valid JSON: invalid value at line 2, column 14`: why `json` does not parse, where
    /// `JSONDecoder` says only that it does not. ``JSONGrammar`` names the first fault and its
    /// place (``place(ofByte:in:)``). Where it finds none, the text is JSON that the decoder
    /// refuses anyway (nested deeper than it reads): `JSON the decoder cannot read: too many
    /// nested arrays or dictionaries at column 526`, with Foundation's parser's reason and the
    /// byte offset in it ("around character 525").
    private static func syntaxProblem(in json: Data) -> String {
        if let violation = JSONGrammar.violation(in: json) {
            return notJSON(violation.reason, atByte: violation.offset, in: json)
        }
        let refused = "JSON the decoder cannot read"
        let reason: String
        do {
            _ = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
            return refused
        } catch {
            guard let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else {
                return refused
            }
            reason = text
        }
        var sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        if let first = sentence.first {
            sentence = first.lowercased() + sentence.dropFirst()
        }
        let marker = " around character "
        // The parser counts from after a UTF-8 byte order mark, which no editor shows either.
        let textStart = json.starts(with: [0xEF, 0xBB, 0xBF]) ? json.startIndex + 3 : json.startIndex
        guard let range = sentence.range(of: marker, options: .backwards),
            let parsed = Int(sentence[range.upperBound...]), parsed >= 0,
            case let offset = parsed + (textStart - json.startIndex), offset <= json.count
        else { return "\(refused): \(sentence)" }
        return "\(refused): \(sentence[..<range.lowerBound]) at \(place(ofByte: offset, in: json))"
    }

    /// `not valid JSON: trailing comma at column 16 ("]}")`: `reason`, at the byte at `offset`
    /// of `json`, and the text from there (``excerpt(atByte:in:)``).
    package static func notJSON(_ reason: String, atByte offset: Int, in json: Data) -> String {
        "not valid JSON: \(reason) at \(place(ofByte: offset, in: json))\(excerpt(atByte: offset, in: json))"
    }

    /// How many Unicode scalars of the text at a syntax error its message quotes.
    static let excerptLength = 20

    /// ` ("tru]}]}")`: the text from the byte at `offset` to the end of its line, cut after
    /// ``excerptLength`` Unicode scalars (`...`), quoted with its control characters escaped; empty
    /// at the end of the line.
    private static func excerpt(atByte offset: Int, in json: Data) -> String {
        let start = json.startIndex + min(max(offset, 0), json.count)
        let rest = json[start...].prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        guard !rest.isEmpty else { return "" }
        return " (\(quotedUTF8(rest, limit: excerptLength)))"
    }

    /// `line 2, column 14` for the byte at `offset` (0-based, from the text's first byte) of
    /// `json`: columns count characters, from 1, after a UTF-8 byte order mark, which no editor
    /// shows; `column 14` alone in text of one line (a line of JSON Lines, which its reader
    /// numbers).
    package static func place(ofByte offset: Int, in json: Data) -> String {
        let offset = min(max(offset, 0), json.count)
        let textStart = json.starts(with: [0xEF, 0xBB, 0xBF]) ? json.startIndex + min(3, offset) : json.startIndex
        let before = json.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? textStart
        let line = before.count { $0 == UInt8(ascii: "\n") } + 1
        let column = String(decoding: json[lineStart..<(json.startIndex + offset)], as: UTF8.self).count + 1
        return json.contains(UInt8(ascii: "\n")) ? "line \(line), column \(column)" : "column \(column)"
    }

    private static func location(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "" : " in \(path(codingPath))"
    }

    /// `sections[1].items[0].id`, or `(top level)`. A key that is not printable on one line
    /// (a `meta` key the user chose) is quoted, its control characters escaped: `meta."a\nb"`;
    /// a key longer than 60 Unicode scalars is cut there, with its length
    /// (``ListAdapter/printableExcerpt(_:limit:)``).
    package static func path(_ codingPath: [any CodingKey]) -> String {
        var result = ""
        for key in codingPath {
            // An array's element has an index and a name that is no number ("Index 1"); an
            // object's key such as "3" or "-0" has an index too (Int of its name), but is a name.
            if let index = key.intValue, Int(key.stringValue) == nil {
                result += "[\(index)]"
            } else {
                let name = printableExcerpt(key.stringValue)
                result += result.isEmpty ? name : ".\(name)"
            }
        }
        return result.isEmpty ? "(top level)" : result
    }

    /// `: <value>` with the value at `codingPath` as the input spells it (``JSONValueText``),
    /// when it can be found. Its line breaks and tabs, whitespace between tokens of valid JSON,
    /// are shown as spaces. JSON escapes the C0 controls only; DEL and the C1 controls (among
    /// them U+009B, the 8-bit CSI) are escaped too, so that the value never sends a terminal
    /// escape sequence.
    private static func found(at codingPath: [any CodingKey], in json: Data) -> String {
        guard let typed = JSONValueText.text(at: codingPath, in: json) else { return "" }
        var text = ""
        for scalar in typed.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                text += " "
            } else if isEscapedInText(scalar) {
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        if text.count > 60 { text = String(text.prefix(57)) + "..." }
        return ": \(text)"
    }

    private static func typeName(_ type: Any.Type) -> String {
        if type == String.self { return "a string" }
        if type == Int.self || type == UInt64.self { return "an integer" }
        let name = String(describing: type)
        if name.hasPrefix("Array") { return "an array" }
        if name.hasPrefix("Dictionary") || name.contains("Keyed") { return "an object" }
        return name
    }
}

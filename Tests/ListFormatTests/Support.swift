import ListAdapter
import ListFormat

/// An annotated snapshot as bytes: `String`'s `==` is canonical equivalence, under which "é" and
/// "e" + U+0301 are one string; these compare every title, id, summary, meta key and meta value
/// byte for byte, and the sections and items in order.
struct SpelledSnapshot: Equatable, CustomStringConvertible {
    struct Item: Equatable {
        var id: [UInt8]
        var summary: [UInt8]?
    }

    struct Section: Equatable {
        var title: [UInt8]
        var summary: [UInt8]?
        var items: [Item]
    }

    var meta: [[UInt8]: [UInt8]]
    var sections: [Section]

    init(_ annotated: AnnotatedSnapshot<String, String, String>) {
        meta = Dictionary(uniqueKeysWithValues: annotated.meta.map { (Array($0.key.utf8), Array($0.value.utf8)) })
        sections = annotated.snapshot.sections.map { section in
            Section(
                title: Array(section.title.utf8), summary: section.summary.map { Array($0.utf8) },
                items: section.items.map { Item(id: Array($0.id.utf8), summary: $0.summary.map { Array($0.utf8) }) })
        }
    }

    /// Every string with its characters past ASCII as `\u{…}`, so that two spellings differ.
    var description: String {
        let shown = Shown.bytes
        let meta = self.meta.map { "\(shown($0.key)): \(shown($0.value))" }.sorted()
        let sections = self.sections.map { section in
            let items = section.items.map { item in shown(item.id) + (item.summary.map { " = " + shown($0) } ?? "") }
            let summary = section.summary.map { " = " + shown($0) } ?? ""
            return "\(shown(section.title))\(summary): [\(items.joined(separator: ", "))]"
        }
        return "meta \(meta), sections \(sections)"
    }
}

/// Bytes as a message shows them.
enum Shown {
    /// `bytes` as text with every character past ASCII as `\u{…}`, or as bytes when not UTF-8.
    static func bytes(_ bytes: [UInt8]) -> String {
        String(validating: bytes, as: UTF8.self).map { $0.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() }
            ?? "bytes \(bytes)"
    }
}

/// Respellings of strings: canonically equivalent, other code points.
enum Respelling {
    /// `snapshot` with its strings respelled: canonically equivalent strings, other code points.
    static func respelled(_ snapshot: ListSnapshot<String, String, String>) -> ListSnapshot<String, String, String> {
        let sections = snapshot.sections.map { section in
            ListSnapshot<String, String, String>.Section(
                title: respelled(section.title), summary: section.summary.map(respelled),
                items: section.items.map {
                    ListSnapshot<String, String, String>.Item(id: respelled($0.id), summary: $0.summary.map(respelled))
                })
        }
        // Respelling swaps spellings one for one, so the titles and the ids stay unique.
        return try! ListSnapshot<String, String, String>(sections: sections)
    }

    /// Characters and their other spellings, canonically equivalent.
    static let spellings: [Unicode.Scalar: [Unicode.Scalar]] = [
        "\u{E9}": ["e", "\u{301}"], "K": ["\u{212A}"], "\u{212A}": ["K"], "\u{C5}": ["\u{212B}"],
        "\u{212B}": ["\u{C5}"], ";": ["\u{37E}"], "\u{37E}": [";"],
    ]

    /// `string` with "é" and "e" + U+0301 swapped, "K" and the KELVIN SIGN, "Å" and the ANGSTROM
    /// SIGN, ";" and the GREEK QUESTION MARK: `==` to `string`, and other bytes where it has any
    /// of those characters.
    static func respelled(_ string: String) -> String {
        let scalars = Array(string.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "e", index + 1 < scalars.count, scalars[index + 1] == "\u{301}" {
                result.append("\u{E9}")
                index += 2
            } else {
                result.append(contentsOf: spellings[scalars[index]] ?? [scalars[index]])
                index += 1
            }
        }
        return String(result)
    }
}

/// FNV-1a, 64 bits: a stable digest of text, the same from run to run (Swift's `Hasher` is
/// seeded per process).
enum FNV1a {
    /// The digest of `text`'s UTF-8, in hexadecimal.
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

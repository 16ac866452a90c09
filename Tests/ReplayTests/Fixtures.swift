import Foundation

/// Import files used across the tool's tests.
enum Fixtures {
    /// Three snapshots: a section appears, an item is edited and moves, a section goes and its
    /// item arrives in another.
    static let history = """
        {"meta": {"commit": "c1"}, "sections": [{"title": "Today", "items": [{"id": "a", "summary": "hi"}, {"id": "b"}]}]}
        {"meta": {"commit": "c2"}, "sections": [{"title": "Today", "items": [{"id": "b"}, {"id": "a", "summary": "hi!"}]}, {"title": "Old", "items": [{"id": "c"}]}]}
        {"sections": [{"title": "Old", "items": [{"id": "c"}, {"id": "b"}]}]}

        """

    /// Encodings that are not UTF-8, which FORMAT.md's JSON must be, with the name the tool
    /// gives each when it refuses a text in it.
    static let foreignEncodings: [(String.Encoding, String)] = [
        (.utf16LittleEndian, "UTF-16"), (.utf16BigEndian, "UTF-16"), (.utf32LittleEndian, "UTF-32"),
        (.utf32BigEndian, "UTF-32"),
    ]

    /// `count` snapshots of a growing list, one per line.
    static func growing(_ count: Int) -> String {
        (1...count).map { revision in
            let items = (1...revision).map { #"{"id": "item-\#($0)"}"# }.joined(separator: ", ")
            return #"{"meta": {"n": "\#(revision)"}, "sections": [{"title": "All", "items": [\#(items)]}]}"#
        }.joined(separator: "\n") + "\n"
    }
}

import ListAdapter
import Testing

@testable import ListFormat

/// Import lines read with `DuplicatePolicy.keepFirst`: the first occurrence of each title and id
/// stays, and `meta` records the rest under `dropped-duplicates`, as JSON text.
@Suite("Reading import lines that drop duplicates")
struct DroppedDuplicatesTests {
    static func read(_ line: String) throws(FormatError) -> AnnotatedSnapshot<String, String, String> {
        try InterchangeFormat.readImportLine(Array(line.utf8), duplicates: .keepFirst)
    }

    @Test("titles and ids are written as JSON strings, escapes and all, and the value reads back as JSON")
    func escapedValue() throws {
        let line =
            #"{"sections": [{"title": "a\"b\\c\n", "items": [{"id": "x\u0001"}, {"id": "x\u0001"}]}, "#
            + #"{"title": "a\"b\\c\n", "items": [{"id": "é"}]}]}"#
        let annotated = try Self.read(line)
        let value = try #require(annotated.meta[InterchangeFormat.droppedDuplicatesKey])
        #expect(
            value
                == #"[{"id":"x\u0001","at":[0,1],"first":[0,0]},{"title":"a\"b\\c\n","at":[1],"first":[0],"items":1}]"#)
        #expect(annotated.snapshot.sections.map(\.title) == ["a\"b\\c\n"])
        #expect(annotated.snapshot.sections[0].items.map(\.id) == ["x\u{1}"])
        // The value is JSON the format's own reader takes as a snapshot's meta value would be.
        let wrapped = try InterchangeFormat.readImportLine(
            Array((#"{"sections": [], "meta": {"v": "# + quoted(value) + "}}").utf8))
        #expect(wrapped.meta["v"] == value)
    }

    @Test("nothing to drop: the line reads as without the option, its meta as it is")
    func nothingDropped() throws {
        let line = #"{"meta": {"dropped-duplicates": "kept"}, "sections": [{"title": "A", "items": [{"id": "a"}]}]}"#
        #expect(try Self.read(line) == (try InterchangeFormat.readImportLine(Array(line.utf8))))
        #expect(try Self.read(line).meta == ["dropped-duplicates": "kept"])
    }

    @Test("the line's own key, however spelled, is never overwritten: the line is refused, naming it")
    func ownKey() {
        let line =
            #"{"meta": {"dropped\u002dduplicates": "mine"}, "sections": [{"title": "A", "items": []}, "#
            + #"{"title": "A", "items": []}]}"#
        let error = #expect(throws: FormatError.self) { try Self.read(line) }
        #expect(
            error?.description
                == #"column 38, meta.dropped-duplicates: the line repeats a title or an id (section "A" at [1] with 0 "#
                + "items (first at [0])), and its meta already has this key, where what is dropped would be recorded; "
                + "rename the key, or import without dropping duplicates")
    }

    /// `text` as a JSON string.
    private func quoted(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return writer.string
    }
}

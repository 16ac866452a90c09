import ListAdapter
import Testing

@testable import ListFormat

/// Where a problem is, as an error names it: the line, the column, the path inside the
/// document; the value at fault quoted as the text spells it; the first problem in input order.
@Suite("Reader: the place and the order of problems")
struct ErrorPlaceTests {
    @Test("the path names every key and index down to the value at fault")
    func path() throws {
        let items = (0..<13).map { $0 == 12 ? #"{"id": 5}"# : #"{"id": "i\#($0)"}"# }
        let sections = (0..<4).map { index in
            #"{"title": "s\#(index)", "items": [\#(index == 3 ? items.joined(separator: ", ") : "")]}"#
        }
        let line = #"{"sections": ["# + sections.joined(separator: ", ") + "]}"
        let error = try #require(Reading.error(line))
        #expect(error.path == "sections[3].items[12].id")
        #expect(error.problem == "expected a string, found 5")
        #expect(
            error.line == 1
                && error.column == line.distance(from: line.startIndex, to: line.range(of: "5}")!.lowerBound) + 1)
        #expect(error.description == "column \(error.column), sections[3].items[12].id: expected a string, found 5")
    }

    @Test("keys in a path that are not printable on one line, or that read as numbers, are shown as keys")
    func keysInPaths() {
        #expect(Reading.error(#"{"meta": {"a\nb\u001b[2J": 1}, "sections": []}"#)?.path == #"meta."a\nb\u{1b}[2J""#)
        #expect(Reading.error(#"{"meta": {"3": 1}, "sections": []}"#)?.path == "meta.3")
        #expect(Reading.error(#"{"x": {"\u0041": [1,]}, "sections": []}"#)?.path == "x.A")
    }

    /// The value at fault as the line spells it: a number read back would show `100`, not `1E+2`.
    @Test(
        "a mistyped value is quoted as typed",
        arguments: [
            ("1E+2", "1E+2"), ("1e400", "1e400"), ("-0", "-0"), (#""x\"y""#, #""x\"y""#),
            (#"{"c" : [ true ,null ]}"#, #"{"c" : [ true ,null ]}"#), ("[1,\t{\"k\" : 2}]", #"[1, {"k" : 2}]"#),
            ("null", "null"), (#""\u009b2J\u007f""#, #""\u009b2J\u007f""#),
            ("[" + String(repeating: "1,", count: 40) + "1]", "[" + String(repeating: "1,", count: 28) + "..."),
        ])
    func quotedAsTyped(value: String, shown: String) {
        // A string where an array is read, anything else where a string is.
        let line =
            value.hasPrefix("\"")
            ? #"{"sections": [{"title": "A", "items": \#(value)}]}"#
            : #"{"sections": [{"title": \#(value), "items": []}]}"#
        let expected = value.hasPrefix("\"") ? "an array" : "a string"
        #expect(Reading.error(line)?.problem == "expected \(expected), found \(shown)")
    }

    @Test("a mistyped value that is not JSON from its first byte is named as not JSON")
    func mistypedAndNotJSON() {
        #expect(Reading.error(#"{"sections": tru}"#)?.problem == #"not valid JSON: invalid value ("tru}")"#)
        // Not JSON further in: its type is the first problem.
        #expect(Reading.error(#"{"sections": {"a": 1,}}"#)?.problem == #"expected an array, found {"a": 1,}"#)
    }

    /// Of several problems, the one whose byte comes first, whatever kind each is.
    @Test("the first problem in input order is named, and only it, every time")
    func firstProblem() {
        let members = [
            #""a": 1"#, #""b": [2]"#, #""c": null"#, #""d": {}"#, #""e": "ok""#, #""a": "x""#,
        ]
        for first in 0..<4 {
            // Every rotation of the bad members: the earliest bad one is named.
            let rotated = Array(members[first...] + members[..<first])
            let line = #"{"meta": {"# + rotated.joined(separator: ", ") + #"}, "sections": []}"#
            let key = rotated.first { !$0.contains(#""ok""#) }!.dropFirst().prefix(1)
            let errors = (0..<3).map { _ in Reading.error(line) }
            #expect(errors.allSatisfy { $0 == errors[0] })
            #expect(errors[0]?.path == "meta.\(key)", "\(line)")
        }
        // A problem of the grammar after a problem of the schema: the schema's is first.
        #expect(Reading.error(#"{"sections": 5, "x": [1,]}"#)?.path == "sections")
        #expect(Reading.error(#"{"x": [1,], "sections": 5}"#)?.path == "x")
        // A missing field is found at its object's end, after what the object holds.
        #expect(Reading.error(#"{"sections": [{"items": [{"id": 1}]}]}"#)?.path == "sections[0].items[0].id")
        #expect(Reading.error(#"{"sections": [{"items": []}]}"#)?.problem == #"missing field "title""#)
        // Two sections of one title: named at the second one's title.
        let twice = Reading.error(#"{"sections": [{"title": "A", "items": []}, {"title": "A", "items": []}]}"#)
        #expect(twice?.path == "sections[1].title" && twice?.column == 54)
    }

    @Test("a snapshot file of several lines names the line and counts columns within it")
    func snapshotFile() throws {
        let text = "{\"sections\": [\n  {\"title\": \"é\", \"items\": [}\n]}"
        do {
            _ = try InterchangeFormat.readSnapshotFile(Array(text.utf8))
            Issue.record("read")
        } catch {
            #expect(error.line == 2 && error.column == 28)
            #expect(
                error.description == #"line 2, column 28, sections[0].items[0]: not valid JSON: invalid value ("}")"#)
        }
        // A revision line is not a snapshot file: it has no `sections`.
        #expect(throws: FormatError.self) {
            try InterchangeFormat.readSnapshotFile(Array(#"{"snapshot": {"sections": []}}"#.utf8))
        }
        let read = try InterchangeFormat.readSnapshotFile(
            Array("{\n\"meta\": {\"k\": \"v\"},\n\"sections\": []\n}\n".utf8))
        #expect(read.meta == ["k": "v"] && read.snapshot.sections.isEmpty)
    }

    @Test("a line with both `sections` and `snapshot` is refused at the second of them")
    func sectionsAndSnapshot() {
        for line in [
            #"{"sections": [], "snapshot": 5}"#, #"{"snapshot": {"sections": []}, "sections": []}"#,
            #"{"meta": {"k": "v"}, "sections": [], "snapshot": null}"#,
        ] {
            #expect(Reading.error(line)?.problem.hasPrefix(#"the object holds both "sections""#) == true, "\(line)")
        }
        // A value of the wrong type before the second key is the first problem.
        #expect(Reading.error(#"{"snapshot": 5, "sections": []}"#)?.problem == "expected an object, found 5")
        #expect(Reading.error(#"{"sections": 1, "snapshot": []}"#)?.problem == "expected an array, found 1")
    }
}

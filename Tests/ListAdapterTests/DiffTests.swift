import Testing

@testable import ListAdapter

/// Named cases for the diff: each asserts the exact operations and that applying them to the
/// old snapshot gives the new one.
@Suite("Diff: named cases")
struct DiffTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let old: [(String, [String])]
        let new: [(String, [String])]
        let expected: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "identical", old: [("A", ["a", "b"])], new: [("A", ["a", "b"])], expected: ""),
        Case(
            name: "from empty: every section inserted", old: [], new: [("A", ["a"]), ("", [])],
            expected: "+S0(A) +S1()"),
        Case(name: "to empty: every section deleted", old: [("A", ["a"]), ("B", [])], new: [], expected: "-S0 -S1"),
        Case(
            name: "insert and delete items", old: [("A", ["a", "b", "c"])], new: [("A", ["a", "x", "c"])],
            expected: "-[0, 1] +[0, 1]x"),
        Case(
            name: "swap two items: one move", old: [("A", ["a", "b"])], new: [("A", ["b", "a"])],
            expected: "[0, 1]>[0, 0]"),
        Case(
            name: "reverse four: three moves", old: [("A", ["a", "b", "c", "d"])], new: [("A", ["d", "c", "b", "a"])],
            expected: "[0, 3]>[0, 0] [0, 2]>[0, 1] [0, 1]>[0, 2]"),
        Case(
            name: "move to the front: one move", old: [("A", ["a", "b", "c", "d"])],
            new: [("A", ["d", "a", "b", "c"])],
            expected: "[0, 3]>[0, 0]"),
        Case(
            name: "cross-section move", old: [("A", ["a", "b"]), ("B", ["c"])],
            new: [("A", ["a"]), ("B", ["b", "c"])],
            expected: "[0, 1]>[1, 0]"),
        Case(
            name: "section moves: minimal", old: [("A", []), ("B", []), ("C", [])],
            new: [("C", []), ("A", []), ("B", [])],
            expected: "S2>S0"),
        Case(
            name: "item leaves into an inserted section", old: [("A", ["a", "b"])], new: [("A", ["a"]), ("N", ["b"])],
            expected: "+S1(N) -[0, 1]"),
        Case(
            name: "item arrives from a deleted section", old: [("A", ["a"]), ("D", ["b"])], new: [("A", ["a", "b"])],
            expected: "-S1 +[0, 1]b"),
        Case(
            name: "renamed section is deleted and inserted", old: [("A", ["a"])], new: [("B", ["a"])],
            expected: "-S0 +S0(B)"),
        Case(
            name: "update by summary", old: [("A", ["a=1", "b=1", "c"])], new: [("A", ["a=2", "b=1", "c"])],
            expected: "~[0, 0]>[0, 0]=2"),
        Case(
            name: "summary removed is an update to none", old: [("A", ["a=1"])], new: [("A", ["a"])],
            expected: "~[0, 0]>[0, 0]=nil"),
        Case(
            name: "summary added is an update", old: [("A", ["a", "b"])], new: [("A", ["a=1", "b"])],
            expected: "~[0, 0]>[0, 0]=1"),
        Case(
            name: "items without a summary never update", old: [("A", ["a", "b"]), ("B", ["c"])],
            new: [("B", ["c", "a"]), ("A", ["b"])], expected: "S1>S0 [0, 0]>[0, 1]"),
        Case(
            name: "moved and updated", old: [("A", ["a=1", "b"]), ("B", [])], new: [("A", ["b"]), ("B", ["a=2"])],
            expected: "[0, 0]>[1, 0] ~[0, 0]>[1, 0]=2"),
        Case(
            name: "empty title is an ordinary section", old: [("", ["a"]), ("A", ["b"])],
            new: [("A", ["b"]), ("", ["a"])],
            expected: "S1>S0"),
    ]

    @Test(arguments: cases)
    func namedCase(_ testCase: Case) throws {
        let old = makeSnapshot(testCase.old)
        let new = makeSnapshot(testCase.new)
        let changes = old.changes(to: new)
        #expect(describe(changes) == testCase.expected)
        #expect(try old.applying(changes) == new)
    }

    @Test("FORMAT.md's rule: the first revision inserts every section with its items")
    func firstRevision() throws {
        let new = makeSnapshot([("One", ["a=1", "c"]), ("Two", ["b"])])
        let changes = StringSnapshot().changes(to: new)
        #expect(changes.insertedSections.map(\.index) == [0, 1])
        #expect(changes.insertedSections.map(\.section) == new.sections)
        #expect(changes.operationCount == 2)
    }
}

/// A compact text form of changes for exact expectations: `-S1` deleted section, `+S0(T)`
/// inserted section, `S2>S0` section move, `-[s, i]` deleted item, `+[s, i]id` inserted item,
/// `[s, i]>[s, i]` item move, `~[s, i]>[s, i]=summary` update.
func describe(_ changes: StringChanges) -> String {
    var parts: [String] = []
    parts += changes.deletedSections.map { "-S\($0)" }
    parts += changes.insertedSections.map { "+S\($0.index)(\($0.section.title))" }
    parts += changes.movedSections.map { "S\($0.from)>S\($0.to)" }
    parts += changes.deletedItems.map { "-\($0)" }
    parts += changes.insertedItems.map { "+\($0.at)\($0.id)" }
    parts += changes.movedItems.map { "\($0.from)>\($0.to)" }
    parts += changes.updatedItems.map { "~\($0.from)>\($0.to)=\($0.summary ?? "nil")" }
    return parts.joined(separator: " ")
}

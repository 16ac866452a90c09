import Testing

@testable import ListAdapter

@Suite("ListChanges as text")
struct ListChangesDescriptionTests {
    @Test("the counts, then each operation in replay show's words")
    func description() throws {
        let old = makeSnapshot([("Today", ["a=1", "b", "c"]), ("Later", ["d"])])
        let new = makeSnapshot([("Later", ["d"]), ("Today", ["x=new", "a=2", "c"]), ("Archive", ["e"])])
        let changes = old.changes(to: new)
        #expect(
            changes.description == """
                sections +1 -0 ~1 *0  items +1 -1 ~0 *1
                  insert section 2 "Archive" with 1 item
                  move section 1 to 0
                  delete item at [0, 1]
                  insert item "x" at [1, 0] (summary "new")
                  update item from [0, 0] to [1, 1]: summary now "2"
                """)
        #expect(ListChanges<String, String, String>().description == "sections +0 -0 ~0 *0  items +0 -0 ~0 *0")
    }

    @Test("a long list of operations is cut after 50, saying how many more")
    func longDescription() {
        let new = makeSnapshot([("", (0..<120).map { "i\($0)" })])
        let changes = makeSnapshot([("", [])]).changes(to: new)
        let lines = changes.description.split(separator: "\n")
        #expect(lines.first == "sections +0 -0 ~0 *0  items +120 -0 ~0 *0")
        #expect(lines.count == 52)
        #expect(lines[50] == "  insert item \"i49\" at [0, 49]")
        #expect(lines.last == "  ... and 70 more operations")
    }
}

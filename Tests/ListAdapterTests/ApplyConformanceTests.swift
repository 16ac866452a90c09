import Foundation
import ListFormat
import Testing

@testable import ListAdapter

/// FORMAT.md's reference `apply` over the shared conformance cases of
/// `Tests/Fixtures/apply-conformance/cases.jsonl`: each of its four steps, FORMAT.md's example,
/// and every validity rule with its exact error. The viewer's JavaScript `apply` runs the same
/// file (`Tests/Viewer/format.test.mjs`), so that both read the format alike.
@Suite("Apply: the shared conformance cases")
struct ApplyConformanceTests {
    /// One line of the file: an old snapshot and changes, with the snapshot they give or the
    /// error they must throw.
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        /// The error a case expects: its code's name, its position and its exact message.
        struct Failure: Decodable, Sendable {
            let code: String
            let position: [Int]
            let message: String
        }

        let name: String
        let old: StringSnapshot
        let changes: StringChanges
        let new: StringSnapshot?
        let error: Failure?
        var testDescription: String { name }
    }

    /// The cases, one per line of the file.
    static func cases() throws -> [Case] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/apply-conformance/cases.jsonl")
        let text = try String(contentsOf: file, encoding: .utf8)
        return try text.split(separator: "\n").enumerated().map { number, line in
            do {
                return try JSONDecoder().decode(Case.self, from: Data(line.utf8))
            } catch {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: "\(file.path):\(number + 1)"])
            }
        }
    }

    @Test("the file holds valid and invalid cases, each either a result or an error, names unique")
    func file() throws {
        let cases = try Self.cases()
        #expect(cases.filter { $0.new != nil }.count >= 10)
        #expect(cases.filter { $0.error != nil }.count >= 35)
        #expect(cases.allSatisfy { ($0.new == nil) != ($0.error == nil) })
        #expect(Set(cases.map(\.name)).count == cases.count)
    }

    @Test("each case gives its snapshot, or throws its error with its exact message", arguments: try cases())
    func conformance(_ conformanceCase: Case) throws {
        if let new = conformanceCase.new {
            #expect(try conformanceCase.old.applying(conformanceCase.changes) == new)
            return
        }
        let expected = try #require(conformanceCase.error)
        let error = #expect(throws: ListChangesError.self) {
            try conformanceCase.old.applying(conformanceCase.changes)
        }
        #expect(error?.code.name == expected.code)
        #expect(error?.position == expected.position)
        #expect(error?.message == expected.message)
        #expect(error?.description == expected.message)
    }
}

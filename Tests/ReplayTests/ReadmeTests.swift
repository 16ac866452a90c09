import ChangeLogTestSupport
import Foundation
import Testing

/// The README teaches with a complete program: its copy in the README is the example target's
/// source, and the built example prints what the README says it prints.
@Suite("The README")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The fenced blocks of `language` in the README, in order, without their fences.
    static func blocks(_ language: String) throws -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in try text("README.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("the README's program is Examples/TodoLog/main.swift, exactly")
    func programIsTheExample() throws {
        let example = try Self.text("Examples/TodoLog/main.swift")
        #expect(try Self.blocks("swift").contains(example))
    }

    @Test("the example, built and run, prints the README's output and its log verifies")
    func exampleRunsAsShown() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let binary = ToolRunner.binary.deletingLastPathComponent().appendingPathComponent("TodoLog")
        let process = Process()
        process.executableURL = binary
        process.arguments = [scratch.path("todos.lmdb")]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = String(decoding: await output.fileHandleForReading.readToEndOffThePool(), as: UTF8.self)
        await process.exited()
        #expect(process.terminationStatus == 0)
        let shown = try #require(Self.blocks("console").first)
        #expect(printed == shown)
        let verified = try await ToolRunner.run(["verify", "--log", scratch.path("todos.lmdb")])
        #expect(verified.status == 0, "\(verified)")
    }

    @Test("the README stays a guide (at most 12 KB), and every file it links to exists")
    func sizeAndLinks() throws {
        let readme = try Self.text("README.md")
        #expect(readme.utf8.count <= 12 * 1024)
        let links = readme.matches(of: /\]\(([^)#:]+)\)/).map { String($0.1) }
        #expect(!links.isEmpty)
        for link in links {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(link).path), "\(link)")
        }
        for path in readme.matches(of: /`((?:Sources|Examples|docs|Benchmarks)\/[^`\s]+)`/).map({ String($0.1) }) {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
    }
}

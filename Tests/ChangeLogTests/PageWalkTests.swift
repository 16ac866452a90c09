import Foundation
import Testing

@testable import ChangeLog

/// The walk of every B-tree page before LMDB reads an untrusted log (`Options.untrusted`): a
/// sound log with branch pages and values on overflow pages passes it, and each kind of damage
/// to a live page that LMDB would follow out of the file, in a cycle or into an assertion is
/// refused with a message naming it.
@Suite("The page walk of untrusted logs")
struct PageWalkTests {
    /// Damage done to one live page of the revisions database.
    enum Damage: String, CaseIterable, CustomStringConvertible {
        case childTwice, childIsItself, childPastLastPage, leafFlaggedBranch, leafNumberChanged, leafNodeOffset
        case leafEmpty, overflowFlagsChanged, overflowPageCountShort, randomLeaf

        var description: String { rawValue }

        /// What the refusal's message says.
        var expected: String {
            switch self {
            case .childTwice, .childIsItself: "is reached twice"
            case .childPastLastPage: "outside pages 2 to"
            case .leafFlaggedBranch: "has flags 0x1 where a leaf page belongs"
            case .leafNumberChanged: "says it is page"
            case .leafNodeOffset: "lies at offset 2"
            case .leafEmpty: "has 0 nodes"
            case .overflowFlagsChanged, .overflowPageCountShort: "names overflow page"
            case .randomLeaf: "of the database \"revisions\""
            }
        }
    }

    @Test("a sound log with branch pages and overflow values passes the walk and reads in full")
    func soundLog() async throws {
        try await withTemporaryDirectory { path in
            let log = path + "/log"
            try await makeLog(at: log)
            let tree = try LiveTree(logAt: log)
            #expect(tree.depth >= 2)
            #expect(tree.overflow != nil)
            let opened = try ChangeLog(path: log, options: .init(readOnly: true, untrusted: true))
            #expect(try opened.latestRevision == 301)
            #expect(try await opened.verify().isValid)
        }
    }

    @Test("damage to a live page is refused when the log opens, naming the damage", arguments: Damage.allCases)
    func damagedPage(_ damage: Damage) async throws {
        try await withTemporaryDirectory { path in
            let log = path + "/log"
            try await makeLog(at: log)
            var tree = try LiveTree(logAt: log)
            tree.apply(damage)
            try Data(tree.bytes).write(to: URL(fileURLWithPath: log + "/data.mdb"))
            #expect {
                _ = try ChangeLog(path: log, options: .init(readOnly: true, untrusted: true))
            } throws: { error in
                guard let error = error as? ChangeLogError else { return false }
                return error.code == .cannotOpen && error.message.contains("its data file is damaged (")
                    && error.message.contains(damage.expected)
            }
        }
    }

    /// A log of 300 small revisions (the revisions database two levels deep) and one revision
    /// too large for a page (on overflow pages).
    private func makeLog(at path: String) async throws {
        let log = try ChangeLog(path: path)
        for version in 0..<300 {
            _ = try await log.append(try makeSnapshot(sections: 1 + version % 3, itemsPerSection: 4, version: version))
        }
        _ = try await log.append(try makeSnapshot(sections: 4, itemsPerSection: 600, version: 300))
    }
}

/// The live pages of a log's revisions database, found from its newer meta page as LMDB finds
/// them (the layout is ``PageWalk``'s), in a copy of its data file's bytes.
private struct LiveTree {
    var bytes: [UInt8]
    let pageSize = Int(getpagesize())
    /// The revisions database's root page and depth.
    var root = 0
    var depth = 0
    /// A branch page (the root), its first leaf, and the first overflow page of a value.
    var overflow: Int?

    init(logAt path: String) throws {
        bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")))
        let newer = load(144, 8) < load(pageSize + 144, 8) ? pageSize : 0
        let mainRoot = load(newer + 88 + 40, 8)
        // The main database's root, a leaf, records the named databases.
        for node in nodes(ofPage: mainRoot) where key(node) == Array("revisions".utf8) {
            let record = node + 8 + 9
            depth = load(record + 6, 2)
            root = load(record + 40, 8)
        }
        for leaf in leaves() {
            for node in nodes(ofPage: leaf) where load(node + 4, 2) == 0x01 {
                overflow = load(node + 8 + load(node + 6, 2), 8)
            }
        }
    }

    func load(_ offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
    }

    mutating func store(_ value: Int, at offset: Int, _ count: Int) {
        for index in 0..<count { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// The offsets in the file of the nodes of page `page`.
    func nodes(ofPage page: Int) -> [Int] {
        let start = page * pageSize
        let count = (load(start + 12, 2) - 16) / 2
        return (0..<count).map { start + load(start + 16 + 2 * $0, 2) }
    }

    func key(_ node: Int) -> [UInt8] { Array(bytes[node + 8..<node + 8 + load(node + 6, 2)]) }

    /// A branch node's child page.
    func child(_ node: Int) -> Int { load(node, 4) | load(node + 4, 2) << 32 }

    /// The leaves below the root (a two-level tree).
    func leaves() -> [Int] { depth == 1 ? [root] : nodes(ofPage: root).map(child) }

    mutating func apply(_ damage: PageWalkTests.Damage) {
        let branch = nodes(ofPage: root)
        let leaf = leaves()[0] * pageSize
        switch damage {
        case .childTwice: store(child(branch[0]), at: branch[1], 4)
        case .childIsItself: store(root, at: branch[0], 4)
        case .childPastLastPage: store(bytes.count / pageSize + 100, at: branch[0], 4)
        case .leafFlaggedBranch: store(0x01, at: leaf + 10, 2)
        case .leafNumberChanged: store(leaf / pageSize + 1, at: leaf, 8)
        case .leafNodeOffset: store(2, at: leaf + 16, 2)
        case .leafEmpty: store(16, at: leaf + 12, 2)
        case .overflowFlagsChanged: store(0x02, at: overflow! * pageSize + 10, 2)
        case .overflowPageCountShort: store(0, at: overflow! * pageSize + 12, 4)
        case .randomLeaf:
            var random = SeededGenerator(seed: 2_026)
            for offset in leaf + 8..<leaf + pageSize { bytes[offset] = UInt8.random(in: 0...255, using: &random) }
        }
    }
}

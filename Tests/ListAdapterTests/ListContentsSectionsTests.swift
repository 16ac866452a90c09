import Testing

@testable import ListAdapter

/// A message of a mail-like model: which folder shows it, and whether it is unread.
private struct Message: Sendable {
    var id: String
    var folder: String
    var subject: String
    var isUnread = false
}

private typealias Contents = ListContents<String, String, String>

/// Titles, items and section summaries of a snapshot, in order, as one comparable value.
private func outline(_ snapshot: StringSnapshot) -> [String] {
    snapshot.sections.map { section in
        "\(section.title)(\(section.summary ?? "-")): " + section.items.map(\.id).joined(separator: " ")
    }
}

private func unreadCount(_: String, _ messages: [Message]) -> String {
    "\(messages.filter(\.isUnread).count) unread"
}

@Suite("ListContents: a model declares its sections")
struct ListContentsSectionsTests {
    @Test("Sections follow the declared order, exist when empty, and group elements in any order")
    func declaredOrder() throws {
        let messages = [
            Message(id: "m1", folder: "Inbox", subject: "a"),
            Message(id: "m2", folder: "Archive", subject: "b"),
            Message(id: "m3", folder: "Inbox", subject: "c"),
            Message(id: "m4", folder: "Spam", subject: "d"),
            Message(id: "m5", folder: "Archive", subject: "e"),
        ]
        let contents = Contents(
            messages, id: \.id, sectionTitle: \.folder, summary: \.subject,
            sectionOrder: ["Pinned", "Inbox", "Archive"])
        #expect(
            outline(try contents.snapshot()) == [
                "Pinned(-): ", "Inbox(-): m1 m3", "Archive(-): m2 m5",
                // Not declared: after the declared ones, in the order of its first element.
                "Spam(-): m4",
            ])
    }

    @Test("Without a declared order, sections keep the order of their first element")
    func firstElementOrder() throws {
        let contents = Contents(identifiers: ["b1", "a1", "b2"], sectionTitle: { String($0.prefix(1)) })
        #expect(outline(try contents.snapshot()) == ["b(-): b1 b2", "a(-): a1"])
        let ordered = Contents(
            identifiers: ["b1", "a1", "b2"], sectionTitle: { String($0.prefix(1)) }, sectionOrder: ["a", "c"])
        #expect(outline(try ordered.snapshot()) == ["a(-): a1", "c(-): ", "b(-): b1 b2"])
    }

    @Test("A section's summary is computed from its elements, and updates when it changes")
    func summaryFromElements() throws {
        func contents(_ messages: [Message]) -> Contents {
            Contents(
                messages, id: \.id, sectionTitle: \.folder, summary: \.subject,
                sectionOrder: ["Pinned", "Inbox"], sectionSummary: unreadCount)
        }
        var messages = [
            Message(id: "m1", folder: "Inbox", subject: "a", isUnread: true),
            Message(id: "m2", folder: "Inbox", subject: "b"),
        ]
        let before = try contents(messages).snapshot()
        #expect(outline(before) == ["Pinned(0 unread): ", "Inbox(1 unread): m1 m2"])

        // Reading a message changes the count: Inbox's header is updated, nothing else.
        messages[0].isUnread = false
        let read = try contents(messages).snapshot()
        let changes = before.changes(to: read)
        #expect(changes.updatedSections.map(\.to) == [1])
        #expect(changes.updatedSections.map(\.summary) == ["0 unread"])
        #expect(changes.insertedItems.isEmpty && changes.deletedItems.isEmpty && changes.updatedItems.isEmpty)

        // A change that keeps the count keeps the header.
        messages[1].subject = "b, edited"
        let edited = try contents(messages).snapshot()
        let quiet = read.changes(to: edited)
        #expect(quiet.updatedSections.isEmpty)
        #expect(quiet.updatedItems.map(\.to) == [ItemPath(section: 1, item: 1)])
    }

    @Test("A title declared twice is a duplicate title, refused or dropped with its position")
    func titleDeclaredTwice() throws {
        let contents = Contents(identifiers: ["x"], sectionTitle: { _ in "A" }, sectionOrder: ["A", "B", "A"])
        #expect(throws: ListSnapshotError.self) { try contents.snapshot() }
        do {
            _ = try contents.snapshot()
        } catch {
            #expect(error.code == .duplicateSectionTitle)
        }
        let kept = contents.snapshotKeepingFirstOccurrences()
        #expect(outline(kept.snapshot) == ["A(-): x", "B(-): "])
        #expect(
            kept.dropped == [
                DroppedDuplicate(kind: .section(title: "A", itemCount: 0), position: [2], firstPosition: [0])
            ])
    }

    @Test("Elements dropped as duplicates make no section and are not summarised")
    func duplicatesAreNotSummarised() throws {
        let messages = [
            Message(id: "m1", folder: "Inbox", subject: "a", isUnread: true),
            Message(id: "m1", folder: "Spam", subject: "again", isUnread: true),
        ]
        let contents = Contents(
            messages, id: \.id, sectionTitle: \.folder, sectionOrder: ["Inbox"], sectionSummary: unreadCount)
        let kept = contents.snapshotKeepingFirstOccurrences()
        #expect(outline(kept.snapshot) == ["Inbox(1 unread): m1"])
        #expect(kept.dropped == [DroppedDuplicate(kind: .item(id: "m1"), position: [1], firstPosition: [0])])
        #expect(throws: ListSnapshotError.self) { try contents.snapshot() }
    }
}

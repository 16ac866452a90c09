import ListAdapter

extension ChangeLogError.Code {
    /// A stored identifier or summary does not convert to the type it was read as
    /// (``LogStringConvertible/parse(logString:)`` returned `nil`), or two of them convert to
    /// the same identifier; or values of such a type do not give distinct strings when stored.
    public static let unconvertibleValue = Self("unconvertibleValue")
}

extension ListSnapshot
where ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible {
    /// The snapshot with its identifiers and summaries (of items and sections) as the strings a
    /// ``ChangeLog`` stores.
    ///
    /// - Throws: ``ChangeLogError`` with code ``ChangeLogError/Code/unconvertibleValue`` when two
    ///   identifiers give the same string (a conformance that is not lossless).
    /// - Complexity: O(1) for a ``LogSnapshot``; O(*n*) expected otherwise.
    public func logSnapshot() throws(ChangeLogError) -> LogSnapshot {
        if let same = self as? LogSnapshot { return same }
        do {
            return try LogSnapshot(
                sections: sections.map { section in
                    LogSnapshot.Section(
                        title: section.title, summary: section.summary?.logString,
                        items: section.items.map {
                            LogSnapshot.Item(id: $0.id.logString, summary: $0.summary?.logString)
                        })
                })
        } catch {
            throw ChangeLogError(
                code: .unconvertibleValue,
                message: "Two identifiers of type \(ItemID.self) give the same log string "
                    + "\(quotedExcerpt(error.duplicate)) (at \(error.firstPosition) and \(error.secondPosition)): "
                    + "its LogStringConvertible conformance must give distinct values distinct strings",
                cause: error)
        }
    }
}

extension ListChanges
where ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible {
    /// The changes with their identifiers and summaries (of items and sections) as the strings a
    /// ``ChangeLog`` stores.
    ///
    /// - Complexity: O(1) for ``LogChanges``; O(*c*) otherwise, where *c* counts the operations
    ///   and the items of inserted sections.
    public func logChanges() -> LogChanges {
        if let same = self as? LogChanges { return same }
        return LogChanges(
            deletedSections: deletedSections,
            insertedSections: insertedSections.map { insertion in
                LogChanges.SectionInsertion(
                    index: insertion.index,
                    section: LogSnapshot.Section(
                        title: insertion.section.title, summary: insertion.section.summary?.logString,
                        items: insertion.section.items.map {
                            LogSnapshot.Item(id: $0.id.logString, summary: $0.summary?.logString)
                        }))
            },
            movedSections: movedSections.map { LogChanges.SectionMove(from: $0.from, to: $0.to) },
            updatedSections: updatedSections.map {
                LogChanges.SectionUpdate(from: $0.from, to: $0.to, summary: $0.summary?.logString)
            },
            deletedItems: deletedItems,
            insertedItems: insertedItems.map {
                LogChanges.ItemInsertion(at: $0.at, id: $0.id.logString, summary: $0.summary?.logString)
            },
            movedItems: movedItems.map { LogChanges.ItemMove(from: $0.from, to: $0.to) },
            updatedItems: updatedItems.map {
                LogChanges.ItemUpdate(from: $0.from, to: $0.to, summary: $0.summary?.logString)
            })
    }
}

/// Reads the log's strings as values of `ItemID`, `Summary` and `SectionSummary`, with errors that name the revision,
/// the place and the string that does not convert.
struct LogValueReader<
    ItemID: LogStringConvertible, Summary: LogStringConvertible, SectionSummary: LogStringConvertible
> {
    /// The revision read, for the errors.
    var revision: UInt64?

    func id(_ string: String, at place: @autoclosure () -> String) throws(ChangeLogError) -> ItemID {
        if let value = ItemID.parse(logString: string) { return value }
        throw failure("identifier", string, as: ItemID.self, at: place())
    }

    func summary(_ string: String?, at place: @autoclosure () -> String) throws(ChangeLogError) -> Summary? {
        guard let string else { return nil }
        if let value = Summary.parse(logString: string) { return value }
        throw failure("summary", string, as: Summary.self, at: place())
    }

    func sectionSummary(_ string: String?, at place: @autoclosure () -> String) throws(ChangeLogError)
        -> SectionSummary?
    {
        guard let string else { return nil }
        if let value = SectionSummary.parse(logString: string) { return value }
        throw failure("section summary", string, as: SectionSummary.self, at: place())
    }

    func items(_ items: [LogSnapshot.Item], section: Int, inserted: Bool = false) throws(ChangeLogError)
        -> [ListSnapshot<ItemID, Summary, SectionSummary>.Item]
    {
        var converted: [ListSnapshot<ItemID, Summary, SectionSummary>.Item] = []
        converted.reserveCapacity(items.count)
        for (offset, item) in items.enumerated() {
            let place = "\(inserted ? "inserted section" : "section") \(section), item \(offset)"
            converted.append(.init(id: try id(item.id, at: place), summary: try summary(item.summary, at: place)))
        }
        return converted
    }

    func snapshot(_ snapshot: LogSnapshot) throws(ChangeLogError) -> ListSnapshot<ItemID, Summary, SectionSummary> {
        if let same = snapshot as? ListSnapshot<ItemID, Summary, SectionSummary> { return same }
        var sections: [ListSnapshot<ItemID, Summary, SectionSummary>.Section] = []
        sections.reserveCapacity(snapshot.sections.count)
        for (offset, section) in snapshot.sections.enumerated() {
            sections.append(
                .init(
                    title: section.title, summary: try sectionSummary(section.summary, at: "section \(offset)"),
                    items: try items(section.items, section: offset)))
        }
        do {
            return try ListSnapshot(sections: sections)
        } catch {
            throw ChangeLogError(
                code: .unconvertibleValue,
                message: "\(subject) holds two identifiers that both read as the \(ItemID.self) "
                    + "\(quotedExcerpt(error.duplicate)) (at \(error.firstPosition) and \(error.secondPosition)); "
                    + "read it as String, or give \(ItemID.self) a lossless LogStringConvertible conformance",
                revision: revision, cause: error)
        }
    }

    func changes(_ changes: LogChanges) throws(ChangeLogError) -> ListChanges<ItemID, Summary, SectionSummary> {
        if let same = changes as? ListChanges<ItemID, Summary, SectionSummary> { return same }
        var result = ListChanges<ItemID, Summary, SectionSummary>(
            deletedSections: changes.deletedSections,
            movedSections: changes.movedSections.map { .init(from: $0.from, to: $0.to) },
            deletedItems: changes.deletedItems,
            movedItems: changes.movedItems.map { .init(from: $0.from, to: $0.to) })
        for insertion in changes.insertedSections {
            let items = try items(insertion.section.items, section: insertion.index, inserted: true)
            let summary = try sectionSummary(
                insertion.section.summary, at: "inserted section \(insertion.index)")
            result.insertedSections.append(
                .init(
                    index: insertion.index,
                    section: .init(title: insertion.section.title, summary: summary, items: items)))
        }
        for update in changes.updatedSections {
            let summary = try sectionSummary(update.summary, at: "the section updated at \(update.to)")
            result.updatedSections.append(.init(from: update.from, to: update.to, summary: summary))
        }
        for insertion in changes.insertedItems {
            let place = "the item inserted at \(insertion.at)"
            result.insertedItems.append(
                .init(
                    at: insertion.at, id: try id(insertion.id, at: place),
                    summary: try summary(insertion.summary, at: place)))
        }
        for update in changes.updatedItems {
            let summary = try summary(update.summary, at: "the item updated at \(update.to)")
            result.updatedItems.append(.init(from: update.from, to: update.to, summary: summary))
        }
        return result
    }

    private var subject: String { revision.map { "Revision \($0)" } ?? "The snapshot" }

    private func failure(_ role: String, _ string: String, as type: Any.Type, at place: String) -> ChangeLogError {
        ChangeLogError(
            code: .unconvertibleValue,
            message: "\(subject) holds the \(role) \(quotedExcerpt(string)) (\(place)), which is not a \(type): "
                + "\(type).parse(logString:) returned nil. Read the log with the \(role) type it was written with, "
                + "or as String",
            revision: revision)
    }
}

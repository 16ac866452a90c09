import ListAdapter

// The changes block of a revision record (RecordFormat.md, "Changes"). Offsets are
// zigzag-signed so that any ListChanges value, even an invalid one handed to
// ChangeLog.append(_:changes:...), is stored exactly as given. Version 2 adds each inserted
// section's summary and the section updates; version 1 has neither (its writer is only asked
// to write changes without them). A version-2 record with the update-kinds flag also stores,
// after each updated item's summary, its kind: 0 for a reconfigure, 1 for a reload.

extension RecordWriter {
    mutating func writeChanges(_ changes: LogChanges, version: UInt8, withKinds: Bool = false) {
        let withSectionSummaries = version >= RevisionRecordBody.formatVersion
        writeCount(changes.deletedSections.count)
        for index in changes.deletedSections {
            writeSigned(index)
        }
        writeCount(changes.insertedSections.count)
        for insertion in changes.insertedSections {
            writeSigned(insertion.index)
            writeString(insertion.section.title)
            if withSectionSummaries { writeOptionalString(insertion.section.summary) }
            writeCount(insertion.section.items.count)
            for item in insertion.section.items {
                writeItem(item)
            }
        }
        writeCount(changes.movedSections.count)
        for move in changes.movedSections {
            writeSigned(move.from)
            writeSigned(move.to)
        }
        if withSectionSummaries {
            writeCount(changes.updatedSections.count)
            for update in changes.updatedSections {
                writeSigned(update.from)
                writeSigned(update.to)
                writeOptionalString(update.summary)
            }
        }
        writeCount(changes.deletedItems.count)
        for path in changes.deletedItems {
            writePath(path)
        }
        writeCount(changes.insertedItems.count)
        for insertion in changes.insertedItems {
            writePath(insertion.at)
            writeString(insertion.id)
            writeOptionalString(insertion.summary)
        }
        writeCount(changes.movedItems.count)
        for move in changes.movedItems {
            writePath(move.from)
            writePath(move.to)
        }
        writeCount(changes.updatedItems.count)
        for update in changes.updatedItems {
            writePath(update.from)
            writePath(update.to)
            writeOptionalString(update.summary)
            if withKinds { writeByte(update.kind == .reload ? 1 : 0) }
        }
    }
}

extension RecordReader {
    mutating func readChanges(version: UInt8, withKinds: Bool = false) throws(RecordDecodingError) -> LogChanges {
        let withSectionSummaries = version >= RevisionRecordBody.formatVersion
        var changes = LogChanges()
        let deletedSectionCount = try readCount()
        changes.deletedSections.reserveCapacity(deletedSectionCount)
        for _ in 0..<deletedSectionCount {
            changes.deletedSections.append(try readSigned())
        }
        let insertedSectionCount = try readCount(minimumElementSize: 3)
        changes.insertedSections.reserveCapacity(insertedSectionCount)
        for _ in 0..<insertedSectionCount {
            let index = try readSigned()
            let title = try readString()
            let summary = withSectionSummaries ? try readOptionalString() : nil
            let itemCount = try readCount(minimumElementSize: 2)
            var items: [LogSnapshot.Item] = []
            items.reserveCapacity(itemCount)
            for _ in 0..<itemCount {
                items.append(try readItem())
            }
            changes.insertedSections.append(
                .init(index: index, section: .init(title: title, summary: summary, items: items)))
        }
        let movedSectionCount = try readCount(minimumElementSize: 2)
        changes.movedSections.reserveCapacity(movedSectionCount)
        for _ in 0..<movedSectionCount {
            let from = try readSigned()
            let to = try readSigned()
            changes.movedSections.append(.init(from: from, to: to))
        }
        if withSectionSummaries {
            let updatedSectionCount = try readCount(minimumElementSize: 3)
            changes.updatedSections.reserveCapacity(updatedSectionCount)
            for _ in 0..<updatedSectionCount {
                let from = try readSigned()
                let to = try readSigned()
                let summary = try readOptionalString()
                changes.updatedSections.append(.init(from: from, to: to, summary: summary))
            }
        }
        let deletedItemCount = try readCount(minimumElementSize: 2)
        changes.deletedItems.reserveCapacity(deletedItemCount)
        for _ in 0..<deletedItemCount {
            changes.deletedItems.append(try readPath())
        }
        let insertedItemCount = try readCount(minimumElementSize: 4)
        changes.insertedItems.reserveCapacity(insertedItemCount)
        for _ in 0..<insertedItemCount {
            let at = try readPath()
            let id = try readString()
            let summary = try readOptionalString()
            changes.insertedItems.append(.init(at: at, id: id, summary: summary))
        }
        let movedItemCount = try readCount(minimumElementSize: 4)
        changes.movedItems.reserveCapacity(movedItemCount)
        for _ in 0..<movedItemCount {
            let from = try readPath()
            let to = try readPath()
            changes.movedItems.append(.init(from: from, to: to))
        }
        let updatedItemCount = try readCount(minimumElementSize: withKinds ? 6 : 5)
        changes.updatedItems.reserveCapacity(updatedItemCount)
        for _ in 0..<updatedItemCount {
            let from = try readPath()
            let to = try readPath()
            let summary = try readOptionalString()
            var kind = ItemUpdateKind.reconfigure
            if withKinds {
                switch try readByte() {
                case 0: kind = .reconfigure
                case 1: kind = .reload
                case let other: throw failure("unknown update kind \(other)")
                }
            }
            changes.updatedItems.append(.init(from: from, to: to, summary: summary, kind: kind))
        }
        return changes
    }
}

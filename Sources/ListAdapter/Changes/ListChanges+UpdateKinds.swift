extension ListChanges {
    /// These changes with the ``ItemUpdate/kind`` of every item update set by `kind`, asked with
    /// the item's identifier, its summary in `old` and its new summary.
    ///
    /// ``ListAdapter`` calls it with its data source's ``ListSource/updateKind(of:from:to:)``
    /// on every diff; a renderer learns the choice from the changes it receives.
    ///
    /// - Parameters:
    ///   - old: the snapshot these changes apply to (*O*); an update whose `from` is not a path
    ///     of it (changes that are not valid for it) keeps its kind.
    ///   - kind: the kind for an item, given its identifier, old summary and new summary.
    /// - Complexity: O(*u*), where *u* is the number of item updates, plus the calls to `kind`.
    public func classifyingUpdates(
        from old: ListSnapshot<ItemID, Summary, SectionSummary>,
        by kind: (_ id: ItemID, _ oldSummary: Summary?, _ newSummary: Summary?) throws -> ItemUpdateKind
    ) rethrows -> ListChanges {
        guard !updatedItems.isEmpty else { return self }
        var result = self
        for index in result.updatedItems.indices {
            let update = result.updatedItems[index]
            guard let item = old.item(at: update.from) else { continue }
            result.updatedItems[index].kind = try kind(item.id, item.summary, update.summary)
        }
        return result
    }
}

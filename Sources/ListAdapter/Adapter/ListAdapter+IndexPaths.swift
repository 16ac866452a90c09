extension ListAdapter {
    /// The number of sections of the current ``snapshot``.
    ///
    /// - Complexity: O(1).
    public var numberOfSections: Int { snapshot.sectionCount }

    /// The number of items in the section at `section` of the current ``snapshot``.
    ///
    /// - Precondition: `section` is in `0..<numberOfSections`.
    /// - Complexity: O(1).
    public func numberOfItems(inSection section: Int) -> Int {
        guard let count = snapshot.itemCount(inSection: section) else {
            preconditionFailure("Section \(section) is out of range: the adapter has \(numberOfSections) sections")
        }
        return count
    }

    /// The title of the section at `section` of the current ``snapshot``; `""` for the section of
    /// items whose data source gave no title.
    ///
    /// - Precondition: `section` is in `0..<numberOfSections`.
    /// - Complexity: O(1).
    public func title(ofSection section: Int) -> String {
        guard let title = snapshot.title(ofSection: section) else {
            preconditionFailure("Section \(section) is out of range: the adapter has \(numberOfSections) sections")
        }
        return title
    }

    /// The identifier at `path` in the current ``snapshot``, or `nil` when `path` is outside it.
    ///
    /// - Complexity: O(1).
    public func identifier(at path: ItemPath) -> ItemID? {
        snapshot.identifier(at: path)
    }

    /// The path of `id` in the current ``snapshot``, or `nil` when it is not there.
    ///
    /// - Complexity: O(1) expected.
    public func path(of id: ItemID) -> ItemPath? {
        snapshot.path(of: id)
    }

    /// The summary of the item at `path` in the current ``snapshot``, or `nil` when `path` is
    /// outside it or the item has no summary.
    ///
    /// - Complexity: O(1).
    public func summary(at path: ItemPath) -> Summary? {
        snapshot.item(at: path)?.summary
    }
}

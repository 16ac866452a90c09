extension ListAdapter {
    /// A fetch in flight: the task, and the data source attachment and summary it was started under.
    struct ItemFetch {
        let task: Task<Item, any Error>
        let attachment: UInt64
        let summary: Summary?
    }

    /// Fetches the item at `path` in the current ``snapshot`` through the data source, or returns
    /// it from the cache.
    ///
    /// A fetched item is cached under its identifier while its summary stays the same; an update
    /// of the item, or its removal, drops it. Concurrent requests for one item share one fetch.
    ///
    /// - Returns: The item, or `nil` when `path` is outside the snapshot.
    /// - Throws: ``ListAdapterError`` with code ``ListAdapterError/Code/itemFetchFailed`` when the
    ///   data source's ``ListSource/item(for:)`` throws.
    /// - Complexity: O(1) expected, plus the data source's fetch on a cache miss.
    public func item(at path: ItemPath) async throws(ListAdapterError) -> Item? {
        guard let id = snapshot.identifier(at: path) else { return nil }
        return try await item(for: id)
    }

    /// Fetches the item identified by `id` through the data source, or returns it from the cache.
    ///
    /// The fetch asks the data source attached when it starts. When the data source is replaced
    /// or the item updated while the fetch runs, its result is still returned, as that data source
    /// gave it, but not cached: the next call fetches the item again.
    ///
    /// - Returns: The item, or `nil` when `id` is not in the current ``snapshot``.
    /// - Throws: ``ListAdapterError`` with code ``ListAdapterError/Code/itemFetchFailed`` when the
    ///   data source's ``ListSource/item(for:)`` throws.
    /// - Complexity: O(1) expected, plus the data source's fetch on a cache miss.
    public func item(for id: ItemID) async throws(ListAdapterError) -> Item? {
        guard let path = snapshot.path(of: id), let entry = snapshot.item(at: path) else { return nil }
        if let cached = itemCache.value(for: id, summary: entry.summary) { return cached }
        let fetch: ItemFetch
        if let running = itemFetches[LiteralKey(id)], running.attachment == attachment,
            literallyEqual(running.summary, entry.summary)
        {
            fetch = running
        } else {
            let source = dataSource
            fetch = ItemFetch(
                task: Task { try await source.item(for: id) }, attachment: attachment,
                summary: entry.summary)
            itemFetches[LiteralKey(id)] = fetch
        }
        let result = await fetch.task.result
        if itemFetches[LiteralKey(id)]?.task == fetch.task { itemFetches[LiteralKey(id)] = nil }
        switch result {
        case .success(let item):
            // Cache it only if it still is the item the adapter shows.
            if fetch.attachment == attachment, let now = snapshot.path(of: id),
                literallyEqual(snapshot.item(at: now)?.summary, fetch.summary)
            {
                itemCache.insert(item, for: id, summary: fetch.summary)
            }
            return item
        case .failure(let error):
            throw .itemFetchFailed(id, error)
        }
    }

    /// The item at `path` in the current ``snapshot`` if it is cached, without fetching.
    ///
    /// - Returns: The cached item, or `nil` when it is not cached (or `path` is outside the
    ///   snapshot).
    /// - Complexity: O(1) expected.
    public func cachedItem(at path: ItemPath) -> Item? {
        guard let entry = snapshot.item(at: path) else { return nil }
        return itemCache.value(for: entry.id, summary: entry.summary)
    }

    /// The most fetched items the adapter keeps in memory.
    ///
    /// - Complexity: O(1).
    public var itemCacheCapacity: Int { itemCache.capacity }

    /// The number of items in the cache.
    ///
    /// - Complexity: O(1).
    public var cachedItemCount: Int { itemCache.count }

    /// Drops the cached items that left the current snapshot or whose summary changed.
    func dropStaleItems() {
        let snapshot = self.snapshot
        itemCache.retain { id, summary in
            guard let path = snapshot.path(of: id), let item = snapshot.item(at: path) else { return false }
            return literallyEqual(item.summary, summary)
        }
    }
}

import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One inotify instance for the whole process, shared by every ``LogFileWatcher``.
///
/// A watch is cheap to add and remove (a few microseconds), but an inotify instance is not:
/// closing one waits for the kernel's grace period (a fraction of a millisecond) and holds a
/// thread meanwhile. With an instance per watcher, subscribing and breaking off in a loop would
/// leave dozens of descriptors closing at once, each holding a thread. The hub's descriptor is
/// opened on first use and stays open for the life of the process.
///
/// Files are watched for modification (`IN_MODIFY`). Watches of the same file, under one path
/// or several, share the kernel's watch; the hub counts them and removes the kernel's watch
/// with the last one. Handlers run on the hub's serial queue and must return quickly: a
/// watcher hands the event to its own queue.
final class FileEventHub: Sendable {
    /// A watch added by ``watch(_:onModify:)``, to give back to ``remove(_:)``.
    struct Watch: Sendable, Hashable {
        fileprivate let descriptor: Int32
        fileprivate let token: UInt64
    }

    /// Called on the hub's queue when the watched file was modified; several modifications read
    /// together call it once.
    typealias Handler = @Sendable () -> Void

    private struct State {
        /// The handlers of each kernel watch, by the token of their ``Watch``.
        var handlers: [Int32: [UInt64: Handler]] = [:]
        var nextToken: UInt64 = 1
    }

    /// The process's hub; `nil` where inotify does not exist or refuses a new instance (then
    /// watchers poll). A refusal is not final: the next watcher asks again (the process may
    /// have been out of descriptors for a moment).
    static var shared: FileEventHub? {
        instance.withLock { hub in
            if hub == nil {
                hub = FileEventHub()
            }
            return hub
        }
    }

    private static let instance = Mutex<FileEventHub?>(nil)

    /// The read source of the descriptor; set up once, then used only by Dispatch.
    private struct Source: @unchecked Sendable {
        let source: any DispatchSourceRead
    }

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "ChangeLog.fileEvents", qos: .userInitiated)
    private let state = Mutex(State())
    private let source: Source

    private init?() {
        #if os(Linux) || os(Android)
            descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            source = Source(source: DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue))
            // Never cancelled: the hub lives as long as the process (`shared`), and so do its
            // descriptor and source.
            source.source.setEventHandler { [unowned self] in
                deliverEvents()
            }
            source.source.resume()
        #else
            return nil
        #endif
    }

    /// Whether `watch` is still in place: added, and neither removed nor dropped by the kernel
    /// (whose file was deleted and freed).
    func holds(_ watch: Watch) -> Bool {
        state.withLock { $0.handlers[watch.descriptor]?[watch.token] != nil }
    }

    /// Watches the file at `path` for modification; `nil` when the kernel refuses (the file
    /// does not exist, or the user's watch limit is reached).
    func watch(_ path: String, onModify handler: @escaping Handler) -> Watch? {
        #if os(Linux) || os(Android)
            state.withLock { state -> Watch? in
                // Under the lock: a removal of the last watch of the same file cannot slip
                // between the kernel's answer and the count.
                let watchDescriptor = inotify_add_watch(descriptor, path, UInt32(IN_MODIFY))
                guard watchDescriptor >= 0 else { return nil }
                let token = state.nextToken
                state.nextToken += 1
                state.handlers[watchDescriptor, default: [:]][token] = handler
                return Watch(descriptor: watchDescriptor, token: token)
            }
        #else
            return nil
        #endif
    }

    /// Removes `watch`; its handler is not called after this returns, except by a delivery
    /// already under way. Removing a watch twice does nothing.
    func remove(_ watch: Watch) {
        #if os(Linux) || os(Android)
            state.withLock { state in
                guard state.handlers[watch.descriptor]?.removeValue(forKey: watch.token) != nil else { return }
                if state.handlers[watch.descriptor]?.isEmpty == true {
                    state.handlers[watch.descriptor] = nil
                    // Fails harmlessly when the kernel already dropped the watch (its file was
                    // deleted and freed).
                    inotify_rm_watch(descriptor, watch.descriptor)
                }
            }
        #endif
    }

    /// Reads every queued event and calls the handlers of the files they name, each once; an
    /// overflow of the kernel's queue calls every handler.
    private func deliverEvents() {
        #if os(Linux) || os(Android)
            var modified: Set<Int32> = []
            // Watches the kernel dropped: their file was deleted and freed, or the hub removed them.
            var dropped: Set<Int32> = []
            var overflowed = false
            let headerSize = MemoryLayout<inotify_event>.size
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset + headerSize <= count {
                        let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                            overflowed = true
                        } else if event.mask & UInt32(IN_IGNORED) != 0 {
                            dropped.insert(event.wd)
                        } else if event.mask & UInt32(IN_MODIFY) != 0 {
                            modified.insert(event.wd)
                        }
                        offset += headerSize + Int(event.len)
                    }
                }
            }
            let handlers = state.withLock { state -> [Handler] in
                // Forget a dropped watch's handlers, so that its number, if the kernel hands it
                // out again, names only the new file (their watchers poll on).
                for watchDescriptor in dropped {
                    state.handlers[watchDescriptor] = nil
                }
                if overflowed {
                    return state.handlers.values.flatMap(\.values)
                }
                return modified.flatMap { state.handlers[$0]?.values.map { $0 } ?? [] }
            }
            for handler in handlers {
                handler()
            }
        #endif
    }
}

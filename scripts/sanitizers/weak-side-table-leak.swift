// What LeakSanitizer's "Direct leak of 32 byte(s)" allocated by `swift_weakInit` under
// `LMDBEnvironment.Registration.init` means (scripts/sanitize.sh): not memory the registry
// loses, but an environment that something still retains, unreachably, when the process exits.
// A weak reference gives its object a side table (32 bytes); the object's reference-count field
// points at it only in an encoded form LeakSanitizer cannot follow, so once the registry's
// entry is gone, the side table is the "direct" leak and the object itself (which the side
// table points at) only an "indirect" one. Reproduce:
//
//   swiftc -sanitize=address -g scripts/sanitizers/weak-side-table-leak.swift -o /tmp/leak
//   ASAN_OPTIONS=detect_leaks=1 /tmp/leak
//
// reports exactly that pair: 32 bytes direct from `swift_weakInit` in `Registration.init`, 32
// bytes indirect from the object's allocation. The leak to look for is the retain that was
// never balanced (an `Unmanaged.passRetained` not released, a reference cycle), not the
// registry.
import Synchronization

final class Environment: Sendable {
    let path: String
    init(path: String) { self.path = path }
}
struct Registration { weak var environment: Environment? }
enum Registry {
    static let registry = Mutex<[String: Registration]>([:])
}
// An environment kept alive by a reference nothing can reach (a retain never balanced), its
// registry entry removed: only the object's refcount field points at the weak side table.
func open() {
    let environment = Environment(path: "/a")
    Registry.registry.withLock { $0["/a"] = Registration(environment: environment) }
    _ = Unmanaged.passRetained(environment)
}
open()
Registry.registry.withLock { $0["/a"] = nil }
print("done")

// A correct program: four threads increment one counter, each increment under the same
// `Synchronization.Mutex`. Built with `swiftc -g -sanitize=thread` (or `-O`), ThreadSanitizer
// nevertheless reports a race between two `withLock` bodies and the program exits with 66;
// run with tsan.supp (TSAN_OPTIONS=suppressions=...) it is clean. scripts/sanitize.sh checks
// both, so the suppression goes once a toolchain no longer needs it.
import Foundation
import Synchronization

let counter = Mutex(0)
let threads = (0..<4).map { _ in
    Thread { for _ in 0..<100_000 { counter.withLock { $0 += 1 } } }
}
threads.forEach { $0.start() }
while counter.withLock({ $0 }) < 400_000 { usleep(1000) }
print(counter.withLock { $0 })

// Two threads fill one bounded set (as DBus's SignatureCache does) 200,000 times each, under a
// lock chosen by the first argument, and count their inserts inside it:
//   mutex         Synchronization.Mutex
//   pthread       a pthread_mutex_t (DBus's PThreadMutex)
//   pthread-racy  the same, but each thread also reads the count outside the lock: a real race
// The count shows whether the lock excluded the threads; ThreadSanitizer says what it saw.
// Run by tsan-mutex-repro.sh.
import Glibc
import Synchronization

final class PThreadMutex<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    var value: Value
    init(_ value: Value) { self.value = value; pthread_mutex_init(mutex, nil) }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}

struct Cache { var known: Set<Int> = []; var inserts = 0 }
let mutex = Mutex(Cache())
let pthreadMutex = PThreadMutex(Cache())
let mode = CommandLine.arguments.dropFirst().first ?? "mutex"
let rounds = 200_000

func insert(_ cache: inout Cache, _ value: Int) {
    if cache.known.count >= 512 { cache.known.removeAll(keepingCapacity: true) }
    cache.known.insert(value)
    cache.inserts += 1
}

func work(_ base: Int) {
    for i in 0..<rounds {
        switch mode {
        case "mutex": mutex.withLock { insert(&$0, base + i) }
        case "pthread": pthreadMutex.withLock { insert(&$0, base + i) }
        default:
            pthreadMutex.withLock { insert(&$0, base + i) }
            if pthreadMutex.value.inserts < 0 { print("never") }
        }
    }
}

var threads: [pthread_t] = []
for base in [0, 10_000_000] {
    var thread = pthread_t()
    let argument = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    argument.initialize(to: base)
    pthread_create(&thread, nil, { raw in
        let pointer = raw!.assumingMemoryBound(to: Int.self)
        work(pointer.pointee)
        pointer.deallocate()
        return nil
    }, argument)
    threads.append(thread)
}
for thread in threads { pthread_join(thread, nil) }
let inserts = mode == "mutex" ? mutex.withLock { $0.inserts } : pthreadMutex.withLock { $0.inserts }
print("\(mode): \(inserts) of \(2 * rounds) inserts counted")

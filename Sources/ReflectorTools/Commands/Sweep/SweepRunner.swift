import Foundation

/// Runs a sweep's realizations in parallel: a task group with at most `workers` realizations in
/// flight, on `workers` threads of its own (`WorkerThreads`). Each realization is computed from
/// the spec and its number alone (`SweepRealization.simulate`) and stored at its place in the
/// result, so the result is the same, bit for bit, for any number of workers and any order of
/// completion.
public enum SweepRunner {
    /// The realizations `indices` of `grid`, in the order of `indices`, computed on `workers`
    /// threads; blocks the caller until all are done. `progress` is told how many are done
    /// after each one (from one thread at a time, in completion order).
    public static func run(_ grid: SweepGrid, indices: [Int], workers: Int,
                           progress: (@Sendable (Int) -> Void)? = nil) -> [SweepRealization] {
        guard !indices.isEmpty else { return [] }
        let threads = min(max(1, workers), indices.count)
        let pool = WorkerThreads(count: threads)
        defer { pool.shutdown() }
        let result = Handoff<[SweepRealization]>()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: pool) {
            result.value = await realizations(grid, indices: indices, workers: threads, progress: progress)
            done.signal()
        }
        done.wait()
        return result.value ?? []
    }

    /// The task group itself: `workers` realizations are started, and each one that finishes
    /// makes room for the next, so memory holds only the results, never a queue of every task.
    /// Runs on whatever executor the calling task prefers (its child tasks inherit it).
    public static func realizations(_ grid: SweepGrid, indices: [Int], workers: Int,
                                    progress: (@Sendable (Int) -> Void)? = nil) async -> [SweepRealization] {
        var results = [SweepRealization?](repeating: nil, count: indices.count)
        await withTaskGroup(of: (Int, SweepRealization).self) { group in
            var next = 0
            func start(_ k: Int) {
                let index = indices[k]
                group.addTask { (k, SweepRealization.simulate(grid, index: index)) }
            }
            while next < min(max(1, workers), indices.count) {
                start(next)
                next += 1
            }
            var finished = 0
            while let (k, realization) = await group.next() {
                results[k] = realization
                finished += 1
                progress?(finished)
                if next < indices.count {
                    start(next)
                    next += 1
                }
            }
        }
        return results.map { $0! }
    }
}

/// A value handed from the task that computes it to the thread that waits for it: written once
/// before the semaphore is signalled, read after the wait returns (the semaphore orders the two).
private final class Handoff<T>: @unchecked Sendable {
    var value: T?
}

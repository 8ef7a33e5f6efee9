import Synchronization

/// Marks the resolutions made while a `didResolve` runs, so that they are not reported again.
enum BehaviorReporting {
    @TaskLocal static var isReporting = false
}

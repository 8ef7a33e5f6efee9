import DICore

extension Container {
    /// Runs `body` and records every resolve this container's tree makes meanwhile: one event per hop.
    ///
    /// While the trace runs, the tree's resolves take the slow path (so that reused singletons are seen
    /// too); afterwards they are back on the fast path. Tracing is off otherwise and costs nothing. Resolves
    /// made by other threads in the same tree during `body` are recorded as well.
    ///
    /// ```swift
    /// let trace = try app.trace { _ = try app.resolve(ViewModel.self) }
    /// print(trace.log())
    /// ```
    ///
    /// - Parameter body: The code whose resolutions to record.
    /// - Returns: The recorded trace.
    /// - Throws: What `body` throws.
    public func trace<Failure: Error>(_ body: () throws(Failure) -> Void) throws(Failure) -> ResolutionTrace {
        var tree: [Container] = []
        var stack = [root]
        while let next = stack.popLast() {
            tree.append(next)
            // A test container's views resolve the dependencies of what it builds from its base's ancestors.
            stack += next.children.reversed() + next.makeTestViews()
        }
        let recorder = TraceRecorder(containers: tree)
        ResolutionTaps.add(recorder, to: tree)
        defer { ResolutionTaps.remove(recorder, from: tree) }
        try body()
        return recorder.trace
    }
}

import DICore
import Synchronization

/// A request-scoped test service: a serial number per instance, and every disposal recorded in its log, so
/// tests can tell instances apart and count how often and in which order they were disposed.
final class Probe: Disposable, Sendable {
    let serial: Int
    let label: String
    private let log: ProbeLog

    init(label: String = "probe", log: ProbeLog) {
        self.label = label
        self.log = log
        self.serial = log.nextSerial()
    }

    func dispose() { log.disposed(self) }
}

/// Where `Probe`s take their serial numbers and record their disposals.
final class ProbeLog: Sendable {
    private let state = Mutex<(serial: Int, disposals: [(serial: Int, label: String)])>((0, []))

    func nextSerial() -> Int {
        state.withLock { state in
            state.serial += 1
            return state.serial
        }
    }

    func disposed(_ probe: Probe) {
        state.withLock { $0.disposals.append((probe.serial, probe.label)) }
    }

    /// How many probes were made.
    var made: Int { state.withLock { $0.serial } }
    /// The serial numbers of the disposed probes, in the order they were disposed.
    var disposedSerials: [Int] { state.withLock { $0.disposals.map(\.serial) } }
    /// The labels of the disposed probes, in the order they were disposed.
    var disposedLabels: [String] { state.withLock { $0.disposals.map(\.label) } }
}

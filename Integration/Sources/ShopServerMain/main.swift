// shop-server: the shop over HTTP, one request container per request.
//
//   swift run --package-path Integration shop-server [--host 127.0.0.1] [--port 8080] 
//       [--hand-wired | --hand-scoped | --minimal-container] [--synthetic-work cold-code|hot-loop]
//
// The port can also come from the PORT environment variable. SIGTERM or SIGINT shut it down gracefully: the
// server stops accepting connections, finishes the requests in flight, then closes the container tree.
import Foundation
import Hummingbird
import Logging
import ShopServer

let usage = """
    usage: shop-server [--host ADDRESS] [--port PORT] [--hand-wired | --hand-scoped | --minimal-container]
                       [--synthetic-work KIND]

      --host ADDRESS   the address to listen on (default 127.0.0.1)
      --port PORT      the port to listen on (default $PORT, else 8080)
      --hand-wired     serve the same handlers with services built by hand, without a container
                       (the baseline of Integration/load.sh)
      --hand-scoped    the same, with a middleware that gives every request a scope made by hand for
                       its unit of work and cart (the floor of Integration/load.sh --floor)
      --minimal-container
                       the same services in the least a general container does: found by type, one
                       scope per request (Integration/load.sh --minimal)
      --synthetic-work KIND
                       with --hand-wired, add to every request 500 distinct functions (cold-code) or
                       one function run 500 times (hot-loop): load.sh --calibrate's variants
    """

var options = ShopServer.Options(port: ProcessInfo.processInfo.environment["PORT"].flatMap(Int.init) ?? 8080)
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--host":
        guard let host = arguments.popFirst() else { fail("--host needs an address.\n\n\(usage)") }
        options.host = host
    case "--port":
        guard let port = arguments.popFirst().flatMap(Int.init) else { fail("--port needs a number.\n\n\(usage)") }
        options.port = port
    case "--hand-wired":
        options.wiring = .handWired
    case "--hand-scoped":
        options.wiring = .handScoped
    case "--minimal-container":
        options.wiring = .minimalContainer
    case "--synthetic-work":
        guard let work = arguments.popFirst().flatMap(SyntheticWork.init(rawValue:)) else {
            fail("--synthetic-work needs cold-code or hot-loop.\n\n\(usage)")
        }
        options.syntheticWork = work
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("Unknown argument \(argument).\n\n\(usage)")
    }
}

if options.syntheticWork != nil, options.wiring != .handWired {
    fail("--synthetic-work calibrates the hand-wired server: add --hand-wired.\n\n\(usage)")
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

do {
    let server = try await ShopServer.make(options)
    options.logger.info("shop-server (\(options.wiring.rawValue)) starting on \(options.host):\(options.port)")
    try await server.application.runService()
} catch let error as StartupError {
    fail("\(error)")
} catch {
    fail("shop-server stopped: \(error)")
}

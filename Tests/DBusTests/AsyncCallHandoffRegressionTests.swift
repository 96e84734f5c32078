import DBus
import Foundation
import TestSupport
import Testing

/// ThreadSanitizer reported a data race on the reply `Message` of `Connection.call(_:) async`:
/// the call's thread resumed the continuation before the task had suspended, a path of the
/// Swift runtime it is not told about. The reply now passes through `Handoff`'s mutex. Under
/// `swift test --sanitize=thread` (make check-long) this test is where the race showed; in a
/// plain run it checks that every awaited call still gets its own reply.
@Suite(.serialized, .timeLimit(.minutes(1)), .enabled(if: PrivateBus.isAvailable, busUnavailableReason))
struct AsyncCallHandoffRegressionTests {
    @Test func awaitedRepliesReachTheirTaskWithoutARace() async throws {
        let fixture = try ServiceFixture()
        let client = fixture.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<25 {
                        let call = try Message.methodCall(
                            destination: testBusName, path: testPath.rawValue, interface: "org.navd.Test1", member: "Add")
                        try call.append([.int32(Int32(worker * 1_000 + index)), .int32(1)])
                        let reply = try await client.call(call, timeoutMilliseconds: 5_000)
                        #expect(try reply.body() == [.int32(Int32(worker * 1_000 + index) + 1)])
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
